"""A mapped file's records as Arrow columns: what the build keeps of a million rows.

Reading maps each record once (`RecordMapper.row`, plain values, no records) and appends it here;
every `BATCH` rows the Python lists become Arrow arrays, so a file's records cost tens of bytes
a row in memory instead of the kilobytes of typed records a row (a chunk, its entities and
relations) the build used to hold. Relation targets are not looked up here: that is a join over
every mapped file at assembly (`records.graph`).

- `rows`: one per kept record: `line`, `text` (the record as a JSON object: its chunk's text);
- `records`: class records: name, its normalised key, id, aliases (and their keys), description,
  typed properties (JSON), semantic type (a hierarchy's last part);
- `links`: relation cells still to be looked up: the value, and its `slot` in `MappedTables.slots`
  (predicate, target class, by (name, id, given), column: the same for every row of a column);
- `spo`: SPO rows: subject and object with their classes, predicate, properties (JSON);
- `concepts`: a hierarchy's parts: name, parent (the part before it).

Every table carries `row`, the record's position among the kept ones (its chunk's `order`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from json.encoder import encode_basestring as _encode  # the ensure_ascii=False one
from typing import Any

import pyarrow as pa

from kgbuild.records.mapper import RowOut

BATCH = 8_192  # rows of Python lists at a time: their memory is what the allocator keeps afterwards

_STR = pa.string()
_LIST = pa.list_(pa.string())
SCHEMAS: dict[str, pa.Schema] = {
    "rows": pa.schema([("row", pa.int64()), ("line", pa.int64()), ("text", _STR)]),
    "records": pa.schema([("row", pa.int64()), ("name", _STR), ("name_key", _STR), ("record_id", _STR),
                          ("aliases", _LIST), ("alias_keys", _LIST), ("description", _STR),
                          ("properties", _STR), ("semantic_type", _STR)]),
    "links": pa.schema([("row", pa.int64()), ("pos", pa.int64()), ("slot", pa.int32()), ("value", _STR)]),
    "spo": pa.schema([("row", pa.int64()), ("subject", _STR), ("subject_class", _STR), ("predicate", _STR),
                      ("object", _STR), ("object_class", _STR), ("properties", _STR)]),
    "concepts": pa.schema([("row", pa.int64()), ("name", _STR), ("parent", _STR)]),
}


@dataclass
class MappedTables:
    """One mapped file's records as columns (see the module docstring)."""

    rows: pa.Table
    records: pa.Table
    links: pa.Table
    spo: pa.Table
    concepts: pa.Table
    slots: list[tuple[str, str, str, str]]  # a link's (predicate, target class, by, column), by `slot`

    def consumed(self) -> None:
        """What the build no longer needs once the records are chunks and mentions of the graph:
        the texts (the chunks hold them), the records and their links."""
        self.rows = self.rows.select(["row", "line"])
        self.records = self.records.slice(0, 0)
        self.links = self.links.slice(0, 0)


def _json(value: dict[str, Any]) -> str | None:
    """A map as the tables write it (`tables._json`: sorted keys, not ASCII-escaped), None when
    empty; a map of strings or of lists of strings (every record's properties) is written with
    json's own string encoder, the same text at a fraction of `json.dumps`'s cost per record."""
    if not value:
        return None
    parts = []
    for key in sorted(value):
        item = value[key]
        if type(item) is str:
            parts.append(f"{_encode(key)}: {_encode(item)}")
        elif type(item) is list and all(type(v) is str for v in item):
            parts.append(f"{_encode(key)}: [{', '.join(_encode(v) for v in item)}]")
        else:
            return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return "{" + ", ".join(parts) + "}"


class ColumnsBuilder:
    """Appends mapped records (`add`) and hands back the file's `MappedTables` (`finish`)."""

    def __init__(self) -> None:
        self.count = 0
        self._lists: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in schema} for name, schema in SCHEMAS.items()}
        self._batches: dict[str, list[pa.RecordBatch]] = {name: [] for name in SCHEMAS}
        self._slots: dict[tuple[str, str, str, str], int] = {}

    def add(self, line: int, text: str, mapped: RowOut) -> None:
        """A kept record: its line, its chunk text, and what it maps to."""
        row = self.count
        self.count += 1
        cols = self._lists
        rows = cols["rows"]
        rows["row"].append(row)
        rows["line"].append(line)
        rows["text"].append(text)
        if mapped.spo is not None:
            s, s_cls, predicate, o, o_cls, properties = mapped.spo
            spo = cols["spo"]
            spo["row"].append(row)
            spo["subject"].append(s)
            spo["subject_class"].append(s_cls)
            spo["predicate"].append(predicate)
            spo["object"].append(o)
            spo["object_class"].append(o_cls)
            spo["properties"].append(_json(properties))
        else:
            rec = cols["records"]
            rec["row"].append(row)
            rec["name"].append(mapped.name)
            rec["name_key"].append(mapped.name_key)
            rec["record_id"].append(mapped.record_id)
            rec["aliases"].append(mapped.aliases)
            rec["alias_keys"].append(mapped.alias_keys)
            rec["description"].append(mapped.description)
            rec["properties"].append(_json(mapped.properties))
            rec["semantic_type"].append(mapped.semantic_type)
            if mapped.links:
                links = cols["links"]
                slots = self._slots
                for pos, (predicate, target_cls, by, value, column) in enumerate(mapped.links, start=1):
                    shape = (predicate, target_cls, by, column)
                    slot = slots.get(shape)
                    if slot is None:
                        slot = slots[shape] = len(slots)
                    links["row"].append(row)
                    links["pos"].append(pos)
                    links["slot"].append(slot)
                    links["value"].append(value)
            if mapped.path:
                concepts = cols["concepts"]
                for i, part in enumerate(mapped.path):
                    concepts["row"].append(row)
                    concepts["name"].append(part)
                    concepts["parent"].append(mapped.path[i - 1] if i else None)
        if self.count % BATCH == 0:
            self._flush()

    def _flush(self) -> None:
        for name, columns in self._lists.items():
            if columns["row"]:
                self._batches[name].append(pa.RecordBatch.from_pydict(columns, schema=SCHEMAS[name]))
                for values in columns.values():
                    values.clear()

    def finish(self) -> MappedTables:
        self._flush()
        # Left in batches: combining them would copy every column once more at the end of the file.
        tables = {name: pa.Table.from_batches(batches, schema=SCHEMAS[name]) for name, batches in self._batches.items()}
        self._batches = {name: [] for name in SCHEMAS}
        return MappedTables(**tables, slots=list(self._slots))
