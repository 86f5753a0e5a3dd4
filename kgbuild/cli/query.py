"""`kgbuild query "question"` over the query engine (kgbuild/engine.py), and `kgbuild strategies`.

Registered on the main group by kgbuild/cli/root.py; the engine comes from kgbuild/cli/common.open_engine.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.table import Table

from kgbuild.cli.common import config_of, fail_cleanly, open_engine
from kgbuild.display_width import wrap
from kgbuild.query.types import FACT_NOTE

if TYPE_CHECKING:
    from kgbuild.query.strategy import StrategySpec
    from kgbuild.query.types import Answer, StepResult
    from kgbuild.workspace import Workspace

__all__ = ["print_answer", "query"]

SHOWN = 10  # facts and triples printed; --json has them all

# `--mode` predates strategies; its values map onto them.
_MODE_STRATEGY = {"auto": "auto", "solver": "solver", "retrieval": "hybrid"}


@click.command("query")
@click.argument("question")
@click.option("--strategy", "-s", default=None,
              help="a registered strategy (see `kgbuild strategies`); default auto: the solver if a model is "
                   "configured, else hybrid retrieval")
@click.option("--json", "as_json", is_flag=True, help="print the answer as JSON")
@click.option("--k", type=click.IntRange(1, 100), default=None,
              help="chunks returned as evidence (default: query.top_k)")
@click.option("--mode", type=click.Choice(list(_MODE_STRATEGY)), default=None,
              help="older spelling of --strategy: auto, solver, or retrieval (= hybrid)")
@click.pass_context
@fail_cleanly
def query(ctx: click.Context, question: str, strategy: str | None, as_json: bool, k: int | None,
          mode: str | None) -> None:
    """Answer QUESTION from the built graph, with citations and the reasoning trace."""
    name = strategy or _MODE_STRATEGY[mode or "auto"]
    began = time.perf_counter()
    timings: dict[str, float] = {}
    startup = process_age()
    if startup is not None:
        timings["startup_s"] = round(startup, 3)
    from kgbuild.llm.probe import check_endpoints, query_roles

    config = config_of(ctx)
    check_endpoints(config, query_roles(config, [name], _needs_model))  # a dead or wrong endpoint: one line
    with open_engine(ctx) as engine:
        timings["open_s"] = round(time.perf_counter() - began, 3)
        asked = time.perf_counter()
        answer = engine.query(question, strategy=name, k=k)
        timings["query_s"] = round(time.perf_counter() - asked, 3)
        timings.update(engine.timings())
    timings["total_s"] = round(time.perf_counter() - began + (startup or 0.0), 3)
    # the strategy's own split of query_s (hybrid: retrieval_s, answer_s) comes first
    answer = answer.model_copy(update={"timings": {**answer.timings, **timings}})
    if as_json:
        click.echo(answer.model_dump_json(indent=2))
    else:
        print_answer(answer, Console(soft_wrap=False))


@click.command("strategies")
@click.pass_context
@fail_cleanly
def strategies(ctx: click.Context) -> None:
    """List the query strategies `kgbuild query --strategy` and `kgbuild eval --strategy` accept."""
    from kgbuild.engine import AUTO
    from kgbuild.query.registry import builtin_strategies
    from kgbuild.workspace import Workspace

    config = config_of(ctx)
    configured = config.llm.configured()
    workspace = Workspace(config.workspace_path())
    table = Table(title="strategies", title_justify="left")
    for col in ("name", "needs", "what it does"):
        table.add_column(col)
    table.add_row(AUTO, "", "solver when a model is configured, else hybrid")
    for spec in builtin_strategies().values():
        table.add_row(spec.name, strategy_needs(spec, configured, workspace), spec.description)
    Console(soft_wrap=False).print(table)


def strategy_needs(spec: StrategySpec, model_configured: bool, workspace: Workspace) -> str:
    """What a strategy needs before it answers: a model, a part trained on this project (and whether it is
    there), or nothing. SubgraphRAG was listed as needing no model and then refused its first query."""
    needs: list[str] = []
    if spec.needs_model:
        needs.append("a model" + ("" if model_configured else " (none configured)"))
    if spec.training:
        present = spec.trained is not None and workspace.exists() and spec.trained(workspace)
        needs.append(f"{spec.training}: trained" if present else f"training first: {spec.training}")
    return "; ".join(needs) or "nothing"


def process_age() -> float | None:
    """Seconds since this process started (interpreter start-up and imports, before the command ran),
    from /proc; None where there is no /proc."""
    try:
        start_ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        import os

        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return None


# ---------------------------------------------------------------- human-readable output


def _short(text: str, n: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


# The first line of an answer no model checked: whatever strategy gave it, it is a guess.
GUESS = "guess, not verified: "


def print_answer(answer: Answer, out: Console) -> None:
    if answer.answer and not answer.verified:
        out.print(GUESS + answer.answer, style="bold", markup=False, highlight=False)
    elif answer.answer:
        out.print(answer.answer, style="bold", markup=False, highlight=False)
    else:  # nothing may be given as the answer: say so first, never print a guess in its place
        kind = f" of the kind asked ({answer.expected_type})" if answer.expected_type not in ("", "any") else ""
        out.print(f"not resolved: no answer{kind}", style="bold yellow", markup=False, highlight=False)
    if answer.mode == "solver":
        status = "resolved" if answer.resolved else "not resolved (best guess)"
        how = f"{answer.strategy or 'solver'}, {status}, {answer.seconds:.2f} s, {answer.llm_calls} model call(s), " \
              f"{answer.prompt_tokens}+{answer.completion_tokens} tokens"
    elif any(n.startswith(FACT_NOTE) for n in answer.notes):  # a relation of the question's entity, unchecked
        how = (f"{answer.strategy or 'retrieval'}: from a graph fact of the entity the question names (no model), "
               f"{answer.seconds:.2f} s")
    elif answer.facts:  # a graph strategy without a model: the best node of the expected type, unchecked
        how = (f"{answer.strategy}: best-ranked graph node of the expected type (no model), "
               f"{answer.seconds * 1000:.0f} ms")
    else:  # no model read the chunks: the sentence is picked by word overlap, not checked
        how = (f"{answer.strategy or 'retrieval'}: extractive answer from the top chunks (no model), "
               f"{answer.seconds:.2f} s")
    out.print(how, style="dim", markup=False, highlight=False)
    for note in (n for step in answer.trace[-1:] for n in step.result.notes or [] if n.startswith("reached by: ")):
        out.print(note, markup=False, highlight=False)  # the path behind a model-free graph answer
    if answer.failure:
        out.print(f"strategy failed: {answer.failure}", style="bold red", markup=False, highlight=False)
    if answer.candidates and not answer.answer:
        out.print("candidates (unchecked, none given as the answer): " + " · ".join(answer.candidates),
                  markup=False, highlight=False)
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
    if answer.facts:
        out.print(f"\n[bold]facts[/bold] (the best {min(len(answer.facts), SHOWN)} of {len(answer.facts)})")
        for i, fact in enumerate(answer.facts[:SHOWN], 1):
            _print_wrapped(out, f"{i}. {_short(fact, 200)}", "  ", "     ")
    if answer.triples:
        title = "triples" if len(answer.triples) <= SHOWN else f"triples (the first {SHOWN} of {len(answer.triples)})"
        table = Table(title=title, title_justify="left")
        for col in ("subject", "predicate", "object", "chunks"):
            table.add_column(col)
        for tr in answer.triples[:SHOWN]:
            table.add_row(tr.subject, tr.predicate, tr.object, ", ".join(tr.chunk_ids[:3]))
        out.print(table)
    if answer.chunks:
        table = Table(title="chunks", title_justify="left")
        for col in ("#", "chunk", "score", "signals"):
            table.add_column(col)
        table.add_column("text", overflow="fold")
        rows = [(str(i), c.id, f"{c.score:.3f}", " ".join(f"{name}={value:.2f}" for name, value in c.signals.items()),
                 _short(c.text, 100)) for i, c in enumerate(answer.chunks, 1)]
        # Chinese has no spaces for the table to wrap at: the text is wrapped here, by display width, to
        # the room the other columns leave (borders and padding: 3 columns a cell, 1 at the end).
        room = out.width - sum(max(len(h), *(len(r[k]) for r in rows)) for k, h in
                               enumerate(("#", "chunk", "score", "signals"))) - 3 * 5 - 1
        for row in rows:
            text = "\n".join(wrap(row[4], room)) if room >= 16 else row[4]
            table.add_row(*row[:4], text)
        out.print(table)
    if answer.citations:
        out.print("\n[bold]citations[/bold]")
        for cite in answer.citations:
            # A records row is named by its file and line (`Disease.csv:2`), a passage by its document.
            where = cite.source or cite.doc_id
            _print_wrapped(out, f"[{cite.chunk_id}] ({where}) {_short(cite.text, 200)}", "  ", "    ")


def _print_wrapped(out: Console, text: str, first_indent: str, indent: str) -> None:
    """`text` wrapped by display width (a Chinese character is two columns and has no spaces around it),
    so Chinese passages read as whole lines, not cut at the console's edge."""
    lines = wrap(text, max(20, out.width), indent=indent, first_indent=first_indent)
    out.print("\n".join(lines), markup=False, highlight=False, soft_wrap=True)


def _result_text(result: StepResult) -> str:
    if result.error is not None:
        return f"error: {result.error}"
    shown = result.bound if result.bound is not None else result.output
    if shown is not None:
        prefix = f"{result.how}: " if result.how else ""
        return prefix + "; ".join(f"{k}={', '.join(v)}" for k, v in shown.items())
    return ", ".join(f"{k}={v}" for k, v in result.model_dump().items() if v not in ("", []))


def _needs_model(strategy: str) -> bool:
    """Whether a built-in strategy asks a model (an unknown name: the engine says so later)."""
    from kgbuild.query.registry import builtin_strategies

    spec = builtin_strategies().get(strategy)
    return spec is not None and spec.needs_model
