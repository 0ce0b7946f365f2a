"""Core benchmark: both macro F1 scores vs scikit-learn and the numpy floor.

Integer labels, k = 10 classes, n = 1e2, 1e4, 1e6. Contenders, timed side by side
in one run (interleaved, median of repeated measurements):

- ``averaged_f1_score(y_true, y_pred)`` (macro, the default);
- ``f1_of_averages_score(y_true, y_pred)``;
- ``sklearn.metrics.f1_score(y_true, y_pred, average="macro")``;
- the numpy floor ``np.bincount(y_true * k + y_pred, minlength=k * k)``: the one
  joint count every score derives from, with no validation at all.

Targets: at n = 1e6, averaged_f1_score >= 30x faster than sklearn and within 1.5x
of the numpy floor; at n = 100, >= 20x faster than sklearn per call.

Run: ``python benchmarks/bench_core.py`` (add ``--quick`` for fewer repetitions).
"""

from __future__ import annotations

import numpy as np
from _timing import arguments, fmt_ratio, fmt_time, interleaved, machine, table
from sklearn.metrics import f1_score

from sklearn_macrof1 import averaged_f1_score, f1_of_averages_score

K = 10


def contenders(y_true: np.ndarray, y_pred: np.ndarray) -> dict:
    return {
        "averaged": lambda: averaged_f1_score(y_true, y_pred),
        "of_averages": lambda: f1_of_averages_score(y_true, y_pred),
        "sklearn": lambda: f1_score(y_true, y_pred, average="macro"),
        "floor": lambda: np.bincount(y_true * K + y_pred, minlength=K * K),
    }


def run(repeats: int) -> str:
    rng = np.random.default_rng(0)
    rows = []
    for n in (100, 10_000, 1_000_000):
        y_true = rng.integers(0, K, n)
        y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, K, n))
        assert (
            abs(
                averaged_f1_score(y_true, y_pred)
                - f1_score(y_true, y_pred, average="macro")
            )
            <= 1e-12
        )
        times = interleaved(
            contenders(y_true, y_pred),
            repeats=repeats,
            budget=0.05 if n >= 1_000_000 else 0.02,
        )
        speedup = times["sklearn"] / times["averaged"]
        vs_floor = times["averaged"] / times["floor"]
        rows.append(
            [
                f"{n:.0e}",
                fmt_time(times["averaged"]),
                fmt_time(times["of_averages"]),
                fmt_time(times["sklearn"]),
                fmt_time(times["floor"]),
                fmt_ratio(speedup),
                fmt_ratio(times["sklearn"] / times["of_averages"]),
                fmt_ratio(vs_floor),
            ]
        )
    header = [
        "n",
        "averaged_f1",
        "f1_of_averages",
        "sklearn f1",
        "numpy floor",
        "sklearn/averaged",
        "sklearn/of_averages",
        "averaged/floor",
    ]
    return table(header, rows)


def main() -> None:
    args = arguments(__doc__)
    repeats = 3 if args.quick else 9
    print(f"k = {K} classes, integer labels; {machine()}")
    print(run(repeats=repeats))


if __name__ == "__main__":
    main()
