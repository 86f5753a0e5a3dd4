"""The explorer's curation API (docs/curation.md): the corrections file and the review queue.

    GET  /api/corrections                 the file's entries (stale ones marked), and whether writes are on
    GET  /api/review                      fusion decisions near a threshold (paginated)
    POST /api/corrections                 add a correction {kind, target, reason}
    POST /api/corrections/undo            take one out {id}
    POST /api/review/decide               approve (merge) or reject (never merge) an item {id, approve}

The POSTs exist only in write mode (`kgbuild serve --write`, which needs a token even on loopback);
each must carry the token (the Guard checks every request) and come from the explorer's own origin
(`same_origin` below), so another site open in the same browser cannot send one with the cookie.
A write changes corrections.yaml, then brings the workspace tables up to it (appended fixes on the
tables, others by re-aligning from the extraction cache): the explorer's graph reloads from the
tables; the stores are written by `kgbuild sync` or the next build (the server holds the embedded
graph store open, and a second handle on it is refused).
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import asdict
from typing import TYPE_CHECKING, Annotated, Any, Literal

from anyio import to_thread
from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, Field

from kgbuild.curate.file import (
    KINDS,
    append_correction,
    corrections_path,
    make,
    read_corrections,
    remove_correction,
)
from kgbuild.serve.records import MAX_PAGE

if TYPE_CHECKING:
    from kgbuild.curate.review import ReviewItem
    from kgbuild.engine import Engine

AUTHOR = "explorer"


class CorrectionRequest(BaseModel):
    kind: Literal["merge", "never_merge", "reject", "retype", "rename", "add"]
    target: dict[str, Annotated[str, Field(max_length=1000)]] = Field(max_length=8)
    reason: str = Field("", max_length=2000)
    author: str = Field("", max_length=200)


class UndoRequest(BaseModel):
    id: str = Field(min_length=1, max_length=100)


class DecideRequest(BaseModel):
    id: str = Field(min_length=1, max_length=100)
    approve: bool
    reason: str = Field("", max_length=2000)


def same_origin(request: Request) -> None:
    """A state-changing request must say it comes from this server's pages: its Origin (sent by
    browsers on every POST) names the host it was sent to; without Origin, Sec-Fetch-Site must say
    same-origin. A client outside a browser sends `Origin: http://<host>` itself."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None:
        if origin in (f"http://{host}", f"https://{host}"):
            return
        raise HTTPException(403, f"cross-origin write refused (Origin {origin[:100]} is not this explorer)")
    if request.headers.get("sec-fetch-site") == "same-origin":
        return
    raise HTTPException(403, "write refused: send the explorer's own Origin header")


class Curation:
    """The corrections of the engine's project, one write at a time."""

    def __init__(self, engine: Engine, write: bool) -> None:
        self.engine = engine
        self.write = write
        self._lock = threading.Lock()
        self._review: tuple[tuple[float, int, float], list[ReviewItem]] | None = None

    @property
    def path(self) -> Any:
        return corrections_path(self.engine.config.root)

    def listing(self) -> dict[str, Any]:
        from kgbuild.report import load_report

        file = read_corrections(self.path)
        latest = load_report(self.engine.workspace.latest_report())
        section = latest.corrections if latest is not None else None
        stale = dict(zip(section.stale_ids, section.stale, strict=False)) if section is not None else {}
        items = [{"number": e.number, "id": e.correction.id, "kind": e.correction.kind,
                  "what": e.correction.describe(), "target": e.correction.target, "author": e.correction.author,
                  "time": e.correction.time, "reason": e.correction.reason, "stale": stale.get(e.correction.id, "")}
                 for e in file.entries]
        return {"write": self.write, "file": str(file.path), "items": items, "problems": file.problems,
                "kinds": list(KINDS)}

    def review(self) -> list[ReviewItem]:
        """The queue, recomputed when the tables or the file change (it reads every entity)."""
        from kgbuild.curate.lookup import workspace_review

        ws = self.engine.workspace
        table, path = ws.table_path("entities"), self.path
        key = (table.stat().st_mtime if table.exists() else 0.0, table.stat().st_size if table.exists() else 0,
               path.stat().st_mtime if path.exists() else 0.0)
        cached = self._review
        if cached is not None and cached[0] == key:
            return cached[1]
        items = workspace_review(self.engine.config)
        self._review = (key, items)
        return items

    async def apply(self) -> dict[str, Any]:
        """The tables brought up to the file, off the event loop (a re-alignment takes seconds)."""
        from kgbuild.build.corrections_sync import apply_pending
        from kgbuild.schema import resolve_schema

        config = self.engine.config

        def run() -> dict[str, Any]:
            done = asyncio.run(apply_pending(config, resolve_schema(config.schema_location())))
            return {"how": done.how, "applied": done.applied, "stale": done.stale, "seconds": done.seconds,
                    "stores": "not written: run `kgbuild sync` (or the next build)"}

        return await to_thread.run_sync(run)

    def add(self, body: CorrectionRequest) -> dict[str, Any]:
        with self._lock:
            correction = make(body.kind, dict(body.target), author=body.author or AUTHOR, reason=body.reason)
            entry = append_correction(self.path, correction)
        return {"number": entry.number, "id": correction.id, "what": correction.describe()}

    def undo(self, correction_id: str) -> dict[str, Any]:
        with self._lock:
            removed = remove_correction(self.path, correction_id=correction_id)
        return {"id": removed.id, "what": removed.describe()}

    def decide(self, body: DecideRequest) -> dict[str, Any]:
        item = next((it for it in self.review() if it.id == body.id), None)
        if item is None:
            raise HTTPException(404, f"no review item {body.id[:100]} (decided already, or not in the queue)")
        kind, target = item.correction(body.approve)
        return self.add(CorrectionRequest(kind=kind, target=target, reason=body.reason or f"review: {item.detail}",
                                          author=AUTHOR))


def curation_routes(engine: Engine, *, write: bool) -> APIRouter:
    curation = Curation(engine, write)
    router = APIRouter(tags=["curation"])

    def writable() -> None:
        if not curation.write:
            raise HTTPException(403, "the explorer is read-only: start it with `kgbuild serve --write --token ...`")

    guarded = [Depends(writable), Depends(same_origin)]

    @router.get("/api/corrections")
    def corrections() -> dict[str, Any]:
        """The corrections file in order (numbers as `kgbuild curate list`), stale entries marked."""
        return curation.listing()

    @router.get("/api/review")
    def review(offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
               limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50) -> dict[str, Any]:
        """Fusion decisions near a threshold, closest call first: `apart` (almost merged), `merged` (barely)."""
        items = curation.review()
        shown = [asdict(it) for it in items[offset:offset + limit]]
        nxt = offset + limit if offset + limit < len(items) else None
        return {"items": shown, "total": len(items), "offset": offset, "limit": limit, "next_offset": nxt}

    @router.post("/api/corrections", dependencies=guarded)
    async def add(body: CorrectionRequest) -> dict[str, Any]:
        """Write a correction to corrections.yaml and apply it to the workspace tables."""
        written = curation.add(body)
        return {**written, "result": await curation.apply()}

    @router.post("/api/corrections/undo", dependencies=guarded)
    async def undo(body: UndoRequest) -> dict[str, Any]:
        """Take a correction out (by id) and re-apply the file."""
        removed = curation.undo(body.id)
        return {**removed, "result": await curation.apply()}

    @router.post("/api/review/decide", dependencies=guarded)
    async def decide(body: DecideRequest) -> dict[str, Any]:
        """Approve (writes merge) or reject (writes never_merge) a review item, then apply it."""
        written = curation.decide(body)
        return {**written, "result": await curation.apply()}

    return router
