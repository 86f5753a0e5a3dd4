"""Bytes to text, with one actionable message for each way a file can fail to be UTF-8 text."""

from __future__ import annotations

from kgbuild.ingest.readers.problems import BadInput

BINARY_SNIFF_BYTES = 8192
_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")

EMPTY_FILE = "empty file; nothing to build"


def check_not_binary(head: bytes) -> None:
    """Reject files that are clearly not text, judging by their first bytes."""
    # UTF-16 text is full of NUL bytes too, but the fix differs: re-encode rather than remove.
    if head.startswith(_UTF16_BOMS):
        raise BadInput("file is UTF-16 encoded; re-save the file as UTF-8")
    if b"\x00" in head[:BINARY_SNIFF_BYTES]:
        raise BadInput("binary file, not text; remove it from the input or convert it to .txt or .md")


def decode_text(data: bytes) -> str:
    """Decode a whole text file: empty, binary and non-UTF-8 input raise BadInput."""
    if not data.strip():
        raise BadInput(EMPTY_FILE)
    check_not_binary(data)
    offset = len(_UTF8_BOM) if data.startswith(_UTF8_BOM) else 0
    try:
        text = data[offset:].decode("utf-8")
    except UnicodeDecodeError as err:
        # Report the offset in the file as stored (BOM included), which is what a hex viewer shows.
        raise BadInput(f"invalid UTF-8 at byte {err.start + offset}; re-save the file as UTF-8") from None
    if not text.strip():
        raise BadInput(EMPTY_FILE)
    return text
