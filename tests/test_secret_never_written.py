"""A known API key through every error path the suite can reach (issue 32): a refused key (401 whose body
repeats the key, as OpenAI's does), a key with a newline (an illegal header), a bad base URL, a dead
server, a 401 during a dry run. Each runs the real `kgbuild` command in a subprocess against the
scripted server on 127.0.0.1; then every byte of output and every file the project holds (workspace,
reports, caches, logs) is searched for the key."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from llm_server import ScriptedLLM

pytestmark = pytest.mark.slow  # builds through the CLI in child processes

REPO = Path(__file__).resolve().parents[1]
KEY = "sk-kgbuild-test-7f3a9c2e51d04b8e"
# The key without its common prefix: a message that cut "sk-" off would still leak it.
KEY_BODY = KEY.removeprefix("sk-")


def project(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "ada.txt").write_text("Ada Lovelace was born in London. She worked with Charles Babbage.\n",
                                 encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text(
        "workspace: ws\ngraph_store: {backend: none}\nvector_store: {backend: none}\n"
        "align: {llm_judge: false, llm_hypernyms: false}\nextract: {extractor: llm}\n"
        "llm: {model: test-model, timeout_s: 20, max_retries: 1, backoff_initial_s: 0, backoff_max_s: 0}\n",
        encoding="utf-8")
    return config


def kgbuild(config: Path, env: dict[str, str], *args: str) -> tuple[int, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("KGBUILD_", "OPENAI_"))}
    done = subprocess.run([sys.executable, "-m", "kgbuild", "-c", str(config), *args],
                          env={**clean, "PYTHONPATH": str(REPO), **env}, cwd=config.parent,
                          capture_output=True, text=True, timeout=300, check=False)
    return done.returncode, done.stdout + done.stderr


def dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed on return: nothing listens there


def test_the_api_key_appears_in_no_output_and_no_file(tmp_path: Path) -> None:
    config = project(tmp_path)
    src = str(tmp_path / "src")
    outputs: dict[str, tuple[int, str]] = {}
    with ScriptedLLM() as llm:
        refusal = f'{{"error": {{"message": "Incorrect API key provided: {KEY}", "type": "invalid_request_error"}}}}'
        llm.fail(401, times=1000, body=refusal)
        with_key = {"KGBUILD_LLM_BASE_URL": llm.base_url, "KGBUILD_LLM_API_KEY": KEY}
        outputs["refused key"] = kgbuild(config, with_key, "build", src)
        outputs["refused key, dry run"] = kgbuild(config, with_key, "build", src, "--dry-run")
        outputs["refused key, status"] = kgbuild(config, with_key, "status", "--json")
        outputs["key with a newline"] = kgbuild(config, {**with_key, "KGBUILD_LLM_API_KEY": KEY + "\n"},
                                                "build", src)
        assert llm.chat_log(), "the refused-key build reached the server"
    outputs["bad URL"] = kgbuild(config, {"KGBUILD_LLM_BASE_URL": "not a url", "KGBUILD_LLM_API_KEY": KEY},
                                 "build", src)
    outputs["dead server"] = kgbuild(config, {"KGBUILD_LLM_BASE_URL": f"http://127.0.0.1:{dead_port()}/v1",
                                              "OPENAI_API_KEY": KEY}, "build", src)
    for name, (code, text) in outputs.items():
        print(f"{name}: exit {code}: {text.strip().splitlines()[-1] if text.strip() else ''}")
        assert KEY not in text and KEY_BODY not in text, f"{name}: {text[-2000:]}"
    assert outputs["refused key"][0] != 0 or "401" in outputs["refused key"][1], outputs["refused key"]
    assert "KGBUILD_LLM_API_KEY: contains a line break" in outputs["key with a newline"][1]
    assert "KGBUILD_LLM_BASE_URL: is not a URL" in outputs["bad URL"][1]
    assert "cannot connect" in outputs["dead server"][1] or "127.0.0.1" in outputs["dead server"][1]
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".json" for p in files)  # reports were written: there was something to search
    leaked = [str(p) for p in files if KEY_BODY.encode() in p.read_bytes()]
    assert not leaked, leaked
