"""Taking documents out of a workspace corpus: --prune and `kgbuild remove`."""

from __future__ import annotations

import pytest

from kgbuild.corpus import Corpus, remove_documents, same_source
from kgbuild.errors import WorkspaceError
from kgbuild.model import Document


def doc(doc_id: str, source: str) -> Document:
    return Document(id=doc_id, source=source, title=doc_id, format="txt", content_hash="h", paragraphs=[])


def corpus() -> Corpus:
    c = Corpus()
    for d in (doc("a", "notes/a.txt"), doc("b", "notes/b.txt"), doc("r1", "corpus.jsonl:1"), doc("r2", "corpus.jsonl:2")):
        c.docs[d.id], c.chunkers[d.id], c.chunks[d.id] = d, "fp", []
    return c


def test_a_failed_source_never_costs_what_was_built_from_it() -> None:
    assert same_source("notes/a.txt", "notes/a.txt") and same_source("notes/a.txt", "notes")
    assert same_source("corpus.jsonl:2", "corpus.jsonl") and not same_source("notes/ab.txt", "notes/a")
    c = corpus()
    # Pruning after a run that read only b, while notes/a.txt and corpus.jsonl failed to read.
    removed = remove_documents(c, [], keep=[c.docs["b"]], failed_sources=["notes/a.txt", "corpus.jsonl"])
    assert removed == 0 and set(c.docs) == {"a", "b", "r1", "r2"}
    removed = remove_documents(c, [], keep=[c.docs["b"]], failed_sources=[])
    assert removed == 3 and set(c.docs) == {"b"} and set(c.chunks) == {"b"}


def test_removing_an_unknown_document_changes_nothing() -> None:
    c = corpus()
    with pytest.raises(WorkspaceError, match="document 'r3': not in the workspace"):
        remove_documents(c, ["r1", "r3"], keep=None, failed_sources=[])
    assert set(c.docs) == {"a", "b", "r1", "r2"}
    assert remove_documents(c, ["r1"], keep=None, failed_sources=[]) == 1 and "r1" not in c.chunkers
