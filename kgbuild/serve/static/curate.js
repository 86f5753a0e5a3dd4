// kgbuild explorer: the curation tools (docs/curation.md), shown when the server runs with --write.
//
// app.js calls in here: entityTools (merge with…, never merge…, retype, rename on an entity page),
// tripleTool (reject on a triple row), reviewPage (#/review: the review queue and the corrections
// with undo), mergeStep (hand merges marked on the merges page). Every write is a same-origin POST
// carrying the session's token cookie; all text goes on the page as text nodes (ui.el).
"use strict";

window.kgbuildCurate = (function () {
  let state = null; // the last /api/corrections answer: {write, items, ...}
  let notice = ""; // what the last write did, shown once on the page the write re-rendered

  async function corrections(ui, fresh) {
    if (state === null || fresh) {
      try {
        state = await ui.api("/api/corrections");
      } catch (error) {
        state = { write: false, items: [], problems: [] };
      }
    }
    return state;
  }

  async function write(ui, path, body, status, reload) {
    status.textContent = "saving…";
    try {
      const out = await ui.api(path, null, body);
      state = null;
      const stale = (out.result && out.result.stale) || [];
      notice = (out.what || "done") + (stale.length ? " — stale: " + stale.join("; ") : " — applied");
      status.textContent = notice;
      if (reload) reload();
      return out;
    } catch (error) {
      status.textContent = "Error: " + error.message;
      return null;
    }
  }

  function statusLine(ui) {
    const line = ui.el("p", { id: "curate-status", class: "muted", role: "status" }, notice);
    notice = "";
    return line;
  }

  async function entityTools(head, d, ui, reload) {
    if (d.kind !== "entity") return;
    const known = await corrections(ui);
    if (!known.write) return;
    const status = statusLine(ui);
    const panel = ui.el("form", { id: "curate-entity", class: "panel curate" });
    const other = ui.el("input", { id: "curate-other", type: "text", placeholder: "another entity: name or id", size: 28 });
    const cls = ui.el("input", { id: "curate-class", type: "text", placeholder: "class", size: 14 });
    const name = ui.el("input", { id: "curate-name", type: "text", placeholder: "new name", size: 18 });
    const reason = ui.el("input", { id: "curate-reason", type: "text", placeholder: "why (kept in corrections.yaml)", size: 30 });
    const send = (kind, target) => write(ui, "/api/corrections", { kind, target, reason: reason.value.trim() }, status, reload);
    const needs = (input, then) => () => (input.value.trim() ? then(input.value.trim()) : input.focus());
    ui.append(panel, [
      ui.el("h3", {}, "Correct this entity"),
      ui.el("p", {}, other,
        ui.el("button", { type: "button", id: "curate-merge", onclick: needs(other, (v) => send("merge", { a: d.id, b: v })) }, "merge into this"),
        ui.el("button", { type: "button", id: "curate-never", onclick: needs(other, (v) => send("never_merge", { a: d.id, b: v })) }, "never merge")),
      ui.el("p", {}, cls, ui.el("button", { type: "button", id: "curate-retype", onclick: needs(cls, (v) => send("retype", { entity: d.id, class: v })) }, "retype"),
        " ", name, ui.el("button", { type: "button", id: "curate-rename", onclick: needs(name, (v) => send("rename", { entity: d.id, name: v })) }, "rename")),
      ui.el("p", {}, reason),
      status,
    ]);
    panel.addEventListener("submit", (event) => event.preventDefault());
    head.appendChild(panel);
  }

  function tripleTool(row, t, ui, reload) {
    if (!state || !state.write || t.kind === "role") return;
    const status = document.getElementById("curate-status") || ui.el("span", { class: "muted" });
    const button = ui.el("button", { type: "button", class: "linklike reject-triple", title: "reject this triple (writes corrections.yaml)",
      onclick: (event) => {
        event.stopPropagation();
        write(ui, "/api/corrections", { kind: "reject", target: { id: t.id }, reason: "rejected in the explorer" }, status, reload);
      } }, "reject");
    row.appendChild(ui.el("td", {}, button));
  }

  function mergeStep(m, ui) {
    return m.step === "manual" ? ui.badge("by hand", "manual") : ui.badge(m.step);
  }

  async function reviewPage(main, ui, params) {
    const offset = parseInt(params.get("offset") || "0", 10) || 0;
    const status = statusLine(ui);
    const queueBox = ui.el("div", { id: "review" });
    const fixesBox = ui.el("div", { id: "corrections" });
    ui.append(main, [ui.el("h1", {}, "Review queue"),
      ui.el("p", { class: "muted" }, "Fusion decisions near a threshold: pairs it almost merged (apart) or barely merged (merged). Approve writes a merge, reject a never_merge."),
      status, queueBox, ui.el("h2", {}, "Corrections"), fixesBox]);
    const reload = () => ui.go("review", { offset });
    const known = await corrections(ui, true);
    try {
      const page = await ui.api("/api/review", { offset, limit: 50 });
      if (!page.items.length) ui.append(queueBox, [ui.el("p", { class: "muted" }, "Nothing to review.")]);
      else {
        const body = ui.el("tbody", {});
        for (const it of page.items) {
          const decide = (approve) => write(ui, "/api/review/decide", { id: it.id, approve }, status, reload);
          body.appendChild(ui.el("tr", { class: "review-item", "data-id": it.id },
            ui.el("td", {}, ui.badge(it.kind)), ui.el("td", {}, it.score.toFixed(2)),
            ui.el("td", {}, ui.el("a", { href: ui.nodeHref(it.a_id) }, it.a_name), ui.el("span", { class: "muted" }, " " + it.a_class)),
            ui.el("td", {}, ui.el("a", { href: ui.nodeHref(it.b_id) }, it.b_name), ui.el("span", { class: "muted" }, " " + it.b_class)),
            ui.el("td", { class: "muted" }, it.detail),
            ui.el("td", {}, known.write ? [ui.el("button", { type: "button", class: "approve", onclick: () => decide(true) }, "same: merge"),
              ui.el("button", { type: "button", class: "reject", onclick: () => decide(false) }, "different")] : null)));
        }
        const table = ui.el("table", { class: "review" }, ui.el("thead", {}, ui.el("tr", {},
          ui.el("th", {}, "kind"), ui.el("th", {}, "score"), ui.el("th", {}, "one"), ui.el("th", {}, "other"), ui.el("th", {}, "why"), ui.el("th", {}, ""))), body);
        ui.append(queueBox, [table, ui.pager(page, (o) => ui.go("review", { offset: o }))]);
      }
    } catch (error) {
      ui.showError(queueBox, error);
    }
    if (!known.items.length) ui.append(fixesBox, [ui.el("p", { class: "muted" }, "No corrections yet (" + (known.file || "corrections.yaml") + ").")]);
    const list = ui.el("ol", { class: "corrections" });
    for (const c of known.items) {
      list.appendChild(ui.el("li", { class: "correction" + (c.stale ? " stale" : ""), "data-id": c.id },
        c.what, c.reason ? ui.el("span", { class: "muted" }, " — " + c.reason) : null,
        ui.el("span", { class: "muted" }, ` (${c.author}, ${c.time})`), c.stale ? ui.el("strong", {}, " stale: " + c.stale) : null,
        known.write ? ui.el("button", { type: "button", class: "undo", onclick: () => write(ui, "/api/corrections/undo", { id: c.id }, status, reload) }, "undo") : null));
    }
    ui.append(fixesBox, [list]);
    for (const p of known.problems || []) ui.append(fixesBox, [ui.el("p", { class: "error" }, p)]);
  }

  return { corrections, entityTools, tripleTool, mergeStep, reviewPage };
})();
