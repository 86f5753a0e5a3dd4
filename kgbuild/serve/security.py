"""Who may talk to the explorer: the bind rule, the token check and the response headers.

- Loopback by default. Binding any other address needs a token (`--token` or KGBUILD_SERVE_TOKEN);
  without one the server refuses to start (`check_bind`).
- With a token, every request, pages and API alike, must carry it: `Authorization: Bearer <token>`,
  or the `kgbuild_token` cookie, which the first page load sets from `/?token=<token>` (the page then
  redirects to a URL without it, so the token does not stay in the address bar or the history). The
  API never takes it from a query string.
- Bound to loopback (token or not), requests must name a loopback host in their Host header: a web page
  elsewhere cannot reach the API through a DNS name rebound to 127.0.0.1.
- Request bodies are capped in size and in the time they may take to arrive (`RequestLimits`).
- Every response says: no framing, no sniffing, no referrer, and a Content-Security-Policy that runs
  only the app's own scripts (data shown as text is the first defence; the policy is the second).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import logging
from dataclasses import dataclass
from urllib.parse import urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kgbuild.errors import ConfigError

log = logging.getLogger("kgbuild.serve")

TOKEN_ENV = "KGBUILD_SERVE_TOKEN"
COOKIE = "kgbuild_token"
LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})

# Scripts: the app's own files only (no inline script, no eval). Styles may be inline: Cytoscape.js and
# Swagger UI set style attributes on the elements they create, and a style cannot run code.
APP_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
           "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost; false for 0.0.0.0, :: and every other address or name."""
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None, *, what: str = "the explorer") -> None:
    """Refuse to serve a non-loopback address without a token (ConfigError: one line, exit 2)."""
    if not is_loopback(host) and not (token or "").strip():
        raise ConfigError("--host", f"binding {host} exposes {what} beyond this machine without a token",
                          f"pass --token or set {TOKEN_ENV}, or bind 127.0.0.1")


def _host_name(header: str) -> str:
    """The host of a Host header without its port ("[::1]:8321" -> "::1")."""
    header = header.strip()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


@dataclass(frozen=True)
class RequestLimits:
    """How much a request may send and how long it may take to send it."""

    # The largest body the API reads: a query is a question of <= 2000 characters and two small fields.
    max_body_bytes: int = 64 * 1024
    # A body that has not fully arrived by then is answered 408 and the connection freed: a client that
    # promises a Content-Length and never sends it would otherwise hold a connection for ever.
    body_seconds: float = 30.0


class Guard:
    """ASGI middleware: the token or loopback-Host check, the body limits, then the security headers on
    every response, a 500 included (an unexpected error is logged and answered here, so the connection
    stays usable and the answer carries the same headers as every other)."""

    def __init__(self, app: ASGIApp, *, token: str | None, loopback_only: bool,
                 limits: RequestLimits | None = None) -> None:
        self.app = app
        self.token = token or None
        self.loopback_only = loopback_only
        self.limits = limits or RequestLimits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        path = request.url.path
        refusal = self.refusal(request) or self.too_large(request)
        if refusal is not None:
            await _with_headers(refusal, path)(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                headers.extend((k.encode("latin-1"), v.encode("latin-1")) for k, v in security_headers(path).items())
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, self._bounded(receive), send_with_headers)
        except Exception:
            if started:
                raise  # part of the answer is out: nothing to do but drop the connection
            log.exception("unexpected error answering %s %s", request.method, path)
            error = JSONResponse({"detail": "internal error: see the server log"}, status_code=500)
            await _with_headers(error, path)(scope, receive, send)

    def too_large(self, request: Request) -> Response | None:
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > self.limits.max_body_bytes:
            return _body_refused(413, f"request body over {self.limits.max_body_bytes} bytes")
        return None

    def _bounded(self, receive: Receive) -> Receive:
        """`receive`, refusing a body past the size cap (413) or not complete by the deadline (408)."""
        limits = self.limits
        received = 0
        deadline: float | None = None
        done = False

        async def bounded() -> Message:
            nonlocal received, deadline, done
            if done:
                return await receive()  # after the body: waiting for a disconnect is not bounded
            loop = asyncio.get_running_loop()
            if deadline is None:
                deadline = loop.time() + limits.body_seconds
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise HTTPException(408, f"request body not complete within {limits.body_seconds:g} s",
                                    headers={"Connection": "close"}) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limits.max_body_bytes:
                    raise HTTPException(413, f"request body over {limits.max_body_bytes} bytes",
                                        headers={"Connection": "close"})
                done = not message.get("more_body", False)
            else:
                done = True
            return message

        return bounded

    def refusal(self, request: Request) -> Response | None:
        if self.loopback_only and not is_loopback(_host_name(request.headers.get("host", ""))):
            return PlainTextResponse("host not allowed: this explorer answers on a loopback address only", 421)
        if self.token is None:
            return None
        given = request.query_params.get("token")
        if given is not None and request.method == "GET" and not request.url.path.startswith("/api/"):
            # A page opened with ?token=: check it, keep it in a cookie, and drop it from the URL.
            if not _same(given, self.token):
                return _unauthorised(request)
            rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "token"])
            target = request.url.path + (f"?{rest}" if rest else "")
            redirect = RedirectResponse(target, status_code=303)
            redirect.set_cookie(COOKIE, self.token, httponly=True, samesite="strict",
                                secure=request.url.scheme == "https")
            return redirect
        # The API takes the token from the header or the cookie only: in a query string it would end up
        # in access logs, shell history and Referer headers.
        auth = request.headers.get("authorization", "")
        bearer = auth[7:].strip() if auth[:7].lower() == "bearer " else None
        candidates = [c for c in (bearer, request.cookies.get(COOKIE)) if c is not None]
        if any(_same(c, self.token) for c in candidates):
            return None
        return _unauthorised(request)


def _body_refused(status: int, message: str) -> Response:
    # Connection: close, because the unread body would otherwise be taken for the next request.
    return JSONResponse({"detail": message}, status_code=status, headers={"Connection": "close"})


def _same(given: str, token: str) -> bool:
    # "surrogatepass": a header or cookie can carry any code point; it must fail the comparison, not raise.
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode("utf-8", "surrogatepass"))


def _unauthorised(request: Request) -> Response:
    message = "a token is required: send `Authorization: Bearer <token>` or open /?token=<token> once"
    if request.url.path.startswith("/api/") or request.url.path == "/openapi.json":
        return JSONResponse({"detail": message}, status_code=401, headers={"WWW-Authenticate": "Bearer"})
    return PlainTextResponse(message, status_code=401, headers={"WWW-Authenticate": "Bearer"})


def security_headers(path: str) -> dict[str, str]:
    headers = {
        "Content-Security-Policy": APP_CSP,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
    }
    if not path.startswith("/static/"):
        headers["Cache-Control"] = "no-store"  # answers change with a rebuild; the vendored files do not
    return headers


def _with_headers(response: Response, path: str) -> Response:
    for key, value in security_headers(path).items():
        response.headers[key] = value
    return response
