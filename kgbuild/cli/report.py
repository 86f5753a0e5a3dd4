"""How a build report is shown on the terminal: `kgbuild build`, `remove` and `status` print through this."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from kgbuild.align.pipeline import AlignmentReport
from kgbuild.llm.types import UsageTotals
from kgbuild.model import ChunkFailure
from kgbuild.report import AssembleSection, BuildReport, ChunkSection, ExtractSection, ReadSection
from kgbuild.store.types import SyncReport


def stores_line(s: SyncReport) -> str:
    return (f"graph ({s.graph_store or 'off'}): {s.nodes_written} nodes and {s.edges_written} "
            f"relationships written, {s.nodes_deleted} + {s.edges_deleted} deleted"
            + (f" (the rows of {s.graph_rows_of} changed table rows compared)" if s.graph_rows_of is not None else "")
            + "; "
            f"vectors ({s.vector_store or 'off'}): {s.vectors_written} written, "
            f"{s.vectors_deleted} deleted, {s.embeddings_computed} embedded "
            f"({s.embeddings_cached} from cache{'; ' + s.embedding if s.embedding else ''}{_embedding_note(s)}); "
            f"{s.unchanged} unchanged"
            + ("; resumed an interrupted write" if s.resumed else ""))


def _embedding_note(s: SyncReport) -> str:
    if not s.embedding_backend:
        return ""
    note = f", backend {s.embedding_backend}"
    if s.embeddings_truncated:
        note += f", {s.embeddings_truncated} text(s) cut at the model's {s.embedding_window}-token window"
    return note


# More failed chunks than this are counted, not listed: stderr stays readable for a 10,000-chunk
# build whose endpoint is down; `kgbuild inspect drops` lists them all.
FAILED_CHUNK_LINES = 20


def failed_chunk_lines(failures: Sequence[ChunkFailure], cap: int = FAILED_CHUNK_LINES) -> list[str]:
    """One line per failed chunk (id, reason, the error) up to `cap`, then "... and N more"."""
    lines = []
    for f in failures[:cap]:
        detail = " ".join(f.detail.split())[:300]  # one line each, even for an old multi-line detail
        lines.append(f"failed chunk: {f.chunk_id}: {f.reason.value}" + (f": {detail}" if detail else ""))
    if len(failures) > cap:
        lines.append(f"... and {len(failures) - cap} more failed chunk(s) (`kgbuild inspect drops` lists them)")
    return lines


def plural(n: int, noun: str) -> str:
    """"1 worker", "2 workers", "3 entities"."""
    if n == 1:
        return f"{n} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return f"{n} {noun[:-1]}ies"
    return f"{n} {noun}s"


def usage_line(u: UsageTotals) -> str:
    extra = [f"{u.reasoning_tokens} of them reasoning"] if u.reasoning_tokens else []
    extra += [f"{u.cut_off} cut off at max_tokens"] if u.cut_off else []
    extra += [f"{u.form_fallbacks} re-sent in a weaker response_format"] if u.form_fallbacks else []
    return (f"{u.calls} calls ({u.retries} retries, {u.cache_hits} cache hits, {u.failures} failed), "
            f"{u.prompt_tokens} prompt + {u.completion_tokens} completion tokens"
            + (f" ({'; '.join(extra)})" if extra else "") + f", ~${u.cost_usd:.4f}")


def _summary_rows(report: BuildReport) -> list[tuple[str, str]]:
    read, chunk = report.read or ReadSection(), report.chunk or ChunkSection()
    extract = report.extract or ExtractSection()
    g = report.graph
    rows = [
        ("workspace", report.workspace),
        ("schema / extractor", f"{report.schema_name} / {extract.extractor} ({plural(report.workers, 'worker')})"),
        ("documents", f"{read.documents_read} read ({chunk.documents_new} new, {chunk.documents_changed} changed, "
                      f"{chunk.documents_unchanged} unchanged), {len(report.skipped)} skipped, "
                      f"{chunk.documents_total} in workspace"),
        ("chunks", f"{extract.chunks_total} ({extract.chunks_extracted} extracted, {extract.chunks_cached} from cache, "
                   f"{extract.chunks_failed} failed)"),
    ]
    if read.documents_removed:
        rows.append(("documents removed", str(read.documents_removed)))
    if read.markup_dropped:  # Markdown from PDF converters: page markers, image placeholders, HTML tags
        rows.append(("markup dropped", f"{read.markup_dropped} tags, placeholders and page markers (not content)"))
    if report.write is not None and report.write.stores is not None:
        rows.append(("stores", stores_line(report.write.stores)))
    rows += [
        ("graph", f"{g.entities} entities, {g.relations} relations, {g.events} events, "
                  f"{g.hypernodes} hypernodes, {g.concepts} concepts"
                  + (f" ({report.literals.line()})" if report.literals is not None and report.literals.values else "")),
        ("time", ", ".join(f"{k} {v:.1f}s" for k, v in report.stage_seconds.items())
         + f"; wall {report.wall_seconds:.1f}s"),
        ("peak memory", f"{report.peak_rss_mb:.0f} MB main, {report.peak_worker_rss_mb:.0f} MB largest worker"),
    ]
    if report.fixed_seconds:  # what any build pays, however small: start-up, model loads, opening stores
        fixed = report.fixed_seconds.items()
        rows.append(("fixed costs", ", ".join(f"{k.replace('_', ' ')} {v:.1f}s" for k, v in fixed)))
    if report.llm is not None:
        rows.append(("model calls", usage_line(report.llm.total)))
        rows += [(f"  {stage}", usage_line(usage)) for stage, usage in report.llm.by_stage.items()]
        rows += [(f"  endpoint {url}", line) for url, line in report.llm.servers.items()]
    return rows


def _print_alignment(out: Console, a: AlignmentReport) -> None:
    out.print(f"alignment: {plural(a.entities_merged, 'entity')} merged{_by_step(a.merges_by_step)}, "
              f"{a.belong_to_links} belongTo links ({a.domain_links} to domain concepts), "
              f"{plural(a.isa_completions, 'isA completion')}{_by_step(a.isa_by_step)}")
    for label, c in (("before", a.before), ("after", a.after)):
        if c is None:
            continue
        hops = ", ".join(f"{k}-hop {v.mean:.1f}" for k, v in sorted(c.hops.items()))
        out.print(f"  connectivity {label}: {c.components} components, mean degree "
                  f"{c.mean_degree:.2f}, mean neighbourhood size {hops}")


def _by_step(counts: dict[str, int]) -> str:
    """" (exact 1, variant 2)": the steps that did something, in the order they ran."""
    done = [f"{step.replace('_', ' ')} {n}" for step, n in counts.items() if n]
    return f" ({', '.join(done)})" if done else ""


def print_report(report: BuildReport) -> None:
    out = Console(soft_wrap=False)
    table = Table(title="build report", show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    for row in _summary_rows(report):
        table.add_row(*row)
    out.print(table)
    assembled = report.assemble or AssembleSection()
    if assembled.drops:
        drops = Table(title="dropped by validation", box=None)
        drops.add_column("stage/kind/reason")
        drops.add_column("count", justify="right")
        for key, n in assembled.drops.items():
            drops.add_row(key, str(n))
        out.print(drops)
    if report.align is not None:
        _print_alignment(out, report.align.alignment)
    for line in corrections_lines(report):
        out.print(line, highlight=False, soft_wrap=True)  # one line per entry, as `grep` expects
    if assembled.off_schema_line():
        out.print(assembled.off_schema_line())
    if assembled.retyped:
        out.print("kept but retyped: " + ", ".join(f"{k} {v}" for k, v in assembled.retyped.items()))
    for note in report.notes:
        out.print(f"note: {note}")


def corrections_lines(report: BuildReport) -> list[str]:
    """The corrections file's part of a report: what it applied, then one line per stale or bad entry."""
    section = report.corrections
    if section is None:
        return []
    applied = ", ".join(f"{n} {kind}" for kind, n in sorted(section.applied.items())) or "none"
    lines = [f"corrections ({section.file}): {section.entries} read, applied: {applied}, "
             f"{len(section.stale)} stale"]
    lines.extend(f"stale correction: {line}" for line in section.stale)
    lines.extend(f"bad correction: {line}" for line in section.problems)
    return lines
