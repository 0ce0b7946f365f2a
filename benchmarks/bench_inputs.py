"""Input-kind benchmark: every input kind vs scikit-learn, torchmetrics and the
numpy floor, side by side in one run, with peak memory per case.

Contenders per case (interleaved, median of repeated measurements):

- ours: ``averaged_f1_score(y_true, y_pred, average=...)``;
- sklearn: ``sklearn.metrics.f1_score`` with the same arguments;
- torchmetrics (optional, benchmark only): ``multiclass_f1_score`` /
  ``multilabel_f1_score`` from ``torchmetrics.functional.classification`` on CPU
  tensors (``torch.from_numpy``, zero-copy, inside the timed call) with
  ``validate_args=False``; n/a for strings, sparse input and ``average="samples"``
  (not supported there); the column reads "absent" when torch is not installed;
- numpy floor: the least numpy work that yields the counts of that input kind,
  with no validation:

  * integer labels: ``np.bincount(y_true * k + y_pred, minlength=k * k)``;
  * string labels: ``np.unique(np.concatenate([y_true, y_pred]),
    return_inverse=True)`` then the joint bincount of the codes (the textbook
    numpy encoding; ours uses a cheaper one, so ours can beat it);
  * multilabel dense (bool, or int64 as ``MultiLabelBinarizer`` returns):
    ``np.count_nonzero(Y & P, axis=0)``, ``np.count_nonzero(Y, axis=0)``,
    ``np.count_nonzero(P, axis=0)`` (``average="samples"`` adds the same three
    counts along ``axis=1``);
  * multilabel CSR: ``np.bincount`` of the column indices of ``Y``, ``P`` and
    ``Y.multiply(P)``.

Peak memory is what ``tracemalloc`` sees allocated during one call (numpy reports
its buffers to it); inputs are allocated before and not counted. torch's own
allocator is invisible to tracemalloc, so its memory is n/a.

A second table times the one-pass result objects (``fbeta_summary``, and
``classification_report`` as a dict, as text and as a dict with
``confidence=0.95``) against a single score; a third measures peak memory at
n = 1e7.

Run: ``python benchmarks/bench_inputs.py`` (``--quick`` for fewer repetitions,
``--no-memory`` to skip the n = 1e7 memory case).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import scipy.sparse as sp
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
from sklearn.metrics import f1_score

import sklearn_macrof1
from sklearn_macrof1 import averaged_f1_score, fbeta_summary

try:  # benchmark-only optional dependency
    import torch
    from torchmetrics.functional.classification import (
        multiclass_f1_score,
        multilabel_f1_score,
    )
except ImportError:  # pragma: no cover - depends on the environment
    torch = None

WORDS = np.array(
    ["cat", "dog", "bird", "fish", "horse", "cow", "sheep", "goat", "duck", "bee"]
)


@dataclass
class Case:
    name: str
    ours: Callable[[], Any]
    sklearn: Callable[[], Any]
    floor: Callable[[], Any]
    torch: Callable[[], Any] | None


def f1_case(
    name: str,
    y_true: Any,
    y_pred: Any,
    *,
    average: str,
    floor: Callable[[], Any],
    torch_call: Callable[[], Any] | None,
) -> Case:
    """A case timing our averaged F1 against sklearn's f1_score, same arguments."""
    return Case(
        name,
        partial(averaged_f1_score, y_true, y_pred, average=average),
        partial(f1_score, y_true, y_pred, average=average),
        floor,
        torch_call,
    )


def _noisy_copy(rng: np.random.Generator, y: np.ndarray, k: int) -> np.ndarray:
    """Predictions: right 70% of the time, a random class otherwise."""
    return np.where(rng.random(y.shape[0]) < 0.7, y, rng.integers(0, k, y.shape[0]))


def _flip(rng: np.random.Generator, y: Any, rate: float) -> Any:
    noise = rng.random(y.shape) < rate
    return y ^ noise


def integer_case(rng: np.random.Generator, n: int, k: int) -> Case:
    y_true = rng.integers(0, k, n)
    y_pred = _noisy_copy(rng, y_true, k)
    torch_call = None
    if torch is not None:

        def torch_call() -> Any:
            return multiclass_f1_score(
                torch.from_numpy(y_pred),
                torch.from_numpy(y_true),
                num_classes=k,
                average="macro",
                validate_args=False,
            )

    return f1_case(
        f"int labels n={n:.0e} k={k}",
        y_true,
        y_pred,
        average="macro",
        floor=lambda: np.bincount(y_true * k + y_pred, minlength=k * k),
        torch_call=torch_call,
    )


def string_case(rng: np.random.Generator, n: int, as_object: bool) -> Case:
    k = WORDS.shape[0]
    codes = rng.integers(0, k, n)
    y_true = WORDS[codes]
    y_pred = WORDS[_noisy_copy(rng, codes, k)]
    if as_object:
        y_true, y_pred = y_true.astype(object), y_pred.astype(object)

    def floor() -> Any:
        _, inverse = np.unique(np.concatenate([y_true, y_pred]), return_inverse=True)
        return np.bincount(inverse[:n] * k + inverse[n:], minlength=k * k)

    kind = "object array" if as_object else "numpy str array"
    return f1_case(
        f"str labels ({kind}) n={n:.0e} k={k}",
        y_true,
        y_pred,
        average="macro",
        floor=floor,
        torch_call=None,
    )


def multilabel_dense_case(
    rng: np.random.Generator, n: int, n_labels: int, average: str, dtype: Any = bool
) -> Case:
    y_true = rng.random((n, n_labels)) < 0.2
    y_pred = _flip(rng, y_true, 0.1)
    y_true, y_pred = y_true.astype(dtype), y_pred.astype(dtype)

    def floor() -> Any:
        both = y_true & y_pred
        out = [np.count_nonzero(a, axis=0) for a in (both, y_true, y_pred)]
        if average == "samples":
            out += [np.count_nonzero(a, axis=1) for a in (both, y_true, y_pred)]
        return out

    torch_call = None
    if torch is not None and average != "samples":

        def torch_call() -> Any:
            return multilabel_f1_score(
                torch.from_numpy(y_pred.astype(np.uint8, copy=False)),
                torch.from_numpy(y_true.astype(np.uint8, copy=False)),
                num_labels=n_labels,
                average=average,
                validate_args=False,
            )

    return f1_case(
        f"multilabel dense {np.dtype(dtype).name} n={n:.0e} L={n_labels} {average}",
        y_true,
        y_pred,
        average=average,
        floor=floor,
        torch_call=torch_call,
    )


def multilabel_csr_case(
    n: int, n_labels: int, density: float, average: str, seed: int
) -> Case:
    y_true = sp.random(n, n_labels, density=density, format="csr", random_state=seed)
    y_pred = sp.random(
        n, n_labels, density=density, format="csr", random_state=seed + 1
    )
    y_pred = (
        y_pred
        + y_true.multiply(
            sp.random(n, n_labels, density=0.5, format="csr", random_state=seed + 2)
        )
    ).tocsr()  # some overlap with y_true, so there are true positives
    for y in (y_true, y_pred):
        y.data[:] = 1
    y_true, y_pred = y_true.astype(np.int64), y_pred.astype(np.int64)

    def floor() -> Any:
        return [
            np.bincount(a.indices, minlength=n_labels)
            for a in (y_true.multiply(y_pred).tocsr(), y_true, y_pred)
        ]

    return f1_case(
        f"multilabel CSR n={n:.0e} L={n_labels} {density:.0%} {average}",
        y_true,
        y_pred,
        average=average,
        floor=floor,
        torch_call=None,
    )


def timing_table(cases: list[Case], repeats: int, memory: bool) -> str:
    rows = []
    for case in cases:
        contenders = {"ours": case.ours, "sklearn": case.sklearn, "floor": case.floor}
        if case.torch is not None:
            contenders["torch"] = case.torch
        times = interleaved(contenders, repeats=repeats, budget=0.05)
        torch_time = times.get("torch")
        if torch_time is None:
            torch_cell = "absent" if torch is None else "n/a"
        else:
            torch_cell = fmt_time(torch_time)
        peak_ours = peak_memory(case.ours) if memory else None
        peak_sklearn = peak_memory(case.sklearn) if memory else None
        rows.append(
            [
                case.name,
                fmt_time(times["ours"]),
                fmt_time(times["sklearn"]),
                torch_cell,
                fmt_time(times["floor"]),
                fmt_ratio(times["sklearn"] / times["ours"]),
                "-" if torch_time is None else fmt_ratio(torch_time / times["ours"]),
                fmt_ratio(times["ours"] / times["floor"]),
                fmt_bytes(peak_ours),
                fmt_bytes(peak_sklearn),
            ]
        )
    header = [
        "case",
        "ours",
        "sklearn",
        "torchmetrics",
        "numpy floor",
        "sklearn/ours",
        "torch/ours",
        "ours/floor",
        "peak mem ours",
        "peak mem sklearn",
    ]
    return table(header, rows)


def summary_table(rng: np.random.Generator, repeats: int) -> str:
    """The one-pass result objects against a single score.

    The ratio that matters is the one of the result objects, the summary and the
    report as a dict (every per-class and averaged row), at n = 1e6. Smaller n
    show the report's fixed cost (building ~15 rows of Python objects, ~0.1 ms),
    which no count can amortise at n = 1e4.
    The text report is shown for information.
    """
    report = getattr(sklearn_macrof1, "classification_report", None)
    rows = []
    for n in (10_000, 100_000, 1_000_000):
        k = 10
        y_true = rng.integers(0, k, n)
        y_pred = _noisy_copy(rng, y_true, k)
        contenders = {
            "score": partial(averaged_f1_score, y_true, y_pred),
            "summary": partial(fbeta_summary, y_true, y_pred),
        }
        if report is not None:
            contenders["dict"] = partial(report, y_true, y_pred, output_dict=True)
            contenders["text"] = partial(report, y_true, y_pred)
            contenders["ci"] = partial(
                report, y_true, y_pred, output_dict=True, confidence=0.95
            )
        times = interleaved(contenders, repeats=repeats, budget=0.05)
        ratios = {name: times[name] / times["score"] for name in times}
        rows.append(
            [
                f"int labels n={n:.0e} k={k}",
                fmt_time(times["score"]),
                fmt_time(times["summary"]),
                fmt_time(times.get("dict")) if report else "absent",
                fmt_time(times.get("text")) if report else "absent",
                fmt_ratio(ratios["summary"]),
                fmt_ratio(ratios.get("dict")),
                fmt_ratio(ratios.get("text")),
                fmt_ratio(times["ci"] / times["dict"]) if "ci" in times else "-",
            ]
        )
    header = [
        "case",
        "averaged_f1_score",
        "fbeta_summary",
        "report (dict)",
        "report (text)",
        "summary/score",
        "dict/score",
        "text/score",
        "dict with confidence=0.95 / dict",
    ]
    return table(header, rows)


def memory_table(n: int) -> str:
    """Peak memory at large n: inputs plus at most one n-length temporary."""
    rng = np.random.default_rng(1)
    k = 10
    rows = []
    for dtype in (np.int64, np.int32):
        y_true = rng.integers(0, k, n).astype(dtype)
        y_pred = _noisy_copy(rng, y_true, k).astype(dtype)
        inputs = y_true.nbytes + y_pred.nbytes
        one_temp = n * np.dtype(np.intp).itemsize
        peak = peak_memory(
            lambda y_true=y_true, y_pred=y_pred: averaged_f1_score(y_true, y_pred)
        )
        rows.append(
            [
                f"int labels ({np.dtype(dtype).name}) n={n:.0e} k={k}",
                fmt_bytes(inputs),
                fmt_bytes(peak),
                fmt_bytes(one_temp),
                f"{peak / one_temp:.2f}",
            ]
        )
    header = [
        "case",
        "inputs",
        "peak extra (ours)",
        "one n-length temp",
        "peak/temp",
    ]
    return table(header, rows)


def main() -> None:
    args = arguments(__doc__, no_memory="skip the n = 1e7 memory table")
    repeats = 3 if args.quick else 7
    rng = np.random.default_rng(0)
    print(machine())
    if torch is None:
        print("torchmetrics: absent (pip install torch torchmetrics to add it)")
    else:
        import torchmetrics

        print(
            f"torch {torch.__version__} (CPU, {torch.get_num_threads()} threads), "
            f"torchmetrics {torchmetrics.__version__}"
        )
    cases = [
        integer_case(rng, 1_000_000, 10),
        integer_case(rng, 100, 3),
        string_case(rng, 1_000_000, as_object=False),
        string_case(rng, 1_000_000, as_object=True),
        multilabel_dense_case(rng, 100_000, 50, "macro"),
        multilabel_dense_case(rng, 100_000, 50, "samples"),
        multilabel_dense_case(rng, 100_000, 50, "macro", np.int64),
        multilabel_dense_case(rng, 100_000, 50, "samples", np.int64),
        multilabel_csr_case(100_000, 50, 0.05, "macro", seed=0),
        multilabel_csr_case(100_000, 50, 0.05, "samples", seed=0),
    ]
    print()
    print(timing_table(cases, repeats, memory=True))
    print()
    print(summary_table(rng, repeats))
    if not args.no_memory:
        print()
        print(memory_table(10_000_000))


if __name__ == "__main__":
    main()
