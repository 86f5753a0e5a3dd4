"""What the rules find in one chunk, before it becomes kgbuild.model records.

Mentions are mutable while a chunk is read (a later sentence may show that an unlabelled
name is a person, or a definition may correct the NER class); ids are computed only when
`offline` turns the facts into records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from kgbuild.extract.labels import DATE_LABELS, PLACE_LABELS

PROPN = "PROPN"  # label of an unlabelled proper-noun phrase used as an argument
CONCEPT = "CONCEPT"  # label of a common-noun phrase used as a direct object


@dataclass(frozen=True)
class Classes:
    """Schema classes the rules assign, resolved once per extractor."""

    by_label: Mapping[str, str]  # NER label -> class (labels absent here make no entities)
    by_hint: Mapping[str, str]  # class named by `typehints` (Work, Person, ...) -> schema class
    fallback: str  # unlabelled proper nouns
    concept: str  # common-noun objects
    person: str  # unlabelled proper nouns that are born, die, or are "he"/"she"
    place: str  # places named in a "(born ... in X)" parenthesis, whatever NER said


@dataclass(eq=False)
class Mention:
    """One entity as found in this chunk; several mentions may become one Entity."""

    name: str
    spg_class: str
    label: str  # NER label, PROPN or CONCEPT
    start: int
    end: int
    semantic_type: str | None = None
    description: str = ""
    more_types: list[str] = field(default_factory=list)  # "a director, producer and screenwriter"
    values: list[tuple[str, str]] = field(default_factory=list)  # amounts: ("population", "716")
    nationality: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    class_fixed: bool = False  # set by a definition ("X is a film"): later guesses must not undo it

    @property
    def is_date(self) -> bool:
        return self.label in DATE_LABELS

    @property
    def is_place(self) -> bool:
        return self.label in PLACE_LABELS

    @property
    def types(self) -> list[str]:
        """Every semantic type the text gave, the first (`semantic_type`) first."""
        return [self.semantic_type, *self.more_types] if self.semantic_type else []

    def add_type(self, semantic_type: str, description: str) -> bool:
        """Another semantic type: the first becomes `semantic_type` (with the sentence that gave it
        as description), later different ones are kept after it. True when it was new."""
        if self.semantic_type is None:
            self.semantic_type = semantic_type
            self.description = description
            return True
        if semantic_type == self.semantic_type or semantic_type in self.more_types:
            return False
        self.more_types.append(semantic_type)
        return True

    def add_value(self, key: str, value: str) -> bool:
        """An amount the text states about this thing (see `values`); True when it was new."""
        if (key, value) in self.values:
            return False
        self.values.append((key, value))
        return True

    def guess_class(self, spg_class: str) -> None:
        """Retype from context ("born", "he") unless a definition already decided."""
        if not self.class_fixed:
            self.spg_class = spg_class


@dataclass
class Triple:
    subject: Mention
    predicate: str
    object: Mention
    qualifiers: list[tuple[str, Mention]] = field(default_factory=list)  # (preposition, date or place)


@dataclass
class EventFact:
    type: str
    trigger: str
    arguments: dict[str, list[Mention]]
    time: Mention | None = None
    place: Mention | None = None


@dataclass
class Facts:
    mentions: list[Mention]
    triples: list[Triple]
    events: list[EventFact]
    drops: list[tuple[str, str, str]]  # (reason, kind, detail)


def used_mentions(triples: list[Triple], events: list[EventFact]) -> set[int]:
    """The ids of the mentions some triple (subject, object, qualifier) or event (argument, time, place) uses."""
    used = {id(m) for t in triples for m in (t.subject, t.object, *(q for _, q in t.qualifiers))}
    used.update(id(m) for e in events for ms in e.arguments.values() for m in ms)
    used.update(id(m) for e in events for m in (e.time, e.place) if m is not None)
    return used


def related(triples: Iterable[Triple], a: str, b: str) -> bool:
    """Whether some triple already joins the two names, either way round: the rules of the technical pass add
    at most one relation between two names (the first rule to find one states it best)."""
    return any({t.subject.name, t.object.name} == {a, b} for t in triples)
