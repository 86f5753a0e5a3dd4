"""The build on a real two-node Ray cluster (head + worker, separate `ray start` processes) on this
machine, kept on loopback inside network + PID namespaces the test creates (tests/ray_netns.py).

One cluster serves the module (starting it costs ~8 s on a quiet machine); the tests run in file
order, and the last one kills the worker node.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from ray_netns import RayNamespace, namespaces_available

from kgbuild.build.persist import WRITE_ORDER
from kgbuild.workspace import Workspace

pytest.importorskip("ray", reason="the Ray engine needs the `ray` extra (make setup installs it)")
pytestmark = [pytest.mark.slow, pytest.mark.cluster]

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "corpus"
ADDRESS = "127.0.0.1:6390"
STORES_OFF = "graph_store:\n  backend: none\nvector_store:\n  backend: none\n"


def tables(workspace: Path) -> dict[str, list[str]]:
    ws = Workspace(workspace)
    return {name: sorted(json.dumps(row, sort_keys=True, default=str) for row in ws.rows(name))
            for name in WRITE_ORDER}


def project(path: Path, extra: str = "", *, stores: bool = False) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    config = path / "kgbuild.yaml"
    # Small batches: the samples' 37 chunks make ten extraction tasks, spread over both nodes.
    config.write_text("workspace: ws\n" + ("" if stores else STORES_OFF) + "engine:\n  batch_size: 4\n" + extra,
                      encoding="utf-8")
    return config


def build_argv(config: Path, *more: str) -> list[str]:
    return [sys.executable, "-m", "kgbuild", "-c", str(config), "build", str(SAMPLES), "--json", *more]


def ray_build(ns: RayNamespace, config: Path, **run: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    result = ns.call("run", argv=build_argv(config, "--engine", "ray", "--ray-address", ADDRESS),
                     cwd=str(config.parent), timeout=240, **run)
    assert result["rc"] in (0, 1), result["stderr"][-3000:]
    assert result["stdout"].strip(), result["stderr"][-3000:]  # no report: the build failed before its end
    return result, json.loads(result["stdout"])


@pytest.fixture(scope="module")
def cluster() -> Any:
    reason = namespaces_available()
    if reason:
        pytest.skip(reason)
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    with RayNamespace(env) as ns:
        ns.call("head")
        ns.call("worker", nodes=2)
        yield ns


@pytest.fixture(scope="module")
def local_tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The reference: the same build by the local runner (process pool), outside the cluster."""
    import subprocess

    config = project(tmp_path_factory.mktemp("local"))
    result = subprocess.run(build_argv(config), capture_output=True, text=True, cwd=config.parent,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=240)
    assert result.returncode in (0, 1), result.stderr[-3000:]
    assert json.loads(result.stdout)["engine"] == "local"
    return tables(config.parent / "ws")


def test_a_ray_build_on_two_nodes_writes_the_tables_of_a_local_build(cluster: RayNamespace, tmp_path: Path,
                                                                       local_tables: dict[str, list[str]]) -> None:
    config = project(tmp_path, stores=True)  # the default stores: embedded graph database, Milvus Lite
    _, report = ray_build(cluster, config)
    assert report["engine"].startswith("ray: 2 node(s), 2 CPU(s)")
    # Every vector was computed by the cluster's embed tasks; the write stage found them all cached.
    stores = report["write"]["stores"]
    assert "embed tasks on" in report["engine"] and stores["vectors_written"] > 100
    assert stores["embeddings_computed"] == 0 and stores["embeddings_cached"] == stores["vectors_written"]
    assert "extract tasks on 2 node(s)" in report["engine"], report["engine"]  # both nodes extracted
    assert report["extract"]["chunks_extracted"] == report["extract"]["chunks_total"] > 30
    assert "embed" in report["stage_seconds"]  # a stage without a section, timed all the same
    # The saved report is the one printed, the engine summary (known only after the stages) included.
    reports = tmp_path / "ws" / "reports"
    (saved,) = reports.glob("build-*.json")
    assert re.fullmatch(r"build-\d{8}T\d{6}Z-\d+\.json", saved.name), saved.name
    assert json.loads(saved.read_text(encoding="utf-8")) == report
    assert json.loads((reports / "latest.json").read_text(encoding="utf-8")) == report
    assert tables(tmp_path / "ws") == local_tables


def test_b_llm_extraction_on_the_cluster_asks_each_chunk_once(cluster: RayNamespace, tmp_path: Path) -> None:
    base_url = cluster.call("llm_start")["base_url"]
    # concurrency 2 for the whole cluster: with a limit per worker, two nodes would have up to four in flight.
    # One chunk per call (pack_tokens: 0): the log's prompts then map one to one onto chunks; packing
    # itself is tested against the same server in test_llm_pack.py.
    config = project(tmp_path, "extract:\n  extractor: llm\n  max_reasks: 0\n  pack_tokens: 0\n"
                               f"llm:\n  base_url: {base_url}\n  model: m\n  concurrency: 2\n  max_retries: 1\n")
    _, report = ray_build(cluster, config, env={"KGBUILD_LLM_API_KEY": "sk-test"})
    chunks = report["extract"]["chunks_total"]
    assert report["extract"]["chunks_extracted"] == chunks > 30 and report["extract"]["chunks_failed"] == 0
    assert "extract tasks on 2 node(s)" in report["engine"], report["engine"]
    log = cluster.call("llm_log")
    asked = Counter(log["texts"])
    assert len(asked) == chunks and set(asked.values()) == {1}  # each chunk once, across both workers
    assert log["max_in_flight"] <= 2  # one global concurrency limit
    assert report["llm"]["total"]["calls"] == len(log["texts"])  # the workers' accounting, summed
    first = tables(tmp_path / "ws")
    # Without the extraction cache every chunk goes to the workers again: the one response cache
    # (the coordinator's) answers all of them, whichever worker asks.
    shutil.rmtree(tmp_path / "ws" / "cache" / "extract")
    _, again = ray_build(cluster, config, env={"KGBUILD_LLM_API_KEY": "sk-test"})
    assert cluster.call("llm_log")["texts"] == log["texts"]  # no new request
    assert again["llm"]["total"]["calls"] == 0 and again["llm"]["total"]["cache_hits"] == chunks
    assert tables(tmp_path / "ws") == first


def test_c_worker_node_killed_mid_extraction_then_rerun_gives_identical_tables(
        cluster: RayNamespace, tmp_path: Path, local_tables: dict[str, list[str]]) -> None:
    config = project(tmp_path)
    first, report = ray_build(cluster, config, kill_worker_on="ray::kgbuild-extract")
    assert first["killed"], "the worker node was not caught running a task"
    # Ray ran the lost node's batches again on the head: the build itself completed.
    assert first["rc"] == 0 and report["extract"]["chunks_failed"] == 0, first["stderr"][-2000:]
    assert tables(tmp_path / "ws") == local_tables
    _, report = ray_build(cluster, config)
    assert report["extract"]["chunks_failed"] == 0 and report["extract"]["chunks_extracted"] == 0
    assert report["extract"]["chunks_cached"] + report["extract"]["chunks_extracted"] == \
        report["extract"]["chunks_total"]
    assert tables(tmp_path / "ws") == local_tables  # same rows, none twice


KEY = {"KGBUILD_LLM_API_KEY": "sk-test"}


def llm_extraction(base_url: str) -> str:
    # One chunk per call, two calls in flight for the whole cluster; a short timeout, so a claim or a slot
    # held by a killed worker comes back within seconds (a lease lasts the longest a request may take).
    return ("extract:\n  extractor: llm\n  max_reasks: 0\n  pack_tokens: 0\n"
            f"llm:\n  base_url: {base_url}\n  model: m\n  concurrency: 2\n  max_retries: 0\n  timeout_s: 5\n")


def test_d_a_worker_killed_mid_task_leaves_its_model_calls_in_the_report(cluster: RayNamespace,
                                                                          tmp_path: Path) -> None:
    cluster.call("worker", nodes=2)  # a node in place of the one test_c killed
    base_url = cluster.call("llm_start")["base_url"]
    config = project(tmp_path, llm_extraction(base_url))
    first, report = ray_build(cluster, config, kill_worker_on="ray::kgbuild-extract", after_calls=6, env=KEY)
    assert first["killed"], "the worker node was not caught running a task"
    assert first["rc"] == 0 and report["extract"]["chunks_failed"] == 0, first["stderr"][-2000:]
    sent = len(cluster.call("llm_log")["texts"])
    llm = report["llm"]
    # Every request the endpoint received is in the accounting, the dead worker's included (its task's
    # own accounting never came back), or counted as unknown: in flight when the worker died.
    assert llm["total"]["calls"] <= sent <= llm["total"]["calls"] + llm["unknown_calls"], (sent, llm["total"],
                                                                                          llm["unknown_calls"])
    lost = llm["lost_tasks"] or {"calls": 0}
    assert llm["total"]["calls"] - lost["calls"] + llm["unknown_calls"] <= sent  # lost ones are not counted twice
    assert llm["unknown_calls"] <= 2, llm["unknown_calls"]  # at most the requests in flight (llm.concurrency)


def test_e_a_driver_killed_mid_extraction_then_restarted_pays_only_what_was_in_flight_again(
        cluster: RayNamespace, tmp_path: Path) -> None:
    base_url = cluster.call("llm_start")["base_url"]
    config = project(tmp_path / "killed", llm_extraction(base_url))
    killed = cluster.call("run", argv=build_argv(config, "--engine", "ray", "--ray-address", ADDRESS),
                          cwd=str(config.parent), timeout=240, env=KEY, kill_driver_after_calls=10)
    assert killed["driver_killed"] and killed["rc"] == -9, killed["stderr"][-2000:]
    before = cluster.call("llm_log")["texts"]
    # restarted: the lock died with the driver, the response cache kept every reply that came back
    _, report = ray_build(cluster, config, env=KEY)
    assert report["extract"]["chunks_failed"] == 0
    chunks = report["extract"]["chunks_total"]
    assert 10 <= len(before) < chunks, "the driver was not killed mid-extraction"
    log = cluster.call("llm_log")["texts"]
    asked = Counter(log)
    assert len(asked) == chunks
    # Paid twice: only what was in flight when the driver died, that is the requests already sent (at most
    # llm.concurrency = 2) and those the job's workers sent before Ray stopped them (after the kill).
    at_kill = killed["calls_at_kill"]
    first_asked = {text: log.index(text) for text in asked}
    paid_twice = [text for text, n in asked.items() if n > 1]
    assert all(first_asked[text] >= at_kill - 2 for text in paid_twice), (at_kill, len(before),
                                                                         sorted(first_asked[t] for t in paid_twice))
    assert len(paid_twice) <= len(before) - at_kill + 2
    assert report["llm"]["total"]["calls"] == len(log) - len(before)  # the restart's own accounting
    # the same tables as a build nobody interrupted
    whole = project(tmp_path / "whole", llm_extraction(base_url))
    ray_build(cluster, whole, env=KEY)
    assert tables(tmp_path / "killed" / "ws") == tables(tmp_path / "whole" / "ws")
