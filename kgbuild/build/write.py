"""Stage `write`: the persisted tables into the graph store and the vector store (only what they lack)."""

from __future__ import annotations

import gc

from kgbuild.build.context import BuildContext
from kgbuild.build.records import PersistedTables, WrittenStores
from kgbuild.build.stage import StageResult
from kgbuild.errors import KgbuildError
from kgbuild.ids import content_hash
from kgbuild.report import WriteSection


class WriteStage:
    name = "write"
    config_section = "graph_store"  # and vector_store

    def fingerprint(self, ctx: BuildContext) -> str:
        from kgbuild.store.open import graph_target, vector_target

        return content_hash(f"write|{graph_target(ctx.config)}|{vector_target(ctx.config)}")

    async def run(self, ctx: BuildContext, data: PersistedTables) -> StageResult[WrittenStores]:
        from kgbuild.store.sync import sync_stores

        # An LLM build's vectors embedded while it waited on the model: now that the tables are final,
        # what is still missing is embedded at the build's priority while the graph store is written,
        # and the vector sync takes the vector store the prefetch opened (kgbuild.build.vector_prefetch).
        prefetch, ctx.vector_prefetch = ctx.vector_prefetch, None
        ahead = None
        if prefetch is not None:
            prefetch.complete(lambda: _unwritten_texts(ctx, prefetch.name))  # nothing without a graph store
            ahead = prefetch.finish

        # What the earlier stages left on the heap (millions of objects) is moved out of the cyclic
        # collector's sight while the stores are written: the writes allocate rows by the hundred
        # thousand, and every full collection walked that heap too. Measured on 2Wiki (static
        # vectors): the write stage took 60.4 s, 41.4 s frozen, the graph part 39.3 s -> 22.1 s.
        gc.collect()
        gc.freeze()
        try:
            stores = sync_stores(ctx.config, ctx.progress, ctx.models, ahead)
        except KgbuildError as exc:
            # The tables are persisted: nothing is lost, and the next build or `kgbuild sync` resumes.
            return StageResult(WrittenStores(), WriteSection(error=exc.line()))
        finally:
            gc.unfreeze()  # collectable again once the stores are written
            if prefetch is not None:
                prefetch.cancel()  # nothing if the sync took the store; the work alongside ended either way
                prefetch.close()
        return StageResult(WrittenStores(stores=stores), WriteSection(stores=stores))


def _unwritten_texts(ctx: BuildContext, embedder_name: str) -> list[str]:
    """The texts the vector sync will embed: the rows it will write (read on the prefetch's thread)."""
    from kgbuild.store.manifest import StoreManifest
    from kgbuild.store.open import manifest_path, vector_target
    from kgbuild.store.vector_sync import unwritten_texts

    manifest = StoreManifest(manifest_path(ctx.config), vector_target(ctx.config))
    try:
        return unwritten_texts(ctx.workspace, manifest, ctx.config.vector_store.collection_prefix, embedder_name)
    finally:
        manifest.close()
