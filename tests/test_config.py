from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kgbuild.config import default_config_text, load_config, parse_config
from kgbuild.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "kgbuild.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_written_by_init_parse_and_match_the_model(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, default_config_text("demo", "open_domain")), env={})
    assert config.project == "demo"
    assert config.chunking.max_tokens == 512 and config.extract.extractor == "auto"
    assert config.workspace_path() == (tmp_path / ".kgbuild").resolve()


def test_unknown_key_is_named_with_a_suggestion(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "chunking:\n  max_token: 300\n"), env={})
    assert "chunking.max_token" in err.value.line()
    assert "did you mean 'max_tokens'" in err.value.line()
    assert str(tmp_path / "kgbuild.yaml") in err.value.line()


def test_wrong_type_names_the_key_and_the_value(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "build:\n  workers: many\n"), env={})
    assert "build.workers" in err.value.line() and "'many'" in err.value.line()


def test_private_fields_cannot_be_set_from_yaml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="root: unknown key"):
        load_config(write(tmp_path, "root: /etc\n"), env={})


def test_min_tokens_above_max_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="min_tokens"):
        load_config(write(tmp_path, "chunking:\n  max_tokens: 100\n  min_tokens: 200\n"), env={})
    # the line names the key and both numbers, not the whole `chunking` mapping (issue 30)
    text = "chunking:\n  max_tokens: 100\n  min_tokens: 200\n  encoding: cl100k_base\n  topic_window: 3\n"
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text), env={})
    line = caught.value.line()
    assert ": chunking.min_tokens: must not exceed chunking.max_tokens (100)" in line and "(got 200)" in line, line
    assert "{" not in line and "encoding" not in line and "topic_window" not in line, line


def test_invalid_yaml_points_at_the_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"kgbuild.yaml:3: invalid YAML"):
        load_config(write(tmp_path, "project: x\nchunking:\n\tmax_tokens: 3\n"), env={})


def test_missing_file_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="kgbuild init"):
        load_config(tmp_path / "nope.yaml", env={})


def test_environment_overrides_endpoints_and_secrets(tmp_path: Path) -> None:
    path = write(tmp_path, "llm:\n  base_url: http://file\n  model: m\n")
    env = {"OPENAI_API_KEY": "generic", "KGBUILD_LLM_API_KEY": "specific", "KGBUILD_LLM_BASE_URL": "http://env"}
    config = load_config(path, env=env)
    assert config.llm.api_key == "specific"
    assert config.llm.base_url == "http://env"
    assert config.llm.model == "m"


def test_relative_paths_resolve_against_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    path = (tmp_path / "sub" / "kgbuild.yaml")
    path.write_text("workspace: ws\nschema: my/schema.yaml\nsources: [docs]\n", encoding="utf-8")
    config = load_config(path, env={})
    assert config.workspace_path() == (tmp_path / "sub" / "ws").resolve()
    assert config.schema_location() == str((tmp_path / "sub" / "my" / "schema.yaml").resolve())
    assert config.source_paths() == [(tmp_path / "sub" / "docs").resolve()]
    assert parse_config(yaml.safe_load("schema: medicine"), file=None, env={}).schema_location() == "medicine"


def test_an_unknown_config_version_is_refused_naming_the_supported_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "version: 7\n"), env={})
    line = err.value.line()
    assert "version" in line and "supported: 1" in line and "(got 7)" in line and "\n" not in line


@pytest.mark.parametrize(("text", "key", "allowed"), [
    ("chunking:\n  max_tokens: 5e21\n", "chunking.max_tokens", "<= 1_000_000"),  # YAML 1.1: a string
    ("chunking:\n  max_tokens: 5.0e+21\n", "chunking.max_tokens", "<= 1_000_000"),  # a float
    ("chunking:\n  max_tokens: 5000000000000\n", "chunking.max_tokens", "<= 1_000_000"),
    ("chunking:\n  max_tokens: 512.0\n", "chunking.max_tokens", "an integer"),  # a float for an int setting
    ("build:\n  workers: 100000\n", "build.workers", "<= 1024"),
    ("build:\n  workers: true\n", "build.workers", "an integer"),
    ("llm:\n  timeout_s: 0\n", "llm.timeout_s", "> 0"),
    ("llm:\n  timeout_s: .inf\n", "llm.timeout_s", "a finite number"),
    ("llm:\n  concurrency: 0\n", "llm.concurrency", ">= 1 and <= 256"),
    ("align:\n  embed_threshold: 1.5\n", "align.embed_threshold", "> 0 and <= 1"),
    ("query:\n  top_k: 1000\n", "query.top_k", "<= 100"),
    ("graph_store:\n  batch_size: 0\n", "graph_store.batch_size", ">= 1"),
])
def test_numeric_settings_out_of_range_name_the_setting_and_the_allowed_range(
        tmp_path: Path, text: str, key: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text), env={})
    line = err.value.line()
    assert f"{key}: must be " in line and allowed in line and "\n" not in line, line


def test_every_bad_setting_is_named_in_the_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "version: 2\nllm:\n  timeout_s: -1\n  concurrency: 0\n"), env={})
    line = err.value.line()
    assert "version" in line and "llm.timeout_s" in line and "llm.concurrency" in line and "\n" not in line


# ---------------------------------------------------------------- text settings (issue 32)

SECRET = "sk-kgbuild-secret-0123456789"


@pytest.mark.parametrize(("variable", "value", "problem"), [
    ("KGBUILD_WORKSPACE", "w" * 300, "path component of 300 bytes"),
    ("KGBUILD_WORKSPACE", "a/" * 600, "at most 1,024"),
    ("KGBUILD_LLM_BASE_URL", "http://127.0.0.1:9/v1\n", "contains a line break"),
    ("KGBUILD_LLM_BASE_URL", "not a url", "is not a URL"),
    ("KGBUILD_LLM_BASE_URL", "ftp://example.org/v1", "scheme ftp://"),
    ("KGBUILD_LLM_BASE_URL", "http://host:99999/v1", "port"),
    ("OPENAI_BASE_URL", "http:///v1", "has no host"),
    ("KGBUILD_MILVUS_URI", "http://127.0.0.1:19530\n", "contains a line break"),
    ("KGBUILD_MILVUS_URI", "ftp://127.0.0.1:19530", "scheme ftp://"),
    ("KGBUILD_NEO4J_URI", "http://127.0.0.1:7687", "scheme http://"),
    ("KGBUILD_LLM_MODEL", "m" * 100_000, "100,000 characters long"),
    ("KGBUILD_LLM_MODEL", "m" * 1000, "at most 256"),
    ("KGBUILD_LLM_MODEL", "gpt\x00", "NUL byte"),
    ("KGBUILD_LLM_API_KEY", SECRET + "\n", "contains a line break"),
    ("OPENAI_API_KEY", SECRET + "\r", "carriage return"),
    ("KGBUILD_NEO4J_PASSWORD", SECRET + "\x1b", "control character"),
    ("KGBUILD_MILVUS_TOKEN", "\t" + SECRET, "contains a tab"),
])
def test_environment_variables_pass_the_checks_of_the_file_and_are_named_never_shown(
        tmp_path: Path, variable: str, value: str, problem: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({}, file=tmp_path / "kgbuild.yaml", env={variable: value})
    line = caught.value.line()
    assert line.startswith(f"{variable}: ") and problem in line, line
    assert "\n" not in line and len(line) < 300
    assert value.strip() not in line and SECRET not in line  # the value (or a secret in it) is never echoed


@pytest.mark.parametrize(("yaml_text", "key", "problem"), [
    ('llm: {base_url: "ftp://example.org/v1"}', "llm.base_url", "scheme ftp://"),
    ('llm: {base_url: "example.org"}', "llm.base_url", "is not a URL"),
    ('llm: {model: "a\\nb"}', "llm.model", "line break"),
    ('llm: {stage_models: {extract: "a\\u0007b"}}', "llm.stage_models", "control character"),
    ('workspace: "ws\\u0000"', "workspace", "NUL byte"),
    ('graph_store: {uri: "bolt://h:7687\\n"}', "graph_store.uri", "line break"),
    ('vector_store: {uri: "tcp://"}', "vector_store.uri", "has no host"),
    ('project: "x\\ny"', "project", "line break"),
    (f'llm: {{api_key: "{SECRET}\\n"}}', "llm.api_key", "line break"),
])
def test_the_file_gets_the_same_checks(tmp_path: Path, yaml_text: str, key: str, problem: str) -> None:
    path = tmp_path / "kgbuild.yaml"
    path.write_text(yaml_text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path, env={})
    line = caught.value.line()
    assert f"kgbuild.yaml: {key}" in line and problem in line, line
    assert SECRET not in line


def test_good_endpoints_and_paths_pass(tmp_path: Path) -> None:
    config = parse_config({"vector_store": {"uri": "vectors/v.db"}}, file=tmp_path / "kgbuild.yaml", env={
        "KGBUILD_LLM_BASE_URL": "https://api.example.org/v1", "KGBUILD_NEO4J_URI": "neo4j+s://db.example:7687",
        "KGBUILD_WORKSPACE": "some/where/ws", "KGBUILD_LLM_API_KEY": SECRET})
    assert config.llm.base_url == "https://api.example.org/v1" and config.llm.api_key == SECRET
    assert config.graph_store.uri == "neo4j+s://db.example:7687"
    assert config.vector_store_uri().endswith("vectors/v.db")
