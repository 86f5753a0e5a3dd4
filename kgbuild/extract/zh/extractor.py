"""`ChineseExtractor`: Chinese chunks -> entities, relations, qualifiers, events and concept links, without a model.

Two sets of rules share the chunk's jieba tokens: the domain rules (the schema's concept trees and a domain
concept file, typing by suffix: the medicine schema's diseases, symptoms, drugs...) and the open-domain
rules (organisations, people, places, works, products, awards, dates and amounts: `open_mentions`,
`open_relations`). Where both name the same text, a dictionary term wins, else the open-domain name; a
name typed by jieba's proper-name tag alone is not kept (jieba tags 智能化 and 荣获 as person names).

Given a trained pair model (`pair_model.py`; bench/zh_pair_model.py trains one and scores it leaving one gold set
out), each pair of names of one sentence that no rule related is read by it after the rules and the relation it is
sure of is added. None is shipped: on writers it never saw it gained about as much recall as it lost precision
(docs/chinese.md, "Pair model").
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from kgbuild.document_references import DECLARED, DEPENDENTS, FALLBACK, STANDS_FOR, TITLED
from kgbuild.extract.domain_concepts import DomainConcepts, load_domain_concepts
from kgbuild.extract.labels import resolve_alternatives
from kgbuild.extract.linear_model import SparseLinearModel
from kgbuild.extract.names import normalize_text
from kgbuild.extract.zh.dictionary import JiebaDictionary
from kgbuild.extract.zh.lexicon import build_lexicon, rules_for
from kgbuild.extract.zh.mentions import Mention, find_mentions
from kgbuild.extract.zh.open_mentions import OpenNameFinder
from kgbuild.extract.zh.open_relations import OpenEvent, OpenFact, OpenRelationRules
from kgbuild.extract.zh.own_company import others_only_stand_in
from kgbuild.extract.zh.pair_candidates import PairRow, pair_candidates
from kgbuild.extract.zh.pair_model import decide
from kgbuild.extract.zh.relations import RelationRules, Triple, sentences
from kgbuild.extract.zh.report_header import header_short_names
from kgbuild.extract.zh.report_reference import STAND_IN_KIND, title_company
from kgbuild.extract.zh.report_reference import declared as report_declared
from kgbuild.extract.zh.report_reference import stand_in as report_stand_in
from kgbuild.extract.zh.report_tables import COMPANY_END, read_tables
from kgbuild.extract.zh.segment import Segmenter, Token, jieba_version
from kgbuild.extract.zh.spacing import close_up
from kgbuild.extract.zh.word_lists import BROAD_REGIONS, COMPOUND_SURNAMES, KIND_ENDINGS, STOP_NAMES, SURNAMES
from kgbuild.ids import content_hash, normalize_name
from kgbuild.model import Chunk, ChunkExtraction, ChunkFailure, Concept, Entity, Event, HyperNode, Ref, Relation
from kgbuild.schema import Schema

# Roles the relation rules type by context, as class alternatives (medicine schema first).
_CONTEXT_CLASSES = {
    "Symptom": "Symptom", "Disease": "Disease|Medicine", "Drug": "Drug|Medicine", "Treatment": "Treatment",
    "SurgicalOperation": "SurgicalOperation", "Population": "Population", "HospitalDepartment": "HospitalDepartment",
}
# A rule's predicate -> schema relation names to try, in order.
_PREDICATES = {
    "isA": ("isA", "subtypeOf"), "belongTo": ("belongTo",), "commonIn": ("commonIn",),
    "locatedIn": ("locatedInBodyPart", "locatedIn"), "hasSymptom": ("hasSymptom",),
    "hasComplication": ("hasComplication",), "causedBy": ("causedBy",), "treatedWith": ("treatedWith",),
    "belongsToDepartment": ("belongsToDepartment",),
    # open-domain rules: a medicine is made, not authored (open_domain's createdBy takes works and artefacts)
    "createdBy": ("createdBy", "manufacturedBy"),
    # a machine designed from a report: open_domain's basedOn is for works, so an artefact's keeps its own name
    "basedOn": ("basedOn", "designBasedOn"),
}


# The words a report declares for itself (以下简称“公司”或“本公司”): references, never a name of the company.
_REFERENCE_WORDS = frozenset({"公司", "本公司", "本集团", "集团", "本行", "该公司", "发行人", "本企业"})


class ChineseExtractor:
    name = "jieba-rules"
    version = "27"  # bump when rules change: it is part of the cache key

    def __init__(self, schema: Schema, domain_concepts: str | Path | DomainConcepts | None = None, *,
                 pair_model: SparseLinearModel | None = None) -> None:
        """`pair_model`: add its relations after the rules' (None, the default: the rules alone)."""
        self.schema = schema
        self.pair_model = pair_model
        # the class pairs the model was trained to relate ("Person>Company"; none listed: every pair)
        listed = pair_model.meta.get("class_pairs") if pair_model is not None else None
        self._pair_classes: frozenset[str] | None = frozenset(listed) if listed else None
        if isinstance(domain_concepts, (str, Path)):
            domain_concepts = load_domain_concepts(domain_concepts)
        self.concepts = domain_concepts
        self.lexicon = build_lexicon(schema, domain_concepts)
        self.rules = rules_for(schema, self.lexicon)
        classes = {role: cls for role, value in _CONTEXT_CLASSES.items()
                   if (cls := resolve_alternatives(schema, value)) is not None}
        self.relations = RelationRules(classes)
        self.dictionary = JiebaDictionary()
        self.names = OpenNameFinder(lambda value: resolve_alternatives(schema, value), self.dictionary)
        self.open_rules = OpenRelationRules(self._classes_under("Organization"),
                                            self._classes_under("EducationalInstitution"), schema.fallback_class,
                                            is_award=self._classes_under("Award"),
                                            is_country=self._classes_under("Country"),
                                            is_company=self._classes_under("Company"))
        # the class of the stand-in for a report's own company (`report_reference`); none in a schema without companies
        self._company_class = resolve_alternatives(schema, "Company") or ""
        self._org_class = resolve_alternatives(schema, "Organization")  # a table cell's body that is no company
        self._person_class = resolve_alternatives(schema, "Person")
        self._segmenter: Segmenter | None = None
        # The classes the place rules give a broad region they misread (a city or an administrative region, which no
        # continent or 华东地区 is); a schema's own class for it, the medicine schema's GeographicLocation for
        # 亚洲婴儿's 亚洲, keeps it.
        self._misread_regions = {self.names.city, self.names.region} - {
            None, resolve_alternatives(schema, "GeographicLocation")}

    def _cell_class(self, name: str) -> tuple[str, str] | None:
        """The class and kind of a name a report's table cell holds, by its form: an organisation's ending, or a
        known surname and one to three characters (a table gives no other cue)."""
        if COMPANY_END.search(name):
            return (self._company_class if name.endswith(("公司", "集团", "银行")) else
                    self._org_class or self._company_class), "org"
        person = self._person_class
        if person and re.fullmatch(r"[\u4e00-\u9fff]{2,4}", name) and (
                name[0] in SURNAMES or name[:2] in COMPOUND_SURNAMES) and not self.dictionary.is_common(name):
            return person, "person"
        return None

    def _classes_under(self, name: str) -> set[str]:
        root = self.schema.resolve_class(name)
        return {c for c in self.schema.entity_types if root is not None and self.schema.is_a(c, root)}

    def fingerprint(self) -> str:
        payload = {"extractor": self.name, "version": self.version, "jieba": jieba_version(),
                   "lexicon": content_hash("\n".join(sorted(f"{k}|{v.name}|{v.spg_class}|{v.semantic_type}"
                                                            for k, v in self.lexicon.terms.items())))}
        if self.pair_model is not None:  # the rules' own output keeps the cache key it had before the model
            payload["pairs"] = content_hash(json.dumps(self.pair_model.to_json(), sort_keys=True))
        return content_hash(json.dumps(payload, sort_keys=True))

    def load(self) -> None:
        self._segment()

    def _segment(self) -> Segmenter:
        if self._segmenter is None:
            words = [(form, "nz") for form in self.lexicon.forms()]
            self._segmenter = Segmenter(words)
        return self._segmenter

    def extract(self, chunks: Sequence[Chunk]) -> list[ChunkExtraction]:
        out = []
        for chunk in chunks:
            try:
                out.append(self.extract_one(chunk))
            except Exception as exc:  # noqa: BLE001 - one bad chunk must not stop a build
                detail = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
                out.append(ChunkExtraction(chunk_id=chunk.id, extractor=self.name,
                                           failure=ChunkFailure(detail=detail, chunk_id=chunk.id)))
        return out

    # ------------------------------------------------------------------ one chunk

    def extract_one(self, chunk: Chunk) -> ChunkExtraction:
        return self._extract(chunk, None)

    def pair_rows(self, chunk: Chunk) -> tuple[ChunkExtraction, list[PairRow]]:
        """The rules' output alone and every pair model candidate in it, those the rules related included (the
        trainer learns from both how a relation is written, and scores the model on the others)."""
        rows: list[PairRow] = []
        return self._extract(chunk, rows), rows

    def _extract(self, chunk: Chunk, rows: list[PairRow] | None) -> ChunkExtraction:
        text = close_up(normalize_text(chunk.text))
        tokens = self._segment().tokens(text)
        domain = find_mentions(tokens, self.lexicon, self.rules, self.schema.fallback_class)
        opened = self.names.find(text, tokens)
        mentions = _merge(domain, opened.mentions, self.names.classes())
        triples: list[Triple] = []
        aliases: list[tuple[Mention, str]] = []
        pieces: dict[int, Mention] = {}  # id(mention inside another name) -> the mention that name is of
        retyped: dict[int, str] = {}
        topic: Mention | None = None
        for start, end in sentences(text):
            inside = [m for m in mentions if m.start >= start and m.end <= end]
            lead = next((m for m in inside if m.spg_class), None)
            if topic is None or (lead is not None and lead.start - start <= 2):
                topic = lead or topic
            facts = self.relations.sentence(text, start, end, mentions, topic)
            triples += facts.triples
            aliases += facts.aliases
            for owner, a_start, a_end in facts.alias_spans:
                pieces.update({id(m): owner for m in mentions
                               if m is not owner and a_start <= m.start and m.end <= a_end})
            retyped.update(facts.retyped)
            for new in facts.added:  # a list item replaces the mentions inside its span
                mentions = [m for m in mentions if m.end <= new.start or m.start >= new.end] + [new]
        for m in mentions:
            if not m.spg_class and id(m) in retyped:
                m.spg_class = retyped[id(m)]
        triples = [Triple(pieces.get(id(t.subject), t.subject), t.predicate, pieces.get(id(t.object), t.object))
                   for t in triples]
        kept = [m for m in mentions if m.spg_class and id(m) not in pieces]
        # The domain rules relate the domain's terms; names of the open-domain kinds are the open rules' to relate
        # (the medicine rules' 位于 takes every name after it as a body part's place).
        triples = [t for t in triples if not t.subject.kind and not t.object.kind]
        # (a reporter's byline names a person who is no party to what the news says)
        named = [m for m in opened.mentions if m in kept and m.kind != "byline"]
        made: list[Mention] = []  # the stand-in a report's table needs for its company, made once

        def table_stand_in(at: int) -> Mention:
            if not made:
                made.append(Mention("公司", self._company_class, at, at, "公司", kind=STAND_IN_KIND))
            return made[0]

        tables = read_tables(text, named, self._cell_class, self.schema.fallback_class, table_stand_in,
                             self._person_class or "") \
            if self._company_class and "|" in text else None
        if tables is not None and (tables.mentions or tables.labels):
            # a cell the tables read as one name replaces the pieces the name rules found in it (韩启东, not 启东),
            # and a label cell names nothing (股票上市证券交易所)
            cells = [(m.start, m.end) for m in tables.mentions] + tables.labels
            kept = [m for m in kept if not any(s <= m.start and m.end <= e for s, e in cells)] + tables.mentions
            named = [m for m in named if m in kept] + tables.mentions
        if self._company_class and (heads := header_short_names(text)):
            # 证券简称：闽溪纸业 on the code line: the document's company's short name, not 证券 also called 闽溪纸业
            spans = [(h.label_start, h.name_end) for h in heads]

            def outside(m: Mention) -> bool:
                return not any(s <= m.start < e for s, e in spans)

            kept, named = [m for m in kept if outside(m)], [m for m in named if outside(m)]
            aliases = [(m, a) for m, a in aliases if outside(m)]
            opened.aliases[:] = [(m, a) for m, a in opened.aliases if outside(m)]
            for h in heads:
                aliases.append((table_stand_in(h.label_start), h.name))
        stand_in = report_stand_in(text, named, self.open_rules._company, self._company_class) or \
            others_only_stand_in(text, named, self.open_rules._company, self._company_class, STAND_IN_KIND)
        # (the table's stand-in and the prose's are both named 公司: one node of the chunk, whatever word was written)
        open_facts, events = self.open_rules.chunk(text, named, opened.values, stand_in)
        declaring = {id(m) for m in report_declared(text, named, self.open_rules._company)}
        if tables is not None:
            open_facts += tables.facts
            opened.aliases.extend(tables.aliases)
        if made and any(m is made[0] for m, _ in [*aliases, *opened.aliases]):
            kept.append(made[0])  # a stand-in that only a short name is said of (证券简称：闽溪纸业) is a node too
        # 产品远销东南亚和非洲: a broad region no fact or event of the chunk uses is a market or a direction, no entity
        # (only one the place rules typed as they misread it, `_misread_regions`)
        if any(m.name in BROAD_REGIONS for m in kept):
            used = {m.name for t in triples for m in (t.subject, t.object)} | {
                m.name for f in open_facts for m in (f.subject, f.object, *(v for _, v in f.qualifiers))} | {
                m.name for e in events for m in (*(x for xs in e.arguments.values() for x in xs), e.time, e.place)
                if m is not None}
            kept = [m for m in kept
                    if m.name not in BROAD_REGIONS or m.name in used or m.spg_class not in self._misread_regions]
        return self._records(chunk, kept, triples, aliases + opened.aliases, open_facts, events,
                             (text, tokens, rows),
                             self.open_rules.chunk_company(named, text) if stand_in is not None or made else None,
                             declaring)

    def _records(self, chunk: Chunk, mentions: list[Mention], triples: list[Triple],
                 aliases: list[tuple[Mention, str]], facts: Sequence[OpenFact] = (),
                 events: Sequence[OpenEvent] = (),
                 pairs: tuple[str, list[Token], list[PairRow] | None] | None = None,
                 stand_in_fallback: Mention | None = None, declaring: frozenset[int] | set[int] = frozenset(),
                 ) -> ChunkExtraction:
        """`pairs`: the chunk's text and tokens for the pair model, and a list that takes its candidates instead
        (`pair_rows`: nothing is added then). `stand_in_fallback`: the company the chunk alone would take for a
        stand-in for the document's company (a mention of kind `STAND_IN_KIND`, whose node is marked for
        `kgbuild.document_references`); `declaring`: ids of the mentions the chunk declares as its 公司."""
        chunk_ids = [chunk.id]
        # Another name of a mention (X，亦称Y) is the same entity: a mention written as that name
        # becomes a mention of X's entity.
        owner: dict[str, Mention] = {}
        declared = set(declaring)  # mentions a report declared as its 公司 (以下简称“公司”)
        for mention, alias in aliases:
            if alias in _REFERENCE_WORDS:
                # 以下简称“公司”: no name of the company (every report's company would share it, and fusion would
                # merge them), but the declaration that the document is about it
                declared.add(id(mention))
                continue
            if normalize_name(alias) != normalize_name(mention.name):
                owner.setdefault(normalize_name(alias), mention)
                if alias not in mention.aliases:
                    mention.aliases.append(alias)

        def canonical(m: Mention) -> Mention:
            seen = 0
            while (o := owner.get(normalize_name(m.form))) is not None and o is not m and seen < 5:
                m, seen = o, seen + 1
            return m

        entities: dict[str, Entity] = {}

        def node(m: Mention) -> Entity:
            m = canonical(m)
            entity_id = Entity.make_id(m.name, m.spg_class)
            entity = entities.get(entity_id)
            if entity is None:
                entity = entities[entity_id] = Entity(id=entity_id, name=m.name, spg_class=m.spg_class,
                                                      semantic_type=m.semantic_type, chunk_ids=list(chunk_ids))
            elif entity.semantic_type is None and m.semantic_type:  # 是一家综合物流服务商, said of a later mention
                entity.semantic_type = m.semantic_type
            for alias in m.aliases:
                if alias in _REFERENCE_WORDS:
                    declared.add(id(m))
                elif normalize_name(alias) != normalize_name(entity.name) and alias not in entity.aliases:
                    entity.aliases.append(alias)
            if id(m) in declared:
                entity.properties[DECLARED] = ["公司"]
            if m.kind == STAND_IN_KIND and STANDS_FOR not in entity.properties:
                entity.properties[STANDS_FOR] = [m.form]
                if stand_in_fallback is not None:
                    entity.properties[FALLBACK] = [node(stand_in_fallback).id]
                if (titled := title_company(chunk.section)) is not None:
                    entity.properties[TITLED] = [titled]
            return entity

        for m in mentions:
            node(m)
        dates = {m.name for m in mentions if m.kind == "date"}
        named = {k for k, e in entities.items() if e.name not in dates}  # kept whatever the facts say of them
        relations: dict[str, Relation] = {}
        for triple in triples:
            if not triple.subject.spg_class or not triple.object.spg_class:
                continue
            subject, obj = node(triple.subject), node(triple.object)
            if subject.id == obj.id:
                continue
            predicate = self._predicate(triple.predicate, subject.spg_class, obj.spg_class)
            relation_id = Relation.make_id(subject.id, predicate, obj.id)
            relations.setdefault(relation_id, Relation(id=relation_id, subject=subject.ref(), predicate=predicate,
                                                       object=obj.ref(), chunk_ids=chunk_ids))
        hypernodes: dict[str, HyperNode] = {}
        for fact in facts:
            subject, obj = node(fact.subject), node(fact.object)
            if subject.id == obj.id:
                continue
            predicate = self._predicate(fact.predicate, subject.spg_class, obj.spg_class)
            relation_id = Relation.make_id(subject.id, predicate, obj.id)
            relation = relations.setdefault(relation_id, Relation(
                id=relation_id, subject=subject.ref(), predicate=predicate, object=obj.ref(), chunk_ids=chunk_ids))
            if fact.said and "said" not in relation.properties:
                relation.properties["said"] = fact.said  # the text's own words for the predicate (graph/vectors.py)
            for qualifier, value in fact.qualifiers:  # ((X, 营业收入, 128.6亿元), 同比增长, 12.4%)
                target = node(value)
                hyper_id = HyperNode.make_id(relation.id, qualifier, target.id)
                hypernodes.setdefault(hyper_id, HyperNode(id=hyper_id, subject=relation.ref(), predicate=qualifier,
                                                          object=target.ref(), chunk_ids=chunk_ids))
        if pairs is not None:
            self._pair_relations(pairs, mentions, node, relations, chunk_ids)
        records: dict[str, Event] = {}
        for event in events:
            if (record := self._event(event, node, chunk_ids)) is not None:
                records.setdefault(record.id, record)
        # A date nothing points at says nothing on its own (公司2023年将继续加大研发投入): it would only be
        # one more unconnected node.
        used = {r.subject.id for r in relations.values()} | {r.object.id for r in relations.values()}
        used |= {h.object.id for h in hypernodes.values()}
        used |= {ref.id for e in records.values() for refs in e.arguments.values() for ref in refs}
        used |= {ref.id for e in records.values() for ref in (e.time, e.place) if ref is not None}
        entities = {k: e for k, e in entities.items() if k in used or e.name not in dates}
        if any(STANDS_FOR in e.properties for e in entities.values()):
            _mark_dependents(entities, named, relations, hypernodes, records)
        concepts: dict[str, Concept] = {}
        for entity in entities.values():
            if entity.semantic_type:
                cid = Concept.make_id(entity.semantic_type)
                concepts.setdefault(cid, Concept(id=cid, name=entity.semantic_type, chunk_ids=list(chunk_ids)))
        return ChunkExtraction(chunk_id=chunk.id, extractor=self.name, entities=list(entities.values()),
                               relations=list(relations.values()), concepts=list(concepts.values()),
                               hypernodes=list(hypernodes.values()), events=list(records.values()))

    def _pair_relations(self, pairs: tuple[str, list[Token], list[PairRow] | None],
                        mentions: list[Mention], node: Callable[[Mention], Entity], relations: dict[str, Relation],
                        chunk_ids: list[str]) -> None:
        """The pair model's relations between names of one sentence that no rule related either way."""
        text, tokens, rows = pairs
        model = self.pair_model
        if rows is None and model is None:
            return  # the rules alone: nothing to collect or add
        related = {frozenset((r.subject.id, r.object.id)) for r in relations.values()}
        if rows is not None:
            for candidate in pair_candidates(text, tokens, mentions, lambda a, b: node(a).id != node(b).id):
                first, second = node(candidate.first), node(candidate.second)
                rows.append(PairRow(first.name, second.name, candidate.features,
                                    frozenset((first.id, second.id)) in related))
            return
        if model is None:
            return

        classes = self._pair_classes

        def unrelated(a: Mention, b: Mention) -> bool:  # no features worked out for a pair a rule related
            if classes is not None and f"{a.spg_class}>{b.spg_class}" not in classes:
                return False
            ids = frozenset((node(a).id, node(b).id))
            return len(ids) == 2 and ids not in related

        for candidate in pair_candidates(text, tokens, mentions, unrelated):
            first, second = node(candidate.first), node(candidate.second)
            fact = decide(model, candidate)
            if fact is None:
                continue
            subject, obj = (first, second) if fact.subject is candidate.first else (second, first)
            predicate = self._predicate(fact.predicate, subject.spg_class, obj.spg_class)
            relation_id = Relation.make_id(subject.id, predicate, obj.id)
            if relation_id not in relations:
                relations[relation_id] = Relation(id=relation_id, subject=subject.ref(), predicate=predicate,
                                                  object=obj.ref(), chunk_ids=chunk_ids,
                                                  properties={"pair_model": f"{fact.probability:.3f}"})
                related.add(frozenset((first.id, second.id)))

    def _event(self, event: OpenEvent, node: Callable[[Mention], Entity], chunk_ids: list[str]) -> Event | None:
        """An event the schema has a type for, with the roles it knows (others left out)."""
        kind = self.schema.resolve_event_type(event.type)
        if kind is None:
            return None
        arguments: dict[str, list[Ref]] = {}
        for role, members in event.arguments.items():
            name = self.schema.resolve_role(kind, role)
            if name is not None:
                arguments[name] = [node(m).ref() for m in members]
        if not arguments:
            return None
        return Event(id=Event.make_id(kind, event.trigger, arguments), type=kind, trigger=event.trigger,
                     arguments=arguments, time=node(event.time).ref() if event.time else None,
                     place=node(event.place).ref() if event.place else None, chunk_ids=chunk_ids)

    def _predicate(self, rule: str, subject_class: str, object_class: str) -> str:
        """The schema's name for a rule's predicate where the schema allows it between these classes;
        else the rule's own name (kept as an off-schema predicate, as the English rules' are)."""
        names = _PREDICATES.get(rule, (rule,))
        for name in names:
            resolved = self.schema.resolve_relation(name)
            if resolved is not None and self.schema.relation_allows(resolved, subject_class, object_class):
                return resolved
        # an alternative the schema does not declare is kept off-schema; else the rule's name (validation decides);
        # a body part's alternative only for a body part (an event locatedIn a museum is no locatedInBodyPart)
        return next((n for n in names if self.schema.resolve_relation(n) is None
                     and (n != "locatedInBodyPart" or "BodyPart" in object_class)), rule)


def _merge(domain: list[Mention], opened: list[Mention], open_classes: set[str]) -> list[Mention]:
    """The domain rules' mentions and the open-domain names as one list: a dictionary term wins where both
    name the same text, else the open-domain name; a name typed by jieba's tag alone is dropped (the
    open-domain rules decide names: jieba's dictionary tags 智能化 and 荣获 as person names). Nor is a suffix-typed
    name of a class the open-domain rules find (`open_classes`: organisations, people, places, dates): those
    rules tell a name from a kind (星河智能科技股份有限公司 from 公司, 子公司). Nor a word of the stop list (名片 is
    not a -片 medicine)."""
    lexical = [m for m in domain if m.from_lexicon]
    kept_open = [o for o in opened if not any(o.start < m.end and m.start < o.end for m in lexical)]
    # 抗肿瘤新药“华替尼”: a suffix-typed phrase right before a quoted name says what the name is, it names nothing
    kinds = {o.start - 1 for o in kept_open if o.kind in ("quote", "title")}
    rest = [m for m in domain if m.from_lexicon or (
        not m.from_tag and m.spg_class not in open_classes and m.name not in STOP_NAMES and m.end not in kinds
        and not m.name.endswith(KIND_ENDINGS)
        and not any(m.start < o.end and o.start < m.end for o in kept_open))]
    return sorted(rest + kept_open, key=lambda m: m.start)


def _mark_dependents(entities: dict[str, Entity], named: set[str], relations: dict[str, Relation],
                     hypernodes: dict[str, HyperNode], events: dict[str, Event]) -> None:
    """Lists on the stand-in for the document's company the amounts and dates that are entities only through its
    facts (公司实现营业收入4.2亿元: 4.2亿元), so that they go with it where nothing resolves it."""
    stand_in = next((k for k, e in entities.items() if STANDS_FOR in e.properties), None)
    if stand_in is None:
        return
    leaning = {r.id for r in relations.values() if stand_in in (r.subject.id, r.object.id)}
    through: set[str] = set()
    elsewhere: set[str] = set()
    for r in relations.values():
        (through if r.id in leaning else elsewhere).update((r.subject.id, r.object.id))
    for h in hypernodes.values():
        (through if h.subject.id in leaning or h.object.id in leaning else elsewhere).update(
            (h.subject.id, h.object.id))
    for e in events.values():
        ids = {ref.id for refs in e.arguments.values() for ref in refs} | {
            ref.id for ref in (e.time, e.place) if ref is not None}
        (through if stand_in in ids else elsewhere).update(ids)
    dependents = sorted(k for k in through - elsewhere - named - {stand_in} if k in entities)
    if dependents:
        entities[stand_in].properties[DEPENDENTS] = dependents
