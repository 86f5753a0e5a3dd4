"""The query strategies side by side on one offline build: hybrid, FRAG, SubgraphRAG (and CoE, FastToG).

Run from the repo root: `python bench/strategies.py [--corpus C --qa Q [--corpus-slice N]] [--project DIR]
[--folds 5]` (`--corpus-slice N`: build the QA file's supporting passages plus N others drawn at random,
for a corpus of thousands of passages; e.g. `--corpus ../shared/data/2wiki/corpus.json --qa
bench/data/2wiki_heldout_qa.json --corpus-slice 900`).

1. builds the corpus offline (spaCy extraction, no LLM) into a temp project with the default stores
   (Milvus Lite; the graph store is off: the strategies read the workspace projection), or opens
   the already built project `--project DIR`;
2. k-fold held-out evaluation: the questions are split into `--folds` folds (question i goes to fold
   i mod folds); for each fold, FRAG's router and SubgraphRAG's scorer are trained on the other folds
   only and every strategy answers the fold's questions. No figure comes from a question a trained
   part saw;
3. per strategy: answer-in-context recall (the gold answer, normalised as EM normalises, or an alias,
   appears in what the answer prompt would see: the passages, at most 5, plus for the graph
   strategies the verbalised paths or triples), supporting-passage Recall@5 (titles of those
   passages), EM/F1 of the model-free answer, wall time per question p50/p90 (the question embedded by
   the model each time, no cache) and model calls during retrieval;
4. the same table for samples/questions.json over a build of samples/corpus (what a new user sees);
5. with `bench/first_choice_model.py` present, CoE and FastToG run against that deterministic stand-in
   model (it always picks the candidates ranked first; it is not a language model), reporting the
   non-model time per question and model calls against FastToG's worst case.

Ablations, not defaults: `frag_paths` and `subgraphrag_triples` show only the passages behind the
paths or triples (the default fuses them with the hybrid retriever's ranking, see
kgbuild/query/graph_evidence.py: what the graph itself brings, without text retrieval's help);
`frag_heuristic` is FRAG routed by its wording rule instead of the trained router (what a user gets
before `kgbuild train router`; the trained router is the fitted model, that rule or a constant route,
whichever reached the most of the fold's training answers); `subgraphrag_h2` is SubgraphRAG with
candidates within 2 hops instead of the default 3 (a passage is a hop in kgbuild's graph: entity ->
passage -> entity is 2). And `subgraphrag_gen` is SubgraphRAG whose scorer never saw a question of the QA
file: it is trained once, on `--generated N` (default 400) questions read off the graph's own facts
(kgbuild/query/graph_questions.py, self-supervised), and every question of every fold is held out;
`subgraphrag_mix`, only when named (`--strategies hybrid,subgraphrag_mix`: it trains a scorer per fold
on the fold's training questions plus those generated ones; it did not beat `subgraphrag` in this session's
runs, 0.74-0.76 against 0.75).

Last line: one JSON object, keys `S_answer_in_context_recall`, `S_supporting_recall_at_5`, `S_em`, `S_f1`,
`S_retrieval_p50_ms`, `S_retrieval_p90_ms`, `S_retrieval_model_calls` per strategy S (samples: `samples_S_...`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared_data import shared_data  # bench/ is on the path: these scripts run as `python bench/NAME.py`

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Row:
    strategy: str
    fold: int
    in_context: float
    recall5: float
    em: float
    f1: float
    ms: float
    calls: int
    nonmodel_ms: float
    steps: int  # CoE: its exploration steps (lookups and hops)
    question: str = ""
    passages: tuple[str, ...] = ()  # the chunk ids the answer prompt sees (at most 5)


def context_text(answer: Any) -> str:
    """What the answer prompt sees: the passages (at most 5) and the verbalised facts."""
    return " ".join([*(c.text for c in answer.chunks[:5]), *answer.facts])


def in_context(answer: Any, golds: Sequence[str]) -> float:
    from kgbuild.query.evaluate import normalize_answer

    seen = f" {normalize_answer(context_text(answer))} "
    return float(any(g and normalize_answer(g) and f" {normalize_answer(g)} " in seen for g in golds))


def score(strategy: str, fold: int, answer: Any, item: Any, ms: float, title_of: Callable[[str], str]) -> Row:
    from kgbuild.query.evaluate import exact_match, f1_score, ranked_titles, recall_at

    golds = [item.answer, *item.aliases]
    titles = ranked_titles((c.doc_id for c in answer.chunks[:5]), title_of)
    model_ms = answer.model_seconds * 1000.0
    steps = sum(1 for t in answer.trace if t.question in ("lookup", "hop"))
    return Row(strategy, fold, in_context(answer, golds), recall_at(titles, item.supporting, 5),
               exact_match(answer.answer, golds), f1_score(answer.answer, golds), ms, answer.llm_calls,
               max(ms - model_ms, 0.0), steps, item.question, tuple(c.id for c in answer.chunks[:5]))


def paths_only(settings: Any) -> Any:
    """The project's FRAG or SubgraphRAG settings without the text fusion (the `_paths`/`_triples` rows)."""
    return settings.model_copy(update={"text_fusion": False})


def train_fold(engine: Any, train_items: Sequence[Any], seed: int) -> tuple[Any, dict[int, Any], str]:
    """FRAG's router and SubgraphRAG's scorers (the default 3 hops, and 2 as an ablation), trained on
    `train_items` only."""
    from kgbuild.query.frag.train import route_outcomes, train_router
    from kgbuild.query.subgraphrag.train import train_retriever

    projection, linker = engine.projection(), engine.question_linker()
    router, router_report = train_router(projection, linker, train_items, outcomes=route_outcomes(engine, train_items))
    chose = [line for line in str(router_report).splitlines() if line.startswith("chose ")]
    scorers, lines = {}, [f"router: {str(router_report).splitlines()[0]}", *chose]
    for hops in (2, 3):
        settings = engine.config.query.subgraphrag.model_copy(update={"hops": hops})
        scorers[hops], report = train_retriever(projection, engine.graph_vectors(), linker, train_items, seed=seed,
                                                settings=settings)
        lines.append(f"scorer {hops} hops: {str(report).splitlines()[0]}")
    return router, scorers, "; ".join(lines)


def run_corpus(engine: Any, items: Sequence[Any], folds: int, label: str,
               model_engine: Any | None = None, only: set[str] | None = None, generated: int = 0) -> list[Row]:
    """Every strategy on every question, each fold's trained parts fitted on the other folds."""
    from kgbuild.query.frag.strategy import FragStrategy
    from kgbuild.query.strategy import Budget
    from kgbuild.query.subgraphrag.strategy import SubgraphRAGStrategy

    budget = Budget(k=10, use_cache=False)  # k: chunk retrieval reads 10, the top 5 distinct passages count
    hybrid = engine.strategy("hybrid", budget)
    title_of = engine.retriever(cached_embeddings=False).title_of
    # Warm: the embedding model, Milvus Lite, the projection and its vectors load before any clock starts.
    engine.retriever(cached_embeddings=False).retrieve(items[0].question, 1, mode="dense")
    engine.question_linker(cached_embeddings=False).link(items[0].question)
    engine.graph_vectors()
    rows: list[Row] = []
    folds = max(1, min(folds, len(items)))
    self_taught = None
    made: list[Any] = []
    families = None if only is None else {n.split("_")[0] for n in only}  # "subgraphrag_mix" -> subgraphrag
    if generated and (families is None or "subgraphrag" in families):
        from kgbuild.query.graph_questions import generated_questions
        from kgbuild.query.subgraphrag.train import train_retriever

        t = time.perf_counter()
        made = generated_questions(engine.projection(), generated, seed=0)
        self_taught, report = train_retriever(engine.projection(), engine.graph_vectors(), engine.question_linker(),
                                              made, seed=0)
        print(f"{label}: scorer trained on {len(made)} generated questions in {time.perf_counter() - t:.1f} s "
              f"({str(report).splitlines()[0]})")
    for fold in range(folds):
        test = [it for i, it in enumerate(items) if i % folds == fold]
        train = [it for i, it in enumerate(items) if i % folds != fold]
        strategies: dict[str, Any] = {"hybrid": hybrid}
        if families is None or families & {"frag", "subgraphrag"}:
            t = time.perf_counter()
            router, scorers, how = train_fold(engine, train, seed=fold)
            print(f"{label} fold {fold + 1}/{folds}: trained on {len(train)} questions in "
                  f"{time.perf_counter() - t:.1f} s ({how}); testing on {len(test)}")
            strategies.update({"frag": FragStrategy(engine, budget, router=router),
                               "frag_heuristic": FragStrategy(engine, budget, heuristic=True),
                               "frag_paths": FragStrategy(engine, budget, router=router,
                                                          settings=paths_only(engine.config.query.frag)),
                               "subgraphrag": SubgraphRAGStrategy(engine, budget, model=scorers[3]),
                               "subgraphrag_h2": SubgraphRAGStrategy(engine, budget, model=scorers[2]),
                               "subgraphrag_triples": SubgraphRAGStrategy(engine, budget, model=scorers[3],
                                                                          settings=paths_only(
                                                                              engine.config.query.subgraphrag))})
            if self_taught is not None:
                strategies["subgraphrag_gen"] = SubgraphRAGStrategy(engine, budget, model=self_taught)
            if made and only is not None and "subgraphrag_mix" in only:  # opt-in: five more trainings
                from kgbuild.query.subgraphrag.train import train_retriever

                t = time.perf_counter()
                mixed, report = train_retriever(engine.projection(), engine.graph_vectors(), engine.question_linker(),
                                                [*train, *made], seed=fold)
                print(f"{label} fold {fold + 1}/{folds}: scorer on {len(train)} + {len(made)} generated questions "
                      f"in {time.perf_counter() - t:.1f} s ({str(report).splitlines()[0]})")
                strategies["subgraphrag_mix"] = SubgraphRAGStrategy(engine, budget, model=mixed)
        if model_engine is not None:
            for name in ("coe", "fasttog"):
                strategies[name] = model_engine.strategy(name, budget)
        if only is not None:
            strategies = {n: st for n, st in strategies.items() if n in only or n.split("_")[0] in only}
        for name, strategy in strategies.items():
            for item in test:
                t = time.perf_counter()
                answer = strategy.answer(item.question, budget)
                rows.append(score(name, fold, answer, item, (time.perf_counter() - t) * 1000.0, title_of))
    return rows


def summarise(rows: Sequence[Row], prefix: str) -> dict[str, float]:
    import numpy as np

    figures: dict[str, float] = {}
    names = list(dict.fromkeys(r.strategy for r in rows))
    print(f"{'strategy':>12} {'in-context':>10} {'R@5':>6} {'EM':>6} {'F1':>6} {'p50 ms':>8} {'p90 ms':>8} "
          f"{'calls/q':>8} {'max calls':>9}")
    for name in names:
        mine = [r for r in rows if r.strategy == name]
        ms = np.asarray([r.ms for r in mine])
        nonmodel = np.asarray([r.nonmodel_ms for r in mine])
        calls = [r.calls for r in mine]
        mean = lambda xs: float(sum(xs) / max(len(xs), 1))  # noqa: E731
        s = {"answer_in_context_recall": mean([r.in_context for r in mine]),
             "supporting_recall_at_5": mean([r.recall5 for r in mine]),
             "em": mean([r.em for r in mine]), "f1": mean([r.f1 for r in mine]),
             "retrieval_p50_ms": float(np.percentile(ms, 50)), "retrieval_p90_ms": float(np.percentile(ms, 90)),
             "retrieval_model_calls": 0.0 if name in ("coe", "fasttog") else mean(calls)}
        if name in ("coe", "fasttog"):
            s = {k: v for k, v in s.items() if not k.startswith("retrieval_")}
            if name == "coe":
                per_step = np.asarray([r.nonmodel_ms / max(r.steps, 1) for r in mine])
                s.update({"nonmodel_per_step_p50_ms": float(np.percentile(per_step, 50)),
                          "nonmodel_per_step_p90_ms": float(np.percentile(per_step, 90))})
            s.update({"nonmodel_p50_ms": float(np.percentile(nonmodel, 50)),
                      "nonmodel_p90_ms": float(np.percentile(nonmodel, 90)),
                      "model_calls_mean": mean(calls), "model_calls_max": float(max(calls))})
        print(f"{name:>12} {s['answer_in_context_recall']:>10.3f} {s['supporting_recall_at_5']:>6.3f} "
              f"{s['em']:>6.3f} {s['f1']:>6.3f} {np.percentile(ms, 50):>8.1f} {np.percentile(ms, 90):>8.1f} "
              f"{mean(calls):>8.2f} {max(calls):>9}")
        figures.update({f"{prefix}{name}_{k}": round(v, 3) for k, v in s.items()})
    return figures


def build(corpus: Path, root: Path, workers: int) -> Path:
    from kgbuild.build import Builder
    from kgbuild.config import load_config
    from kgbuild.progress import QuietProgress

    root.mkdir(parents=True, exist_ok=True)
    (root / "kgbuild.yaml").write_text("workspace: ws\ngraph_store:\n  backend: none\n", encoding="utf-8")
    config = load_config(root / "kgbuild.yaml")
    t = time.perf_counter()
    report = asyncio.run(Builder(config, QuietProgress()).arun([corpus], workers=workers))
    graph = report.graph
    print(f"built {root.name} ({corpus.name}): {graph.entities} entities, {graph.relations} relations in "
          f"{time.perf_counter() - t:.1f} s (offline, {workers} workers)")
    return root


def model_engine_for(project: Path, base_url: str) -> Any:
    """The same project with the stand-in model as its endpoint (for CoE and FastToG)."""
    from kgbuild.config import load_config
    from kgbuild.engine import Engine

    config = load_config(project / "kgbuild.yaml")
    llm = config.llm.model_copy(update={"base_url": base_url, "model": "first-choice", "api_key": "unused"})
    # The strategies read the workspace projection; a second handle on an embedded graph store would
    # find it locked by the first engine.
    graph_store = config.graph_store.model_copy(update={"backend": "none"})
    return Engine.open(config.model_copy(update={"llm": llm, "graph_store": graph_store}))


def evaluate(project: Path, qa_path: Path, folds: int, label: str, prefix: str, with_model: bool,
             only: set[str] | None = None, generated: int = 0, dump: Path | None = None) -> dict[str, float]:
    from dataclasses import asdict

    from kgbuild.engine import Engine
    from kgbuild.query.evaluate import read_qa

    qa = read_qa(qa_path)
    for problem in qa.problems:
        print(f"skipped: {problem}")
    stand_in = None
    if with_model:
        try:
            from first_choice_model import FirstChoiceModel
        except ImportError:
            print("coe, fasttog: bench/first_choice_model.py not found; left out")
        else:
            stand_in = FirstChoiceModel()
    with Engine.open(project) as engine:
        if stand_in is None:
            rows = run_corpus(engine, qa.items, folds, label, only=only, generated=generated)
        else:
            with stand_in as model, model_engine_for(project, model.base_url) as model_engine:
                rows = run_corpus(engine, qa.items, folds, label, model_engine, only=only, generated=generated)
        projection = engine.projection()
        print(f"{label}: {len(qa.items)} questions, {folds}-fold held out; graph {projection.n_nodes} nodes, "
              f"{projection.n_edges} edges")
    if dump is not None:  # one JSON line per strategy and question: which question moved between runs
        with dump.open("a", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps({"set": label, **asdict(row)}, ensure_ascii=False) + "\n")
    figures = summarise(rows, prefix)
    if with_model and stand_in is not None:
        from kgbuild.query.fasttog.strategy import worst_case_calls

        figures[f"{prefix}fasttog_worst_case_calls"] = worst_case_calls()
    return figures


def corpus_slice(corpus: Path, qa_path: Path, others: int, out: Path) -> Path:
    """The QA file's supporting passages plus `others` more drawn at random (seed 0) from `corpus`, written
    to `out` in the corpus's own shape (a list of {title, text} or a {title: sentences} object): a
    corpus of thousands of passages builds in a fraction of the time, and the drawn passages keep
    retrieval from being trivial. Every strategy reads the same slice."""
    import random

    from kgbuild.query.evaluate import read_qa

    data = json.loads(corpus.read_text(encoding="utf-8"))
    keys = list(data) if isinstance(data, dict) else [str(r.get("title", i)) for i, r in enumerate(data)]
    wanted = {t for item in read_qa(qa_path).items for t in item.supporting}
    keep = {i for i, key in enumerate(keys) if key in wanted}
    rest = [i for i in range(len(keys)) if i not in keep]
    keep |= set(random.Random(0).sample(rest, min(others, len(rest))))
    print(f"corpus slice: {len(keep)} of {len(keys)} passages ({len(wanted & set(keys))} of {len(wanted)} "
          f"supporting titles found, {len(keep) - len(wanted & set(keys))} others at random)")
    picked = ({keys[i]: data[keys[i]] for i in sorted(keep)} if isinstance(data, dict)
              else [data[i] for i in sorted(keep)])
    out.write_text(json.dumps(picked, ensure_ascii=False), encoding="utf-8")
    return out


def main() -> None:
    data = shared_data()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=data / "hotpotqa" / "train_corpus.json")
    parser.add_argument("--qa", type=Path, default=data / "hotpotqa" / "qa_train.json")
    parser.add_argument("--project", type=Path, help="an already built project directory (skips the build)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--no-samples", action="store_true", help="leave out the samples table")
    parser.add_argument("--no-model", action="store_true", help="leave out CoE and FastToG (stand-in model)")
    parser.add_argument("--strategies", help="comma-separated subset (hybrid always runs: the baseline)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--corpus-slice", type=int, metavar="N",
                        help="build only the QA file's supporting passages plus N others drawn at random (seed 0)")
    parser.add_argument("--generated", type=int, default=400,
                        help="questions generated from the graph for subgraphrag_gen (0: leave it out)")
    parser.add_argument("--dump", type=Path, metavar="FILE",
                        help="append one JSON line per strategy and question (in context, R@5, passages) to FILE")
    args = parser.parse_args()
    for path in (args.corpus, args.qa):
        if not path.exists():
            sys.exit(f"{path}: not found; pass --corpus / --qa or set KGBUILD_SHARED_DATA")
    if args.torch_threads > 0:
        import torch

        torch.set_num_threads(args.torch_threads)
    for name in ("KGBUILD_LLM_BASE_URL", "KGBUILD_LLM_MODEL", "OPENAI_BASE_URL"):
        os.environ.pop(name, None)  # offline: no model from the environment

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="kgbench-strategies-") as tmp:
        corpus = args.corpus
        if args.corpus_slice is not None and args.project is None:
            corpus = corpus_slice(corpus, args.qa, args.corpus_slice, Path(tmp) / f"slice_{corpus.name}")
        project = args.project or build(corpus, Path(tmp) / "corpus", args.workers)
        only = {n.strip() for n in args.strategies.split(",")} if args.strategies else None
        figures.update(evaluate(project, args.qa, args.folds, args.qa.name, "", not args.no_model, only,
                                args.generated, args.dump))
        if not args.no_samples:
            samples = build(REPO / "samples" / "corpus", Path(tmp) / "samples", args.workers)
            figures.update(evaluate(samples, REPO / "samples" / "questions.json", args.folds, "samples",
                                    "samples_", not args.no_model, only, dump=args.dump))
    figures["load_avg_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
