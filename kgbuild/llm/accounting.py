"""Usage counters of a gateway: in total, per stage and per document.

Every event is added to the total, to its stage's bucket and (when the request names one) to its
document's bucket, so the three views always agree. A call made for several documents at once (a pack
of short chunks) names its documents with weights: each amount is split in proportion, whole counters
by largest remainder, so the per-document figures still add up to the total exactly.
Cost uses `llm.prices[model]` (USD per million tokens); a model without a price costs 0, which the
report can show as "unpriced".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kgbuild.config import LLMConfig, LLMPrice
from kgbuild.llm.types import UsageTotals

_COUNTERS = tuple(UsageTotals.model_fields)

# Whom a request is accounted to: one document, several with weights (a packed call), or none.
DocShares = str | Mapping[str, float] | None


def _split(amount: float, shares: Mapping[str, float]) -> dict[str, float]:
    """`amount` divided in proportion to `shares`; a whole number stays whole (largest remainder)."""
    total = sum(shares.values())
    if len(shares) == 1 or total <= 0:
        first = next(iter(shares), None)
        return {first: amount} if first is not None else {}
    exact = {doc: amount * weight / total for doc, weight in shares.items()}
    if not isinstance(amount, int):
        return exact
    whole = {doc: int(value) for doc, value in exact.items()}
    left = amount - sum(whole.values())
    for doc in sorted(exact, key=lambda d: (whole[d] - exact[d], d))[:left]:
        whole[doc] += 1
    return {doc: part for doc, part in whole.items() if part}


class Accounting:
    def __init__(self, prices: Mapping[str, LLMPrice] | None = None) -> None:
        self._prices = dict(prices or {})
        self.total = UsageTotals()
        self.by_stage: dict[str, UsageTotals] = {}
        self.by_doc: dict[str, UsageTotals] = {}
        self.by_role: dict[str, UsageTotals] = {}  # extract / align / solve (llm.roles)

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        price = self._prices.get(model)
        if price is None:
            return 0.0
        return (prompt_tokens * price.prompt_per_1m + completion_tokens * price.completion_per_1m) / 1_000_000

    def add(self, stage: str, doc_id: DocShares, **amounts: float) -> None:
        for bucket in (self.total, self.by_stage.setdefault(stage, UsageTotals()),
                       self.by_role.setdefault(LLMConfig.role_of(stage), UsageTotals())):
            for name, amount in amounts.items():
                setattr(bucket, name, getattr(bucket, name) + amount)
        if doc_id is None:
            return
        shares = {doc_id: 1.0} if isinstance(doc_id, str) else dict(doc_id)
        for name, amount in amounts.items():
            parts = _split(amount, shares)
            for doc, part in parts.items():
                bucket = self.by_doc.setdefault(doc, UsageTotals())
                setattr(bucket, name, getattr(bucket, name) + part)

    def add_tokens(self, stage: str, doc_id: DocShares, model: str, prompt_tokens: int,
                   completion_tokens: int) -> float:
        cost = self.cost(model, prompt_tokens, completion_tokens)
        self.add(stage, doc_id, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost_usd=cost)
        return cost

    def snapshot(self) -> dict[str, Any]:
        """JSON-able copy: {"total": {...}, "by_stage": {stage: {...}}, "by_doc": {doc: {...}},
        "by_role": {role: {...}}}."""
        return {
            "total": self.total.model_dump(),
            "by_stage": {k: v.model_dump() for k, v in sorted(self.by_stage.items())},
            "by_doc": {k: v.model_dump() for k, v in sorted(self.by_doc.items())},
            "by_role": {k: v.model_dump() for k, v in sorted(self.by_role.items())},
        }

    def merge(self, other: Accounting | Mapping[str, Any]) -> None:
        """Add another gateway's counters (or its snapshot, e.g. from a worker process) to these."""
        snap = other.snapshot() if isinstance(other, Accounting) else other
        _add_into(self.total, snap.get("total", {}))
        for name, values in snap.get("by_stage", {}).items():
            _add_into(self.by_stage.setdefault(name, UsageTotals()), values)
        for name, values in snap.get("by_doc", {}).items():
            _add_into(self.by_doc.setdefault(name, UsageTotals()), values)
        for name, values in snap.get("by_role", {}).items():
            _add_into(self.by_role.setdefault(name, UsageTotals()), values)

    def reset(self) -> None:
        self.total = UsageTotals()
        self.by_stage.clear()
        self.by_doc.clear()
        self.by_role.clear()


def _add_into(bucket: UsageTotals, values: Mapping[str, Any]) -> None:
    for name in _COUNTERS:
        if name in values:
            setattr(bucket, name, getattr(bucket, name) + values[name])
