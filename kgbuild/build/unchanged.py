"""A build with nothing to do keeps the tables of the last one instead of rebuilding them.

Assembly, alignment, the corrections and persist are corpus-level and recomputed every build, so
an unchanged re-import used to pay for all of them (for a large records import, most of the
build) to write the same tables again. They are skipped when their input cannot have changed:

- the last saved build wrote the tables (`persist` in its report), and every stage up to
  `persist` has the fingerprint it had then (same schema, settings, extractor, corrections file);
- this build read no new or changed document, removed none, and extracted no chunk (every one
  had its extraction in the cache, or needs none).

The runner then files the last build's assembly, alignment, corrections and persist sections
(the tables are theirs) with a note saying so, and hands `write` the tables as they are: the
stores still get whatever they lack (the store manifest decides, as always).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from kgbuild.build.records import PersistedTables
from kgbuild.report import BuildReport, ChunkSection, ExtractSection, ReadSection, Section

# The stages whose tables are kept; `write` still runs.
KEPT_STAGES = ("assemble", "align", "corrections", "literals", "persist")


class KeptTables(BaseModel):
    """The output of a stream stage that found nothing to do: the last build's tables stand."""

    rows: dict[str, int]  # table -> rows, as the last build wrote them
    previous: dict[str, Any]  # the last build's report (JSON), whose kept sections are filed again

    def persisted(self) -> PersistedTables:
        return PersistedTables(rows=self.rows)

    def kept_sections(self) -> list[Section]:
        report = BuildReport.model_validate(self.previous)
        found = (report.assemble, report.align, report.corrections, report.literals, report.persist)
        return [s for s in found if s is not None]


def last_build(latest: dict[str, Any] | None, fingerprints: dict[str, str]) -> dict[str, Any] | None:
    """The last build's report when its tables can stand for this build's (same fingerprint for
    every stage whose output they are); None otherwise."""
    if latest is None or not latest.get("persist"):
        return None
    try:
        BuildReport.model_validate(latest)  # a report of an older shape is not trusted
    except ValidationError:
        return None
    old = latest.get("fingerprints") or {}
    stages = [name for name in fingerprints if name != "write"]
    if not stages or any(old.get(name) != fingerprints[name] for name in stages):
        return None
    return latest


def nothing_changed(reading: ReadSection, chunking: ChunkSection, extraction: ExtractSection) -> bool:
    """This build's reading, chunking and extraction changed nothing the tables were made from."""
    return (chunking.documents_new == 0 and chunking.documents_changed == 0 and reading.documents_removed == 0
            and extraction.chunks_extracted == 0 and extraction.chunks_failed == 0 and not extraction.stopped)


def kept(previous: dict[str, Any]) -> KeptTables:
    persist = previous.get("persist") or {}
    return KeptTables(rows=dict(persist.get("rows") or {}), previous=previous)


NOTE = ("nothing changed since the last build (documents, chunks, extractions and settings): its assembly, "
        "alignment and tables were kept")
