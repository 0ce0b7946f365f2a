"""Comparison benchmark (issue 14): compare_classifiers from the joint cells.

Integer labels, k = 10 classes, two classifiers. Contenders, timed side by side
in one run (interleaved, median of repeated measurements), with the peak memory
of one call:

- ``compare_classifiers(y_true, a, b, method="delta")``: ``y_true`` read once with
  both prediction sets, each classifier counted once, the variance of each
  difference from the joint (true, pred_a, pred_b) cells (at most k**3 of them);
- the per-sample computation those cells replace: each (y_true, y_pred) read
  and counted on its own, an n x 3k design per classifier and the per-sample
  influences;
- both again with ``sample_weight``;
- the paired bootstrap (``n_resamples=200``, at n = 1e5): the joint cells redrawn
  multinomially, against the samples redrawn (what a weighted comparison does).

Run: ``python benchmarks/bench_comparison.py`` (add ``--quick`` for fewer
repetitions).
"""

from __future__ import annotations

import warnings

import numpy as np
from _timing import (
    arguments,
    fmt_bytes,
    fmt_ratio,
    fmt_time,
    interleaved,
    machine,
    peak_memory,
    table,
)

from sklearn_macrof1 import compare_classifiers
from sklearn_macrof1._formulas._evaluation import check_options, read_for
from sklearn_macrof1._stats._intervals import (
    draw_multiplicities,
    evaluation_from,
)

K = 10
N = 1_000_000
N_BOOTSTRAP = 100_000
RESAMPLES = 200


def per_sample_delta(y_true, a, b, weights):
    """The variances of both differences from the per-sample influences."""
    options = check_options(
        caller="bench", average="macro", beta=1.0, zero_division="warn"
    )
    evaluations = [
        evaluation_from(
            read_for(y_true, p, options, sample_weight=weights, caller="bench"),
            options,
            caller="bench",
            per_sample=True,
        )
        for p in (a, b)
    ]
    u_a, u_b = (ev.influence() for ev in evaluations)
    n = y_true.shape[0]
    return [
        max(float((x - y) @ (x - y)) - float((x - y).sum()) ** 2 / n, 0.0)
        for x, y in zip(u_a, u_b, strict=True)
    ]


def per_sample_bootstrap(y_true, a, b):
    """The paired bootstrap over samples (multiplicities), both classifiers."""
    options = check_options(
        caller="bench", average="macro", beta=1.0, zero_division="warn"
    )
    evaluations = [
        evaluation_from(
            read_for(y_true, p, options, sample_weight=None, caller="bench"),
            options,
            caller="bench",
            per_sample=True,
        )
        for p in (a, b)
    ]
    rng = np.random.default_rng(0)
    out = []
    for start in range(0, RESAMPLES, 64):
        m = draw_multiplicities(rng, y_true.shape[0], min(64, RESAMPLES - start))
        out.append([ev.replicates_from_multiplicities(m) for ev in evaluations])
    return out


def data(n: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, K, n)
    a = np.where(rng.random(n) < 0.8, y_true, rng.integers(0, K, n))
    b = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, K, n))
    return y_true, a, b, rng.random(n)


def run(repeats: int) -> str:
    y, a, b, w = data(N)
    ys, as_, bs, _ = data(N_BOOTSTRAP)
    contenders = {
        "cells": lambda: compare_classifiers(y, a, b, method="delta"),
        "design": lambda: per_sample_delta(y, a, b, None),
        "cells_w": lambda: compare_classifiers(
            y, a, b, sample_weight=w, method="delta"
        ),
        "design_w": lambda: per_sample_delta(y, a, b, w),
        "boot_cells": lambda: compare_classifiers(
            ys, as_, bs, method="bootstrap", n_resamples=RESAMPLES, random_state=0
        ),
        "boot_samples": lambda: per_sample_bootstrap(ys, as_, bs),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        times = interleaved(contenders, repeats=repeats, budget=0.2)
        memory = {
            name: peak_memory(contenders[name])
            for name in ("cells", "design", "cells_w", "design_w")
        }
    rows = []
    for label, new, old in (
        ("delta, n=1e6", "cells", "design"),
        ("delta, sample_weight, n=1e6", "cells_w", "design_w"),
        (f"bootstrap {RESAMPLES}, n=1e5", "boot_cells", "boot_samples"),
    ):
        rows.append(
            [
                label,
                fmt_time(times[new]),
                fmt_time(times[old]),
                fmt_ratio(times[old] / times[new]),
                fmt_bytes(memory.get(new)),
                fmt_bytes(memory.get(old)),
            ]
        )
    header = [
        "comparison (k=10, 2 classifiers)",
        "joint cells",
        "per sample",
        "speed-up",
        "peak mem (cells)",
        "peak mem (per sample)",
    ]
    return table(header, rows)


def main() -> None:
    args = arguments(__doc__)
    print(machine())
    print(run(repeats=3 if args.quick else 7))


if __name__ == "__main__":
    main()
