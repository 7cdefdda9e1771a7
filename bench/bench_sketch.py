"""How faithful the vector sketch of a large index is (``agent_sleep/retrieval/index_matrix.py``),
on real text: the embeddings of the five LoCoMo dev conversations pooled into one matrix
(2,760 notes), every dev question as a query.

For each sketch size, printed: the share of queries for which a shortlist of 4 × ``best`` rows
ranked by the sketch holds all of the exact ``best`` rows by cosine, and the mean share of those
rows it holds. A shallow search takes a shortlist of 4 × 50 (``best`` 50); its hits come from the
first few. bench_speed prints the same for its synthetic 100k notes.

    python bench/bench_sketch.py [--data PATH] [--work DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from agent_sleep.retrieval import index_matrix  # noqa: E402
from agent_sleep.retrieval.index_matrix import UNSEEN, Vectors  # noqa: E402
from bench import locomo  # noqa: E402
from bench.recall_harness import prepare  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(locomo.DEFAULT_PATH))
    parser.add_argument("--work", default="/tmp/agent-sleep-bench/locomo")
    args = parser.parse_args()
    convs = prepare(locomo.load(args.data), Path(args.work), states=False)
    docs = np.asfortranarray(
        np.concatenate([np.asarray(c.index.vectors) for c in convs if c.index.vectors is not None])
    )
    queries = [v for c in convs for v in c.vectors if v is not None]
    print(
        f"{len(docs)} notes, {len(queries)} questions; shipped SKETCH_DIM {index_matrix.SKETCH_DIM}"
    )
    print(f"{'dim':>4} {'best':>5} {'shortlist':>9} {'all held':>9} {'mean share':>11}")
    saved = index_matrix.SKETCH_FROM, index_matrix.SKETCH_DIM
    index_matrix.SKETCH_FROM = 0
    try:
        for dim in (48, 64, 96, 128):
            index_matrix.SKETCH_DIM = dim
            vectors = Vectors([docs])
            vectors.cosines(queries[0], 1, np.array([], dtype=np.int64))  # the first: no sketch
            for best in (10, 50):
                held, share = 0, []
                for q in queries:
                    exact = np.argpartition(-(docs @ q), best - 1)[:best]
                    seen = (
                        vectors.cosines(q, 4 * best, np.array([], dtype=np.int64))[exact] != UNSEEN
                    )
                    held += bool(seen.all())
                    share.append(float(seen.mean()))
                print(
                    f"{dim:>4} {best:>5} {4 * best:>9} {100 * held / len(queries):>8.1f}% "
                    f"{100 * np.mean(share):>10.2f}%"
                )
    finally:
        index_matrix.SKETCH_FROM, index_matrix.SKETCH_DIM = saved


if __name__ == "__main__":
    main()
