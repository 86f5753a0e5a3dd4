"""Deterministic, content-derived identifiers.

Every id in a build is a function of content (never random), so two builds of the same
input produce the same ids and every later write can be an idempotent upsert.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

_SEP = "\x1f"  # unit separator: cannot occur in normalised names, so parts never run together

# Chunk ids are `{articleID}#{paraCode}#{idInPara}`; the article part must not contain '#'.
CHUNK_ID_RE = re.compile(r"^[^#]+#[^#]+#[0-9]+$")
PARA_CODE_WIDTH = 5


def content_hash(text: str) -> str:
    """Short, stable digest of a text (128 bits is plenty to key caches)."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def stable_id(prefix: str, *parts: str) -> str:
    """`prefix_<digest>` of the given parts; equal parts always give the same id."""
    digest = hashlib.blake2b(_SEP.join(parts).encode("utf-8"), digest_size=10).hexdigest()
    return f"{prefix}_{digest}"


ID_PART_SEP = _SEP


def stable_ids(prefix: str, joined: Iterable[bytes]) -> list[str]:
    """`stable_id(prefix, *parts)` of many, each given as its parts joined by `ID_PART_SEP`,
    UTF-8 encoded (a columnar caller joins a million with Arrow: one hash call each, no more)."""
    head, blake2b = f"{prefix}_", hashlib.blake2b
    return [head + blake2b(b, digest_size=10).hexdigest() for b in joined]


def normalize_name(name: str) -> str:
    """Key used to recognise the same surface name: NFKC, casefold, collapsed whitespace.

    This is only exact-key identity inside one build; real entity resolution (aliases,
    honorifics, near-duplicates) is the alignment stage's job.
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    # Whitespace runs to one space: str.split() splits on exactly what `\s` matches in a str pattern
    # (U+00A0 included), at a fifth of re.sub's cost (a records import normalises millions of names).
    return " ".join(text.split()).strip(" \t\n.,;:'\"")


def escape_article_id(raw: str) -> str:
    """Make a document id safe as the first part of a chunk id.

    '%' and '#' are percent-escaped (so the mapping is reversible), control characters and
    line breaks become spaces, surrounding whitespace is dropped.
    """
    text = "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in raw)
    text = re.sub(r"\s+", " ", text).strip()
    text = text.replace("%", "%25").replace("#", "%23")
    if not text:
        raise ValueError("document id is empty after escaping")
    return text


def unescape_article_id(escaped: str) -> str:
    return escaped.replace("%23", "#").replace("%25", "%")


def para_code(paragraph_index: int) -> str:
    """Zero-padded paragraph code, so ids of one document sort in reading order."""
    return f"p{paragraph_index:0{PARA_CODE_WIDTH}d}"


class ChunkIdParts(NamedTuple):
    article_id: str
    para_code: str
    id_in_para: int


def chunk_id(article_id: str, paragraph_index: int, id_in_para: int) -> str:
    return f"{article_id}#{para_code(paragraph_index)}#{id_in_para}"


def parse_chunk_id(value: str) -> ChunkIdParts:
    if not CHUNK_ID_RE.match(value):
        raise ValueError(f"not a chunk id: {value!r}")
    article, code, idx = value.split("#")
    return ChunkIdParts(article, code, int(idx))


def chunk_sort_key(value: str) -> tuple[str, str, int]:
    """Reading order: by article, paragraph code, then the numeric position in the paragraph."""
    parts = parse_chunk_id(value)
    return (parts.article_id, parts.para_code, parts.id_in_para)
