"""How the explorer's API answers a request it cannot serve: small JSON bodies that never echo the input.

FastAPI's own 422 repeats every rejected value; a 10 MB question came back as a 10 MB error, and a
value JSON cannot carry (NaN, Infinity, a lone surrogate) made the error handler itself fail with a
500. Here a rejected value is described by where it was and what was wrong, never by its content.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

# An error message longer than this is cut: the message is for a person, the request was theirs.
MAX_MESSAGE = 300
# At most this many problems are listed for one request (the first ones are what to fix first).
MAX_PROBLEMS = 10


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` on one line, at most `limit` characters, safe to encode as UTF-8."""
    text = " ".join(text.split())
    text = text.encode("utf-8", "replace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _location(loc: Any) -> list[str | int]:
    # Locations are parameter names and list positions; a key the client sent is clipped like any text.
    return [part if isinstance(part, int) else clip(str(part), 80) for part in tuple(loc)[:6]]


async def validation_error(_: Request, exc: Exception) -> JSONResponse:
    """422 listing where each problem is and what is wrong, without the value sent."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [{"loc": _location(e.get("loc", ())), "msg": clip(str(e.get("msg", "invalid value"))),
               "type": clip(str(e.get("type", "value_error")), 60)} for e in errors[:MAX_PROBLEMS]]
    return JSONResponse({"detail": detail}, status_code=422)
