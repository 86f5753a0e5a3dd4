"""bench/man_markdown.py renders man(7) troff as Markdown for the passage picker's --man mode."""
from __future__ import annotations

from test_coe import bench_module


def man_to_markdown(text: str) -> str:
    # Imported when a test runs, not when the suite is collected: bench_module puts bench/ first on sys.path, and
    # bench/mcp.py would then stand for the mcp package in test modules collected after this one.
    rendered: str = bench_module("man_markdown").man_to_markdown(text)
    return rendered


# A page written for this test, in the shape of the man(7) pages under /usr/share/man.
PAGE = r""".\" a comment line
.ds Aq '
.de XX
..
.TH FROB 1 "2026-11-27" "frob 1.0"
.SH NAME
frob \- turn widgets into gadgets
.SH DESCRIPTION
.B frob
reads each
.I file
and writes the result to standard output\(em unless
.BR \-o ,
is given, it doesn\*(Aqt touch the file.
.PP
A second paragraph with \fBbold\fR, \fIitalic\fP and a
line that is broken here
.br
and joined.
.TP
.B \-v
Print more.
.SS Examples of use
.nf
frob \-v *.txt
.fi
.XX some text
.TS
a table
.TE
.if n Read on a terminal.
.if t Read on paper.
"""


def test_renders_title_headings_fonts_and_escapes() -> None:
    md = man_to_markdown(PAGE)
    assert md.startswith("# FROB(1)\n\n## NAME\n\nfrob - turn widgets into gadgets\n\n## DESCRIPTION\n")
    assert "`frob`\nreads each\n*file*\nand writes the result to standard output\u2014 unless\n`-o`,\nis given, it doesn't" in md
    assert "A second paragraph with `bold`, *italic* and a\nline that is broken here\\\nand joined." in md


def test_items_code_blocks_and_skipped_requests() -> None:
    md = man_to_markdown(PAGE)
    assert "\n\n- `-v`\n\nPrint more.\n\n### Examples of use\n\n```\nfrob -v *.txt\n```\n" in md
    assert "<!-- .XX -->" in md and "a table" not in md
    assert "Read on a terminal." in md and "paper" not in md
    assert "comment" not in md


def test_mdoc_and_pointer_pages_give_nothing() -> None:
    assert man_to_markdown(".Dd May 1, 2020\n.Dt FOO 1\n.Nm foo\n") == ""
    assert man_to_markdown(".so man1/other.1\n") == ""
