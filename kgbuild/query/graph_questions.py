"""Questions read off the built graph's own facts: training data for the trained parts of the graph
strategies when a corpus has no QA file, or too few questions (self-supervision, no external QA).

Each question is a walk the graph states, worded from its names and predicates, whose answer is
the node the walk ends at:

- one fact, `(s, p, o)`: "John von Neumann born in where?" -> Budapest;
- two facts, `(s, p1, m), (m, p2, o)`, the middle node unnamed: "Maurice Wilkes base design on a
  Work which written by who?" -> John von Neumann (the bridge questions of multi-hop sets);
- a passage and a fact, `s` and `m` named in one passage, `(m, p2, o)`: "In the passage on Maurice
  Wilkes, a Person born in where?" -> Budapest (the walk through the mutual index).

The wording is a template, not English prose: what the scorer learns from is the question's
embedding next to the triples' and the distances from the named entity, so the words a question
shares with a predicate and a name matter, not its grammar. The question word follows the answer's
class (who, where, when, what). Sampling is seeded: the same graph and seed give the same questions.
Taxonomy edges (belongTo, isA) and date-valued starts are left out: they make no question a reader asks.
"""

from __future__ import annotations

import random

from kgbuild.graph.projection import CHUNK, MENTION, RELATION, GraphProjection, predicate_text
from kgbuild.query.evaluate import QAItem
from kgbuild.query.retrieval import answer_types

_TAXONOMY = frozenset({"belongto", "isa"})
_KINDS = ("fact", "chain", "passage")


def _wh(projection: GraphProjection, node: int) -> str:
    cls = (projection.node_class[node] or "").casefold()
    if cls in answer_types.CLASSES[answer_types.PERSON]:
        return "who"
    if cls in answer_types.CLASSES[answer_types.PLACE]:
        return "where"
    if cls in ("date", "time"):
        return "when"
    return "what"


def _facts(projection: GraphProjection) -> list[int]:
    """Relation edges between two named nodes, taxonomy left out."""
    out = []
    for e in range(projection.n_edges):
        if projection.edge_kind[e] != RELATION:
            continue
        if projection.predicate(e).casefold() in _TAXONOMY:
            continue
        head, tail = int(projection.edge_head[e]), int(projection.edge_tail[e])
        if projection.node_kind[head] != "entity" or projection.node_kind[tail] == CHUNK:
            continue
        if (projection.node_class[head] or "").casefold() in ("date", "time"):
            continue
        out.append(e)
    return out


def generated_questions(projection: GraphProjection, n: int, seed: int = 0) -> list[QAItem]:
    """Up to `n` distinct questions, a third of each kind where the graph has them."""
    rng = random.Random(seed)
    facts = _facts(projection)
    if not facts or n <= 0:
        return []
    by_head: dict[int, list[int]] = {}
    for e in facts:
        by_head.setdefault(int(projection.edge_head[e]), []).append(e)
    mentioned: dict[int, list[int]] = {}  # entity -> the passages that mention it
    for e in range(projection.n_edges):
        if projection.edge_kind[e] == MENTION:
            mentioned.setdefault(int(projection.edge_tail[e]), []).append(int(projection.edge_head[e]))
    in_passage: dict[int, list[int]] = {}  # passage -> the entities it mentions
    for node, passages in mentioned.items():
        for chunk in passages:
            in_passage.setdefault(chunk, []).append(node)

    name = projection.node_names
    out: dict[str, QAItem] = {}
    tries = 0
    while len(out) < n and tries < 20 * n:
        tries += 1
        kind = _KINDS[tries % len(_KINDS)]
        e = rng.choice(facts)
        s, m = int(projection.edge_head[e]), int(projection.edge_tail[e])
        p1 = predicate_text(projection.predicate(e))
        if kind == "fact":
            question, answer = f"{name[s]} {p1} {_wh(projection, m)}?", m
        elif kind == "chain":
            onward = [f for f in by_head.get(m, []) if int(projection.edge_tail[f]) != s]
            if not onward:
                continue
            f = rng.choice(onward)
            answer = int(projection.edge_tail[f])
            question = (f"{name[s]} {p1} a {projection.node_class[m] or 'thing'} which "
                        f"{predicate_text(projection.predicate(f))} {_wh(projection, answer)}?")
        else:
            passages = mentioned.get(s, [])
            others = [x for c in passages for x in in_passage.get(c, []) if x != s and by_head.get(x)]
            if not others:
                continue
            middle = rng.choice(others)
            f = rng.choice(by_head[middle])
            answer = int(projection.edge_tail[f])
            if answer == s:
                continue
            question = (f"In the passage on {name[s]}, a {projection.node_class[middle] or 'thing'} "
                        f"{predicate_text(projection.predicate(f))} {_wh(projection, answer)}?")
        if question not in out:
            out[question] = QAItem(id=f"generated-{len(out)}", question=question, answer=name[answer])
    return list(out.values())

