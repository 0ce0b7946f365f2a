"""Many classes against torchmetrics: the averaged macro F1 of 1-D integer labels.

Contenders, side by side in one run (median of interleaved repetitions):

- ours: ``averaged_f1_score(y_true, y_pred, average="macro")`` on the NumPy
  arrays;
- torchmetrics (a benchmark-only dependency): its functional
  ``multiclass_f1_score(preds, target, num_classes=k, average="macro",
  validate_args=False)`` on CPU tensors made by ``torch.from_numpy`` (no copy)
  inside the timed call, with torch on one thread (ours runs on one);
- sklearn: ``sklearn.metrics.f1_score(average="macro")``, for scale.

Labels: n = 1e6 (``--quick``: 1e5), true labels uniform over k classes, 70% of
the predictions right and the others uniform, k = 10, 1e3, 1e4, 2e4.
torchmetrics counts the k x k confusion matrix (one ``bincount`` of k² bins), so
it is not run at k = 1e5 (80 GB); the script says so.

Run: ``python benchmarks/bench_torchmetrics.py`` (``--quick``: smaller n,
fewer repetitions). Needs ``pip install torch torchmetrics``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from _timing import arguments, fmt_ratio, fmt_time, interleaved, machine, table
from sklearn.metrics import f1_score

from sklearn_macrof1 import averaged_f1_score

CLASSES = [10, 1_000, 10_000, 20_000]

#: Largest k torchmetrics is run at: its k x k int64 bincount is 3.2 GB at
#: 2e4 classes and 80 GB at 1e5.
TORCHMETRICS_MAX_CLASSES = 20_000


def labels(n: int, k: int, rng: np.random.Generator) -> tuple[Any, Any]:
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))
    return y_true, y_pred


def main() -> None:
    args = arguments(__doc__)
    try:
        import torch
        import torchmetrics
        from torchmetrics.functional.classification import multiclass_f1_score
    except ImportError as error:
        raise SystemExit(
            "needs torch and torchmetrics: pip install torch torchmetrics"
        ) from error
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    n = 100_000 if args.quick else 1_000_000
    repeats = 3 if args.quick else 7
    rows = []
    for k in CLASSES:
        y_true, y_pred = labels(n, k, rng)

        def theirs(y_true: Any = y_true, y_pred: Any = y_pred, k: int = k) -> Any:
            return multiclass_f1_score(
                torch.from_numpy(y_pred),
                torch.from_numpy(y_true),
                num_classes=k,
                average="macro",
                validate_args=False,
            )

        def ours(y_true: Any = y_true, y_pred: Any = y_pred) -> Any:
            return averaged_f1_score(y_true, y_pred, average="macro")

        def sklearn(y_true: Any = y_true, y_pred: Any = y_pred) -> Any:
            return f1_score(y_true, y_pred, average="macro")

        assert abs(float(theirs()) - ours()) < 1e-6, k  # the same number (float32)
        times = interleaved(
            {"ours": ours, "torchmetrics": theirs, "sklearn": sklearn},
            repeats=repeats,
            budget=0.2,
        )
        rows.append(
            [
                f"k={k:,}",
                fmt_time(times["ours"]),
                fmt_time(times["torchmetrics"]),
                fmt_time(times["sklearn"]),
                fmt_ratio(times["torchmetrics"] / times["ours"]),
                fmt_ratio(times["sklearn"] / times["ours"]),
            ]
        )
        print(" | ".join(rows[-1]), flush=True)
    print()
    print(machine())
    print(
        f"torchmetrics {torchmetrics.__version__} on torch {torch.__version__}, "
        f"one thread; n = {n:,}; torchmetrics not run above "
        f"k = {TORCHMETRICS_MAX_CLASSES:,} (its k x k bincount)"
    )
    header = ["case", "ours", "torchmetrics", "sklearn", "torch/ours", "sklearn/ours"]
    print(table(header, rows))


if __name__ == "__main__":
    main()
