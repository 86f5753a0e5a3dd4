"""Which graph library the graph strategies use for each primitive: scipy sparse, igraph or rustworkx, measured.

Run from the repo root: `python bench/graph_library.py [--project DIR] [--seeds linked|random]`.

The graph is the projection of a built project (kgbuild.graph.projection.GraphProjection: entities,
concepts, events and passages; relation, role and mention edges) taken as one undirected simple graph.
The default project is /tmp/kg/hp (an offline build of HotpotQA); when it is missing, the HotpotQA
training corpus is built offline into a temp dir and synced, as bench/retrieval.py does.

Seed sets: the projection nodes each HotpotQA training question links to (Engine.question_linker(),
the seeds every graph strategy starts from; a question that links to nothing is left out), or with
`--seeds random` 100 sets of 1-3 random entity nodes drawn with a fixed seed. Every primitive runs on
the same seed sets with every library, timed per seed set (time.perf_counter), p50 and p90 in ms:

1. k-hop union for k=2 and k=4: scipy `walks.k_hop` (sparse matrix-vector products over `walks.adjacency`);
   igraph `Graph.neighborhood(seeds, order=k)` and the union; rustworkx `bfs_layers(seeds)` cut at k
   (it has no depth limit, so it walks the seeds' whole component).
2. Personalized PageRank (damping 0.8, restart at the seeds weighted by their link scores) on the 4-hop
   union: scipy `walks.personalized_pagerank`; igraph `induced_subgraph` + `personalized_pagerank(reset=)`
   (PRPACK); rustworkx `subgraph_with_nodemap` + `pagerank(personalization=)` on a directed graph holding
   both directions of each edge (its PageRank takes only a PyDiGraph). Subgraph construction is timed.
3. One shortest path from each seed to every node of the PPR top-2000 subgraph, as node paths in
   projection indices: scipy `csgraph.breadth_first_order` with predecessors and path reconstruction;
   igraph `induced_subgraph` + `get_shortest_paths`; rustworkx `subgraph_with_nodemap` +
   `graph_dijkstra_shortest_paths` (unit weights). Also timed, with the output of kgbuild's
   `walks.shortest_paths` (Path objects with edge ids over an edge mask): that function itself
   (scipy predecessors, each path extending its parent's) and the same reconstruction from igraph's `bfs`.
4. Building each library's graph once from the projection's edge arrays (median of 5 builds).

The libraries must agree (printed): the same k-hop node sets, a PPR top-50 overlap of at least 0.9
with scipy's, the same shortest path length to every target, every Path's edges joining its nodes.
Last line: one JSON object with the figures (units in the keys).

What kgbuild chose (kgbuild/graph/walks.py) and why: k-hop unions and PageRank are a few sparse
matrix-vector products, which scipy does with no graph object to build per query and no subgraph to
copy (igraph and rustworkx pay for an induced subgraph before each PageRank). Measured here: k-hop
unions take well under a millisecond with scipy or igraph (igraph leads on small balls, scipy on large
ones and at p90), so the choice hardly matters there; PageRank is fastest with scipy. Capped enumeration
of simple paths is a Python BFS over incidence lists (no library caps the number of paths it
returns). Shortest paths: the first version of walks.shortest_paths read igraph's per-target paths and
re-walked each in Python (53 ms p50 on HotpotQA's seed sets); this bench showed scipy's BFS with
predecessors and paths built from the tree (each extending its parent's) at 10 ms, so walks.py now
does that. rustworkx is measured for comparison only (not a dependency); it is fastest at nothing here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph
from shared_data import shared_data

from kgbuild.graph import walks
from kgbuild.graph.projection import ENTITY, GraphProjection

DEFAULT_PROJECT = Path("/tmp/kg/hp")
TOP_NODES = 2000
TOP_OVERLAP = 50
DAMPING = 0.8

Seeds = dict[int, float]
NodePaths = dict[int, tuple[int, ...]]  # target -> node path from the seed (projection indices)



@contextmanager
def project_dir(requested: Path | None, corpus: Path, workers: int) -> Iterator[Path]:
    """The project to measure: the one asked for, the default when it exists, else an offline build of
    the corpus in a temp dir (stores synced, so questions link as they do in a real project)."""
    if requested is not None or DEFAULT_PROJECT.exists():
        yield requested or DEFAULT_PROJECT
        return
    from kgbuild.build import Builder
    from kgbuild.config import load_config
    from kgbuild.progress import QuietProgress
    from kgbuild.store.sync import sync_stores

    with tempfile.TemporaryDirectory(prefix="kgbench-graphlib-") as tmp:
        config_path = Path(tmp) / "kgbuild.yaml"
        config_path.write_text("workspace: ws\ngraph_store:\n  backend: none\n", encoding="utf-8")
        config = load_config(config_path)
        t = time.perf_counter()
        asyncio.run(Builder(config, QuietProgress()).arun([corpus], workers=workers, sync=False))
        sync_stores(config, QuietProgress())
        print(f"{DEFAULT_PROJECT} not found: built {corpus} offline into {tmp} in {time.perf_counter() - t:.1f} s")
        yield Path(tmp)


def random_seed_sets(projection: GraphProjection, count: int) -> list[Seeds]:
    rng = np.random.default_rng(11)
    entities = np.flatnonzero(np.asarray(projection.node_kind) == ENTITY)
    return [{int(n): 1.0 for n in rng.choice(entities, size=int(rng.integers(1, 4)), replace=False)}
            for _ in range(count)]


def undirected_pairs(projection: GraphProjection) -> np.ndarray:
    """(m, 2) distinct node pairs lo < hi: the simple undirected graph `walks.adjacency` holds."""
    n = projection.n_nodes
    head, tail = projection.edge_head.astype(np.int64), projection.edge_tail.astype(np.int64)
    lo, hi = np.minimum(head, tail), np.maximum(head, tail)
    keys = np.unique(lo[lo != hi] * n + hi[lo != hi])
    return np.column_stack([keys // n, keys % n])


def cell(p50_p90: tuple[float, float] | None) -> str:
    return "-" if p50_p90 is None else f"{p50_p90[0]:.2f} / {p50_p90[1]:.2f}"


def percentiles(ms: list[float]) -> tuple[float, float]:
    return float(np.percentile(ms, 50)), float(np.percentile(ms, 90))


def timed(fn: Callable[[Seeds], Any], sets: list[Seeds]) -> tuple[list[float], list[Any]]:
    """Milliseconds and result per seed set; one untimed call first (imports, caches)."""
    fn(sets[0])
    times: list[float] = []
    results: list[Any] = []
    for seeds in sets:
        t = time.perf_counter()
        results.append(fn(seeds))
        times.append((time.perf_counter() - t) * 1000)
    return times, results


def build_ms(fn: Callable[[], Any], repeats: int = 5) -> tuple[float, Any]:
    times: list[float] = []
    built: Any = None
    for _ in range(repeats):
        t = time.perf_counter()
        built = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), built


# ---------------------------------------------------------------- scipy (kgbuild.graph.walks)

def scipy_paths(adj: sp.csr_matrix, nodes: np.ndarray, seeds: Seeds) -> list[NodePaths]:
    sub = adj[nodes][:, nodes].tocsr()
    index = nodes.tolist()
    out: list[NodePaths] = []
    for seed in seeds:
        local = int(np.searchsorted(nodes, seed))
        # The matrix is symmetric, so directed=True walks it undirected without a symmetrised copy.
        order, pred = csgraph.breadth_first_order(sub, local, directed=True, return_predecessors=True)
        paths: dict[int, tuple[int, ...]] = {local: (seed,)}
        for v in order[1:].tolist():  # BFS order: a node's predecessor already has its path
            paths[v] = (*paths[int(pred[v])], index[v])
        out.append({index[v]: path for v, path in paths.items() if v != local})
    return out


# ---------------------------------------------------------------- igraph

def igraph_graph(n: int, pairs: np.ndarray) -> Any:
    import igraph

    return igraph.Graph(n=n, edges=pairs.tolist(), directed=False)


def igraph_k_hop(graph: Any, seeds: Seeds, k: int) -> np.ndarray:
    balls = graph.neighborhood(vertices=list(seeds), order=k)
    return np.unique(np.fromiter((v for ball in balls for v in ball), dtype=np.int64))


def igraph_ppr(graph: Any, nodes: np.ndarray, seeds: Seeds, n: int) -> np.ndarray:
    sub = graph.induced_subgraph(nodes.tolist())  # keeps the vertices in id order: local i is nodes[i]
    reset = np.zeros(nodes.size)
    reset[np.searchsorted(nodes, list(seeds))] = list(seeds.values())
    scores = np.zeros(n)
    scores[nodes] = sub.personalized_pagerank(directed=False, damping=DAMPING, reset=reset.tolist())
    return scores


def igraph_paths(graph: Any, nodes: np.ndarray, seeds: Seeds) -> list[NodePaths]:
    sub = graph.induced_subgraph(nodes.tolist())
    index = nodes.tolist()
    out: list[NodePaths] = []
    for seed in seeds:
        with warnings.catch_warnings():  # "Couldn't reach some vertices": those get empty paths
            warnings.simplefilter("ignore", RuntimeWarning)
            vpaths = sub.get_shortest_paths(int(np.searchsorted(nodes, seed)), to=None, mode="all", output="vpath")
        out.append({index[p[-1]]: tuple(index[v] for v in p) for p in vpaths if len(p) > 1})
    return out


# ---------------------------------------------------------------- rustworkx

def rustworkx_graph(n: int, pairs: np.ndarray, directed: bool) -> Any:
    import rustworkx as rx

    graph = rx.PyDiGraph(multigraph=False) if directed else rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(n))
    edges = pairs.tolist()
    graph.add_edges_from_no_data([tuple(e) for e in edges])
    if directed:
        graph.add_edges_from_no_data([(b, a) for a, b in edges])
    return graph


def rustworkx_k_hop(graph: Any, seeds: Seeds, k: int) -> np.ndarray:
    import rustworkx as rx

    layers = rx.bfs_layers(graph, list(seeds))[: k + 1]
    return np.unique(np.fromiter((v for layer in layers for v in layer), dtype=np.int64))


def rustworkx_ppr(digraph: Any, nodes: np.ndarray, seeds: Seeds, n: int) -> np.ndarray:
    import rustworkx as rx

    sub, nodemap = digraph.subgraph_with_nodemap(nodes.tolist())
    local = {old: new for new, old in nodemap.items()}
    ranks = rx.pagerank(sub, alpha=DAMPING, personalization={local[s]: w for s, w in seeds.items()},
                        tol=1e-10, max_iter=100)
    scores = np.zeros(n)
    for new, value in ranks.items():
        scores[nodemap[new]] = value
    return scores


def rustworkx_paths(graph: Any, nodes: np.ndarray, seeds: Seeds) -> list[NodePaths]:
    import rustworkx as rx

    sub, nodemap = graph.subgraph_with_nodemap(nodes.tolist())
    back = dict(nodemap.items())
    local = {old: new for new, old in back.items()}
    out: list[NodePaths] = []
    for seed in seeds:
        found = rx.graph_dijkstra_shortest_paths(sub, local[seed], None, default_weight=1.0)
        out.append({back[t]: tuple(back[v] for v in path) for t, path in found.items()})
    return out


# ---------------------------------------------------------------- walks.shortest_paths' contract

class MaskedEdges:
    """The edges in a mask as a simple undirected graph, and for each node pair the first edge joining
    them (igraph's tie rule in walks.shortest_paths): a BFS tree's steps map back to edge ids at once."""

    def __init__(self, p: GraphProjection, edge_mask: np.ndarray) -> None:
        n = p.n_nodes
        kept = np.flatnonzero(edge_mask)
        head, tail = p.edge_head[kept].astype(np.int64), p.edge_tail[kept].astype(np.int64)
        self.n = n
        self.keys, first = np.unique(np.minimum(head, tail) * n + np.maximum(head, tail), return_index=True)
        self.first_edge = kept[first]
        self.pairs = np.column_stack([self.keys // n, self.keys % n])

    def step_edges(self, parents: np.ndarray, children: np.ndarray) -> list[int]:
        keys = np.minimum(parents, children) * self.n + np.maximum(parents, children)
        edges: list[int] = self.first_edge[np.searchsorted(self.keys, keys)].tolist()
        return edges


def on_top(walk: Callable[[GraphProjection, Seeds, np.ndarray], list[walks.Path]], p: GraphProjection,
           top: dict[int, np.ndarray], seeds: Seeds) -> list[walks.Path]:
    """`walk` over the edges among the PPR top nodes of `seeds` (mask built inside the timing, as a strategy does)."""
    return walk(p, seeds, walks.allowed_edges(p, top[id(seeds)]))


def tree_paths(seed: int, order: np.ndarray, parent: np.ndarray, masked: MaskedEdges) -> list[walks.Path]:
    """A Path to every node of a BFS tree, each extending its parent's (shared prefixes, no re-walk)."""
    children = order[1:].astype(np.int64)
    parents = parent[children].astype(np.int64)
    edges_to: dict[int, tuple[int, ...]] = {seed: ()}
    nodes_to: dict[int, tuple[int, ...]] = {seed: (seed,)}
    out: list[walks.Path] = []
    for v, u, e in zip(children.tolist(), parents.tolist(), masked.step_edges(parents, children), strict=True):
        edges_to[v] = (*edges_to[u], e)
        nodes_to[v] = (*nodes_to[u], v)
        out.append(walks.Path(seed, edges_to[v], nodes_to[v]))
    return out


def igraph_walk_paths(p: GraphProjection, seeds: Seeds, edge_mask: np.ndarray) -> list[walks.Path]:
    """walks.shortest_paths' output from igraph's BFS parents, reconstructed as walks.shortest_paths does
    from scipy's."""
    import igraph

    masked = MaskedEdges(p, edge_mask)
    if masked.keys.size == 0:
        return []
    graph = igraph.Graph(n=p.n_nodes, edges=masked.pairs.tolist(), directed=False)
    out: list[walks.Path] = []
    for seed in seeds:
        order, _, parent = graph.bfs(seed)
        out.extend(tree_paths(seed, np.asarray(order), np.asarray(parent), masked))
    return out


# ---------------------------------------------------------------- agreement

def valid_path(p: GraphProjection, path: walks.Path) -> bool:
    return len(set(path.nodes)) == len(path.nodes) and all(
        {int(p.edge_head[e]), int(p.edge_tail[e])} == {a, b}
        for e, a, b in zip(path.edges, path.nodes, path.nodes[1:], strict=False))


def same_sets(a: list[np.ndarray], b: list[np.ndarray]) -> int:
    """How many seed sets got different node sets."""
    return sum(not np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def top_overlap(a: list[np.ndarray], b: list[np.ndarray]) -> tuple[float, float]:
    """Mean and least overlap of the TOP_OVERLAP best nodes by score (ties broken by node index)."""
    overlaps = []
    for x, y in zip(a, b, strict=True):
        k = min(TOP_OVERLAP, int((x > 0).sum()), int((y > 0).sum()))
        if k == 0:
            continue
        best_x = set(np.lexsort((np.arange(x.size), -x))[:k].tolist())
        best_y = set(np.lexsort((np.arange(y.size), -y))[:k].tolist())
        overlaps.append(len(best_x & best_y) / k)
    return float(np.mean(overlaps)), float(np.min(overlaps))


def length_mismatches(a: list[list[NodePaths]], b: list[list[NodePaths]]) -> int:
    """How many (seed, target) pairs one side reaches and the other does not, or at another length."""
    bad = 0
    for per_seed_a, per_seed_b in zip(a, b, strict=True):
        for x, y in zip(per_seed_a, per_seed_b, strict=True):
            lengths_x = {t: len(p) for t, p in x.items()}
            lengths_y = {t: len(p) for t, p in y.items()}
            bad += len(lengths_x.keys() ^ lengths_y.keys())
            bad += sum(lengths_x[t] != lengths_y[t] for t in lengths_x.keys() & lengths_y.keys())
    return bad


# ---------------------------------------------------------------- run

def main() -> None:
    data = shared_data()
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--project", type=Path, default=None,
                        help=f"a built project (default {DEFAULT_PROJECT}, else an offline build of HotpotQA)")
    parser.add_argument("--qa", type=Path, default=data / "hotpotqa" / "qa_train.json")
    parser.add_argument("--corpus", type=Path, default=data / "hotpotqa" / "train_corpus.json")
    parser.add_argument("--seeds", choices=["linked", "random"], default="linked")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    try:
        import rustworkx  # noqa: F401

        have_rx = True
    except ImportError:
        print("rustworkx not installed: pip install rustworkx (its column is skipped)")
        have_rx = False

    from kgbuild.config import GraphStoreConfig, VectorStoreConfig
    from kgbuild.engine import Engine, project_config
    from kgbuild.store.milvus import VectorStoreError

    with project_dir(args.project, args.corpus, args.workers) as directory:
        # The graph strategies read the workspace tables, not the graph store: leaving it closed also
        # keeps this bench off a database another process of the project may hold locked.
        config = project_config(directory)
        config = config.model_copy(update={"graph_store": GraphStoreConfig(backend="none")})
        try:
            engine = Engine.open(config)
            linking = "name dictionary + dense over the entity collection"
        except VectorStoreError as err:
            # Milvus Lite admits one process per file; the seeds then come from the name dictionary alone.
            print(f"vector store busy ({str(err).split(':')[0]}): questions link by the name dictionary only")
            config = config.model_copy(update={"vector_store": VectorStoreConfig(backend="none")})
            engine = Engine.open(config)
            linking = "name dictionary only"
        with engine:
            measure(engine, directory, args, have_rx, linking)


def measure(engine: Any, directory: Path, args: argparse.Namespace, have_rx: bool, linking: str) -> None:
    t = time.perf_counter()
    projection = engine.projection()
    print(f"projection of {directory}: {projection.n_nodes} nodes, {projection.n_edges} edges, "
          f"loaded in {time.perf_counter() - t:.1f} s")
    if args.seeds == "linked":
        questions = [q["question"] for q in json.loads(args.qa.read_text(encoding="utf-8"))]
        t = time.perf_counter()
        linker = engine.question_linker()
        sets = [s for s in (linker.link(q).seeds for q in questions) if s]
        print(f"seeds: {len(sets)} of {len(questions)} questions of {args.qa.name} link to nodes ({linking}; "
              f"mean {np.mean([len(s) for s in sets]):.1f} seeds, linked in {time.perf_counter() - t:.1f} s)")
    else:
        sets = random_seed_sets(projection, 100)
        print(f"seeds: {len(sets)} random sets of 1-3 entity nodes (fixed rng seed 11)")
    figures = run(projection, sets, have_rx)
    figures["seed_sets"] = len(sets)
    figures["seeds"] = args.seeds if args.seeds == "random" else f"linked: {linking}"
    figures["load_avg_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(figures))


def run(p: GraphProjection, sets: list[Seeds], have_rx: bool) -> dict[str, Any]:
    n = p.n_nodes
    libs = ["scipy", "igraph", *(["rustworkx"] if have_rx else [])]
    table: dict[tuple[str, str], tuple[float, float]] = {}
    builds: dict[str, float] = {}

    builds["scipy"], adj = build_ms(lambda: walks.adjacency(p))
    builds["igraph"], ig = build_ms(lambda: igraph_graph(n, undirected_pairs(p)))
    pairs = undirected_pairs(p)
    if have_rx:
        builds["rustworkx"], rxg = build_ms(lambda: rustworkx_graph(n, undirected_pairs(p), directed=False))
        builds["rustworkx digraph"], rxd = build_ms(lambda: rustworkx_graph(n, undirected_pairs(p), directed=True))

    checks: list[str] = []
    unions: dict[int, list[np.ndarray]] = {}
    for k in (2, 4):
        runs: dict[str, Callable[[Seeds], np.ndarray]] = {
            "scipy": partial(walks.k_hop, adj, k=k),
            "igraph": partial(igraph_k_hop, ig, k=k),
        }
        if have_rx:
            runs["rustworkx"] = partial(rustworkx_k_hop, rxg, k=k)
        found: dict[str, list[np.ndarray]] = {}
        for lib, hop in runs.items():
            ms, found[lib] = timed(hop, sets)
            table[(lib, f"khop{k}")] = percentiles(ms)
        unions[k] = found["scipy"]
        sizes = [u.size for u in found["scipy"]]
        for lib in libs[1:]:
            bad = same_sets(found["scipy"], found[lib])
            checks.append(f"k-hop k={k}: {lib} vs scipy, node sets differ on {bad} of {len(sets)} seed sets "
                          f"(union size p50 {np.median(sizes):.0f}, max {max(sizes)})  {'OK' if bad == 0 else 'FAIL'}")

    union4 = dict(zip(map(id, sets), unions[4], strict=True))
    ppr_runs: dict[str, Callable[[Seeds], np.ndarray]] = {
        "scipy": lambda s: walks.personalized_pagerank(adj, s, nodes=union4[id(s)], damping=DAMPING),
        "igraph": lambda s: igraph_ppr(ig, union4[id(s)], s, n),
    }
    if have_rx:
        ppr_runs["rustworkx"] = lambda s: rustworkx_ppr(rxd, union4[id(s)], s, n)
    scores: dict[str, list[np.ndarray]] = {}
    for lib, rank in ppr_runs.items():
        ms, scores[lib] = timed(rank, sets)
        table[(lib, "ppr")] = percentiles(ms)
    for lib in libs[1:]:
        mean, least = top_overlap(scores["scipy"], scores[lib])
        checks.append(f"PPR top-{TOP_OVERLAP}: {lib} vs scipy, overlap mean {mean:.3f}, least {least:.3f}  "
                      f"{'OK' if least >= 0.9 else 'FAIL'}")

    top = {id(s): walks.top_nodes(sc, TOP_NODES, keep=s) for s, sc in zip(sets, scores["scipy"], strict=True)}
    sp_runs: dict[str, Callable[[Seeds], list[NodePaths]]] = {
        "scipy": lambda s: scipy_paths(adj, top[id(s)], s),
        "igraph": lambda s: igraph_paths(ig, top[id(s)], s),
    }
    if have_rx:
        sp_runs["rustworkx"] = lambda s: rustworkx_paths(rxg, top[id(s)], s)
    paths: dict[str, list[list[NodePaths]]] = {}
    for lib, shortest in sp_runs.items():
        ms, paths[lib] = timed(shortest, sets)
        table[(lib, "sp")] = percentiles(ms)
    # walks.shortest_paths returns Paths with edge ids; so do the two reconstructions from BFS trees.
    walk_runs: dict[str, Callable[[GraphProjection, Seeds, np.ndarray], list[walks.Path]]] = {
        "kgbuild walks": walks.shortest_paths, "igraph bfs -> Path": igraph_walk_paths,
    }
    for name, walk in walk_runs.items():
        ms, found_paths = timed(partial(on_top, walk, p, top), sets)
        table[(name, "sp_path")] = percentiles(ms)
        paths[name] = [[{q.end: q.nodes for q in kg if q.start == seed} for seed in s]
                       for s, kg in zip(sets, found_paths, strict=True)]
        bad_edges = sum(not valid_path(p, q) for kg in found_paths for q in kg)
        checks.append(f"shortest paths: {name}, {bad_edges} paths whose edges do not join their nodes  "
                      f"{'OK' if bad_edges == 0 else 'FAIL'}")
    for lib in [*libs[1:], *walk_runs]:
        bad = length_mismatches(paths["scipy"], paths[lib])
        total = sum(len(x) for per in paths["scipy"] for x in per)
        checks.append(f"shortest paths: {lib} vs scipy, {bad} of {total} (seed, target) lengths differ  "
                      f"{'OK' if bad == 0 else 'FAIL'}")

    print(f"undirected simple graph: {n} nodes, {len(pairs)} distinct edges ({p.n_edges} projection edges)")
    print("agreement:")
    for line in checks:
        print(f"  {line}")
    prims = [("khop2", "k-hop k=2"), ("khop4", "k-hop k=4"), ("ppr", "PPR on 4-hop"), ("sp", f"paths top-{TOP_NODES}")]
    print(f"\nms per seed set over {len(sets)} seed sets, p50 / p90 (build: median of 5, once per graph)")
    print(f"{'library':<20}" + "".join(f"{label:>22}" for _, label in prims) + f"{'build':>10}")
    for lib in libs:
        cells = "".join(f"{cell(table.get((lib, key))):>22}" for key, _ in prims)
        print(f"{lib:<20}{cells}{builds[lib]:>10.1f}")
    if have_rx:
        print(f"{'rustworkx digraph':<20}{'(both directions, for PageRank)':>88}{builds['rustworkx digraph']:>10.1f}")
    for key, label in prims:
        best = min((table[(lib, key)][0], lib) for lib in libs)
        print(f"fastest p50, {label}: {best[1]}")
    print(f"\nshortest paths as walks.shortest_paths returns them (Path objects with edge ids, subgraph = the "
          f"top-{TOP_NODES} edge mask), ms p50 / p90:")
    for name in walk_runs:
        print(f"  {name:<20}{cell(table[(name, 'sp_path')]):>22}")

    figures: dict[str, Any] = {"nodes": n, "edges": len(pairs), "projection_edges": p.n_edges}
    for (lib, key), (p50, p90) in table.items():
        name = lib.replace("kgbuild walks", "kgbuild_walks").replace(" -> Path", "").replace(" ", "_")
        figures[f"{name}_{key}_p50_ms"] = round(p50, 3)
        figures[f"{name}_{key}_p90_ms"] = round(p90, 3)
    for lib, value in builds.items():
        figures[f"{lib.replace(' ', '_')}_build_ms"] = round(value, 2)
    figures["agree"] = all(line.endswith("OK") for line in checks)
    return figures


if __name__ == "__main__":
    main()
