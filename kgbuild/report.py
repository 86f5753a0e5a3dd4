"""The build report: one typed section per stage (what it read, built, dropped), plus what the run cost.

Each stage returns its own section; the runner puts it in the report under the stage's name, so
the JSON written to the workspace reads `{"read": {...}, "chunk": {...}, "extract": {...}, ...}`.
"""

from __future__ import annotations

import json
import resource
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kgbuild.align.pipeline import AlignmentReport
from kgbuild.llm.types import UsageTotals
from kgbuild.model import Note, Retype
from kgbuild.store.types import SyncReport


class SkippedSource(BaseModel):
    source: str
    reason: str


class Section(BaseModel):
    """What one stage reports. `key` is the report field it fills (the stage's name)."""

    key: ClassVar[str] = ""
    notes: list[str] = Field(default_factory=list)


class GraphCounts(BaseModel):
    entities: int = 0
    relations: int = 0
    events: int = 0
    hypernodes: int = 0
    concepts: int = 0


class ReadSection(Section):
    key: ClassVar[str] = "read"
    documents_read: int = 0  # read successfully in this run
    documents_removed: int = 0  # taken out by --prune or `kgbuild remove`
    words: int = 0  # words in the documents read this run
    markup_dropped: int = 0  # converter tags, image placeholders and page markers the readers left out
    skipped: list[SkippedSource] = Field(default_factory=list)


class ChunkSection(Section):
    key: ClassVar[str] = "chunk"
    documents_new: int = 0
    documents_changed: int = 0
    documents_unchanged: int = 0
    documents_total: int = 0  # in the workspace after this run
    oversize_sentences: int = 0  # single sentences over the token budget, cut
    skipped: list[SkippedSource] = Field(default_factory=list)  # no text left after chunking


class ExtractSection(Section):
    key: ClassVar[str] = "extract"
    extractor: str = ""
    chunks_total: int = 0
    chunks_extracted: int = 0  # extracted in this run
    chunks_cached: int = 0  # reused from the cache
    chunks_failed: int = 0  # extractor failed; retried on the next build
    chunks_structured: int = 0  # section mapped to a property by a document structure: no extractor call
    # Why extraction stopped before the last chunk (the endpoint refused llm.api_key or llm.model):
    # one line naming the setting; the build is never a success then, even with --keep-going.
    stopped: str = ""


class AssembleSection(Section):
    key: ClassVar[str] = "assemble"
    graph: GraphCounts = Field(default_factory=GraphCounts)
    drops: dict[str, int] = Field(default_factory=dict)  # "stage/kind/reason" -> count of removed items
    retyped: dict[str, int] = Field(default_factory=dict)  # kept, but mapped to another type (e.g. the fallback)
    # What the schema does not declare, by kind ("relations with an undeclared predicate" -> 12). Kept
    # in the graph unless extract.strict_schema, which drops them (then counted here as dropped).
    strict_schema: bool = False
    off_schema: dict[str, int] = Field(default_factory=dict)

    def off_schema_line(self) -> str:
        """One line for the report and `status`, or "" when everything is declared."""
        counts = {k: v for k, v in self.off_schema.items() if v}
        if not counts:
            return ""
        items = ", ".join(f"{n} {what}" for what, n in counts.items())
        if self.strict_schema:
            return f"off-schema dropped (extract.strict_schema: true): {items}"
        return (f"off-schema kept (extract.strict_schema: false): {items}; "
                "extract.strict_schema: true drops them")

    def count_drops(self, notes: Iterable[Note]) -> None:
        """Removals, failed chunks and repairs (which left records out) count in `drops`, retypes
        (items kept under another type) in `retyped`; keys read "stage/kind/reason"."""
        counts = Counter((isinstance(n, Retype), n.stage, n.kind, n.reason.value) for n in notes)
        for (retyped, stage, kind, reason), n in counts.items():
            key = f"{stage}/{kind}/retyped: {reason}" if retyped else f"{stage}/{kind}/{reason}"
            target = self.retyped if retyped else self.drops
            target[key] = target.get(key, 0) + n
        self.drops = dict(sorted(self.drops.items()))
        self.retyped = dict(sorted(self.retyped.items()))


class AlignSection(Section):
    key: ClassVar[str] = "align"
    graph: GraphCounts = Field(default_factory=GraphCounts)  # after alignment
    alignment: AlignmentReport = Field(default_factory=AlignmentReport)


class CorrectionsSection(Section):
    """The corrections file applied after alignment (docs/curation.md): what it fixed, and every entry
    that could not be applied (stale: its target is not in this build's graph) or read, one line each."""

    key: ClassVar[str] = "corrections"
    file: str = ""
    entries: int = 0  # corrections read from the file
    applied: dict[str, int] = Field(default_factory=dict)  # kind -> corrections applied
    stale: list[str] = Field(default_factory=list)  # one line per stale entry: its number, what, what is missing
    stale_ids: list[str] = Field(default_factory=list)  # their correction ids, in the same order
    problems: list[str] = Field(default_factory=list)  # entries left out as unreadable
    graph: GraphCounts | None = None  # after the corrections (None: the file held none)


class LiteralsSection(Section):
    """Values (dates, amounts, changes) that only a hypernode named, kept as literals on their facts
    instead of entities (kgbuild/graph/literals.py, docs/graph_model.md)."""

    key: ClassVar[str] = "literals"
    values: int = 0  # entities made literals
    graph: GraphCounts = Field(default_factory=GraphCounts)  # after the step

    def line(self) -> str:
        return f"{self.values} value{'' if self.values == 1 else 's'} kept as literals on their facts"


class PersistSection(Section):
    key: ClassVar[str] = "persist"
    rows: dict[str, int] = Field(default_factory=dict)  # table -> rows written


class WriteSection(Section):
    key: ClassVar[str] = "write"
    stores: SyncReport | None = None  # what the write stage did
    error: str = ""  # the stores could not be written; the tables are, and the next build resumes


class LLMSection(Section):
    """Model gateway accounting of the whole run (not a stage: every stage may ask a model)."""

    key: ClassVar[str] = "llm"
    total: UsageTotals = Field(default_factory=UsageTotals)
    by_stage: dict[str, UsageTotals] = Field(default_factory=dict)
    by_doc: dict[str, UsageTotals] = Field(default_factory=dict)
    # A build on Ray: requests paid by tasks whose results never came back (a worker died mid-task),
    # from the coordinator's ledger; already counted in `total` and `by_stage`, not in `by_doc`.
    lost_tasks: UsageTotals | None = None
    # Requests that held an endpoint slot and were about to go out, or out, and were never reported (the
    # worker died during the call): sent or not, paid or not, nobody knows; not in `total`.
    unknown_calls: int = 0
    by_role: dict[str, UsageTotals] = Field(default_factory=dict)  # extract / align / solve (llm.roles)
    # base_url -> "kind, form" and the structured-output fallbacks taken (kgbuild.llm.server)
    servers: dict[str, str] = Field(default_factory=dict)


class BuildReport(BaseModel):
    # Assignments are validated, so a runner cannot put a section under the wrong name; unknown
    # keys are refused, so a report of the older flat shape is never half-read as this one.
    model_config = ConfigDict(validate_assignment=True, extra="forbid")

    started_at: str
    finished_at: str = ""
    workspace: str
    schema_name: str = ""
    pipeline: str = "default"
    engine: str = "local"  # where the stages ran: "local", or "ray: N node(s), M CPU(s)"
    workers: int = 1
    sources: list[str] = Field(default_factory=list)

    read: ReadSection | None = None
    chunk: ChunkSection | None = None
    extract: ExtractSection | None = None
    assemble: AssembleSection | None = None
    align: AlignSection | None = None
    corrections: CorrectionsSection | None = None
    literals: LiteralsSection | None = None
    persist: PersistSection | None = None
    write: WriteSection | None = None
    llm: LLMSection | None = None

    fingerprints: dict[str, str] = Field(default_factory=dict)  # stage -> cache fingerprint of this run
    stage_seconds: dict[str, float] = Field(default_factory=dict)
    # Where the time any build pays goes, whatever its size: startup (process start to the first stage:
    # imports, config, schema), settings (the stages' fingerprints), sentence_models (loading them),
    # graph_store_open / vector_store_open (inside `write`).
    fixed_seconds: dict[str, float] = Field(default_factory=dict)
    wall_seconds: float = 0.0
    peak_rss_mb: float = 0.0  # this process
    peak_worker_rss_mb: float = 0.0  # largest extraction worker

    def add(self, section: Section) -> None:
        if section.key not in type(self).model_fields:
            raise ValueError(f"{type(section).__name__} names no report section ('{section.key}')")
        setattr(self, section.key, section)

    def sections(self) -> list[Section]:
        found = (self.read, self.chunk, self.extract, self.assemble, self.align, self.corrections, self.literals,
                 self.persist, self.write, self.llm)
        return [s for s in found if s is not None]

    @property
    def skipped(self) -> list[SkippedSource]:
        return [*(self.read.skipped if self.read else []), *(self.chunk.skipped if self.chunk else [])]

    @property
    def notes(self) -> list[str]:
        return [note for section in self.sections() for note in section.notes]

    @property
    def graph(self) -> GraphCounts:
        """The graph as written: after the literals step, the corrections, alignment when it ran, else as assembled."""
        if self.literals is not None:
            return self.literals.graph
        if self.corrections is not None and self.corrections.graph is not None:
            return self.corrections.graph
        if self.align is not None:
            return self.align.graph
        return self.assemble.graph if self.assemble is not None else GraphCounts()

    @property
    def chunks_failed(self) -> int:
        return self.extract.chunks_failed if self.extract else 0

    @property
    def store_error(self) -> str:
        return self.write.error if self.write else ""

    def measure_memory(self) -> None:
        # ru_maxrss is KiB on Linux, bytes on macOS.
        scale = 1 / 1024 / 1024 if sys.platform == "darwin" else 1 / 1024
        self.peak_rss_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale, 1)
        self.peak_worker_rss_mb = round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale, 1)

    def exit_code(self, keep_going: bool) -> int:
        """1 when a source was skipped or a chunk failed, unless --keep-going; the graph is written either way."""
        if self.store_error:
            return 1  # the graph is in the tables but not where users query it: never silently 0
        if self.extract is not None and self.extract.stopped:
            return 1  # most chunks were never asked: --keep-going must not hide a wrong key
        if keep_going:
            return 0
        return 1 if (self.skipped or self.chunks_failed) else 0


def load_report(data: dict[str, Any] | None) -> BuildReport | None:
    """A saved report, or None when there is none or it was written by an older kgbuild (flat shape)."""
    if data is None:
        return None
    try:
        return BuildReport.model_validate(data)
    except ValidationError:
        return None


def project_usage(reports_dir: Path) -> tuple[UsageTotals, int] | None:
    """The model usage of every build of the workspace added up, and how many builds used a model;
    None when none did. Only the `build-*` reports count: `sync-*` copies repeat a build's figures."""
    total = UsageTotals()
    builds = 0
    for path in sorted(reports_dir.glob("build-*.json")):
        try:
            report = load_report(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue  # a torn or foreign file must not hide the rest
        if report is None or report.llm is None:
            continue
        builds += 1
        for name, value in report.llm.total:
            if isinstance(value, int | float) and not isinstance(value, bool):
                setattr(total, name, getattr(total, name) + value)
    return (total, builds) if builds else None
