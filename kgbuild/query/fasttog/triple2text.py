"""Triple2Text: a community's triples as plain sentences for the model (FastToG reads communities
as short texts, not as triple lists).

    relation   "Grace Hopper born in New York City (time: 1906)."
    role       "In Founding: founded, the creator is Ada."
    mention    "The passage "EDSAC §1" mentions EDSAC."

A community's text names its members, then the sentences of the edges that link it to where the
chain came from, then its own; a member no sentence names is listed so that nothing is hidden.
"""

from __future__ import annotations

from collections.abc import Sequence

from kgbuild.graph.projection import MENTION, ROLE, GraphProjection, predicate_text
from kgbuild.query.fasttog.community import Community


def triple_sentence(projection: GraphProjection, edge: int) -> str:
    head = projection.node_names[int(projection.edge_head[edge])]
    tail = projection.node_names[int(projection.edge_tail[edge])]
    kind = projection.edge_kind[edge]
    if kind == MENTION:
        return f'The passage "{head}" mentions {tail}.'
    if kind == ROLE:
        return f"In {head}, the {predicate_text(projection.predicate(edge))} is {tail}."
    quals = projection.qualifiers.get(edge)
    extra = " (" + "; ".join(f"{q.predicate}: {q.value}" for q in quals) + ")" if quals else ""
    return f"{head} {predicate_text(projection.predicate(edge))} {tail}{extra}."


def member_labels(projection: GraphProjection, nodes: Sequence[int]) -> list[str]:
    """Members by name; two members of the same name (a person and a film) also by class."""
    names = [projection.node_names[n] for n in nodes]
    twice = {name for name in names if names.count(name) > 1}
    return [f"{name} ({projection.node_class[n]})" if name in twice and projection.node_class[n] else name
            for name, n in zip(names, nodes, strict=True)]


def community_text(projection: GraphProjection, community: Community) -> str:
    """`[members] sentences`: the linking edges' sentences first, then the community's own."""
    edges = list(dict.fromkeys([*community.links, *community.edges]))
    sentences = [triple_sentence(projection, e) for e in edges]
    named = {int(x) for e in edges for x in (projection.edge_head[e], projection.edge_tail[e])}
    labels = member_labels(projection, community.nodes)
    alone = [label for label, n in zip(labels, community.nodes, strict=True) if n not in named]
    if alone:
        sentences.append("Also: " + ", ".join(alone) + ".")
    return f"[{'; '.join(labels)}] " + " ".join(sentences)
