"""Query output keeps Chinese readable at 80 columns (issue 25, item 5): text is wrapped by the columns it
takes (a Chinese character two), Latin words and numbers stay whole, no line starts with closing
punctuation, and nothing of the passage is cut away."""

from __future__ import annotations

import io

from rich.console import Console

from kgbuild.cli.query import print_answer
from kgbuild.display_width import display_width, wrap
from kgbuild.query.types import Answer, Citation, ScoredChunk

TEXT = ("星河智能科技股份有限公司成立于2009年，总部位于杭州。2022年，星河智能实现营业收入128.6亿元，同比增长12.4%；"
        "归属于上市公司股东的净利润9.3亿元，同比下降3.1%。")


def test_display_width_counts_a_chinese_character_as_two_columns() -> None:
    assert display_width("杭州") == 4 and display_width("Hangzhou") == 8 and display_width("2009年") == 6


def test_wrap_fills_lines_by_columns_and_keeps_everything() -> None:
    lines = wrap(TEXT, 30)
    assert all(display_width(line) <= 30 for line in lines)
    assert "".join(lines) == TEXT  # nothing cut, nothing added (Chinese lines join without spaces)
    assert len(lines) >= 6 and all(display_width(line) >= 20 for line in lines[:-1])  # filled, not fragments


def test_wrap_keeps_numbers_whole_and_never_starts_a_line_with_closing_punctuation() -> None:
    for width in range(16, 40):
        lines = wrap(TEXT, width)
        assert not any(line[0] in "，。；、%" for line in lines), (width, lines)
        joined = "\n".join(lines)
        for number in ("2009", "2022", "128.6", "12.4%", "9.3", "3.1%"):
            assert number in joined.replace("\n", "") and number in "".join(joined.split("\n"))
            assert any(number in line for line in lines), (width, number, lines)


def test_wrap_breaks_english_at_spaces_with_indents() -> None:
    lines = wrap("The quick brown fox jumps over the lazy dog. " * 3, 30, indent="    ", first_indent="  ")
    assert lines[0].startswith("  The") and all(line.startswith("    ") for line in lines[1:])
    assert all(display_width(line) <= 30 for line in lines)
    assert " ".join(line.strip() for line in lines) == ("The quick brown fox jumps over the lazy dog. " * 3).strip()


def test_query_output_shows_whole_chinese_passages_at_80_columns() -> None:
    answer = Answer(question="星河智能的总部位于哪里？", answer="杭州", resolved=False, mode="retrieval", strategy="hybrid",
                    chunks=[ScoredChunk(id="report#3#0", doc_id="report", text=TEXT[:100], score=0.5,
                                        signals={"bm25": 0.4, "dense": 0.3})],
                    citations=[Citation(chunk_id="report#3#0", doc_id="report", text=TEXT)])
    buffer = io.StringIO()
    print_answer(answer, Console(file=buffer, width=80, soft_wrap=False))
    out = buffer.getvalue()
    assert all(display_width(line) <= 80 for line in out.splitlines())
    assert "…" not in out  # no passage cut to a fragment
    cited = out[out.index("citations"):]
    assert TEXT in "".join(line.strip() for line in cited.splitlines()[1:])
    cells = "".join(line.split("│")[5].strip() for line in out.splitlines() if line.count("│") == 6)
    assert TEXT[:100] in cells  # the chunks table shows the passage's text whole, over several lines


def test_a_number_does_not_take_the_chinese_text_after_it_onto_its_own_line() -> None:
    # `\w` matched the Chinese characters after "2009": the whole clause was one unit, which was
    # pushed to the next line (a first line of three characters) and then cut at the width.
    text = "公司于2009年在深圳证券交易所上市，营业收入同比增长8.3%，达128.6亿元。"
    lines = wrap(text, 30)
    assert "".join(lines) == text
    assert all(display_width(line) >= 24 for line in lines[:-1]), lines


def test_a_run_of_closing_marks_goes_down_with_the_word_it_closes() -> None:
    # ")" fitted the line and ":" did not: the line below started with "):".
    for width in range(20, 60):
        lines = wrap("the graph is 35 separate pieces (the largest holds 3% of its nodes): walks find little", width)
        assert not any(line.lstrip()[0] in ")]:,." for line in lines), (width, lines)
    lines = wrap("该公司（以下简称“星河”）。其总部位于杭州（浙江）。", 12)
    assert not any(line[0] in "）。”" for line in lines), lines
