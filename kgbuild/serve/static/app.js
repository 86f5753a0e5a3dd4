// kgbuild explorer: a single-page app over the read-only JSON API (/api/*, documented at /docs).
//
// Every piece of text that comes from documents, the graph or a model is put on the page with
// textContent / createTextNode (the `el` helper below), never parsed as HTML; graph labels are
// drawn by Cytoscape on a canvas. Routes live in the URL fragment:
//   #/search?q=&kind=&class=&offset=   #/node/<id>   #/merges?q=&offset=   #/report   #/query   #/review
"use strict";

(function () {
  const main = document.getElementById("main");
  const PAGE = 25;
  const SEARCH_MAX = 200; // the API's longest q (kgbuild/serve/app.py)

  // ------------------------------------------------------------------ DOM helpers (text only)

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    append(node, children);
    return node;
  }

  function append(node, children) {
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    for (const child of children) node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  // Where a passage is, as its title says it: a row of a records file by its `file:line`
  // (`Disease.csv:2`, as `kgbuild inspect support` shows it), after the title when the title is
  // something else (a record's text column: the record's name).
  function passageWhere(title, source) {
    if (!source) return title;
    return !title || source.startsWith(title + ":") ? source : `${title} · ${source}`;
  }

  function nodeHref(id) {
    return "#/node/" + encodeURIComponent(id);
  }

  function badge(text, kind) {
    return el("span", { class: "badge" + (kind ? " badge-" + kind : "") }, text || "?");
  }

  function fmt(n, digits) {
    if (typeof n !== "number") return String(n);
    return n.toLocaleString("en-US", { maximumFractionDigits: digits === undefined ? 2 : digits });
  }

  // ------------------------------------------------------------------ API

  async function api(path, params, body) {
    const url = new URL(path, window.location.origin);
    for (const [key, value] of Object.entries(params || {})) {
      if (value !== undefined && value !== null && value !== "") url.searchParams.set(key, value);
    }
    const init = { headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(describe(data.detail) || response.statusText || "HTTP " + response.status);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  // What the API's parameters are called on the page, for its 422s.
  const FIELD_NAMES = { q: "search text", offset: "page offset", limit: "page size", id: "id", hops: "hops",
    question: "question", strategy: "strategy", k: "k", kind: "kind", class: "class" };

  // An error body's `detail` as one line: a 422 lists {loc, msg} problems ("search text: String should have
  // at most 200 characters"), never shown as raw JSON.
  function describe(detail) {
    if (typeof detail === "string") return detail;
    if (!Array.isArray(detail)) return "";
    return detail.map((problem) => {
      const where = (problem.loc || []).filter((part) => !["query", "body", "path"].includes(part)).join(".");
      return (where ? (FIELD_NAMES[where] || where) + ": " : "") + (problem.msg || "invalid value");
    }).join("; ");
  }

  // A page offset from the URL: a whole number, never negative (the API refuses one below 0).
  function offsetParam(params) {
    return Math.max(0, parseInt(params.get("offset") || "0", 10) || 0);
  }

  function showError(container, error) {
    append(container, [el("p", { class: "error", role: "alert" }, "Error: " + error.message)]);
  }

  function pager(page, go) {
    const bar = el("div", { class: "pager" });
    const from = page.total ? page.offset + 1 : 0;
    const to = page.offset + page.items.length;
    append(bar, [
      el("button", { type: "button", disabled: page.offset === 0, onclick: () => go(Math.max(0, page.offset - page.limit)) }, "‹ previous"),
      el("span", {}, `${fmt(from)}–${fmt(to)} of ${fmt(page.total)}`),
      el("button", { type: "button", disabled: page.next_offset === null, onclick: () => go(page.next_offset) }, "next ›"),
    ]);
    return bar;
  }

  // ------------------------------------------------------------------ routing

  function route() {
    const hash = window.location.hash.replace(/^#\/?/, "");
    const [path, query] = hash.split("?");
    const params = new URLSearchParams(query || "");
    const [page, ...rest] = path.split("/");
    for (const link of document.querySelectorAll("nav a[data-route]")) {
      link.classList.toggle("active", link.dataset.route === (page || "search"));
    }
    clear(main);
    if (page === "node" && rest.length) return nodePage(decodeURIComponent(rest.join("/")));
    if (page === "merges") return mergesPage(params);
    if (page === "review" && window.kgbuildCurate) return window.kgbuildCurate.reviewPage(main, ui, params);
    if (page === "report") return reportPage();
    if (page === "query") return queryPage(params);
    return searchPage(params);
  }

  function go(page, params) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params || {})) {
      if (value !== undefined && value !== null && value !== "" && value !== 0) query.set(key, value);
    }
    const target = "#/" + page + (query.toString() ? "?" + query.toString() : "");
    if (window.location.hash === target) route();
    else window.location.hash = target;
  }

  // ------------------------------------------------------------------ search

  let classesCache = null;

  async function searchPage(params) {
    const q = params.get("q") || "";
    const filter = params.get("class") ? "class:" + params.get("class") : params.get("kind") ? "kind:" + params.get("kind") : "";
    const offset = offsetParam(params);
    // maxlength: the API's own limit on q, so the box cannot send a search the API refuses.
    const input = el("input", { id: "search-q", type: "search", placeholder: "name or alias", value: q, autofocus: true,
      maxlength: SEARCH_MAX });
    const select = el("select", { id: "search-class", "aria-label": "class filter" }, el("option", { value: "" }, "all kinds and classes"));
    const form = el("form", { class: "search", role: "search" }, input, select, el("button", { type: "submit", id: "search-go" }, "Search"));
    const results = el("div", { id: "results" });
    append(main, [el("h1", {}, "Search the graph"), form, results]);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const [kind, value] = select.value.split(/:(.*)/s);
      go("search", { q: input.value.trim(), kind: kind === "kind" ? value : "", class: kind === "class" ? value : "" });
    });
    try {
      classesCache = classesCache || (await api("/api/classes"));
      const kinds = [...new Set(classesCache.map((c) => c.kind))];
      for (const kind of kinds) select.appendChild(el("option", { value: "kind:" + kind }, "every " + kind));
      for (const c of classesCache) {
        if (c.kind === "entity" && c.class) select.appendChild(el("option", { value: "class:" + c.class }, `${c.class} (${fmt(c.count)})`));
      }
      select.value = filter;
      const args = { q, offset, limit: PAGE };
      if (filter.startsWith("class:")) args.class = filter.slice(6);
      if (filter.startsWith("kind:")) args.kind = filter.slice(5);
      const page = await api("/api/search", args);
      if (!page.items.length) {
        append(results, [el("p", { class: "muted" }, q ? "Nothing matches." : "The graph is empty.")]);
        return;
      }
      const list = el("ul", { class: "hits" });
      for (const hit of page.items) {
        list.appendChild(el("li", { class: "hit" },
          el("a", { href: nodeHref(hit.id), class: "hit-name" }, hit.name),
          " ", badge(hit.class || hit.kind, hit.kind),
          hit.matched !== hit.name ? el("span", { class: "muted" }, " alias: ", hit.matched) : null,
          hit.context ? el("span", { class: "hit-context" }, " ", hit.context) : null,
          el("span", { class: "muted" }, ` · ${fmt(hit.degree)} links`)));
      }
      append(results, [list, pager(page, (o) => go("search", { q, kind: args.kind, class: args.class, offset: o }))]);
    } catch (error) {
      showError(results, error);
    }
  }

  // ------------------------------------------------------------------ node page

  const KIND_COLOURS = { entity: "#3b6ea8", concept: "#7a4fa3", event: "#b5651d", chunk: "#6b7b6b" };
  let graph = null; // the live Cytoscape instance of the node page (window.kgbuildGraph for tests)

  function edgeLabel(edge) {
    const quals = (edge.qualifiers || []).map((q) => q.predicate + " " + q.value);
    return edge.predicate + (quals.length ? " [" + quals.join("; ") + "]" : "");
  }

  // baseHop: the hop of the node expanded, so rings stay ordered by distance from the page's node.
  function addNeighbourhood(cy, data, baseHop) {
    baseHop = baseHop || 0;
    const added = [];
    for (const node of data.nodes) {
      if (cy.getElementById(node.id).nonempty()) continue;
      added.push({ group: "nodes", data: { id: node.id, label: node.name, kind: node.kind, cls: node.class || "", degree: node.degree,
        hop: node.hop + baseHop } });
    }
    for (const edge of data.edges) {
      if (cy.getElementById(edge.id).nonempty()) continue;
      added.push({ group: "edges", data: { id: edge.id, source: edge.source, target: edge.target, label: edgeLabel(edge),
        predicate: edge.predicate, kind: edge.kind, qualifiers: edge.qualifiers } });
    }
    cy.add(added);
    return added.length;
  }

  const LABEL_GAP = 4; // px kept free around each node and its label
  const RING_STEP = 24; // px between the radii tried for a node
  const FIRST_RING = 90; // px: the page's node keeps some room, so edges to it do not run over labels
  const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

  // The box a node and its label take, relative to the node's centre (measured by Cytoscape: real fonts).
  function footprint(node) {
    const at = node.position();
    const box = node.boundingBox({ includeLabels: true, includeOverlays: false });
    return { x1: box.x1 - at.x - LABEL_GAP, x2: box.x2 - at.x + LABEL_GAP, y1: box.y1 - at.y - LABEL_GAP, y2: box.y2 - at.y + LABEL_GAP };
  }

  // Rings by distance from the page's node, placed so that no two labels overlap: nodes go out hop by hop
  // (best connected first), each to the first free spot on the smallest ring that has one, the spots tried
  // a golden angle apart so a ring fills evenly. A fixed concentric layout drew 24 labels of Alan Turing's
  // neighbours over each other on one ring. Deterministic: the same graph is drawn the same way.
  function layout(cy, centre) {
    const c = cy.getElementById(centre);
    if (c.nonempty()) c.addClass("centre");
    const nodes = cy.nodes().toArray().sort((a, b) => (a.id() === centre ? -1 : b.id() === centre ? 1 : 0)
      || a.data("hop") - b.data("hop") || b.data("degree") - a.data("degree") || String(a.data("label")).localeCompare(String(b.data("label"))));
    const taken = [];
    const free = (x, y, f) => taken.every((t) => x + f.x2 <= t.x1 || x + f.x1 >= t.x2 || y + f.y2 <= t.y1 || y + f.y1 >= t.y2);
    const positions = {};
    let outer = 0; // the largest radius used so far
    let hopStart = 0; // the smallest radius the current hop may use: outside the previous hop
    let lastHop = null;
    let turn = 0;
    // Ellipses as wide as the panel: a wide panel holds more labels side by side than a circle would use.
    const aspect = Math.min(2.2, Math.max(1, cy.width() / Math.max(1, cy.height())));
    for (const node of nodes) {
      const f = footprint(node);
      if (node.data("hop") !== lastHop) {
        hopStart = taken.length ? Math.max(outer + RING_STEP, FIRST_RING) : 0;
        lastHop = node.data("hop");
      }
      for (let r = hopStart; ; r += RING_STEP) {
        const spots = r === 0 ? 1 : Math.max(8, Math.ceil((2 * Math.PI * r) / 12));
        let placed = false;
        for (let k = 0; k < spots && !placed; k++) {
          const angle = -Math.PI / 2 + turn + (2 * Math.PI * k) / spots;
          const x = r * aspect * Math.cos(angle);
          const y = r * Math.sin(angle);
          if (!free(x, y, f)) continue;
          positions[node.id()] = { x, y };
          taken.push({ x1: x + f.x1, x2: x + f.x2, y1: y + f.y1, y2: y + f.y2 });
          outer = Math.max(outer, r);
          turn = angle + GOLDEN_ANGLE;
          placed = true;
        }
        if (placed) break;
      }
    }
    cy.layout({ name: "preset", positions: (n) => positions[n.id()], animate: false, fit: true, padding: 24 }).run();
    if (cy.zoom() > 1.3) {  // a handful of nodes: fitting them would blow the labels up
      cy.zoom(1.3);
      cy.center();
    }
  }

  const LABELLED_EDGES = 15; // more edges than this: labels on pointing or selecting only

  function quietEdges(cy) {
    cy.edges().toggleClass("quiet", cy.edges().length > LABELLED_EDGES);
  }

  async function nodePage(id) {
    const head = el("section", { id: "node-head" });
    const graphBox = el("div", { id: "graph", "aria-label": "neighbourhood graph" });
    const status = el("p", { id: "graph-status", class: "muted" });
    const hops = el("select", { id: "hops", "aria-label": "hops" }, el("option", { value: "1" }, "1 hop"), el("option", { value: "2" }, "2 hops"));
    const withChunks = el("input", { type: "checkbox", id: "with-chunks" });
    const inspector = el("div", { id: "inspector", class: "panel" }, el("p", { class: "muted" }, "Click a node to expand it; click an edge to see its qualifiers."));
    const triplesBox = el("section", { id: "triples" });
    const supportBox = el("section", { id: "support", class: "panel" });
    append(main, [head]);
    let detail;
    try {
      detail = await api("/api/node", { id });
    } catch (error) {
      // An id that names nothing: the error and a way back, not an empty graph and triples table under it.
      showError(head, error);
      append(head, [el("p", {}, el("a", { href: "#/search" }, "Search the graph"))]);
      return;
    }
    renderDetail(head, detail);
    append(main, [
      el("div", { class: "graph-tools" }, hops, el("label", {}, withChunks, " passages"), status),
      el("div", { class: "graph-row" }, graphBox, inspector),
      el("div", { class: "triple-row" }, triplesBox, supportBox),
    ]);
    if (window.kgbuildCurate) await window.kgbuildCurate.entityTools(head, detail, ui, route); // curate.js, --write

    async function draw() {
      clear(status).appendChild(document.createTextNode("loading…"));
      try {
        const data = await api("/api/neighbourhood", { id, hops: hops.value, mentions: withChunks.checked ? "true" : "", max_nodes: 80, max_edges: 200 });
        if (graph) graph.destroy();
        graph = window.cytoscape({
          container: graphBox,
          style: [
            { selector: "node", style: { label: "data(label)", "font-size": 10, "text-wrap": "ellipsis", "text-max-width": 140,
              "text-valign": "bottom", "text-margin-y": 3, width: 14, height: 14, "background-color": "#3b6ea8", color: "#222" } },
            { selector: "node[kind = 'concept']", style: { "background-color": KIND_COLOURS.concept, shape: "round-rectangle" } },
            { selector: "node[kind = 'event']", style: { "background-color": KIND_COLOURS.event, shape: "diamond" } },
            { selector: "node[kind = 'chunk']", style: { "background-color": KIND_COLOURS.chunk, shape: "rectangle" } },
            { selector: "node.centre", style: { width: 24, height: 24, "border-width": 3, "border-color": "#d33", "font-weight": "bold" } },
            { selector: "node.expanded", style: { "border-width": 2, "border-color": "#444" } },
            { selector: "edge", style: { width: 1.5, "curve-style": "bezier", "target-arrow-shape": "triangle", "line-color": "#999",
              "target-arrow-color": "#999", label: "data(label)", "font-size": 8, color: "#555", "text-rotation": "autorotate",
              "text-background-color": "#fff", "text-background-opacity": 0.8, "text-background-padding": 1 } },
            { selector: "edge[kind = 'role']", style: { "line-style": "dashed" } },
            { selector: "edge[kind = 'mention']", style: { "line-style": "dotted", "line-color": "#bbb", label: "" } },
            // Many edges: their labels only for the node under the pointer or a selected edge (35 predicates
            // written over each other near the centre read as nothing).
            { selector: "edge.quiet", style: { label: "" } },
            { selector: "edge.quiet.near, edge.quiet:selected", style: { label: "data(label)" } },
            { selector: ":selected", style: { "border-width": 3, "border-color": "#f90", "line-color": "#f90", "target-arrow-color": "#f90" } },
          ],
        });
        window.kgbuildGraph = graph;
        addNeighbourhood(graph, data);
        layout(graph, id);
        graph.getElementById(id).addClass("expanded");
        clear(status).appendChild(document.createTextNode(
          `${graph.nodes().length} nodes, ${graph.edges().length} edges` + (data.truncated ? " (capped: more exist)" : "")));
        quietEdges(graph);
        graph.on("mouseover", "node", (event) => event.target.connectedEdges().addClass("near"));
        graph.on("mouseout", "node", (event) => event.target.connectedEdges().removeClass("near"));
        graph.on("tap", "node", (event) => expand(event.target));
        graph.on("tap", "edge", (event) => inspectEdge(event.target));
      } catch (error) {
        clear(status);
        showError(status, error);
      }
    }

    async function expand(node) {
      inspectNode(node);
      if (node.hasClass("expanded")) return;
      try {
        const data = await api("/api/neighbourhood", { id: node.id(), hops: 1, mentions: withChunks.checked ? "true" : "", max_nodes: 40, max_edges: 80 });
        node.addClass("expanded");
        const added = addNeighbourhood(graph, data, node.data("hop"));
        if (added) {
          layout(graph, id);
          quietEdges(graph);
        }
        clear(status).appendChild(document.createTextNode(
          `${graph.nodes().length} nodes, ${graph.edges().length} edges` + (data.truncated ? " (last expansion capped)" : "")));
      } catch (error) {
        showError(status, error);
      }
    }

    function inspectNode(node) {
      clear(inspector);
      append(inspector, [
        el("h3", {}, node.data("label")),
        el("p", {}, badge(node.data("cls") || node.data("kind"), node.data("kind")), ` ${node.data("degree")} links`),
        el("a", { href: nodeHref(node.id()) }, "open its page"),
      ]);
    }

    function inspectEdge(edge) {
      clear(inspector);
      const src = edge.source().data("label");
      const dst = edge.target().data("label");
      append(inspector, [el("h3", {}, edge.data("predicate")), el("p", {}, src, " → ", dst), el("p", { class: "muted" }, edge.data("kind"))]);
      const quals = edge.data("qualifiers") || [];
      if (quals.length) {
        const list = el("ul", { class: "qualifiers" });
        for (const q of quals) list.appendChild(el("li", {}, q.predicate, ": ", q.literal ? q.value : el("a", { href: nodeHref(q.value_id) }, q.value)));
        append(inspector, [el("h4", {}, "qualifiers"), list]);
      }
    }

    hops.addEventListener("change", draw);
    withChunks.addEventListener("change", draw);
    draw();
    loadTriples(id, 0, triplesBox, supportBox);
  }

  function renderDetail(head, d) {
    append(head, [
      el("h1", { id: "node-name" }, d.name),
      el("p", {}, badge(d.class || d.kind, d.kind), d.semantic_type ? el("span", { class: "muted" }, " " + d.semantic_type) : null,
        el("span", { class: "muted" }, ` · ${fmt(d.degree)} links · ${fmt(d.chunk_count)} passages · id `), el("code", {}, d.id)),
    ]);
    if (d.description) append(head, [el("p", { class: "description" }, d.description)]);
    if (d.text) append(head, [el("p", { class: "muted" }, passageWhere(d.title || d.doc_id, d.source)), el("blockquote", { class: "passage" }, d.text)]);
    if (d.aliases.length) append(head, [el("p", {}, el("strong", {}, "aliases: "), d.aliases.join(" · "))]);
    const props = Object.entries(d.properties || {});
    if (props.length) {
      const table = el("table", { class: "props" });
      for (const [key, values] of props) table.appendChild(el("tr", {}, el("th", {}, key), el("td", {}, values.join("; "))));
      append(head, [table]);
    }
    if (d.concept_chain.length) {
      const chain = el("ul", { id: "concept-chain", class: "chain" });
      const names = { [d.id]: d.name };
      for (const link of d.concept_chain) names[link.parent.id] = link.parent.name;
      for (const link of d.concept_chain) {
        chain.appendChild(el("li", { class: "depth-" + Math.min(link.depth, 5) },
          names[link.child_id] || link.child_id, " —", link.predicate, "→ ",
          el("a", { href: nodeHref(link.parent.id) }, link.parent.name)));
      }
      append(head, [el("h3", {}, "concept chain"), chain]);
    }
  }

  async function loadTriples(id, offset, box, supportBox) {
    clear(box);
    try {
      const page = await api("/api/triples", { id, offset, limit: PAGE });
      append(box, [el("h2", {}, `Triples (${fmt(page.total)})`)]);
      if (!page.items.length) {
        append(box, [el("p", { class: "muted" }, "No relations or event roles.")]);
        return;
      }
      const table = el("table", { class: "triples" },
        el("thead", {}, el("tr", {}, el("th", {}, "subject"), el("th", {}, "predicate"), el("th", {}, "object"), el("th", {}, "qualifiers"), el("th", {}, "sources"))));
      const body = el("tbody", {});
      for (const t of page.items) {
        // A click anywhere on the row opens its passages; only the small ↗ after a name leaves the page.
        const end = (ref) => [el("span", { class: "end-name" }, ref.name), " ",
          ref.id === id ? null : el("a", { href: nodeHref(ref.id), class: "node-link", title: "open the page of " + ref.name,
            "aria-label": "open the page of " + ref.name }, "↗")];
        const row = el("tr", { class: "triple", tabindex: "0", "data-id": t.id, title: "show the passages behind this triple" },
          el("td", {}, end(t.subject)),
          el("td", {}, el("button", { type: "button", class: "linklike triple-open" }, t.predicate), t.kind === "role" ? el("span", { class: "muted" }, " (role)") : null),
          el("td", {}, end(t.object)),
          el("td", {}, (t.qualifiers || []).map((q) => q.predicate + " " + q.value).join("; ")),
          el("td", {}, String(t.support_total)));
        const open = () => {
          for (const r of body.querySelectorAll("tr.selected")) r.classList.remove("selected");
          row.classList.add("selected");
          showSupport(t, supportBox);
        };
        row.addEventListener("click", (event) => {
          if (event.target.closest("a")) return;
          open();
        });
        row.addEventListener("keydown", (event) => { if (event.key === "Enter") open(); });
        if (window.kgbuildCurate) window.kgbuildCurate.tripleTool(row, t, ui, route);
        body.appendChild(row);
      }
      table.appendChild(body);
      append(box, [table, pager(page, (o) => loadTriples(id, o, box, supportBox))]);
      if (!supportBox.firstChild) append(supportBox, [el("p", { class: "muted" }, "Click a triple to see the passages behind it.")]);
    } catch (error) {
      showError(box, error);
    }
  }

  // The passage as text nodes: the sentence stating the triple in <mark>, the ends named in it in <strong>.
  function highlighted(text, sentence, mentions) {
    const block = el("blockquote", { class: "passage" });
    if (!sentence) {
      block.appendChild(document.createTextNode(text));
      return block;
    }
    block.appendChild(document.createTextNode(text.slice(0, sentence.start)));
    const mark = el("mark", { class: "sentence" });
    let at = sentence.start;
    for (const m of mentions || []) {
      if (m.start < at || m.end > sentence.end) continue;
      mark.appendChild(document.createTextNode(text.slice(at, m.start)));
      mark.appendChild(el("strong", { class: "mention" }, text.slice(m.start, m.end)));
      at = m.end;
    }
    mark.appendChild(document.createTextNode(text.slice(at, sentence.end)));
    block.appendChild(mark);
    block.appendChild(document.createTextNode(text.slice(sentence.end)));
    return block;
  }

  function showSupport(t, box) {
    clear(box);
    append(box, [el("h2", {}, "Sources"), el("p", { class: "triple-line" },
      el("strong", {}, t.subject.name), " —", t.predicate, "→ ", el("strong", {}, t.object.name))]);
    if (!t.support.length) append(box, [el("p", { class: "muted" }, "No supporting passage recorded.")]);
    for (const s of t.support) {
      append(box, [el("div", { class: "support" },
        el("p", { class: "muted" }, passageWhere(s.title, s.source), " · ", el("code", {}, s.chunk_id), s.how ? ` · sentence found by ${s.how === "both" ? "both names" : s.how === "one" ? "one name" : "words"}` : " · no sentence names it"),
        highlighted(s.text, s.sentence, s.mentions))]);
    }
    if (t.support_total > t.support.length) append(box, [el("p", { class: "muted" }, `${t.support_total - t.support.length} more passages (see /api/triple)`)]);
  }

  // ------------------------------------------------------------------ merges

  async function mergesPage(params) {
    const q = params.get("q") || "";
    const offset = offsetParam(params);
    const input = el("input", { id: "merges-q", type: "search", placeholder: "filter by name or reason", value: q,
      maxlength: SEARCH_MAX });
    const form = el("form", { class: "search" }, input, el("button", { type: "submit" }, "Filter"));
    const box = el("div", { id: "merges" });
    append(main, [el("h1", {}, "What fusion merged"), form, box]);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      go("merges", { q: input.value.trim() });
    });
    try {
      const page = await api("/api/merges", { q, offset, limit: 50 });
      if (!page.items.length) {
        append(box, [el("p", { class: "muted" }, "No merges.")]);
        return;
      }
      const table = el("table", { class: "merges" }, el("thead", {}, el("tr", {}, el("th", {}, "kept"), el("th", {}, "step"), el("th", {}, "why"), el("th", {}, "ids folded in"))));
      const body = el("tbody", {});
      for (const m of page.items) {
        body.appendChild(el("tr", {},
          el("td", {}, el("a", { href: nodeHref(m.canonical_id) }, m.canonical_name || m.canonical_id)),
          el("td", {}, window.kgbuildCurate ? window.kgbuildCurate.mergeStep(m, ui) : badge(m.step)),
          el("td", {}, m.reason),
          el("td", {}, el("code", {}, m.merged_ids.filter((x) => x !== m.canonical_id).join(", ")))));
      }
      table.appendChild(body);
      append(box, [table, pager(page, (o) => go("merges", { q, offset: o }))]);
    } catch (error) {
      showError(box, error);
    }
  }

  // ------------------------------------------------------------------ build report

  // Horizontal bars as plain SVG: [label, value] pairs, the value printed after the bar.
  function barChart(title, pairs, unit) {
    const rows = pairs.filter(([, v]) => typeof v === "number");
    const box = el("figure", { class: "chart" }, el("figcaption", {}, title));
    if (!rows.length) {
      append(box, [el("p", { class: "muted" }, "nothing recorded")]);
      return box;
    }
    const max = Math.max(...rows.map(([, v]) => v), 1e-9);
    const labelWidth = 230;
    const barWidth = 300;
    const rowHeight = 20;
    const chart = svg("svg", { width: labelWidth + barWidth + 110, height: rows.length * rowHeight + 4, role: "img", "aria-label": title });
    rows.forEach(([label, value], i) => {
      const y = i * rowHeight + 2;
      chart.appendChild(svg("text", { x: labelWidth - 6, y: y + 13, "text-anchor": "end", class: "chart-label" }, label));
      chart.appendChild(svg("rect", { x: labelWidth, y: y + 2, width: Math.max(1, (value / max) * barWidth), height: rowHeight - 6, class: "chart-bar" }));
      chart.appendChild(svg("text", { x: labelWidth + (value / max) * barWidth + 6, y: y + 13, class: "chart-value" }, fmt(value) + (unit || "")));
    });
    box.appendChild(chart);
    return box;
  }

  function card(label, value) {
    return el("div", { class: "card" }, el("div", { class: "card-value" }, fmt(value, 0)), el("div", { class: "card-label" }, label));
  }

  async function reportPage() {
    const box = el("div", { id: "report" });
    append(main, [el("h1", {}, "Build report"), box]);
    let r;
    try {
      r = await api("/api/report");
    } catch (error) {
      showError(box, error);
      return;
    }
    const rows = (r.persist && r.persist.rows) || {};
    const llm = r.llm && r.llm.total ? r.llm.total : null;
    append(box, [
      el("p", { class: "muted" }, `${r.started_at} → ${r.finished_at} · ${fmt(r.wall_seconds)} s · schema ${r.schema_name} · ${r.workers} workers · peak ${fmt(r.peak_rss_mb, 0)} MB`),
      el("div", { class: "cards" },
        card("documents", rows.documents || 0), card("chunks", rows.chunks || 0), card("entities", rows.entities || 0),
        card("relations", rows.relations || 0), card("events", rows.events || 0), card("hypernodes", rows.hypernodes || 0),
        card("concepts", rows.concepts || 0), card("merges", rows.merges || 0), card("drops", rows.drops || 0),
        card("model calls", llm ? llm.calls : 0), card("tokens", llm ? llm.prompt_tokens + llm.completion_tokens : 0)),
    ]);
    if (llm) append(box, [el("p", {}, `model cost: $${fmt(llm.cost_usd, 4)} · prompt tokens ${fmt(llm.prompt_tokens, 0)} · completion tokens ${fmt(llm.completion_tokens, 0)} · retries ${fmt(llm.retries, 0)} · failures ${fmt(llm.failures, 0)} · cache hits ${fmt(llm.cache_hits, 0)}`)]);
    const charts = el("div", { class: "charts" });
    charts.appendChild(barChart("stage times", Object.entries(r.stage_seconds || {}), " s"));
    const drops = Object.entries((r.assemble && r.assemble.drops) || {}).sort((a, b) => b[1] - a[1]);
    charts.appendChild(barChart("drops by reason", drops));
    const graphAfter = (r.align && r.align.graph) || (r.assemble && r.assemble.graph) || {};
    charts.appendChild(barChart("graph after alignment", Object.entries(graphAfter)));
    const alignment = (r.align && r.align.alignment) || {};
    charts.appendChild(barChart("merges by step", Object.entries(alignment.merges_by_step || {})));
    charts.appendChild(barChart("isA links by step", Object.entries(alignment.isa_by_step || {})));
    if (r.llm && r.llm.by_stage) {
      const byStage = Object.entries(r.llm.by_stage);
      charts.appendChild(barChart("model calls by stage", byStage.map(([s, u]) => [s, u.calls])));
      charts.appendChild(barChart("tokens by stage", byStage.map(([s, u]) => [s, u.prompt_tokens + u.completion_tokens])));
      charts.appendChild(barChart("cost by stage", byStage.map(([s, u]) => [s, u.cost_usd]), " $"));
    }
    append(box, [charts]);
    if (r.write && r.write.error) append(box, [el("p", { class: "error" }, "store write failed: " + r.write.error)]);
    await healthSection(box);
    append(box, [el("details", {}, el("summary", {}, "the whole report (JSON)"), el("pre", {}, JSON.stringify(r, null, 2)))]);
  }

  // How much of the text the graph relates (GET /api/health, `kgbuild inspect health`): the build's
  // warnings, the figures, and the names the text mentions most that the graph relates to nothing.
  async function healthSection(box) {
    const section = el("section", { id: "health" }, el("h2", {}, "Graph health"));
    append(box, [section]);
    let h;
    try {
      h = await api("/api/health");
    } catch (error) {
      showError(section, error);
      return;
    }
    for (const warning of h.warnings) append(section, [el("p", { class: "error warning" }, "warning: " + warning)]);
    append(section, [el("div", { class: "cards" },
      el("div", { class: "card" }, el("div", { class: "card-value" }, fmt(h.relations_per_entity, 2)), el("div", { class: "card-label" }, "relations per entity")),
      card("entities in no relation", h.unrelated_entities),
      card("documents with no relation", h.documents_without_relations),
      card("components", h.components))]);
    const charts = el("div", { class: "charts" });
    charts.appendChild(barChart("entities in no relation, event or qualifier, by class", Object.entries(h.unrelated_by_class)));
    charts.appendChild(barChart("entities by class", Object.entries(h.class_shares).map(([c, v]) => [c, v * 100]), " %"));
    append(section, [charts]);
    if (h.most_mentioned_unrelated.length) {
      const list = el("ul", { class: "unrelated" });
      for (const item of h.most_mentioned_unrelated) {
        append(list, [el("li", {}, el("a", { href: nodeHref(item.id) }, item.name), ` (${item.detail || "no class"}): ${item.count} chunk${item.count === 1 ? "" : "s"}`)]);
      }
      append(section, [el("h3", {}, "most-mentioned entities in no relation"), list]);
    }
    if (h.documents_with_no_relation.length) {
      const list = el("ul", { class: "quiet-documents" });
      for (const item of h.documents_with_no_relation) append(list, [el("li", {}, `${item.name}: ${item.count} entities`)]);
      append(section, [el("h3", {}, "documents with the most entities and no relation"), list]);
    }
  }

  // ------------------------------------------------------------------ query

  let strategiesCache = null;

  async function queryPage(params) {
    const question = el("textarea", { id: "query-q", rows: 2, placeholder: "Ask a question about the documents" });
    question.value = params.get("q") || "";
    const strategy = el("select", { id: "query-strategy", "aria-label": "strategy" }, el("option", { value: "auto" }, "auto"));
    const k = el("input", { id: "query-k", type: "number", min: 1, max: 20, value: 5, "aria-label": "k" });
    const run = el("button", { type: "submit", id: "query-run" }, "Ask");
    const form = el("form", { class: "query" }, question, el("div", { class: "query-tools" }, el("label", {}, "strategy ", strategy), el("label", {}, "k ", k), run));
    const out = el("div", { id: "query-result" });
    append(main, [el("h1", {}, "Query"), form, out]);
    try {
      strategiesCache = strategiesCache || (await api("/api/strategies"));
      for (const s of strategiesCache) {
        strategy.appendChild(el("option", { value: s.name, disabled: !s.available, title: s.reason || s.description },
          s.name + (s.available ? "" : " (unavailable)")));
      }
      if (params.get("strategy")) strategy.value = params.get("strategy");
    } catch (error) {
      showError(out, error);
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clear(out);
      run.disabled = true;
      append(out, [el("p", { class: "muted", id: "query-wait" }, "running…")]);
      try {
        const answer = await api("/api/query", undefined, { question: question.value, strategy: strategy.value, k: parseInt(k.value, 10) || null });
        clear(out);
        renderAnswer(out, answer);
      } catch (error) {
        clear(out);
        showError(out, error);
      } finally {
        run.disabled = false;
      }
    });
  }

  // A trace field as text: lists comma-separated (long ones cut), maps one "key: values" per entry; a node or
  // edge id is shown by its name (`labels` from the API: "Alan Turing —bornIn→ Maida Vale", not "rel_78a3…").
  function resultText(value, labels) {
    const named = (v) => (typeof v !== "string" ? JSON.stringify(v) : Object.hasOwn(labels, v) ? labels[v] : v);
    const list = (items) => items.length > 20 ? items.slice(0, 20).join(", ") + ` … (${items.length - 20} more)` : items.join(", ");
    if (Array.isArray(value)) return list(value.map(named));
    if (value && typeof value === "object") {
      return Object.entries(value).map(([k, v]) => k + ": " + (Array.isArray(v) ? list(v.map(named)) : named(v))).join("\n");
    }
    return typeof value === "string" ? named(value) : String(value);
  }

  function renderAnswer(out, a) {
    append(out, [
      el("h2", { id: "answer" }, a.answer || "(no answer)"),
      el("p", { class: "muted" }, `strategy ${a.strategy} · ${a.mode} · ${a.resolved ? "resolved" : "not verified"} · ${a.llm_calls} model calls · ${a.prompt_tokens + a.completion_tokens} tokens · ${fmt(a.seconds, 3)} s`),
    ]);
    if (a.notes.length) append(out, [el("ul", { class: "notes" }, a.notes.map((n) => el("li", {}, n)))]);
    if (a.citations.length) {
      append(out, [el("h3", {}, "Citations"), el("ol", { id: "citations" }, a.citations.map((c) => el("li", { class: "citation" },
        el("a", { href: nodeHref(c.chunk_id) }, passageWhere(c.doc_id, c.source)), " ", el("code", {}, c.chunk_id), el("blockquote", {}, c.text))))]);
    }
    if (a.plan.length) append(out, [el("h3", {}, "Plan"), el("pre", { class: "plan" }, a.plan.join("\n"))]);
    if (a.trace.length) {
      const steps = el("ol", { id: "trace" });
      for (const step of a.trace) {
        const fields = el("dl", { class: "step-result" });
        for (const [key, value] of Object.entries(step.result || {})) {
          append(fields, [el("dt", {}, key), el("dd", {}, resultText(value, a.labels || {}))]);
        }
        steps.appendChild(el("li", { class: "trace-step" },
          el("p", {}, el("strong", {}, `step ${step.step}`), step.question ? " " + step.question : "",
            el("span", { class: "muted" }, ` · ${fmt(step.seconds, 3)} s · ${step.llm_calls} model calls`)),
          step.logical_form ? el("pre", { class: "lf" }, step.logical_form) : null,
          fields));
      }
      append(out, [el("h3", {}, `Trace (${a.trace.length} steps)`), steps]);
    }
    // Long lists fold: the answer, its sources and the trace come first.
    const section = (title, id, items, render) => {
      if (!items.length) return;
      const list = el("ol", { id }, items.map(render));
      append(out, [items.length > 8
        ? el("details", {}, el("summary", {}, `${title} (${items.length})`), list)
        : el("div", {}, el("h3", {}, title), list)]);
    };
    section("Facts", "facts", a.facts, (f) => el("li", {}, f));
    section("Triples", "answer-triples", a.triples, (t) => el("li", {},
      el("a", { href: nodeHref(t.subject_id) }, t.subject), " —", t.predicate, "→ ", el("a", { href: nodeHref(t.object_id) }, t.object)));
    section("Passages", "answer-chunks", a.chunks, (c) => el("li", {},
      el("a", { href: nodeHref(c.id) }, c.id), el("span", { class: "muted" }, ` score ${fmt(c.score, 3)} `,
        Object.entries(c.signals || {}).map(([k, v]) => `${k} ${fmt(v, 3)}`).join(" · ")),
      el("blockquote", {}, c.text)));
  }

  // ------------------------------------------------------------------ start

  async function loadStats() {
    const box = document.getElementById("stats");
    try {
      const s = await api("/api/stats");
      box.textContent = `${fmt(s.nodes.entity || 0)} entities · ${fmt(s.edges.relation || 0)} relations · ${fmt(s.nodes.chunk || 0)} passages`;
    } catch (error) {
      box.textContent = "";
    }
  }

  // What curate.js (the curation tools) uses of this file.
  const ui = { el, append, clear, api, badge, showError, nodeHref, pager, go };

  window.addEventListener("hashchange", route);
  loadStats();
  route();
})();
