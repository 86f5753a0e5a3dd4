"""`kgbuild eval QA_FILE`: retrieval modes side by side on a QA file (HotpotQA, 2Wiki, MuSiQue).

Registered on the main group by kgbuild/cli.py (`main.add_command(eval_command)`). The helpers of
cli.py are looked up when the command runs, so the two modules can import each other in any order.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from kgbuild.errors import ConfigError

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.evaluate import EvalReport

F = TypeVar("F", bound=Callable[..., Any])
MODES = ("bm25", "dense", "hybrid")


def _fail_cleanly(fn: F) -> F:
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from kgbuild.cli import _fail_cleanly as fail_cleanly

        return fail_cleanly(fn)(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _config(ctx: click.Context) -> Config:
    from kgbuild.cli import _config as config_of

    return config_of(ctx)


def parse_modes(text: str) -> list[str]:
    modes = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise ConfigError("--modes", f"unknown mode(s) {', '.join(unknown) or '(none given)'}",
                          f"choose from {', '.join(MODES)}, comma-separated")
    return list(dict.fromkeys(modes))


@click.command("eval")
@click.argument("qa_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--modes", default="bm25,dense,hybrid", show_default=True, help="retrieval modes, comma-separated")
@click.option("--limit", "-n", type=click.IntRange(min=1), help="only the first N questions")
@click.option("--format", "fmt", type=click.Choice(["auto", "hotpotqa", "2wiki", "musique"]), default="auto",
              show_default=True, help="QA file format (auto: MuSiQue if records have 'paragraphs')")
@click.option("--json", "as_json", is_flag=True, help="print the report (with per-question results) as JSON")
@click.pass_context
@_fail_cleanly
def eval_command(ctx: click.Context, qa_file: Path, modes: str, limit: int | None, fmt: str, as_json: bool) -> None:
    """Recall@2/5, EM, F1 and latency of each retrieval mode over the questions of QA_FILE."""
    from kgbuild.evaluate import read_qa, retrieval_answerer, run_modes
    from kgbuild.solve.retrieval import HybridRetriever, MutualIndex
    from kgbuild.store.open import open_query_index

    chosen = parse_modes(modes)
    qa = read_qa(qa_file, fmt, limit)  # type: ignore[arg-type]
    for problem in qa.problems:
        click.echo(f"skipped: {problem}", err=True)
    config = _config(ctx)
    index = open_query_index(config)
    try:
        if index.vectors is None:
            raise ConfigError("vector_store.backend", "eval needs the vector store, but it is 'none'",
                              "set vector_store.backend: milvus and run `kgbuild sync`")
        mutual = MutualIndex.load(index.workspace)
        # Questions are embedded by the model itself, not answered from the persistent embedding
        # cache: otherwise every mode after the first would time a cache hit instead of a query.
        embedder = getattr(index.embedder, "inner", index.embedder)
        retriever = HybridRetriever(mutual, index.vectors, embedder, index.prefix)
        answerers = {m: retrieval_answerer(retriever, m) for m in chosen}  # type: ignore[arg-type]
        if qa.items:
            # Loads the embedding model (seconds) before the clock starts on the first question.
            retriever.retrieve(qa.items[0].question, 1, mode="dense")
        progress = None if as_json else _progress(len(qa.items))
        report = run_modes(qa, answerers, mutual.title_of, keep_results=as_json, on_question=progress)
    finally:
        index.close()
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        # Ten numeric columns need ~90 characters; a pipe or a narrow terminal would cut them to "0.8…".
        print_report(report, Console(soft_wrap=False, width=max(100, Console().width)))
    if not qa.items:
        sys.exit(1)


def _progress(total: int) -> Callable[[str, int], None]:
    def tick(mode: str, done: int) -> None:
        if done == total or done % 50 == 0:
            click.echo(f"{mode}: {done}/{total} questions", err=True)

    return tick


def print_report(report: EvalReport, out: Console) -> None:
    table = Table(title=f"{report.qa_file}: {report.questions} questions"
                        + (f", {len(report.problems)} skipped" if report.problems else ""), title_justify="left")
    from kgbuild.evaluate import RECALL_DEPTHS

    recall_cols = [f"R@{k}" for k in RECALL_DEPTHS]
    for col in ("mode", *recall_cols, "EM", "F1", "p50 ms", "p90 ms", "p99 ms", "calls/q", "tokens/q", "errors"):
        table.add_column(col, justify="left" if col == "mode" else "right")
    for m in report.modes:
        tokens = m.prompt_tokens_per_question + m.completion_tokens_per_question
        table.add_row(m.mode, *(f"{m.recall_at(k):.3f}" for k in RECALL_DEPTHS), f"{m.em:.3f}", f"{m.f1:.3f}",
                      f"{m.p50_ms:.1f}", f"{m.p90_ms:.1f}", f"{m.p99_ms:.1f}", f"{m.llm_calls_per_question:.1f}",
                      f"{tokens:.0f}", str(m.errors))
    out.print(table)
    for m in report.modes:
        for note in m.notes:
            out.print(f"note ({m.mode}): {note}", markup=False, highlight=False)
