"""`kgbuild train router|retriever QA_FILE`: the trained parts of the graph strategies (the retriever also
from questions generated from the graph itself, `--generated N`).

FRAG's router (is the answer within 2 hops of the question's entities?) and SubgraphRAG's triple
scorer learn from weak labels read off the built graph: the hop distance from the question's
entities to the answer's, and the triples on shortest paths between them. Each model is saved in
the workspace with the fingerprint of the graph it was trained on; after a rebuild that changed the
graph, the strategy refuses the stale model with a line naming the command to run again.

Registered on the main group by kgbuild/cli/root.py (lazily).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from kgbuild.cli.common import fail_cleanly, open_engine

if TYPE_CHECKING:
    from kgbuild.query.evaluate import QAFile, QAFormat

_FORMATS = click.Choice(["auto", "hotpotqa", "2wiki", "musique"])


def _questions(qa_file: Path, fmt: QAFormat, limit: int | None) -> QAFile:
    from kgbuild.errors import ConfigError
    from kgbuild.query.evaluate import read_qa

    qa = read_qa(qa_file, fmt, limit)
    for problem in qa.problems:
        click.echo(f"skipped: {problem}", err=True)
    if not qa.items:
        raise ConfigError(str(qa_file), "no usable question to train on", "check the file's format (--format)")
    return qa


@click.group("train")
def train() -> None:
    """Train FRAG's router or SubgraphRAG's triple scorer on a QA file over the built graph."""


@train.command("router")
@click.argument("qa_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--limit", "-n", type=click.IntRange(min=1), help="only the first N questions")
@click.option("--format", "fmt", type=_FORMATS, default="auto", show_default=True, help="QA file format")
@click.pass_context
@fail_cleanly
def train_router_command(ctx: click.Context, qa_file: Path, limit: int | None, fmt: QAFormat) -> None:
    """FRAG's router: simple (answer within 2 hops) or complex, from the question's embedding; labelled
    by which route's walk reached each answer, else by the hop distance to it."""
    from kgbuild.query.frag.train import route_outcomes, router_path, train_router

    qa = _questions(qa_file, fmt, limit)
    with open_engine(ctx) as engine:
        model, report = train_router(engine.projection(), engine.question_linker(), qa.items,
                                     outcomes=route_outcomes(engine, qa.items))
        path = router_path(engine.workspace)
        model.save(path)
    click.echo(str(report))
    click.echo(f"saved {path}")


@train.command("retriever")
@click.argument("qa_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=False)
@click.option("--epochs", type=click.IntRange(min=1), default=None, help="training epochs (default: the scorer's)")
@click.option("--seed", type=int, default=0, show_default=True, help="seed for initialisation and shuffling")
@click.option("--hops", type=click.IntRange(1, 4), default=None,
              help="candidate triples: those with an end within HOPS-1 hops of the question's entities (a passage "
                   "is a hop: entity -> passage -> entity is 2); default: query.subgraphrag.hops")
@click.option("--limit", "-n", type=click.IntRange(min=1), help="only the first N questions")
@click.option("--format", "fmt", type=_FORMATS, default="auto", show_default=True, help="QA file format")
@click.option("--generated", type=click.IntRange(min=1), default=None,
              help="also train on N questions read off the graph's own facts (self-supervised; with no QA_FILE, "
                   "only on those)")
@click.pass_context
@fail_cleanly
def train_retriever_command(ctx: click.Context, qa_file: Path | None, epochs: int | None, seed: int, hops: int | None,
                            limit: int | None, fmt: QAFormat, generated: int | None) -> None:
    """SubgraphRAG's triple scorer: an MLP over question, triple and distance encodings, trained on a
    QA file's questions, on questions generated from the graph (--generated N), or both."""
    from kgbuild.errors import ConfigError
    from kgbuild.query.graph_questions import generated_questions
    from kgbuild.query.subgraphrag.scorer import model_path
    from kgbuild.query.subgraphrag.train import DEFAULT_EPOCHS, train_retriever

    if qa_file is None and generated is None:
        raise ConfigError("train retriever", "nothing to train on", "give a QA file, --generated N, or both")
    items = _questions(qa_file, fmt, limit).items if qa_file is not None else []
    with open_engine(ctx) as engine:
        def on_epoch(epoch: int, loss: float) -> None:
            click.echo(f"epoch {epoch}: loss {loss:.4f}", err=True)

        if generated is not None:
            made = generated_questions(engine.projection(), generated, seed)
            click.echo(f"{len(made)} questions generated from the graph's facts", err=True)
            items = [*items, *made]
        settings = engine.config.query.subgraphrag  # hops and dde_rounds are the model's from now on
        if hops is not None:
            settings = settings.model_copy(update={"hops": hops})
        model, report = train_retriever(engine.projection(), engine.graph_vectors(), engine.question_linker(),
                                        items, seed=seed, on_epoch=on_epoch, settings=settings,
                                        epochs=epochs or DEFAULT_EPOCHS)
        path = model_path(engine.workspace)
        model.save(path)
    click.echo(str(report))
    click.echo(f"saved {path}")
