"""The model's replies in FastToG: which communities to follow (fine pruning), and the reasoning.

Tolerant as the other strategies' replies: numbers as strings, one number for a list, "none" for
no community; an answer that is "Unknown" (any case, or empty) means "keep exploring".
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from kgbuild.query.llm_ask import Numbers, Text

UNKNOWN = "unknown"


class PruneReply(BaseModel):
    """The candidate communities to follow, by number; [] (or "none") stops the chain."""

    model_config = ConfigDict(extra="ignore")

    selected: Numbers


class ReasonReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    answer: Text
    reason: Text = ""

    @property
    def known(self) -> bool:
        text = self.answer.strip().strip(".").strip().lower()
        return bool(text) and text not in (UNKNOWN, "none", "n/a", "not available", "未知")


NO_CHOICE = PruneReply(selected=[])
NO_REASON = ReasonReply(answer="Unknown", reason="no usable reply")
