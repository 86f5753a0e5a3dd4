"""SubgraphRAG: candidates, directional distance encoding, the block-decomposed scorer, weak labels,
training end to end and the strategy, on small hand-built graphs with known answers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from graph_fakes import GraphResources, HashEmbedder

from kgbuild.config import Config, load_config
from kgbuild.errors import ConfigError
from kgbuild.graph.projection import MENTION, RELATION, GraphProjection
from kgbuild.graph.vectors import GraphVectors
from kgbuild.graph.walks import adjacency
from kgbuild.query.evaluate import QAItem
from kgbuild.query.graph_answer import NO_LINK, TEXT_ONLY, UNVERIFIED
from kgbuild.query.graph_linking import QuestionLinker
from kgbuild.query.retrieval.index import MutualIndex
from kgbuild.query.retrieval.linking import EntityLinker
from kgbuild.query.strategy import Budget
from kgbuild.query.subgraphrag import SPEC
from kgbuild.query.subgraphrag.candidates import GraphIndex, candidate_edges, subgraph
from kgbuild.query.subgraphrag.dde import dde_dim, directional_encoding
from kgbuild.query.subgraphrag.scorer import GraphTables, ModelMeta, ScorerModel, model_path, score_triples
from kgbuild.query.subgraphrag.strategy import SubgraphRAGStrategy
from kgbuild.query.subgraphrag.train import TrainReport, label_examples, train_retriever
from kgbuild.query_settings import SubgraphRAGSettings as Settings
from kgbuild.workspace import Workspace

# ---------------------------------------------------------------- a small graph: EDSAC and the report it was based on

CHUNKS = [
    {"id": "edsac#0#0", "doc_id": "edsac", "text": "EDSAC was designed by Maurice Wilkes in Cambridge. "
                                                   "It was based on the First Draft of a Report on the EDVAC."},
    {"id": "draft#0#0", "doc_id": "draft", "text": "The First Draft of a Report on the EDVAC was written by "
                                                   "John von Neumann."},
    {"id": "neumann#0#0", "doc_id": "neumann", "text": "John von Neumann was born in Budapest."},
    {"id": "wilkes#0#0", "doc_id": "wilkes", "text": "Maurice Wilkes was born in Dudley."},
]
DOCUMENTS = [{"id": "edsac", "title": "EDSAC"}, {"id": "draft", "title": "First Draft"},
             {"id": "neumann", "title": "John von Neumann"}, {"id": "wilkes", "title": "Maurice Wilkes"}]
ENTITIES = [
    {"id": "e_edsac", "name": "EDSAC", "spg_class": "Product", "chunk_ids": ["edsac#0#0"]},
    {"id": "e_draft", "name": "First Draft of a Report on the EDVAC", "spg_class": "Work",
     "chunk_ids": ["edsac#0#0", "draft#0#0"]},
    {"id": "e_neumann", "name": "John von Neumann", "spg_class": "Person", "chunk_ids": ["draft#0#0", "neumann#0#0"]},
    {"id": "e_budapest", "name": "Budapest", "spg_class": "City", "chunk_ids": ["neumann#0#0"]},
    {"id": "e_wilkes", "name": "Maurice Wilkes", "spg_class": "Person", "chunk_ids": ["edsac#0#0", "wilkes#0#0"]},
    {"id": "e_cambridge", "name": "Cambridge", "spg_class": "City", "chunk_ids": ["edsac#0#0"]},
    {"id": "e_dudley", "name": "Dudley", "spg_class": "City", "chunk_ids": ["wilkes#0#0"]},
]
RELATIONS = [
    {"id": "r_based", "subject_id": "e_edsac", "predicate": "basedOn", "object_id": "e_draft", "chunk_ids": ["edsac#0#0"]},
    {"id": "r_wrote", "subject_id": "e_draft", "predicate": "writtenBy", "object_id": "e_neumann",
     "chunk_ids": ["draft#0#0"]},
    {"id": "r_born", "subject_id": "e_neumann", "predicate": "bornIn", "object_id": "e_budapest",
     "chunk_ids": ["neumann#0#0"]},
    {"id": "r_designed", "subject_id": "e_wilkes", "predicate": "designed", "object_id": "e_edsac",
     "chunk_ids": ["edsac#0#0"]},
    {"id": "r_built", "subject_id": "e_edsac", "predicate": "builtIn", "object_id": "e_cambridge",
     "chunk_ids": ["edsac#0#0"]},
    {"id": "r_wborn", "subject_id": "e_wilkes", "predicate": "bornIn", "object_id": "e_dudley",
     "chunk_ids": ["wilkes#0#0"]},
]
ITEMS = [
    QAItem(id="q1", question="Who wrote the report that EDSAC was based on?", answer="John von Neumann"),
    QAItem(id="q2", question="Who designed EDSAC?", answer="Maurice Wilkes"),
    QAItem(id="q3", question="In which city was EDSAC built?", answer="Cambridge"),
    QAItem(id="q4", question="Where was Maurice Wilkes born?", answer="Dudley"),
    QAItem(id="q5", question="Where was John von Neumann born?", answer="Budapest"),
    QAItem(id="q6", question="Who was born in Cambridge?", answer="Nobody Known"),  # no node: skipped
    QAItem(id="q7", question="What is the capital of France?", answer="Paris"),  # links to nothing: skipped
    # Budapest is 3 hops from EDSAC, beyond the 2-hop candidates: skipped as unreachable.
    QAItem(id="q8", question="Where was the author of the report EDSAC was based on born?", answer="Budapest"),
]


def hash_embedder() -> HashEmbedder:
    """32 signed buckets: few dimensions, so a word's sign keeps unrelated words from adding up."""
    return HashEmbedder(32, "hash-32", lambda text: re.findall(r"\w+", text.lower()), signed=True)


def build(relations: Sequence[dict[str, Any]] = RELATIONS) -> GraphProjection:
    return GraphProjection.from_rows(chunks=CHUNKS, entities=ENTITIES, relations=relations, documents=DOCUMENTS)


def make_linker(projection: GraphProjection, embedder: HashEmbedder) -> QuestionLinker:
    index = mutual_index()
    return QuestionLinker(projection, index, EntityLinker(index, None, None, "x"), embedder)


def mutual_index() -> MutualIndex:
    return MutualIndex.from_rows(CHUNKS, ENTITIES, RELATIONS, documents=DOCUMENTS)


class Resources(GraphResources):
    """The QueryResources a strategy factory reads, over a hand-built projection."""

    def __init__(self, projection: GraphProjection, root: Path, config: Config | None = None) -> None:
        super().__init__(projection, mutual_index(), hash_embedder(), Workspace(root), config)


def node(p: GraphProjection, nid: str) -> int:
    return p.node_pos[nid]


def edge(p: GraphProjection, eid: str) -> int:
    return p.edge_ids.index(eid)


# ---------------------------------------------------------------- DDE


def test_dde_exact_numbers_on_five_nodes() -> None:
    # 0 -> 1, 1 -> 2, 3 -> 1, 2 -> 4, 0 -> 3; topic 2.
    heads = np.array([0, 1, 3, 2, 0])
    tails = np.array([1, 2, 1, 4, 3])
    got = directional_encoding(heads, tails, 5, [2], rounds=2)
    # [one-hot, fwd_1, fwd_2, bwd_1, bwd_2], two channels (topic, not topic) each.
    expected = np.array([
        [0, 1, 0, 0, 0, 0, 0, 1, .5, .5],
        [0, 1, 0, 1, 0, .5, 1, 0, 0, 1],
        [1, 0, 0, 1, 0, 1, 0, 1, 0, 0],
        [0, 1, 0, 1, 0, 0, 0, 1, 1, 0],
        [0, 1, 1, 0, 0, 1, 0, 0, 0, 0],
    ], dtype=np.float32)
    assert got.shape == (5, dde_dim(2)) == (5, 10)
    np.testing.assert_allclose(got, expected)


def test_dde_parallel_edges_count_once_each_and_rounds() -> None:
    # 0 -> 1 twice, 2 -> 1 once; topic 0: node 1 hears the topic on 2 of its 3 in-edges.
    got = directional_encoding(np.array([0, 0, 2]), np.array([1, 1, 1]), 3, [0], rounds=1)
    np.testing.assert_allclose(got[1], [0, 1, 2 / 3, 1 / 3, 0, 0])
    np.testing.assert_allclose(got[0], [1, 0, 0, 0, 0, 1])
    assert directional_encoding(np.array([0]), np.array([1]), 2, [0], rounds=3).shape == (2, 14)


# ---------------------------------------------------------------- candidates


def test_candidates_within_hops() -> None:
    p = build()
    mask = p.edge_mask([RELATION])
    adj = adjacency(p, mask)
    seeds = [node(p, "e_edsac")]
    one = candidate_edges(adj, p.edge_head, p.edge_tail, mask, seeds, hops=1)
    assert {p.edge_ids[e] for e in one.edges} == {"r_based", "r_designed", "r_built"}
    two = candidate_edges(adj, p.edge_head, p.edge_tail, mask, seeds, hops=2)
    # Neighbours' edges too: the draft's author, Wilkes' birthplace; von Neumann's birthplace is 3 hops out.
    assert {p.edge_ids[e] for e in two.edges} == {"r_based", "r_designed", "r_built", "r_wrote", "r_wborn"}
    assert two.distance[node(p, "e_draft")] == 1 and two.distance[node(p, "e_neumann")] == -1
    assert not two.truncated and two.total == 5
    # The cap keeps the nearest: the seed's own edges before its neighbours'.
    capped = candidate_edges(adj, p.edge_head, p.edge_tail, mask, seeds, hops=2, limit=3)
    assert capped.truncated and capped.total == 5
    assert {p.edge_ids[e] for e in capped.edges} == {"r_based", "r_designed", "r_built"}
    assert candidate_edges(adj, p.edge_head, p.edge_tail, mask, [], hops=2).edges.size == 0


def test_candidates_through_mentions_and_subgraph_topics() -> None:
    p = build()
    index = GraphIndex.build(p, (RELATION, MENTION))
    sub = subgraph(index, [node(p, "e_budapest")], Settings(hops=2))
    names = {p.edge_ids[e] for e in sub.edges}
    # Budapest's passage mentions von Neumann: his edges are 2 hops away through the passage.
    assert "neumann#0#0>e_neumann" in names and "r_born" in names and "r_wrote" in names
    assert "r_based" not in names
    topic = int(np.searchsorted(sub.nodes, node(p, "e_budapest")))
    np.testing.assert_allclose(sub.dde[topic, :2], [1, 0])
    assert sub.dde[:, 0].sum() == 1  # one topic
    assert sub.preds.tolist() == p.edge_pred[sub.edges].tolist()
    np.testing.assert_array_equal(sub.nodes[sub.local_head], p.edge_head[sub.edges])
    np.testing.assert_array_equal(sub.nodes[sub.local_tail], p.edge_tail[sub.edges])


# ---------------------------------------------------------------- the scorer


def random_model(dim: int, hidden: int, rounds: int, seed: int = 0, fingerprint: str = "f") -> ScorerModel:
    rng = np.random.default_rng(seed)
    f = dde_dim(rounds)

    def w(rows: int) -> np.ndarray:
        return rng.normal(size=(rows, hidden)).astype(np.float32)

    return ScorerModel(w(dim), w(dim), w(dim), w(dim), w(f), w(f), w(3), rng.normal(size=hidden).astype(np.float32),
                       rng.normal(size=hidden).astype(np.float32), float(rng.normal()),
                       ModelMeta(fingerprint, "hash-32", dim, hidden, rounds, 2, 0))


def test_block_scorer_equals_full_mlp() -> None:
    p = build()
    vectors = GraphVectors.compute(p, hash_embedder())
    model = random_model(vectors.dim, 16, 2)
    sub = subgraph(GraphIndex.build(p, (RELATION, MENTION)), [node(p, "e_edsac")], Settings())
    q = np.asarray(hash_embedder().embed(["Who designed EDSAC?"])[0], np.float32)
    fast = score_triples(model, GraphTables.compute(model, vectors), q, sub.preds, sub.nodes, sub.local_head,
                         sub.local_tail, sub.dde)
    heads, tails = p.edge_head[sub.edges], p.edge_tail[sub.edges]
    cosines = np.column_stack([vectors.nodes[heads] @ q, vectors.predicates[sub.preds] @ q, vectors.nodes[tails] @ q])
    full = np.hstack([np.tile(q, (sub.edges.size, 1)), vectors.nodes[heads], vectors.predicates[sub.preds],
                      vectors.nodes[tails], sub.dde[sub.local_head], sub.dde[sub.local_tail], cosines])
    assert full.shape[1] == model.input_dim
    naive = model.mlp(full)
    assert fast.shape == (sub.edges.size,) and sub.edges.size > 5
    np.testing.assert_allclose(fast, naive, rtol=1e-4, atol=1e-3)


def test_save_load_and_stale_model(tmp_path: Path) -> None:
    model = random_model(8, 4, 2, fingerprint="abc")
    path = tmp_path / "models" / "subgraphrag.npz"
    model.save(path)
    back = ScorerModel.load(path, "abc", "hash-32")
    assert back.meta == model.meta
    np.testing.assert_array_equal(back.first_layer(), model.first_layer())
    assert back.b2 == pytest.approx(model.b2)
    for fingerprint, embedder in (("other", "hash-32"), ("abc", "minilm")):
        with pytest.raises(ConfigError) as err:
            ScorerModel.load(path, fingerprint, embedder)
        assert "kgbuild train retriever QA_FILE" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ConfigError, match="kgbuild train retriever QA_FILE"):
        ScorerModel.load(tmp_path / "missing.npz", "abc", "hash-32")
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match="unreadable"):
        ScorerModel.load(tmp_path / "bad.npz", "abc", "hash-32")


# ---------------------------------------------------------------- labels and training


def test_labels_are_shortest_paths_to_the_answer() -> None:
    p = build()
    settings = Settings(hops=2)  # q8's answer is 3 hops out: unreachable at 2 (the default, 3, reaches it)
    index = GraphIndex.build(p, settings.edge_kinds)
    linker = make_linker(p, hash_embedder())
    report = TrainReport()
    examples = label_examples(p, index, linker, ITEMS, settings, report, passage_targets=False)
    assert (report.questions, report.used, report.no_entity, report.no_answer_node, report.unreachable) == (8, 5, 1, 1, 1)
    first = examples[0]
    positives = {p.edge_ids[e] for e in first.sub.edges[first.labels > 0]}
    # EDSAC -basedOn-> the draft -writtenBy-> von Neumann: the one shortest path (through a passage: 3 hops).
    assert positives == {"r_based", "r_wrote"}
    assert report.positives == sum(int(ex.labels.sum()) for ex in examples)

    # Passage targets: the passage that says "written by John von Neumann" is one hop past the draft.
    report = TrainReport()
    examples = label_examples(p, index, linker, ITEMS, settings, report)
    first = examples[0]
    assert {p.edge_ids[e] for e in first.sub.edges[first.labels > 0]} == {"r_based", "r_wrote", "draft#0#0>e_draft"}
    assert (report.used, report.passage_only) == (5, 0)
    # An answer no node is named like ("in Cambridge"), found in EDSAC's own passage.
    report = TrainReport()
    item = QAItem(id="p", question="Where was EDSAC designed?", answer="in Cambridge")
    (only,) = label_examples(p, index, linker, [item], settings, report)
    assert {p.edge_ids[e] for e in only.sub.edges[only.labels > 0]} == {"edsac#0#0>e_edsac"}
    assert (report.used, report.passage_only) == (1, 1)
    assert label_examples(p, index, linker, [item], settings, TrainReport(), passage_targets=False) == []


@pytest.mark.slow
def test_training_end_to_end(tmp_path: Path) -> None:
    p = build()
    embedder = hash_embedder()
    vectors = GraphVectors.compute(p, embedder)
    seen: list[tuple[int, float]] = []
    model, report = train_retriever(p, vectors, make_linker(p, embedder), ITEMS, epochs=30, hidden=16, seed=3,
                                    learning_rate=0.01, on_epoch=lambda e, loss: seen.append((e, loss)))
    assert report.epochs == 30 and len(report.losses) == 30 and [e for e, _ in seen] == list(range(1, 31))
    assert report.losses[-1] < 0.5 * report.losses[0]
    # the default 3 hops reach q8's Budapest through the draft's passage: 2 skipped (no entity, no node)
    assert report.skipped == 2 and model.meta.questions == 6 == report.used and model.meta.hops == 3
    again, report2 = train_retriever(p, vectors, make_linker(p, embedder), ITEMS, epochs=30, hidden=16, seed=3,
                                         learning_rate=0.01)
    assert report2.losses == report.losses
    np.testing.assert_array_equal(again.first_layer(), model.first_layer())

    path = tmp_path / "m.npz"
    model.save(path)
    loaded = ScorerModel.load(path, p.fingerprint, embedder.name)
    assert loaded.meta == model.meta
    rebuilt = build([*RELATIONS, {"id": "r_new", "subject_id": "e_dudley", "predicate": "near",
                                  "object_id": "e_cambridge", "chunk_ids": []}])
    assert rebuilt.fingerprint != p.fingerprint
    with pytest.raises(ConfigError) as err:
        ScorerModel.load(path, rebuilt.fingerprint, embedder.name)
    assert "kgbuild train retriever QA_FILE" in err.value.line() and "\n" not in err.value.line()


# ---------------------------------------------------------------- the strategy


@pytest.fixture(scope="module")
def trained() -> ScorerModel:
    p = build()
    embedder = hash_embedder()
    # 2 hops: the strategy tests below read a scorer whose hops differ from the configured default
    model, _ = train_retriever(p, GraphVectors.compute(p, embedder), make_linker(p, embedder), ITEMS, epochs=40,
                               hidden=16, seed=0, learning_rate=0.01, settings=Settings(hops=2))
    return model


def test_strategy_answers_without_a_model(tmp_path: Path, trained: ScorerModel) -> None:
    p = build()
    resources = Resources(p, tmp_path)
    trained.save(model_path(resources.workspace))
    assert SPEC.unavailable is not None and SPEC.unavailable(resources) is None
    strategy = SPEC.factory(resources, Budget())
    try:
        answer = strategy.answer("Who wrote the report that EDSAC was based on?", Budget())
    finally:
        strategy.close()
    assert answer.strategy == "subgraphrag" and answer.mode == "retrieval" and not answer.resolved
    assert answer.answer == "John von Neumann"
    assert UNVERIFIED in answer.notes and answer.llm_calls == 0
    assert [s.question for s in answer.trace] == ["link", "candidates", "score", "passages", "answer"]
    assert answer.trace[0].result.bound == {"topic": ["EDSAC"]}
    ids = [t.id for t in answer.triples]
    assert {"r_based", "r_wrote"} <= set(ids[:4]) and len(ids) == len(set(ids)) <= Settings().top_k
    assert 0 < len(answer.chunks) <= 5 and len({c.id for c in answer.chunks}) == len(answer.chunks)
    # By default the passages shown are the text ranking's first 5; the graph adds its triples.
    text = resources.retriever().retrieve("Who wrote the report that EDSAC was based on?", Budget().k).chunks
    assert {c.id for c in answer.chunks} == {c.id for c in text[:5]}


# Passages that share the question's words and name nothing of the graph: text retrieval ranks them high.
FILLERS = [{"id": f"memo{i}#0#0", "doc_id": f"memo{i}", "text": f"Memo {i}: who wrote the report that EDSAC was based "
            f"on? The EDSAC report was based on a report about EDSAC; who wrote it is not known."} for i in range(6)]


class FillerResources(GraphResources):
    """The small graph plus six filler passages, in the projection and the mutual index alike."""

    def __init__(self, root: Path) -> None:
        chunks, documents = [*CHUNKS, *FILLERS], [*DOCUMENTS, *({"id": c["doc_id"], "title": c["doc_id"]}
                                                              for c in FILLERS)]
        projection = GraphProjection.from_rows(chunks=chunks, entities=ENTITIES, relations=RELATIONS,
                                               documents=documents)
        index = MutualIndex.from_rows(chunks, ENTITIES, RELATIONS, documents=documents)
        # Text retrieval by the words alone (no PPR or hop signal from the graph): it ranks the fillers first.
        config = Config.model_validate({"query": {"hybrid": {"weights": {"bm25": 1.0, "dense": 1.0, "ppr": 0.0,
                                                                         "triple": 0.0, "hop": 0.0},
                                                             "second_hop": False}}})
        super().__init__(projection, index, hash_embedder(), Workspace(root), config)


def test_the_passages_shown_are_the_text_ranking_s_unless_fewer_are_kept(tmp_path: Path) -> None:
    """By default (text_kept 5) SubgraphRAG shows text retrieval's first 5 passages and adds its
    triples; with 3 kept, the passage behind the best triple takes a slot that text ranked lower."""
    question = "Who wrote the report that EDSAC was based on?"
    resources = FillerResources(tmp_path)
    p = resources.projection()
    model, _ = train_retriever(p, resources.graph_vectors(), resources.question_linker(), ITEMS, epochs=40,
                               hidden=16, seed=0, learning_rate=0.01, settings=Settings(hops=2))
    text = [c.id for c in resources.retriever().retrieve(question, Budget().k).chunks]
    shown: dict[str, list[str]] = {}
    for name, settings in (("default", None), ("3 kept", Settings(text_kept=3))):
        strategy = SubgraphRAGStrategy(resources, Budget(), model=model, settings=settings)
        try:
            answer = strategy.answer(question, Budget())
        finally:
            strategy.close()
        shown[name] = [c.id for c in answer.chunks]
        best_passage = answer.triples[0].chunk_ids[0]
    assert best_passage not in text[:5]  # the fillers outrank it in text retrieval
    assert set(shown["default"]) == set(text[:5])
    assert set(shown["3 kept"]) >= set(text[:3]) and best_passage in shown["3 kept"]


def test_question_linking_to_nothing_is_an_explained_empty_answer(tmp_path: Path, trained: ScorerModel) -> None:
    resources = Resources(build(), tmp_path)
    strategy = SubgraphRAGStrategy(resources, Budget(), model=trained, settings=Settings(top_k=3))
    answer = strategy.answer("What is the capital of France?", Budget())
    strategy.close()
    assert answer.answer == "" and not answer.resolved and answer.triples == []
    assert answer.notes == [NO_LINK, TEXT_ONLY] and answer.trace[0].result.how == "nothing"
    text = resources.retriever().retrieve("What is the capital of France?", Budget().k).chunks
    assert answer.chunks and [c.id for c in answer.chunks] == [c.id for c in text[:5]]


def test_missing_or_stale_model_is_one_line(tmp_path: Path, trained: ScorerModel) -> None:
    resources = Resources(build(), tmp_path)
    assert SPEC.unavailable is not None
    reason = SPEC.unavailable(resources)
    assert reason is not None and "kgbuild train retriever QA_FILE" in reason
    with pytest.raises(ConfigError, match="no trained SubgraphRAG retriever"):
        SPEC.factory(resources, Budget())
    replace(trained, meta=replace(trained.meta, fingerprint="old")).save(model_path(resources.workspace))
    reason = SPEC.unavailable(resources)
    assert reason is not None and "rebuilt since" in reason and "\n" not in reason
    with pytest.raises(ConfigError, match="rebuilt since"):
        SPEC.factory(resources, Budget())


def test_model_answer_over_the_top_triples(tmp_path: Path, trained: ScorerModel) -> None:
    """One graph_answer call with the real openai client against the scripted server; "not available"
    gives an empty, unresolved answer."""
    from llm_server import ScriptedLLM

    from kgbuild.config import LLMConfig

    with ScriptedLLM() as llm:
        llm.reply("Question:", '{"found": true, "answer": "John von Neumann", "facts": [1, 2]}')
        llm.reply("Who designed EDSAC", '{"found": false, "answer": ""}')
        config = Config(llm=LLMConfig(base_url=llm.base_url, model="m"))
        resources = Resources(build(), tmp_path, config)
        resources.workspace.ensure()
        strategy = SubgraphRAGStrategy(resources, Budget(use_cache=False), model=trained)
        try:
            answer = strategy.answer("Who wrote the report that EDSAC was based on?", Budget())
            missing = strategy.answer("Who designed EDSAC?", Budget())
        finally:
            strategy.close()
        assert llm.calls() == 2
        prompt = llm.chat_log()[0]["text"]
    assert answer.answer == "John von Neumann" and answer.resolved and answer.mode == "solver"
    assert answer.llm_calls == 1 and answer.prompt_tokens > 0 and answer.completion_tokens > 0
    assert answer.trace[-1].result.decided_by == "model" and UNVERIFIED not in answer.notes
    # The prompt holds the verbalised triples and the passages the Answer reports.
    assert "(EDSAC, basedOn, First Draft of a Report on the EDVAC)" in prompt
    assert all(c.id in prompt for c in answer.chunks)
    assert missing.answer == "" and not missing.resolved and missing.llm_calls == 1
    assert any("not available" in n for n in missing.notes)


def test_without_a_model_a_yes_no_or_a_count_gets_no_node_name_as_its_answer(tmp_path: Path,
                                                                             trained: ScorerModel) -> None:
    """A node is no answer to a yes/no or a how-many question: the pick becomes a candidate (issue 17.2)."""
    resources = Resources(build(), tmp_path)
    strategy = SubgraphRAGStrategy(resources, Budget(), model=trained)
    try:
        yes_no = strategy.answer("Was the report that EDSAC was based on written by John von Neumann?", Budget())
        count = strategy.answer("How many reports was EDSAC based on?", Budget())
    finally:
        strategy.close()
    for answer in (yes_no, count):
        assert answer.answer == "" and not answer.resolved and answer.citations == []
        assert answer.candidates and answer.notes[0].startswith("not resolved")
        assert UNVERIFIED not in answer.notes


def test_query_subgraphrag_in_kgbuild_yaml_reaches_the_strategy(tmp_path: Path, trained: ScorerModel) -> None:
    question = "Who wrote the report that EDSAC was based on?"
    (tmp_path / "kgbuild.yaml").write_text(
        "query:\n  subgraphrag:\n    text_fusion: false\n    top_k: 3\n    hops: 3\n", encoding="utf-8")
    config = load_config(tmp_path / "kgbuild.yaml", env={})
    resources = Resources(build(), tmp_path, config)
    trained.save(model_path(resources.workspace))
    strategy = SPEC.factory(resources, Budget())
    assert isinstance(strategy, SubgraphRAGStrategy)
    try:
        answer = strategy.answer(question, Budget())
    finally:
        strategy.close()
    # no text fusion: no retriever, no fused passages step; the top 3 triples only
    assert strategy.retriever is None and len(answer.triples) == len(answer.facts) == 3
    assert [s.question for s in answer.trace] == ["link", "candidates", "score", "answer"]
    # the candidates are still the trained scorer's (hops 2), whatever the config says for training
    assert strategy.settings.hops == trained.meta.hops == 2 and strategy.settings.top_k == 3

    default = SubgraphRAGStrategy(Resources(build(), tmp_path), Budget(), model=trained)
    try:
        full = default.answer(question, Budget())
    finally:
        default.close()
    assert full.facts[:3] == answer.facts and "passages" in [s.question for s in full.trace]
