"""Issue 27: `kgbuild sync` after corrections writes the graph store from the rows they changed
only, and leaves the store and its manifest exactly as a sync that compares every row would
(embedded ArcadeDB, through the CLI)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest
from test_curate_build import cli, manifest_rows, named
from test_graph_store import SAMPLES, build, embedded_dump, project

from kgbuild.build import Builder
from kgbuild.config import Config
from kgbuild.workspace import Workspace

pytestmark = pytest.mark.slow  # builds the samples and syncs the embedded store several times


def sync(config: Config) -> dict:
    return json.loads(cli(config, "sync", "--json").output)


def test_corrections_sync_only_their_rows_and_match_a_full_sync(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLES, corpus)
    config = project(tmp_path / "proj")
    build(config, [corpus])
    held = sum(1 for _ in manifest_rows(config))

    # One at a time: each sync compares the rows of the few table rows the correction changed.
    for args in (["rename", "Hut 8", "Hut Eight"],
                 ["reject", "Gordon Welchman", "build at", "Alan Turing"],
                 ["retype", "Vassar", "Organization"],  # relabels a node: its relationships are written again
                 ["merge", "Manchester Baby", "Manchester Mark 1"]):  # deletes a node, re-points what named it
        cli(config, "curate", *args)
        written = sync(config)
        assert written["graph_rows_of"] is not None and 0 < written["graph_rows_of"] < 100, (args, written)
        changed = written["nodes_written"] + written["edges_written"] + written["nodes_deleted"] \
            + written["edges_deleted"]
        assert 0 < changed < 100 and written["unchanged"] > held // 2, (args, written)
    assert named(config, "Hut Eight") and not named(config, "Manchester Mark 1")
    (vassar,) = named(config, "Vassar")
    assert "Organization" in vassar[0]

    # Two corrections before one sync: the steps chain.
    cli(config, "curate", "add", "Alan Turing", "bornIn", "Maida Vale Hospital", "--object-class",
        "GeographicLocation")
    cli(config, "curate", "rename", "Bletchley Park", "Station X")
    asyncio.run(_apply(config))  # the tables take the first, as the explorer's write mode does ...
    written = sync(config)  # ... and this sync the second, then writes both
    assert written["graph_rows_of"] is not None and written["nodes_written"] >= 1
    assert named(config, "Station X") and named(config, "Maida Vale Hospital")
    # Nothing changed since: nothing compared.
    assert sync(config)["graph_rows_of"] == 0

    incremental, recorded = embedded_dump(config), manifest_rows(config)
    # The same tables written by a sync that compares everything, into an empty store.
    shutil.rmtree(config.graph_store_path())
    written = sync(config)
    assert written["graph_rows_of"] is None and written["nodes_written"] > 50
    assert embedded_dump(config) == incremental
    assert manifest_rows(config) == recorded

    # Tables written by a build (here without a sync) break the chain: the next sync compares all.
    ada = corpus / "people" / "ada_lovelace.md"
    ada.write_text(ada.read_text(encoding="utf-8") + "\n\nShe corresponded with Michael Faraday.\n", encoding="utf-8")
    asyncio.run(Builder(config).arun([corpus], sync=False))
    cli(config, "curate", "rename", "Hut Eight", "Hut No. 8")
    written = sync(config)
    assert written["graph_rows_of"] is None
    assert named(config, "Hut No. 8")


async def _apply(config: Config) -> None:
    from kgbuild.build.corrections_sync import apply_pending
    from kgbuild.schema import resolve_schema

    done = await apply_pending(config, resolve_schema(config.schema_location()))
    assert done.how == "tables", done
    assert Workspace(config.workspace_path()).exists()
