"""The pairs of names no rule related, with their features (kgbuild/extract/pair_features.py), as
`OfflineExtractor.extract_with_pairs` gives them to bench/pair_model.py. Sentences from outside every gold set."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_offline_extractor import FakeSchema

from kgbuild.extract.offline import OfflineExtractor
from kgbuild.extract.pair_features import PairCandidate
from kgbuild.model import Chunk, ChunkExtraction


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(FakeSchema())


def pairs_of(extractor: OfflineExtractor, text: str, title: str) -> tuple[ChunkExtraction, list[PairCandidate]]:
    chunk = Chunk(id="doc#p00000#0", doc_id="doc/file", text=text, order=0, paragraph_start=0, paragraph_end=0,
                  token_count=len(text.split()), content_hash="x", section=[title])
    [(result, pairs)] = extractor.extract_with_pairs([chunk])
    return result, pairs


TEXT = ("Lise Meitner was an Austrian physicist. She worked with Otto Hahn at the Kaiser Wilhelm Institute in "
        "Berlin, and in 1938 she fled to Stockholm.")


def test_candidates_are_the_pairs_of_one_sentence_in_both_directions_with_their_rule(
        extractor: OfflineExtractor) -> None:
    result, pairs = pairs_of(extractor, TEXT, "Lise Meitner")
    related = {(r.subject.name, r.object.name): r.predicate for r in result.relations}
    found = {(p.subject.name, p.object.name) for p in pairs}
    assert any(p.rule is None and not p.reverse for p in pairs), "pairs the rules did not relate are candidates"
    for p in pairs:
        assert p.rule == related.get((p.subject.name, p.object.name))
        assert p.reverse == ((p.object.name, p.subject.name) in related)
    assert all((p.object.name, p.subject.name) in found for p in pairs if not p.object.is_date)
    assert not any(p.subject.is_date for p in pairs)  # a date is never a subject


def test_a_resolved_pronoun_stands_for_its_person_and_says_so(extractor: OfflineExtractor) -> None:
    _, pairs = pairs_of(extractor, TEXT, "Lise Meitner")
    from_pronoun = [p for p in pairs if p.subject.name == "Lise Meitner" and any(f.startswith("apron:") for f in
                                                                                  p.features)]
    assert from_pronoun, "'she' is Lise Meitner, and her pairs carry the pronoun feature"


def test_features_describe_the_path_between_the_names(extractor: OfflineExtractor) -> None:
    _, pairs = pairs_of(extractor, TEXT, "Lise Meitner")
    [pair] = [p for p in pairs if p.subject.name == "Otto Hahn" and p.object.name == "Berlin"] or [None]
    assert pair is not None
    features = set(pair.features)
    assert any(f.startswith("path:") for f in features)
    assert "labels:PERSON|GPE" in features
    assert "order:forward" in features


def test_plain_extract_is_the_same_with_or_without_collecting_pairs(extractor: OfflineExtractor) -> None:
    chunk = Chunk(id="doc#p00000#0", doc_id="doc/file", text=TEXT, order=0, paragraph_start=0, paragraph_end=0,
                  token_count=len(TEXT.split()), content_hash="x", section=["Lise Meitner"])
    [plain] = extractor.extract([chunk])
    [(collected, _)] = extractor.extract_with_pairs([chunk])
    assert plain.model_dump() == collected.model_dump()
