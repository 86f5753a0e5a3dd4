"""The project's workspace: stage outputs on disk, keyed by content hashes.

Layout (all under `workspace:` from the config, `.kgbuild/` by default):

    tables/<name>.parquet           documents, chunks and the assembled graph (columnar)
    cache/extract/<fingerprint>.jsonl
                                    one line per extracted chunk, appended as results arrive, keyed by
                                    chunk id + chunk content hash; the file name is the extractor+schema
                                    fingerprint, so a changed extractor or schema never reuses stale output
    reports/<timestamp>.json        one build report per run; reports/latest.json is the newest
    build.lock                      flock-ed by a running build; never deleted (the kernel releases the
                                    lock when the holder exits or is killed); its text names the holder

Tables are replaced atomically (write to a temp file, then rename), so a build killed at any
point leaves the previous tables intact; the cache is append-only, so a killed build keeps
every chunk it finished, and a torn last line is ignored on the next start.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import BaseModel

from kgbuild.errors import WorkspaceError
from kgbuild.model import Note
from kgbuild.tables import SCHEMAS, NoteRow, TableCodec

M = TypeVar("M", bound=BaseModel)


class ExtractionCache:
    """Append-only JSON-lines store of extraction results: {"key": ..., "value": {...}} per line.

    Values stay JSON text in memory: the build validates them straight into records
    (pydantic parses JSON faster than it converts dicts), and unused ones are never decoded.
    """

    _PREFIX = '{"key": "'
    _MIDDLE = '", "value": '

    def __init__(self, path: Path) -> None:
        self.path = path
        self.torn_lines = 0
        self._entries: dict[str, str] = {}
        if path.exists():
            self._load()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = path.open("a", encoding="utf-8")
        if self._fh.tell() > 0 and not _ends_with_newline(path):
            self._fh.write("\n")  # close a torn last line so the next entry starts on its own line

    def _load(self) -> None:
        with self.path.open("r", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                key, value = self._split(line)
                if key is None:
                    # A build killed mid-write leaves at most a partial last line; its chunk is redone.
                    self.torn_lines += 1
                    continue
                self._entries[key] = value

    @classmethod
    def _split(cls, line: str) -> tuple[str | None, str]:
        # Lines are written by `put` in one fixed shape, so the key is found without decoding
        # the value; a line of any other shape goes through the JSON parser.
        if line.startswith(cls._PREFIX) and line.endswith("}\n"):
            end = line.find(cls._MIDDLE, len(cls._PREFIX))
            key = line[len(cls._PREFIX) : end]
            if end > 0 and '"' not in key and "\\" not in key:
                return key, line[end + len(cls._MIDDLE) : -2]
        try:
            entry = json.loads(line)
            return str(entry["key"]), json.dumps(entry["value"])
        except (json.JSONDecodeError, KeyError, TypeError):
            return None, ""

    def __contains__(self, key: str) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> str | None:
        """The cached value as JSON text."""
        return self._entries.get(key)

    def put(self, key: str, value_json: str) -> None:
        """`value_json` is already serialised (workers send JSON, so the parent never re-encodes)."""
        self._fh.write(f'{{"key": {json.dumps(key)}, "value": {value_json}}}\n')
        self._entries[key] = value_json

    def flush(self) -> None:
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        if not self._fh.closed:
            self.flush()
            self._fh.close()


class Workspace:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.tables_dir = path / "tables"
        self.cache_dir = path / "cache"
        self.reports_dir = path / "reports"

    def exists(self) -> bool:
        return self.tables_dir.is_dir()

    def ensure(self) -> None:
        try:
            for d in (self.tables_dir, self.cache_dir / "extract", self.reports_dir):
                d.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WorkspaceError(str(self.path), f"cannot create the workspace: {exc.strerror}",
                                 "check the `workspace:` setting and permissions") from None

    @contextmanager
    def lock(self) -> Iterator[None]:
        """One build per workspace at a time: an exclusive `flock` on `build.lock`.

        The kernel decides who holds it, atomically, and releases it when the holder's process
        ends however it ends, so there is no stale lock to take over (the old PID-file check,
        unlink and re-create raced) and a recycled PID cannot block. The file is never deleted
        (deleting it would let a second build lock a new file); the holder's PID, command and
        start time are written into it only to name the holder when another build is refused.
        A file left by the previous PID-file version is just the lock file now.
        """
        path = self.path / "build.lock"
        try:
            # No O_TRUNC: the file may name the current holder, which the refusal message reads.
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise WorkspaceError(str(path), f"cannot open the build lock: {exc.strerror}",
                                 "check the `workspace:` setting and permissions") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise WorkspaceError(str(path), f"another build is running ({_holder(path)})",
                                 "wait for it to finish or stop that process; the lock is released when it exits, "
                                 "deleting the file does not help") from None
        except OSError as exc:
            os.close(fd)
            raise WorkspaceError(str(path), f"cannot take the build lock: {exc.strerror}",
                                 "put the workspace on a file system that supports flock") from None
        try:
            # The holder's name only serves messages: a full disk must not fail the build over it.
            with suppress(OSError):
                _write_holder(fd)
            yield
        finally:
            # Forget the holder before letting go, so a refusal never names a finished build;
            # LOCK_UN as well as close, in case a forked child shares the descriptor.
            with suppress(OSError):
                os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def running_build(self) -> RunningBuild | None:
        """The build holding the lock now, as it named itself in the lock file; None when none runs.

        The kernel's lock decides, not the file's text: a build killed with -9 leaves its name in the
        file but no lock. Asking takes a shared lock for the length of two system calls; a build that
        tries to start within those microseconds is refused with the usual "another build is running".
        """
        path = self.path / "build.lock"
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return None  # no lock file: no build ever ran here
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return RunningBuild.read(path)
            except OSError:
                return None  # no flock on this file system: the build could not have taken it either
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        finally:
            os.close(fd)

    # ---------------------------------------------------------------- tables

    def table_path(self, name: str) -> Path:
        return self.tables_dir / f"{name}.parquet"

    def has_table(self, name: str) -> bool:
        return self.table_path(name).exists()

    def write_table(self, name: str, rows: list[dict[str, Any]]) -> None:
        self.write_arrow(name, pa.Table.from_pylist(rows, schema=SCHEMAS[name]))

    def write_arrow(self, name: str, table: pa.Table) -> None:
        """Table `name` replaced atomically by `table` (of the table's schema)."""
        target = self.table_path(name)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, target)

    def write_parts(self, name: str, parts: Iterable[pa.Table], *, rows_per_group: int = 65_536) -> int:
        """Table `name` replaced atomically by `parts` one after another, each cast to the table's
        schema a row group at a time (a part may hold its strings dictionary-encoded: nothing the
        size of the whole table is made). Returns the rows written."""
        target = self.table_path(name)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        schema = SCHEMAS[name]
        rows = 0
        with pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
            for part in parts:
                for batch in part.select(schema.names).to_batches(max_chunksize=rows_per_group):
                    writer.write_batch(batch.cast(schema))
                    rows += batch.num_rows
        os.replace(tmp, target)
        return rows

    def read_table(self, name: str, columns: list[str] | None = None) -> pa.Table:
        path = self.table_path(name)
        if not path.exists():
            return SCHEMAS[name].empty_table() if columns is None else SCHEMAS[name].empty_table().select(columns)
        try:
            return pq.read_table(path, columns=columns)
        except (pa.ArrowException, OSError) as exc:
            raise WorkspaceError(str(path), f"unreadable table: {exc}", "rebuild with `kgbuild build`") from None

    def row_count(self, name: str) -> int:
        path = self.table_path(name)
        return pq.ParquetFile(path).metadata.num_rows if path.exists() else 0

    def rows(self, name: str) -> list[dict[str, Any]]:
        """The whole table as dicts keyed by column (see `records` for typed rows)."""
        rows: list[dict[str, Any]] = self.read_table(name).to_pylist()
        return rows

    def records(self, name: str, model: type[M], *, batch_size: int = 8192) -> Iterator[M]:
        """The rows of table `name` as `model` records, batch by batch (memory stays flat on big tables).

        `model` is the table's row record (`EntityRow`) or the record it extends (`Entity`); only
        the columns `model` needs are read. Columns added after a table was written take the
        record's defaults, so workspaces of earlier builds read the same way.
        """
        path = self.table_path(name)
        if not path.exists():
            return
        codec = TableCodec.of(model)
        try:
            parquet = pq.ParquetFile(path)
            present = set(parquet.schema_arrow.names)
            batches = parquet.iter_batches(batch_size=batch_size, columns=[c for c in codec.columns() if c in present])
            for batch in batches:
                for row in batch.to_pylist():
                    yield codec.from_row(row)
        except (pa.ArrowException, OSError) as exc:
            raise WorkspaceError(str(path), f"unreadable table: {exc}", "rebuild with `kgbuild build`") from None

    def notes(self) -> list[Note]:
        """The `drops` table as records: removals, retypes, repairs and chunk failures."""
        return [row.note() for row in self.records("drops", NoteRow)]

    # ---------------------------------------------------------------- caches and reports

    def extraction_cache(self, fingerprint: str) -> ExtractionCache:
        return ExtractionCache(self.cache_dir / "extract" / f"{fingerprint}.jsonl")

    def save_report(self, report_json: str, stamp: str) -> Path:
        path = self.reports_dir / f"{stamp}.json"
        path.write_text(report_json, encoding="utf-8")
        latest = self.reports_dir / "latest.json"
        tmp = latest.with_suffix(".tmp")
        tmp.write_text(report_json, encoding="utf-8")
        os.replace(tmp, latest)
        return path

    def latest_report(self) -> dict[str, Any] | None:
        path = self.reports_dir / "latest.json"
        if not path.exists():
            return None
        report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return report


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


def _write_holder(fd: int) -> None:
    """Name this process in the lock file (for the refusal message only, never for the decision)."""
    argv = sys.argv or [""]
    # One line whatever the arguments hold (a `python -c` script has newlines): the message is one line.
    command = " ".join(" ".join([Path(argv[0]).name, *argv[1:]]).split())[:200]
    holder = {"pid": os.getpid(), "command": command,
              "since": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    data = json.dumps(holder).encode()
    # Write, then cut what a killed holder left after it: the file is never empty in between.
    os.pwrite(fd, data, 0)
    os.ftruncate(fd, len(data))


class RunningBuild(BaseModel):
    """A build holding a workspace's lock: what it wrote into `build.lock` when it took it (the pid is
    None for the moment between taking the lock and writing its name)."""

    pid: int | None = None
    command: str = ""
    since: str = ""

    @classmethod
    def read(cls, path: Path) -> RunningBuild:
        try:
            holder = json.loads(path.read_text(encoding="utf-8"))
            return cls(pid=int(holder["pid"]), command=str(holder.get("command", "")), since=str(holder["since"]))
        except (OSError, ValueError, TypeError, KeyError):
            return cls()

    def line(self) -> str:
        if self.pid is None:
            return "a build is running (it has not written its pid yet)"
        return f"a build is running: pid {self.pid}" + (f" `{self.command}`" if self.command else "") + \
            f", since {self.since}"


def _holder(path: Path) -> str:
    """Who holds the lock, as the holder wrote it; the file may be empty for a moment after it took it."""
    try:
        holder = json.loads(path.read_text(encoding="utf-8"))
        pid, since, command = int(holder["pid"]), str(holder["since"]), str(holder.get("command", ""))
    except (OSError, ValueError, TypeError, KeyError):
        return "its holder has not written its pid yet"
    return f"pid {pid}" + (f" `{command}`" if command else "") + f", since {since}"
