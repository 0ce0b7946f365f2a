"""The percentile bootstrap of many classes: time and peak memory of
``fbeta_confidence_interval(method="bootstrap")`` at k = 1e5 classes, n = 1e6
samples (integer labels uniform over the classes, 80% of predictions right).

- ``cells``: unweighted labels; each replicate is a multinomial draw of the n
  samples over the occupied (true, pred) cells, what a resample of the samples
  gives them: O(cells + k) per replicate and in memory.
- ``samples``: the same labels with ``sample_weight=np.ones(n)``, which redraws
  every sample (the path of weighted targets): O(n) per replicate, blocks of
  at most 2**22 drawn multiplicities.
- ``record``: the bootstrap of ``MacroF1Counts.from_predictions`` (what a
  stream, Dask or Spark keeps: the occupied cells), counting excluded.

Each call runs once in its own forked process for its time, once more in
another for its ``tracemalloc`` peak. Run ``python
benchmarks/bench_bootstrap_cells.py`` (about 3 minutes) or with
``--resamples 100`` for a quick look.
"""

from __future__ import annotations

import argparse
import warnings
from typing import Any

import numpy as np
from _timing import fmt_bytes, fmt_time, machine, table
from bench_many_classes import measure

from sklearn_macrof1 import MacroF1Counts, fbeta_confidence_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--classes", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--cap", type=float, default=600.0, help="seconds per call")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    n, k = args.samples, args.classes
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.8, y_true, rng.integers(0, k, n))
    record = MacroF1Counts.from_predictions(y_true, y_pred)
    options: dict[str, Any] = {
        "method": "bootstrap",
        "n_resamples": args.resamples,
        "random_state": 0,
        "zero_division": 0.0,
    }
    calls = {
        "cells": lambda: fbeta_confidence_interval(y_true, y_pred, **options),
        "samples": lambda: fbeta_confidence_interval(
            y_true, y_pred, sample_weight=np.ones(n), **options
        ),
        "record": lambda: fbeta_confidence_interval(record, **options),
    }
    rows = []
    for name, call in calls.items():
        seconds = measure(call, False, args.cap, repeats=0)
        peak = measure(call, seconds, args.cap) if seconds is not None else None
        rows.append(
            [
                name,
                fmt_time(seconds) if seconds is not None else f"> {args.cap:g} s",
                fmt_bytes(peak),
            ]
        )
        print(" | ".join(rows[-1]), flush=True)
    print()
    print(machine())
    print(
        f"k = {k:,} classes, n = {n:,} samples, {args.resamples} resamples, "
        f"{record.confusion.nnz:,} occupied cells"
    )
    print(table(["bootstrap", "time", "peak"], rows))


if __name__ == "__main__":
    main()
