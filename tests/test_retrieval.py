"""Hybrid retrieval on a tiny hand-made mutual index, with an in-memory store and a hashing embedder."""

from __future__ import annotations

import numpy as np
import pytest
from graph_fakes import HashEmbedder

from kgbuild.query.retrieval import HybridRetriever, HybridSettings, MemoryVectorStore, MutualIndex, answer_offline
from kgbuild.query.retrieval.answer import answer_span, best_sentence
from kgbuild.query.retrieval.fusion import fuse, normalise
from kgbuild.query.retrieval.ppr import PageRank
from kgbuild.query.retrieval.text import content_tokens
from kgbuild.store.milvus import FullTextUnavailable
from kgbuild.store.types import VectorHit, VectorRow
from kgbuild.text import mention_key


def hash_embedder() -> HashEmbedder:
    return HashEmbedder(64, "hash64", content_tokens)


def cid(doc: str) -> str:
    return f"{doc}#p00000#0"


DOCS = {
    "Drew Fuller": "Drew Fuller is an American actor. He starred as Chris Halliwell in the series Charmed.",
    "Charmed": "Charmed is a television series that originally aired on The WB network from 1998 to 2006.",
    "Gardening": "Gardening is the practice of growing plants. Many people enjoy gardening at home.",
    "Oak": "An oak is a tree in the genus Quercus. Oaks grow in gardens and forests.",
    "Network news": "The WB network broadcast many series. The network closed in 2006.",
}
ENTITIES = [
    {"id": "e_drew", "name": "Drew Fuller", "spg_class": "Person", "aliases": ["Andrew Fuller"], "chunk_ids": [cid("Drew Fuller")]},
    {"id": "e_charmed_w", "name": "Charmed", "spg_class": "Work", "aliases": [], "chunk_ids": [cid("Drew Fuller")]},
    {"id": "e_wb", "name": "The WB", "spg_class": "Organization", "aliases": [], "chunk_ids": [cid("Charmed"), cid("Network news")]},
    {"id": "e_chris", "name": "Chris Halliwell", "spg_class": "Person", "aliases": [], "chunk_ids": [cid("Drew Fuller")]},
    {"id": "e_charmed_o", "name": "Charmed", "spg_class": "Organization", "aliases": [], "chunk_ids": [cid("Charmed")]},
    {"id": "e_quercus", "name": "Quercus", "spg_class": "Thing", "aliases": [], "chunk_ids": [cid("Oak")]},
]
RELATIONS = [
    {"id": "r1", "subject_id": "e_drew", "predicate": "star", "object_id": "e_charmed_w", "chunk_ids": [cid("Drew Fuller")]},
    {"id": "r2", "subject_id": "e_charmed_o", "predicate": "airedOn", "object_id": "e_wb", "chunk_ids": [cid("Charmed")]},
]
CONCEPTS = [{"id": "c_series", "name": "television series", "chunk_ids": [cid("Charmed")]}]


def make_index(title_nodes: bool = True) -> MutualIndex:
    chunks = [{"id": cid(d), "doc_id": d, "text": t} for d, t in DOCS.items()]
    docs = [{"id": d, "title": d} for d in DOCS]
    return MutualIndex.from_rows(chunks, ENTITIES, RELATIONS, CONCEPTS, docs, title_nodes=title_nodes)


def make_retriever(store: MemoryVectorStore | None = None) -> HybridRetriever:
    """The hand-made index over `store` (default: a fresh in-memory one) holding its vectors."""
    index = make_index()
    emb = hash_embedder()
    store = store if store is not None else MemoryVectorStore()
    store.ensure_collection("t_chunks", emb.dim, full_text=True)
    store.ensure_collection("t_entities", emb.dim)
    store.upsert("t_chunks", [VectorRow(id=cid(d), vector=v, text=t, doc_id=d)
                              for (d, t), v in zip(DOCS.items(), emb.embed(list(DOCS.values())), strict=True)])
    store.upsert("t_entities", [VectorRow(id=e["id"], vector=v, name=e["name"], type=e["spg_class"])
                                for e, v in zip(ENTITIES, emb.embed([e["name"] for e in ENTITIES]), strict=True)])
    return HybridRetriever(index, store, emb, "t")


@pytest.fixture()
def retriever() -> HybridRetriever:
    return make_retriever()


# ---------------------------------------------------------------- index and walk


def test_index_incidence_and_relations() -> None:
    index = make_index()
    drew = index.node_pos["e_drew"]
    assert [index.chunk_ids[c] for c in index.node_chunks[drew].indices] == [cid("Drew Fuller")]
    assert {index.node_names[n] for n in index.nodes_of_chunk(index.chunk_pos[cid("Drew Fuller")])} >= {
        "Drew Fuller", "Charmed", "Chris Halliwell"}
    assert len(index.relations) == 2
    # the same-name title node bridges the entity "Charmed" in Drew Fuller's chunk to the Charmed chunk
    title = index.node_pos["doc:Charmed"]
    assert index.node_edges[title, index.node_pos["e_charmed_w"]] > 0
    assert index.title_of("Charmed") == "Charmed"


def test_ppr_mass_concentrates_near_the_seed() -> None:
    index = make_index()
    _, chunks = PageRank(index).run({index.node_pos["e_quercus"]: 1.0}, restart=0.3)
    assert chunks.argmax() == index.chunk_pos[cid("Oak")]
    _, chunks = PageRank(index).run({index.node_pos["e_drew"]: 1.0}, restart=0.3)
    order = np.argsort(-chunks)
    assert index.chunk_ids[order[0]] == cid("Drew Fuller")
    assert index.chunk_ids[order[1]] == cid("Charmed")  # two hops: Drew -> chunk -> Charmed -> title -> chunk
    assert chunks[index.chunk_pos[cid("Gardening")]] == 0.0
    assert PageRank(index).run({})[1].sum() == 0.0


def test_fusion_rrf_and_minmax() -> None:
    signals = {"a": {1: 10.0, 2: 5.0}, "b": {2: 0.9, 3: 0.1}}
    rrf = fuse(signals, {"a": 1.0, "b": 1.0}, rrf_k=0.0)
    assert rrf == {1: 1.0, 2: 0.5 + 1.0, 3: 0.5}
    mm = fuse(signals, {"a": 1.0, "b": 2.0}, method="minmax")
    assert mm == {1: 1.0, 2: 0.0 + 2.0, 3: 0.0}
    assert normalise({7: 3.0}) == {7: 1.0}
    assert fuse(signals, {"a": 0.0, "b": 1.0}) .keys() == {2, 3}


# ---------------------------------------------------------------- linking


def test_link_exact_alias_type_hint_and_dense(retriever: HybridRetriever) -> None:
    got = retriever.link("drew  FULLER")
    assert got[0].id == "e_drew" and got[0].how == "exact" and got[0].score == 1.0
    assert retriever.link("Andrew Fuller")[0].how == "alias"
    charmed = retriever.link("Charmed", type_hint="Organization", k=2)
    assert [c.id for c in charmed] == ["e_charmed_o", "e_charmed_w"]
    assert retriever.link("Charmed", type_hint="Work", k=1)[0].id == "e_charmed_w"
    assert retriever.link("television series")[0].how == "concept"
    dense = retriever.link("Quercus genus", k=1)  # no such name: the dense collection answers
    assert dense[0].id == "e_quercus" and dense[0].how == "dense" and 0 <= dense[0].score <= 1
    assert all(not e.id.startswith("doc:") for e in retriever.link("Network news", k=5))


def test_mentions_longest_match_capitalisation_and_unmatched(retriever: HybridRetriever) -> None:
    found, unmatched = retriever.linker.mentions("Which network aired the series Drew Fuller starred in, with Zorro Belt?")
    assert [m.text for m in found] == ["Drew Fuller"]
    assert unmatched == ["Zorro Belt"]
    # a lowercase single word is not a mention even if an entity has that name; the first word never counts
    index = retriever.index
    index.names.add(mention_key("network"), index.node_pos["e_wb"], is_alias=True)
    found, _ = retriever.linker.mentions("Network of the WB: which network?")
    assert all(m.text.casefold() != "network" for m in found)


# ---------------------------------------------------------------- retrieval


def test_modes_return_scored_chunks(retriever: HybridRetriever) -> None:
    q = "Which network originally aired the series that Drew Fuller starred in?"
    bm25 = retriever.retrieve(q, 3, mode="bm25")
    dense = retriever.retrieve(q, 3, mode="dense")
    hybrid = retriever.retrieve(q, 3)
    assert bm25.chunks and dense.chunks and len(hybrid.chunks) == 3
    assert set(bm25.chunks[0].signals) == {"bm25"}
    assert hybrid.seconds > 0
    top = [c.doc_id for c in hybrid.chunks[:2]]
    assert set(top) == {"Drew Fuller", "Charmed"}, top  # the bridge passage comes in through the walk
    assert set(hybrid.chunks[0].signals) >= {"bm25", "dense", "ppr", "hop"}
    assert [e.id for e in hybrid.entities][:1] == ["e_drew"]
    assert any(t.id == "r1" and t.subject == "Drew Fuller" and t.object == "Charmed" for t in hybrid.triples)
    assert all(set(t.chunk_ids) & {c.id for c in hybrid.chunks} for t in hybrid.triples)


def test_seeds_argument_and_no_second_hop(retriever: HybridRetriever) -> None:
    retriever.settings = HybridSettings(second_hop=False)
    got = retriever.retrieve("what is it?", 2, seeds=["e_quercus", "unknown-id"])
    assert got.chunks[0].doc_id == "Oak"
    assert "hop" not in got.chunks[0].signals
    assert [e.id for e in got.entities] == ["e_quercus"]


def test_hybrid_embeds_once_per_question(retriever: HybridRetriever) -> None:
    emb = retriever.embedder
    before = emb.calls  # type: ignore[attr-defined]
    retriever.retrieve("Did Drew Fuller meet Zorro Belt?", 3)
    assert emb.calls - before == 1  # type: ignore[attr-defined]


class NoFullTextStore(MemoryVectorStore):
    """The in-memory store answering every text search like a Milvus server older than 2.5."""

    def __init__(self) -> None:
        super().__init__()
        self.text_calls = 0

    def text_search(self, collection: str, text: str, k: int, where: object = None) -> list[VectorHit]:
        self.text_calls += 1
        raise FullTextUnavailable("vector_store.uri http://old:19530",
                                  "Milvus server v2.4.9 has no BM25 full-text search; needs Milvus >= 2.5")


def test_hybrid_without_full_text_fuses_the_other_signals_and_says_so(retriever: HybridRetriever) -> None:
    old = NoFullTextStore()
    old._collections = retriever.vectors._collections  # type: ignore[attr-defined]  # same rows
    retriever.vectors = old
    retriever.linker.vectors = old
    q = "Which network originally aired the series that Drew Fuller starred in?"
    first, second = retriever.retrieve(q, 3), retriever.retrieve(q, 3)
    assert old.text_calls == 1  # asked once, remembered
    for got in (first, second):
        assert {c.doc_id for c in got.chunks[:2]} == {"Drew Fuller", "Charmed"}
        assert "bm25" not in got.chunks[0].signals and {"dense", "ppr"} <= set(got.chunks[0].signals)
        assert got.notes == ["BM25 left out, fused without it: vector_store.uri http://old:19530: "
                             "Milvus server v2.4.9 has no BM25 full-text search; needs Milvus >= 2.5"]
    answer = answer_offline("Which network originally aired Charmed?", retriever, 3)
    # the retriever's note, then where the answer came from (the graph's (Charmed, airedOn, The WB))
    assert answer.answer == "The WB" and answer.notes[:1] == first.notes
    assert not retriever.full_text_available()
    with pytest.raises(FullTextUnavailable, match=r"needs Milvus >= 2\.5"):  # nothing to fall back on
        retriever.retrieve(q, 3, mode="bm25")
    assert old.text_calls == 1


def test_memory_collection_without_full_text_raises_the_store_error() -> None:
    store = MemoryVectorStore()
    store.ensure_collection("d", 2)
    with pytest.raises(FullTextUnavailable, match="has no full-text index"):
        store.text_search("d", "anything", 1)


# ---------------------------------------------------------------- the retrieval-only answer


def test_answer_offline_extracts_a_span_with_citations(retriever: HybridRetriever) -> None:
    answer = answer_offline("Which network originally aired Charmed?", retriever, 3)
    assert answer.mode == "retrieval" and answer.llm_calls == 0
    assert answer.answer == "The WB"
    assert answer.citations[0].chunk_id == answer.chunks[0].id
    assert "The WB" in answer.citations[0].text and len(answer.citations) == len(answer.chunks)
    yes_no = answer_offline("Is Charmed a television series?", retriever, 3)
    # a yes/no is not asserted from retrieval alone (issue 17.2): the overlap's guess is a candidate
    assert yes_no.answer == "" and yes_no.candidates == ["yes"] and yes_no.citations == []
    # an extractive sentence picked by word overlap is never a resolved answer
    assert not answer.resolved and not yes_no.resolved


def test_best_sentence_and_span() -> None:
    rank, sent, _ = best_sentence("When was the WB network closed?", ["Oaks grow.", "The WB network broadcast many series. The network closed in 2006."])
    assert (rank, sent) == (1, "The network closed in 2006.")
    assert answer_span("When was the WB network closed?", sent) == "2006"
    assert answer_span("Who founded the Bank of England?", "It was founded by William Paterson of Scotland.") == "William Paterson of Scotland"


def test_expected_answer_type_from_the_question() -> None:
    from kgbuild.query.retrieval.answer_types import expected

    assert expected("In which city was the author of the report born?").kind == "place"
    assert expected("When was the Welsh singer born who is known for her voice?").kind == "date"
    assert expected("Released in which year, is a book by Nigella Lawson").kind == "year"
    assert expected("How many times was he selected for the all-star game?").kind == "number"
    assert expected("Who directed the film shot in Leland?").kind == "person"
    assert expected("Which city was the band formed in 1981 when Hetfield answered an ad?").kind == "place"
    assert expected("Are Medici and Senet both board games?").kind == "yesno"
    assert expected("Do Lafzon Ki Kahani, a remake of Always, released in which year?").kind == "year"
    choice = expected("Which band was formed first, The Exies or Circus Diablo?")
    assert (choice.kind, choice.options, choice.order) == ("choice", ("Exies", "Circus Diablo"), "earlier")
    assert expected("Between Iain Banks and Irwin Shaw, which writer had a more diverse career?").options == (
        "Iain Banks", "Irwin Shaw")


def test_typed_span_skips_the_bridge_name_for_the_place() -> None:
    from kgbuild.query.retrieval.answer import extract

    q = "In which city was the author of the report on which Maurice Wilkes based the design of EDSAC born?"
    chunks = [("c1", "EDSAC", ("EDSAC was designed by Maurice Wilkes. Wilkes based the design on the First Draft "
                               "of a Report on the EDVAC by John von Neumann.")),
              ("c2", "John von Neumann", "John von Neumann was a mathematician. He was born in Budapest in 1903.")]
    # the graph types the names of each chunk: a Work in the first passage, a place in the bridge passage
    entities = [{"id": "e1", "name": "First Draft of a Report on the EDVAC", "spg_class": "Work", "chunk_ids": ["c1"]},
                {"id": "e2", "name": "Budapest", "spg_class": "GeographicLocation", "chunk_ids": ["c2"]},
                {"id": "e3", "name": "Maurice Wilkes", "spg_class": "Person", "chunk_ids": ["c1"]},
                {"id": "e4", "name": "John von Neumann", "spg_class": "Person", "chunk_ids": ["c1", "c2"]}]
    index = MutualIndex.from_rows([{"id": c, "doc_id": t, "text": x} for c, t, x in chunks], entities, [])
    assert extract(q, chunks, index)[0] == "Budapest"
    assert extract(q, chunks, index)[1:] == (1, "He was born in Budapest in 1903.")
    assert extract("In what year was John von Neumann born?", chunks)[0] == "1903"


def test_comparisons_and_both_questions_read_each_name_s_passage() -> None:
    from kgbuild.query.retrieval.answer import extract

    chunks = [("a", "The Exies", "The Exies are an American rock band formed in 1997 in Los Angeles."),
              ("b", "Circus Diablo", "Circus Diablo is an American rock band formed in 2004.")]
    assert extract("Which band was formed first, The Exies or Circus Diablo?", chunks)[0] == "Exies"
    assert extract("Which band was formed later, The Exies or Circus Diablo?", chunks)[0] == "Circus Diablo"
    assert extract("Are The Exies and Circus Diablo both rock bands?", chunks)[0] == "yes"
    assert extract("Are The Exies and Circus Diablo both jazz orchestras?", chunks)[0] == "no"


# ---------------------------------------------------------------- the in-memory store


def test_memory_store_bm25_filters_and_deletes() -> None:
    store = MemoryVectorStore()
    store.ensure_collection("c", 2, full_text=True)
    store.upsert("c", [VectorRow(id="a", vector=[1, 0], text="red apple", doc_id="d1"),
                       VectorRow(id="b", vector=[0, 1], text="green apple apple", doc_id="d2"),
                       VectorRow(id="c", vector=[1, 1], text="blue sky", doc_id="d1")])
    assert [h.id for h in store.text_search("c", "red apple", 3)] == ["a", "b"]  # no shared word, no hit
    assert [h.id for h in store.search("c", [1, 0], 1)] == ["a"]
    assert [h.id for h in store.search("c", [1, 0], 3, where={"doc_id": "d2"})] == ["b"]
    store.delete("c", ["a"])
    assert store.count("c") == 2 and store.ids("c") == {"b", "c"}
    assert [h.id for h in store.text_search("c", "red apple", 3)] == ["b"]


def test_one_type_rule_for_linking_and_the_graph_view(retriever: HybridRetriever) -> None:
    from kgbuild.text import same_type, type_key

    assert type_key("Film Directors") == type_key("filmDirector") == type_key("FilmDirector") == "film director"
    assert type_key("Class") == "class" and type_key("Bus") == "bus"
    assert same_type("Organization", "organizations") and not same_type("Organization", None)
    # a hint in another spelling lifts the same class as the graph view's conforms would
    assert [c.id for c in retriever.link("Charmed", type_hint="organizations", k=2)] == ["e_charmed_o", "e_charmed_w"]
