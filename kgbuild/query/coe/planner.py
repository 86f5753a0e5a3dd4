"""The control flow of Chain of Explorations as a pure state machine (no graph, no model).

    PLAN --plan accepted--> EXPLORE --step found nodes--> (evaluator) --continue--> EXPLORE ... --> ANSWER
      ^                        |                               |--answer--> ANSWER --found--> DONE
      |                        | dead end                      |--replan--+
      +------ failure (< max_failures) <------------------------------------+ <-- ANSWER not found
                          failure (= max_failures) --> GIVE_UP (the fixed "could not find" reply)

A failed try is a plan that cannot run, a step that finds nothing, the evaluator asking for a new
plan, or an answer the explored path does not support. Each try starts from an empty path; the
reasons of the failed ones go to the next planning prompt, so the model does not repeat itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from kgbuild.query.coe.replies import Decision, StepKind

COULD_NOT_FIND = "I could not find an answer in the knowledge graph."


class Phase(str, Enum):
    PLAN = "plan"
    EXPLORE = "explore"
    EVALUATE = "evaluate"
    ANSWER = "answer"
    DONE = "done"
    GIVE_UP = "give_up"


@dataclass(frozen=True)
class PlanStep:
    kind: StepKind
    text: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.text}"


@dataclass
class Exploration:
    """Where one question's exploration stands. The strategy asks `phase` what to do next, does it,
    and reports back with `accept_plan`, `record`, `decide` or `answered`."""

    max_failures: int = 3
    max_steps: int = 6  # a longer plan is cut: each step costs two model calls
    phase: Phase = Phase.PLAN
    plan: list[PlanStep] = field(default_factory=list)
    position: int = 0  # the next step of the plan to run
    failures: int = 0
    tries: int = 0
    current: list[int] = field(default_factory=list)  # nodes the exploration stands on
    path_edges: list[int] = field(default_factory=list)  # edges explored in this try, in order
    path_nodes: list[int] = field(default_factory=list)  # nodes reached in this try, in order
    step_edges: list[list[int]] = field(default_factory=list)  # the edges each step of this try added
    step_nodes: list[list[int]] = field(default_factory=list)  # the nodes each step of this try reached
    feedback: list[str] = field(default_factory=list)  # why earlier tries failed, for the next plan

    @property
    def finished(self) -> bool:
        return self.phase in (Phase.DONE, Phase.GIVE_UP)

    def next_step(self) -> PlanStep:
        if self.phase is not Phase.EXPLORE:
            raise RuntimeError(f"no step to run in phase {self.phase.value}")
        return self.plan[self.position]

    def accept_plan(self, steps: list[PlanStep]) -> str | None:
        """Start a try with `steps`; the reason it cannot run (and a failure) when it cannot."""
        self._expect(Phase.PLAN)
        self.tries += 1
        self.plan, self.position = list(steps[: self.max_steps]), 0
        self.current, self.path_edges, self.path_nodes = [], [], []
        self.step_edges, self.step_nodes = [], []
        if not self.plan:
            return self.fail("the planner gave no usable steps")
        if self.plan[0].kind != "node":
            # A relation hop needs nodes to start from; only a lookup gives them.
            return self.fail(f"the plan must start with a node lookup, not '{self.plan[0]}'")
        self.phase = Phase.EXPLORE
        return None

    def record(self, nodes: list[int], edges: list[int]) -> str | None:
        """The current step reached `nodes` over `edges`; no nodes is a dead end (a failure)."""
        self._expect(Phase.EXPLORE)
        step = self.plan[self.position]
        if not nodes:
            return self.fail(f"dead end at step {self.position + 1} ({step}): nothing was selected")
        self.current = list(dict.fromkeys(nodes))
        self.path_edges.extend(e for e in edges if e not in self.path_edges)
        self.path_nodes.extend(n for n in self.current if n not in self.path_nodes)
        self.step_edges.append(list(edges))
        self.step_nodes.append(list(self.current))
        self.position += 1
        self.phase = Phase.EVALUATE
        return None

    @property
    def plan_done(self) -> bool:
        return self.position >= len(self.plan)

    def decide(self, decision: Decision, reason: str = "") -> str | None:
        """The evaluator's verdict after a step."""
        self._expect(Phase.EVALUATE)
        if decision == "replan":
            return self.fail(f"the evaluator asked for a new plan after step {self.position}"
                             + (f": {reason}" if reason else ""))
        # "continue" past the last step has nothing left to explore: answer from what was found.
        self.phase = Phase.ANSWER if decision == "answer" or self.plan_done else Phase.EXPLORE
        return None

    def answered(self, found: bool) -> str | None:
        self._expect(Phase.ANSWER)
        if found:
            self.phase = Phase.DONE
            return None
        return self.fail("the explored path does not answer the question")

    def fail(self, reason: str) -> str:
        """Count a failed try: plan again, or give up after `max_failures`."""
        self.failures += 1
        self.feedback.append(f"try {self.tries}: {reason}")
        self.phase = Phase.GIVE_UP if self.failures >= self.max_failures else Phase.PLAN
        return reason

    def _expect(self, phase: Phase) -> None:
        if self.phase is not phase:
            raise RuntimeError(f"expected phase {phase.value}, the exploration is in {self.phase.value}")
