"""A line break inside a chunk ends a list item or a table row (the readers join a paragraph's wrapped
lines with spaces), so no name runs over one: en_core_web_sm tags "Claude Rains / Conrad Veidt /
Sydney Greenstreet" in a cast list as one PERSON otherwise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_offline_extractor import FakeSchema, make_chunk

from kgbuild.extract.offline import OfflineExtractor
from kgbuild.model import ChunkExtraction

CAST = ("The film's principal cast:\n\nHumphrey Bogart\nIngrid Bergman\nPaul Henreid\nClaude Rains\nConrad Veidt\n"
        "Sydney Greenstreet\nPeter Lorre")


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(FakeSchema())


def names(extractor: OfflineExtractor, text: str) -> set[str]:
    result: ChunkExtraction
    [result] = extractor.extract([make_chunk(text)])
    return {e.name for e in result.entities}


def test_each_list_item_is_a_name_of_its_own(extractor: OfflineExtractor) -> None:
    found = names(extractor, CAST)
    assert {"Claude Rains", "Conrad Veidt", "Sydney Greenstreet", "Humphrey Bogart", "Peter Lorre"} <= found
    assert not any("\n" in name or name.count(" ") > 2 for name in found), found


def test_a_name_inside_one_line_is_kept_whole(extractor: OfflineExtractor) -> None:
    # The guard: within a line nothing changes, a three-word name and a name before a line break included.
    found = names(extractor, "Cast:\nJohn von Neumann\nThe report was written by Herman Goldstine.\nEnd")
    assert {"John von Neumann", "Herman Goldstine"} <= found
