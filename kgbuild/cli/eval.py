"""`kgbuild eval QA_FILE`: strategies side by side on a QA file (HotpotQA, 2Wiki, MuSiQue).

Every registered strategy of the query engine (kgbuild/engine.py) can be scored: the retrieval
strategies (bm25, dense, hybrid), answered extractively without a model; the graph strategies that
retrieve without one (frag, subgraphrag); and those that need the configured model (solver, coe,
fasttog), so EM/F1, model calls, tokens per question and latency are measured on the same
questions. Default: the strategies that need no model, and the solver too when a model is configured
(coe and fasttog make many calls per question: name them with --strategy).

Registered on the main group by kgbuild/cli/root.py (lazily).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.table import Table

from kgbuild.cli.common import config_of, fail_cleanly, open_engine
from kgbuild.errors import ConfigError

if TYPE_CHECKING:
    from kgbuild.query.evaluate import EvalReport, QAFormat


def parse_strategies(text: str) -> list[str]:
    """Comma-separated strategy names, checked against those kgbuild ships before anything is opened."""
    from kgbuild.query.registry import builtin_strategies

    names = list(dict.fromkeys(m.strip() for m in text.split(",") if m.strip()))
    known = builtin_strategies()
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ConfigError("--strategy", f"unknown strategy {', '.join(unknown) or '(none given)'}",
                          f"choose from {', '.join(known)}, comma-separated")
    return names


@click.command("eval")
@click.argument("qa_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--strategy", "--modes", "strategies",
              help="comma-separated strategies (see `kgbuild strategies`) "
                   "[default: every strategy that needs no model (a strategy whose trained part is "
                   "missing is left out with a line), and solver when a model is configured]")
@click.option("--limit", "-n", type=click.IntRange(min=1), help="only the first N questions")
@click.option("--format", "fmt", type=click.Choice(["auto", "hotpotqa", "2wiki", "musique"]), default="auto",
              show_default=True, help="QA file format (auto: MuSiQue if records have 'paragraphs')")
@click.option("--json", "as_json", is_flag=True, help="print the report (with per-question results) as JSON")
@click.pass_context
@fail_cleanly
def eval_command(ctx: click.Context, qa_file: Path, strategies: str | None, limit: int | None, fmt: QAFormat,
                 as_json: bool) -> None:
    """Recall@k, EM, F1, model calls, tokens and latency of each strategy over the questions of QA_FILE."""
    from kgbuild.llm.probe import check_endpoints, query_roles
    from kgbuild.query.evaluate import read_qa

    chosen = parse_strategies(strategies) if strategies is not None else None
    config = config_of(ctx)
    # a dead or wrong model endpoint: one line, before the questions are read
    check_endpoints(config, query_roles(config, chosen, _needs_model))
    qa = read_qa(qa_file, fmt, limit)
    for problem in qa.problems:
        click.echo(f"skipped: {problem}", err=True)
    with open_engine(ctx) as engine:
        progress = None if as_json else _progress(len(qa.items))
        report = engine.eval(qa, chosen, keep_results=as_json, on_question=progress)
    for line in report.skipped:  # strategies that cannot run on this store, e.g. bm25 without full text
        click.echo(line, err=True)
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        # Eleven numeric columns need ~100 characters; a pipe or a narrow terminal would cut them to "0.8…".
        print_report(report, Console(soft_wrap=False, width=max(110, Console().width)))
    if not qa.items:
        sys.exit(1)


def _progress(total: int) -> Callable[[str, int], None]:
    def tick(mode: str, done: int) -> None:
        if done == total or done % 50 == 0:
            click.echo(f"{mode}: {done}/{total} questions", err=True)

    return tick


def print_report(report: EvalReport, out: Console) -> None:
    from kgbuild.query.evaluate import RECALL_DEPTHS

    table = Table(title=f"{report.qa_file}: {report.questions} questions"
                        + (f", {len(report.problems)} skipped" if report.problems else ""), title_justify="left")
    recall_cols = [f"R@{k}" for k in RECALL_DEPTHS]
    for col in ("strategy", *recall_cols, "EM", "F1", "p50 ms", "p90 ms", "p99 ms", "calls/q", "tokens/q", "errors"):
        table.add_column(col, justify="left" if col == "strategy" else "right")
    for m in report.modes:
        tokens = m.prompt_tokens_per_question + m.completion_tokens_per_question
        table.add_row(m.mode, *(f"{m.recall_at(k):.3f}" for k in RECALL_DEPTHS), f"{m.em:.3f}", f"{m.f1:.3f}",
                      f"{m.p50_ms:.1f}", f"{m.p90_ms:.1f}", f"{m.p99_ms:.1f}", f"{m.llm_calls_per_question:.1f}",
                      f"{tokens:.0f}", str(m.errors))
    out.print(table)
    for m in report.modes:  # why the strategy failed, so "errors" is never a bare count
        for reason, count in m.error_reasons.items():
            out.print(f"errors ({m.mode}): {count} question(s): {reason}", style="red", markup=False, highlight=False)
    for m in report.modes:
        for note in m.notes:
            out.print(f"note ({m.mode}): {note}", markup=False, highlight=False)


def _needs_model(strategy: str) -> bool:
    """Whether a built-in strategy asks a model (an unknown name: the engine says so later)."""
    from kgbuild.query.registry import builtin_strategies

    spec = builtin_strategies().get(strategy)
    return spec is not None and spec.needs_model
