"""`kgbuild query "question"`: the solver with a model, the retrieval-only answer without one.

Registered on the main group by kgbuild/cli.py (`main.add_command(query)`); the helpers it shares
with eval and export are in kgbuild/cli_common.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.table import Table

from kgbuild.cli_common import config_of, fail_cleanly, make_retriever, open_index
from kgbuild.errors import ConfigError

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.solve.types import Answer, Retriever
    from kgbuild.store.open import QueryIndex

__all__ = ["make_retriever", "open_index", "print_answer", "query", "run_solver"]


def run_solver(config: Config, index: QueryIndex, retriever: Retriever, question: str, k: int) -> Answer:
    from kgbuild.solve.session import SolverSession

    with SolverSession(config, index.workspace, index.graph, retriever, k) as session:
        return session.answer(question)


# ---------------------------------------------------------------- the command


@click.command("query")
@click.argument("question")
@click.option("--json", "as_json", is_flag=True, help="print the answer as JSON")
@click.option("--k", type=click.IntRange(1, 100), default=None, help="chunks returned as evidence (default: query.top_k)")
@click.option("--mode", type=click.Choice(["auto", "solver", "retrieval"]), default="auto", show_default=True,
              help="auto: the solver if a model is configured, else retrieval only")
@click.pass_context
@fail_cleanly
def query(ctx: click.Context, question: str, as_json: bool, k: int | None, mode: str) -> None:
    """Answer QUESTION from the built graph, with citations and the reasoning trace."""
    config = config_of(ctx)
    if not question.strip():
        raise ConfigError("query", "the question is empty")
    use_solver = mode == "solver" or (mode == "auto" and config.llm.configured())
    if use_solver and not config.llm.configured():
        raise ConfigError("llm.model", "--mode solver needs a model",
                          "set llm.base_url and llm.model (or KGBUILD_LLM_MODEL), or use --mode retrieval")
    top_k = k or config.query.top_k
    index = open_index(config)
    try:
        retriever = make_retriever(index)
        if use_solver:
            answer = run_solver(config, index, retriever, question, top_k)
        else:
            from kgbuild.solve.retrieval import answer_offline

            answer = answer_offline(question, retriever, top_k)
    finally:
        index.close()
    if as_json:
        click.echo(answer.model_dump_json(indent=2))
    else:
        print_answer(answer, Console(soft_wrap=False))


# ---------------------------------------------------------------- human-readable output


def _short(text: str, n: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def print_answer(answer: Answer, out: Console) -> None:
    out.print(answer.answer or "(no answer)", style="bold", markup=False, highlight=False)
    if answer.mode == "solver":
        status = "resolved" if answer.resolved else "not resolved (best guess)"
        how = f"solver, {status}, {answer.seconds:.2f} s, {answer.llm_calls} model call(s), " \
              f"{answer.prompt_tokens}+{answer.completion_tokens} tokens"
    else:  # no model read the chunks: the sentence is picked by word overlap, not checked
        how = f"extractive answer from the top chunks (no model), {answer.seconds:.2f} s"
    out.print(how, style="dim", markup=False, highlight=False)
    for note in answer.notes:
        out.print(f"note: {note}", style="yellow", markup=False, highlight=False)
    for i, plan in enumerate(answer.plan, 1):
        out.print(f"\n[bold]plan {i}[/bold]")
        out.print(plan.rstrip(), markup=False, highlight=False)
    if answer.trace:
        table = Table(title="trace", title_justify="left")
        for col in ("#", "logical form / question", "result", "calls", "s"):
            table.add_column(col)
        for t in answer.trace:
            form = t.logical_form.splitlines()[0] if t.logical_form else t.question
            table.add_row(str(t.step), _short(form, 80), _short(_result_text(t.result), 80), str(t.llm_calls),
                          f"{t.seconds:.2f}")
        out.print(table)
    if answer.triples:
        table = Table(title="triples", title_justify="left")
        for col in ("subject", "predicate", "object", "chunks"):
            table.add_column(col)
        for tr in answer.triples:
            table.add_row(tr.subject, tr.predicate, tr.object, ", ".join(tr.chunk_ids[:3]))
        out.print(table)
    if answer.chunks:
        table = Table(title="chunks", title_justify="left")
        for col in ("#", "chunk", "score", "signals", "text"):
            table.add_column(col)
        for i, c in enumerate(answer.chunks, 1):
            signals = " ".join(f"{name}={value:.2f}" for name, value in c.signals.items())
            table.add_row(str(i), c.id, f"{c.score:.3f}", signals, _short(c.text, 100))
        out.print(table)
    if answer.citations:
        out.print("\n[bold]citations[/bold]")
        for c in answer.citations:
            out.print(f"  [{c.chunk_id}] ({c.doc_id}) {_short(c.text, 200)}", markup=False, highlight=False)


def _result_text(result: Any) -> str:
    if isinstance(result, dict):
        if "error" in result:
            return f"error: {result['error']}"
        for key in ("bound", "output"):
            if key in result:
                shown = result[key]
                prefix = f"{result['how']}: " if "how" in result else ""
                return prefix + "; ".join(f"{k}={', '.join(map(str, v))}" for k, v in shown.items())
        return ", ".join(f"{k}={v}" for k, v in result.items() if v not in ("", [], None))
    return str(result)
