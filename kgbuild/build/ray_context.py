"""`RayBuildContext`: the build context of the driver and of every Ray worker of one build.

The same `BuildContext` the local runner uses, except that the model gateway is a `RayGateway`
(the cluster's one response cache and one set of limits, in the coordinator actor) and that the
driver sums the accounting the workers send back into the one report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgbuild.build.context import BuildContext
from kgbuild.config import Config
from kgbuild.errors import ConfigError
from kgbuild.llm.accounting import Accounting
from kgbuild.llm.types import UsageTotals
from kgbuild.progress import ProgressReporter
from kgbuild.report import LLMSection
from kgbuild.schema import Schema

if TYPE_CHECKING:
    from kgbuild.llm.gateway import LLMGateway


class RayBuildContext(BuildContext):
    def __init__(self, config: Config, schema: Schema, coordinator: Any, *, progress: ProgressReporter | None = None,
                 use_cache: bool = True, workers: int | None = None) -> None:
        super().__init__(config, schema, progress=progress, use_cache=use_cache, workers=workers)
        self.coordinator = coordinator
        self.remote_usage = Accounting(config.llm.prices)  # the workers' accounting, summed by the driver

    def gateway(self, setting: str) -> LLMGateway:
        if self._gateway is None:
            if not self.config.llm.configured():
                raise ConfigError(setting, "needs a model endpoint", "set llm.base_url and llm.model")
            from kgbuild.build.ray_gateway import RayGateway

            self._gateway = RayGateway(self.config.llm, self.coordinator, use_cache=self.use_cache)
        return self._gateway

    def usage_snapshot(self) -> dict[str, Any] | None:
        """This process's model accounting since the last snapshot (then reset), for the driver."""
        if self._gateway is None:
            return None
        snapshot = self._gateway.usage.snapshot()
        self._gateway.usage.reset()
        return snapshot

    async def aclose(self) -> LLMSection | None:
        own = await super().aclose()
        if own is not None:
            self.remote_usage.merge(own.model_dump())
        ledger = await self._ledger()
        lost = lost_usage(self.remote_usage, ledger)
        unknown = int(ledger.get("unreported", 0)) if ledger else 0
        if own is None and self.remote_usage.total.requests == 0 and not lost and not unknown:
            return None
        for stage, amounts in lost.items():
            self.remote_usage.add(stage, None, **amounts)
        section = LLMSection.model_validate(self.remote_usage.snapshot())
        if lost:
            section.lost_tasks = UsageTotals.model_validate(_summed(lost.values()))
        section.unknown_calls = unknown
        return section

    async def _ledger(self) -> dict[str, Any] | None:
        """The coordinator's ledger of every request paid (None without a coordinator, or if it is gone)."""
        if self.coordinator is None:
            return None
        try:
            ledger: dict[str, Any] = await self.coordinator.ledger.remote()
        except Exception:  # noqa: BLE001 - the actor died with its node: the workers' accounting stands alone
            return None
        return ledger


# Counters a request's report to the ledger carries (what the network call itself cost).
PAID_COUNTERS = ("calls", "retries", "failures", "prompt_tokens", "completion_tokens", "cost_usd")


def lost_usage(returned: Accounting, ledger: dict[str, Any] | None) -> dict[str, dict[str, float]]:
    """Per stage, what the ledger holds beyond the accounting that came back with task results: the
    requests paid by tasks that never returned (their worker died; Ray ran them again elsewhere)."""
    out: dict[str, dict[str, float]] = {}
    for stage, paid in ((ledger or {}).get("by_stage") or {}).items():
        mine = returned.by_stage.get(stage)
        extra = {name: paid.get(name, 0) - (getattr(mine, name) if mine is not None else 0) for name in PAID_COUNTERS}
        extra = {name: (round(value, 9) if name == "cost_usd" else int(value)) for name, value in extra.items()
                 if value > 0}
        if extra.get("calls"):
            out[stage] = extra
    return out


def _summed(parts: Any) -> dict[str, float]:
    total: dict[str, float] = {}
    for amounts in parts:
        for name, value in amounts.items():
            total[name] = total.get(name, 0) + value
    return total
