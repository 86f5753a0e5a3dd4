"""The dictionary a Chinese text is matched against: the schema's concept trees (names and
aliases: 甲状腺 is the HumanBodyPart node "Thyroid gland"), the Chinese aliases of its classes
(疾病 -> Disease, used to type compounds ending in them), and a domain concept file's names and
aliases (`extract.domain_concepts`: Disease.csv's titles, nodes.json's concepts).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kgbuild.extract.domain_concepts import DomainConcepts
from kgbuild.extract.language import han_share
from kgbuild.extract.zh.classes import GENERIC_WORDS, ClassRules
from kgbuild.ids import normalize_name
from kgbuild.schema import Schema


@dataclass(frozen=True)
class Term:
    """What a dictionary form stands for."""

    name: str  # the entity's name: the domain's own spelling (a concept's name, or the form itself)
    spg_class: str | None  # None: type it by its suffix, else the fallback class
    semantic_type: str | None = None  # the concept node it belongs to, linked by the align stage
    aliases: tuple[str, ...] = ()


@dataclass
class Lexicon:
    terms: dict[str, Term] = field(default_factory=dict)  # normalised form -> term
    class_words: dict[str, str] = field(default_factory=dict)  # Chinese class alias -> class (疾病 -> Disease)

    def add(self, form: str, term: Term) -> None:
        key = normalize_name(form)
        if key and key not in GENERIC_WORDS and key not in self.class_words:
            self.terms.setdefault(key, term)  # first source wins: schema trees, then the domain file

    def get(self, form: str) -> Term | None:
        return self.terms.get(normalize_name(form))

    def forms(self) -> Iterable[str]:
        return self.terms.keys()


def _chinese(text: str) -> bool:
    return han_share(text) >= 0.5


def build_lexicon(schema: Schema, concepts: DomainConcepts | None) -> Lexicon:
    lexicon = Lexicon()
    for name, entity_type in schema.entity_types.items():
        for alias in entity_type.aliases:
            if _chinese(alias) and len(alias) > 1:
                lexicon.class_words.setdefault(alias, name)
    for path in schema.concept_paths():
        if len(path) < 2:  # the concept type itself (人体部位) is a class word, not a thing
            for alias in schema.concept_node(path).aliases:
                if _chinese(alias):
                    lexicon.class_words.setdefault(alias, path[0])
            continue
        node = schema.concept_node(path)
        forms = [path[-1], *node.aliases]
        for form in forms:
            if _chinese(form):
                lexicon.add(form, Term(name=form, spg_class=path[0], semantic_type=path[-1]))
    if concepts is not None:
        for concept in concepts:
            resolved = schema.resolve_class(concept.label) if concept.label else None
            # A label that is no entity class (Concept), or names a concept type (HospitalDepartment),
            # makes the term an instance of its concept node, linked by the align stage.
            as_concept = resolved is None or resolved in schema.concept_types
            term = Term(name=concept.name, spg_class=resolved, semantic_type=concept.name if as_concept else None,
                        aliases=tuple(concept.aliases))
            for form in [concept.name, *concept.aliases]:
                if _chinese(form) or form.isupper():  # ACTH, HGH: Latin abbreviations Chinese texts keep
                    lexicon.add(form, term)
    return lexicon


def class_suffixes(lexicon: Lexicon) -> dict[str, str]:
    """Class aliases as suffix rules: a compound ending in 医院 is a Hospital."""
    return dict(lexicon.class_words)


def rules_for(schema: Schema, lexicon: Lexicon) -> ClassRules:
    return ClassRules(schema, class_suffixes(lexicon))
