"""A cheap look at each model endpoint before a build, query or eval does anything.

A dead endpoint used to be found late: every chunk's request retried with back-off, nothing was
printed on a non-TTY stderr, and the build wrote an empty graph before exiting (252 calls, 122 s
for `http://127.0.0.1:9/v1`). One GET <base_url>/models per endpoint (roles sharing one are
asked once) settles what no retry can fix, before anything is read or written:

    connection refused, unknown host, TLS failure, no connection within the timeout
    the API key refused (401/403)
    the model not among those the server lists (servers that serve whatever model is loaded,
    llama.cpp's, accept any name and are not checked)

Each is an `EndpointUnusable` (one line, exit 2 in the CLI). A transient answer (429, 5xx, a slow
reply) or a server without a /models listing is no verdict: the build goes on and the gateway's
retries deal with it.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from kgbuild.config import Config, LLMConfig
from kgbuild.errors import KgbuildError
from kgbuild.llm.client import DEFAULT_BASE_URL, PLACEHOLDER_API_KEY, one_line
from kgbuild.llm.server import kind_from_listing, model_names

# Enough for any live server to accept a connection and list its models; a dead one fails at once.
PROBE_TIMEOUT_S = 10.0


class EndpointUnusable(KgbuildError):
    """A model endpoint that no retry can make work: the setting and the fix, in one line."""


@dataclass(frozen=True)
class ProbeResult:
    base_url: str
    kind: str | None  # from the listing (llm.server auto), None when the server gave none
    models: list[str] | None
    note: str = ""  # why nothing was concluded (transient failure, no listing)


def _where(role: str, name: str) -> str:
    return f"llm.roles.{role}.{name}" if role else f"llm.{name}"


def _transport_problem(exc: BaseException) -> str:
    """What a failed connection says: refused, unknown host, TLS, ... in a few words."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, ssl.SSLError):
            return f"TLS failure: {one_line(str(cause), 160)}"
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        text = str(cause).lower()
        if "name or service not known" in text or "nodename nor servname" in text or "getaddrinfo" in text \
                or "temporary failure in name resolution" in text or "no address associated" in text:
            return "unknown host"
        if "certificate" in text or "ssl" in text or "tls" in text:
            return f"TLS failure: {one_line(str(cause), 160)}"
        if "connection refused" in text or "errno 111" in text:
            return "connection refused"
        cause = cause.__cause__ or cause.__context__
    return one_line(str(exc) or type(exc).__name__, 160)


def probe(config: LLMConfig, role: str = "", *, timeout_s: float = PROBE_TIMEOUT_S) -> ProbeResult:
    """Probe one endpoint (`config` already resolved for `role`); raise `EndpointUnusable` for what
    no retry fixes, return what was learned otherwise."""
    import httpx  # the openai SDK's transport: no extra dependency

    base_url = (config.base_url or DEFAULT_BASE_URL).rstrip("/")
    headers = {"Authorization": f"Bearer {config.api_key or PLACEHOLDER_API_KEY}"}
    limit = min(timeout_s, config.timeout_s)
    try:
        with httpx.Client(timeout=httpx.Timeout(limit), follow_redirects=True) as http:
            response = http.get(f"{base_url}/models", headers=headers)
    except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
        problem = ("no connection within " f"{limit:g} s" if isinstance(exc, httpx.ConnectTimeout)
                   else _transport_problem(exc))
        raise EndpointUnusable(_where(role, "base_url"), f"cannot reach the model endpoint {base_url}: {problem}",
                               "start the server or fix the URL; nothing was read or written") from None
    except httpx.HTTPError as exc:  # a read timeout, a dropped connection: the server is there
        return ProbeResult(base_url, None, None, note=f"no verdict: {type(exc).__name__}")
    status = response.status_code
    if status in (401, 403):
        # The server's text is not shown: some echo part of the rejected key.
        problem = "requires an API key" if not config.api_key else "rejected the API key"
        raise EndpointUnusable("llm.api_key" if not role else _where(role, "api_key_env"),
                               f"the model endpoint {base_url} {problem} (HTTP {status})",
                               "set KGBUILD_LLM_API_KEY; nothing was read or written")
    if status != 200:
        return ProbeResult(base_url, None, None, note=f"no verdict: GET /models answered HTTP {status}")
    try:
        listing = response.json()
    except ValueError:
        return ProbeResult(base_url, None, None, note="no verdict: GET /models is not JSON")
    kind = config.server if config.server != "auto" else kind_from_listing(base_url, listing)
    names = model_names(listing)
    model = config.model
    # llama.cpp serves the model it loaded under any name; the others route by the name.
    if names is not None and model and kind != "llamacpp" and not _listed(model, names):
        shown = ", ".join(names[:5]) + (f" (and {len(names) - 5} more)" if len(names) > 5 else "")
        raise EndpointUnusable(_where(role, "model"), f"model '{model}' is not served at {base_url}",
                               f"it serves: {shown}; nothing was read or written")
    return ProbeResult(base_url, kind, names)


def _listed(model: str, names: list[str]) -> bool:
    # Ollama lists "llama3:latest" and answers to "llama3".
    return model in names or f"{model}:latest" in names


def probe_roles(config: LLMConfig, roles: Iterable[str]) -> list[ProbeResult]:
    """Probe the endpoint of each role (once per distinct endpoint and model)."""
    seen: set[tuple[str | None, str | None, str | None]] = set()
    results = []
    for role in roles:
        resolved = config.for_role(role)
        model = resolved.model_for(role)
        key = (resolved.base_url, resolved.api_key, model)
        if key in seen:
            continue
        seen.add(key)
        named = role if role in config.roles else ""
        results.append(probe(resolved.model_copy(update={"model": model}), named))
    return results


def build_roles(config: Config) -> list[str]:
    """The roles a build of `config` will ask a model for (none without an endpoint)."""
    if not config.llm.configured():
        return []
    roles = []
    if config.extract.extractor in ("llm", "auto") or config.chunking.splitter == "llm":
        roles.append("extract")
    if config.align.enabled and (config.align.llm_judge or config.align.llm_hypernyms):
        roles.append("align")
    return roles


def remove_roles(config: Config) -> list[str]:
    """The roles a removal asks a model for: alignment runs again over what is left; nothing is extracted."""
    return [role for role in build_roles(config) if role != "extract"]


def query_roles(config: Config, strategies: Iterable[str] | None, needs_model: Callable[[str], bool]) -> list[str]:
    """["solve"] when one of `strategies` ("auto": the solver when a model is configured) asks a model;
    `needs_model` says which do (the query registry's specs: this layer does not import them)."""
    if not config.llm.configured() or strategies is None:
        return []
    return ["solve"] if any(name == "auto" or needs_model(name) for name in strategies) else []


def check_endpoints(config: Config, roles: Iterable[str]) -> None:
    """The CLI's fail-fast check: `EndpointUnusable` (exit 2) before any work, else nothing."""
    for result in probe_roles(config.llm, roles):
        if result.note:
            import logging

            logging.getLogger("kgbuild.llm").info("%s: %s", result.base_url, result.note)
