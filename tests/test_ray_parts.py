"""The parts of the Ray engine that need no cluster: the coordinator's leases, claims and cache,
the `engine` setting, and that a local build never imports Ray."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kgbuild.build.ray_coordinator import EndpointCoordinator
from kgbuild.config import LLMConfig, load_config
from kgbuild.errors import ConfigError
from kgbuild.llm.cache import ResponseCache
from kgbuild.llm.types import ChatResult

ROOT = Path(__file__).resolve().parent.parent


def coordinator(tmp_path: Path, **llm: object) -> EndpointCoordinator:
    return EndpointCoordinator(LLMConfig(base_url="http://x/v1", model="m", **llm), tmp_path / "llm.sqlite")


def test_one_slot_for_the_whole_cluster_and_a_dead_holder_loses_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        c = coordinator(tmp_path, concurrency=1)
        first = await c.enter()
        second = asyncio.ensure_future(c.enter())
        await asyncio.sleep(0.05)
        assert not second.done() and c.in_flight() == 1  # the endpoint's one slot is taken
        await c.leave(first)
        await asyncio.wait_for(second, 2)
        # A holder that died never leaves: its lease ends at its deadline, and the slot comes back.
        c._lease_s = 0.1
        c._leases[await second] = 0.0  # expired
        third = await asyncio.wait_for(c.enter(), 3)
        assert third not in (first, await second)

    asyncio.run(scenario())


def test_the_ledger_counts_the_requests_of_tasks_that_never_returned(tmp_path: Path) -> None:
    """Three requests paid; the task of the third returned its accounting, the first two died with their
    worker; a fourth took a slot and was never reported. The report adds the two and names the fourth."""
    from kgbuild.build.ray_context import lost_usage
    from kgbuild.llm.accounting import Accounting

    async def scenario() -> dict[str, object]:
        c = coordinator(tmp_path)
        for _ in range(4):
            lease = await c.enter()
            await c.reserve(100)  # a request about to go out
            await c.leave(lease)
        await c.enter()  # a slot taken by a request that never went out: not counted
        c.tally("extract", {"calls": 1, "retries": 0, "prompt_tokens": 100, "completion_tokens": 10})
        c.tally("extract", {"calls": 2, "retries": 1, "prompt_tokens": 120, "completion_tokens": 12})
        c.tally("extract", {"calls": 1, "retries": 0, "prompt_tokens": 90, "completion_tokens": 9})
        return c.ledger()

    ledger = asyncio.run(scenario())
    assert ledger["unreported"] == 1
    returned = Accounting()
    returned.add("extract", "doc", requests=1, calls=1, prompt_tokens=90, completion_tokens=9)
    assert lost_usage(returned, ledger) == {"extract": {"calls": 3, "retries": 1, "prompt_tokens": 220,
                                                       "completion_tokens": 22}}
    # everything came back: nothing is lost
    returned.add("extract", "doc", requests=2, calls=3, retries=1, prompt_tokens=220, completion_tokens=22)
    assert lost_usage(returned, ledger) == {}


def test_a_request_in_flight_is_claimed_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        c = coordinator(tmp_path)
        claim = await c.claim("k")
        waiting = asyncio.ensure_future(c.claim("k"))
        other = await asyncio.wait_for(c.claim("other key"), 1)  # other requests are not held up
        await asyncio.sleep(0.05)
        assert not waiting.done()
        await c.release("k", claim)
        assert await asyncio.wait_for(waiting, 2) not in (claim, other)

    asyncio.run(scenario())


def test_the_coordinator_keeps_the_workspace_response_cache(tmp_path: Path) -> None:
    c = coordinator(tmp_path)
    reply = ChatResult(text="{}", model="m", prompt_tokens=3, completion_tokens=1)
    c.cache_put("key", reply.model_dump_json())
    c.close()
    # The same file a local build's gateway reads: a reply paid on the cluster is free locally.
    local = ResponseCache(tmp_path / "llm.sqlite")
    hit = local.get("key")
    assert hit is not None and hit.text == "{}" and hit.cached
    local.close()


def test_the_coordinator_clears_the_cache_it_owns(tmp_path: Path) -> None:
    c = coordinator(tmp_path)
    c.cache_put("key", ChatResult(text="{}", model="m", prompt_tokens=3, completion_tokens=1).model_dump_json())
    assert (c.cache_count(), c.cache_clear(), c.cache_count()) == (1, 1, 0)
    c.close()


def test_engine_setting(tmp_path: Path) -> None:
    path = tmp_path / "kgbuild.yaml"
    path.write_text("engine:\n  kind: ray\n  address: head:6379\n", encoding="utf-8")
    config = load_config(path, env={})
    assert config.engine.kind == "ray" and config.engine.address == "head:6379"
    assert config.engine.dashboard is False  # a dashboard only when asked (issue 32)
    path.write_text("engine:\n  kind: ray\n  dashboard: true\n", encoding="utf-8")
    assert load_config(path, env={}).engine.dashboard is True
    path.write_text("engine:\n  kind: spark\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"engine\.kind"):
        load_config(path, env={})
    path.write_text("engine:\n  dashboard: sometimes\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"engine\.dashboard"):
        load_config(path, env={})


def test_a_local_cluster_is_refused_once_ray_was_imported_without_its_loopback_mode(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ray")  # imported here, in this process, without RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0
    from kgbuild.build.ray_runner import start_local

    monkeypatch.delenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", raising=False)
    with pytest.raises(ConfigError, match="imported in this process"):
        start_local(dashboard=False)  # before any process starts: the driver could not reach it on loopback
    assert "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER" not in os.environ


@pytest.mark.slow
def test_a_local_build_never_imports_ray(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nAda Lovelace wrote notes on the Analytical Engine.\n", encoding="utf-8")
    (tmp_path / "kgbuild.yaml").write_text(
        "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\n", encoding="utf-8")
    script = ("import sys\nfrom kgbuild.cli import main\n"
              "try:\n    main(['-c', sys.argv[1], 'build', sys.argv[2], '-q'])\nexcept SystemExit as e:\n"
              "    assert e.code == 0, e.code\nprint('ray' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "kgbuild.yaml"), str(tmp_path / "a.md")],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_ray_address_with_the_local_engine_is_refused(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kgbuild.cli import main

    (tmp_path / "a.md").write_text("# A\n\ntext\n", encoding="utf-8")
    (tmp_path / "kgbuild.yaml").write_text("workspace: ws\n", encoding="utf-8")
    for flag in (["--ray-address", "h:1"], ["--ray-dashboard"]):
        result = CliRunner().invoke(main, ["-c", str(tmp_path / "kgbuild.yaml"), "build", str(tmp_path / "a.md"),
                                           "--engine", "local", *flag])
        assert result.exit_code == 2 and flag[0] in result.output
        assert not (tmp_path / "ws").exists()  # refused before anything was built
