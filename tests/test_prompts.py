from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel

from kgbuild.errors import ConfigError
from kgbuild.extract.llm_output import EntitiesReply, FactsReply, JointReply, SplitReply
from kgbuild.llm.json_schema import value_problems
from kgbuild.llm.prompts import PromptLibrary, PromptTemplate, load_template, shipped_prompts_dir
from kgbuild.llm.reply import parse_reply
from kgbuild.query.coe.replies import AnswerReply, EvaluateReply, PlanReply, SelectReply
from kgbuild.query.fasttog.replies import PruneReply, ReasonReply
from kgbuild.query.graph_answer import GraphAnswerReply

NAMES = ["extract_joint", "extract_entities", "extract_facts", "split", "reask"]
REPLY_MODELS = {"extract_joint": JointReply, "extract_entities": EntitiesReply, "extract_facts": FactsReply,
                "split": SplitReply}
LANGS = ["en", "zh"]
# The query side's prompts with their reply models: the graph strategies' answer, CoE and FastToG.
QUERY_REPLY_MODELS: dict[str, type[BaseModel]] = {
    "graph_answer": GraphAnswerReply, "coe_plan": PlanReply, "coe_select_nodes": SelectReply,
    "coe_select_relations": SelectReply, "coe_evaluate": EvaluateReply, "coe_answer": AnswerReply,
    "fasttog_prune": PruneReply, "fasttog_reason": ReasonReply, "fasttog_fallback": ReasonReply}


def _values(tpl: PromptTemplate) -> dict[str, str]:
    return {name: f"<{name}>" for name in tpl.placeholders}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_shipped_templates_load_and_examples_validate(lang: str, name: str) -> None:
    tpl = PromptLibrary(lang).get(name)
    assert tpl.key == f"{tpl.id}@{tpl.version}"
    assert tpl.description and tpl.user
    for example in tpl.examples:
        assert value_problems(example.output, tpl.output_schema) == []
        reply, error, repaired = parse_reply(json.dumps(example.output, ensure_ascii=False), REPLY_MODELS[name])
        assert error is None and reply is not None and not repaired
    if name != "reask":
        assert 1 <= len(tpl.examples) <= 2


@pytest.mark.parametrize("lang", LANGS)
def test_alignment_templates_examples_parse_with_their_readers(lang: str) -> None:
    from kgbuild.align.fusion import JudgeGroups
    from kgbuild.align.taxonomy import HypernymsReply

    lib = PromptLibrary(lang)
    judge, hyper = lib.get("align_judge"), lib.get("align_hypernym")
    for tpl in (judge, hyper):
        assert len(tpl.examples) == 1
        assert value_problems(tpl.examples[0].output, tpl.output_schema) == []
    groups = judge.examples[0].output["groups"]
    reply, error, _ = parse_reply(json.dumps(judge.examples[0].output), JudgeGroups)
    assert error is None and reply is not None and reply.known({i for g in groups for i in g}) == groups
    names = list(hyper.examples[0].output["hypernyms"])
    hypernyms, error, _ = parse_reply(json.dumps(hyper.examples[0].output, ensure_ascii=False), HypernymsReply)
    assert error is None and hypernyms is not None and hypernyms.for_names(names)
    assert judge.key != PromptLibrary("zh" if lang == "en" else "en").get("align_judge").key


@pytest.mark.parametrize("lang", LANGS)
def test_solver_templates_examples_parse_with_their_reply_models(lang: str) -> None:
    from kgbuild.query.llm_ask import AnswerReply, DeduceReply, JudgeReply, PlanReply, ReflectReply

    models = {"solve_plan": PlanReply, "solve_judge": JudgeReply, "solve_reflect": ReflectReply,
              "solve_answer": AnswerReply, "solve_deduce": DeduceReply}
    lib = PromptLibrary(lang)
    for name, model in models.items():
        tpl = lib.get(name)
        assert tpl.examples, name
        for example in tpl.examples:
            reply, error, _ = parse_reply(json.dumps(example.output, ensure_ascii=False), model)
            assert error is None and reply is not None, (name, error)
    # the re-ask texts fill in the error and nothing else
    assert "{error}" not in lib.get("reask").reask(1).user_turn("x: missing").content
    assert "x: missing" in lib.get("solve_plan").reask(1, fragment="reask").user_turn("x: missing").content


def test_a_reask_text_must_use_the_error_placeholder() -> None:
    tpl = PromptLibrary("en").get("solve_judge")  # its user text fills {question} and {memory}
    with pytest.raises(ConfigError, match=r"placeholder \{error\}"):
        tpl.reask(1)
    with pytest.raises(ConfigError, match="fragment 'reask' is missing"):
        tpl.reask(1, fragment="reask")


def test_languages_have_the_same_templates_and_placeholders() -> None:
    en, zh = PromptLibrary("en"), PromptLibrary("zh")
    for name in NAMES:
        assert set(en.get(name).placeholders) == set(zh.get(name).placeholders)
        assert set(en.get(name).fragments) == set(zh.get(name).fragments)
        assert en.get(name).key != zh.get(name).key  # different wording, different cache key
    assert "实体" in zh.get("extract_joint").system  # written in Chinese, not copied


def test_render_fills_placeholders_and_examples() -> None:
    tpl = PromptLibrary("en").get("extract_joint")
    messages = tpl.render(text="Ada Lovelace wrote notes.", section="Ada > Life", type_guidance="TYPES HERE",
                          concept_guidance="")
    roles = [m.role for m in messages]
    assert roles == ["system", "user", "assistant", "user"]
    last = messages[-1].content
    assert "Ada Lovelace wrote notes." in last and "Ada > Life" in last
    # the type guidance is sent once, in the system message (not again with each example)
    assert "TYPES HERE" in messages[0].content and "TYPES HERE" not in messages[1].content + last
    # the example's own text replaces the live text
    assert "Marie Curie" in messages[1].content and "Ada" not in messages[1].content
    assert json.loads(messages[2].content) == tpl.examples[0].output


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_every_placeholder_reaches_the_user_message(lang: str, name: str) -> None:
    tpl = PromptLibrary(lang).get(name)
    last = tpl.render(**_values(tpl))[-1].content
    for used in tpl.used_placeholders():
        assert f"<{used}>" in last or f"<{used}>" in tpl.render(**_values(tpl))[0].content


def test_fragments_render() -> None:
    tpl = PromptLibrary("zh").get("extract_joint")
    text = tpl.fragment("constrained", schema="entity_types:\n  Person: {}")
    assert "Person" in text and "schema" in text
    assert "Person, Place" in tpl.fragment("free", classes="Person, Place", event_types="-", predicates="-")


def test_missing_placeholder_is_a_clear_error() -> None:
    tpl = PromptLibrary("en").get("extract_joint")
    with pytest.raises(ConfigError) as info:
        tpl.render(text="x", section="", concept_guidance="")
    assert "{type_guidance}" in str(info.value) and "extract_joint.yaml" in str(info.value)
    with pytest.raises(ConfigError, match="never filled in"):
        tpl.require({"text", "section"})


def _write(path: Path, data: dict[str, object]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _shipped(name: str, lang: str = "en") -> dict[str, object]:
    return yaml.safe_load((shipped_prompts_dir() / lang / f"{name}.yaml").read_text(encoding="utf-8"))


def test_override_dir_wins(tmp_path: Path) -> None:
    data = _shipped("reask")
    data["version"] = 7
    data["user"] = "Wrong: {error}. Again."
    _write(tmp_path / "reask.yaml", data)
    lib = PromptLibrary("en", tmp_path)
    assert lib.get("reask").key == "reask@7"
    assert lib.get("reask").render(error="boom")[-1].content == "Wrong: boom. Again."
    assert lib.get("split").key == "split@1"  # not overridden: the shipped one
    # a language subfolder wins over the flat folder
    data["version"] = 8
    _write(tmp_path / "en" / "reask.yaml", data)
    assert PromptLibrary("en", tmp_path).get("reask").version == 8


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(version="two"), "version"),
        (lambda d: d.update(colour="blue"), "colour"),
        (lambda d: d.pop("user"), "user"),
        (lambda d: d.update(user="Fix {mistake} now"), "user"),
        (lambda d: d.update(user="Fix {0} now"), "user"),
        (lambda d: d.update(user="{error"), "user"),
        (lambda d: d.update(output_schema={"type": "object", "patternProperties": {}}), "output_schema"),
        (lambda d: d.update(output_schema={"type": "object", "required": ["x"]},
                            examples=[{"input": {"error": "e"}, "output": {"y": 1}}]), "examples[0].output"),
        (lambda d: d.update(examples=[{"input": {"nope": "e"}, "output": {}}]), "examples[0].input.nope"),
    ],
)
def test_broken_override_names_file_and_field(tmp_path: Path, change, field: str) -> None:  # type: ignore[no-untyped-def]
    data = _shipped("reask")
    change(data)
    path = _write(tmp_path / "reask.yaml", data)
    with pytest.raises(ConfigError) as info:
        PromptLibrary("en", tmp_path).get("reask")
    assert info.value.where == f"{path}: {field}"


def test_yaml_syntax_error_names_line(tmp_path: Path) -> None:
    path = tmp_path / "reask.yaml"
    path.write_text("id: reask\nversion: 1\nuser: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_template(path)
    assert info.value.where.startswith(f"{path}:")


def test_unknown_template_and_language(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such prompt template"):
        PromptLibrary("en").get("summarise")
    with pytest.raises(ConfigError, match="no shipped prompts"):
        PromptLibrary("fr")
    with pytest.raises(ConfigError, match="not a directory"):
        PromptLibrary("en", tmp_path / "missing")


def test_content_hash_changes_with_wording() -> None:
    tpl = PromptLibrary("en").get("reask")
    changed = tpl.model_copy(update={"user": tpl.user + " Please."})
    assert changed.content_hash() != tpl.content_hash()
    assert changed.key == tpl.key


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(QUERY_REPLY_MODELS))
def test_query_prompts_load_and_their_examples_parse(lang: str, name: str) -> None:
    tpl, en = PromptLibrary(lang).get(name), PromptLibrary("en").get(name)
    assert tpl.examples and set(tpl.placeholders) == set(en.placeholders)
    for example in tpl.examples:
        reply, error, _ = parse_reply(json.dumps(example.output, ensure_ascii=False), QUERY_REPLY_MODELS[name])
        assert error is None and reply is not None, (name, error)
    last = tpl.render(**_values(tpl))[-1].content
    assert all(f"<{k}>" in last for k in tpl.used_placeholders())
