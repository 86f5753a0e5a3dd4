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
