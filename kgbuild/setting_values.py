"""What the text of a setting may hold, wherever it comes from (kgbuild.yaml or a KGBUILD_* variable).

Each check raises ValueError with a message about the value that never quotes it: the same checks
guard secrets (an API key with a stray newline) and endpoints, and the caller decides whether the
value may be shown. Before these checks a 300-character KGBUILD_WORKSPACE failed as an OSError
traceback in every command, a newline in a URL as an InvalidURL traceback, and `not a url` was
retried for 16 s before "cannot connect".
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

# No setting is a document: a longer value is a pasted file or a runaway variable, not a choice.
MAX_TEXT = 4096
# A path longer than this is refused by most file systems anyway (PATH_MAX is 4096 on Linux, but the
# workspace gets file names appended); one component may hold at most 255 bytes (NAME_MAX).
MAX_PATH = 1024
MAX_NAME_BYTES = 255

HTTP_SCHEMES = ("http", "https")
BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
MILVUS_SCHEMES = ("http", "https", "tcp", "grpc")

_CONTROL_NAMES = {"\n": "a line break", "\r": "a carriage return", "\t": "a tab", "\x00": "a NUL byte"}


def control_character(value: str) -> str | None:
    """A description of the first control or unencodable character in `value`, or None."""
    for ch in value:
        if ch in _CONTROL_NAMES:
            return _CONTROL_NAMES[ch]
        category = unicodedata.category(ch)
        if category == "Cc":
            return f"a control character (U+{ord(ch):04X})"
        if category == "Cs":
            return f"a lone surrogate (U+{ord(ch):04X})"
    return None


def check_text(value: str, *, limit: int = MAX_TEXT) -> str:
    """One line of printable text of at most `limit` characters."""
    if len(value) > limit:
        raise ValueError(f"is {len(value):,} characters long; at most {limit:,} are allowed")
    found = control_character(value)
    if found is not None:
        raise ValueError(f"contains {found}; a setting is one line of text")
    return value


def check_path(value: str) -> str:
    """A path a file system can hold: bounded length, no control characters, no over-long component."""
    check_text(value, limit=MAX_PATH)
    for part in value.replace("\\", "/").split("/"):
        size = len(part.encode("utf-8"))
        if size > MAX_NAME_BYTES:
            raise ValueError(f"has a path component of {size} bytes; file systems allow at most {MAX_NAME_BYTES}")
    return value


def check_url(value: str, schemes: tuple[str, ...]) -> str:
    """An absolute URL with one of `schemes` and a host (and a numeric port, if any)."""
    check_text(value)
    if value != value.strip():
        raise ValueError("has leading or trailing spaces")
    parts = urlsplit(value)
    scheme = parts.scheme.lower()
    if "://" not in value or not scheme:
        raise ValueError(f"is not a URL; expected {schemes[0]}://host[:port][/path] (schemes: {_listed(schemes)})")
    if scheme not in schemes:
        raise ValueError(f"has the scheme {scheme}://, which is not supported here; use {_listed(schemes)}")
    if not parts.hostname or " " in parts.netloc:
        raise ValueError(f"has no host; expected {scheme}://host[:port][/path]")
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number from 0 to 65535
    except ValueError:
        raise ValueError("has a port that is not a number from 1 to 65535") from None
    return value


def check_url_or_path(value: str, schemes: tuple[str, ...]) -> str:
    """A server URL (`scheme://...`) or a local file path (Milvus Lite)."""
    return check_url(value, schemes) if "://" in value else check_path(value)


def _listed(schemes: tuple[str, ...]) -> str:
    return " or ".join(f"{s}" for s in schemes)
