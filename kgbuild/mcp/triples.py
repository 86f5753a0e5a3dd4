"""`triples(subject?, predicate?, object?)`: the graph's relations and event roles filtered by their ends
and predicate, over the explorer's index of the loaded graph (kgbuild/serve/data.py GraphIndex).

The explorer lists the triples of one node; an agent asks by pattern ("who bornIn Budapest?"), so the
filter lives here, on the same index: an end is a node id or an exact name or alias (any case, as the
explorer's search folds it), the predicate is matched ignoring case. Each row carries its chunk ids;
`supporting_passages` (the explorer's `triple`) gives the passages and the stating sentence.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kgbuild.graph.projection import RELATION, ROLE
from kgbuild.mcp.records import TripleRow
from kgbuild.serve.data import GraphIndex, NotFound, page_of
from kgbuild.text import search_fold

CHUNK_IDS_SHOWN = 20
_NAME_CANDIDATES = 50  # exact names rank first in the explorer's search: the first page holds them all


def resolve_nodes(index: GraphIndex, ref: str) -> list[int]:
    """The nodes `ref` names: the node with that id, else every searchable node with that exact name or
    alias; NotFound when none."""
    at = index.p.node_pos.get(ref)
    if at is not None:
        return [at]
    folded = search_fold(ref).strip()
    hits = index.search(ref, None, None, 0, _NAME_CANDIDATES)["items"]
    found = [index.p.node_pos[h.id] for h in hits if search_fold(h.matched).strip() == folded]
    if not found:
        raise NotFound(f"no node with id or name {ref!r} in this build (search_entities finds names)")
    return found


def find_triples(index: GraphIndex, subject: str | None, predicate: str | None, obj: str | None,
                 offset: int, limit: int) -> dict[str, Any]:
    """A page of TripleRow; with an end given, relations first, then by predicate and the ends' names."""
    p = index.p
    heads = set(resolve_nodes(index, subject)) if subject else None
    tails = set(resolve_nodes(index, obj)) if obj else None
    wanted_preds: set[int] | None = None
    if predicate:
        key = predicate.strip().casefold()
        wanted_preds = {i for name, i in p.pred_pos.items() if name.casefold() == key}

    if heads is not None or tails is not None:
        # Walk the incident lists of the named end with fewer nodes rather than every edge.
        from_heads = heads is not None and (tails is None or len(heads) <= len(tails))
        ends = heads if from_heads else tails
        assert ends is not None
        candidates = sorted({e for n in ends for e in p.incident[n] if index.structural[e]})
    else:
        candidates = np.flatnonzero(index.structural).tolist()
    chosen = [e for e in candidates
              if (wanted_preds is None or int(p.edge_pred[e]) in wanted_preds)
              and (heads is None or int(p.edge_head[e]) in heads)
              and (tails is None or int(p.edge_tail[e]) in tails)]
    if heads is not None or tails is not None:
        # A node's few triples read best grouped; the whole graph's (a predicate alone, or nothing) stay in
        # the projection's own order, which is stable across calls, so paging it needs no sort per call.
        chosen.sort(key=lambda e: (p.edge_kind[e] != RELATION, p.predicate(e), p.node_names[int(p.edge_head[e])],
                                   p.node_names[int(p.edge_tail[e])], p.edge_ids[e]))
    return page_of([row(index, e) for e in chosen[offset:offset + limit]], len(chosen), offset, limit)


def row(index: GraphIndex, e: int) -> TripleRow:
    p = index.p
    chunks = p.edge_chunks[e]
    kind = p.edge_kind[e]
    assert kind in (RELATION, ROLE)
    return TripleRow(id=p.edge_ids[e], kind=kind, subject=index.ref(int(p.edge_head[e])), predicate=p.predicate(e),
                     object=index.ref(int(p.edge_tail[e])), qualifiers=index.qualifiers(e),
                     chunk_ids=[p.node_ids[c] for c in chunks[:CHUNK_IDS_SHOWN]], chunk_total=len(chunks))
