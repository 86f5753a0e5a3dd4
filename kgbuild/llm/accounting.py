"""Usage counters of a gateway: in total, per stage and per document.

Every event is added to the total, to its stage's bucket and (when the request names one) to its
document's bucket, so the three views always agree. Cost uses `llm.prices[model]` (USD per million
tokens); a model without a price costs 0, which the report can show as "unpriced".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kgbuild.config import LLMPrice
from kgbuild.llm.types import UsageTotals

_COUNTERS = tuple(UsageTotals.model_fields)


class Accounting:
    def __init__(self, prices: Mapping[str, LLMPrice] | None = None) -> None:
        self._prices = dict(prices or {})
        self.total = UsageTotals()
        self.by_stage: dict[str, UsageTotals] = {}
        self.by_doc: dict[str, UsageTotals] = {}

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        price = self._prices.get(model)
        if price is None:
            return 0.0
        return (prompt_tokens * price.prompt_per_1m + completion_tokens * price.completion_per_1m) / 1_000_000

    def add(self, stage: str, doc_id: str | None, **amounts: float) -> None:
        buckets = [self.total, self.by_stage.setdefault(stage, UsageTotals())]
        if doc_id is not None:
            buckets.append(self.by_doc.setdefault(doc_id, UsageTotals()))
        for bucket in buckets:
            for name, amount in amounts.items():
                setattr(bucket, name, getattr(bucket, name) + amount)

    def add_tokens(self, stage: str, doc_id: str | None, model: str, prompt_tokens: int,
                   completion_tokens: int) -> float:
        cost = self.cost(model, prompt_tokens, completion_tokens)
        self.add(stage, doc_id, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost_usd=cost)
        return cost

    def snapshot(self) -> dict[str, Any]:
        """JSON-able copy: {"total": {...}, "by_stage": {stage: {...}}, "by_doc": {doc: {...}}}."""
        return {
            "total": self.total.model_dump(),
            "by_stage": {k: v.model_dump() for k, v in sorted(self.by_stage.items())},
            "by_doc": {k: v.model_dump() for k, v in sorted(self.by_doc.items())},
        }

    def merge(self, other: Accounting | Mapping[str, Any]) -> None:
        """Add another gateway's counters (or its snapshot, e.g. from a worker process) to these."""
        snap = other.snapshot() if isinstance(other, Accounting) else other
        _add_into(self.total, snap.get("total", {}))
        for name, values in snap.get("by_stage", {}).items():
            _add_into(self.by_stage.setdefault(name, UsageTotals()), values)
        for name, values in snap.get("by_doc", {}).items():
            _add_into(self.by_doc.setdefault(name, UsageTotals()), values)

    def reset(self) -> None:
        self.total = UsageTotals()
        self.by_stage.clear()
        self.by_doc.clear()


def _add_into(bucket: UsageTotals, values: Mapping[str, Any]) -> None:
    for name in _COUNTERS:
        if name in values:
            setattr(bucket, name, getattr(bucket, name) + values[name])
