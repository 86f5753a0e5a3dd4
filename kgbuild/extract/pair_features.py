"""Candidate pairs for the pair model: two names of one sentence, and what the parse says between them, as plain
string features (docs/offline_extraction.md, "Fifteenth session: a learned pair step").

A candidate is an ordered pair (subject, object) of the chunk's mentions whose occurrences share a sentence:
named entities, the unlabelled proper nouns and years the rules made mentions of, and personal pronouns that
the rules' own pronoun rule (`Arguments.pronoun`) resolves. A date is never a subject and a common-noun concept
is neither end (types are the rules' business). Both orders are candidates: the model learns the direction.

The features describe the shortest dependency path between the two occurrences (its edges, the lemmas on it,
the word where it turns), the prepositions and heads around each end, the words between them when they are
close, and the NER labels of both ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kgbuild.extract.facts import CONCEPT, Mention

if TYPE_CHECKING:
    from spacy.tokens import Token

    from kgbuild.extract.chunk_state import ChunkState

_PRONOUNS = frozenset({"he", "she", "him", "her", "his", "it", "its", "they", "their", "them"})
_MAX_INNER = 6  # longer paths state a relation between the two names too rarely to be worth scoring
_MAX_BETWEEN = 8  # the words between two names are a feature only when they are this close


@dataclass(frozen=True)
class Occurrence:
    mention: Mention
    root: Token  # the token of the occurrence the rest of the sentence attaches to
    start: int
    end: int
    pronoun: bool


@dataclass(frozen=True)
class PairCandidate:
    subject: Mention
    object: Mention
    features: tuple[str, ...]
    rule: str | None = None  # the predicate of a rule triple from subject to object, if one
    reverse: bool = False  # a rule triple joins them the other way


def _occurrences(state: ChunkState, start: int, end: int) -> list[Occurrence]:
    """The mentions of the sentence doc[start:end], one entry per run of tokens, and its resolved pronouns."""
    doc = state.doc
    out: list[Occurrence] = []
    i = start
    while i < end:
        tok = doc[i]
        mention = state.tok2m[i] or state.extra.get(i)
        if mention is not None and mention.label != CONCEPT:
            j = i + 1
            while j < end and (state.tok2m[j] or state.extra.get(j)) is mention:
                j += 1
            if state.tok2m[i] is None and mention.start <= i < mention.end:  # an extra is keyed by its head only
                i, j = max(start, mention.start), max(j, min(end, mention.end))
            out.append(Occurrence(mention, doc[i:j].root, i, j, False))
            i = j
            continue
        if tok.lower_ in _PRONOUNS and tok.tag_ in ("PRP", "PRP$"):
            resolved = state.pronoun(tok)
            if resolved is not None and not resolved.is_date:
                out.append(Occurrence(resolved, tok, i, i + 1, True))
        i += 1
    return out


def _path(a: Token, b: Token) -> tuple[list[Token], Token, list[Token]] | None:
    """Tokens from a up to the lowest common ancestor (a included, the ancestor not), the ancestor, and the
    tokens from it down to b (b included)."""
    up = [a, *a.ancestors]
    down = [b, *b.ancestors]
    down_set = {t.i for t in down}
    for k, tok in enumerate(up):
        if tok.i in down_set:
            j = next(n for n, t in enumerate(down) if t.i == tok.i)
            return up[:k], tok, list(reversed(down[:j]))
    return None


def _label(occ: Occurrence) -> str:
    return "PRON" if occ.pronoun else occ.mention.label


def pair_features(state: ChunkState, a: Occurrence, b: Occurrence) -> tuple[str, ...] | None:
    """The features of `a` as subject and `b` as object, or None when the parse puts them too far apart."""
    found = _path(a.root, b.root)
    if found is None:
        return None
    up, top, down = found
    inner = [*up[1:], *([top] if top not in (a.root, b.root) else []), *down[:-1]]
    if len(inner) > _MAX_INNER:
        return None
    lemma = state.lemma
    la, lb = _label(a), _label(b)
    top_lemma = lemma(top).lower()
    ups = "/".join(t.dep_ for t in up)
    downs = "/".join(t.dep_ for t in down)
    words = [lemma(t).lower() for t in inner]
    feats = [
        f"path:{ups}^{top_lemma}v{downs}",
        f"deps:{ups}^{top.tag_}v{downs}",
        f"top:{top_lemma}",
        f"top:{top_lemma}|{lb}",
        f"labels:{la}|{lb}",
        f"labels:{la}|{lb}|{top_lemma}",
        f"len:{min(len(inner), 4)}",
        "order:forward" if a.start < b.start else "order:backward",
        f"adep:{a.root.dep_}",
        f"bdep:{b.root.dep_}",
        f"bhead:{lemma(b.root.head).lower()}|{b.root.dep_}",
        f"ahead:{lemma(a.root.head).lower()}|{a.root.dep_}",
        f"la:{la}",
        f"lb:{lb}",
    ]
    feats += [f"w:{w}" for w in words]
    feats += [f"wd:{w}|{t.dep_}" for w, t in zip(words, inner, strict=True)]
    if b.root.head.dep_ == "prep" or b.root.dep_ == "pobj":
        prep = b.root.head
        feats.append(f"bprep:{prep.lower_}|{lemma(prep.head).lower()}")
    if a.pronoun:
        feats.append(f"apron:{a.root.lower_}")
    doc = state.doc
    left, right = (a, b) if a.start < b.start else (b, a)
    gap = right.start - left.end
    if 0 <= gap <= _MAX_BETWEEN:
        between = [lemma(doc[k]).lower() for k in range(left.end, right.start)]
        feats += [f"btw:{w}" for w in between]
        feats.append(f"gap:{min(gap, 5)}")
        if between:
            feats.append(f"btwseq:{' '.join(between)}")
    if b.start > 0:
        feats.append(f"bprev:{doc[b.start - 1].lower_}")
    if a.end < len(doc):
        feats.append(f"anext:{doc[a.end].lower_}")
    return tuple(feats)


def pair_candidates(state: ChunkState) -> Iterator[PairCandidate]:
    """Every ordered pair of different names in one sentence, with its features and the rule triple that joins
    them, if one does (the gold-trained model scores only pairs no rule joined; a model trained on the rules'
    own output learns from the joined ones); a pair that occurs in several sentences comes once per sentence."""
    related: dict[tuple[str, str], str] = {}
    for t in state.triples:
        related.setdefault((t.subject.name, t.object.name), t.predicate)
    for start, end in state.sent_bounds:
        occurrences = _occurrences(state, start, end)
        for a in occurrences:
            if a.mention.is_date:
                continue
            for b in occurrences:
                if b.mention is a.mention or b.mention.name == a.mention.name:
                    continue
                if a.start < b.end and b.start < a.end:  # nested ("Paris" inside a longer name)
                    continue
                features = pair_features(state, a, b)
                if features is not None:
                    yield PairCandidate(a.mention, b.mention, features, related.get((a.mention.name, b.mention.name)),
                                        (b.mention.name, a.mention.name) in related)
