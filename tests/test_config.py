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
