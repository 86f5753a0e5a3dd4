"""The corrections against what the workspace holds now: unknown targets (before a fix is written) and
the review queue of the current build. Reads only the columns it needs from the tables."""

from __future__ import annotations

from kgbuild.align.fusion import Merge
from kgbuild.config import Config
from kgbuild.curate.file import Correction, corrections_path, read_corrections
from kgbuild.curate.review import ReviewItem, review_queue
from kgbuild.ids import normalize_name
from kgbuild.model import Entity
from kgbuild.tables import MergeRow
from kgbuild.workspace import Workspace

# The fields of each kind that name an entity (a relation end for reject and add).
_ENTITY_FIELDS = {"merge": ("a", "b"), "never_merge": ("a", "b"), "retype": ("entity",), "rename": ("entity",),
                  "reject": ("subject", "object"), "add": ()}


class TableLookup:
    def __init__(self, ws: Workspace) -> None:
        table = ws.read_table("entities", ["id", "name", "aliases"]).to_pydict()
        self.ids = set(table["id"])
        self.names: set[str] = set()
        for name, aliases in zip(table["name"], table["aliases"], strict=True):
            self.names.add(normalize_name(name))
            self.names.update(normalize_name(a) for a in aliases or ())
        self.concepts = {normalize_name(n) for n in ws.read_table("concepts", ["name"]).column("name").to_pylist()}
        merged = ws.read_table("merges", ["merged_ids"]).column("merged_ids").to_pylist()
        self.ids.update(i for ids in merged for i in ids or ())
        # Values kept as literals on their facts (graph/literals.py): known, since a build applies the corrections
        # before the literals stage, while every value is still an entity.
        self.literals: set[str] = set()
        hyp = ws.read_table("hypernodes")
        for end in ("subject", "object"):
            if f"{end}_kind" in hyp.column_names:
                for kind, vid, name in zip(hyp.column(f"{end}_kind").to_pylist(), hyp.column(f"{end}_id").to_pylist(),
                                           hyp.column(f"{end}_name").to_pylist(), strict=True):
                    if kind == "value":
                        self.literals.update((vid, normalize_name(name or "")))
        self.ws = ws

    def _missing(self, target: str) -> str:
        return f"no entity {target!r} in the current build"

    def known(self, target: str) -> bool:
        folded = normalize_name(target)
        return (target in self.ids or folded in self.names or folded in self.concepts
                or target in self.literals or folded in self.literals)

    def unknown(self, c: Correction) -> list[str]:
        out = [self._missing(c.target[f]) for f in _ENTITY_FIELDS[c.kind]
               if f in c.target and not self.known(c.target[f])]
        if c.kind == "reject" and "id" in c.target:
            rel = self.ws.read_table("relations", ["id"]).column("id").to_pylist()
            hyp = self.ws.read_table("hypernodes", ["id"]).column("id").to_pylist()
            if c.target["id"] not in set(rel) | set(hyp):
                out.append(f"no triple {c.target['id']} in the current build")
        return out


def workspace_review(config: Config) -> list[ReviewItem]:
    """The review queue of the project's current tables, less what corrections.yaml decides already."""
    from kgbuild.schema import resolve_schema

    ws = Workspace(config.workspace_path())
    entities = list(ws.records("entities", Entity))
    merges = [Merge(m.canonical_id, tuple(m.merged_ids), m.step, m.reason) for m in ws.records("merges", MergeRow)]
    corrections = read_corrections(corrections_path(config.root)).corrections
    return review_queue(entities, merges, resolve_schema(config.schema_location()), corrections=corrections)
