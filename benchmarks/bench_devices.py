"""Counting on a device: PyTorch tensors against NumPy arrays, n = 1e7 labels.

Usage::

    python benchmarks/bench_devices.py                   # PyTorch CPU tensors
    python benchmarks/bench_devices.py --device cuda     # on a GPU
    python benchmarks/bench_devices.py --quick           # n = 1e6
    python benchmarks/bench_devices.py --accumulator     # per-batch updates
    python benchmarks/bench_devices.py --multilabel      # multilabel updates

Integer labels (k = 10 and k = 100,000 classes, 70 % of the predictions
correct) are scored by ``averaged_f1_score`` with scikit-learn's
``array_api_dispatch=True``, three ways, timed side by side (interleaved, medians):

- ``numpy``: NumPy arrays in this process's memory (the in-memory kernels);
- ``torch``: the same labels as PyTorch tensors on ``--device``, the public call as
  a user makes it. CPU tensors are read by NumPy without a copy, so they take
  the in-memory kernels; tensors on a GPU are counted there;
- ``torch kernels`` (CPU only): the CPU tensors counted by PyTorch's own kernels
  (``bincount``, ``nonzero``), as they are on a GPU: what the view through NumPy
  is measured against.

The call returns a Python float, which waits for the device, so the times
include every kernel (and the transfer of the counts). Ratio: numpy's time
divided by the contender's (above 1: faster than NumPy on the CPU).

``--accumulator`` times one ``MacroF1Accumulator.update`` of a batch of 4,096
labels (tensors on ``--device``), k = 10 and k = 100,000, with the labels fixed
(``labels=range(k)``) and discovered (``labels=None``):

- ``host record``: each batch's count record crosses to the host and is merged
  there (what every update did before the counts stayed on the device; forced
  here by disabling the device tally);
- ``device tally``: the batch's counts are added on the device and nothing is
  read back (fixed labels only);
- ``numpy``: the same batch as NumPy arrays, for scale.

It then times a whole evaluation at k = 100,000 fixed labels: 2,048
consecutive updates of fresh batches and the read of the record, whose mean
per update includes what grows with the stream: the merges of the host
records' occupied cells and the device tally's folds of its cell codes (the
medians above, from a state of k cells, leave them out).

``--multilabel`` times the same two updates of multilabel batches (0/1
labels of 32 and 1,024 samples, 8 to 160 columns, unweighted and weighted),
the device tally forced on and off, which sets the widest histogram the
device tally adds on the CPU.

On a GPU an update that reads nothing back returns before the kernels finish:
the times there are taken after a synchronisation, once per measurement of
many updates, so they include the kernels. PyTorch runs on one CPU thread
here (its multi-threaded kernels on a loaded shared machine measure the load).
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # before scipy is imported

import numpy as np
import sklearn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import fmt_ratio, fmt_time, interleaved, machine, table

from sklearn_macrof1 import MacroF1Accumulator, averaged_f1_score
from sklearn_macrof1._sources import _array_api


def labels(
    n: int, k: int, rng: np.random.Generator | None = None
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0) if rng is None else rng
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))
    return y_true, y_pred


def on_device_kernels(y_true: Any, y_pred: Any) -> float:
    """The call with CPU tensors counted by PyTorch's kernels (as on a GPU)."""
    is_cpu = _array_api._is_cpu
    _array_api._is_cpu = lambda device: False  # type: ignore[assignment]
    try:
        return averaged_f1_score(y_true, y_pred)
    finally:
        _array_api._is_cpu = is_cpu  # type: ignore[assignment]


def contenders_of(
    y_true: np.ndarray, y_pred: np.ndarray, torch: Any, device: Any
) -> dict[str, Callable[[], float]]:
    t_true = torch.as_tensor(y_true).to(device)
    t_pred = torch.as_tensor(y_pred).to(device)
    contenders = {
        "numpy": lambda: averaged_f1_score(y_true, y_pred),
        "torch": lambda: averaged_f1_score(t_true, t_pred),
    }
    if device.type == "cpu":
        contenders["torch kernels"] = lambda: on_device_kernels(t_true, t_pred)
    return contenders


BATCH = 4096


def accumulator_contenders(
    k: int, fixed: bool, torch: Any, device: Any
) -> dict[str, Callable[[], Any]]:
    """One update of a batch of ``BATCH`` labels, each way (the accumulators
    keep growing: the state of a long evaluation is what an update adds to)."""
    y_true, y_pred = labels(BATCH, k)
    t_true = torch.as_tensor(y_true).to(device)
    t_pred = torch.as_tensor(y_pred).to(device)
    given = np.arange(k) if fixed else None
    host = MacroF1Accumulator(labels=given)
    host._universe = None  # the device tally disabled: records cross per batch
    tally = MacroF1Accumulator(labels=given)
    in_memory = MacroF1Accumulator(labels=given)
    for acc in (host, tally):  # a state over every class, as late in an epoch
        acc.update(torch.as_tensor(np.arange(k)).to(device), torch.arange(k).to(device))
    in_memory.update(np.arange(k), np.arange(k))
    synchronize = torch.cuda.synchronize if device.type == "cuda" else lambda: None

    def update(acc: MacroF1Accumulator, t: Any, p: Any) -> Callable[[], Any]:
        def call() -> Any:
            acc.update(t, p)
            synchronize()

        return call

    contenders = {
        "numpy": update(in_memory, y_true, y_pred),
        "host record": update(host, t_true, t_pred),
    }
    if fixed:
        contenders["device tally"] = update(tally, t_true, t_pred)
    return contenders


def accumulator_main(torch: Any, device: Any) -> None:
    # One thread: on a shared machine PyTorch's two-thread CPU kernels wait
    # for a descheduled thread (~16 ms each at load 7 on 2 CPUs), which would
    # measure the machine's load, not the update.
    torch.set_num_threads(1)
    rows = []
    for k in (10, 100_000):
        for fixed in (True, False):
            contenders = accumulator_contenders(k, fixed, torch, device)
            times = interleaved(contenders, repeats=9, budget=0.1)
            for contender, seconds in times.items():
                rows.append(
                    [
                        f"{k:,}",
                        "fixed" if fixed else "discovered",
                        contender,
                        fmt_time(seconds),
                        fmt_ratio(times["host record"] / seconds),
                    ]
                )
    print(
        table(
            ["k", "labels", "update", "time per batch", "vs host record"],
            rows,
        )
    )


RUN = 2048


def whole_run(torch: Any, device: Any, k: int = 100_000) -> None:
    """A whole evaluation with fixed labels: ``RUN`` consecutive updates of
    fresh batches (8.4 million labels, 70 % correct), then the read of the
    record; the mean per update includes the device tally's folds of its cell
    codes (a sort each, about once per million labels), which the medians
    above leave out."""
    torch.set_num_threads(1)
    rng = np.random.default_rng(1)
    batches = []
    for _ in range(RUN):
        y_true, y_pred = labels(BATCH, k, rng)
        batches.append(
            (torch.as_tensor(y_true).to(device), torch.as_tensor(y_pred).to(device))
        )
    synchronize = torch.cuda.synchronize if device.type == "cuda" else lambda: None
    rows = []
    for name in ("numpy", "host record", "device tally"):
        acc = MacroF1Accumulator(labels=np.arange(k))
        if name == "host record":
            acc._universe = None  # the device tally disabled
        run = batches
        if name == "numpy":
            run = [(t.cpu().numpy(), p.cpu().numpy()) for t, p in batches]
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            start = time.perf_counter()
            for y_true, y_pred in run:
                acc.update(y_true, y_pred)
            synchronize()
            updates = time.perf_counter() - start
            counts = acc.counts
            read = time.perf_counter() - start - updates
        finally:
            if gc_was_enabled:
                gc.enable()
        assert counts.n_samples == RUN * BATCH
        rows.append([name, fmt_time(updates / RUN), fmt_time(read)])
    print(
        f"k = {k:,} fixed labels, {RUN:,} consecutive updates of {BATCH:,} labels, "
        "then the read:"
    )
    print(table(["update", "mean per update", "read (acc.counts)"], rows))


def multilabel_main(torch: Any, device: Any) -> None:
    torch.set_num_threads(1)  # as accumulator_main
    rng = np.random.default_rng(0)
    synchronize = torch.cuda.synchronize if device.type == "cuda" else lambda: None
    from sklearn_macrof1._results import _accumulator as accumulator

    real, bound = accumulator.tally_multilabel, _array_api._CPU_HISTOGRAM

    def none(*args: Any) -> None:
        return None

    rows = []
    for columns in (8, 39, 64, 100, 160):
        for batch in (32, 1024):
            for weighted in (False, True):
                y_true, y_pred = (
                    torch.as_tensor(rng.integers(0, 2, (batch, columns))).to(device)
                    for _ in range(2)
                )
                weights = None
                if weighted:
                    weights = torch.as_tensor(rng.random(batch)).to(device)
                contenders = {}
                for name, tally in (("host record", False), ("device tally", True)):
                    acc = MacroF1Accumulator()

                    def call(
                        acc: Any = acc,
                        tally: bool = tally,
                        batch: tuple[Any, Any, Any] = (y_true, y_pred, weights),
                    ) -> None:
                        # the tally forced off (no batch counted by it), or on
                        # whatever the device (no bound on the CPU)
                        accumulator.tally_multilabel = real if tally else none
                        _array_api._CPU_HISTOGRAM = 1 << 22
                        try:
                            acc.update(*batch)
                        finally:
                            accumulator.tally_multilabel = real
                            _array_api._CPU_HISTOGRAM = bound
                        synchronize()

                    contenders[name] = call
                times = interleaved(contenders, repeats=5, budget=0.05)
                for contender, seconds in times.items():
                    rows.append(
                        [
                            str(columns),
                            f"{batch:,}",
                            "yes" if weighted else "no",
                            contender,
                            fmt_time(seconds),
                            fmt_ratio(times["host record"] / seconds),
                        ]
                    )
    headers = ["columns", "batch", "weights", "update", "time", "vs host record"]
    print(table(headers, rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 1e6")
    parser.add_argument("--device", default="cpu", help="PyTorch device (cpu, cuda)")
    parser.add_argument(
        "--accumulator", action="store_true", help="per-batch accumulator updates"
    )
    parser.add_argument(
        "--multilabel", action="store_true", help="multilabel accumulator updates"
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    import torch

    device = torch.device(args.device)
    n = 1_000_000 if args.quick else 10_000_000
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "CPU"
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    print(f"{machine()}; PyTorch {torch.__version__}; device {device} ({name})")
    if args.multilabel:
        print(f"commit {commit or 'unknown'}, {time.strftime('%Y-%m-%d')}")
        print()
        multilabel_main(torch, device)
        return
    if args.accumulator:
        print(f"commit {commit or 'unknown'}, {time.strftime('%Y-%m-%d')}, ", end="")
        print(f"batches of {BATCH:,}")
        print()
        accumulator_main(torch, device)
        print()
        whole_run(torch, device)
        return
    print(f"commit {commit or 'unknown'}, {time.strftime('%Y-%m-%d')}, n = {n:,}")
    print()
    rows = []
    with sklearn.config_context(array_api_dispatch=True):
        for k in (10, 100_000):
            y_true, y_pred = labels(n, k)
            expected = averaged_f1_score(y_true, y_pred)
            contenders = contenders_of(y_true, y_pred, torch, device)
            for func in contenders.values():
                assert abs(func() - expected) < 1e-12
            # many repetitions of the fast case (noise of a shared machine),
            # few of the slow one (seconds per call)
            times = interleaved(contenders, repeats=15 if k == 10 else 3, budget=0.05)
            for contender, seconds in times.items():
                rows.append(
                    [
                        f"{k:,}",
                        contender,
                        fmt_time(seconds),
                        fmt_ratio(times["numpy"] / seconds),
                    ]
                )
    print(table(["k", "inputs", "time per call", "vs numpy"], rows))


if __name__ == "__main__":
    main()
