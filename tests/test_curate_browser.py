"""Issue 27: the explorer's write mode in a real headless Chromium against a samples build of its own:
merge two entities from an entity page, undo it on the review page, reject a triple; the graph view
changes each time. The page logs in with the token once (cookie), and its POSTs carry the browser's
own Origin, which the server checks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_curate_serve import built_samples, write_server
from test_serve_browser import CHROMIUM, Watched, browser, no_model_from_the_environment  # noqa: F401

from kgbuild.config import Config
from kgbuild.serve.server import BackgroundServer

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not at /usr/bin/chromium")]
TOKEN = "browser-curate-token"


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return built_samples(tmp_path_factory.mktemp("curate_browser"))


@pytest.fixture(scope="module")
def server(config: Config) -> Iterator[BackgroundServer]:
    with write_server(config, TOKEN) as running:
        yield running


def entity_id(server: BackgroundServer, name: str) -> str:
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        hits = http.get("/api/search", params={"q": name, "kind": "entity"}).json()["items"]
    return next(h["id"] for h in hits if h["name"] == name)


def open_node(w: Watched, server: BackgroundServer, node_id: str) -> set[str]:
    """The entity page of `node_id` once its neighbourhood is drawn; the labels in the drawing."""
    w.page.goto(f"{server.url}/#/node/{node_id}")
    w.page.wait_for_selector("#node-name")
    w.wait_until(f"() => window.kgbuildGraph && window.kgbuildGraph.getElementById({node_id!r}).length > 0 "
                 "&& window.kgbuildGraph.nodes().length > 1")
    return set(w.graph_labels())


def edges(w: Watched) -> list[str]:
    found: list[str] = w.page.evaluate("() => window.kgbuildGraph.edges().map(e => e.data('label'))")
    return found


def test_merge_undo_and_reject_from_the_browser(server: BackgroundServer, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    w = Watched(browser)
    try:
        page = w.page
        page.goto(f"{server.url}/?token={TOKEN}")  # sets the session cookie, then drops the token from the URL
        page.wait_for_selector("#stats")
        hopper, college = entity_id(server, "Grace Hopper"), entity_id(server, "Vassar College")
        labels = open_node(w, server, hopper)
        assert {"Vassar", "Vassar College"} <= labels, labels

        # Merge "Vassar" into "Vassar College" from the college's page.
        open_node(w, server, college)
        page.fill("#curate-other", "Vassar")
        page.fill("#curate-reason", "the same college")
        page.click("#curate-merge")
        w.wait_until("() => /merge .* applied/.test((document.getElementById('curate-status') || {}).textContent || '')")
        labels = open_node(w, server, hopper)
        assert "Vassar College" in labels and "Vassar" not in labels, labels
        page.goto(f"{server.url}/#/merges?q=by%20hand")
        page.wait_for_selector("table.merges .badge-manual")
        assert "by hand" in page.inner_text("table.merges")
        page.screenshot(path=str(tmp_path / "merged.png"), full_page=True)

        # Undo it on the review page: the two are apart again.
        page.goto(f"{server.url}/#/review")
        item = page.locator("li.correction", has_text="merge")
        item.wait_for()
        assert "the same college" in item.inner_text()
        item.locator("button.undo").click()
        w.wait_until("() => /applied/.test((document.getElementById('curate-status') || {}).textContent || '')"
                     " && document.querySelector('#corrections ol.corrections')", timeout=120)
        assert page.locator("li.correction").count() == 0
        assert page.locator("tr.review-item").count() > 0  # the queue is listed above them
        labels = open_node(w, server, hopper)
        assert {"Vassar", "Vassar College"} <= labels, labels

        # Reject "Navy send Grace Hopper" on Grace Hopper's page: the edge leaves the drawing.
        assert "send" in edges(w)
        page.locator("tr.triple", has_text="send").first.locator("button.reject-triple").click()
        w.wait_until("() => /reject .* applied/.test((document.getElementById('curate-status') || {}).textContent || '')")
        open_node(w, server, hopper)
        assert "send" not in edges(w)
        assert not page.locator("tr.triple", has_text="send").count()
        page.screenshot(path=str(tmp_path / "rejected.png"), full_page=True)
        assert not w.dialogs and not w.errors, (w.dialogs, w.errors)
    finally:
        w.close()
