"""The built wheel is a working kgbuild on its own: schemas and prompts travel inside it.

The wheel is built from a copy of the checkout, installed without its dependencies into a fresh
(non-editable) virtualenv that borrows the project venv's site-packages through a .pth file (the
heavy dependencies are not installed twice and nothing is downloaded), and then used the way a
user would: `kgbuild init`, a build of the samples (with the default embedded stores) and a query,
all from a directory outside the repository.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples" / "corpus"

# Not part of a source distribution: local environments, build output, caches, workspaces at the top
# level (kgbuild/build/ is a package: "build" is skipped only there), byte code anywhere.
TOP_LEVEL_SKIP = {".git", ".venv", "build", "dist", "kgbuild.egg-info", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                  ".kgbuild", "demo", "kgbuild.yaml"}


def skip(folder: str, names: list[str]) -> set[str]:
    top = Path(folder) == REPO
    return {n for n in names if n == "__pycache__" or (top and n in TOP_LEVEL_SKIP)}


# Run inside the fresh venv: where kgbuild and its data come from, and every shipped prompt loads.
PROBE = """
import json, kgbuild
from kgbuild.llm.prompts import PromptLibrary, shipped_prompts_dir
from kgbuild.schema import builtin_schema_names, builtin_schemas_dir, resolve_schema

loaded = {lang: [PromptLibrary(lang).get(p.stem).key for p in sorted((shipped_prompts_dir() / lang).glob("*.yaml"))]
          for lang in ("en", "zh")}
print(json.dumps({"file": kgbuild.__file__, "schemas": builtin_schema_names(),
                  "schemas_dir": str(builtin_schemas_dir()),
                  "open_domain": len(resolve_schema("open_domain").entity_types), "prompts": loaded}))
"""


def run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, (
        f"{' '.join(args)} exited {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc


def clean_env() -> dict[str, str]:
    """This process's environment without what would point the child at the checkout or a model."""
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    return {k: v for k, v in os.environ.items() if k not in drop and not k.startswith(("KGBUILD_", "OPENAI_"))}


def build_wheel(tmp: Path, env: dict[str, str]) -> Path:
    # A copy, so the build's own output (build/, egg-info) never lands in the checkout that other
    # processes are using; symlinks stay links, as in a clone.
    src = tmp / "src"
    shutil.copytree(REPO, src, symlinks=True, ignore=skip)
    dist = tmp / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "-w", str(dist), str(src)], cwd=tmp, env=env)
    wheels = list(dist.glob("kgbuild-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def fresh_venv(tmp: Path, wheel: Path, env: dict[str, str]) -> Path:
    root = tmp / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(root)
    python = root / "bin" / "python"
    # Install before the project's site-packages become visible: pip would otherwise see the
    # editable kgbuild there and try to replace it.
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
         str(wheel)], cwd=tmp, env=env)
    target = run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=tmp, env=env)
    # Plain directory lines: the editable install's own .pth hook in there is not run, so only
    # the dependencies become importable, never the checkout.
    (Path(target.stdout.strip()) / "kgbuild_test_deps.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    return root


@pytest.mark.slow
@pytest.mark.wheel
def test_wheel_installs_and_builds_the_samples(tmp_path: Path) -> None:
    env = clean_env()
    wheel = build_wheel(tmp_path, env)
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
    assert {"kgbuild/schemas/open_domain.yaml", "kgbuild/prompts/en/extract_joint.yaml",
            "kgbuild/prompts/zh/solve_plan.yaml"} <= names
    # Every module and data file of the package travels (a sub-package missing from the
    # package list would only show up as an ImportError on a user's machine).
    shipped = {p.relative_to(REPO).as_posix() for p in (REPO / "kgbuild").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".yaml", ".ttl", ".properties")}
    assert shipped - names == set()

    root = fresh_venv(tmp_path, wheel, env)
    python, kgbuild = root / "bin" / "python", root / "bin" / "kgbuild"
    project = tmp_path / "project"
    project.mkdir()

    # The installed package, not the checkout, and its data found through importlib.resources.
    probe = run([str(python), "-c", PROBE], cwd=project, env=env)
    facts = json.loads(probe.stdout)
    assert Path(facts["file"]).is_relative_to(root), facts["file"]
    assert Path(facts["schemas_dir"]).is_relative_to(root)
    assert {"open_domain", "medicine", "government_services"} <= set(facts["schemas"])
    assert facts["open_domain"] > 0
    assert len(facts["prompts"]["en"]) == len(facts["prompts"]["zh"]) >= 10

    run([str(kgbuild), "init", "."], cwd=project, env=env)
    assert "schema: open_domain" in (project / "kgbuild.yaml").read_text(encoding="utf-8")
    # The default config: embedded ArcadeDB and Milvus Lite are written too (the write stage is
    # about half of this test's time, but it is what a user of the wheel gets).
    run([str(kgbuild), "build", "-q", "-j", "1", str(SAMPLES)], cwd=project, env=env)
    counts = json.loads(run([str(kgbuild), "inspect", "--json"], cwd=project, env=env).stdout)
    assert counts["documents"] == 12 and counts["entities"] > 100 and counts["relations"] > 20

    reply = run([str(kgbuild), "query", "--json", "--mode", "retrieval", "--k", "3", "Where was Alan Turing born?"],
                cwd=project, env=env)
    answer = json.loads(reply.stdout)
    assert "Maida Vale" in answer["answer"]
    assert any(c["doc_id"] == "people/alan_turing" for c in answer["citations"])

    # A built-in schema by name, and an unknown one named with the shipped alternatives.
    run([str(kgbuild), "init", "med", "--schema", "medicine"], cwd=project, env=env)
    bad = subprocess.run([str(kgbuild), "init", "bad", "--schema", "nope"], cwd=project, env=env,
                         capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode != 0 and "government_services, medicine, open_domain" in bad.stderr + bad.stdout
