"""bench/technical_scoring.py's name forms: a name of punctuation only is a name too (held-out-11, Vim's help, labels
the `:` command; the scorer crashed with StopIteration on it before any figure was printed)."""

from __future__ import annotations

from typing import Any

import pytest
from test_coe import bench_module


@pytest.fixture(scope="module")
def scoring() -> Any:
    return bench_module("technical_scoring")


def test_a_name_of_punctuation_only_is_its_own_form(scoring: Any) -> None:
    assert scoring.forms(":") == frozenset({":"})
    assert scoring.forms('":"') == scoring.forms("`:`") == scoring.forms(":")
    assert scoring.same(":", scoring.forms(":"))
    assert not scoring.same(";", scoring.forms(":"))


def test_ordinary_names_keep_their_forms(scoring: Any) -> None:
    assert scoring.forms("socket.connect(options)") == frozenset({"socket.connect"})
    assert "masked array" in scoring.forms("masked arrays")
