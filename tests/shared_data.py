"""Where the shared evaluation corpora live (read-only, outside the repo)."""

from __future__ import annotations

import os
from pathlib import Path


def shared_data_dir() -> Path:
    """KGBUILD_SHARED_DATA, else `shared/data` beside the checkout, else the machines' standard place."""
    candidates = [
        os.environ.get("KGBUILD_SHARED_DATA", ""),
        str(Path(__file__).resolve().parents[2] / "shared" / "data"),
        "/work/shared/data",
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return Path(candidates[1])
