"""Stage `align`: fusion of synonyms, instance -> concept links and isA completion over the whole graph.

Corpus-level, so recomputed every build from the assembled graph. Switched off by
`align.enabled: false`, in which case it passes the graph through and reports nothing.
"""

from __future__ import annotations

from typing import Any

from kgbuild.align.fusion import Merge
from kgbuild.assemble import Graph
from kgbuild.build.assemble import graph_counts
from kgbuild.build.context import BuildContext
from kgbuild.build.records import BuiltGraph
from kgbuild.build.stage import StageResult
from kgbuild.ids import content_hash
from kgbuild.merge import merge_by_id
from kgbuild.records import RecordsGraph, is_records
from kgbuild.report import AlignSection


def record_entities(data: BuiltGraph) -> set[str]:
    """Ids of the entities only records of mapped files cite: their identity is given by the table."""
    records = {doc_id for doc_id, doc in data.corpus.docs.items() if is_records(doc)}
    if not records:
        return set()
    return {e.id for e in data.graph.entities
            if e.chunk_ids and all(c.split("#", 1)[0] in records for c in e.chunk_ids)}


def follow_fusion(graph: Graph, merges: list[Merge], records: RecordsGraph) -> Graph:
    """The records' relation rows after fusion: those whose end was merged into another node, or
    whose triple the graph holds too, become records of the graph (re-pointed, merged by id)."""
    merged = {old: m.canonical_id for m in merges for old in m.merged_ids if old != m.canonical_id}
    names = {e.id: e.name for e in graph.entities}
    moved = records.repoint(merged, names, {r.id for r in graph.relations})
    if not moved:
        return graph
    return graph.model_copy(update={"relations": merge_by_id((*graph.relations, *moved))})


class AlignStage:
    name = "align"
    config_section = "align"

    @staticmethod
    def _concepts_location(ctx: BuildContext) -> str | None:
        return ctx.config.align.domain_concepts or ctx.config.extract.domain_concepts

    @staticmethod
    def _uses_model(ctx: BuildContext) -> bool:
        cfg = ctx.config.align
        return ctx.config.llm.configured() and (cfg.llm_judge or cfg.llm_hypernyms)

    def fingerprint(self, ctx: BuildContext) -> str:
        location = self._concepts_location(ctx)
        concepts = ctx.domain_concepts(location).fingerprint if location else ""
        model = f"{ctx.config.llm.base_url}|{ctx.config.llm.model}" if self._uses_model(ctx) else ""
        return content_hash(f"align|{ctx.config.align.model_dump_json()}|{concepts}|{model}|{ctx.schema.fingerprint()}")

    async def run(self, ctx: BuildContext, data: BuiltGraph) -> StageResult[BuiltGraph]:
        cfg = ctx.config.align
        if not cfg.enabled:
            return StageResult(data, None)
        from kgbuild.align.fusion import LLMJudge
        from kgbuild.align.pipeline import align_graph
        from kgbuild.align.taxonomy import LLMHypernyms
        from kgbuild.curate.constraints import apart_constraints
        from kgbuild.curate.file import corrections_path, read_corrections

        location = self._concepts_location(ctx)
        domain = ctx.domain_concepts(location).concepts if location else None
        # never_merge corrections act inside fusion; the other kinds after it (the corrections stage).
        apart = apart_constraints(data.graph.entities, read_corrections(corrections_path(ctx.config.root)).entries)
        embedder = ctx.embedder(cfg.embedder, "align.embedder") if cfg.embedder else None
        judge: Any = None
        hypernym: Any = None
        if self._uses_model(ctx):
            gateway, prompts = ctx.gateway("align.llm_judge"), ctx.prompts()
            reask = prompts.get("reask")  # re-asks in the project's prompt language
            judge = LLMJudge(gateway, prompts.get("align_judge"), reask=reask) if cfg.llm_judge else None
            hypernym = (LLMHypernyms(gateway, template=prompts.get("align_hypernym"), reask=reask)
                        if cfg.llm_hypernyms else None)
        with ctx.progress.stage("align", total=None) as advance:
            result = await align_graph(data.graph, ctx.schema, domain=domain, judge=judge, hypernym=hypernym,
                                       embedder=embedder, embed_threshold=cfg.embed_threshold, apart=apart,
                                       settled=record_entities(data))
            advance(1)
        graph = result.graph
        if data.records is not None:
            graph = follow_fusion(graph, result.merges, data.records)
        section = AlignSection(graph=graph_counts(graph, data.records), alignment=result.report)
        return StageResult(BuiltGraph(corpus=data.corpus, graph=graph, merges=result.merges, records=data.records),
                           section)
