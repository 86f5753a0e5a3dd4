"""The Chinese pair model: which candidate pairs (`pair_candidates.py`) the text relates, and how.

A `SparseLinearModel` trained by `bench/zh_pair_model.py` on the hand-labelled open-domain sets and shipped as
`models/pairs.json`. Its labels are "none" and a gold predicate with a direction: "worksFor>" (the earlier name
works for the later one) or "worksFor<" (the later for the earlier); `texts` gives the predicate each writes.
The model was trained on one schema's classes (its meta "schema"), so an extractor with another schema does not
use it: the medicine schema's classes are not the features it learned.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kgbuild.extract.linear_model import SparseLinearModel
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.pair_candidates import PairCandidate

SHIPPED = Path(__file__).resolve().parent / "models" / "pairs.json"
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


def load_shipped(schema_name: str, path: Path = SHIPPED) -> SparseLinearModel | None:
    """The shipped model when it was trained for this schema, else None (the rules alone)."""
    if not path.exists():
        return None
    model = SparseLinearModel.load(path)
    return model if model.meta.get("schema") == schema_name else None


def decide(model: SparseLinearModel, candidate: PairCandidate) -> PairFact | None:
    """The candidate's relation when the model's best label is one and at least as sure as its threshold."""
    best = model.predict(candidate.features)
    if best.label == NONE or best.probability < model.threshold:
        return None
    predicate = model.texts.get(best.label, best.label.rstrip(FORWARD + BACKWARD))
    if best.label.endswith(BACKWARD):
        return PairFact(candidate.second, predicate, candidate.first, best.probability)
    return PairFact(candidate.first, predicate, candidate.second, best.probability)
