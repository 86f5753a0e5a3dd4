"""bench/info_markdown.py: a GNU Info node rendered as Markdown for the picker's --info mode (a snippet written
for this test, from no manual)."""
from __future__ import annotations

from test_coe import bench_module


def info_to_markdown(text: str) -> str:
    # Imported when a test runs, not when the suite is collected: bench_module puts bench/ first on sys.path, and
    # bench/mcp.py would then stand for the mcp package in test modules collected after this one.
    rendered: str = bench_module("info_markdown").info_to_markdown(text)
    return rendered


SNIPPET = (
    "This is demo.info, produced by makeinfo.\n\n"
    "\x1f\nFile: demo.info,  Node: Top,  Next: Basics,  Up: (dir)\n\nDemo\n****\n\nCopyright text.\n\n"
    "\x1f\nFile: demo.info,  Node: Basics,  Next: Concept Index,  Prev: Top,  Up: Top\n\n"
    "1 Basics\n********\n\n"
    "The ‘frob’ tool reads `input.txt' and writes a report.  *Note Output\nFormat::, for the layout.\n\n"
    "   A second paragraph names the ‘-q’ option (*note Quiet mode: Options.).\n\n"
    "     frob -q input.txt\n\n"
    "‘-v’\n     Be verbose.\n\n"
    "1.1 Details\n===========\n\nMore text.\n\n"
    "* Menu:\n\n* Details::  The details.\n\n"
    "\x1f\nFile: demo.info,  Node: Concept Index,  Prev: Basics,  Up: Top\n\nIndex\n*****\n\n* frob: Basics. (line 3)\n"
    "\x1f\nTag Table:\nNode: Top27\n\x1f\nEnd Tag Table\n"
)


def test_info_node_becomes_markdown() -> None:
    md = info_to_markdown(SNIPPET)
    assert "# 1 Basics" in md and "## 1.1 Details" in md
    assert "The `frob` tool reads `input.txt` and writes a report.  See Output\nFormat, for the layout." in md
    assert "\nA second paragraph names the `-q` option (see Quiet mode)." in md  # paragraph indent dropped
    assert "```\n     frob -q input.txt\n```" in md
    assert "\n     Be verbose." in md  # a table body stays indented, so never eligible prose
    assert "Copyright text" not in md and "Menu" not in md and "Details::" not in md
    assert "Index" not in md and "Tag Table" not in md and "File:" not in md
