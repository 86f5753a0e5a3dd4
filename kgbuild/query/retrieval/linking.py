"""Entity linking: a mention -> graph entities; a question -> the mentions it contains.

Linking tries the cheap, certain evidence first (the exact folded name, then an alias) and only
then the dense `<prefix>_entities` collection. Mention extraction needs no model: one pass over the
question's tokens against the name dictionary, plus capitalised spans the dictionary does not know
(those are linked densely by the retriever, in one batched embedding call with the question).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from kgbuild.embed.types import Embedder
from kgbuild.query.retrieval.index import CONCEPT, TITLE, MutualIndex
from kgbuild.query.retrieval.text import STOPWORDS, spans
from kgbuild.query.types import LinkedEntity
from kgbuild.store.types import VectorStore
from kgbuild.text import fold, mention_key, same_type

LinkHow = Literal["exact", "alias", "dense", "concept"]  # LinkedEntity.how
EXACT_SCORE = 1.0
ALIAS_SCORE = 0.9


@dataclass
class Mention:
    text: str
    start: int  # token positions in the question
    end: int
    nodes: list[tuple[int, float, str]] = field(default_factory=list)  # (node, score, how)


def _is_capitalised(raw: str) -> bool:
    return raw[:1].isupper() or any(ch.isdigit() for ch in raw)


class EntityLinker:
    def __init__(self, index: MutualIndex, vectors: VectorStore | None, embedder: Embedder | None,
                 entity_collection: str, *, type_boost: float = 0.1) -> None:
        self.index = index
        self.vectors = vectors
        self.embedder = embedder
        self.collection = entity_collection
        self.type_boost = type_boost

    # ---------------------------------------------------------------- one mention

    def link(self, mention: str, type_hint: str | None = None, k: int = 5) -> list[LinkedEntity]:
        """Exact name, then alias, then dense neighbours; `type_hint` lifts entities of that class."""
        found = self._dictionary(mention, type_hint)
        if len(found) < k and self.vectors is not None and self.embedder is not None:
            vector = self.embedder.embed([mention])[0]
            known = {f.id for f in found}
            found += [d for d in self.dense(vector, k, type_hint) if d.id not in known]
        found.sort(key=lambda e: (-e.score, not same_type(e.type, type_hint)))
        return found[:k]

    def _dictionary(self, mention: str, type_hint: str | None) -> list[LinkedEntity]:
        exact, alias = self.index.names.lookup(mention_key(mention))
        out: list[LinkedEntity] = []
        seen: set[int] = set()
        ways: tuple[tuple[list[int], float, LinkHow], ...] = (
            (exact, EXACT_SCORE, "exact"), (alias, ALIAS_SCORE, "alias"))
        for nodes, score, how in ways:
            for node in nodes:
                if node in seen or self.index.node_kind[node] == TITLE:
                    continue  # document titles walk the graph but are not entities to hand out
                seen.add(node)
                out.append(self._linked(node, score, how, type_hint))
        # Among equal names, the matching class and then the better supported entity first.
        out.sort(key=lambda e: (-e.score, not same_type(e.type, type_hint),
                                -self.index.degree(self.index.node_pos[e.id])))
        return out

    def dense(self, vector: list[float], k: int, type_hint: str | None = None) -> list[LinkedEntity]:
        if self.vectors is None:
            return []
        out = []
        for hit in self.vectors.search(self.collection, vector, k):
            node = self.index.node_pos.get(hit.id)
            if node is None:
                continue  # the vector store is ahead of or behind the workspace; skip the stranger
            out.append(self._linked(node, max(0.0, min(1.0, hit.score)), "dense", type_hint))
        return out

    def _linked(self, node: int, score: float, how: LinkHow, type_hint: str | None) -> LinkedEntity:
        typ = self.index.node_types[node]
        if same_type(typ, type_hint):
            score += self.type_boost  # capped at 1 below; ties then go to the matching class
        if self.index.node_kind[node] == CONCEPT:
            how = "concept"
        return LinkedEntity(id=self.index.node_ids[node], name=self.index.node_names[node], type=typ,
                            score=min(score, 1.0), how=how)

    # ---------------------------------------------------------------- a whole question

    def mentions(self, question: str) -> tuple[list[Mention], list[str]]:
        """Dictionary matches (longest first, left to right) and capitalised spans left unmatched.

        A one-word match must be capitalised or a number, not counting the question's first word
        ("Name the mother of..."): lowercase single words ("film", "band") are concept hubs, not
        what the question is about. Multi-word names ("compilation album") are specific enough.
        """
        raw = spans(question)
        folded = [fold(t) for t, _, _ in raw]
        names = self.index.names
        found: list[Mention] = []
        unmatched: list[str] = []
        pending: list[str] = []  # the capitalised run being collected for dense linking
        i = 0

        def close_run() -> None:
            if pending and not all(p.casefold() in STOPWORDS for p in pending):
                unmatched.append(" ".join(pending))
            pending.clear()

        while i < len(raw):
            longest = min(names.max_len.get(folded[i], 0), len(raw) - i)
            match = None
            for length in range(longest, 0, -1):
                exact, alias = names.lookup(" ".join(folded[i:i + length]))
                if not exact and not alias:
                    continue
                # The first word is capitalised by grammar ("Name the mother of..."), so it does not count.
                if length == 1 and not any(_is_capitalised(raw[j][0]) and raw[j][0].casefold() not in STOPWORDS
                                           for j in range(max(i, 1), i + length)):
                    continue
                match = Mention(question[raw[i][1]:raw[i + length - 1][2]], i, i + length)
                match.nodes = [(n, EXACT_SCORE, "exact") for n in exact] + [(n, ALIAS_SCORE, "alias") for n in alias]
                break
            if match is not None:
                close_run()
                found.append(match)
                i = match.end
                continue
            word = raw[i][0]
            # The question's first word is capitalised by grammar, not because it names something.
            if _is_capitalised(word) and i > 0 and word.casefold() not in STOPWORDS:
                pending.append(word)
            elif pending and word.casefold() in {"of", "the", "and", "de", "von", "van"} and i + 1 < len(raw) \
                    and _is_capitalised(raw[i + 1][0]):
                pending.append(word)  # "Bank of England", "Duke of the Abruzzi"
            else:
                close_run()
            i += 1
        close_run()
        return found, unmatched

    def specificity(self, node: int) -> float:
        """Weight of a seed: an entity in 1 chunk says more than one in 100 (1/log damping)."""
        return 1.0 / (1.0 + math.log1p(max(self.index.degree(node), 1.0) - 1.0))
