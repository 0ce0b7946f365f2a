"""Many classes: time and peak memory of the scores, the report and the delta
interval, ours against scikit-learn's, from 10 to 1,000,000 classes.

Cases:

- 1-D integer labels, n = 1e6 samples, k = 10, 1e3, 1e4, 1e5, 1e6 classes
  (true labels uniform over the k classes, 70% of predictions right, the others
  uniform);
- multilabel CSR indicators, n = 5e4 samples, L = 1e3, 8,922 (the MIMIC-III
  full ICD code set), 1e5 labels, 15 labels per sample drawn with Zipf
  frequencies (label of rank r drawn with probability proportional to 1/r);
  the predictions keep 70% of each sample's labels and add as many drawn the
  same way.

Contenders, each in its own forked process (so that one's memory does not
count in another's): called once, then (if that took less than 5 s) timed on
``--repeats`` more calls (the best), then in another process its peak memory
under ``tracemalloc`` (of a warm call):

- ``scores``: ``averaged_f1_score(average="macro")`` against
  ``sklearn.metrics.f1_score(average="macro")``;
- ``report``: ``classification_report`` (text) against scikit-learn's;
- ``delta``: ``fbeta_confidence_interval(method="delta")`` (scikit-learn has
  none: its column is empty).

A call that runs past ``--cap`` seconds (default 120) is stopped and shown as
``> cap``. Run ``python benchmarks/bench_many_classes.py`` (all sizes: tens of
minutes, about 4 GB of memory at k = 1e6) or with ``--quick`` (n = 1e5 and
5e3, the three smallest sizes of each kind). ``--case`` and ``--call`` run
some of them (e.g. ``--case "k=100,000" --case "L=100,000" --call report``);
the data of every case are drawn anyway, so that a case is the same alone.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp
from _timing import fmt_bytes, fmt_ratio, fmt_time, machine, table
from sklearn.metrics import classification_report as sk_report
from sklearn.metrics import f1_score

from sklearn_macrof1 import (
    averaged_f1_score,
    classification_report,
    fbeta_confidence_interval,
)

CLASSES = [10, 1_000, 10_000, 100_000, 1_000_000]
LABELS = [1_000, 8_922, 100_000]


def labels_1d(n: int, k: int, rng: np.random.Generator) -> tuple[Any, Any]:
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))
    return y_true, y_pred


def _zipf_rows(n: int, n_labels: int, per: int, rng: np.random.Generator) -> Any:
    p = 1.0 / np.arange(1, n_labels + 1)
    cols = rng.choice(n_labels, size=n * per, p=p / p.sum())
    rows = np.repeat(np.arange(n), per)
    m = sp.csr_matrix(
        (np.ones(n * per, dtype=np.int8), (rows, cols)), shape=(n, n_labels)
    )
    m.sum_duplicates()
    m.data[:] = 1
    return m


def labels_csr(n: int, n_labels: int, rng: np.random.Generator) -> tuple[Any, Any]:
    y_true = _zipf_rows(n, n_labels, 15, rng)
    kept = y_true.copy()
    kept.data = (rng.random(kept.nnz) < 0.7).astype(np.int8)
    kept.eliminate_zeros()
    y_pred = (kept + _zipf_rows(n, n_labels, 5, rng)).tocsr()
    y_pred.data[:] = 1
    return y_true, y_pred


#: Calls faster than this are repeated in their process (the first one warms
#: caches and lazy imports up): the best time, the peak of a warm call.
_WARM = 5.0


def _child(func: Callable[[], Any], memory: Any, repeats: int, conn: Any) -> None:
    """Send the best time, or (``memory``: the contender's time) the peak
    bytes of one call: a warm one when the call is fast, else the first."""
    warnings.simplefilter("ignore")
    if memory:
        if memory < _WARM:
            func()
        tracemalloc.start()
        func()
        conn.send(tracemalloc.get_traced_memory()[1])
        return
    start = time.perf_counter()
    func()
    best = time.perf_counter() - start
    for _ in range(repeats if best < _WARM else 0):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    conn.send(best)


def measure(
    func: Callable[[], Any], memory: Any, cap: float, repeats: int = 3
) -> float | None:
    """Best seconds of ``repeats`` warm calls in a forked process (with
    ``memory``, the seconds one call took: the peak bytes of one call); None
    when it runs past ``cap`` seconds."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(func, memory, repeats, child))
    proc.start()
    child.close()
    ready = parent.poll(cap)
    value = parent.recv() if ready else None
    if not ready:
        proc.kill()
    proc.join()
    return value


def contenders(y_true: Any, y_pred: Any) -> dict[str, tuple[Any, Any]]:
    return {
        "scores": (
            lambda: averaged_f1_score(y_true, y_pred, average="macro"),
            lambda: f1_score(y_true, y_pred, average="macro"),
        ),
        "report": (
            lambda: classification_report(y_true, y_pred),
            lambda: sk_report(y_true, y_pred),
        ),
        "delta": (
            lambda: fbeta_confidence_interval(y_true, y_pred, method="delta"),
            None,
        ),
    }


def run_case(
    name: str, y_true: Any, y_pred: Any, args: argparse.Namespace
) -> list[list[str]]:
    rows = []
    repeats, cap = args.repeats, args.cap
    if args.case and not any(case in name for case in args.case):
        return rows
    for what, (ours, theirs) in contenders(y_true, y_pred).items():
        if args.call and what not in args.call:
            continue
        figures: dict[str, Any] = {}
        for who, func in (("ours", ours), ("sklearn", theirs)):
            if func is None:
                figures[who] = (None, None)
                continue
            seconds = measure(func, False, cap, repeats)
            peak = measure(func, seconds, cap) if seconds is not None else None
            figures[who] = (seconds, peak)
        (t_ours, m_ours), (t_sk, m_sk) = figures["ours"], figures["sklearn"]
        ratio = None
        if t_ours is not None and t_sk is not None:
            ratio = t_sk / t_ours
        elif t_ours is not None and figures["sklearn"] == (None, None) and theirs:
            ratio = cap / t_ours  # a lower bound: scikit-learn was stopped
        capped = f"> {cap:g} s" if theirs is not None and t_sk is None else None
        rows.append(
            [
                name,
                what,
                fmt_time(t_ours) if t_ours is not None else f"> {cap:g} s",
                fmt_bytes(m_ours),
                capped or (fmt_time(t_sk) if theirs else "-"),
                fmt_bytes(m_sk) if theirs else "-",
                ("> " if capped else "") + fmt_ratio(ratio) if ratio else "-",
            ]
        )
        print(" | ".join(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument(
        "--repeats", type=int, default=3, help="warm calls timed (best of)"
    )
    parser.add_argument("--cap", type=float, default=120.0, help="seconds per call")
    parser.add_argument(
        "--case", action="append", help='only the cases named so (e.g. "L=8,922")'
    )
    parser.add_argument(
        "--call", action="append", choices=["scores", "report", "delta"]
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    n_1d, n_ml = (100_000, 5_000) if args.quick else (1_000_000, 50_000)
    classes = CLASSES[:3] if args.quick else CLASSES
    labels = LABELS[:2] if args.quick else LABELS
    rows: list[list[str]] = []
    for k in classes:
        y_true, y_pred = labels_1d(n_1d, k, rng)
        rows += run_case(f"1-D k={k:,}", y_true, y_pred, args)
    for n_labels in labels:
        y_true, y_pred = labels_csr(n_ml, n_labels, rng)
        rows += run_case(f"CSR L={n_labels:,}", y_true, y_pred, args)
    print()
    print(machine())
    print(f"1-D: n = {n_1d:,}; multilabel CSR: n = {n_ml:,}, 15 labels per sample")
    print(
        table(
            [
                "case",
                "call",
                "ours",
                "ours peak",
                "sklearn",
                "sklearn peak",
                "speed-up",
            ],
            rows,
        )
    )


if __name__ == "__main__":
    main()
