"""An int8 export of the bundled MiniLM: embedding throughput and LoCoMo recall beside float32.

The float32 graph is the one recall ships (``onnx_export.build_graph``); the int8 one is its
dynamic quantisation (onnxruntime's ``quantize_dynamic``, int8 weights). Printed, in one run:

- throughput: ``embed_documents`` over the first ``--texts`` LoCoMo turns, texts per second,
- agreement: the cosine of each text's int8 vector with its float32 vector (mean and min),
- recall (unless ``--no-recall``): evidence recall within 1,000 and 4,000 tokens with the
  shipped constants on the dev conversations, each model on workspaces of its own under
  ``--work`` (what ``bench_recall`` prints as "hybrid" for float32).

    python bench/bench_int8_export.py [--data PATH] [--work DIR] [--texts 2000] [--no-recall]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent_sleep.retrieval import embed  # noqa: E402
from agent_sleep.retrieval.onnx_export import build_graph  # noqa: E402
from agent_sleep.retrieval.recall import Fusion  # noqa: E402
from bench import locomo  # noqa: E402
from bench.recall_harness import evaluate, prepare  # noqa: E402


def graphs(work: Path) -> dict[str, Path]:
    """The float32 graph and its int8 quantisation, built once under ``work``."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    work.mkdir(parents=True, exist_ok=True)
    fp32, int8 = work / "minilm-fp32.onnx", work / "minilm-int8.onnx"
    if not fp32.exists():
        fp32.write_bytes(build_graph(embed.model_files().folder))
    if not int8.exists():
        quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
    return {"float32": fp32, "int8": int8}


def use(graph: Path) -> None:
    """Every model loaded from now on runs ``graph``."""
    embed._onnx_file = lambda files, cache_dir: graph


def one(name: str, graph: Path, args: argparse.Namespace) -> None:
    """One model's row (in a process of its own: the model and its token states are cached
    per process); its vectors go to ``WORK/vectors-NAME.npy`` for the comparison."""
    import numpy as np

    use(graph)
    work = Path(args.work)
    samples = locomo.load(args.data)
    texts = [t.note for s in samples for t in locomo.turns(s) if t.text][: args.texts]
    model = embed.load_embedder(work / f"cache-{name}")
    model.embed_documents(texts[:64])  # warm
    start = time.perf_counter()
    vectors = model.embed_documents(texts)
    rate = len(texts) / (time.perf_counter() - start)
    np.save(work / f"vectors-{name}.npy", vectors)
    cells = ""
    if not args.no_recall:
        convs = prepare(samples, work / f"locomo-{name}")
        names = [c.sample_id for c in convs]
        scores = evaluate(convs, Fusion(), [1000, 4000])
        cells = f"{scores.mean(names, 'B1000'):10.1f}% {scores.mean(names, 'B4000'):10.1f}%"
    print(f"{name:<8} {rate:8.0f}  {cells}", flush=True)


def main() -> None:
    import subprocess

    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(locomo.DEFAULT_PATH))
    ap.add_argument("--work", default="/tmp/agent-sleep-bench/int8")
    ap.add_argument("--texts", type=int, default=2000)
    ap.add_argument("--no-recall", action="store_true")
    ap.add_argument("--model", choices=["float32", "int8"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    work = Path(args.work)
    built = graphs(work)
    if args.model:
        one(args.model, built[args.model], args)
        return
    print(f"{'model':<8} {'texts/s':>8}  {'within 1000':>11} {'within 4000':>11}", flush=True)
    for name in built:
        cmd = [sys.executable, __file__, "--model", name, "--data", args.data, "--work", args.work]
        cmd += ["--texts", str(args.texts)] + (["--no-recall"] if args.no_recall else [])
        subprocess.run(cmd, check=True)
    a, b = (np.load(work / f"vectors-{n}.npy") for n in built)
    cos = (a * b).sum(axis=1)
    print(
        f"int8 vs float32 cosine over {len(cos)} texts: mean {cos.mean():.4f}, min {cos.min():.4f}"
    )


if __name__ == "__main__":
    main()
