"""Crash-safety fuzzing of the public entry points, compared with scikit-learn.

A seeded generator builds adversarial inputs: every integer and float width (with
nan, inf, -0.0, huge values), bools holding odd bytes, strings with NUL, objects,
datetimes; strided, byte-swapped, reversed and read-only views; masked arrays,
``np.matrix``, memmaps and a subclass that lies about its values; pandas extension
dtypes; every scipy sparse format, with stored zeros and malformed structure;
adversarial options (labels, pos_label, average, beta, zero_division,
sample_weight); and adversarial confusion matrices. Each case goes through one
entry point (the scores, ``fbeta_summary``, ``classification_report``, the
verbs given a confusion matrix's record, ``MacroF1Accumulator``, the CLI) and through
scikit-learn where it has a counterpart. A case passes when

- the process survives (cases run in worker subprocesses; a worker that dies is
  restarted after the case it died on, which is recorded as a crash);
- ours gives scikit-learn's value (to 1e-12), or raises an exception of the same
  family (ValueError / TypeError / OverflowError), or the difference is one of
  ``DIFFERENCES`` (each documented in docs/differences.md);
- and the CLI never lets an exception escape (exit status 0 or 1).

Case ``i`` of seed ``s`` is rebuilt from ``(s, i)`` alone, so a failure is
reproduced with ``python tests/fuzz/fuzz.py case SEED I``. A run:
``python tests/fuzz/fuzz.py run --cases 100000 --seed 1`` (release checks; the
test suite runs a bounded number, ``MACROF1_FUZZ_CASES``).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import traceback
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

CATEGORIES = (
    "dtype",
    "view",
    "subclass",
    "pandas",
    "sparse",
    "options",
    "confusion-matrix",
    "accumulator",
    "cli",
)
ENTRIES = ("averaged_fbeta_score", "fbeta_of_averages_score", "fbeta_summary", "report")


@dataclass
class Case:
    seed: int
    index: int
    category: str
    entry: str
    y_true: Any = None
    y_pred: Any = None
    options: dict[str, Any] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    matrix: Any = None


# --------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------

INT_DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
FLOAT_DTYPES = ("float16", "float32", "float64")


def _int_values(rng: np.random.Generator, dtype: str, k: int, case: Case) -> list:
    info = np.iinfo(dtype)
    pool = [0, 1, 2, 3, info.max, info.min, info.max - 1, 7]
    if dtype in ("int64", "uint64"):
        pool += [2**53 + 1, 2**53, 2**62 + 1]
        if dtype == "uint64":
            pool += [2**63, 2**63 + 1, 2**64 - 1]
        else:
            pool += [-(2**62), -1]
    elif info.min < 0:
        pool += [-1, -3]
    values = [int(v) for v in rng.choice(np.array(pool, dtype=object), k, False)]
    if any(abs(v) > 2**53 for v in values):
        case.tags.add("huge-int")
    return values


def _labels(rng: np.random.Generator, case: Case, n: int, k: int) -> tuple:
    """Two 1-D label arrays of adversarial dtypes (maybe two different ones)."""
    kind = rng.choice(["int", "float", "bool-bytes", "str", "object", "datetime"])
    codes_t = rng.integers(0, k, n)
    codes_p = np.where(rng.random(n) < 0.6, codes_t, rng.integers(0, k, n))

    def build(codes: np.ndarray, kind: str) -> Any:
        if kind == "int":
            dtype = str(rng.choice(INT_DTYPES))
            values = _int_values(rng, dtype, k, case)
            return np.array(values, dtype=dtype)[codes]
        if kind == "float":
            dtype = str(rng.choice(FLOAT_DTYPES))
            pool = [0.0, 1.0, 2.0, -0.0, 3.0, 2.0**53, 1e300, -5.0, 2.0**63, 1e38]
            if rng.random() < 0.2:
                pool += [np.nan, np.inf, 0.5]
            with np.errstate(over="ignore"):
                values = np.array(rng.choice(pool, k), dtype=dtype)
            return values[codes]
        if kind == "bool-bytes":
            return np.array(rng.choice([0, 1, 2, 200, 255], k), np.uint8)[codes].view(
                bool
            )
        if kind == "str":
            pool = ["a", "a\0", "b", "\0", "", "cc", "é", "1"]
            values = list(rng.choice(pool, k, replace=False))
            form = rng.choice(["U", "object", "list"])
            if form == "U":
                return np.array(values)[codes]
            if form == "object":
                return np.array(values, dtype=object)[codes]
            return [values[c] for c in codes]
        if kind == "object":
            pool = ["a", 1, 2.0, True, None, "b", 3]
            values = [pool[i] for i in rng.choice(len(pool), k, replace=False)]
            out = np.empty(len(codes), dtype=object)
            out[:] = [values[c] for c in codes]
            return out
        base = np.datetime64("2020-01-01")
        return (base + np.array(rng.choice(1000, k), "timedelta64[D]"))[codes]

    other = kind if rng.random() < 0.7 else rng.choice(["int", "float", "bool-bytes"])
    case.tags.add(f"kind:{kind}")
    return build(codes_t, kind), build(codes_p, str(other))


def _multilabel(rng: np.random.Generator, n: int) -> tuple:
    m = int(rng.integers(1, 5))
    t = (rng.random((n, m)) < 0.5).astype(rng.choice(["bool", "int8", "int64", "f8"]))
    p = (rng.random((n, m)) < 0.5).astype(t.dtype)
    return t, p


def _base(rng: np.random.Generator, case: Case) -> tuple:
    n = int(rng.integers(1, 40))
    k = int(rng.integers(1, 5))
    if rng.random() < 0.2:
        case.tags.add("multilabel")
        return _multilabel(rng, n)
    return _labels(rng, case, n, k)


def _view(rng: np.random.Generator, y: Any, case: Case) -> Any:
    y = np.asarray(y) if not isinstance(y, np.ndarray) else y
    how = rng.choice(["strided", "byteswap", "reversed", "readonly", "fortran"])
    case.tags.add(f"view:{how}")
    if how == "strided":
        return np.repeat(y, 2, axis=0)[::2]
    if how == "byteswap":
        if y.dtype.kind in "iufU":
            return y.astype(y.dtype.newbyteorder())
        return y
    if how == "reversed":
        return y[::-1][::-1]
    if how == "readonly":
        y = y.copy()
        y.flags.writeable = False
        return y
    return np.asfortranarray(y) if y.ndim == 2 else y


class Lying(np.ndarray):
    """An ndarray subclass whose reductions and indexing disagree with its data."""

    def max(self, *args: Any, **kwargs: Any) -> Any:
        return 1

    def min(self, *args: Any, **kwargs: Any) -> Any:
        return 0

    def __getitem__(self, key: Any) -> Any:
        return np.ndarray.__getitem__(self, key)

    def tolist(self) -> Any:
        return [0] * self.shape[0]


def _subclass(rng: np.random.Generator, y: Any, case: Case, tmp: str) -> Any:
    y = np.asarray(y)
    how = rng.choice(["masked", "masked-none", "matrix", "memmap", "lying"])
    case.tags.add(f"subclass:{how}")
    if how == "masked":
        mask = rng.random(y.shape) < 0.3
        data = y.copy()
        if data.dtype.kind in "iu" and data.size:
            data[mask] = np.iinfo(data.dtype).max  # out-of-range under the mask
        return np.ma.masked_array(data, mask=mask)
    if how == "masked-none":
        return np.ma.masked_array(y)
    if how == "matrix":
        if y.dtype.kind in "biuf":
            return np.matrix(y.reshape(-1, 1) if y.ndim == 1 else y)
        return y
    if how == "memmap":
        if y.dtype.kind in "biuf" and y.size:
            path = os.path.join(tmp, f"mm{case.index}")
            out = np.memmap(path, dtype=y.dtype, mode="w+", shape=y.shape)
            out[...] = y
            return out
        return y
    if y.dtype.kind in "biuf":
        return y.view(Lying)
    return y


def _pandas(rng: np.random.Generator, case: Case, n: int) -> tuple:
    import pandas as pd

    dtype = str(
        rng.choice(["Int64", "UInt64", "boolean", "string", "category", "Float64"])
    )
    case.tags.add(f"pandas:{dtype}")
    codes_t = rng.integers(0, 3, n)
    codes_p = np.where(rng.random(n) < 0.6, codes_t, rng.integers(0, 3, n))
    pools = {
        "Int64": [0, 1, 2**53 + 1, -5, 2**53],
        "UInt64": [0, 1, 2**63, 7, 2**53 + 1],
        "boolean": [True, False, True],
        "string": ["a", "b", "c\0"],
        "category": ["x", "y", 3],
        "Float64": [0.0, 1.0, 2.5],
    }
    values = pools[dtype]
    chosen = (
        [values[i] for i in rng.choice(len(values), 3, replace=False)]
        if (len(values) >= 3)
        else values
    )
    if any(isinstance(v, int) and abs(v) > 2**53 for v in chosen):
        case.tags.add("huge-int")

    def series(codes: np.ndarray) -> Any:
        items = [chosen[c % len(chosen)] for c in codes]
        if rng.random() < 0.1 and dtype != "category":
            items[0] = None
        if dtype == "category":
            return pd.Series(items, dtype="object").astype("category")
        return pd.Series(items, dtype=dtype)

    y_true, y_pred = series(codes_t), series(codes_p)
    if rng.random() < 0.2:  # a multilabel DataFrame of nullable ints
        case.tags.add("multilabel")
        m = int(rng.integers(2, 4))
        case.tags.add("pandas-frame")
        frame = lambda: pd.DataFrame(  # noqa: E731
            (rng.random((n, m)) < 0.5).astype(int), dtype="Int64"
        )
        return frame(), frame()
    return y_true, y_pred


def _sparse(rng: np.random.Generator, case: Case, n: int) -> tuple:
    import scipy.sparse as sp

    m = int(rng.integers(1, 5))
    dtype = rng.choice(["bool", "int8", "int64", "float64", "uint8"])
    dense_t = (rng.random((n, m)) < 0.5).astype(dtype)
    dense_p = (rng.random((n, m)) < 0.5).astype(dtype)
    fmt = str(rng.choice(["csr", "csc", "coo", "dok", "lil", "bsr", "dia"]))
    case.tags.add(f"sparse:{fmt}")
    y_true = sp.csr_matrix(dense_t).asformat(fmt)
    y_pred = sp.csr_matrix(dense_p).asformat(fmt)
    trick = rng.choice(["none", "stored-zero", "malformed", "dense-mix"])
    case.tags.add(f"sparse-trick:{trick}")
    if trick == "stored-zero":
        y_pred = sp.csr_matrix(dense_p)
        if y_pred.nnz:
            y_pred.data = y_pred.data.copy()
            y_pred.data[0] = 0
            case.tags.add("stored-zero")
    elif trick == "malformed":
        y_pred = sp.csr_matrix(dense_p)
        if y_pred.nnz:
            y_pred.indices = y_pred.indices.copy()
            y_pred.indices[-1] = rng.choice([m + 5, 10**9, -3, 2**31 - 1])
        else:
            y_pred.indptr = y_pred.indptr.copy()
            y_pred.indptr[-1] = 5
        case.tags.add("malformed")
    elif trick == "dense-mix":
        y_pred = dense_p
    for y in (y_true, y_pred):  # bsr blocks and dia diagonals store zeros too
        if sp.issparse(y) and y.format not in ("dok", "lil"):
            stored = y.data if y.format != "dia" else y.tocsr().data
            if (np.asarray(stored) == 0).any():
                case.tags.add("stored-zero")
    return y_true, y_pred


def _options(rng: np.random.Generator, case: Case, y_true: Any, strong: bool) -> dict:
    options: dict[str, Any] = {}
    p = 0.9 if strong else 0.25
    n = _length(y_true)
    if rng.random() < p:
        choice = rng.choice(["macro", "micro", "weighted", "samples", "binary", "none"])
        options["average"] = None if choice == "none" else str(choice)
        if rng.random() < 0.05:
            options["average"] = "bogus"
    if rng.random() < p:
        options["beta"] = [0.0, 0.5, 2.0, np.inf, 1e200, np.float32(2.0), -1.0, 1e-200][
            int(rng.integers(0, 8))
        ]
    if rng.random() < p:
        options["zero_division"] = [
            "warn",
            0,
            1,
            0.0,
            np.nan,
            np.int64(1),
            np.float32(0.0),
            2,
            np.float64(1.0),
        ][int(rng.integers(0, 9))]
        zd = options["zero_division"]
        if isinstance(zd, np.generic) and not isinstance(zd, np.float64):
            case.tags.add("numpy-scalar-zero-division")
    if rng.random() < p:
        case.tags.add("labels")
        options["labels"] = [
            [0, 1],
            ["0", "1"],
            [1],
            [],
            [2, 0, 5],
            ["a", "b"],
            [[0, 1]],
            [1.0, 2.0],
            [True],
        ][int(rng.integers(0, 9))]
    if rng.random() < p:
        options["pos_label"] = [1, 0, "a", 2, True, "1", None][int(rng.integers(0, 7))]
    if rng.random() < p and n:
        kind = rng.choice(["ones", "random", "zeros", "negative", "nan", "short", "2d"])
        case.tags.add(f"weights:{kind}")
        w = {
            "ones": np.ones(n),
            "random": rng.random(n) * 3,
            "zeros": np.zeros(n),
            "negative": rng.random(n) - 0.3,
            "nan": np.where(rng.random(n) < 0.5, np.nan, 1.0),
            "short": np.ones(max(n - 1, 0)),
            "2d": np.ones((n, 1)),
        }[str(kind)]
        options["sample_weight"] = w
    return options


def _length(y: Any) -> int:
    try:
        return int(y.shape[0])
    except (AttributeError, IndexError, TypeError):
        try:
            return len(y)
        except TypeError:
            return 0


def _matrix(rng: np.random.Generator, case: Case) -> Any:
    k = int(rng.integers(1, 5))
    kind = rng.choice(
        [
            "int",
            "uint64-huge",
            "int64-huge",
            "float",
            "float-huge",
            "nan",
            "negative",
            "bool",
            "object",
            "nonsquare",
            "byteswap",
            "masked",
            "sparse",
            "zeros",
        ]
    )
    case.tags.add(f"matrix:{kind}")
    base = rng.integers(0, 20, (k, k))
    if kind == "int":
        return base.astype(rng.choice(INT_DTYPES))
    if kind == "uint64-huge":
        return np.full((k, k), 2**63, np.uint64)
    if kind == "int64-huge":
        return np.full((k, k), 2**62, np.int64)
    if kind == "float":
        return base * rng.random((k, k))
    if kind == "float-huge":
        return np.full((k, k), 1e308)
    if kind == "nan":
        m = base.astype(float)
        m[0, 0] = np.nan
        return m
    if kind == "negative":
        return base - 10
    if kind == "bool":
        return base > 10
    if kind == "object":
        return base.astype(object)
    if kind == "nonsquare":
        return rng.integers(0, 5, (k, k + 1))
    if kind == "byteswap":
        return base.astype(">i8")
    if kind == "masked":
        return np.ma.masked_array(base, mask=rng.random((k, k)) < 0.3)
    if kind == "sparse":
        import scipy.sparse as sp

        return sp.csr_matrix(base)
    return np.zeros((k, k), dtype=int)


def make_case(seed: int, index: int, tmp: str) -> Case:
    """Case ``index`` of ``seed`` (a pure function of the two)."""
    rng = np.random.default_rng([seed, index])
    category = CATEGORIES[index % len(CATEGORIES)]
    entry = str(rng.choice(ENTRIES))
    case = Case(seed, index, category, entry)
    if category == "confusion-matrix":
        case.entry = str(
            rng.choice(
                [
                    "fbeta_summary(matrix record)",
                    "classification_report(matrix record)",
                ]
            )
        )
        case.matrix = _matrix(rng, case)
        options = _options(rng, case, [], strong=False)
        options.pop("sample_weight", None)
        options.pop("pos_label", None)
        if case.entry.startswith("classification_report"):
            options = {
                k: v for k, v in options.items() if k in ("labels", "zero_division")
            }
        case.options = options
        return case
    n = int(rng.integers(1, 40))
    if category == "pandas":
        y_true, y_pred = _pandas(rng, case, n)
    elif category == "sparse":
        y_true, y_pred = _sparse(rng, case, n)
    else:
        y_true, y_pred = _base(rng, case)
        if category == "view":
            y_true = _view(rng, y_true, case)
            if rng.random() < 0.5:
                y_pred = _view(rng, y_pred, case)
        elif category == "subclass":
            if rng.random() < 0.5:
                y_true = _subclass(rng, y_true, case, tmp)
            else:
                y_pred = _subclass(rng, y_pred, case, tmp)
    if category == "accumulator":
        case.entry = "accumulator"
    if category == "cli":
        case.entry = "cli"
    case.y_true, case.y_pred = y_true, y_pred
    case.options = _options(rng, case, y_true, strong=category == "options")
    if case.entry == "report":
        case.options.pop("beta", None)
        case.options.pop("pos_label", None)
        case.options.pop("average", None)
    return case


# --------------------------------------------------------------------------
# Running and comparing
# --------------------------------------------------------------------------

#: Deliberate differences from scikit-learn (docs/differences.md), as predicates
#: on a case whose outcome differs: name -> test.
DIFFERENCES = {
    "numpy-scalar-zero-division": lambda c: "numpy-scalar-zero-division" in c.tags,
    "sparse-stored-zero": lambda c: "stored-zero" in c.tags,
    "huge-integers-exact-or-refused": lambda c: "huge-int" in c.tags,
    "beta-overflow-numpy-float": lambda c: (
        isinstance(c.options.get("beta"), float) and c.options["beta"] > 1e154
    ),
    "masked-2d": lambda c: "subclass:masked" in c.tags and "multilabel" in c.tags,
    "pandas-nullable-dataframe": lambda c: "pandas-frame" in c.tags,
    "malformed-sparse-refused": lambda c: "malformed" in c.tags,
    "labels-of-the-other-kind": lambda c: _other_kind_labels(c),
    "negative-zero-label-name": lambda c: _has_negative_zero(c),
}


def _other_kind_labels(case: Case) -> bool:
    """labels given as strings for numeric labels or the reverse (scikit-learn
    converts both to one string dtype and may truncate: 'True' -> 'Tru')."""
    labels = case.options.get("labels")
    if not isinstance(labels, list) or not labels:
        return False
    text = [isinstance(v, str) for v in labels]
    values = [np.asarray(y) for y in (case.y_true, case.y_pred) if y is not None]
    numeric = any(
        getattr(v, "dtype", None) is not None and v.dtype.kind in "biuf" for v in values
    )
    return (all(text) and numeric) or (not any(text) and not numeric)


def _has_negative_zero(case: Case) -> bool:
    """A float label -0.0: scikit-learn names its class "-0.0", ours "0.0"."""
    for y in (case.y_true, case.y_pred):
        a = np.asarray(y) if not hasattr(y, "tocsr") else np.zeros(0)
        if a.dtype.kind == "f" and bool(np.any((a == 0) & np.signbit(a))):
            return True
    return False


def _value(result: Any) -> Any:
    """A comparable form of a result: arrays of floats, or dicts of them."""
    if isinstance(result, dict):
        return {k: _value(v) for k, v in result.items()}
    if hasattr(result, "averaged_fbeta"):  # an FBetaSummary
        return _value(result.averaged_fbeta)
    return np.asarray(result, dtype=float)


def _call(function: Any) -> tuple[str, Any]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return "value", _value(function())
    except Exception as exc:
        return "error", exc


def _sk_options(options: dict) -> dict:
    return dict(options)


def _run_ours_and_theirs(case: Case, *, reference: bool = True) -> tuple[Any, Any]:
    import sklearn.metrics as skm

    import sklearn_macrof1 as ours

    if not reference:  # ours only: a value or a clean error
        no = _NoReference()
        got, _ = _run_ours_and_theirs.__wrapped__(case, ours, no)
        return got, None
    return _run_ours_and_theirs.__wrapped__(case, ours, skm)


class _NoReference:
    """Stands for sklearn.metrics when there is no reference: every call fails."""

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("no reference")

        return fail


def _run_pair(case: Case, ours: Any, skm: Any) -> tuple[Any, Any]:
    o = dict(case.options)
    if case.entry == "accumulator":

        def ours_call() -> Any:
            acc = ours.MacroF1Accumulator()
            n = _length(case.y_true)
            cut = n // 2
            weights = o.get("sample_weight")
            parts = [slice(0, cut), slice(cut, n)] if cut else [slice(0, n)]
            for part in parts:
                w = None if weights is None else np.asarray(weights)[part]
                acc.update(
                    _take(case.y_true, part), _take(case.y_pred, part), sample_weight=w
                )
            kw = {k: v for k, v in o.items() if k != "sample_weight"}
            return ours.averaged_fbeta_score(acc.counts, beta=kw.pop("beta", 1.0), **kw)

        theirs = lambda: skm.fbeta_score(  # noqa: E731
            case.y_true,
            case.y_pred,
            beta=o.get("beta", 1.0),
            **{k: v for k, v in o.items() if k != "beta"},
            **({} if "average" in o else {"average": "macro"}),
        )
        return _call(ours_call), _call(theirs)
    if case.entry in ("averaged_fbeta_score", "fbeta_summary"):
        function = getattr(ours, case.entry)
        beta = o.pop("beta", 1.0)
        average = o.pop("average", "macro")
        return (
            _call(
                lambda: function(
                    case.y_true, case.y_pred, beta=beta, average=average, **o
                )
            ),
            _call(
                lambda: skm.fbeta_score(
                    case.y_true, case.y_pred, beta=beta, average=average, **o
                )
            ),
        )
    if case.entry == "fbeta_of_averages_score":
        beta = o.pop("beta", 1.0)
        average = o.pop("average", "macro")

        def theirs() -> Any:
            # (fbeta_score first: it validates beta as ours does)
            skm.fbeta_score(case.y_true, case.y_pred, beta=beta, average=average, **o)
            p = np.asarray(
                skm.precision_score(case.y_true, case.y_pred, average=average, **o),
                float,
            )
            r = np.asarray(
                skm.recall_score(case.y_true, case.y_pred, average=average, **o), float
            )
            if average in ("micro", "binary"):  # the F-beta itself (design notes)
                return skm.fbeta_score(
                    case.y_true, case.y_pred, beta=beta, average=average, **o
                )
            b2 = beta**2
            if math.isinf(b2):
                return r
            num = (1 + b2) * p * r
            den = b2 * p + r
            return np.where(den == 0, 0.0, num / np.where(den == 0, 1, den))

        return (
            _call(
                lambda: ours.fbeta_of_averages_score(
                    case.y_true, case.y_pred, beta=beta, average=average, **o
                )
            ),
            _call(theirs),
        )
    if case.entry == "report":

        def strip(report: dict) -> dict:
            rows = {}
            for key, row in report.items():
                if isinstance(row, dict):
                    rows[key] = {
                        m: row[m]
                        for m in ("precision", "recall", "f1-score", "support")
                        if m in row
                    }
                else:
                    rows[key] = row
            return rows

        return (
            _call(
                lambda: strip(
                    ours.classification_report(
                        case.y_true, case.y_pred, output_dict=True, **o
                    )
                )
            ),
            _call(
                lambda: strip(
                    skm.classification_report(
                        case.y_true, case.y_pred, output_dict=True, **o
                    )
                )
            ),
        )
    if case.entry.endswith("(matrix record)"):
        function = getattr(ours, case.entry.split("(")[0])
        got = _call(
            lambda: function(
                ours.MacroF1Counts.from_confusion_matrix(case.matrix, rows="true"), **o
            )
        )
        return got, _matrix_reference(case, o)
    raise AssertionError(case.entry)


_run_ours_and_theirs.__wrapped__ = _run_pair  # type: ignore[attr-defined]


def _take(y: Any, part: slice) -> Any:
    if isinstance(y, list):
        return y[part]
    try:
        return y[part]
    except TypeError:
        return y.tocsr()[part]


def _matrix_reference(case: Case, o: dict) -> Any:
    """scikit-learn on the labels the matrix counts, when it is a valid,
    small matrix of counts; else None (crash-safety only, with the expectation
    that a value is finite or nan and an error is a ValueError/TypeError)."""
    import sklearn.metrics as skm

    m = case.matrix
    if not isinstance(m, np.ndarray) or type(m) is not np.ndarray:
        return None
    if m.dtype.kind not in "iub" or m.ndim != 2 or m.shape[0] != m.shape[1]:
        return None
    counts = m.astype(np.int64)
    if (counts < 0).any() or counts.sum() == 0 or counts.sum() > 20000:
        return None
    k = m.shape[0]
    true, pred = np.indices((k, k))
    y_true = np.repeat(true.ravel(), counts.ravel())
    y_pred = np.repeat(pred.ravel(), counts.ravel())
    labels = o.pop("labels", None)
    if labels is None:
        labels = list(range(k))
    if case.entry.startswith("classification_report"):
        return None  # its rows are checked through fbeta_summary's
    beta = o.pop("beta", 1.0)
    average = o.pop("average", "macro")
    return _call(
        lambda: skm.fbeta_score(
            y_true, y_pred, beta=beta, labels=labels, average=average, **o
        )
    )


_FAMILIES = (OverflowError, ValueError, TypeError)


def _sklearn_version() -> tuple[int, ...]:
    import sklearn

    return tuple(int(p) for p in sklearn.__version__.split(".")[:2])


#: Values and exception types are compared with scikit-learn 1.9 or later (older
#: releases score some malformed inputs, see README "Supported versions"); with
#: an older one the run checks crash safety only.
_REFERENCE_SKLEARN = _sklearn_version() >= (1, 9)


def _family(exc: BaseException) -> set:
    return {f.__name__ for f in _FAMILIES if isinstance(exc, f)}


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, dict) or isinstance(b, dict):
        if not (isinstance(a, dict) and isinstance(b, dict)):
            return False
        keys = set(b)
        return keys <= set(a) and all(_same_value(a[k], b[k]) for k in keys)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(
        np.allclose(a, b, rtol=0, atol=1e-12, equal_nan=True)
    )


def judge(case: Case, ours: Any, theirs: Any) -> str:
    """ "ok", "ok:<difference>" or "mismatch: <what>"."""
    kind_o, val_o = ours
    if kind_o == "error" and not isinstance(val_o, _FAMILIES):
        return f"mismatch: ours raised {type(val_o).__name__}: {val_o}"
    if theirs is None:  # no reference: ours must be a value or a clean error
        if "malformed" in case.tags and kind_o == "value":
            return "mismatch: a malformed sparse matrix was scored"
        return "ok"
    kind_t, val_t = theirs
    if kind_o == kind_t == "value" and _same_value(val_o, val_t):
        return "ok"
    if kind_o == kind_t == "error" and _family(val_o) & _family(val_t):
        return "ok"
    if kind_o == kind_t == "error":
        # Both refuse, with different types: inputs with two faults are refused
        # for the first one each library checks (not a failure, but counted).
        return (
            f"ok:both-refuse-different-type (ours {type(val_o).__name__}: "
            f"{str(val_o)[:100]} | sklearn {type(val_t).__name__}: {str(val_t)[:100]})"
        )
    if kind_t == "error" and (
        not isinstance(val_t, _FAMILIES)
        or type(val_t).__name__ == "DTypePromotionError"
    ):
        # scikit-learn itself fails oddly (AttributeError, IndexError...): ours
        # must still be a value or a clean error.
        return "ok:scikit-learn-fails"
    for name, applies in DIFFERENCES.items():
        if applies(case):
            return f"ok:{name}"
    if not _REFERENCE_SKLEARN:
        return "ok:older-scikit-learn"

    def show(k: str, v: Any) -> str:
        if k == "error":
            return f"{type(v).__name__}: {str(v)[:120]}"
        return repr(v)[:200]

    return f"mismatch: ours {show(kind_o, val_o)} | sklearn {show(kind_t, val_t)}"


#: tests/, where the runner of the program is (tests/_program.py).
TESTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_cli_case(case: Case, tmp: str) -> str:
    """The CLI (``python -m sklearn_macrof1``, run in this process) on the case's
    labels written to files: never an exception, nor the entry point's line for
    one it did not expect."""
    if TESTS_DIR not in sys.path:
        sys.path.append(TESTS_DIR)
    from _program import ProgramCrashed, macrof1

    def lines(y: Any) -> str:
        try:
            values = np.asarray(y).reshape(len(np.asarray(y)), -1)[:, 0].tolist()
        except Exception:
            values = [str(y)]
        return "\n".join(str(v) for v in values) + "\n"

    paths = []
    for name, y in (("t", case.y_true), ("p", case.y_pred)):
        path = os.path.join(tmp, f"{name}{case.index}.txt")
        with open(path, "w", encoding="utf-8", errors="replace") as f:
            f.write(lines(y).replace("\0", ""))
        paths.append(path)
    o = case.options
    output = ("json", "text", "csv")[case.index % 3]  # every writer, in turn
    argv = ["score", *paths, "--format", output]
    average = o.get("average", "macro")
    if average in ("macro", "micro", "weighted", "binary", "samples", None):
        argv += ["--average", "none" if average is None else average]
    if "beta" in o and not isinstance(o["beta"], np.float32):
        argv += ["--beta", repr(float(o["beta"]))]
    if "labels" in o and isinstance(o["labels"], list) and o["labels"]:
        argv += ["--labels", ",".join(str(v) for v in o["labels"])]
    if o.get("pos_label") is not None:
        argv += ["--pos-label", str(o["pos_label"])]
    try:
        status, out, _ = macrof1(argv)
    except ProgramCrashed as exc:  # the entry point caught what the program did not
        return f"mismatch: CLI raised ({exc})"
    except Exception as exc:
        return f"mismatch: CLI raised {type(exc).__name__}: {exc}"
    if status not in (0, 1, 2):
        return f"mismatch: CLI status {status}"
    if status == 0 and output == "json":
        json.loads(out)
    return "ok"


def run_case(case: Case, tmp: str, *, reference: bool = True) -> str:
    if case.entry == "cli":
        return run_cli_case(case, tmp)
    if "malformed" in case.tags:
        reference = False  # scikit-learn reads malformed matrices out of bounds
    ours, theirs = _run_ours_and_theirs(case, reference=reference)
    return judge(case, ours, theirs)


# --------------------------------------------------------------------------
# Workers and the driver
# --------------------------------------------------------------------------


def worker(seed: int, start: int, stop: int) -> None:
    """Run cases [start, stop), one JSON line each, flushed (the driver learns
    from the last line how far a worker got before it died)."""
    warnings.simplefilter("ignore")
    if os.environ.get("MACROF1_FUZZ_INJECT") == "shifted-codes":
        _inject_shifted_codes()
        global _REFERENCE_SKLEARN
        _REFERENCE_SKLEARN = True  # (whatever the version: every mismatch counts)
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(start, stop):
            try:
                case = make_case(seed, i, tmp)
                verdict = run_case(case, tmp)
                record = {
                    "i": i,
                    "category": case.category,
                    "entry": case.entry,
                    "verdict": verdict,
                }
            except Exception as exc:
                record = {
                    "i": i,
                    "category": "?",
                    "entry": "?",
                    "verdict": f"harness-error: {type(exc).__name__}: {exc} "
                    + traceback.format_exc(limit=3).replace("\n", " | "),
                }
            sys.stdout.write(json.dumps(record) + "\n")
            sys.stdout.flush()


def _inject_shifted_codes() -> None:
    """A deliberately broken label encoding, for the fuzz test's own test: the
    codes of 1-D targets are shifted past the last class while the encoding
    still claims they are in range. The counting core's guard must refuse them
    (or, without it, the process would crash or count wrongly): either way the
    fuzz run must fail."""
    from dataclasses import replace

    from sklearn_macrof1._counting import _record

    honest = _record.read_targets

    def shifted(*args: Any, **kwargs: Any) -> Any:
        targets = honest(*args, **kwargs)
        if targets.kind != "1d":
            return targets
        k = targets.code_labels.shape[0]
        return replace(
            targets,
            true=np.asarray(targets.true, dtype=np.intp) + k,
            pred=np.asarray(targets.pred, dtype=np.intp) + 3 * k,
            in_range=True,
        )

    _record.read_targets = shifted


def drive(
    seed: int, n_cases: int, *, n_workers: int = 2, timeout: float = 3600
) -> dict:
    """Run ``n_cases`` cases in worker subprocesses; return the records and the
    crashes (a case on which a worker died)."""
    records: dict[int, dict] = {}
    crashes: list[dict] = []
    chunks = np.array_split(np.arange(n_cases), n_workers)
    pending = [(int(c[0]), int(c[-1]) + 1) for c in chunks if c.size]
    here = os.path.abspath(__file__)
    while pending:
        procs = [
            (
                start,
                stop,
                subprocess.Popen(
                    [sys.executable, here, "worker", str(seed), str(start), str(stop)],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                ),
            )
            for start, stop in pending
        ]
        pending = []
        for start, stop, proc in procs:
            out, err = proc.communicate(timeout=timeout)
            done = start
            for line in out.splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                records[record["i"]] = record
                done = record["i"] + 1
            if proc.returncode != 0 and done < stop:
                # Whose crash? The case again, through ours only.
                alone = subprocess.run(
                    [sys.executable, here, "ours", str(seed), str(done)],
                    capture_output=True,
                    text=True,
                    timeout=timeout,
                )
                if alone.returncode == 0:
                    records[done] = {
                        "i": done,
                        "category": alone.stdout.split()[0],
                        "entry": alone.stdout.split()[1],
                        "verdict": "ok:scikit-learn-crashes",
                    }
                else:
                    crashes.append(
                        {
                            "i": done,
                            "returncode": alone.returncode,
                            "stderr": alone.stderr[-500:],
                        }
                    )
                if done + 1 < stop:
                    pending.append((done + 1, stop))
    return {"records": records, "crashes": crashes}


def summarize(result: dict, n_cases: int) -> tuple[str, list[str]]:
    """A table of cases per category and entry point, and the failures."""
    records = result["records"].values()
    by_category = Counter(r["category"] for r in records)
    by_entry = Counter(r["entry"] for r in records)
    verdicts = Counter(
        r["verdict"].split(" (")[0] if r["verdict"].startswith("ok") else "mismatch"
        for r in records
    )
    failures = [
        f"case {r['i']} ({r['category']}, {r['entry']}): {r['verdict']}"
        for r in records
        if not r["verdict"].startswith("ok")
    ]
    failures += [
        f"case {c['i']}: CRASH (status {c['returncode']}) {c['stderr']}"
        for c in result["crashes"]
    ]
    lines = [f"{n_cases} cases, {len(result['crashes'])} crashes"]
    lines += [
        "by category: " + ", ".join(f"{k} {v}" for k, v in sorted(by_category.items()))
    ]
    lines += [
        "by entry point: " + ", ".join(f"{k} {v}" for k, v in sorted(by_entry.items()))
    ]
    lines += ["verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))]
    return "\n".join(lines), failures


def main(argv: list[str]) -> int:
    if argv[:1] == ["worker"]:
        worker(int(argv[1]), int(argv[2]), int(argv[3]))
        return 0
    if argv[:1] == ["ours"]:  # one case, ours only (no scikit-learn)
        warnings.simplefilter("ignore")
        with tempfile.TemporaryDirectory() as tmp:
            case = make_case(int(argv[1]), int(argv[2]), tmp)
            verdict = run_case(case, tmp, reference=False)
            print(case.category, case.entry, verdict)
        return 0
    if argv[:1] == ["case"]:
        with tempfile.TemporaryDirectory() as tmp:
            case = make_case(int(argv[1]), int(argv[2]), tmp)
            print(case)
            print(run_case(case, tmp))
        return 0
    import argparse

    parser = argparse.ArgumentParser(description="fuzz sklearn-macrof1")
    parser.add_argument("command", choices=["run"])
    parser.add_argument(
        "--cases", type=int, default=int(os.environ.get("MACROF1_FUZZ_CASES", "1000"))
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    result = drive(args.seed, args.cases, n_workers=args.workers)
    table, failures = summarize(result, args.cases)
    print(table)
    for failure in failures[:50]:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
