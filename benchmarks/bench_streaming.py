"""Streaming and Dask evaluation of 1e7 and 1e8 labels: memory and throughput.

Usage::

    python benchmarks/bench_streaming.py            # n = 1e7 and 1e8 (a few minutes)
    python benchmarks/bench_streaming.py --quick    # n = 1e6 and 1e7

Integer labels (k = 10 classes) are generated chunk by chunk (1e6 labels per
chunk, a seeded RNG per chunk), so the data never sits in memory whole, and
counted three ways, each case in a fresh subprocess so that its peak resident
memory (VmHWM) is its own:

- ``numpy``: the in-memory baseline, ``np.bincount(y_true * k + y_pred)`` on whole
  arrays (n = 1e7 only: 1e8 would need 1.6 GB);
- ``stream``: :class:`sklearn_macrof1.MacroF1Accumulator`, one ``update`` per chunk;
- ``dask``: ``averaged_f1_score`` on Dask arrays on a ``LocalCluster`` with 2
  worker processes (1 thread each); chunks are generated and counted on the
  workers. Peak memory is the largest worker's (the client's is shown apart).

Throughput counts only the counting: the streaming case times the ``update``
calls; the Dask case adds up the compute time the workers spent in the counting
and merging tasks (from the cluster's task stream), which is core-seconds, so
its rate is per core already; its wall time, chunk generation included, is
shown apart. The ratio column is the
per-core throughput of the in-memory numpy path (measured in the same run)
divided by the case's: 1.0 means as fast, 2.0 twice as slow.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from statistics import median
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import machine, table

K = 10
CHUNK = 1_000_000
DASK_WORKERS = 2


def chunk(index: int, size: int = CHUNK) -> tuple[np.ndarray, np.ndarray]:
    """The ``index``-th chunk: labels and 70 % correct predictions (seeded)."""
    rng = np.random.default_rng(index)
    y_true = rng.integers(0, K, size=size)
    y_pred = rng.integers(0, K, size=size)
    keep = rng.random(size) < 0.7
    y_pred[keep] = y_true[keep]
    return y_true, y_pred


def chunk_true(index: int) -> np.ndarray:
    return chunk(index)[0]


def chunk_pred(index: int) -> np.ndarray:
    return chunk(index)[1]


def kernel(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """The in-memory numpy path: one bincount of the joint code."""
    return np.bincount(y_true * K + y_pred, minlength=K * K)


def peak_rss() -> int:
    """Peak resident set size of this process, in bytes (VmHWM)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def run_numpy(n: int) -> dict[str, Any]:
    from sklearn_macrof1 import averaged_f1_score

    parts = [chunk(i) for i in range(n // CHUNK)]
    y_true = np.concatenate([p[0] for p in parts])
    y_pred = np.concatenate([p[1] for p in parts])
    del parts
    times = []
    for _ in range(3):
        start = time.perf_counter()
        kernel(y_true, y_pred)
        times.append(time.perf_counter() - start)
    score = averaged_f1_score(y_true, y_pred)
    return {"seconds": median(times), "cores": 1, "score": score}


def run_stream(n: int) -> dict[str, Any]:
    from sklearn_macrof1 import MacroF1Accumulator, averaged_f1_score

    acc = MacroF1Accumulator()
    seconds = kernel_seconds = 0.0
    for i in range(n // CHUNK):
        y_true, y_pred = chunk(i)
        # The numpy kernel on the same chunk, side by side; the order alternates
        # so that neither always finds the chunk in the cache.
        for turn in (0, 1) if i % 2 else (1, 0):
            start = time.perf_counter()
            if turn:
                acc.update(y_true, y_pred)
                seconds += time.perf_counter() - start
            else:
                kernel(y_true, y_pred)
                kernel_seconds += time.perf_counter() - start
    assert acc.n_samples == n
    return {
        "seconds": seconds,
        "kernel": kernel_seconds,
        "cores": 1,
        "score": averaged_f1_score(acc.counts),
    }


def run_dask(n: int) -> dict[str, Any]:
    import dask
    import dask.array as da
    from distributed import Client, LocalCluster, get_task_stream

    from sklearn_macrof1 import averaged_f1_score

    def arrays() -> tuple[Any, Any]:
        blocks = range(n // CHUNK)
        make_t, make_p = dask.delayed(chunk_true), dask.delayed(chunk_pred)
        t = [da.from_delayed(make_t(i), (CHUNK,), np.int64) for i in blocks]
        p = [da.from_delayed(make_p(i), (CHUNK,), np.int64) for i in blocks]
        return da.concatenate(t), da.concatenate(p)

    with (
        LocalCluster(
            n_workers=DASK_WORKERS,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=40,
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(lambda: __import__("sklearn_macrof1"))  # warm the workers

        def busy(stream: Any, names: tuple[str, ...]) -> float:
            """Core-seconds the workers spent computing tasks with these names."""
            return sum(
                part["stop"] - part["start"]
                for task in stream.data
                if any(name in str(task["key"]) for name in names)
                for part in task["startstops"]
                if part["action"] == "compute"
            )

        def numpy_kernel() -> float:
            t, p = arrays()
            parts = [
                dask.delayed(kernel)(a, b)
                for a, b in zip(t.to_delayed(), p.to_delayed(), strict=True)
            ]
            with get_task_stream(client) as stream:
                dask.compute(dask.delayed(sum)(parts))
            return busy(stream, ("kernel",))

        kernel_before = numpy_kernel()
        t, p = arrays()
        with get_task_stream(client) as stream:
            start = time.perf_counter()
            score = averaged_f1_score(t, p)
            total = time.perf_counter() - start
        counting = busy(stream, ("count_batch", "merge_counts"))
        kernel_seconds = (kernel_before + numpy_kernel()) / 2
        worker_peaks = client.run(peak_rss)
    return {
        "seconds": counting,
        "kernel": kernel_seconds,
        "wall": total,
        "cores": 1,  # core-seconds
        "score": score,
        "worker_peak": max(worker_peaks.values()),
    }


CASES = {"numpy": run_numpy, "stream": run_stream, "dask": run_dask}


def child(case: str, n: int) -> None:
    result = CASES[case](n)
    result["peak"] = peak_rss()
    print(json.dumps(result))


def measure(case: str, n: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", case, str(n)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def mib(value: float) -> str:
    return f"{value / (1 << 20):.0f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="n = 1e6 and 1e7")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    small, large = (10**6, 10**7) if args.quick else (10**7, 10**8)
    plan = [("numpy", small), ("stream", small), ("stream", large)]
    plan += [("dask", small), ("dask", large)]
    results = [(case, n, measure(case, n)) for case, n in plan]
    base = results[0][2]
    base_rate = small / base["seconds"] / base["cores"]
    rows = []
    for case, n, r in results:
        rate = n / r["seconds"] / r["cores"]
        peak = r.get("worker_peak", r["peak"])
        note = f"client {mib(r['peak'])}" if "worker_peak" in r else ""
        if "wall" in r:
            note += f"; wall {r['wall']:.1f} s incl. generation"
        rows.append(
            [
                case,
                f"{n:.0e}",
                f"{r['seconds']:.2f} s",
                f"{rate / 1e6:.0f} M/s",
                f"{base_rate / rate:.2f}x",
                f"{r['seconds'] / r['kernel']:.2f}x" if "kernel" in r else "",
                mib(peak),
                f"{r['score']:.12f}",
                note,
            ]
        )
    header = [
        "path",
        "n",
        "counting time",
        "labels/s per core",
        "slowdown vs in-memory numpy",
        "vs numpy kernel on the same chunks",
        "peak RSS",
        "averaged F1",
        "notes",
    ]
    print(machine())
    print(f"k = {K} classes, chunks of {CHUNK:.0e} labels, {DASK_WORKERS} Dask workers")
    print(table(header, rows))


if __name__ == "__main__":
    main()
