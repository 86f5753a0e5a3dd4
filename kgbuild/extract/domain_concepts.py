"""Domain concept injection (KAG §2.2.3).

An expert-made concept set (names, descriptions, aliases, isA edges) is loaded once; for each
chunk the few concepts most relevant to it are retrieved and put into the extraction prompt,
so the model names things the way the domain does and links mentions to existing concepts.

Retrieval combines a lexical score, which needs no model and works for Chinese and English
(exact name/alias occurrence, plus the cosine of bags of CJK character bigrams and other
words), with the cosine of sentence embeddings when an embedder is given.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from kgbuild.embed.models import embed_matrix
from kgbuild.embed.types import Embedder
from kgbuild.errors import ConfigError
from kgbuild.extract.concept_files import HINT, RawConcept, read_concept_files
from kgbuild.ids import normalize_name
from kgbuild.model import Concept
from kgbuild.text import search_fold, singular


@dataclass(frozen=True)
class DomainConcept:
    name: str
    description: str = ""
    aliases: list[str] = field(default_factory=list)
    parents: list[str] = field(default_factory=list)  # isA parents, by name
    label: str = ""  # node label or source file stem ("HospitalDepartment"); "" if none

    @property
    def id(self) -> str:
        return Concept.make_id(self.name)


@dataclass(frozen=True)
class DomainConcepts:
    nodes: dict[str, DomainConcept]  # name -> concept, in file order
    relations: list[tuple[str, str, str]] = field(default_factory=list)  # non-isA edges (name, label, name)
    warnings: list[str] = field(default_factory=list)  # broken isA cycles, skipped files
    files: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[DomainConcept]:
        return iter(self.nodes.values())

    @cached_property
    def _by_key(self) -> dict[str, DomainConcept]:
        table: dict[str, DomainConcept] = {}
        for c in self.nodes.values():  # names first, so an alias never hides a name
            table.setdefault(_key(c.name), c)
        for c in self.nodes.values():
            for alias in c.aliases:
                table.setdefault(_key(alias), c)
        return table

    def find(self, name: str) -> DomainConcept | None:
        """The concept with this name or alias (compared as `normalize_name` does)."""
        return self._by_key.get(_key(name))

    def to_records(self) -> list[Concept]:
        return [Concept(id=c.id, name=c.name, description=c.description,
                        parents=[Concept.make_id(p) for p in c.parents]) for c in self.nodes.values()]


def _key(name: str) -> str:
    return normalize_name(name) or name


# ---------------------------------------------------------------- loading


def load_domain_concepts(path: str | Path) -> DomainConcepts:
    """Concepts of a file or directory (formats: kgbuild.extract.concept_files).

    Records naming the same concept (equal under `normalize_name`) are merged; the first
    spelling and the first description win. isA cycles are broken and reported in `warnings`.
    """
    data = read_concept_files(Path(path))
    if not data.concepts:
        raise ConfigError(where=str(path), problem="no concepts found", hint=HINT)
    nodes, warnings = _merge(data.concepts)
    return DomainConcepts(nodes=nodes, relations=data.relations, warnings=[*data.warnings, *warnings],
                          files=data.files)


def _merge(raw: Iterable[RawConcept]) -> tuple[dict[str, DomainConcept], list[str]]:
    spelling: dict[str, str] = {}  # key -> first spelling
    desc: dict[str, str] = {}
    aliases: dict[str, dict[str, str]] = {}  # name -> alias key -> alias
    parents: dict[str, list[str]] = {}
    label: dict[str, str] = {}

    def node(name: str) -> str:
        name = spelling.setdefault(_key(name), name)
        parents.setdefault(name, [])
        return name

    for r in raw:
        name = node(r.name)
        if r.description and not desc.get(name):
            desc[name] = r.description
        if r.label and not label.get(name):
            label[name] = r.label
        for alias in r.aliases:
            if _key(alias) != _key(name):
                aliases.setdefault(name, {}).setdefault(_key(alias), alias)
        for p in r.parents:
            parent = node(p)
            if parent not in parents[name]:
                parents[name].append(parent)
    warnings = _break_cycles(parents)
    nodes = {name: DomainConcept(name=name, description=desc.get(name, ""),
                                 aliases=list(aliases.get(name, {}).values()), parents=ps, label=label.get(name, ""))
             for name, ps in parents.items()}
    return nodes, warnings


def _break_cycles(parents: dict[str, list[str]]) -> list[str]:
    """Remove the isA edges that close a cycle (depth-first, in file order), so the taxonomy
    is a DAG; iterative because a long chain would exceed Python's recursion limit."""
    warnings: list[str] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    for root in parents:
        if root in state:
            continue
        state[root] = 1
        path = [root]
        stack = [iter(list(parents[root]))]
        while stack:
            child = path[-1]
            parent = next(stack[-1], None)
            if parent is None:
                state[child] = 2
                path.pop()
                stack.pop()
            elif state.get(parent) == 1:
                loop = [*path[path.index(parent):], parent]
                parents[child].remove(parent)
                warnings.append(f"isA cycle {' -> '.join(loop)}: dropped '{child}' isA '{parent}'")
            elif parent not in state:
                state[parent] = 1
                path.append(parent)
                stack.append(iter(list(parents[parent])))
    return warnings


# ---------------------------------------------------------------- retrieval


@dataclass(frozen=True)
class ScoreWeights:
    mention: float = 1.0  # the name or an alias occurs in the text (0.5 for one-character names)
    overlap: float = 1.0  # cosine of IDF-weighted feature bags (CJK character bigrams, other words)
    dense: float = 1.0  # embedding cosine, rescaled from [dense_floor, dense_ceiling] to [0, 1]
    dense_floor: float = 0.2  # MiniLM gives unrelated texts up to about this much (or the median concept more)...
    dense_ceiling: float = 0.6  # ...and a paraphrase ("heart attack", "myocardial infarction") this much
    min_score: float = 0.1  # concepts scoring less are not candidates at all


# Scripts written without spaces: there a character bigram is the unit of meaning (most
# Chinese words are two characters). Elsewhere a word is: Latin character bigrams ("he",
# "in", "at") are so common that unrelated English texts reach a cosine of about 0.3.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_RUN = re.compile(rf"[{_CJK}]+|[^\W{_CJK}]+")
_CJK_START = re.compile(rf"[{_CJK}]")
_STOPWORDS = frozenset((
    "a an and are as at be been but by for from had has have he her his in is it its of on or she "
    "that the their there these this those to was were which who will with"
).split())


def _features(text: str) -> Counter[str]:
    """Lexical features of normalised text: character bigrams of CJK runs (a lone character
    stands for itself), and the other words, minus stopwords, singular by the one plural rule."""
    out: Counter[str] = Counter()
    for run in _RUN.findall(text):
        if _CJK_START.match(run):
            out.update([run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)])
        elif len(run) > 1 and run not in _STOPWORDS:
            out[singular(run)] += 1
    return out


# A trie node: (children by character, indices of the concepts whose form ends here).
_Node = tuple[dict[str, "_Node"], list[int]]


class ConceptIndex:
    """Retrieves the concepts most relevant to a text; build once, query per chunk."""

    def __init__(self, concepts: DomainConcepts | Iterable[DomainConcept], embedder: Embedder | None = None,
                 weights: ScoreWeights | None = None) -> None:
        self.concepts = list(concepts)
        self.weights = weights or ScoreWeights()
        self._embedder = embedder
        self._trie = self._build_trie()
        self._build_features()
        self._vectors = self._embed_concepts() if embedder is not None else None

    # ------------------------------------------------ building

    def _build_trie(self) -> _Node:
        """Names and aliases as a character trie: one pass over a text finds every occurrence
        (a walk from each position stops at the first character no form continues with)."""
        root: _Node = ({}, [])
        for i, c in enumerate(self.concepts):
            for form in {search_fold(s).strip() for s in [c.name, *c.aliases]}:
                node = root
                for ch in form:
                    node = node[0].setdefault(ch, ({}, []))
                if form:
                    node[1].append(i)
        return root

    def _build_features(self) -> None:
        """Concept feature vectors as a CSR-like inverted index (feature -> concepts, weights)."""
        bags = [_features(search_fold(" ".join([c.name, *c.aliases, c.description]))) for c in self.concepts]
        vocab: dict[str, int] = {}
        rows: list[int] = []
        cols: list[int] = []
        tfs: list[float] = []
        for i, bag in enumerate(bags):
            for gram, tf in bag.items():
                rows.append(vocab.setdefault(gram, len(vocab)))
                cols.append(i)
                tfs.append(1.0 + math.log(tf))
        n = len(self.concepts)
        df = np.bincount(np.asarray(rows, dtype=np.int64), minlength=len(vocab))
        self._vocab = vocab
        self._idf = (np.log((n + 1) / (df + 1)) + 1.0).astype(np.float32)
        self._idf_unseen = float(math.log(n + 1) + 1.0)  # a feature no concept has: counts in the text's norm
        row = np.asarray(rows, dtype=np.int64)
        weight = np.asarray(tfs, dtype=np.float32) * self._idf[row] if rows else np.zeros(0, np.float32)
        col = np.asarray(cols, dtype=np.int64)
        norms = np.sqrt(np.bincount(col, weights=weight * weight, minlength=n))
        weight = weight / np.where(norms > 0, norms, 1.0)[col]
        order = np.argsort(row, kind="stable")
        self._post_concepts = col[order]
        self._post_weights = weight[order].astype(np.float32)
        self._indptr = np.concatenate([[0], np.cumsum(df)]).astype(np.int64)

    def _embed_concepts(self) -> np.ndarray:
        texts = [f"{c.name}: {c.description}" if c.description else c.name for c in self.concepts]
        return self._encode(texts) if texts else np.zeros((0, 1), np.float32)

    def _encode(self, texts: list[str]) -> np.ndarray:
        assert self._embedder is not None
        return embed_matrix(self._embedder, texts)

    # ------------------------------------------------ scoring

    def _mentions(self, text: str) -> np.ndarray:
        """Names and aliases occurring in the (normalised) text; a form starting or ending with
        a Latin letter or digit must start or end a word there (a plural 's' is allowed)."""
        # Sets, filled in C: numpy (or a dict) per hit costs more than the scan itself.
        found: set[int] = set()
        found_short: set[int] = set()  # one-character forms (咽, 骨) say less about the text
        children, n = self._trie[0], len(text)
        word = [ch.isascii() and ch.isalnum() for ch in text] + [False, False]  # [n], [n+1]: past the end
        for start in range(n):
            node = children.get(text[start])
            if node is None or (word[start] and word[start - 1]):  # word[-1] is the padding
                continue
            end = start + 1
            while node is not None:
                nxt, hits = node
                if hits and (not word[end] or not word[end - 1] or (text[end] == "s" and not word[end + 1])):
                    (found if end - start > 1 else found_short).update(hits)
                node = nxt.get(text[end]) if end < n else None
                end += 1
        scores = np.zeros(len(self.concepts), np.float32)
        scores[list(found_short)] = 0.5 * self.weights.mention
        scores[list(found)] = self.weights.mention
        return scores

    def _overlap_cosines(self, text: str) -> np.ndarray:
        n = len(self.concepts)
        bag = _features(text)
        vids = np.fromiter((self._vocab.get(g, -1) for g in bag), np.int64, len(bag))
        known = vids >= 0
        if not known.any():
            return np.zeros(n, np.float32)
        tf = np.fromiter(bag.values(), np.float32, len(bag))
        idf = np.where(known, self._idf[np.maximum(vids, 0)], self._idf_unseen)
        weights = (1.0 + np.log(tf)) * idf  # features no concept has still count in the text's norm
        norm = float(np.sqrt(np.dot(weights, weights)))
        vids, weights = vids[known], weights[known]
        starts, lens = self._indptr[vids], self._indptr[vids + 1] - self._indptr[vids]
        # Gather every posting of the text's features in one vectorised step.
        owner = np.repeat(np.arange(len(vids)), lens)
        pos = np.arange(int(lens.sum())) + np.repeat(starts - (np.cumsum(lens) - lens), lens)
        contrib = self._post_weights[pos] * weights[owner]
        return (np.bincount(self._post_concepts[pos], weights=contrib, minlength=n) / norm).astype(np.float32)

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """Relevance of every concept to every text: shape (len(texts), len(concepts))."""
        w = self.weights
        out = np.zeros((len(texts), len(self.concepts)), np.float32)
        if not self.concepts:
            return out
        for row, text in enumerate(texts):
            norm = search_fold(text)
            out[row] = self._mentions(norm) + w.overlap * self._overlap_cosines(norm)
        if self._vectors is not None and texts:
            cos = self._encode(list(texts)) @ self._vectors.T
            # What a typical concept gets is no evidence: a model that does not know the
            # language (MiniLM on Chinese) gives every concept 0.4 or more.
            base = np.maximum(w.dense_floor, np.median(cos, axis=1, keepdims=True))
            out += w.dense * np.clip((cos - base) / (w.dense_ceiling - w.dense_floor), 0.0, 1.0)
        return out

    def scored(self, text: str, k: int) -> list[tuple[DomainConcept, float]]:
        return self._top(self.scores([text])[0], k)

    def candidates(self, text: str, k: int) -> list[DomainConcept]:
        """Up to k concepts relevant to `text`, best first (ties: file order)."""
        return [c for c, _ in self.scored(text, k)]

    def candidates_batch(self, texts: Sequence[str], k: int, batch_size: int = 256) -> list[list[DomainConcept]]:
        """`candidates` for many texts; embeds them in batches and bounds the score matrix."""
        out: list[list[DomainConcept]] = []
        for start in range(0, len(texts), batch_size):
            for row in self.scores(texts[start:start + batch_size]):
                out.append([c for c, _ in self._top(row, k)])
        return out

    def _top(self, row: np.ndarray, k: int) -> list[tuple[DomainConcept, float]]:
        keep = np.flatnonzero(row >= self.weights.min_score)
        if k <= 0 or keep.size == 0:
            return []
        if keep.size > k:
            # argpartition narrows to the k best before the (stable) full sort of those few
            part = keep[np.argpartition(-row[keep], k - 1)[:k]]
            threshold = row[part].min()
            keep = keep[row[keep] >= threshold]  # ties at the cut stay, so file order decides them
        best = keep[np.argsort(-row[keep], kind="stable")][:k]
        return [(self.concepts[i], float(row[i])) for i in best]


# ---------------------------------------------------------------- prompt text


def _short(text: str, limit: int) -> str:
    """The first sentence, or the text cut at `limit` characters with an ellipsis."""
    text = " ".join(text.split())
    m = re.search(r"[.!?](?=\s)|[。！？]", text)
    if m and m.end() <= limit:
        return text[:m.end()]
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def format_for_prompt(concepts: Sequence[DomainConcept], max_description_chars: int = 80, max_aliases: int = 3) -> str:
    """One line per concept, `name — description (isA parent; also alias, ...)`."""
    lines = []
    for c in concepts:
        line = c.name
        if desc := _short(c.description, max_description_chars):
            line += f" — {desc}"
        extra = []
        if c.parents:
            extra.append("isA " + ", ".join(c.parents))
        if c.aliases:
            extra.append("also " + ", ".join(c.aliases[:max_aliases]))
        if extra:
            line += f" ({'; '.join(extra)})"
        lines.append(line)
    return "\n".join(lines)
