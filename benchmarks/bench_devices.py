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

``--accumulator`` times one ``MacroF1Accumulator.update`` of a batch of
10,000 int64 labels (uniform over k classes, 60 % of the predictions
correct), k = 10 and k = 1,000, with the labels fixed (``labels=range(k)``)
and discovered (``labels=None``), as tensors on ``--device`` and as NumPy
arrays, beside the peers' metrics when they are installed (fixed labels: they
take the number of classes up front): torchmetrics'
``MulticlassF1Score(num_classes=k, average="macro", validate_args=False)``
and torcheval's ``MulticlassF1Score(num_classes=k, average="macro")``, each
updated with the same tensors. Each contender cycles through 16 batches; the
medians of 5 interleaved measurements. It then times reading the score after
100 batches: ``averaged_f1_score(acc.counts)`` (the record built from the
state included) against the peers' ``compute()``; and a whole evaluation at
k = 100,000 fixed labels: 256 consecutive updates and the read of the
record, with the default state and with ``keep="cells"``.

``--multilabel`` times the updates of multilabel batches (0/1 labels of 32
and 1,024 samples, 8 to 160 columns, unweighted and weighted) with the
device tally forced on and off (the tensors counted as on a GPU, or as the
NumPy arrays that view them), which sets the widest histogram the device
tally adds on the CPU.

On a GPU an update that reads nothing back returns before the kernels finish:
the times there are taken after a synchronisation, once per measurement of
many updates, so they include the kernels. PyTorch runs on one CPU thread
here (its multi-threaded kernels on a loaded shared machine measure the load).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # before scipy is imported
# one thread, as PyTorch below (before numpy is imported)
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np
import sklearn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import fmt_ratio, fmt_time, interleaved, machine, table

from sklearn_macrof1 import MacroF1Accumulator, __version__, averaged_f1_score
from sklearn_macrof1._sources import _array_api


def labels(
    n: int,
    k: int,
    rng: np.random.Generator | None = None,
    *,
    correct: float = 0.7,
) -> tuple[np.ndarray, np.ndarray]:
    """int64 labels uniform over ``k`` classes, the share ``correct`` of the
    predictions right and the others uniform."""
    rng = np.random.default_rng(0) if rng is None else rng
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < correct, y_true, rng.integers(0, k, n))
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


BATCH = 10_000
#: Distinct batches cycled through by each contender (fresh data per update).
POOL = 16


def peer_metrics(k: int) -> dict[str, Callable[[], Any]]:
    """Fresh F1 metrics of the peers that are installed: name -> factory."""
    peers: dict[str, Callable[[], Any]] = {}
    try:
        from torchmetrics.classification import MulticlassF1Score
    except ImportError:
        pass
    else:
        peers["torchmetrics"] = lambda: MulticlassF1Score(
            num_classes=k, average="macro", validate_args=False
        )
    try:
        from torcheval.metrics import MulticlassF1Score as EvalF1
    except ImportError:
        pass
    else:
        peers["torcheval"] = lambda: EvalF1(num_classes=k, average="macro")
    return peers


def cycled(batches: list[Any]) -> Callable[[], Any]:
    """The next batch of ``batches`` at each call, round and round."""
    state = {"i": 0}

    def following() -> Any:
        state["i"] = (state["i"] + 1) % len(batches)
        return batches[state["i"]]

    return following


def accumulator_contenders(
    k: int, fixed: bool, torch: Any, device: Any
) -> dict[str, Callable[[], Any]]:
    """One update of a batch of ``BATCH`` int64 labels each way: ours with
    tensors on ``device`` and with NumPy arrays, and the peers' metrics (which
    know their classes up front: fixed labels only)."""
    rng = np.random.default_rng(k)
    arrays = [labels(BATCH, k, rng, correct=0.6) for _ in range(POOL)]
    tensors = [tuple(torch.as_tensor(y).to(device) for y in pair) for pair in arrays]
    given = np.arange(k) if fixed else None
    synchronize = torch.cuda.synchronize if device.type == "cuda" else lambda: None

    def ours(batches: list[Any]) -> Callable[[], Any]:
        acc, following = MacroF1Accumulator(labels=given), cycled(batches)

        def call() -> None:
            acc.update(*following())
            synchronize()

        return call

    def theirs(metric: Any) -> Callable[[], Any]:
        following = cycled(tensors)

        def call() -> None:
            y_true, y_pred = following()
            metric.update(y_pred, y_true)
            synchronize()

        return call

    contenders = {"ours (tensors)": ours(tensors), "ours (numpy)": ours(arrays)}
    if fixed:
        for name, make in peer_metrics(k).items():
            contenders[name] = theirs(make().to(device))
    return contenders


def read_contenders(k: int, torch: Any, device: Any) -> dict[str, Callable[[], Any]]:
    """Reading the score after 100 updates of ``BATCH`` labels (fixed
    labels): ``averaged_f1_score(acc.counts)``, building the record
    included, against the peers' ``compute()``."""
    rng = np.random.default_rng(k + 1)
    acc = MacroF1Accumulator(labels=np.arange(k))
    peers = {name: make().to(device) for name, make in peer_metrics(k).items()}
    for _ in range(100):
        y_true, y_pred = (torch.as_tensor(y).to(device) for y in labels(BATCH, k, rng))
        acc.update(y_true, y_pred)
        for metric in peers.values():
            metric.update(y_pred, y_true)
    expected = averaged_f1_score(acc.counts)
    contenders: dict[str, Callable[[], Any]] = {
        "ours": lambda: averaged_f1_score(acc.counts)
    }
    for name, metric in peers.items():
        assert abs(float(metric.compute()) - expected) < 1e-5, name
        contenders[name] = metric.compute
    return contenders


def accumulator_main(torch: Any, device: Any) -> None:
    # One thread: on a shared machine PyTorch's two-thread CPU kernels wait
    # for a descheduled thread (~16 ms each at load 7 on 2 CPUs), which would
    # measure the machine's load, not the update.
    torch.set_num_threads(1)
    rows = []
    for k in (10, 1_000):
        for fixed in (True, False):
            contenders = accumulator_contenders(k, fixed, torch, device)
            times = interleaved(contenders, repeats=5, budget=0.05)
            for contender, seconds in times.items():
                rows.append(
                    [
                        f"{k:,}",
                        "fixed" if fixed else "discovered",
                        contender,
                        fmt_time(seconds),
                        fmt_ratio(seconds / times["ours (tensors)"]),
                    ]
                )
    print(
        table(
            ["k", "labels", "update", "time per batch", "vs ours (tensors)"],
            rows,
        )
    )
    print()
    rows = []
    for k in (10, 1_000):
        times = interleaved(read_contenders(k, torch, device), repeats=5, budget=0.05)
        for contender, seconds in times.items():
            rows.append([f"{k:,}", contender, fmt_time(seconds)])
    print("Reading the score after 100 batches (fixed labels):")
    print(table(["k", "read", "time"], rows))


RUN = 256


def whole_run(torch: Any, device: Any, k: int = 100_000) -> None:
    """A whole evaluation with fixed labels: ``RUN`` consecutive updates of
    fresh batches (2.6 million labels, 70 % correct), then the read of the
    record, with the default state and with ``keep="cells"`` (whose mean per
    update includes what grows with the stream: the merges of the records'
    occupied cells, or the device tally's folds of its cell codes)."""
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
    for name, keep in (
        ("numpy", "counts"),
        ("tensors", "counts"),
        ("tensors, keep='cells'", "cells"),
    ):
        acc = MacroF1Accumulator(labels=np.arange(k), keep=keep)
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
    real, bound = _array_api.tally_multilabel, _array_api._CPU_HISTOGRAM

    def none(*args: Any) -> None:
        return None

    is_cpu = _array_api._is_cpu

    def never(device: Any) -> bool:
        return False

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
                        # whatever the device (CPU tensors counted as on a GPU,
                        # no bound on the CPU)
                        _array_api.tally_multilabel = real if tally else none
                        _array_api._CPU_HISTOGRAM = 1 << 22
                        if tally:
                            _array_api._is_cpu = never  # type: ignore[assignment]
                        try:
                            acc.update(*batch)
                        finally:
                            _array_api.tally_multilabel = real
                            _array_api._CPU_HISTOGRAM = bound
                            _array_api._is_cpu = is_cpu  # type: ignore[assignment]
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
    print(f"{machine()}; PyTorch {torch.__version__}; device {device} ({name})")
    versions = [f"sklearn-macrof1 {__version__}"]
    for peer in ("torchmetrics", "torcheval"):
        try:
            versions.append(f"{peer} {importlib.metadata.version(peer)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{peer} not installed")
    print(f"{', '.join(versions)}; {time.strftime('%Y-%m-%d')}")
    if args.multilabel:
        print()
        multilabel_main(torch, device)
        return
    if args.accumulator:
        print(f"batches of {BATCH:,}; one thread")
        print()
        accumulator_main(torch, device)
        print()
        whole_run(torch, device)
        return
    print(f"n = {n:,}")
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
