"""Everything that turns text into vectors: the `Embedder` protocol (`types.py`), the model backends
(`backend.py`: torch, ONNX int8), the one sentence-model loader (`sentence_model.py`), the pool and the
pooled embedder (`models.py`), the static token tables (`static.py`, `static_distil.py`), the
multilingual model (`multilingual.py`), which model a project uses (`choice.py`), the cached embedder
in front of a model (`cached.py`) and the light question encoder of cold queries (`question.py`).

Below the build's parts, the stores and the query side, which all import it; it imports none of them.
"""
