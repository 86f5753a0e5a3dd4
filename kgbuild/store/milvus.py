"""The vector store on Milvus: a server (`http://host:port`) or Milvus Lite (a local `.db` file).

One collection per kind of row (chunks, entities, concepts), keyed by the graph's ids. Chunk
collections also get a BM25 function over `text`, so keyword search runs inside Milvus.

Things this module works around, each measured on the installed versions:
- Milvus Lite 2.5.1 builds SQL from primary keys without escaping them: an id holding `'` (a
  title like "Ender's Game" is enough) breaks upsert and delete, and its filter parser decodes
  no escape other than `\\` and `\"`. On Lite, the filterable fields are therefore stored
  percent-encoded (`%`, `'` and control characters only) and decoded again on the way out.
- Milvus 2.3 servers have neither BM25 functions nor sparse vectors; their collections are created
  dense-only and `text_search` says why it cannot run.
- Filters are composed from values, never pasted: every literal goes through `_literal`.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgbuild.errors import KgbuildError
from kgbuild.store.types import VectorHit, VectorRow

if TYPE_CHECKING:
    from pymilvus import MilvusClient

    from kgbuild.config import Config
    from kgbuild.store.types import VectorStore

# VARCHAR limits are in UTF-8 bytes. Metadata is truncated to its budget (it only labels and
# filters rows); the text budget is Milvus' VARCHAR maximum. Ids are never truncated: two ids
# cut to the same prefix would overwrite each other, so an overlong id is an error instead.
_ID_MAX_BYTES = 8192
_TEXT_MAX_BYTES = 65_535
_META_MAX_BYTES = 1024  # before encoding; the field holds 3x that, the worst case of `_encode`
_META_FIELDS = ("doc_id", "type", "name")
_FILTER_FIELDS = frozenset(("id", *_META_FIELDS))
_OUTPUT_FIELDS = ["id", "text", *_META_FIELDS]
_SPARSE = "sparse"
_BM25_FUNCTION = "text_bm25"
# A gRPC message is capped at 64 MB by default; upserts are sent in slices well under that.
_MAX_BATCH_BYTES = 8 * 1024 * 1024
_DELETE_SLICE = 512
_PAGE = 1000
_FULL_TEXT_SINCE = (2, 5)


class VectorStoreError(KgbuildError):
    """The vector store is unreachable, refused an operation, or holds something unexpected."""


class FullTextUnavailable(VectorStoreError):
    """BM25 full-text search was asked of a server or collection that does not have it."""


class CollectionMismatch(VectorStoreError):
    """An existing collection has another vector dimension than the one asked for."""


class MilvusVectorStore:
    """`VectorStore` over pymilvus' MilvusClient; `uri` is `http(s)://host:port` or a `.db` path."""

    def __init__(self, uri: str, token: str | None = None, db_name: str | None = None,
                 text_analyzer: str = "standard") -> None:
        self.uri = uri
        # Milvus' BM25 analyzer for new full-text collections: "standard" splits on spaces, which
        # leaves Chinese as whole clauses; "chinese" segments with jieba inside Milvus.
        self.text_analyzer = text_analyzer
        self.lite = "://" not in uri
        self.name = f"milvus-lite:{uri}" if self.lite else f"milvus:{uri}"
        self._client = _connect(uri, token, db_name, self.lite)
        self._server_version = "" if self.lite else _server_version(self._client)
        self._sparse: dict[str, bool] = {}  # collection -> has the BM25 sparse field
        self._full_text_refused = False  # the server rejected a BM25 collection once

    # ------------------------------------------------------------------ collections

    @property
    def full_text_supported(self) -> bool:
        """Whether new full-text collections get BM25 (Lite 2.5 and servers >= 2.5 do)."""
        if self.lite:
            return True
        if self._full_text_refused:
            return False
        parsed = _version_tuple(self._server_version)
        return parsed is None or parsed >= _FULL_TEXT_SINCE  # unknown: try, and fall back on failure

    def ensure_collection(self, collection: str, dim: int, *, full_text: bool = False) -> None:
        if self._call(collection, "check", lambda: self._client.has_collection(collection)):
            existing = self._dim(collection)
            if existing != dim:
                raise CollectionMismatch(
                    f"vector store collection {collection}",
                    f"holds {existing}-d vectors but the embedder gives {dim}-d",
                    "the embedding model changed: drop the collection (a sync does this itself) "
                    "or use another vector_store.collection_prefix",
                )
            analyzer = self._analyzer(collection)
            if full_text and analyzer is not None and analyzer != self.text_analyzer:
                # The same mismatch as a dimension for the sync: the collection is rebuilt.
                raise CollectionMismatch(f"vector store collection {collection}",
                                         f"tokenises full text with the {analyzer} analyzer, "
                                         f"vector_store.text_analyzer now resolves to {self.text_analyzer}",
                                         "a sync drops and rewrites it")
            return
        if full_text and self.full_text_supported:
            try:
                self._create(collection, dim, full_text=True)
                return
            except VectorStoreError:
                if self.lite:
                    raise
                # A server whose version string did not tell: it refused the function or the
                # sparse field, so the collection is created dense-only (text_search explains).
                self._full_text_refused = True
                if self._call(collection, "check", lambda: self._client.has_collection(collection)):
                    self._call(collection, "drop", lambda: self._client.drop_collection(collection))
        self._create(collection, dim, full_text=False)

    def _create(self, collection: str, dim: int, *, full_text: bool) -> None:
        from pymilvus import DataType, Function, FunctionType, MilvusClient

        meta_bytes = _META_MAX_BYTES * 3 if self.lite else _META_MAX_BYTES
        schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=_ID_MAX_BYTES)
        schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dim)
        text_params: dict[str, Any] = {"enable_analyzer": True} if full_text else {}
        if full_text and self.text_analyzer != "standard":
            text_params["analyzer_params"] = {"type": self.text_analyzer}
        schema.add_field("text", DataType.VARCHAR, max_length=_TEXT_MAX_BYTES, **text_params)
        for field in _META_FIELDS:
            schema.add_field(field, DataType.VARCHAR, max_length=meta_bytes)
        index = self._client.prepare_index_params()
        # The embedder gives unit vectors, so COSINE ranks exactly as IP would; COSINE stays
        # right even for a custom embedder that forgets to normalise.
        index.add_index(field_name="vector", index_type="AUTOINDEX", metric_type="COSINE")
        if full_text:
            schema.add_field(_SPARSE, DataType.SPARSE_FLOAT_VECTOR)
            schema.add_function(Function(name=_BM25_FUNCTION, function_type=FunctionType.BM25,
                                         input_field_names=["text"], output_field_names=[_SPARSE]))
            index.add_index(field_name=_SPARSE, index_type="SPARSE_INVERTED_INDEX", metric_type="BM25")
        # Strong consistency: a sync reads ids() right after its upserts and must see them.
        self._call(collection, "create", lambda: self._client.create_collection(
            collection, schema=schema, index_params=index, consistency_level="Strong"))
        self._sparse[collection] = full_text

    def _describe(self, collection: str) -> dict[str, Any]:
        return self._call(collection, "describe", lambda: self._client.describe_collection(collection))

    def _dim(self, collection: str) -> int:
        for field in self._describe(collection).get("fields", []):
            if field.get("name") == "vector":
                return int(field.get("params", {}).get("dim", 0))
        raise VectorStoreError(f"vector store collection {collection}", "has no `vector` field",
                               "it was not created by kgbuild: drop it or use another vector_store.collection_prefix")

    def _analyzer(self, collection: str) -> str | None:
        """The BM25 analyzer type of an existing collection (None: no full text)."""
        for field in self._describe(collection).get("fields", []):
            if field.get("name") == "text":
                params = field.get("params", {})
                if str(params.get("enable_analyzer", "")).lower() != "true":
                    return None
                match = re.search(r'"type"\s*:\s*"(\w+)"', str(params.get("analyzer_params", "")))
                return match.group(1) if match else "standard"
        return None

    def _has_sparse(self, collection: str) -> bool:
        if collection not in self._sparse:
            fields = self._describe(collection).get("fields", [])
            self._sparse[collection] = any(f.get("name") == _SPARSE for f in fields)
        return self._sparse[collection]

    def drop(self, collection: str) -> None:
        if self._call(collection, "check", lambda: self._client.has_collection(collection)):
            self._call(collection, "drop", lambda: self._client.drop_collection(collection))
        self._sparse.pop(collection, None)

    # ------------------------------------------------------------------ writes

    def upsert(self, collection: str, rows: Sequence[VectorRow]) -> None:
        for part in _slices_by_size(rows):
            data = [self._to_entity(collection, row) for row in part]
            self._call(collection, "upsert", lambda data=data: self._client.upsert(collection, data))

    def _to_entity(self, collection: str, row: VectorRow) -> dict[str, Any]:
        key = self._key(row.id)
        if len(key.encode("utf-8")) > _ID_MAX_BYTES:
            raise VectorStoreError(f"vector store collection {collection}",
                                   f"id longer than {_ID_MAX_BYTES} bytes: {row.id[:60]!r}...",
                                   "ids come from document titles; shorten the title")
        entity: dict[str, Any] = {"id": key, "vector": row.vector, "text": _truncate(row.text, _TEXT_MAX_BYTES)}
        for field in _META_FIELDS:
            entity[field] = self._meta(getattr(row, field))
        return entity

    def delete(self, collection: str, ids: Sequence[str]) -> None:
        unique = sorted(set(ids))
        for start in range(0, len(unique), _DELETE_SLICE):
            expr = self._condition("id", unique[start : start + _DELETE_SLICE])
            self._call(collection, "delete", lambda expr=expr: self._client.delete(collection, filter=expr))

    # ------------------------------------------------------------------ reads

    def search(self, collection: str, vector: Sequence[float], k: int,
               where: Mapping[str, str | Sequence[str]] | None = None) -> list[VectorHit]:
        expr = self._where(where)
        if expr is None or k <= 0:
            return []
        result = self._call(collection, "search", lambda: self._client.search(
            collection, data=[list(vector)], anns_field="vector", limit=k, filter=expr,
            output_fields=_OUTPUT_FIELDS, search_params={"metric_type": "COSINE"}))
        return [self._hit(h, float(h["distance"])) for h in result[0]] if result else []

    def text_search(self, collection: str, text: str, k: int,
                    where: Mapping[str, str | Sequence[str]] | None = None) -> list[VectorHit]:
        if not self._has_sparse(collection):
            if not self.full_text_supported:
                raise FullTextUnavailable(
                    f"vector_store.uri {self.uri}",
                    f"Milvus server {self._server_version or 'at ' + self.uri} has no BM25 full-text search; "
                    "needs Milvus >= 2.5",
                )
            raise FullTextUnavailable(f"vector store collection {collection}",
                                      "was created without BM25 full-text search",
                                      "drop it and sync again to recreate it with full text")
        expr = self._where(where)
        if expr is None or k <= 0 or not text.strip():
            return []
        result = self._call(collection, "text search", lambda: self._client.search(
            collection, data=[_truncate(text, _TEXT_MAX_BYTES)], anns_field=_SPARSE, limit=k, filter=expr,
            output_fields=_OUTPUT_FIELDS, search_params={"metric_type": "BM25"}))
        # BM25 relevance is never negative; some Milvus builds report it negated (same order).
        return [self._hit(h, abs(float(h["distance"]))) for h in result[0]] if result else []

    def count(self, collection: str) -> int:
        rows = self._call(collection, "count", lambda: self._client.query(
            collection, filter="", output_fields=["count(*)"]))
        return int(rows[0]["count(*)"]) if rows else 0

    def ids(self, collection: str) -> set[str]:
        found = {self._unkey(key) for key in self._keys(collection)}
        # Paging by key is only right if every page is the smallest keys above the cursor; a
        # listing that disagrees with the count would make reconciliation miss orphans.
        expected = self.count(collection)
        if len(found) != expected:
            raise VectorStoreError(f"vector store collection {collection}",
                                   f"listed {len(found)} ids but the collection counts {expected}",
                                   "the server returned pages out of key order; please report this")
        return found

    def _keys(self, collection: str) -> Iterator[str]:
        # A query without a limit silently stops at 16384 rows, and pymilvus' query_iterator
        # pastes the last key into its next filter unescaped (an id holding `") or id != "`
        # makes it loop forever). So: our own pages by primary key, the cursor as an escaped
        # literal. `iterator` asks the server for pages in key order, as the pymilvus one does.
        cursor: str | None = None
        while True:
            expr = "" if cursor is None else f"id > {_literal(cursor)}"
            page = self._call(collection, "list ids", lambda expr=expr: self._client.query(
                collection, filter=expr, output_fields=["id"], limit=_PAGE, iterator="True"))
            keys = sorted(str(row["id"]) for row in page)
            yield from keys
            if len(keys) < _PAGE:
                return
            cursor = keys[-1]

    def _hit(self, hit: Mapping[str, Any], score: float) -> VectorHit:
        entity = hit.get("entity", {})
        return VectorHit(id=self._unkey(str(hit.get("id", entity.get("id", "")))), score=score,
                         text=entity.get("text") or "",
                         **{f: self._unkey(entity.get(f) or "") for f in _META_FIELDS})

    def close(self) -> None:
        self._client.close()
        if self.lite:
            # The Lite engine is a child process holding the file; stop it so the file is free.
            try:
                from milvus_lite.server_manager import server_manager_instance

                server_manager_instance.release_server(self.uri)
            except ImportError:
                pass

    # ------------------------------------------------------------------ filters and encoding

    def _key(self, value: str) -> str:
        return _encode(value) if self.lite else value

    def _unkey(self, value: str) -> str:
        return _decode(value) if self.lite else value

    def _meta(self, value: str) -> str:
        return self._key(_truncate(value, _META_MAX_BYTES))

    def _where(self, where: Mapping[str, str | Sequence[str]] | None) -> str | None:
        """The filter expression; None when it can match nothing (an empty list of values)."""
        parts: list[str] = []
        for field, value in (where or {}).items():
            if field not in _FILTER_FIELDS:
                raise VectorStoreError("vector store filter", f"unknown field {field!r}",
                                       f"filter on one of {', '.join(sorted(_FILTER_FIELDS))}")
            values = [value] if isinstance(value, str) else list(value)
            if not values:
                return None
            parts.append(self._condition(field, values))
        return " and ".join(parts)

    def _condition(self, field: str, values: Sequence[str]) -> str:
        # `field` comes from the whitelist above; values only ever appear as escaped literals.
        stored = [self._key(v) if field == "id" else self._meta(v) for v in values]
        if len(stored) == 1:
            return f"{field} == {_literal(stored[0])}"
        return f"{field} in [{', '.join(_literal(v) for v in stored)}]"

    # ------------------------------------------------------------------ errors

    def _call(self, collection: str, action: str, fn: Any) -> Any:
        from pymilvus.exceptions import MilvusException

        try:
            return fn()
        except MilvusException as exc:
            raise VectorStoreError(f"vector store collection {collection}", f"{action} failed: {_reason(exc)}",
                                   _hint_for(exc, self.uri)) from None


# ---------------------------------------------------------------------- opening


def open_vector_store(config: Config, text_analyzer: str = "standard") -> VectorStore:
    """The configured Milvus (server or Lite file); the Lite file's directory is created.
    `text_analyzer` tokenises full text in collections created from now on."""
    uri = config.vector_store_uri()
    if "://" not in uri:
        if not uri.endswith(".db"):
            raise VectorStoreError("vector_store.uri", f"{uri} is neither a server URI nor a Milvus Lite file",
                                   "use http://host:19530 or a file path ending in .db")
        try:
            Path(uri).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise VectorStoreError("vector_store.uri", f"cannot create the directory of {uri}: {exc.strerror}",
                                   "check the path and its permissions") from None
    return MilvusVectorStore(uri, token=config.vector_store.token, db_name=config.vector_store.db_name,
                             text_analyzer=text_analyzer)


def _connect(uri: str, token: str | None, db_name: str | None, lite: bool) -> MilvusClient:
    # gRPC's C core logs keep-alive chatter with Milvus Lite ("GOAWAY too_many_pings", at error
    # level) to stderr. Failures that matter reach us as pymilvus exceptions, so the core's own
    # log stays off unless the user sets GRPC_VERBOSITY. Read when grpc first loads.
    os.environ.setdefault("GRPC_VERBOSITY", "NONE")
    try:
        with warnings.catch_warnings():
            # milvus-lite 2.5 imports pkg_resources, which warns on every start.
            warnings.filterwarnings("ignore", message=".*pkg_resources.*")
            from pymilvus import MilvusClient
            from pymilvus.exceptions import MilvusException
    except ImportError:
        raise VectorStoreError("vector_store", "the Milvus client is not installed",
                               "pip install 'pymilvus[milvus-lite]<2.7', or set vector_store.backend: none") from None
    if lite and not uri.endswith(".db"):
        raise VectorStoreError("vector_store.uri", f"{uri}: a Milvus Lite file must end in .db",
                               "use a path like vectors.db, or a server URI http://host:19530")
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*pkg_resources.*")
            # A dedicated connection: close() then really closes it instead of leaving it pooled.
            return MilvusClient(uri=uri, token=token or "", db_name=db_name or "", dedicated=True)
    except MilvusException as exc:
        if lite:
            raise VectorStoreError(
                "vector_store.uri", f"cannot open the Milvus Lite file {uri}: {_reason(exc)}",
                "Milvus Lite allows one process per file: stop the other kgbuild process using it, "
                "or point vector_store.uri at another .db file or a Milvus server",
            ) from None
        raise VectorStoreError("vector_store.uri", f"cannot connect to Milvus at {uri}: {_reason(exc)}",
                               _hint_for(exc, uri)) from None


def _server_version(client: MilvusClient) -> str:
    from pymilvus.exceptions import MilvusException

    try:
        return str(client.get_server_version())
    except MilvusException:
        return ""  # unknown: full text is tried and falls back to dense-only if refused


def _version_tuple(version: str) -> tuple[int, int] | None:
    match = re.search(r"(\d+)\.(\d+)", version)
    return (int(match.group(1)), int(match.group(2))) if match else None


def _reason(exc: Exception) -> str:
    message = getattr(exc, "message", None) or str(exc)
    return " ".join(str(message).split())[:300]


def _hint_for(exc: Exception, uri: str) -> str:
    text = _reason(exc).lower()
    if "auth" in text or "permission" in text or "credential" in text:
        return "check vector_store.token (or KGBUILD_MILVUS_TOKEN)"
    if "connect" in text or "unavailable" in text or "deadline" in text:
        return f"is the Milvus server at {uri} running? fix vector_store.uri (or KGBUILD_MILVUS_URI)"
    return ""


# ---------------------------------------------------------------------- values


def _truncate(text: str, max_bytes: int) -> str:
    """At most `max_bytes` of UTF-8, cut at a character boundary (lone surrogates become '?')."""
    data = text.encode("utf-8", "replace")
    if len(data) <= max_bytes:
        return data.decode("utf-8")
    return data[:max_bytes].decode("utf-8", "ignore")


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _literal(value: str) -> str:
    """A double-quoted Milvus string literal holding exactly `value`.

    Servers decode Go-style escapes (a raw newline is a syntax error there, so control characters
    become \\uXXXX); Milvus Lite decodes only \\\\ and \\" but never sees a control character,
    since `_encode` removed them from every value it stores or filters on.
    """
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", escaped) + '"'


_NEEDS_ENCODING = re.compile(r"[%'\x00-\x1f\x7f]")
_ENCODED = re.compile(r"%([0-9A-F]{2})")


def _encode(value: str) -> str:
    """Percent-encode only what Milvus Lite mishandles; everything else stays readable."""
    return _NEEDS_ENCODING.sub(lambda m: f"%{ord(m.group()):02X}", value)


def _decode(value: str) -> str:
    return _ENCODED.sub(lambda m: chr(int(m.group(1), 16)), value) if "%" in value else value


def _slices_by_size(rows: Sequence[VectorRow]) -> Iterator[Sequence[VectorRow]]:
    start, size = 0, 0
    for i, row in enumerate(rows):
        row_bytes = 4 * len(row.vector) + len(row.text) * 4 + 256
        if i > start and size + row_bytes > _MAX_BATCH_BYTES:
            yield rows[start:i]
            start, size = i, 0
        size += row_bytes
    if start < len(rows):
        yield rows[start:]
