"""Candidate generation for entity resolution: cheap blocks, never all pairs.

Each blocker returns only pairs (or small groups) worth a closer look; `fusion` decides.
Every block is capped: a block larger than its cap ("john", a frequent surname, a
boilerplate trigram band) is split finer or skipped, so the cost stays near-linear.

1. exact: identical normalised keys (spaces removed, so "Mc Donalds" meets "McDonalds");
2. lsh: MinHash over character 3-grams of the key, banded (16 bands x 4 rows: a pair with
   Jaccard 0.5 is a candidate with p~0.64, 0.7 with p~0.99, 0.3 with p~0.12), numpy only;
3. person: surname (last token) blocks, sub-blocked by first initial when large, giving
   each person name its more specific compatible names ("Turing" -> "Alan Turing");
4. acronym: an all-caps short name against the initials of multi-word organisation names;
5. embedding: blockwise top-k cosine neighbours of "name: description" (optional).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from kgbuild.align.normalize import NAME_PARTICLES, SOFT_GENERATIONS, is_number_token

PERSON_BLOCK_CAP = 60  # distinct names per surname block before sub-blocking by first initial
CANDIDATE_CAP = 12  # more compatible candidates than this: the short form is hopelessly ambiguous


def exact_blocks(keys: Sequence[str]) -> list[list[int]]:
    """Indices sharing one key (with spaces removed), groups of two or more, in input order."""
    groups: dict[str, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key.replace(" ", ""), []).append(i)
    return [g for g in groups.values() if len(g) > 1]


# ---------------------------------------------------------------- MinHash LSH

_MASK32 = np.uint64(0xFFFFFFFF)


def minhash_signatures(keys: Sequence[str], num_perm: int = 64, seed: int = 20240917) -> np.ndarray:
    """(len(keys), num_perm) uint32 MinHash signatures of padded character 3-grams.

    Vectorised over all names at once: the keys are laid out in one code-point array,
    every 3-gram is packed into a uint64, hashed by `num_perm` multiply-shift functions,
    and reduced per name with `minimum.reduceat`. Deterministic (fixed seed, no `hash()`).
    """
    n = len(keys)
    if n == 0:
        return np.zeros((0, num_perm), dtype=np.uint32)
    text = "\x00".join("\x01" + k + "\x02" for k in keys) + "\x00"
    cps = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    valid = (cps[:-2] != 0) & (cps[1:-1] != 0) & (cps[2:] != 0)
    grams = (cps[:-2] << np.uint64(42)) | (cps[1:-1] << np.uint64(21)) | cps[2:]
    owner = np.cumsum(cps == 0)[:-2]  # name index of each start position (separators counted before)
    grams, owner = grams[valid], owner[valid]
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])  # every name has >= 1 gram (padding)
    rng = np.random.default_rng(seed)
    a = rng.integers(1, 2**63, size=num_perm, dtype=np.uint64) | np.uint64(1)
    b = rng.integers(0, 2**63, size=num_perm, dtype=np.uint64)
    sig = np.empty((n, num_perm), dtype=np.uint32)
    with np.errstate(over="ignore"):
        for k in range(num_perm):
            h = (grams * a[k] + b[k]) >> np.uint64(32)
            sig[:, k] = np.minimum.reduceat(h, starts).astype(np.uint32)
    return sig


def lsh_pairs(keys: Sequence[str], bands: int = 16, rows: int = 4, max_bucket: int = 40,
              min_estimate: float = 0.4) -> np.ndarray:
    """Candidate index pairs (i < j), shape (m, 2), sharing at least one LSH band and whose
    MinHash Jaccard estimate (share of equal signature slots) is >= min_estimate.

    Buckets larger than `max_bucket` are skipped: they come from short, generic keys whose
    neighbours are not worth verifying one by one (exact keys were handled before). The
    estimate filter is vectorised, so the per-pair Python checks only see likely pairs.
    """
    n = len(keys)
    if n < 2:
        return np.zeros((0, 2), dtype=np.int64)
    sig = minhash_signatures(keys, bands * rows).astype(np.uint64)
    out: list[np.ndarray] = []
    with np.errstate(over="ignore"):
        for band in range(bands):
            cols = sig[:, band * rows:(band + 1) * rows]
            h = np.full(n, np.uint64(band + 1) * np.uint64(0x9E3779B97F4A7C15))
            for c in range(rows):
                h = (h ^ cols[:, c]) * np.uint64(0x100000001B3)
            order = np.argsort(h, kind="stable")
            hs = h[order]
            bounds = np.flatnonzero(np.r_[True, hs[1:] != hs[:-1], True])
            sizes = np.diff(bounds)
            starts = bounds[:-1]
            # all pairs of every bucket, vectorised per bucket size (most buckets hold 2 or 3)
            for size in np.unique(sizes[(sizes >= 2) & (sizes <= max_bucket)]).tolist():
                at = starts[sizes == size]
                members = order[at[:, None] + np.arange(size)[None, :]]  # (buckets, size)
                iu, ju = np.triu_indices(size, 1)
                out.append(np.stack([members[:, iu].ravel(), members[:, ju].ravel()], axis=1))
    if not out:
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.sort(np.concatenate(out).astype(np.int64), axis=1)
    codes = np.unique(pairs[:, 0] * n + pairs[:, 1])
    pairs = np.stack([codes // n, codes % n], axis=1)
    keep = np.empty(len(pairs), dtype=bool)
    for s in range(0, len(pairs), 200_000):  # bounded memory: 200k x 64 comparisons at a time
        p = pairs[s:s + 200_000]
        keep[s:s + 200_000] = (sig[p[:, 0]] == sig[p[:, 1]]).mean(axis=1) >= min_estimate
    return pairs[keep]


# ---------------------------------------------------------------- person-name variants


@dataclass(frozen=True, slots=True)
class PersonName:
    """A person name split for variant matching: given names (initials as one letter) and surname."""

    given: tuple[str, ...]
    surname: str

    @property
    def specificity(self) -> tuple[int, int]:
        return (sum(len(g) > 1 for g in self.given), len(self.given))


def parse_person(tokens: Sequence[str]) -> PersonName | None:
    """Western "given ... surname" reading of a person key; None when that reading is unsafe
    ("Alexander the Great", "Catherine of Aragon", names with numbers like "Henry VIII")."""
    words = [t for t in tokens if t not in NAME_PARTICLES and t not in SOFT_GENERATIONS]
    if not words or len(words) > 5 or any(w in {"of", "the", "and"} for w in words):
        return None
    if any(is_number_token(w, last=i == len(words) - 1 and i > 0) for i, w in enumerate(words)):
        return None
    return PersonName(tuple(words[:-1]), words[-1])


def _part_ok(a: str, b: str) -> bool:
    return a == b or (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


def person_compatible(a: PersonName, b: PersonName) -> bool:
    """Same surname and given names that agree position by position, initials matching
    ("A. M." ~ "Alan Mathison"); missing given or middle names are compatible."""
    if a.surname != b.surname:
        return False
    if not a.given or not b.given:
        return True
    if not _part_ok(a.given[0], b.given[0]):
        return False
    # zip stops at the shorter: a missing middle name is compatible
    return all(_part_ok(x, y) for x, y in zip(a.given[1:], b.given[1:], strict=False))


def person_candidates(names: Sequence[PersonName | None]) -> Iterator[tuple[int, list[int]]]:
    """For each parsed name, the strictly more specific compatible names in its block.

    Blocks: surname; when a surname block is larger than PERSON_BLOCK_CAP, names with a
    given name look only in their (surname, first initial) sub-block and surname-only
    names are skipped (too many people share the surname for "Smith" to be resolved).
    Yields only names with 1..CANDIDATE_CAP candidates.
    """
    by_surname: dict[str, list[int]] = defaultdict(list)
    first_names: dict[str, list[int]] = defaultdict(list)  # "Sherlock" alone may be a first name
    for i, p in enumerate(names):
        if p is not None:
            by_surname[p.surname].append(i)
            if p.given and len(p.given[0]) > 1:
                first_names[p.given[0]].append(i)
    by_initial: dict[tuple[str, str], list[int]] = {}
    for surname, members in by_surname.items():
        if len(members) > PERSON_BLOCK_CAP:
            for i in members:
                p = names[i]
                if p is not None and p.given:
                    by_initial.setdefault((surname, p.given[0][0]), []).append(i)
    for i, p in enumerate(names):
        if p is None:
            continue
        block = by_surname[p.surname]
        if len(block) > PERSON_BLOCK_CAP:
            if not p.given:
                continue
            block = by_initial.get((p.surname, p.given[0][0]), [])
            if len(block) > PERSON_BLOCK_CAP:
                continue
        spec = p.specificity
        # every name in a surname block parsed (only parsed names are put in one)
        others = [(j, q) for j in block if j != i and (q := names[j]) is not None]
        found = [j for j, q in others if q.specificity > spec and person_compatible(p, q)]
        if not p.given:  # a lone token can also be a first name: "Sherlock" ~ "Sherlock Holmes"
            firsts = first_names.get(p.surname, [])
            if len(firsts) <= CANDIDATE_CAP:
                found.extend(j for j in firsts if j != i and j not in found)
        if 0 < len(found) <= CANDIDATE_CAP:
            yield i, found


# ---------------------------------------------------------------- acronyms


def acronym_candidates(acronyms: dict[int, str], initials_of: dict[int, set[str]]) -> Iterator[tuple[int, list[int]]]:
    """Acronym units ("nasa") with the multi-word names whose initials spell them."""
    by_initials: dict[str, list[int]] = defaultdict(list)
    for j, inis in initials_of.items():
        for ini in inis:
            by_initials[ini].append(j)
    for i, acro in acronyms.items():
        found = [j for j in by_initials.get(acro, []) if j != i]
        if 0 < len(found) <= CANDIDATE_CAP:
            yield i, found


# ---------------------------------------------------------------- embeddings


def embedding_pairs(vectors: np.ndarray, threshold: float, k: int = 5, block: int = 512) -> np.ndarray:
    """Pairs (i < j) among each row's top-k cosine neighbours with similarity >= threshold.

    Exact blockwise search (a BLAS matrix product per block of rows, memory block x n):
    O(n^2 d) flops, fine to some 10^5 names; only used when an embedder is passed.
    """
    n = len(vectors)
    if n < 2:
        return np.zeros((0, 2), dtype=np.int64)
    v = np.asarray(vectors, dtype=np.float32)
    v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    k = min(k, n - 1)
    out: list[np.ndarray] = []
    for s in range(0, n, block):
        sims = v[s:s + block] @ v.T
        rows = np.arange(s, min(s + block, n))
        sims[rows - s, rows] = -1.0  # not its own neighbour
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        vals = np.take_along_axis(sims, top, axis=1)
        r, c = np.nonzero(vals >= threshold)
        if len(r):
            out.append(np.stack([rows[r], top[r, c]], axis=1))
    if not out:
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.sort(np.concatenate(out).astype(np.int64), axis=1)
    codes = np.unique(pairs[:, 0] * n + pairs[:, 1])
    return np.stack([codes // n, codes % n], axis=1)
