"""Where the shared data sets are, for the benchmarks (run as `python bench/NAME.py`, so this folder
is on the import path): $KGBUILD_SHARED_DATA, else ../shared/data beside the repo, else /work/shared/data."""

from __future__ import annotations

import os
from pathlib import Path


def shared_data(marker: str = "hotpotqa/train_corpus.json") -> Path:
    """The first candidate folder that holds `marker` (the data set a benchmark reads by default)."""
    for base in (os.environ.get("KGBUILD_SHARED_DATA"), Path(__file__).resolve().parents[2] / "shared" / "data",
                 "/work/shared/data"):
        if base and (Path(base) / marker).exists():
            return Path(base)
    return Path("/work/shared/data")
