"""Where sentence models run: `embedding.device` (auto | cpu | cuda).

On 2 CPU cores the bundled MiniLM embeds 2Wiki's ~44k texts in ~99 s; one GPU does it in seconds
(docs/scale.md has the figures). `auto` takes CUDA when PyTorch sees a GPU, else the CPU; `cuda`
on a machine without one is refused with one line (before a build extracts anything), not quietly
run on the CPU. On CUDA the model runs on PyTorch (ONNX Runtime's CPU graphs are the CPU's fast
path), in `CUDA_DTYPE`, with `CUDA_BATCH` texts per batch unless `embedding.batch_size` is set.
Nothing here imports torch until a device is asked for.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from typing import Literal

from kgbuild.errors import ModelLoadError

Device = Literal["cpu", "cuda"]
DEVICES = ("auto", "cpu", "cuda")
# Measured on an H100 with MiniLM-L6 (bench/gpu_embed.py, docs/scale.md): fp16 embedded 2Wiki's
# texts in 3.35-4.22 s against fp32's 4.16-4.61 s (two runs), the same top-10 passages for 0.999 of
# HotpotQA questions' results; batches of 512 and 1024 were equally fast, 2048 slower.
CUDA_BATCH = 512
CUDA_DTYPE = "float16"
DEFAULT_BATCH = 64  # embedding.batch_size's default: a configured other value is kept on every device


def _driver_present() -> bool:
    # The NVIDIA driver's files: without them no CUDA device can exist, and torch (seconds to
    # import) is not imported just to be told so; a build whose vectors are all cached loads no model.
    return any(os.path.exists(p) for p in ("/proc/driver/nvidia/version", "/dev/nvidia0", "/dev/dxg"))


def cuda_available() -> bool:
    """Whether PyTorch is installed and sees a CUDA device."""
    if not _driver_present() or importlib.util.find_spec("torch") is None:
        return False
    import torch

    return bool(torch.cuda.is_available())


def resolve_device(setting: str, backend: str = "auto", *,
                   available: Callable[[], bool] = cuda_available) -> Device:
    """The device `embedding.device` asks for on this machine (`backend`: embedding.backend)."""
    if setting not in DEVICES:
        raise ModelLoadError("config embedding.device", f"unknown device {setting!r}", "use auto, cpu or cuda")
    if setting == "cpu":
        return "cpu"
    if setting == "auto":
        # An explicit CPU backend (onnx, onnx-int8, static) keeps the CPU: only auto/torch move.
        return "cuda" if backend in ("auto", "torch") and available() else "cpu"
    if backend not in ("auto", "torch"):
        raise ModelLoadError("config embedding.device", f"cuda runs the model on PyTorch, not on {backend}",
                             "set embedding.backend: auto (or torch) with embedding.device: cuda")
    if not available():
        torch_line = "PyTorch is not installed" if importlib.util.find_spec("torch") is None else \
            "PyTorch sees no CUDA device"
        raise ModelLoadError("config embedding.device", f"cuda asked for, but {torch_line} on this machine",
                             "set embedding.device: auto or cpu")
    return "cuda"


def batch_for(device: Device, configured: int) -> int:
    """Texts per batch: the configured size, or `CUDA_BATCH` on a GPU when the default was left."""
    return CUDA_BATCH if device == "cuda" and configured == DEFAULT_BATCH else configured
