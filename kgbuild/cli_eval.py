"""`kgbuild eval QA_FILE`: answer modes side by side on a QA file (HotpotQA, 2Wiki, MuSiQue).

Modes: the three retrieval modes (bm25, dense, hybrid), each answered extractively without a model,
and `solver`, the full plan-execute-judge loop with the configured model, so its EM/F1, model calls,
tokens per question and latency are measured on the same questions. Without a model the default is
the three retrieval modes; with one, solver is added.

Registered on the main group by kgbuild/cli.py (`main.add_command(eval_command)`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.table import Table

from kgbuild.cli_common import config_of, fail_cleanly, make_retriever, open_index
from kgbuild.errors import ConfigError

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.evaluate import AnswerFn, EvalReport
    from kgbuild.solve.retrieval import HybridRetriever
    from kgbuild.store.open import QueryIndex

RETRIEVAL_MODES = ("bm25", "dense", "hybrid")
MODES = (*RETRIEVAL_MODES, "solver")


def default_modes(config: Config) -> list[str]:
    """The retrieval modes; the solver too when a model is configured."""
    return [*RETRIEVAL_MODES, "solver"] if config.llm.configured() else list(RETRIEVAL_MODES)


def parse_modes(text: str) -> list[str]:
    modes = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise ConfigError("--modes", f"unknown mode(s) {', '.join(unknown) or '(none given)'}",
                          f"choose from {', '.join(MODES)}, comma-separated")
    return list(dict.fromkeys(modes))


def usable_modes(chosen: list[str], retriever: HybridRetriever, config: Config) -> list[str]:
    """`chosen` less bm25 on a store without full text (one line on stderr says so); a mode that
    cannot run at all is an error."""
    if "solver" in chosen and not config.llm.configured():
        raise ConfigError("llm.model", "--modes solver needs a model",
                          "set llm.base_url and llm.model (or KGBUILD_LLM_MODEL), or leave solver out")
    if "bm25" not in chosen or retriever.full_text_available():
        return chosen
    rest = [m for m in chosen if m != "bm25"]
    if not rest:
        raise ConfigError("--modes", f"bm25 cannot run: {retriever.full_text_problem}",
                          "choose dense or hybrid, or a vector store with full-text search")
    click.echo(f"skipped mode bm25: {retriever.full_text_problem}", err=True)
    return rest


def answerers(chosen: list[str], config: Config, index: QueryIndex, retriever: HybridRetriever,
              stack: ExitStack) -> dict[str, AnswerFn]:
    """mode -> answer function, in the order chosen; the solver's session is closed by `stack`."""
    from kgbuild.evaluate import retrieval_answerer

    out: dict[str, AnswerFn] = {}
    for mode in chosen:
        if mode == "solver":
            from kgbuild.solve.session import SolverSession

            # As `kgbuild query` runs it (query.top_k chunks per read), so its recall is that of the
            # chunks it actually read; no reply cache, so the calls and latency are this run's.
            session = stack.enter_context(SolverSession(config, index.workspace, index.graph, retriever,
                                                        config.query.top_k, use_cache=False))
            out[mode] = session.answer
        else:
            out[mode] = retrieval_answerer(retriever, mode)  # type: ignore[arg-type]
    return out


@click.command("eval")
@click.argument("qa_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--modes", help="comma-separated, of bm25, dense, hybrid, solver "
                              "[default: bm25,dense,hybrid, and solver when a model is configured]")
@click.option("--limit", "-n", type=click.IntRange(min=1), help="only the first N questions")
@click.option("--format", "fmt", type=click.Choice(["auto", "hotpotqa", "2wiki", "musique"]), default="auto",
              show_default=True, help="QA file format (auto: MuSiQue if records have 'paragraphs')")
@click.option("--json", "as_json", is_flag=True, help="print the report (with per-question results) as JSON")
@click.pass_context
@fail_cleanly
def eval_command(ctx: click.Context, qa_file: Path, modes: str | None, limit: int | None, fmt: str,
                 as_json: bool) -> None:
    """Recall@k, EM, F1, model calls, tokens and latency of each mode over the questions of QA_FILE."""
    from kgbuild.evaluate import read_qa, run_modes

    config = config_of(ctx)
    chosen = parse_modes(modes) if modes is not None else default_modes(config)
    qa = read_qa(qa_file, fmt, limit)  # type: ignore[arg-type]
    for problem in qa.problems:
        click.echo(f"skipped: {problem}", err=True)
    index = open_index(config)
    with ExitStack() as stack:
        stack.callback(index.close)
        # Questions are embedded by the model itself, not answered from the persistent embedding
        # cache: otherwise every mode after the first would time a cache hit instead of a query.
        retriever = make_retriever(index, cached_embeddings=False)
        answer_fns = answerers(usable_modes(chosen, retriever, config), config, index, retriever, stack)
        if qa.items:
            # Loads the embedding model (seconds) before the clock starts on the first question.
            retriever.retrieve(qa.items[0].question, 1, mode="dense")
        progress = None if as_json else _progress(len(qa.items))
        report = run_modes(qa, answer_fns, retriever.index.title_of, keep_results=as_json, on_question=progress)
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
    from kgbuild.evaluate import RECALL_DEPTHS

    table = Table(title=f"{report.qa_file}: {report.questions} questions"
                        + (f", {len(report.problems)} skipped" if report.problems else ""), title_justify="left")
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
