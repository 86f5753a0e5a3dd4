"""Keeping stdout for the protocol on stdio: what opens before the SDK takes over fd 1 writes to stderr.

Opening the engine starts the vector store's server process and may load libraries that print; over
stdio, one stray line on stdout would corrupt the client's first read. While the SDK serves it points
fd 1 at stderr itself (kgbuild/mcp/server.py run_stdio); this covers the opening before that, and any
child process started meanwhile keeps stderr as its stdout for good.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def stdout_to_stderr_for_good() -> None:
    """After the protocol is over: the SDK gives fd 1 back to the client's pipe when it stops serving, but
    closing the engine and the interpreter's exit still run (the graph store's JVM prints at shutdown), and
    the client may still be reading."""
    sys.stdout.flush()
    os.dup2(2, 1)
