"""Markdown from PDF converters (issue 25, item 3): page markers, image placeholders and HTML tags are
not content; the Markdown reader drops them, keeps the text between tags, leaves code alone, and the
build report counts what went."""

from __future__ import annotations

import asyncio
from pathlib import Path

from kgbuild.config import load_config
from kgbuild.ingest.readers.converter_markup import strip_converter_markup
from kgbuild.ingest.readers.markdown import parse_markdown

# The shape of a Chinese annual report converted from PDF (tags as such converters write them).
REPORT = """# 星河智能科技股份有限公司2022年年度报告

<PAGE_DIV>

## 第一节 公司简介

星河智能科技股份有限公司（以下简称“星河智能”）成立于2009年，总部位于杭州。<span id="page-3-0"></span>

![](images/9f1c2d_3.jpg)

<img src="images/logo.png" alt="logo"/>

<table><tr><td>项目</td><td>2022年</td></tr><tr><td>营业收入（亿元）</td><td>128.6</td></tr></table>

- 3 -

</PAGE_DIV>
<PAGE_DIV>

{4}------------------------------------------------

2022年，星河智能实现营业收入128.6亿元，同比增长12.4%。<sup>1</sup>

![图片](images/chart_4.png)

第 4 页 共 120 页

```html
<div class="keep">code stays as written</div>
```

Write `<br>` to break a line; a <Placeholder> in prose names no HTML element and stays.
</PAGE_DIV>
"""


def test_markup_is_dropped_text_between_tags_kept() -> None:
    text, dropped = strip_converter_markup(REPORT)
    assert "PAGE_DIV" not in text and "<span" not in text and "<img" not in text and "images/" not in text
    assert "<table>" not in text and "<td>" not in text and "<sup>" not in text
    assert "{4}---" not in text and "第 4 页" not in text and "- 3 -" not in text
    assert "项目 | 2022年" in text and "营业收入（亿元） | 128.6" in text  # a table's cells are content
    assert "同比增长12.4%。 1" in text  # the footnote mark's text stays, its tag goes
    assert '<div class="keep">code stays as written</div>' in text  # fenced code untouched
    assert "`<br>`" in text and "<Placeholder>" in text
    assert dropped >= 20


def test_a_described_image_keeps_its_description() -> None:
    text, dropped = strip_converter_markup("见下图。![2018-2022年营业收入变化](images/a.png)")
    assert dropped == 0 and "![2018-2022年营业收入变化](images/a.png)" in text
    assert "2018-2022年营业收入变化" in parse_markdown("见下图。![2018-2022年营业收入变化](images/a.png)").paragraphs[0].text


def test_parse_markdown_counts_what_it_dropped() -> None:
    parsed = parse_markdown(REPORT)
    body = "\n".join(p.text for p in parsed.paragraphs)
    assert "PAGE_DIV" not in body and "images/" not in body and "span" not in body
    assert parsed.markup_dropped >= 20
    assert parse_markdown("# Plain\n\nNothing to drop here.").markup_dropped == 0


def test_a_converted_report_builds_without_markup_in_any_chunk(tmp_path: Path) -> None:
    from kgbuild.build import Builder
    from kgbuild.corpus import load_corpus
    from kgbuild.workspace import Workspace

    (tmp_path / "report.md").write_text(REPORT, encoding="utf-8")
    (tmp_path / "kgbuild.yaml").write_text(
        "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\nbuild:\n  workers: 1\n",
        encoding="utf-8")
    config = load_config(tmp_path / "kgbuild.yaml", env={})
    report = asyncio.run(Builder(config).arun([tmp_path / "report.md"]))
    assert report.read is not None and report.read.markup_dropped >= 20
    corpus = load_corpus(Workspace(config.workspace_path()))
    chunks = [c for cs in corpus.chunks.values() for c in cs]
    assert chunks
    for chunk in chunks:
        assert "PAGE_DIV" not in chunk.text and "images/" not in chunk.text and "<td>" not in chunk.text
    assert any("128.6亿元" in c.text for c in chunks)
