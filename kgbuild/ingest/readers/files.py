"""Walking the input paths and sending each file to the reader for its format."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from kgbuild.ingest.readers.corpus import read_json_corpus, read_jsonl_corpus
from kgbuild.ingest.readers.decode import BINARY_SNIFF_BYTES, EMPTY_FILE, check_not_binary, decode_text
from kgbuild.ingest.readers.document import Parsed, make_document
from kgbuild.ingest.readers.html import parse_html
from kgbuild.ingest.readers.markdown import parse_markdown
from kgbuild.ingest.readers.pdf import parse_pdf
from kgbuild.ingest.readers.problems import BadInput, ReadProblem
from kgbuild.ingest.readers.size import (
    DEFAULT_MAX_DOCUMENT_CHARS,
    check_docx_text,
    check_text_bytes,
    too_large,
)
from kgbuild.ingest.readers.tabular import read_table
from kgbuild.ingest.readers.text import parse_txt
from kgbuild.ingest.readers.word import parse_docx
from kgbuild.model import Document

if TYPE_CHECKING:
    from kgbuild.config import CsvColumns

# A reader that takes over some files (mapped structured records): their documents, or None for a
# file it does not claim. Called with the file, its display path and its raw id.
ClaimFile = Callable[[Path, str, str], "Iterator[Document | ReadProblem] | None"]

FORMATS: dict[str, str] = {
    ".txt": "txt",
    ".md": "md",
    ".markdown": "md",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
    ".docx": "docx",
    ".json": "json",
    ".jsonl": "jsonl",
    ".csv": "csv",
    ".tsv": "tsv",
}
SUPPORTED_EXTENSIONS: tuple[str, ...] = tuple(FORMATS)
_TEXT_PARSERS = {"txt": parse_txt, "md": parse_markdown, "html": parse_html}

# Reading a pipe or a device would block or never end, so they are reported, not opened.
NOT_REGULAR = "not a regular file (a pipe, socket or device); remove it from the input"

# Files that operating systems and editors leave next to documents; never content.
_JUNK_NAMES = frozenset({"Thumbs.db", "desktop.ini", "__MACOSX"})


def _skipped(name: str) -> bool:
    return name.startswith(".") or name.startswith("~$") or name.endswith("~") or name in _JUNK_NAMES


def os_error_message(err: OSError) -> str:
    if err.errno == errno.ENOENT:
        return "no such file or directory"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "cannot read: permission denied"
    if err.errno == errno.ELOOP:
        return "symbolic link loop (too many levels of links); fix or remove the link"
    return f"cannot read: {err.strerror or err}"


def _walk(root: Path, prefix: str, visited: set[tuple[int, int]],
          label: str) -> Iterator[tuple[Path, str] | ReadProblem]:
    """Files under `root` in sorted order, with their '/'-separated path relative to the input root.

    `label` names the input root itself in a problem (as the user gave it).
    """
    try:
        info = root.stat()
        # Symlinked directories are followed, but each real directory only once (no loops).
        if (info.st_dev, info.st_ino) in visited:
            return
        visited.add((info.st_dev, info.st_ino))
        with os.scandir(root) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError as err:
        yield ReadProblem(prefix.rstrip("/") or label, os_error_message(err))
        return
    for entry in entries:
        if _skipped(entry.name):
            continue
        rel = prefix + entry.name
        try:
            # Following a link can fail (a loop of file links raises ELOOP here): that is
            # one problem for this entry, never an abort of the whole walk.
            is_dir = entry.is_dir()
            is_file = not is_dir and entry.is_file()
        except OSError as err:
            yield ReadProblem(rel, os_error_message(err))
            continue
        if is_dir:
            yield from _walk(Path(entry.path), rel + "/", visited, label)
        elif is_file:
            yield Path(entry.path), rel
        elif entry.is_symlink():
            yield ReadProblem(rel, "no such file or directory (broken symbolic link); fix or remove the link")
        else:
            yield ReadProblem(rel, NOT_REGULAR)


def _read_file(path: Path, source: str, raw_id: str, csv_columns: CsvColumns | None = None,
               max_chars: int = DEFAULT_MAX_DOCUMENT_CHARS) -> Iterator[Document | ReadProblem]:
    """The file's documents, each held to `max_chars` characters of text (a corpus record over it
    is one problem; the file's other records are still read)."""
    for item in _read_file_uncapped(path, source, raw_id, csv_columns, max_chars):
        chars = sum(len(p.text) for p in item.paragraphs) if isinstance(item, Document) else 0
        if chars > max_chars:
            yield ReadProblem(item.source, too_large(chars, max_chars).message)
            continue
        yield item


def _read_file_uncapped(path: Path, source: str, raw_id: str, csv_columns: CsvColumns | None,
                        max_chars: int) -> Iterator[Document | ReadProblem]:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        shown = f"'{path.suffix}'" if path.suffix else "(no extension)"
        yield ReadProblem(source, f"unsupported file type {shown}; supported: {', '.join(SUPPORTED_EXTENSIONS)}")
        return
    try:
        if fmt == "jsonl":
            with path.open("rb") as handle:
                head = handle.read(BINARY_SNIFF_BYTES)
                if not head.strip():
                    raise BadInput(EMPTY_FILE)
                check_not_binary(head)
                handle.seek(0)
                yield from read_jsonl_corpus(handle, source)
            return
        data = path.read_bytes()
        if fmt == "json":
            yield from read_json_corpus(data, source)
            return
        if fmt in ("csv", "tsv"):
            yield from read_table(data, source, fmt, csv_columns, namespace=raw_id)
            return
        if fmt in ("pdf", "docx"):
            if not data.strip():
                raise BadInput(EMPTY_FILE)
            if fmt == "docx":
                check_docx_text(data, max_chars)  # before python-docx inflates it into a tree
            parsed: Parsed = parse_pdf(data) if fmt == "pdf" else parse_docx(data)
        else:
            check_text_bytes(data, max_chars)
            parsed = _TEXT_PARSERS[fmt](decode_text(data))
        title = parsed.title or path.stem
        yield make_document(raw_id, source, title, fmt, parsed.paragraphs, parsed.metadata, parsed.markup_dropped)
    except BadInput as err:
        yield ReadProblem(source, err.message)
    except OSError as err:
        yield ReadProblem(source, os_error_message(err))


def read_sources(paths: Sequence[str | Path], *, csv_columns: CsvColumns | None = None,
                 max_chars: int = DEFAULT_MAX_DOCUMENT_CHARS,
                 claim: ClaimFile | None = None) -> Iterator[Document | ReadProblem]:
    """Stream Documents from files, directories (recursive, sorted, skipping hidden files and
    directories and OS clutter like '.DS_Store') and corpus files; yield a ReadProblem for
    anything unreadable and go on with the rest.

    Plain files get the id 'dir/name' (relative to a directory given, without extension) or
    'name' when given alone; corpus records (and .csv/.tsv rows, mapped by `csv_columns`) get
    their own id or title. `claim`: files it returns documents for are read by it instead.
    """
    if isinstance(paths, (str, os.PathLike)):  # one path passed bare: a str is a Sequence too
        paths = [paths]
    for given in paths:
        shown = given if isinstance(given, str) else Path(given).as_posix()
        path = Path(given)
        try:
            mode = path.stat().st_mode
        except OSError as err:
            yield ReadProblem(shown, os_error_message(err))
            continue
        if stat.S_ISREG(mode):
            claimed = claim(path, shown, path.stem) if claim is not None else None
            yield from claimed if claimed is not None else _read_file(path, shown, path.stem, csv_columns, max_chars)
            continue
        if not stat.S_ISDIR(mode):
            yield ReadProblem(shown, NOT_REGULAR)
            continue
        for item in _walk(path, "", set(), shown):
            if isinstance(item, ReadProblem):
                yield item
            else:
                file_path, rel = item
                raw_id = str(PurePosixPath(rel).with_suffix(""))
                claimed = claim(file_path, rel, raw_id) if claim is not None else None
                if claimed is not None:
                    yield from claimed
                    continue
                yield from _read_file(file_path, rel, str(PurePosixPath(rel).with_suffix("")), csv_columns,
                                      max_chars)
