"""Handing memory back between the steps of a large records import.

A million records pass through hundreds of megabytes of intermediate columns and Python objects;
once a step is done they are freed, but the allocators keep the pages for reuse (Arrow's pool,
and the C heap under Python's small objects and numpy's temporaries), so the process's peak
grows with every step. `release` gives them back; the next step starts from what is live.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

import pyarrow as pa


def _libc() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None  # glibc only


_LIBC = _libc()


def release() -> None:
    """Return the memory the allocators hold but nothing uses to the system."""
    pa.default_memory_pool().release_unused()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)
