"""How `kgbuild inspect` prints rows in a terminal: layouts that fit 80 columns, and `--wide`.

The default layout of each subcommand keeps the columns a reader scans (names, predicates, the
first supporting chunk) and shortens what is only there to be copied: item ids show as a prefix
that `kgbuild inspect support` accepts, chunk ids keep their document and paragraph ends with an
ellipsis in the middle. Rows whose point is long text (chunks) print as records, one block per
row, instead of a table whose text column would be a sliver. `--wide` shows every column in full,
at the terminal's width or wider (pipe it to `less -S`). `--json` never comes through here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, Group
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from kgbuild.health import GraphHealth

ELLIPSIS = "…"
SHORT_ID = 12  # "rel_" + 8 hex digits: unique in all but very large builds; `support` says when it is not
CHUNK_ID_WIDTH = 18
LIST_SHOWN = 3
WIDE_MAX = 240  # --wide grows past the terminal up to here, so one long text cannot make a 2000-column line

Cell = Callable[[dict[str, Any]], str]


def shorten_middle(text: str, width: int) -> str:
    """`text` in at most `width` characters: its head and tail with an ellipsis between them."""
    if len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    tail = (width - 1) // 2
    head = width - 1 - tail
    return text[:head] + ELLIPSIS + (text[-tail:] if tail else "")


def short_id(item_id: str | None) -> str:
    """An item id as the prefix `kgbuild inspect support` resolves (a trailing ellipsis marks the cut)."""
    if not item_id:
        return ""
    return item_id if len(item_id) <= SHORT_ID + 1 else item_id[:SHORT_ID] + ELLIPSIS


def listed(values: Sequence[Any] | None, shown: int | None = LIST_SHOWN, each: Callable[[str], str] = str) -> str:
    """A list cell: the first `shown` values (None = all) and how many more there are."""
    if not values:
        return ""
    items = [each(str(v)) for v in (values if shown is None else values[:shown])]
    more = len(values) - len(items)
    return ", ".join(items) + (f" (+{more})" if more else "")


def plain(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return listed(value, None)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _decoded(value: Any) -> Any:
    # Rows from explore carry JSON columns decoded; a raw string still reads (older callers).
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def event_arguments(value: Any) -> str:
    """Event arguments by role and name, e.g. `person: Ada Lovelace; employer: GCHQ, NPL`."""
    arguments = _decoded(value)
    if not isinstance(arguments, dict):
        return plain(arguments)
    parts = []
    for role, refs in arguments.items():
        names = [r.get("name") or r.get("id", "") if isinstance(r, dict) else str(r) for r in refs or []]
        parts.append(f"{role}: {', '.join(names)}")
    return "; ".join(parts)


def _key(key: str) -> Cell:
    return lambda row: plain(row.get(key))


def _ids(key: str) -> Cell:
    return lambda row: short_id(row.get(key))


def first_chunk(chunk_ids: Sequence[str] | None) -> str:
    """The first supporting chunk id, shortened, and on a line of its own how many more there are
    (`kgbuild inspect support ID` lists them all)."""
    if not chunk_ids:
        return ""
    more = len(chunk_ids) - 1
    return shorten_middle(chunk_ids[0], CHUNK_ID_WIDTH) + (f"\n+{more} more" if more else "")


def _chunks(key: str = "chunk_ids") -> Cell:
    return lambda row: first_chunk(row.get(key))


def _chunk(key: str) -> Cell:
    return lambda row: shorten_middle(row.get(key) or "", CHUNK_ID_WIDTH)


def _count(key: str, unit: str) -> Cell:
    return lambda row: f"{len(row.get(key) or [])} {unit}" if row.get(key) else ""


def _entity_class(row: dict[str, Any]) -> str:
    spg, semantic = row.get("spg_class") or "", row.get("semantic_type")
    return f"{spg} ({semantic})" if semantic and semantic != spg else spg


@dataclass(frozen=True)
class Column:
    header: str
    narrow: Cell | None  # the default layout's cell; None = only with --wide
    wide: Cell  # every value in full
    max_width: int | None = None  # a cap in the default layout, so short columns stay short
    no_wrap: bool = False  # ids and chunk ids: cut (already shortened), never folded into slivers


def col(header: str, key: str, *, narrow: Cell | None = None, wide_only: bool = False,
        max_width: int | None = None, no_wrap: bool = False) -> Column:
    full = _key(key)
    return Column(header, None if wide_only else (narrow or full), full, max_width, no_wrap)


@dataclass(frozen=True)
class View:
    """The printed shape of one subcommand's rows."""

    title: str
    columns: tuple[Column, ...]
    records: bool = False  # default layout: one block per row (title line, then the rest), not a table
    record_title: Cell | None = None
    in_title: tuple[str, ...] = ()  # headers the record title already shows


VIEWS: dict[str, View] = {
    "workspace": View("workspace", (col("table", "table"), col("rows", "rows"))),
    "entities": View("entities", (
        col("name", "name"),
        Column("class", _entity_class, _key("spg_class"), max_width=26),
        col("semantic type", "semantic_type", wide_only=True),
        Column("aliases", lambda r: listed(r.get("aliases"), 2), _key("aliases"), max_width=20),
        Column("chunks", _chunks(), _key("chunk_ids"), no_wrap=True),
        Column("id", _ids("id"), _key("id"), no_wrap=True),
    )),
    "triples": View("triples", (
        col("subject", "subject_name"),
        col("predicate", "predicate", max_width=16),
        col("object", "object_name"),
        col("s class", "subject_class", wide_only=True),
        col("o class", "object_class", wide_only=True),
        Column("chunks", _chunks(), _key("chunk_ids"), no_wrap=True),
        Column("id", _ids("id"), _key("id"), no_wrap=True),
    )),
    "hypernodes": View("hypernodes", (
        col("triple", "subject_name"),
        col("qualifier", "predicate", max_width=12),
        col("value", "object_name"),
        Column("chunks", _chunks(), _key("chunk_ids"), no_wrap=True),
        Column("id", _ids("id"), _key("id"), no_wrap=True),
    )),
    "events": View("events", (
        col("type", "type", max_width=14),
        col("trigger", "trigger", max_width=14),
        Column("arguments", lambda r: event_arguments(r.get("arguments")),
               lambda r: event_arguments(r.get("arguments"))),
        col("time", "time_name", max_width=14),
        col("place", "place_name", max_width=14),
        Column("chunks", _chunks(), _key("chunk_ids"), no_wrap=True),
        Column("id", _ids("id"), _key("id"), no_wrap=True),
    ), records=True, record_title=lambda r: f"{r.get('type')}: {r.get('trigger')}  {short_id(r.get('id'))}",
        in_title=("type", "trigger", "id")),
    "documents": View("documents", (
        Column("id", lambda r: shorten_middle(r.get("id") or "", 24), _key("id"), no_wrap=True),
        col("title", "title"),
        col("format", "format", wide_only=True),
        col("words", "word_count"),
        Column("chunks", lambda r: str(len(r.get("chunk_ids") or [])), _key("chunk_ids")),
        Column("source", lambda r: shorten_middle(r.get("source") or "", 26), _key("source"), no_wrap=True),
    )),
    "chunks": View("chunks", (
        col("id", "id", no_wrap=True),
        col("document", "doc_id", wide_only=True),
        Column("section", lambda r: " > ".join(r.get("section") or []), lambda r: " > ".join(r.get("section") or [])),
        col("order", "order", wide_only=True),
        col("tokens", "token_count"),
        col("previous", "prev_id", wide_only=True),
        col("next", "next_id", wide_only=True),
        col("text", "text"),
    ), records=True, record_title=lambda r: "  ".join(
        p for p in (r.get("id") or "", " > ".join(r.get("section") or []), f"{r.get('token_count')} tokens") if p),
        in_title=("id", "section", "tokens")),
    "merges": View("merges", (
        col("canonical", "canonical_name"),
        col("step", "step", max_width=10),
        col("reason", "reason"),
        Column("merged", _count("merged_ids", "ids"), _key("merged_ids")),
        Column("id", _ids("canonical_id"), _key("canonical_id"), no_wrap=True),
    )),
    "drops": View("drops", (
        col("stage", "stage", max_width=8),
        col("kind", "kind", max_width=9),
        col("reason", "reason"),
        col("detail", "detail"),
        Column("chunk", _chunk("chunk_id"), _key("chunk_id"), no_wrap=True),
    )),
}


def _table(view: View, rows: list[dict[str, Any]], wide: bool) -> Table:
    # No outer frame and a rule under the header only: the columns get the width a frame would take.
    table = Table(title=f"{view.title} ({len(rows)})", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    shown = [c for c in view.columns if wide or c.narrow is not None]
    for c in shown:
        if wide:
            table.add_column(c.header, overflow="fold")
        else:
            # Wrapped at spaces; a word longer than its column is cut with "…", never folded into pieces
            # that read as words ("ArtificialObjec" / "t").
            table.add_column(c.header, overflow="ellipsis", no_wrap=c.no_wrap, max_width=c.max_width)
    for row in rows:
        cells = [c.wide(row) if wide or c.narrow is None else c.narrow(row) for c in shown]
        table.add_row(*[Text(v) for v in cells])  # document and model text is text, never markup
    return table


def _records(view: View, rows: list[dict[str, Any]]) -> Group:
    """One block per row: a bold title line, then `label  value` lines wrapped under their value."""
    blocks: list[Any] = [Text(f"{view.title} ({len(rows)})", style="italic")]
    title = view.record_title
    for row in rows:
        blocks.append(Text(""))
        if title is not None:
            blocks.append(Text(title(row), style="bold"))
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column(overflow="fold")
        for c in view.columns:
            if c.narrow is None:
                continue
            value = c.narrow(row)
            if value and c.header not in view.in_title:
                grid.add_row(c.header, Text(value))
        blocks.append(Padding(grid, (0, 0, 0, 2), expand=False))
    return Group(*blocks)


def render(view: View, rows: list[dict[str, Any]], *, wide: bool = False, console: Console | None = None) -> None:
    """Print `rows` in `view`'s default layout (fits the console) or, with `wide`, every column in full."""
    out = console or Console(soft_wrap=False)
    if not wide:
        out.print(_records(view, rows) if view.records else _table(view, rows, False))
        return
    table = _table(view, rows, True)
    natural = Measurement.get(out, out.options.update(width=WIDE_MAX), table).maximum
    width = max(out.width, min(natural, WIDE_MAX))
    # A console of its own at that width: rich would otherwise fold the table back into the terminal.
    Console(width=width, soft_wrap=False, file=out.file, force_terminal=out.is_terminal,
            no_color=out.no_color or out.color_system is None).print(table)


_SINGULAR = {"entities": "entity", "relations": "triple", "events": "event", "hypernodes": "hypernode",
             "concepts": "concept"}


def item_label(kind: str, row: dict[str, Any]) -> str:
    """What an item of any graph table is, in words: a name, a triple, or an event with its arguments."""
    if kind == "events":
        arguments = event_arguments(row.get("arguments"))
        return f"{row.get('type')}: {row.get('trigger')}" + (f" ({arguments})" if arguments else "")
    if row.get("name"):
        return str(row["name"]) + (f" ({_entity_class(row)})" if kind == "entities" else "")
    return f"({row.get('subject_name')}, {row.get('predicate')}, {row.get('object_name')})"


def render_support(kind: str, row: dict[str, Any], chunks: list[dict[str, Any]], *,
                   console: Console | None = None) -> None:
    """The item, then each supporting chunk: its id and section on one line, its text wrapped below."""
    out = console or Console(soft_wrap=False)
    head = Text()
    head.append(_SINGULAR.get(kind, kind), style="bold")
    head.append(f" {item_label(kind, row)}  ")
    head.append(str(row.get("id", "")), style="dim")
    out.print(head)
    if not chunks:
        out.print(Text("no supporting chunk (taxonomy knowledge from the schema or a concept file)", style="dim"))
    for chunk in chunks:
        out.print()
        line = Text()
        line.append(str(chunk["id"]), style="bold cyan")
        if chunk.get("section"):
            line.append(" " + " > ".join(chunk["section"]))
        out.print(line)
        out.print(Text(chunk["text"]))


def _shares(items: Sequence[tuple[str, str]], shown: int = 6) -> str:
    """"Person 29%, Organization 22%, ... (8 more)": the first `shown` of a largest-first list."""
    more = f", ... ({len(items) - shown} more)" if len(items) > shown else ""
    return ", ".join(f"{name or '(no class)'} {value}" for name, value in items[:shown]) + more


def health_lines(health: GraphHealth, width: int = 80) -> list[str]:
    """`kgbuild inspect health` as lines of at most `width` columns (CJK names wrap by their width)."""
    from kgbuild.display_width import wrap

    def wrapped(text: str) -> list[str]:
        return wrap(text, width, indent="    ", first_indent="  ")

    lines = [f"graph health: {health.documents} documents, {health.entities} entities, {health.relations} "
             f"relations, {health.events} events, {health.hypernodes} hypernodes"]
    if not health.entities:
        return [*lines, "  no entity was extracted"]
    lines += wrapped(f"relations per entity: {health.relations_per_entity:.2f}")
    if health.literal_values:
        lines += wrapped(f"values kept as literals on their facts (not entities): {health.literal_values}")
    by_class = [(name, str(n)) for name, n in health.unrelated_by_class.items()]
    lines += wrapped(f"in no relation, event or qualifier: {health.unrelated_entities} entities "
                     f"({health.unrelated_share:.0%})" + (f": {_shares(by_class)}" if by_class else ""))
    lines += wrapped("classes: " + _shares([(name, f"{share:.0%}") for name, share in health.class_shares.items()]))
    lines += wrapped(f"components: {health.components}, the largest holds {health.largest_component_share:.0%} "
                     "of the nodes")
    lines += wrapped(f"documents with entities and no relation: {health.documents_without_relations}")
    if health.most_mentioned_unrelated:
        lines.append("most-mentioned entities in no relation (chunks that mention them):")
        for item in health.most_mentioned_unrelated:
            lines += wrapped(f"{item.name} ({item.detail or 'no class'}): {item.count}")
    if health.documents_with_no_relation:
        lines.append("documents with the most entities and no relation:")
        for item in health.documents_with_no_relation:
            lines += wrapped(f"{item.name}: {item.count} entities")
    if health.warnings:
        lines += [line for warning in health.warnings
                  for line in wrap(f"warning: {warning}", width, indent="  ", first_indent="")]
    else:
        lines.append("no warning")
    return lines
