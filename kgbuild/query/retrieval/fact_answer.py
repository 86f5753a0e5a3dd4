"""The answer a graph fact gives, before any span is cut from the passages.

A report question names its subject and what it asks of it: "黔穹航空的控股股东是哪家公司？" (the
controlling shareholder of a named company), "晋瑭高速的董事长是谁？", "燕翎风电的总部位于哪里？",
"珂睿光学2025年上半年的营业收入是多少？". The graph holds that fact as one relation of the named entity,
with the words its sentence used for the link (the relation's "said" property: 控股股东, 董事长, 总部设在)
and its qualifiers (时间: 2025年上半年). A span cut from the top passages has only word overlap and
distance to go on, and in a report's long comma-chained sentences and tables the nearest name of
the right kind is often another company's or another period's.

So: among the relations of the entities the question names (exactly or by an alias), the one whose
predicate and said words share the question's rarest words, and whose other end is of the kind
asked, answers; its qualifiers break ties between periods. Nothing here is checked by a model: the
answer is given as unverified, with the fact it came from as a note.

Only a question that asks ONE relation of a named entity gets such an answer, and only when the
relation reads the way the question asks:
- no chain through unnamed entities ("the father of the woman who translated ..."), no
  "E是哪家公司的控股股东" (the named entity holds the role: the answer is at the relation's other end
  from where "E的控股股东" finds it), no question whose kind the type gate cannot check (什么, "what");
- in English every word of the predicate that is not a stop word is in the question, and
  "(A, father of, B)" answers "the father of B" with A, never "the father of A" with B;
- a question that names a year asks of a fact of that year, when the fact is dated at all;
- a question word that names one of the fact's qualifiers (同比增长, 比例) asks for that qualifier's value.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from kgbuild.graph.projection import predicate_text
from kgbuild.query.retrieval import answer_types as at
from kgbuild.query.retrieval.answer_check import check_type, classes_of
from kgbuild.query.retrieval.index import ENTITY, MutualIndex, RelationRow
from kgbuild.query.retrieval.question_shape import chain_markers
from kgbuild.query.retrieval.text import content_words
from kgbuild.query.types import FACT_NOTE
from kgbuild.text_language import has_cjk

# A qualifier's words only choose between facts that already match: a period alone answers nothing.
QUALIFIER_SHARE = 0.5
_DATE = re.compile(r"(\d{4})年(?:(\d{1,2})月)?(?:(\d{1,2})日)?")
_LOCATED = frozenset({"locatedIn", "headquarteredIn"})
_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")
# "E是哪家公司的控股股东？": E is described as holding the role the words name
_HOLDS_ROLE = re.compile(r"是[^的？?]*的")


@dataclass(frozen=True)
class FactAnswer:
    answer: str
    relation: RelationRow
    score: float

    def note(self, index: MutualIndex) -> str:
        rel = self.relation
        said = f" ({rel.said})" if rel.said else ""
        quals = f" [{'; '.join(rel.qualifiers)}]" if rel.qualifiers else ""
        return (f"{FACT_NOTE}: ({index.node_names[rel.subject]}, {rel.predicate}{said}, "
                f"{index.node_names[rel.object]}){quals}")


def _link_words(rel: RelationRow) -> set[str]:
    # "headquarteredIn" -> "headquartered in": an English question says the words, not the identifier
    return set(content_words(f"{predicate_text(rel.predicate)} {rel.said}"))


def _reads_as_asked(rel: RelationRow, node: int, asked: set[str]) -> bool:
    """An English predicate whose every content word the question says, the named entity at the end the
    question puts it: "the father of B" is the subject of (A, father of, B)."""
    said = predicate_text(rel.predicate)
    if not set(content_words(said)) <= asked:
        return False
    return not (said.endswith(" of") and rel.subject == node)


def _qualifier_asked(rel: RelationRow, asked: set[str]) -> str:
    """The value of the fact's qualifier whose name the question says (同比增长多少 -> 8.3%); "" if none."""
    for q in rel.qualifiers:
        key, _, value = q.partition(": ")
        if value and set(content_words(key)) & asked:
            return value
    return ""


def _latest(rel: RelationRow) -> tuple[int, int, int]:
    """The latest date among the fact's qualifiers ((0, 0, 0) without one): of two facts that match a
    question alike (the chairman who left, the one elected after), the later is the one a report's
    reader means when the question names no period."""
    found = [tuple(int(g or 0) for g in m.groups()) for q in rel.qualifiers for m in _DATE.finditer(q)]
    return max(found, default=(0, 0, 0))  # type: ignore[return-value]


def as_written(index: MutualIndex, node: int, rel: RelationRow) -> str:
    """A place's name with the places it is in, as the text that states the fact writes them together
    (海淀区 in 北京市: "北京市海淀区"); the name alone where the text does not."""
    name = index.node_names[node]
    texts = [index.chunk_text[c] for c in rel.chunks]
    current, seen = node, {node}
    while True:
        parents = [index.relations[r].object for r in index.node_relations[current]
                   if index.relations[r].subject == current and index.relations[r].predicate == "locatedIn"]
        longer = next((index.node_names[p] + name for p in parents
                       if p not in seen and any(index.node_names[p] + name in t for t in texts)), None)
        if longer is None:
            return name
        current = next(p for p in parents if index.node_names[p] + name == longer)
        seen.add(current)
        name = longer


def fact_answer(question: str, index: MutualIndex, own: Collection[int]) -> FactAnswer | None:
    """The best fact of the question's own entities (`own`, index nodes) for `question`; None when no
    relation of theirs shares a question word with its predicate or said words and ends in an entity
    of the kind asked."""
    want = at.expected(question)
    if want.kind in (at.YESNO, at.CHOICE, at.ANY) or not own or chain_markers(question) > 0:
        return None
    chinese = has_cjk(question)
    if chinese and _HOLDS_ROLE.search(question):
        return None
    years = set(_YEAR.findall(question))
    named = {w for node in own for w in content_words(index.node_names[node])}
    asked = {w for w in content_words(question) if w not in named}
    idf, unseen = index.idf()  # computed once per index
    weight = {w: idf.get(w, unseen) for w in asked}
    if not weight:
        return None
    best: FactAnswer | None = None
    seen: set[int] = set()
    for node in own:
        for r in index.node_relations[node]:
            if r in seen:
                continue
            seen.add(r)
            rel = index.relations[r]
            other = rel.object if rel.subject == node else rel.subject
            if other in own or index.node_kind[other] != ENTITY:
                continue
            if not chinese and not _reads_as_asked(rel, node, asked):
                continue
            dated = {y for q in rel.qualifiers for y in _YEAR.findall(q)}
            if years and dated and not years & dated:
                continue  # the question's year is not this fact's
            said = _link_words(rel)
            hit = sum(v for w, v in weight.items() if w in said)
            if hit <= 0:
                continue
            quals = set(content_words(" ".join(rel.qualifiers)))
            score = hit + QUALIFIER_SHARE * sum(v for w, v in weight.items() if w in quals and w not in said)
            if best is not None and (score, _latest(rel)) <= (best.score, _latest(best.relation)):
                continue  # full ties keep the first fact in index order: the same answer on every run
            name = _qualifier_asked(rel, asked) or index.node_names[other]
            if check_type(question, name, classes_of(index, name)).fits is False:
                continue
            if want.kind == at.PLACE and rel.predicate in _LOCATED and name == index.node_names[other]:
                name = as_written(index, other, rel)
            best = FactAnswer(name, rel, score)
    return best
