"""kgbuild: turn document corpora into knowledge graphs, KAG-style, and answer questions over them."""

__version__ = "0.1.0"
