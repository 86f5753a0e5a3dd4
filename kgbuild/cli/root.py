"""The `kgbuild` command: a thin layer over the API.

Exit codes: 0 success; 1 the build finished but skipped a source or failed a chunk (the graph of
everything else is written; `--keep-going` turns this into 0); 2 a usage, config, schema or
workspace error, printed as one line naming the file or setting and what to do.
"""

from __future__ import annotations

import logging
from pathlib import Path

import click

from kgbuild import __version__
from kgbuild.cli.common import LazyGroup, fail_cleanly
from kgbuild.config import CONFIG_FILE_NAME, Config, default_config_text, load_config
from kgbuild.errors import ConfigError


# Commands that live in their own modules are imported only when they run (or `--help` lists
# them): a cold `kgbuild query` must not import the build, the aligner and the exporters.
@click.group(cls=LazyGroup, lazy={
    "build": "kgbuild.cli.build:build", "remove": "kgbuild.cli.build:remove", "sync": "kgbuild.cli.build:sync",
    "status": "kgbuild.cli.build:status", "query": "kgbuild.cli.query:query",
    "strategies": "kgbuild.cli.query:strategies", "eval": "kgbuild.cli.eval:eval_command",
    "train": "kgbuild.cli.train:train", "serve": "kgbuild.cli.serve:serve", "export": "kgbuild.cli.export:export",
    "mcp": "kgbuild.cli.mcp:mcp", "inspect": "kgbuild.cli.inspect:inspect", "cache": "kgbuild.cli.cache:cache",
    "schema": "kgbuild.cli.schema:schema"})
@click.version_option(__version__, prog_name="kgbuild")
@click.option("--config", "-c", "config_path", type=click.Path(path_type=Path),
              help=f"project config (default: ./{CONFIG_FILE_NAME} if present, else defaults)")
@click.pass_context
def main(ctx: click.Context, config_path: Path | None) -> None:
    """Turn documents into a knowledge graph (KAG-style) and inspect it."""
    # pypdf logs its own warnings for damaged files; the reader already reports them in one line.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    cache: dict[str, Config] = {}

    def loader() -> Config:
        # Loaded once, on first use, and passed explicitly from here on.
        if "config" not in cache:
            cache["config"] = load_config(config_path)
        return cache["config"]

    ctx.obj = {"config_loader": loader}


# ---------------------------------------------------------------- init


@main.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--schema", default="open_domain", show_default=True, help="shipped schema name or path to a YAML schema")
@click.option("--force", is_flag=True, help="overwrite an existing kgbuild.yaml")
@fail_cleanly
def init(directory: Path, schema: str, force: bool) -> None:
    """Create kgbuild.yaml (and the workspace) in DIRECTORY."""
    from kgbuild.schema import resolve_schema

    is_name = "/" not in schema and not schema.endswith((".yaml", ".yml"))
    resolve_schema(schema if is_name else str(Path(schema).resolve()))
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / CONFIG_FILE_NAME
    if target.exists() and not force:
        raise ConfigError(str(target), "already exists", "use --force to overwrite it")
    target.write_text(default_config_text(directory.resolve().name or "kgbuild-project", schema), encoding="utf-8")
    click.echo(f"wrote {target}")


if __name__ == "__main__":
    main()
