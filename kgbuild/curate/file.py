"""The corrections file (`corrections.yaml` beside `kgbuild.yaml`): hand fixes that every build re-applies.

One YAML list, in the order the fixes were made, each entry one kind and who/when/why:

    corrections:
    - merge: [Alan Turing, A. M. Turing]       # fold the second entity into the first
      author: ann
      time: '2026-11-26T18:00:00+00:00'
      reason: same person
    - never_merge: [Henry VII, Henry VIII]     # fusion keeps them apart (and splits a merge it made)
    - reject: {id: rel_0123abcd}               # or {subject: X, predicate: p, object: Y}
    - retype: {entity: Bletchley Park, class: Place}
    - rename: {entity: ENIAC computer, name: ENIAC}
    - add: {subject: ENIAC, predicate: designedBy, object: John Mauchly, note: 'from the 1946 press release'}

An entity is named by its id (`ent_...`, also an id that fusion folded into another) or by its name
or an alias, any case. A correction's id is a digest of its kind and targets (not of who made it),
so the same fix written twice is recognised.

Bad entries are reported one line each (file, entry number, line, what to do) and left out; the
rest of the file still applies.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict

from kgbuild.errors import InputError
from kgbuild.ids import stable_id

CORRECTIONS_FILE = "corrections.yaml"
# libyaml's safe loader where PyYAML was built with it: reading 1,000 entries in pure Python took seconds.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

CorrectionKind = Literal["merge", "never_merge", "reject", "retype", "rename", "add"]
KINDS: tuple[CorrectionKind, ...] = ("merge", "never_merge", "reject", "retype", "rename", "add")
# The fields each kind's mapping may hold (merge and never_merge are a two-item list instead).
_FIELDS: dict[str, tuple[set[str], set[str]]] = {  # kind -> (required, optional)
    "reject": (set(), {"id", "subject", "predicate", "object"}),
    "retype": ({"entity", "class"}, set()),
    "rename": ({"entity", "name"}, set()),
    "add": ({"subject", "predicate", "object"}, {"note", "subject_class", "object_class"}),
}
_META = ("author", "time", "reason")


class Correction(BaseModel):
    """One hand fix. `target` holds the kind's fields: `a`/`b` for merge and never_merge, else the
    mapping's keys (`id`, `subject`, `predicate`, `object`, `entity`, `class`, `name`, `note`, ...)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: CorrectionKind
    target: dict[str, str]
    author: str = ""
    time: str = ""
    reason: str = ""

    @property
    def id(self) -> str:
        parts = [f"{k}={self.target[k]}" for k in sorted(self.target) if k != "note"]
        return stable_id("cor", self.kind, *parts)

    def describe(self) -> str:
        """One line for people: `merge 'A' <- 'B'`, `reject (X, p, Y)`, ..."""
        t = self.target
        if self.kind == "merge":
            return f"merge {t['a']!r} <- {t['b']!r}"
        if self.kind == "never_merge":
            return f"never merge {t['a']!r} and {t['b']!r}"
        if self.kind == "reject":
            return f"reject {t['id']}" if "id" in t else f"reject ({t['subject']}, {t['predicate']}, {t['object']})"
        if self.kind == "retype":
            return f"retype {t['entity']!r} as {t['class']}"
        if self.kind == "rename":
            return f"rename {t['entity']!r} to {t['name']!r}"
        return f"add ({t['subject']}, {t['predicate']}, {t['object']})"

    def to_yaml(self) -> dict[str, Any]:
        t = self.target
        entry: dict[str, Any] = {self.kind: [t["a"], t["b"]] if self.kind in ("merge", "never_merge") else dict(t)}
        for key in _META:
            if getattr(self, key):
                entry[key] = getattr(self, key)
        return entry


@dataclass(frozen=True)
class Entry:
    """A correction as read from the file: its 1-based position (what `curate undo N` takes) and line."""

    number: int
    line: int
    correction: Correction


@dataclass
class CorrectionsFile:
    path: Path
    entries: list[Entry]
    problems: list[str]  # bad entries, one line each; they are left out

    @property
    def corrections(self) -> list[Correction]:
        return [e.correction for e in self.entries]


def corrections_path(root: Path) -> Path:
    """The project's corrections file: beside kgbuild.yaml (the config's root)."""
    return root / CORRECTIONS_FILE


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def default_author() -> str:
    """Who is making a fix, when the caller does not say: $KGBUILD_AUTHOR, else the login name."""
    for var in ("KGBUILD_AUTHOR", "USER", "LOGNAME", "USERNAME"):
        if os.environ.get(var):
            return os.environ[var]
    return "unknown"


def make(kind: CorrectionKind, target: dict[str, str], *, author: str = "", reason: str = "",
         time: str = "") -> Correction:
    """A correction checked as the file reader checks it (InputError naming what is missing)."""
    problem = _target_problem(kind, target)
    if problem:
        raise InputError(kind, problem, "see `kgbuild curate --help`")
    return Correction(kind=kind, target={k: v for k, v in target.items() if v != ""},
                      author=author or default_author(), reason=reason, time=time or now())


def _target_problem(kind: str, target: dict[str, str]) -> str | None:
    if kind in ("merge", "never_merge"):
        a, b = target.get("a", "").strip(), target.get("b", "").strip()
        if not a or not b:
            return "needs two entities"
        if a == b:
            return "names the same entity twice"
        return None
    required, optional = _FIELDS[kind]
    given = {k for k, v in target.items() if str(v).strip()}
    if missing := sorted(required - given):
        return f"missing {', '.join(missing)}"
    if unknown := sorted(set(target) - required - optional):
        return f"unknown field(s) {', '.join(unknown)} (allowed: {', '.join(sorted(required | optional))})"
    if kind == "reject" and "id" not in given and not {"subject", "predicate", "object"} <= given:
        return "needs a triple id, or subject, predicate and object"
    return None


def _entry(item: Any) -> Correction | str:
    """A YAML item as a correction, or the problem with it."""
    if not isinstance(item, dict):
        return "is not a mapping"
    kinds = [k for k in item if k in KINDS]
    extra = [k for k in item if k not in KINDS and k not in _META]
    if len(kinds) != 1:
        return f"needs exactly one of {', '.join(KINDS)} (found {', '.join(map(str, kinds)) or 'none'})"
    if extra:
        return f"unknown key(s) {', '.join(map(str, extra))}"
    kind = kinds[0]
    body = item[kind]
    if kind in ("merge", "never_merge"):
        if not isinstance(body, list) or len(body) != 2:
            return f"{kind} takes a list of two entities: {kind}: [A, B]"
        target = {"a": str(body[0]).strip(), "b": str(body[1]).strip()}
    else:
        if not isinstance(body, dict):
            return f"{kind} takes a mapping, e.g. {kind}: {{{', '.join(sorted(_FIELDS[kind][0] or {'id'}))}: ...}}"
        target = {str(k): str(v).strip() for k, v in body.items() if v is not None}
    problem = _target_problem(kind, target)
    if problem:
        return f"{kind} {problem}"
    meta = {k: str(item[k]) for k in _META if item.get(k) is not None}
    return Correction(kind=kind, target=target, **meta)


def read_corrections(path: Path) -> CorrectionsFile:
    """The file's corrections in order; a missing file is an empty list. Unreadable YAML is an InputError
    (the whole file: nothing could be trusted); a bad entry is a problem line and is left out."""
    if not path.exists():
        return CorrectionsFile(path, [], [])
    text = path.read_text(encoding="utf-8")
    try:
        # One parse: the node tree gives each entry's line, the same tree its data (a safe loader:
        # plain data only, no tags).
        loader = _LOADER(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        raise InputError(where, f"not valid YAML ({getattr(exc, 'problem', exc)})",
                         "fix the file by hand or restore it from git") from exc
    if data is None:
        return CorrectionsFile(path, [], [])
    items = data.get("corrections") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise InputError(str(path), "needs a top-level `corrections:` list", "see docs/curation.md")
    lines = _item_lines(node, len(items))
    entries: list[Entry] = []
    problems: list[str] = []
    for number, (item, line) in enumerate(zip(items, lines, strict=True), start=1):
        found = _entry(item)
        if isinstance(found, str):
            problems.append(f"{path}:{line}: correction {number} {found}; fix or remove it (left out)")
        else:
            entries.append(Entry(number, line, found))
    return CorrectionsFile(path, entries, problems)


def _item_lines(node: Any, count: int) -> list[int]:
    """The 1-based line of each item of the `corrections` list (0 where the tree does not say)."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == "corrections" and isinstance(value, yaml.SequenceNode):
                return [item.start_mark.line + 1 for item in value.value]
    return [0] * count


def write_corrections(path: Path, corrections: Iterable[Correction]) -> None:
    """The whole file, replaced atomically (a crash leaves the old or the new file, never half of one)."""
    body = {"corrections": [c.to_yaml() for c in corrections]}
    text = ("# Hand corrections of the knowledge graph, re-applied by every build (docs/curation.md).\n"
            "# Edit with `kgbuild curate ...` or by hand; keep it in version control.\n"
            + yaml.dump(body, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=120))
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def append_correction(path: Path, correction: Correction) -> Entry:
    """Add a correction at the end (the file's problem entries are kept as they are only if valid:
    a file with bad entries is refused, so rewriting it cannot drop what the user wrote)."""
    current = read_corrections(path)
    if current.problems:
        raise InputError(str(path), f"{len(current.problems)} bad entr(y/ies): {current.problems[0]}",
                         "fix the file by hand first")
    for entry in current.entries:
        if entry.correction.id == correction.id:
            raise InputError(str(path), f"correction {entry.number} already says {correction.describe()}",
                             "nothing to add")
    write_corrections(path, [*current.corrections, correction])
    return Entry(len(current.entries) + 1, 0, correction)


def remove_correction(path: Path, number: int | None = None, *, correction_id: str | None = None) -> Correction:
    """Take out correction `number` (1-based, as `curate list` shows; None: the last) or the one with
    `correction_id`; the removed correction is returned."""
    current = read_corrections(path)
    if current.problems:
        raise InputError(str(path), f"{len(current.problems)} bad entr(y/ies): {current.problems[0]}",
                         "fix the file by hand first")
    items = current.corrections
    if not items:
        raise InputError(str(path), "holds no correction", "nothing to undo")
    if correction_id is not None:
        index = next((i for i, c in enumerate(items) if c.id == correction_id), None)
        if index is None:
            raise InputError(correction_id, "no such correction", "see `kgbuild curate list`")
    else:
        index = len(items) - 1 if number is None else number - 1
        if not 0 <= index < len(items):
            raise InputError(str(number), f"no correction {number} (the file holds {len(items)})",
                             "see `kgbuild curate list`")
    removed = items.pop(index)
    write_corrections(path, items)
    return removed
