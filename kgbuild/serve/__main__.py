"""`python -m kgbuild.serve [-c kgbuild.yaml] [--port] [--host] [--token]`: the `serve` command on its own,
for benchmarks and tests that start the server as a separate process."""

from __future__ import annotations

import sys
from pathlib import Path

from kgbuild.cli.serve import serve
from kgbuild.config import Config


def main(argv: list[str]) -> None:
    config_path: Path | None = None
    if len(argv) >= 2 and argv[0] in ("-c", "--config"):
        config_path, argv = Path(argv[1]), argv[2:]

    def loader() -> Config:
        from kgbuild.config import load_config

        return load_config(config_path)

    serve.main(args=argv, prog_name="python -m kgbuild.serve", obj={"config_loader": loader})


if __name__ == "__main__":
    main(sys.argv[1:])
