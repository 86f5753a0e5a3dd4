"""Real model servers as users run them, emulated by the scripted server and met with the real
`openai` client over HTTP: the structured-output form each kind gets, the fallback after a
refusal, max_tokens on every request, reasoning replies, per-role endpoints, the fail-fast probe
and the retry heartbeat."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from llm_server import ScriptedLLM, response_form
from pydantic import BaseModel

from kgbuild.cli import main
from kgbuild.config import LLMConfig
from kgbuild.errors import KgbuildError
from kgbuild.extract.llm_output import JointReply
from kgbuild.llm.gateway import LLMGateway
from kgbuild.llm.heartbeat import Heartbeat
from kgbuild.llm.probe import EndpointUnusable, probe
from kgbuild.llm.types import ChatMessage, ChatRequest, LLMCallError

JOINT = json.dumps({"entities": [{"name": "Alice", "type": "Person"}, {"name": "Acme", "type": "Organization"}],
                    "events": [], "relations": [{"subject": "Alice", "predicate": "founded", "object": "Acme"}],
                    "hypernodes": []})


class Answer(BaseModel):
    answer: str


def config(base_url: str, **overrides: Any) -> LLMConfig:
    values: dict[str, Any] = {"base_url": base_url, "model": "m", "timeout_s": 5.0, "max_retries": 2,
                              "backoff_initial_s": 0.001, "backoff_max_s": 0.01}
    values.update(overrides)
    return LLMConfig(**values)


def request(stage: str = "extract", text: str = "Alice founded Acme.", **fields: Any) -> ChatRequest:
    return ChatRequest(stage=stage, template="extract.joint@1",
                       messages=[ChatMessage(role="system", content="Extract as JSON."),
                                 ChatMessage(role="user", content=text)], **fields)


def ask(gateway: LLMGateway, *requests: ChatRequest, model: type[BaseModel] = JointReply) -> list[Any]:
    async def main() -> list[Any]:
        try:
            return [await gateway.ask(r, model) for r in requests]
        finally:
            await gateway.aclose()

    return asyncio.run(main())


# -------------------------------------------------------------- structured output per server kind

@pytest.mark.parametrize(("kind", "form"), [("openai", "json_schema"), ("vllm", "json_schema"),
                                            ("sglang", "json_schema"), ("ollama", "json_schema"),
                                            ("llamacpp", "json_object_schema")])
def test_each_server_kind_gets_its_form_with_the_reply_models_schema(tmp_path: Path, kind: str, form: str) -> None:
    with ScriptedLLM("m", kind=kind) as llm:
        llm.reply("", JOINT)
        gw = LLMGateway(config(llm.base_url), cache_path=tmp_path / "llm.sqlite")
        [reply] = ask(gw, request())
        assert reply.relations[0].predicate == "founded"
        [body] = [e["json"] for e in llm.chat_log()]
        assert response_form(body) == form
        sent = body["response_format"]
        schema = sent["json_schema"]["schema"] if form == "json_schema" else sent["schema"]
        assert schema == JointReply.model_json_schema()  # the reply model's schema is what is sent
        assert isinstance(body["max_tokens"], int)
        assert gw.usage.total.form_fallbacks == 0
        # the kind was learned from GET /models once and is remembered for the project
        assert json.loads((tmp_path / "llm_servers.json").read_text())[llm.base_url]["kind"] == kind


def test_a_refused_form_falls_back_once_and_is_remembered_for_the_project(tmp_path: Path) -> None:
    # llama-cpp-python behind a proxy that hides its /models: taken for OpenAI, sent json_schema,
    # which it refuses with HTTP 500; the same request goes again as json_object + schema.
    with ScriptedLLM("m", kind="llamacpp", serves=[]) as llm:
        llm.reply("", JOINT)
        gw = LLMGateway(config(llm.base_url), cache_path=tmp_path / "llm.sqlite", use_cache=False)
        ask(gw, request(text="one"), request(text="two"))
        forms = [response_form(e["json"]) for e in llm.chat_log()]
        assert forms == ["json_schema", "json_object_schema", "json_object_schema"]
        assert gw.usage.total.form_fallbacks == 1 and gw.usage.total.failures == 0
        assert gw.usage.total.retries == 0  # a refusal is not an outage: no back-off
        [profile] = gw.servers().values()
        assert profile.form == "json_object_schema" and profile.describe().startswith(
            "openai, json_object_schema (json_schema -> json_object_schema: ")
        # a later run of the same project starts with the form that worked
        again = LLMGateway(config(llm.base_url), cache_path=tmp_path / "llm.sqlite", use_cache=False)
        ask(again, request(text="three"))
        assert response_form(llm.chat_log()[-1]["json"]) == "json_object_schema"
        assert again.usage.total.form_fallbacks == 0


def test_fallback_goes_down_to_plain_requests_and_a_chosen_form_is_not_overridden() -> None:
    refuse = {f: (400, f"response_format {f} is not supported") for f in
              ("json_schema", "json_object_schema", "json_object")}
    with ScriptedLLM("m", refuse=refuse) as llm:
        llm.reply("", JOINT)
        gw = LLMGateway(config(llm.base_url), cache_path=None)
        ask(gw, request())
        assert [response_form(e["json"]) for e in llm.chat_log()] == [
            "json_schema", "json_object_schema", "json_object", "none"]
        assert gw.usage.total.form_fallbacks == 3
        chosen = LLMGateway(config(llm.base_url, structured_output="json_object"), cache_path=None)
        with pytest.raises(LLMCallError, match="response_format json_object is not supported"):
            ask(chosen, request())


def test_an_error_that_is_not_about_the_form_is_no_fallback() -> None:
    with ScriptedLLM("m") as llm:
        llm.reply("", JOINT)
        llm.fail(400, body='{"error": {"message": "prompt too long"}}')
        gw = LLMGateway(config(llm.base_url), cache_path=None)
        with pytest.raises(LLMCallError, match="prompt too long"):
            ask(gw, request())
        assert gw.usage.total.form_fallbacks == 0 and len(llm.chat_log()) == 1


# -------------------------------------------------------------- max_tokens

def test_max_tokens_is_on_every_request_sized_by_passages_and_capped() -> None:
    with ScriptedLLM("m") as llm:
        llm.reply("", JOINT)
        gw = LLMGateway(config(llm.base_url, max_output_tokens=3000, passage_output_tokens=700), cache_path=None)
        ask(gw, request(text="a", passages=1), request(text="b", passages=3), request(text="c", passages=8),
            request(stage="align", text="d"), request(text="e", max_tokens=50000))
        assert [e["json"]["max_tokens"] for e in llm.chat_log()] == [700, 2100, 3000, 3000, 3000]


def test_a_reply_cut_at_max_tokens_is_repaired_and_counted() -> None:
    with ScriptedLLM("m", enforce_max_tokens=True) as llm:
        entities = [{"name": f"Person {i}", "type": "Person"} for i in range(40)]
        llm.reply("", json.dumps({"entities": entities, "events": [], "relations": [], "hypernodes": []}))
        gw = LLMGateway(config(llm.base_url, max_output_tokens=64), cache_path=None)
        [reply] = ask(gw, request(passages=1))
        assert 0 < len(reply.entities) < 40  # the complete records before the cut
        assert gw.usage.total.cut_off == 1 and gw.usage.by_stage["extract"].cut_off == 1


# -------------------------------------------------------------- reasoning models

@pytest.mark.parametrize("style", ["inline", "field"])
def test_reasoning_replies_are_parsed_without_the_thoughts_and_their_tokens_counted(style: str) -> None:
    thoughts = "First the entities {not json}, then the relation between them."
    with ScriptedLLM("m", kind="vllm", reasoning=style, thoughts=thoughts) as llm:
        llm.reply("", '{"answer": "Acme"}')
        gw = LLMGateway(config(llm.base_url), cache_path=None)
        [reply] = ask(gw, request(stage="solve.answer"), model=Answer)
        assert reply.answer == "Acme"
        assert gw.usage.total.reasoning_tokens > 0 and gw.usage.total.unusable == 0
        if style == "field":  # the server's own count
            assert gw.usage.total.reasoning_tokens == len(thoughts.split())
        assert gw.usage.total.completion_tokens >= gw.usage.total.reasoning_tokens


@pytest.mark.parametrize(("kind", "switch"), [
    ("vllm", {"chat_template_kwargs": {"enable_thinking": False}}),
    ("sglang", {"chat_template_kwargs": {"enable_thinking": False}}),
    ("llamacpp", {"chat_template_kwargs": {"enable_thinking": False}}),
    ("ollama", {"reasoning_effort": "none"}),
    ("openai", {}),
])
def test_thinking_off_sends_the_switch_the_server_takes(kind: str, switch: dict[str, Any]) -> None:
    with ScriptedLLM("m", kind=kind, reasoning="inline") as llm:
        llm.reply("", '{"answer": "Acme"}')
        gw = LLMGateway(config(llm.base_url, thinking="off"), cache_path=None)
        ask(gw, request(stage="solve.answer"), model=Answer)
        [body] = [e["json"] for e in llm.chat_log()]
        for key in ("chat_template_kwargs", "reasoning_effort"):
            assert body.get(key) == switch.get(key)
        # a server that took the switch did not think
        assert (gw.usage.total.reasoning_tokens == 0) == bool(switch)


# -------------------------------------------------------------- per-role models

def test_each_role_reaches_its_own_server_with_its_own_model_and_accounting() -> None:
    with ScriptedLLM("small", kind="vllm") as small, ScriptedLLM("large", kind="sglang") as large:
        small.reply("", JOINT)
        large.reply("", '{"answer": "Acme"}')
        cfg = config(small.base_url, model="small",
                     roles={"solve": {"base_url": large.base_url, "model": "large", "max_output_tokens": 256}})
        gw = LLMGateway(cfg, cache_path=None)

        async def main() -> None:
            await gw.ask(request(stage="extract", passages=1), JointReply)
            await gw.ask(request(stage="align"), JointReply)
            await gw.ask(request(stage="solve.answer"), Answer)
            await gw.ask(request(stage="coe.answer"), Answer)
            await gw.aclose()

        asyncio.run(main())
        assert [e["json"]["model"] for e in small.chat_log()] == ["small", "small"]
        assert [e["json"]["model"] for e in large.chat_log()] == ["large", "large"]
        assert {e["json"]["max_tokens"] for e in large.chat_log()} == {256}
        by_role = gw.usage.by_role
        assert by_role["extract"].calls == 1 and by_role["align"].calls == 1 and by_role["solve"].calls == 2
        assert {p.kind for p in gw.servers().values()} == {"vllm", "sglang"}
        assert cfg.model_for("solve.answer") == "large" and cfg.model_for("extract") == "small"


def test_roles_on_one_endpoint_share_its_limits_but_keep_their_own_model_and_cap() -> None:
    with ScriptedLLM("m") as llm:
        llm.reply("", '{"answer": "Acme"}')
        cfg = config(llm.base_url, model="small", concurrency=1,
                     roles={"solve": {"model": "large", "max_output_tokens": 300}})
        gw = LLMGateway(cfg, cache_path=None)

        async def main() -> None:
            await asyncio.gather(gw.ask(request(stage="align", text="a"), Answer),
                                 gw.ask(request(stage="solve.answer", text="b"), Answer))
            await gw.aclose()

        asyncio.run(main())
        sent = {e["json"]["model"]: e["json"]["max_tokens"] for e in llm.chat_log()}
        assert sent == {"small": 4096, "large": 300}
        assert llm.max_in_flight == 1  # one endpoint, one concurrency limit
        assert len(gw.servers()) == 1


def test_a_role_key_comes_from_its_own_environment_variable() -> None:
    cfg = LLMConfig(base_url="http://a/v1", model="m", api_key="main-key",
                    roles={"extract": {"base_url": "http://b/v1", "api_key_env": "B_KEY"}})
    assert cfg.for_role("extract", env={"B_KEY": "b-key"}).api_key == "b-key"
    assert cfg.for_role("solve").api_key == "main-key" and cfg.for_role("solve").base_url == "http://a/v1"


# -------------------------------------------------------------- the probe

def test_probe_refuses_an_unknown_model_and_a_dead_endpoint_in_one_line() -> None:
    with ScriptedLLM("served-model", kind="vllm") as llm:
        assert probe(config(llm.base_url, model="served-model")).kind == "vllm"
        with pytest.raises(EndpointUnusable) as info:
            probe(config(llm.base_url, model="typo-model"))
        assert info.value.line().startswith("llm.model: model 'typo-model' is not served at ")
        assert "served-model" in info.value.line()
    with ScriptedLLM("loaded.gguf", kind="llamacpp") as llm:  # llama.cpp answers to any name
        assert probe(config(llm.base_url, model="anything")).kind == "llamacpp"
    with pytest.raises(EndpointUnusable, match=r"^llm\.base_url: cannot reach .*: connection refused"):
        probe(config("http://127.0.0.1:9/v1"))
    with pytest.raises(EndpointUnusable, match=r"^llm\.roles\.solve\.base_url: cannot reach .*unknown host"):
        probe(config("http://no-such-host.invalid/v1"), "solve")


def test_query_and_eval_probe_the_solve_endpoint_first(tmp_path: Path) -> None:
    config_file = tmp_path / "kgbuild.yaml"
    config_file.write_text("workspace: ws\nllm:\n  base_url: http://127.0.0.1:9/v1\n  model: m\n", encoding="utf-8")
    qa = tmp_path / "qa.json"
    qa.write_text('[{"question": "Who?", "answer": "Alice"}]', encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    for args in (["query", "Who founded Acme?"], ["eval", str(qa), "--strategy", "solver"]):
        result = CliRunner().invoke(main, ["-c", str(config_file), *args])
        assert result.exit_code == 2, result.output
        [line] = result.stderr.strip().splitlines()
        assert line.startswith("error: llm.base_url: cannot reach the model endpoint"), line
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no workspace was made


# -------------------------------------------------------------- progress while an endpoint fails

def test_heartbeat_writes_a_line_at_least_every_ten_seconds_while_retries_wait() -> None:
    now = [0.0]
    lines: list[tuple[float, str]] = []

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    beat = Heartbeat(clock=lambda: now[0], sleep=sleep, write=lambda line: lines.append((now[0], line)))

    async def main() -> None:
        for _ in range(3):  # three failures with long back-off waits, as a flaky server causes
            beat.failed("llm.base_url http://x/v1: HTTP 503 from model 'm': overloaded")
            await beat.sleep(25.0)
        beat.recovered()

    asyncio.run(main())
    times = [t for t, _ in lines]
    assert times[0] == 0.0 and all(b - a <= 10.0 for a, b in itertools.pairwise(times))
    assert "HTTP 503" in lines[0][1] and lines[-1][1].startswith("llm: the endpoint answers again")
    assert len(lines) < 15  # one line per interval, not one per step


def test_retries_through_the_gateway_write_a_progress_line(caplog: pytest.LogCaptureFixture) -> None:
    with ScriptedLLM("m") as llm:
        llm.reply("", JOINT)
        llm.fail(503, times=2)
        gw = LLMGateway(config(llm.base_url), cache_path=None)
        with caplog.at_level("WARNING", logger="kgbuild.llm"):
            ask(gw, request())
        messages = [r.getMessage() for r in caplog.records if r.name == "kgbuild.llm"]
        assert any(m.startswith("llm: llm.base_url ") and "HTTP 503" in m for m in messages), messages
        assert gw.usage.total.retries == 2


def test_probe_error_is_a_kgbuild_error() -> None:
    assert issubclass(EndpointUnusable, KgbuildError)
