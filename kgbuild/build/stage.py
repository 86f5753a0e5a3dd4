"""The contract every build stage keeps, so that any runner can execute a list of them.

A stage is a small object with a name (also the name of its report section), the config section
it reads, a cache fingerprint, and one async method from a typed input record to a typed output
record plus its report section. It does its own I/O through the context (workspace, gateway,
models) and holds no state between runs, so the local runner, a test's sequential loop or a
distributed engine can all drive the same list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from kgbuild.report import Section

if TYPE_CHECKING:
    from kgbuild.build.context import BuildContext

In = TypeVar("In", contravariant=True)
Out_co = TypeVar("Out_co", covariant=True)


@dataclass(frozen=True)
class StageResult(Generic[Out_co]):
    output: Out_co
    section: Section | None  # None: the stage had nothing to do (e.g. alignment switched off)
    # A composite stage (build/stream.py: read, chunk, extract, assemble) reports its parts' sections
    # and their seconds, which the runner files under the parts' names.
    parts: tuple[Section, ...] = ()
    seconds: Mapping[str, float] = field(default_factory=dict)

    def sections(self) -> tuple[Section, ...]:
        return (self.section, *self.parts) if self.section is not None else self.parts


class Stage(Protocol[In, Out_co]):
    name: str  # also the key of its section in the build report
    config_section: str  # the part of kgbuild.yaml that shapes it ("" if none)

    def fingerprint(self, ctx: BuildContext) -> str:
        """Changes whenever the same input could give a different output (keys the stage's cache)."""
        ...

    async def run(self, ctx: BuildContext, data: In) -> StageResult[Out_co]: ...


def part_stages(stage: Stage[Any, Any]) -> tuple[Stage[Any, Any], ...]:
    """The stages a composite stage runs (its `parts`), or the stage itself."""
    parts: tuple[Stage[Any, Any], ...] = getattr(stage, "parts", ())
    return parts or (stage,)
