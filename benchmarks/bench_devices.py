"""Counting on a device: PyTorch tensors against NumPy arrays, n = 1e7 labels.

Usage::

    python benchmarks/bench_devices.py                   # PyTorch CPU tensors
    python benchmarks/bench_devices.py --device cuda     # on a GPU
    python benchmarks/bench_devices.py --quick           # n = 1e6

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
"""

from __future__ import annotations

import argparse
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

from sklearn_macrof1 import averaged_f1_score
from sklearn_macrof1._sources import _array_api


def labels(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 1e6")
    parser.add_argument("--device", default="cpu", help="PyTorch device (cpu, cuda)")
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
