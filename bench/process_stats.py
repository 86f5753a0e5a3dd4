"""What the server benchmarks measure the same way (run as `python bench/NAME.py`, so this folder is
on the import path): percentiles of timings, and a process's memory and descendants from /proc."""

from __future__ import annotations

from pathlib import Path


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile, linear between the two nearest ranks (nan for no values)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = q / 100 * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MB."""
    fields: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return fields.get("VmRSS", 0.0), fields.get("VmHWM", 0.0)


def descendants(pid: int) -> list[int]:
    """The process's children, grandchildren, ... (Milvus Lite runs its engine in a child process)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            children = [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
        for child in children:
            out.extend([child, *descendants(child)])
    return out
