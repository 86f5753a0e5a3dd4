"""What each endpoint of a project turned out to be, kept beside the reply cache.

`llm.server: auto` costs one GET /models per endpoint, and a refused structured-output form one
refused request; both are remembered in `<workspace>/cache/llm_servers.json` so later builds and
queries of the project start with the right form. A damaged or foreign file is ignored (and
rewritten): it only saves a probe.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from pathlib import Path

from kgbuild.llm.server import FORMS, KINDS, ServerProfile

log = logging.getLogger(__name__)

SERVERS_FILE = "llm_servers.json"


class ServerMemory:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()

    def _read(self) -> dict[str, dict[str, object]]:
        if self.path is None or not self.path.is_file():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, base_url: str) -> ServerProfile | None:
        with self._lock:
            entry = self._read().get(base_url)
        if not isinstance(entry, dict) or entry.get("kind") not in KINDS or entry.get("form") not in FORMS:
            return None
        fallbacks = entry.get("fallbacks")
        return ServerProfile(kind=str(entry["kind"]), form=str(entry["form"]),
                             fallbacks=[str(f) for f in fallbacks] if isinstance(fallbacks, list) else [])

    def put(self, base_url: str, profile: ServerProfile) -> None:
        if self.path is None:
            return
        with self._lock:
            data = self._read()
            data[base_url] = {"kind": profile.kind, "form": profile.form, "fallbacks": profile.fallbacks}
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".llm_servers.")
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    json.dump(data, out, indent=1, sort_keys=True)
                os.replace(tmp, self.path)
            except OSError as exc:  # a read-only workspace: the probe is simply made again next time
                log.debug("cannot remember the server profile in %s: %s", self.path, exc)
