"""bench/vimdoc_markdown.py: the vimdoc -> Markdown rule the technical passage picker's --vimdoc mode stands on."""

from __future__ import annotations

from typing import Any

from test_coe import bench_module


def vimdoc_markdown() -> Any:
    return bench_module("vimdoc_markdown")


# Written for this test (no Vim help file and no gold set holds it).
VIMDOC = """*widgets.txt*\tFor Vim version 9.0.  Last change: 2026 Nov 27

This page is about widgets.

==============================================================================
1. Making widgets\t\t\t\t\t*widget-make* {{{1

A widget is made with |:WidgetNew| and removed with `CTRL-W` x or <Del>.
Each {name} must be unique.  *widget-unique*
   The widget buffer keeps its text until Vim exits: >
\t:WidgetNew mine
\tlet w = 1
<The buffer is then listed.
:WidgetList\t\tList all widgets.
Topic one\t\t|widget-one|

Widget options ~
Options are read once.

------------------------------------------------------------------------------
Credits\t\t\t\t\t\t*widget-credits*

Thanks go to nobody in particular.
"""


def test_headings_tags_links_and_keys() -> None:
    md = vimdoc_markdown().vimdoc_to_markdown(VIMDOC)
    assert "# widgets.txt\n" in md
    assert "## 1. Making widgets\n" in md  # the tag and the fold marker are dropped
    assert "A widget is made with :WidgetNew and removed with `CTRL-W` x or `<Del>`." in md
    assert "Each `{name}` must be unique." in md
    assert "*widget-unique*" not in md
    assert "#### Widget options\n" in md


def test_code_blocks_commands_and_tables_are_not_prose() -> None:
    md = vimdoc_markdown().vimdoc_to_markdown(VIMDOC)
    # The user manual's paragraph indent starts a paragraph; the ">" opens a code block up to the "<" line.
    assert "\nThe widget buffer keeps its text until Vim exits:\n" in md
    assert "```\n\t:WidgetNew mine\n\tlet w = 1\n```" in md
    assert "\nThe buffer is then listed.\n" in md
    assert "```\n:WidgetList\t\tList all widgets.\nTopic one\t\t|widget-one|\n```" in md


def test_credits_section_is_skipped() -> None:
    md = vimdoc_markdown().vimdoc_to_markdown(VIMDOC)
    assert "Thanks go to" not in md and "Credits" not in md


def test_upper_case_subsection_heading() -> None:
    md = vimdoc_markdown().vimdoc_to_markdown("*w.txt*\tFor Vim\n\n2.3 WIDGET COLOURS\t\t*widget-colours*\nWidgets "
                                              "are grey.\nBUT NOT\nthis line in prose.\n")
    assert "### 2.3 WIDGET COLOURS\n" in md
    assert "\nWidgets are grey.\nBUT NOT\nthis line in prose.\n" in md  # no blank line before it: prose
