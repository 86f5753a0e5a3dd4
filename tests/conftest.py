"""Fixtures shared by several test modules."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from kgbuild.engine import Engine

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def samples_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """samples/corpus built once per run with the default stores (embedded ArcadeDB, Milvus Lite) and
    no model, in `<root>/ws`. Shared: tests may put files beside it (configs, QA files) and open it,
    but must not rebuild it or write its workspace; a test that does builds a project of its own."""
    pytest.importorskip("milvus_lite")
    from kgbuild.build import Builder
    from kgbuild.config import load_config

    root = tmp_path_factory.mktemp("samples_project")
    shutil.copytree(REPO / "samples" / "corpus", root / "corpus")
    (root / "kgbuild.yaml").write_text("workspace: ws\nbuild:\n  workers: 1\n", encoding="utf-8")
    config = load_config(root / "kgbuild.yaml", env={})
    assert config.graph_store.backend == "embedded" and config.vector_store.backend == "milvus"
    report = asyncio.run(Builder(config).arun([root / "corpus"]))
    assert not report.store_error, report.store_error
    return root


@pytest.fixture(scope="module")
def samples_engine(samples_project: Path) -> Iterator[Engine]:
    """The query engine over the samples project, one per module: the embedded graph store admits one
    open handle, so each module closes its engine before the next opens one."""
    from kgbuild.config import load_config
    from kgbuild.engine import Engine

    with Engine.open(load_config(samples_project / "kgbuild.yaml", env={})) as opened:
        yield opened
