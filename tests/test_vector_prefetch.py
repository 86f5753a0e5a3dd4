"""The vector stage's embedding during an LLM extraction (kgbuild/build/vector_prefetch.py): what the
write stage finds already embedded, and that switching it off or a Chinese batch leaves it alone.
Counts, not timings: bench/llm_overlap.py measures the time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from llm_server import ScriptedLLM, extraction_passages

from kgbuild.cli import main

DOCS = {
    "turing.txt": "Alan Turing was born in London. He worked at Bletchley Park during the war.",
    "hopper.txt": "Grace Hopper was born in New York City. She developed early compilers for the Navy.",
    "lovelace.txt": "Ada Lovelace was born in London. She wrote about the Analytical Engine of Charles Babbage.",
}


def one(text: str) -> dict[str, Any]:
    name = " ".join(text.split()[:2])
    return {"entities": [{"name": name, "type": "Person", "description": f"{name}, from the passage."},
                         {"name": "London", "type": "GeographicLocation"}],
            "events": [], "relations": [{"subject": name, "predicate": "bornIn", "object": "London"}],
            "hypernodes": []}


def reply(body: dict[str, Any]) -> str:
    passages = extraction_passages(body)
    if passages[0][0] is None:
        return json.dumps(one(passages[0][1]))
    return json.dumps({pid: one(text) for pid, text in passages})


def build(tmp_path: Path, base_url: str, extra: str = "") -> dict[str, Any]:
    src = tmp_path / "src"
    src.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (src / name).write_text(text, encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text(
        "workspace: ws\ngraph_store:\n  backend: none\n"
        "extract:\n  extractor: llm\nalign:\n  llm_judge: false\n  llm_hypernyms: false\n" + extra +
        f"llm:\n  base_url: {base_url}\n  model: m\n  timeout_s: 5\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-c", str(config), "build", str(src), "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


@pytest.mark.slow
def test_the_write_stage_finds_the_texts_embedded_during_extraction(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", reply)
        on = build(tmp_path / "on", llm.base_url)
        off = build(tmp_path / "off", llm.base_url, "build:\n  overlap_vectors: false\n")
    stores_on, stores_off = on["write"]["stores"], off["write"]["stores"]
    # Same vectors either way; with the overlap every chunk and entity text was embedded before the write.
    assert stores_on["vectors_written"] == stores_off["vectors_written"] > 0
    assert stores_off["embeddings_cached"] == 0
    chunks = on["chunk"]["chunks_total"] if "chunks_total" in on["chunk"] else on["extract"]["chunks_total"]
    assert stores_on["embeddings_cached"] >= chunks + 3  # the chunks and the people
    # only what alignment made (concept names) is left to the write stage
    assert stores_on["embeddings_computed"] < stores_off["embeddings_computed"]


def test_a_chinese_batch_in_an_empty_workspace_is_left_to_the_write_stage(tmp_path: Path) -> None:
    from kgbuild.build.context import BuildContext
    from kgbuild.build.vector_prefetch import open_prefetch
    from kgbuild.config import parse_config

    config = parse_config({"workspace": str(tmp_path / "ws")}, file=None, env={})
    ctx = BuildContext.from_config(config)
    ctx.prefetch_vectors = True
    assert open_prefetch(ctx, ["图灵出生于伦敦。他在布莱切利园工作。"] * 5) is None
    ctx.prefetch_vectors = False
    assert open_prefetch(ctx, ["Alan Turing was born in London."]) is None
