"""`kgbuild serve`: a local web explorer and read-only JSON API over a built project (docs/serve.md)."""
