"""The explorer in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright) against a
real samples build served on 127.0.0.1: search, the entity page and its Cytoscape neighbourhood, a
triple's source sentence, a query with its citations and trace, merges and the build report; and a
workspace whose names, aliases, passages and merges are HTML/script injections, which must show as
literal text and run nothing. A screenshot of each page is saved under the test's temp dir.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from kgbuild.config import ENV_OVERRIDES, load_config
from kgbuild.engine import Engine
from kgbuild.serve.app import create_app
from kgbuild.serve.server import BackgroundServer
from kgbuild.store.open import QueryIndex
from kgbuild.workspace import Workspace

pytest.importorskip("milvus_lite")

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium "
                                                                "(`make setup` installs it when run as root)")]
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]
XSS_IMG = "<img src=x onerror=alert(1)>"
XSS_SCRIPT = "</script><script>alert(2)</script>"
XSS_ALIAS = '"><svg onload=alert(4)>'
XSS_DESCRIPTION = "<b onmouseover=alert(5)>bold</b> and <iframe src=javascript:alert(6)></iframe>"
XSS_CONCEPT = "<iframe srcdoc='<script>alert(7)</script>'>"


@pytest.fixture(autouse=True)
def no_model_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV_OVERRIDES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def built(samples_project: Path) -> Path:
    """The samples built once for the run with the default stores and no model (tests/conftest.py)."""
    return samples_project


@pytest.fixture(scope="module")
def engine(samples_engine: Engine) -> Engine:
    return samples_engine


@pytest.fixture(scope="module")
def server(engine: Engine) -> Iterator[BackgroundServer]:
    with BackgroundServer(create_app(engine)) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


class Watched:
    """A page with everything it reported: dialogs (dismissed), console errors and uncaught exceptions."""

    def __init__(self, browser: Any, *, bypass_csp: bool = False) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=bypass_csp)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20000)
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.on("dialog", self._dialog)
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def wait_until(self, script: str, timeout: float = 20.0) -> Any:
        """Poll a JS expression (page.wait_for_function evaluates strings, which the app's CSP forbids)."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.page.evaluate(script)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"not true within {timeout} s: {script}")
            time.sleep(0.05)

    def graph_labels(self) -> list[str]:
        labels: list[str] = self.page.evaluate("() => window.kgbuildGraph.nodes().map(n => n.data('label'))")
        return labels

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    page = Watched(browser)
    yield page
    page.close()
    assert not page.dialogs and not page.errors, (page.dialogs, page.errors)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("serve_screenshots")


def test_search_entity_page_neighbourhood_and_source_sentence(server: BackgroundServer, watched: Watched,
                                                              shots: Path) -> None:
    page = watched.page
    page.goto(server.url + "/#/search")
    page.fill("#search-q", "alan turing")
    page.click("#search-go")
    hit = page.locator("li.hit a.hit-name", has_text="Alan Turing").first
    hit.wait_for()
    page.screenshot(path=str(shots / "search.png"), full_page=True)
    hit.click()
    page.wait_for_selector("#node-name")
    assert page.inner_text("#node-name") == "Alan Turing"
    chain = page.inner_text("#concept-chain")
    assert "belongTo" in chain and "Scientist" in chain and "Occupation" in chain
    watched.wait_until("() => window.kgbuildGraph && window.kgbuildGraph.nodes().length > 10")
    labels = set(watched.graph_labels())
    assert {"Alan Turing", "Bletchley Park", "Maida Vale", "Scientist", "Hut 8", "Joan Clarke"} <= labels, labels
    edge_labels = page.evaluate("() => window.kgbuildGraph.edges().map(e => e.data('label'))")
    assert "join [in 1939]" in edge_labels and "bornIn [on 23 June 1912]" in edge_labels
    # a click on Bletchley Park expands it: its concept and its other neighbours join the drawing
    before = len(labels)
    page.evaluate("""() => { const cy = window.kgbuildGraph;
        cy.nodes().filter(n => n.data('label') === 'Bletchley Park').emit('tap'); }""")
    # Wait for the concept itself, not for the first new node: the drawing grows in more than one step.
    watched.wait_until("() => window.kgbuildGraph.nodes().some(n => n.data('label') === 'country house')")
    assert len(watched.graph_labels()) > before
    assert page.inner_text("#inspector h3") == "Bletchley Park"
    # the triple's sources: the sentence stating it highlighted, its named end in bold
    page.locator("tr.triple", has_text="Maida Vale").first.locator("button.triple-open").click()
    page.wait_for_selector("#support mark.sentence")
    assert page.inner_text("#support mark.sentence") == "He was born in Maida Vale, London, on 23 June 1912."
    assert page.inner_text("#support mark.sentence strong.mention") == "Maida Vale"
    assert "Alan Turing was a British mathematician" in page.inner_text("#support blockquote")
    page.screenshot(path=str(shots / "entity.png"), full_page=True)
    assert (shots / "entity.png").stat().st_size > 10_000


def test_query_shows_the_answer_citations_and_trace(server: BackgroundServer, watched: Watched, shots: Path) -> None:
    page = watched.page
    page.goto(server.url + "/#/query")
    page.wait_for_selector("#query-strategy option[value=hybrid]", state="attached")
    assert page.locator("#query-strategy option[value=solver]").is_disabled()  # no model configured
    page.fill("#query-q", "Where was Alan Turing born?")
    page.select_option("#query-strategy", "hybrid")
    page.click("#query-run")
    page.wait_for_selector("#answer")
    assert "Maida Vale" in page.inner_text("#answer")
    citations = page.locator("#citations li.citation")
    assert citations.count() >= 1 and "people/alan_turing" in page.inner_text("#citations")
    page.screenshot(path=str(shots / "query_hybrid.png"), full_page=True)
    # a graph strategy: its trace step by step
    page.fill("#query-q", "In which city was the author of the report on which Maurice Wilkes based the design of EDSAC born?")
    page.select_option("#query-strategy", "frag")
    page.click("#query-run")
    page.wait_for_selector("#trace li.trace-step")
    steps = page.locator("#trace li.trace-step")
    assert steps.count() >= 3 and "step 1" in steps.first.inner_text()
    assert page.locator("#facts li").count() >= 1 and page.locator("#answer-chunks li").count() >= 1
    assert "strategy frag" in page.inner_text("#query-result")
    page.screenshot(path=str(shots / "query_trace.png"), full_page=True)


def test_merges_and_build_report_pages(server: BackgroundServer, watched: Watched, shots: Path) -> None:
    page = watched.page
    page.goto(server.url + "/#/merges")
    page.wait_for_selector("table.merges")
    assert "John von Neumann" in page.inner_text("table.merges") and "short form" in page.inner_text("table.merges")
    page.screenshot(path=str(shots / "merges.png"), full_page=True)
    page.goto(server.url + "/#/report")
    page.wait_for_selector("figure.chart svg rect")
    captions = page.locator("figure.chart figcaption").all_inner_texts()
    assert {"stage times", "drops by reason", "graph after alignment"} <= set(captions)
    assert page.locator("figure.chart svg rect").count() >= 10
    assert "entities" in page.inner_text(".cards")
    page.wait_for_selector("#health ul.unrelated a")
    assert "relations per entity" in page.inner_text("#health .cards")
    assert "entities in no relation, event or qualifier, by class" in page.inner_text("#health")
    unrelated = page.locator("#health ul.unrelated a").first
    name = unrelated.inner_text()
    page.screenshot(path=str(shots / "report.png"), full_page=True)
    unrelated.click()  # a listed name opens its node page
    page.wait_for_selector("#node-name")
    assert page.inner_text("#node-name") == name
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock")  # Swagger UI from the vendored bundle, over /openapi.json
    page.screenshot(path=str(shots / "docs.png"))


# ---------------------------------------------------------------- hostile names


@pytest.fixture(scope="module")
def hostile_server(built: Path, engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundServer]:
    """A copy of the build's tables where names, an alias, a description, a concept, a passage and a merge
    are HTML and script injections; served by an engine over those tables (no stores: no queries)."""
    root = tmp_path_factory.mktemp("serve_hostile")
    for part in ("tables", "reports"):
        shutil.copytree(built / "ws" / part, root / "ws" / part)
    ws = Workspace(root / "ws")
    renamed = {"Hut 8": XSS_IMG, "Bombe": XSS_SCRIPT}
    entities = ws.rows("entities")
    hut8 = ""
    for row in entities:
        if row["name"] == "Hut 8":
            hut8 = row["id"]
            row["description"] = XSS_DESCRIPTION
        if row["name"] == "Alan Turing":
            row["aliases"] = [XSS_ALIAS]
        row["name"] = renamed.get(row["name"], row["name"])
    ws.write_table("entities", entities)
    concepts = ws.rows("concepts")
    for row in concepts:
        if row["name"] == "Scientist":
            row["name"] = XSS_CONCEPT
    ws.write_table("concepts", concepts)
    relations = ws.rows("relations")
    chunk_ids = {c for r in relations if hut8 in (r["subject_id"], r["object_id"]) for c in r["chunk_ids"]}
    chunks = ws.rows("chunks")
    for row in chunks:
        if row["id"] in chunk_ids:
            row["text"] = row["text"].replace("Hut 8", XSS_IMG)
    ws.write_table("chunks", chunks)
    merges = ws.rows("merges")
    merges[0]["canonical_name"] = XSS_SCRIPT
    merges[0]["reason"] = XSS_IMG
    ws.write_table("merges", merges)
    config = load_config(built / "kgbuild.yaml", env={})
    # The tables alone: graph and vector stores are not needed to explore (a query would be refused).
    hostile = Engine(config, QueryIndex(workspace=ws, graph=None, vectors=None, embedder=engine.embedder(),
                                        prefix="hostile"))
    with BackgroundServer(create_app(hostile)) as running:
        yield running


@pytest.mark.parametrize("bypass_csp", [True, False], ids=["without-csp", "with-csp"])
def test_hostile_names_show_literally_and_run_nothing(hostile_server: BackgroundServer, browser: Any, shots: Path,
                                                      bypass_csp: bool) -> None:
    # Without the Content-Security-Policy, only the text-only rendering stands between the data and a script.
    watched = Watched(browser, bypass_csp=bypass_csp)
    page = watched.page
    try:
        page.goto(hostile_server.url + "/#/search?q=" + "%3Cimg")
        hit = page.locator("li.hit a.hit-name").first
        hit.wait_for()
        assert hit.inner_text() == XSS_IMG
        page.goto(hostile_server.url + "/#/search?q=script")
        page.locator("li.hit a.hit-name", has_text="alert(2)").first.wait_for()
        assert XSS_SCRIPT in page.locator("li.hit a.hit-name").all_inner_texts()
        page.goto(hostile_server.url + "/#/search?q=" + "svg%20onload")
        page.locator("li.hit", has_text="Alan Turing").first.wait_for()
        assert XSS_ALIAS in page.inner_text("#results")
        # the entity page of the injected name: title, description, graph labels, triples, sources
        page.goto(hostile_server.url + "/#/search?q=%3Cimg")
        page.locator("li.hit a.hit-name").first.click()
        page.wait_for_selector("#node-name")
        assert page.inner_text("#node-name") == XSS_IMG
        assert XSS_DESCRIPTION in page.inner_text("#node-head")
        watched.wait_until("() => window.kgbuildGraph && window.kgbuildGraph.nodes().length > 1")
        labels = watched.graph_labels()
        assert XSS_IMG in labels and "Alan Turing" in labels
        page.locator("tr.triple", has_text="Alan Turing").first.locator("button.triple-open").click()
        page.wait_for_selector("#support blockquote")
        assert XSS_IMG in page.inner_text("#support")
        assert XSS_IMG in page.inner_text("#support mark.sentence strong.mention")
        page.screenshot(path=str(shots / f"hostile_entity_{'nocsp' if bypass_csp else 'csp'}.png"), full_page=True)
        # Alan Turing's page: the alias, the concept in the chain and the graph
        page.goto(hostile_server.url + "/#/search?q=alan%20turing")
        page.locator("li.hit a.hit-name", has_text="Alan Turing").first.click()
        page.wait_for_selector("#concept-chain")
        assert XSS_ALIAS in page.inner_text("#node-head") and XSS_CONCEPT in page.inner_text("#concept-chain")
        watched.wait_until("() => window.kgbuildGraph && window.kgbuildGraph.nodes().length > 10")
        assert {XSS_IMG, XSS_SCRIPT, XSS_CONCEPT} <= set(watched.graph_labels())
        page.goto(hostile_server.url + "/#/merges")
        page.wait_for_selector("table.merges")
        assert XSS_SCRIPT in page.inner_text("table.merges") and XSS_IMG in page.inner_text("table.merges")
        # nothing became markup: no image, iframe or svg element, only the app's own scripts
        assert page.evaluate("() => document.querySelectorAll('img, iframe, svg, b').length") == 0
        assert page.evaluate("() => [...document.scripts].map(s => s.getAttribute('src'))") == [
            "/static/vendor/cytoscape.min.js", "/static/curate.js", "/static/app.js"]
        assert not watched.dialogs and not watched.errors, (watched.dialogs, watched.errors)
    finally:
        watched.close()


# ---------------------------------------------------------------- rough edges a new user hit (issue 30)


def test_a_refused_search_reads_as_a_sentence_not_json(server: BackgroundServer, browser: Any) -> None:
    # The 422s are expected here, and Chromium logs each as a console error: only dialogs and page errors count.
    watched = Watched(browser)
    page = watched.page
    try:
        # a negative offset in the URL: the page asks from the start instead of showing the API's refusal
        page.goto(server.url + "/#/search?q=a&offset=-20")
        page.locator("li.hit").first.wait_for()
        assert page.locator("p.error").count() == 0
        assert page.inner_text(".pager span").startswith("1–")
        # the box holds no more than the API takes ...
        assert page.get_attribute("#search-q", "maxlength") == "200"
        # ... and a longer search typed into the URL is explained in words
        page.goto(server.url + "/#/search?q=" + "a" * 250)
        error = page.locator("#results p.error")
        error.wait_for()
        text = error.inner_text()
        assert "search text" in text and "at most 200 characters" in text, text
        assert not any(mark in text for mark in ("{", "[", '"loc"', "string_too_long")), text
        page.goto(server.url + "/#/merges?offset=-5")
        page.wait_for_selector("table.merges")
        assert not watched.dialogs and not [e for e in watched.errors if e.startswith("pageerror")], watched.errors
    finally:
        watched.close()


def test_search_tells_same_named_events_apart(server: BackgroundServer, watched: Watched) -> None:
    page = watched.page
    page.goto(server.url + "/#/search?q=born&kind=event")
    page.locator("li.hit").first.wait_for()
    births = page.locator("li.hit", has_text="Birth: born")
    assert births.count() >= 5
    contexts = [births.nth(i).locator(".hit-context").inner_text() for i in range(births.count())]
    assert len(set(contexts)) == len(contexts), contexts
    assert any("person Alan Turing" in c and "place Maida Vale" in c for c in contexts), contexts


def test_any_cell_of_a_triple_opens_its_passages(server: BackgroundServer, watched: Watched) -> None:
    page = watched.page
    page.goto(server.url + "/#/search?q=alan%20turing")
    page.locator("li.hit a.hit-name", has_text="Alan Turing").first.click()
    page.wait_for_selector("tr.triple")
    url = page.url
    row = page.locator("tr.triple", has_text="Maida Vale").first
    row.locator("td").nth(2).locator(".end-name").click()  # the object's name, a link before
    page.wait_for_selector("#support mark.sentence")
    assert page.url == url and "Maida Vale" in page.inner_text("#support mark.sentence")
    page.locator("tr.triple", has_text="Joan Clarke").first.locator("td").first.click()  # the subject cell
    page.wait_for_function("() => document.querySelector('#support').innerText.includes('Joan Clarke')")
    assert page.url == url
    # the page of an end is the small link beside its name
    row.locator("a.node-link").click()
    page.wait_for_selector("#node-name")
    watched.wait_until("() => document.querySelector('#node-name').innerText === 'Maida Vale'")


OVERLAPPING_LABELS = """() => {
    const boxes = window.kgbuildGraph.nodes().map(n => [n.data('label'),
        n.boundingBox({includeLabels: true, includeOverlays: false})]);
    const out = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, p] = boxes[i], [b, q] = boxes[j];
        if (p.x1 < q.x2 && q.x1 < p.x2 && p.y1 < q.y2 && q.y1 < p.y2) out.push([a, b]);
    }
    return out; }"""


def test_neighbourhood_labels_do_not_overlap(server: BackgroundServer, watched: Watched, shots: Path) -> None:
    page = watched.page
    page.goto(server.url + "/#/search?q=alan%20turing")
    page.locator("li.hit a.hit-name", has_text="Alan Turing").first.click()
    watched.wait_until("() => window.kgbuildGraph && window.kgbuildGraph.nodes().length > 20")
    assert page.evaluate(OVERLAPPING_LABELS) == []
    page.screenshot(path=str(shots / "neighbourhood_1hop.png"))
    # after a click expands a neighbour, the new ring is laid out the same way
    before = page.evaluate("() => window.kgbuildGraph.nodes().length")
    page.evaluate("""() => window.kgbuildGraph.nodes().filter(n => n.data('label') === 'Bletchley Park').emit('tap')""")
    watched.wait_until(f"() => window.kgbuildGraph.nodes().length > {before}")
    assert page.evaluate(OVERLAPPING_LABELS) == []
    page.select_option("#hops", "2")
    watched.wait_until(f"() => window.kgbuildGraph.nodes().length > {before + 5}")
    assert page.evaluate(OVERLAPPING_LABELS) == []
    page.screenshot(path=str(shots / "neighbourhood_2hops.png"))


def test_an_unknown_id_shows_only_its_error(server: BackgroundServer, browser: Any) -> None:
    watched = Watched(browser)  # the 404 is expected (Chromium logs it as a console error)
    page = watched.page
    try:
        page.goto(server.url + "/#/node/ent_no_such_node")
        error = page.locator("#node-head p.error")
        error.wait_for()
        assert "no node with id 'ent_no_such_node'" in error.inner_text()
        assert page.locator("#graph, #triples, #support, #inspector").count() == 0
        assert page.locator("#node-head a[href='#/search']").count() == 1
        assert not watched.dialogs and not [e for e in watched.errors if e.startswith("pageerror")], watched.errors
    finally:
        watched.close()


def test_query_trace_names_nodes_and_edges(server: BackgroundServer, watched: Watched) -> None:
    page = watched.page
    page.goto(server.url + "/#/query")
    page.wait_for_selector("#query-strategy option[value=frag]", state="attached")
    page.fill("#query-q", "Where was Alan Turing born?")
    page.select_option("#query-strategy", "frag")
    page.click("#query-run")
    page.wait_for_selector("#trace li.trace-step")
    rank = page.locator("#trace li.trace-step", has_text="rank").first.locator("dl.step-result").inner_text()
    assert "Alan Turing —bornIn→ Maida Vale" in rank, rank
    assert not re.search(r"\b(rel|ent|evt|con)_[0-9a-f]{8}", rank), rank
