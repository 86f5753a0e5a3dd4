"""Answers made without a model never give a guess of the wrong kind as the answer (issue 17, item 2).

The retrieval-only answer over the HotpotQA passage of the issue's example ("Who directed the film
shot in or around Leland, North Carolina in 1986", where the extractive pick was the film) and a
"same state" yes/no; the CLI's first line; and the type rules themselves. The tests only use names
that existed before the gate, so they can be run against the old code to see them fail.
"""

from __future__ import annotations

from graph_fakes import HashEmbedder
from rich.console import Console

from kgbuild.cli.query import print_answer
from kgbuild.query.retrieval import HybridRetriever, MemoryVectorStore, MutualIndex, answer_offline
from kgbuild.query.retrieval.text import content_tokens
from kgbuild.query.types import Answer
from kgbuild.store.types import VectorRow

# The two HotpotQA passages of the example (../shared/data/hotpotqa/train_corpus.json).
LELAND = ("Leland is a town in Brunswick County, North Carolina, United States. The population was 13,527 at the "
          "2010 census, up from 1,938 at the 2000 census. It is part of the Myrtle Beach Metropolitan Statistical "
          "Area. A number of movies, such as \"Maximum Overdrive\" (1986), \"Domestic Disturbance\" (2001), and "
          "\"We're the Millers\" (2013) have been shot in or around Leland.")
WILMINGTON = ("Wilmington is a port city in New Hanover County, North Carolina, United States. Many films have been "
              "shot in Wilmington since EUE Screen Gems opened its studios in 1984.")
BEACH = "Myrtle Beach is a coastal city on the east coast of the United States in Horry County, South Carolina."
DOCS = {"Leland, North Carolina": LELAND, "Wilmington, North Carolina": WILMINGTON, "Myrtle Beach, South Carolina": BEACH}
ENTITIES = [
    {"id": "e_mo", "name": "Maximum Overdrive", "spg_class": "Work", "aliases": [], "chunk_ids": ["leland#0"]},
    {"id": "e_dd", "name": "Domestic Disturbance", "spg_class": "Work", "aliases": [], "chunk_ids": ["leland#0"]},
    {"id": "e_leland", "name": "Leland", "spg_class": "GeographicLocation", "aliases": [], "chunk_ids": ["leland#0"]},
    {"id": "e_bc", "name": "Brunswick County", "spg_class": "GeographicLocation", "aliases": [],
     "chunk_ids": ["leland#0"]},
    {"id": "e_wil", "name": "Wilmington", "spg_class": "GeographicLocation", "aliases": [], "chunk_ids": ["wil#0"]},
    {"id": "e_mb", "name": "Myrtle Beach", "spg_class": "GeographicLocation", "aliases": [], "chunk_ids": ["mb#0"]},
]
CHUNK_IDS = {"Leland, North Carolina": "leland#0", "Wilmington, North Carolina": "wil#0",
             "Myrtle Beach, South Carolina": "mb#0"}


def retriever() -> HybridRetriever:
    chunks = [{"id": CHUNK_IDS[d], "doc_id": d, "text": t} for d, t in DOCS.items()]
    index = MutualIndex.from_rows(chunks, ENTITIES, [], [], [{"id": d, "title": d} for d in DOCS])
    emb = HashEmbedder(64, "hash64", content_tokens)
    store = MemoryVectorStore()
    store.ensure_collection("t_chunks", emb.dim, full_text=True)
    store.ensure_collection("t_entities", emb.dim)
    store.upsert("t_chunks", [VectorRow(id=c["id"], vector=v, text=c["text"], doc_id=c["doc_id"])
                              for c, v in zip(chunks, emb.embed([c["text"] for c in chunks]), strict=True)])
    store.upsert("t_entities", [VectorRow(id=e["id"], vector=v, name=e["name"], type=e["spg_class"])
                                for e, v in zip(ENTITIES, emb.embed([e["name"] for e in ENTITIES]), strict=True)])
    return HybridRetriever(index, store, emb, "t")


def test_a_who_question_is_not_answered_with_a_film_title() -> None:
    answer = answer_offline("Who directed the film that was shot in or around Leland, North Carolina in 1986",
                            retriever(), 3)
    assert answer.answer == "" and not answer.resolved
    assert "Maximum Overdrive" in answer.candidates  # shown, not given
    assert answer.notes and answer.notes[0].startswith("not resolved")
    assert answer.citations == [] and answer.chunks  # the evidence stays; an empty answer cites nothing
    assert answer.expected_type == "person"


def test_a_yes_no_is_not_asserted_from_retrieval_alone() -> None:
    answer = answer_offline("Are Leland and Myrtle Beach in the same state?", retriever(), 3)
    assert answer.answer == "" and answer.candidates in (["yes"], ["no"])
    assert "yes/no" in answer.notes[0] and answer.citations == []


def test_an_answer_of_the_asked_kind_is_still_given() -> None:
    answer = answer_offline("In which county is Leland?", retriever(), 3)
    assert answer.answer == "Brunswick County" and answer.citations
    year = answer_offline("In what year was Maximum Overdrive shot in or around Leland?", retriever(), 3)
    assert year.answer == "1986"


def test_the_cli_never_prints_a_guess_as_the_answer() -> None:
    answer = Answer(question="Who directed it?", answer="", resolved=False, mode="retrieval", strategy="hybrid",
                    expected_type="person", candidates=["Maximum Overdrive"], notes=["not resolved: ..."])
    out = Console(record=True, width=120)
    print_answer(answer, out)
    lines = out.export_text().splitlines()
    assert lines[0] == "not resolved: no answer of the kind asked (person)"
    assert "Maximum Overdrive" not in lines[0] and any("candidates" in ln and "Maximum Overdrive" in ln for ln in lines)


def test_a_withheld_guess_gives_way_to_the_best_candidate_of_the_kind_asked() -> None:
    from kgbuild.query.retrieval.answer_check import check_type, settle

    question = "Who invented the World Wide Web?"
    people = {"Tim Berners-Lee": ["Person"], "CERN": ["Organization"]}
    guess = Answer(question=question, answer="1989", resolved=False, mode="retrieval", strategy="hybrid")
    settled = settle(guess, check_type(question, "1989"), ["CERN", "Tim Berners-Lee"],
                     recheck=lambda name: check_type(question, name, people.get(name, [])))
    assert settled.answer == "Tim Berners-Lee" and not settled.verified
    assert settled.candidates[0] == "1989" and settled.notes[0].startswith("not resolved:")
    # With no candidate of the kind asked, nothing is given.
    none = settle(guess, check_type(question, "1989"), ["CERN"],
                  recheck=lambda name: check_type(question, name, people.get(name, [])))
    assert none.answer == "" and none.candidates == ["1989", "CERN"]


def test_a_model_free_answer_prints_as_a_guess() -> None:
    answer = Answer(question="In what year?", answer="1941", resolved=False, mode="retrieval", strategy="hybrid")
    out = Console(record=True, width=120)
    print_answer(answer, out)
    assert out.export_text().splitlines()[0] == "guess, not verified: 1941"
    graph = answer.model_copy(update={"strategy": "frag", "facts": ["a -> b -> c"]})
    out = Console(record=True, width=120)
    print_answer(graph, out)
    assert out.export_text().splitlines()[0] == "guess, not verified: 1941"


def test_the_type_rules() -> None:
    from kgbuild.query.retrieval.answer_check import check_type

    assert check_type("When was Tommy Flowers born?", "22 December 1905").fits is True
    assert check_type("When was Tommy Flowers born?", "Poplar").fits is False
    assert check_type("In what year did Colossus arrive?", "1944").fits is True
    assert check_type("In what year did Colossus arrive?", "18 January 1944").fits is True  # a date has its year
    assert check_type("In what year did Colossus arrive?", "Bletchley Park").fits is False
    assert check_type("How many Colossi were built?", "ten").fits is True
    assert check_type("How many Colossi were built?", "Bletchley Park").fits is False
    assert check_type("Which band was formed first, The Exies or Circus Diablo?", "Circus Diablo").fits is True
    assert check_type("Which band was formed first, The Exies or Circus Diablo?", "1997").fits is False
    assert check_type("Who designed Colossus?", "Tommy Flowers", ["Person"]).fits is True
    assert check_type("Who designed Colossus?", "Colossus", ["Work"]).fits is False
    assert check_type("Who designed Colossus?", "Tommy Flowers").fits is None  # untyped: given, with a note
    assert check_type("Is Colossus a computer?", "yes").fits is False
    assert check_type("What is Colossus?", "a computer").fits is True
