"""`embedding.device`: auto picks the CPU on a machine without a GPU, cuda is refused there in one
line (before a build does anything), and the GPU's batch size applies only where the default was left."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbuild.cli import main
from kgbuild.config import parse_config
from kgbuild.embed.device import CUDA_BATCH, batch_for, cuda_available, resolve_device
from kgbuild.embed.models import ModelChoice, ModelPool
from kgbuild.errors import ConfigError, ModelLoadError


def test_auto_chooses_the_cpu_on_this_machine_and_keeps_the_cpu_backend() -> None:
    assert not cuda_available()  # these machines have no GPU (the GPU figures are in docs/scale.md)
    assert resolve_device("auto") == "cpu"
    pool = ModelPool(backend="auto", device="auto")
    assert pool.device == "cpu" and pool.backend(ModelChoice(None, "embedding.model")) in ("onnx-int8", "torch")
    assert pool.batch_size(64) == 64


def test_cuda_without_a_gpu_is_refused_in_one_line() -> None:
    with pytest.raises(ModelLoadError) as info:
        resolve_device("cuda")
    line = info.value.line()
    assert line.startswith("config embedding.device: cuda asked for, but PyTorch") and "\n" not in line
    assert "set embedding.device: auto or cpu" in line


def test_device_rules_with_a_gpu_present() -> None:
    def gpu() -> bool:
        return True

    assert resolve_device("auto", "auto", available=gpu) == "cuda"
    assert resolve_device("auto", "onnx-int8", available=gpu) == "cpu"  # an explicit CPU backend stays
    assert resolve_device("cpu", "auto", available=gpu) == "cpu"
    with pytest.raises(ModelLoadError, match="cuda runs the model on PyTorch, not on static"):
        resolve_device("cuda", "static", available=gpu)
    assert batch_for("cuda", 64) == CUDA_BATCH and batch_for("cuda", 100) == 100 and batch_for("cpu", 64) == 64


def test_config_takes_the_device_and_refuses_others() -> None:
    assert parse_config({"embedding": {"device": "cuda"}}, file=None, env={}).embedding.device == "cuda"
    with pytest.raises(ConfigError, match=r"embedding\.device"):
        parse_config({"embedding": {"device": "tpu"}}, file=None, env={})


def test_build_with_cuda_on_a_cpu_machine_stops_before_any_work(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text("Alan Turing was born in London.", encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: ws\nembedding:\n  device: cuda\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-c", str(config), "build", str(tmp_path / "src")])
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: config embedding.device: cuda asked for"), line
    assert not (tmp_path / "ws").exists()
