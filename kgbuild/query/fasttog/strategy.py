"""Fast Think-on-Graph (Liang & Gu 2024): reasoning chains that grow community by community.

From the start community (the question's linked entities, at most `cap` of them) up to W chains
grow to depth D. Each growth step is a local community search around the chain's last community:
sample its neighbourhood (hop n kept with probability rho^(n-1), seeded per question), detect
communities with Louvain under the size cap, keep the unvisited ones adjacent to the current
community, prune coarsely to the top k by modularity and finely by the model (W at the start, then
one per chain; "none" stops a chain). After every depth the model reasons over the chains
(Triple2Text, the shared start community written once); "Unknown" goes one community deeper. When
depth D is reached, or every chain has stopped, a fallback call answers from what was gathered,
and the Answer says so.

Model calls per question: at most 1 + W(D-1) prune calls + D reasoning calls + 1 fallback, within
the paper's worst case 2·W·D + D + 2, which the Answer reports beside the count.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from kgbuild.graph.projection import CHUNK, GraphProjection
from kgbuild.query.fasttog.community import (
    Community,
    adjacent_communities,
    capped_partition,
    community_modularity,
    edges_between,
    local_graph,
)
from kgbuild.query.fasttog.replies import NO_CHOICE, NO_REASON, PruneReply, ReasonReply
from kgbuild.query.fasttog.sampling import sample_neighbourhood
from kgbuild.query.fasttog.triple2text import community_text
from kgbuild.query.graph_answer import empty_answer
from kgbuild.query.graph_evidence import evidence_chunks, to_chunks, to_triples
from kgbuild.query.model_session import ModelSession
from kgbuild.query.trace import Trace, Usage
from kgbuild.query.types import Answer, StepResult
from kgbuild.query_settings import FastToGSettings

if TYPE_CHECKING:
    from kgbuild.query.graph_linking import QuestionLinker
    from kgbuild.query.strategy import Budget, QueryResources

NAME = "fasttog"
STAGE = "query.fasttog"


def worst_case_calls(width: int | None = None, depth: int | None = None) -> int:
    """The paper's bound on model calls per question, 2·W·D + D + 2: of the default W and D unless given."""
    given = {"width": width, "depth": depth}
    return FastToGSettings().model_copy(update={k: v for k, v in given.items() if v is not None}).worst_case_calls


@dataclass
class _Chain:
    communities: list[Community] = field(default_factory=list)
    live: bool = True


@dataclass
class _Search:
    """One local community search: what it sampled and found (for the trace)."""

    sampled: int
    communities: int
    level: int
    split: bool
    candidates: list[Community]


class FastToGStrategy:
    def __init__(self, projection: GraphProjection, linker: QuestionLinker, session: ModelSession,
                 settings: FastToGSettings | None = None) -> None:
        self.projection = projection
        self.linker = linker
        self.session = session
        self.settings = FastToGSettings() if settings is None else settings
        self._mask = projection.edge_mask(self.settings.edge_kinds)
        self.last_usage = Usage()  # the model's share of the last question (calls, tokens, model_seconds)

    @classmethod
    def create(cls, resources: QueryResources, budget: Budget) -> FastToGStrategy:
        return cls(resources.projection(), resources.question_linker(cached_embeddings=budget.use_cache),
                   ModelSession(resources.config, resources.workspace, use_cache=budget.use_cache),
                   resources.config.query.fasttog)

    def close(self) -> None:
        self.session.close()

    # ---------------------------------------------------------------- one question

    def answer(self, question: str, budget: Budget) -> Answer:
        trace = Trace(self.session)
        s, p = self.settings, self.projection
        # Seeded by the question, not by the order questions come in: a rerun samples the same nodes.
        rng = np.random.default_rng([s.seed, zlib.crc32(question.encode("utf-8"))])
        start = self._start_community(question)
        if not start:
            return trace.finish(empty_answer(question, NAME))
        start_community = Community(tuple(start), 0.0, (), tuple(edges_between(p, start, start, self._mask)))
        visited = set(start)
        chains: list[_Chain] = []
        reply: ReasonReply | None = None
        depth_reached = 0
        for depth in range(1, s.depth + 1):
            grew = self._grow(question, depth, start_community, chains, visited, rng, trace)
            if not grew:
                break  # every chain stopped: nothing new to reason over
            depth_reached = depth
            reply = self._reason(question, depth, start_community, chains, trace)
            if reply.known:
                break
        answered = reply is not None and reply.known
        notes: list[str] = []
        if reply is None or not reply.known:
            why = (f"depth D={s.depth} exhausted" if depth_reached == s.depth
                   else f"every chain stopped at depth {depth_reached}")
            reply = self._fallback(question, start_community, chains, trace)
            notes.append(f"fallback ({why}): the answer comes from the chains gathered and was not confirmed "
                         "by the reasoning step" if reply.known else f"fallback ({why}): no answer in the chains")
        used = self.last_usage = trace.used()
        notes.append(f"model calls: {used.calls} (worst case 2·W·D + D + 2 = {s.worst_case_calls} "
                     f"for W={s.width}, D={s.depth})")
        units = self._evidence_units(start_community, chains)
        chunk_nodes = evidence_chunks(p, units, limit=s.max_passages)
        edges = [e for edges, _ in units for e in edges]
        text = reply.answer.strip() if reply.known else ""
        return trace.finish(Answer(question=question, answer=text, resolved=answered, mode="solver", strategy=NAME,
                                   triples=to_triples(p, edges), chunks=to_chunks(p, chunk_nodes),
                                   facts=[community_text(p, start_community),
                                          *(community_text(p, c) for chain in chains for c in chain.communities)],
                                   plan=[self._chain_label(c) for c in chains], notes=notes))

    def _start_community(self, question: str) -> list[int]:
        """The linked entities, best first, at most `cap`; passages only when no entity was linked."""
        linked = self.linker.link(question)
        ranked = sorted(linked.seeds, key=lambda n: (-linked.seeds[n], n))
        nodes = [n for n in ranked if self.projection.node_kind[n] != CHUNK] or ranked
        return nodes[: self.settings.cap]

    def _search(self, current: Community, visited: set[int], rng: np.random.Generator) -> _Search:
        s, p = self.settings, self.projection
        near = sample_neighbourhood(p, current.nodes, s.hops, s.rho, rng, edge_mask=self._mask, exclude=visited,
                                    max_nodes=s.max_local_nodes)
        local = local_graph(p, near, self._mask)
        partition = capped_partition(local, s.cap, int(rng.integers(2**31)))
        scores = community_modularity(local, partition.communities)
        found = adjacent_communities(p, current.nodes, partition, scores, s.top_k, self._mask)
        return _Search(len(near), len(partition.communities), partition.level, partition.split, found)

    def _grow(self, question: str, depth: int, start: Community, chains: list[_Chain], visited: set[int],
              rng: np.random.Generator, trace: Trace) -> bool:
        """Extend the chains by one community each (at depth 1: open up to W chains); True if any grew."""
        if depth == 1:
            chosen = self._step(question, depth, 0, [start], self.settings.width, visited, rng, trace)
            chains.extend(_Chain([c]) for c in chosen)
            return bool(chosen)
        grew = False
        for i, chain in enumerate(chains, 1):
            if not chain.live:
                continue
            chosen = self._step(question, depth, i, [start, *chain.communities], 1, visited, rng, trace)
            if chosen:
                chain.communities.append(chosen[0])
                grew = True
            else:
                chain.live = False
        return grew

    def _step(self, question: str, depth: int, chain: int, path: list[Community], count: int, visited: set[int],
              rng: np.random.Generator, trace: Trace) -> list[Community]:
        """One local community search from the end of `path` and the model's pick of `count`."""
        t = trace.timer()
        found = self._search(path[-1], visited, rng)
        chosen: list[Community] = []
        reply = NO_CHOICE
        if found.candidates:  # nothing adjacent: the chain stops without a call
            texts = [community_text(self.projection, c) for c in found.candidates]
            reply = self.session.ask(
                "fasttog_prune", f"{STAGE}.prune", PruneReply, unknown=NO_CHOICE, question=question,
                chain="\n".join(community_text(self.projection, c) for c in path),
                candidates="\n".join(f"{i}. {t}" for i, t in enumerate(texts, 1)), count=count)
            picks = [n - 1 for n in dict.fromkeys(reply.selected) if 1 <= n <= len(texts)][:count]
            chosen = [found.candidates[i] for i in picks]
        for c in chosen:
            visited.update(c.nodes)
        p = self.projection
        level = "no edges" if found.level < 0 else f"level {found.level}"
        notes = [f"sampled {found.sampled} nodes; {found.communities} communities ({level}"
                 + (", a too-big community split" if found.split else "") + f"); {len(found.candidates)} adjacent "
                 "after modularity pruning",
                 *(f"Q={c.modularity:.3f} [{'; '.join(p.node_names[n] for n in c.nodes)}]" for c in found.candidates)]
        result = StepResult(how="graph" if chosen else "nothing",
                            bound={"community": [p.node_names[n] for c in chosen for n in c.nodes]},
                            triples=[p.edge_ids[e] for c in chosen for e in (*c.links, *c.edges)] or None,
                            notes=notes, decided_by="model" if found.candidates else "kgbuild",
                            error=None if chosen else ("the model chose none" if found.candidates
                                                       else "no unvisited community is adjacent"))
        label = "start: choose chains" if depth == 1 else f"chain {chain}: next community"
        trace.add(f"depth {depth}", label, result, t)
        return chosen

    # ---------------------------------------------------------------- reasoning

    def _chains_text(self, chains: list[_Chain]) -> str:
        lines = []
        for i, chain in enumerate(chains, 1):
            lines.append(f"Chain {i}:")
            lines += [f"  {j}. {community_text(self.projection, c)}" for j, c in enumerate(chain.communities, 1)]
        return "\n".join(lines) or "(none)"

    def _passages_json(self, start: Community, chains: list[_Chain]) -> str:
        p = self.projection
        chunks = evidence_chunks(p, self._evidence_units(start, chains), limit=self.settings.max_passages)
        return json.dumps([{"id": p.node_ids[c], "text": p.chunk_text[c]} for c in chunks], ensure_ascii=False)

    def _evidence_units(self, start: Community, chains: list[_Chain]) -> list[tuple[list[int], list[int]]]:
        """Ranked (edges, nodes) units: the communities by depth (chain order within a depth), then
        the passages that support the start community's entities."""
        p = self.projection
        units: list[tuple[list[int], list[int]]] = [(list(start.edges), list(start.nodes))]
        deepest = max((len(c.communities) for c in chains), default=0)
        for d in range(deepest):
            for chain in chains:
                if d < len(chain.communities):
                    c = chain.communities[d]
                    units.append(([*c.links, *c.edges], list(c.nodes)))
        units.append(([], [x for n in start.nodes for x in p.node_chunks[n]]))
        return units

    def _reason(self, question: str, depth: int, start: Community, chains: list[_Chain],
                trace: Trace) -> ReasonReply:
        t = trace.timer()
        reply = self.session.ask("fasttog_reason", f"{STAGE}.reason", ReasonReply, unknown=NO_REASON,
                                 question=question, start=community_text(self.projection, start),
                                 chains=self._chains_text(chains), passages=self._passages_json(start, chains),
                                 depth=f"{depth} of {self.settings.depth}")
        trace.add(f"depth {depth}", "fasttog_reason prompt",
                  StepResult(answer=reply.answer or None, decided_by="model",
                             judge="resolved" if reply.known else "unresolved", reason=reply.reason or None), t)
        return reply

    def _fallback(self, question: str, start: Community, chains: list[_Chain], trace: Trace) -> ReasonReply:
        t = trace.timer()
        reply = self.session.ask("fasttog_fallback", f"{STAGE}.fallback", ReasonReply, unknown=NO_REASON,
                                 question=question, start=community_text(self.projection, start),
                                 chains=self._chains_text(chains), passages=self._passages_json(start, chains))
        trace.add("fallback", "fasttog_fallback prompt",
                  StepResult(answer=reply.answer or None, decided_by="model", judge="unresolved",
                             reason=reply.reason or None, notes=["fallback: not confirmed by the reasoning step"]), t)
        return reply

    def _chain_label(self, chain: _Chain) -> str:
        return " => ".join("[" + "; ".join(self.projection.node_names[n] for n in c.nodes) + "]"
                           for c in chain.communities)
