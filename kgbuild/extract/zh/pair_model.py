"""The Chinese pair model: which candidate pairs (`pair_candidates.py`) the text relates, and how.

A `SparseLinearModel` trained by `bench/zh_pair_model.py` on the hand-labelled open-domain sets (none is
shipped: docs/chinese.md, "Pair model"). Its labels are "none" and a gold predicate with a direction: "worksFor>"
(the earlier name works for the later one) or "worksFor<" (the later for the earlier); `texts` gives the
predicate each writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgbuild.extract.linear_model import SparseLinearModel
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.pair_candidates import PairCandidate

NONE = "none"
FORWARD, BACKWARD = ">", "<"


def label_for(predicate: str, forward: bool) -> str:
    return predicate + (FORWARD if forward else BACKWARD)


@dataclass(frozen=True)
class PairFact:
    subject: Mention
    predicate: str
    object: Mention
    probability: float


def decide(model: SparseLinearModel, candidate: PairCandidate) -> PairFact | None:
    """The candidate's relation when the model's best label is one and at least as sure as its threshold."""
    best = model.predict(candidate.features)
    if best.label == NONE or best.probability < model.threshold:
        return None
    predicate = model.texts.get(best.label, best.label.rstrip(FORWARD + BACKWARD))
    if best.label.endswith(BACKWARD):
        return PairFact(candidate.second, predicate, candidate.first, best.probability)
    return PairFact(candidate.first, predicate, candidate.second, best.probability)
