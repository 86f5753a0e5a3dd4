"""isA completion (KAG §2.4): chains from semanticType concepts up to the schema classes.

For every concept its isA chain is completed, in this order (each step only where the earlier
ones left a concept without a parent):

1. `schema_tree`: the concept is a node of a schema concept taxonomy: link along its path;
2. `head_word`: "Hungarian-American film director" isA "film director" (and "消化内科" isA
   "内科") when the shorter name is already a concept, a schema class or a taxonomy node
   (it never invents one);
3. `llm`: a hypernym predictor names broader concepts (only for concepts with instances);
4. `schema_class`: the top of each chain that reaches no schema class is linked to a concept
   named after the class of its instances, whose own parents follow the schema's class
   hierarchy (`class_chain`): "Legislative Body" isA "Government Agency" isA "Organization".

An edge that would close a cycle is refused and counted, and cycles already present in the
input are broken the same way. isA is emitted both as `Concept.parents` and as Relation
records; edges from the schema or a model carry no chunk_ids, those derived from extracted
names carry the child concept's.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, model_validator

from kgbuild.align.semantic import BELONG_TO, IS_A, concept_ref, semantic_relation
from kgbuild.llm.prompts import PromptLibrary, PromptTemplate
from kgbuild.llm.types import ChatRequest, Gateway, LLMCallError
from kgbuild.model import Concept, Entity, Relation
from kgbuild.schema import Schema
from kgbuild.text import concept_key

STEPS = ("schema_tree", "head_word", "llm", "schema_class", "class_chain")
MAX_HYPERNYMS = 3  # a model listing more is guessing; the nearest few are what a chain needs


class HypernymPredictor(Protocol):
    async def hypernyms(self, names: list[str], classes: list[str]) -> dict[str, list[str]]: ...


class SyncHypernymPredictor(Protocol):
    def hypernyms(self, names: list[str], classes: list[str]) -> dict[str, list[str]]: ...


@dataclass
class TaxonomyResult:
    concepts: list[Concept]
    relations: list[Relation]  # every isA edge of `concepts`, as Relation records
    completions: int  # isA edges added
    by_step: dict[str, int]
    cycles_broken: int  # edges refused (or input edges removed) because they close a cycle
    pending: list[str] = field(default_factory=list)  # names offered to the hypernym predictor


def _heads(key: str) -> list[str]:
    """Shorter names a compound's head may be, longest first (the nearest hypernym first):
    trailing words, or for a name written without spaces in CJK script trailing characters
    ("消化内科" -> "内科"), never a single character."""
    words = key.split(" ")
    if len(words) > 1:
        return [" ".join(words[i:]) for i in range(1, len(words))]
    if key.isascii():
        return []
    return [key[i:] for i in range(1, len(key) - 1)]


class _Taxonomy:
    def __init__(self, concepts: Sequence[Concept], entities: Sequence[Entity], schema: Schema,
                 belong_to: Iterable[Relation] | None) -> None:
        self.schema = schema
        self.concepts: dict[str, Concept] = {}
        for c in concepts:  # own copies: parents lists are extended below
            if c.id not in self.concepts:
                self.concepts[c.id] = c.model_copy(update={"parents": list(c.parents), "chunk_ids": list(c.chunk_ids)})
        self.by_key: dict[str, str] = {}
        for c in self.concepts.values():
            self.by_key.setdefault(concept_key(c.name), c.id)
        self.by_step: Counter[str] = Counter({s: 0 for s in STEPS})
        self.cycles_broken = 0
        self.no_provenance: set[tuple[str, str]] = set()  # schema and model edges
        self.chained: set[str] = set()
        self.instance_classes = self._instance_classes(entities, belong_to)
        self._break_input_cycles()

    # ------------------------------------------------ helpers

    def _instance_classes(self, entities: Sequence[Entity],
                          belong_to: Iterable[Relation] | None) -> dict[str, Counter[str]]:
        """concept id -> classes of the entities that belong to it, counted."""
        out: dict[str, Counter[str]] = {}
        if belong_to is not None:
            cls = {e.id: e.spg_class for e in entities}
            for r in belong_to:
                if r.predicate == BELONG_TO and r.subject.id in cls and r.object.id in self.concepts:
                    out.setdefault(r.object.id, Counter())[cls[r.subject.id]] += 1
            return out
        for e in entities:
            cid = self.by_key.get(concept_key(e.semantic_type)) if e.semantic_type else None
            if cid is not None:
                out.setdefault(cid, Counter())[e.spg_class] += 1
        return out

    def _reaches(self, start: str, target: str) -> bool:
        """Whether `target` is `start` or one of its isA ancestors."""
        stack, seen = [start], {start}
        while stack:
            node = stack.pop()
            if node == target:
                return True
            for p in self.concepts[node].parents if node in self.concepts else ():
                if p not in seen:
                    seen.add(p)
                    stack.append(p)
        return False

    def _ancestors(self, start: str) -> list[str]:
        out, stack, seen = [], [start], {start}
        while stack:
            node = stack.pop()
            out.append(node)
            for p in self.concepts[node].parents if node in self.concepts else ():
                if p not in seen:
                    seen.add(p)
                    stack.append(p)
        return out

    def _break_input_cycles(self) -> None:
        for c in self.concepts.values():
            kept: list[str] = []
            for p in c.parents:
                c.parents = kept  # test each edge against those kept so far
                if p != c.id and not self._reaches(p, c.id):
                    kept.append(p)
                else:
                    self.cycles_broken += 1
            c.parents = kept

    def ensure(self, name: str, description: str = "") -> str:
        """The concept with this name (by key), created without provenance when new."""
        key = concept_key(name)
        cid = self.by_key.get(key)
        if cid is None:
            cid = Concept.make_id(name)
            if cid not in self.concepts:
                self.concepts[cid] = Concept(id=cid, name=name.strip(), description=description)
            self.by_key[key] = cid
        elif description and not self.concepts[cid].description:
            self.concepts[cid].description = description
        return cid

    def add_edge(self, child: str, parent: str, step: str, *, provenance: bool = True) -> bool:
        if child == parent or parent in self.concepts[child].parents:
            return False
        if self._reaches(parent, child):
            self.cycles_broken += 1
            return False
        self.concepts[child].parents.append(parent)
        self.by_step[step] += 1
        if not provenance:
            self.no_provenance.add((child, parent))
        return True

    def schema_class(self, name: str) -> str | None:
        """The schema class a concept name spells (a class, not just an alias of one)."""
        cls = self.schema.resolve_class(name)
        return cls

    def class_concept(self, cls: str) -> str:
        """The concept named after a schema class, with its parents along schema.ancestors."""
        et = self.schema.entity_types.get(cls)
        ct = self.schema.concept_types.get(cls)
        cid = self.ensure(cls, (et.description if et else ct.description if ct else ""))
        if cid not in self.chained:
            self.chained.add(cid)
            child = cid
            for parent in self.schema.ancestors(cls):
                pid = self.ensure(parent, self.schema.entity_types[parent].description)
                self.add_edge(child, pid, "class_chain", provenance=False)
                child = pid
        return cid

    def tree_path(self, path: list[str], leaf: str | None = None) -> str:
        """Concepts along a schema taxonomy path, linked child isA parent; the leaf's id.

        `leaf` stands for the last node when the concept matched it by an alias."""
        ids = [self.ensure(n, self.schema.concept_node(path[: i + 1]).description) for i, n in enumerate(path)]
        if leaf is not None:
            ids[-1] = leaf
        for child, parent in zip(ids[1:], ids[:-1], strict=True):
            self.add_edge(child, parent, "schema_tree", provenance=False)
        return ids[-1]

    def find_paths(self, name: str) -> list[list[str]]:
        return self.schema.find_concept(name) or self.schema.find_concept(concept_key(name))

    def is_top_class(self, cid: str) -> bool:
        return self.schema_class(self.concepts[cid].name) is not None

    # ------------------------------------------------ steps

    def step_schema_tree(self) -> None:
        for cid in list(self.concepts):
            for path in self.find_paths(self.concepts[cid].name):
                self.tree_path(path, leaf=cid)

    def _known(self, name: str) -> str | None:
        """A concept id for a shorter name, only if it is already known somewhere."""
        key = concept_key(name)
        if key in self.by_key:
            return self.by_key[key]
        cls = self.schema_class(name)
        if cls is not None:
            return self.class_concept(cls)
        paths = self.find_paths(name)
        return self.tree_path(paths[0]) if paths else None

    def step_head_word(self) -> None:
        for cid in list(self.concepts):
            c = self.concepts[cid]
            if c.parents or self.is_top_class(cid):
                continue
            for head in _heads(concept_key(c.name)):
                parent = self._known(head)
                if parent is not None:
                    self.add_edge(cid, parent, "head_word")
                    break

    def pending(self) -> list[str]:
        """Names of the instance-bearing concepts still without a parent, for the predictor."""
        return [self.concepts[cid].name for cid in self.concepts
                if cid in self.instance_classes and not self.concepts[cid].parents and not self.is_top_class(cid)]

    def classes(self) -> list[str]:
        return [*self.schema.entity_types, *self.schema.concept_types]

    def apply_hypernyms(self, predicted: dict[str, list[str]], names: list[str]) -> None:
        by_name = {concept_key(k): v for k, v in predicted.items() if isinstance(v, list)}
        for name in names:
            cid = self.by_key[concept_key(name)]
            for hyper in [h for h in by_name.get(concept_key(name), []) if isinstance(h, str)][:MAX_HYPERNYMS]:
                hyper = hyper.strip()
                if not hyper or concept_key(hyper) == concept_key(name):
                    continue
                cls = self.schema_class(hyper)
                if cls is not None:
                    parent = self.class_concept(cls)
                elif concept_key(hyper) in self.by_key:
                    parent = self.by_key[concept_key(hyper)]
                elif paths := self.find_paths(hyper):
                    parent = self.tree_path(paths[0])
                else:
                    parent = self.ensure(hyper)
                self.add_edge(cid, parent, "llm", provenance=False)

    def step_schema_class(self) -> None:
        # stable: input order on ties
        ranked = sorted(self.instance_classes.items(), key=lambda kv: -sum(kv[1].values()))
        for cid, counts in ranked:
            cls = self.schema_class(max(counts, key=lambda k: counts[k]))  # first seen on a tie
            if cls is None:
                continue
            chain = self._ancestors(cid)
            if any(self.is_top_class(a) for a in chain if a in self.concepts):
                continue
            target = self.class_concept(cls)
            for top in chain:
                if top in self.concepts and not self.concepts[top].parents:
                    self.add_edge(top, target, "schema_class", provenance=False)
        for cid in list(self.concepts):  # every class concept gets the class hierarchy above it
            cls = self.schema_class(self.concepts[cid].name)
            if cls is not None and concept_key(cls) == concept_key(self.concepts[cid].name):
                self.class_concept(cls)

    def result(self, pending: list[str]) -> TaxonomyResult:
        relations = []
        for c in self.concepts.values():
            for p in c.parents:
                parent = self.concepts.get(p)
                if parent is None:
                    continue  # a dangling parent id from the input: no node to point at
                chunks = [] if (c.id, p) in self.no_provenance else c.chunk_ids
                relations.append(semantic_relation(concept_ref(c), IS_A, concept_ref(parent), chunks))
        by_step = dict(self.by_step)
        return TaxonomyResult(concepts=list(self.concepts.values()), relations=relations,
                              completions=sum(by_step.values()), by_step=by_step,
                              cycles_broken=self.cycles_broken, pending=pending)


def complete_isa(concepts: list[Concept], entities: list[Entity], schema: Schema, *,
                 hypernym: SyncHypernymPredictor | None = None,
                 belong_to: Iterable[Relation] | None = None) -> TaxonomyResult:
    """isA completion with a synchronous (or no) hypernym predictor; see the module doc.

    `belong_to` (the relations of `link_concepts`) says which entities belong to which concept;
    without it an entity belongs to the concept whose name matches its semantic_type.
    """
    t = _Taxonomy(concepts, entities, schema, belong_to)
    t.step_schema_tree()
    t.step_head_word()
    pending = t.pending()
    if hypernym is not None and pending:
        predicted = hypernym.hypernyms(pending, t.classes())
        if inspect.isawaitable(predicted):
            if inspect.iscoroutine(predicted):
                predicted.close()
            raise TypeError("the hypernym predictor is async: use acomplete_isa")
        t.apply_hypernyms(predicted, pending)
    t.step_schema_class()
    return t.result(pending)


async def acomplete_isa(concepts: list[Concept], entities: list[Entity], schema: Schema, *,
                        hypernym: HypernymPredictor | None = None,
                        belong_to: Iterable[Relation] | None = None) -> TaxonomyResult:
    """`complete_isa` with an async hypernym predictor (a model behind the gateway)."""
    t = _Taxonomy(concepts, entities, schema, belong_to)
    t.step_schema_tree()
    t.step_head_word()
    pending = t.pending()
    if hypernym is not None and pending:
        t.apply_hypernyms(await hypernym.hypernyms(pending, t.classes()), pending)
    t.step_schema_class()
    return t.result(pending)


# ---------------------------------------------------------------- a model as the predictor

class HypernymsReply(BaseModel):
    """The predictor's reply, {"hypernyms": {concept: [broader concept, ...]}}; a bare mapping of
    concepts is read the same way, and one hypernym given as text is a list of one."""

    model_config = ConfigDict(extra="ignore")

    hypernyms: dict[str, list[str]]

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, value: Any) -> Any:
        if isinstance(value, dict) and not isinstance(value.get("hypernyms"), dict):
            value = {"hypernyms": value}
        if isinstance(value, dict) and isinstance(value["hypernyms"], dict):
            value = {"hypernyms": {str(k): _names(v) for k, v in value["hypernyms"].items()}}
        return value

    def for_names(self, names: list[str]) -> dict[str, list[str]]:
        """name -> hypernyms for the asked `names` (matched by concept key); other keys are ignored."""
        asked = {concept_key(n): n for n in names}
        out: dict[str, list[str]] = {}
        for key, values in self.hypernyms.items():
            name = asked.get(concept_key(key))
            if name is not None:
                out[name] = values
        return out


def _names(value: Any) -> list[str]:
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [v.strip() for v in values if isinstance(v, str) and v.strip()]


class LLMHypernyms:
    """Hypernym prediction through the model gateway, in batches (stage `align.hypernym`).

    Each batch is one `Gateway.ask` for a `HypernymsReply`: a fenced or chatty reply is read, and one
    that answers for none of the asked concepts is re-asked (`max_reasks` times). An unusable reply is
    forgotten by the gateway's cache (so a later build asks again) and its batch predicts nothing; a
    failed call does the same rather than failing the build. Both count in `failures`.
    """

    def __init__(self, gateway: Gateway, batch_size: int = 40, max_tokens: int | None = None,
                 template: PromptTemplate | None = None, *, reask: PromptTemplate | None = None,
                 max_reasks: int = 1) -> None:
        self.gateway = gateway
        self.template = template or PromptLibrary("en").get("align_hypernym")  # prompts/<lang>/align_hypernym.yaml
        self.reask = (reask or PromptLibrary("en").get("reask")).reask(max_reasks)
        self.batch_size = max(1, batch_size)
        self.max_tokens = max_tokens
        self.failures = 0

    def request(self, names: list[str], classes: list[str]) -> ChatRequest:
        messages = self.template.render(classes=", ".join(classes), concepts="\n".join(f"- {n}" for n in names))
        return ChatRequest(stage="align.hypernym", template=self.template.key, json_mode=True,
                           max_tokens=self.max_tokens, messages=messages)

    async def _batch(self, names: list[str], classes: list[str]) -> dict[str, list[str]]:
        def problem(reply: HypernymsReply) -> str | None:
            # An empty mapping is an answer ("nothing broader"); keys that are none of ours are not.
            if reply.hypernyms and not reply.for_names(names):
                return "none of the keys is one of the concepts listed; use the concept names exactly as given"
            return None

        try:
            reply = await self.gateway.ask(self.request(names, classes), HypernymsReply, reask=self.reask,
                                           check=problem)
        except LLMCallError:  # the call failed, or UnusableReply: no usable reply after the re-asks
            self.failures += 1
            return {}
        return reply.for_names(names)

    async def hypernyms(self, names: list[str], classes: list[str]) -> dict[str, list[str]]:
        batches = [names[i:i + self.batch_size] for i in range(0, len(names), self.batch_size)]
        out: dict[str, list[str]] = {}
        for part in await asyncio.gather(*(self._batch(b, classes) for b in batches)):
            out.update(part)
        return out
