"""Reading ``y_true`` / ``y_pred``: target type, validation and integer encoding.

The output is a :class:`Targets` record that the counting core turns into counts.
Plain numpy arrays of ints, floats and bools take a fast path (a few vectorised
reductions, no sorting). Everything else (lists of strings, object arrays, pandas
objects, sparse matrices, odd shapes) is classified with scikit-learn's public
``type_of_target`` / ``unique_labels`` so that every decision, and every rejection,
is the one scikit-learn makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import type_of_target, unique_labels

#: Largest number of cells of a dense joint count table (range of integer codes
#: squared) that the integer fast path builds; above it labels are re-encoded.
MAX_JOINT_CELLS = 1 << 22

_ACCEPTED = (
    "a 1-D array of class labels (ints, strings or bools) or a 2-D 0/1 indicator "
    "matrix (dense or scipy sparse) for multilabel targets"
)


@dataclass
class Targets:
    """Validated targets, ready for counting.

    For 1-D targets (``kind == "1d"``), ``true`` and ``pred`` are integer codes in
    ``[0, len(code_labels))`` and ``code_labels[c]`` is the label of code ``c``; codes
    may include values absent from both arrays (the integer fast path encodes a label
    ``v`` as ``v - min``), the counting core drops those. For multilabel targets
    (``kind == "multilabel-indicator"``) ``true`` and ``pred`` are boolean indicator
    matrices, dense ndarrays or CSR matrices, and ``code_labels`` is
    ``arange(n_labels)``.
    """

    kind: str
    true: Any
    pred: Any
    code_labels: np.ndarray
    n_samples: int


def _num_samples(y: Any) -> int:
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) > 0:
        return int(shape[0])
    return len(y)


def _to_array(y: Any, name: str) -> Any:
    """numpy array or CSR matrix; pandas objects and lists become ndarrays."""
    if sp.issparse(y):
        return y.tocsr() if y.format != "csr" else y
    if isinstance(y, np.ndarray):
        return y
    if hasattr(y, "to_numpy") and hasattr(y, "dtype"):  # pandas Series
        return _series_to_array(y, name)
    if hasattr(y, "to_numpy") and hasattr(y, "dtypes") and getattr(y, "ndim", 0) == 2:
        return _frame_to_array(y, name)  # pandas DataFrame
    try:
        arr = np.asarray(y)
    except ValueError:  # ragged nested sequences
        arr = np.asarray(y, dtype=object)
    return arr


def _series_to_array(y: Any, name: str) -> np.ndarray:
    """A pandas Series as the ndarray scikit-learn would see.

    Nullable numeric and boolean dtypes (``Int64``, ``Float64``, ``boolean``...)
    become plain numpy arrays of their numpy dtype (a missing value is an error,
    as in scikit-learn); categoricals become arrays of their categories' values.
    Done here rather than with ``sklearn.utils.check_array``, whose keywords and
    handling of these dtypes vary across the supported scikit-learn versions.
    """
    dtype = y.dtype
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if isinstance(numpy_dtype, np.dtype) and numpy_dtype.kind in "biuf":
        if bool(y.isna().any()):
            raise ValueError(
                f"Input {name} contains NaN (missing values); class labels must "
                f"be present and finite. Accepted: {_ACCEPTED}."
            )
        return y.to_numpy(dtype=numpy_dtype)
    if getattr(dtype, "name", None) == "category":
        return np.asarray(y)
    return y.to_numpy()


def _frame_to_array(y: Any, name: str) -> np.ndarray:
    columns = [_series_to_array(y.iloc[:, j], name) for j in range(y.shape[1])]
    if not columns:
        return np.empty((y.shape[0], 0))
    if len({c.dtype for c in columns}) > 1:
        return np.asarray(y, dtype=object)
    return np.column_stack(columns)


def _is_fast_numeric(y: Any) -> bool:
    return isinstance(y, np.ndarray) and y.dtype.kind in "biuf"


def _check_float_labels(y: np.ndarray, name: str) -> None:
    """Float labels must be finite whole numbers (sklearn: else "continuous")."""
    if y.dtype.kind != "f":
        return
    finite = np.isfinite(y)
    if not finite.all():
        what = "NaN" if np.isnan(y).any() else "infinity"
        raise ValueError(
            f"Input {name} contains {what}; class labels must be finite. "
            f"Accepted: {_ACCEPTED}."
        )
    if not (y == np.trunc(y)).all():
        example = y[y != np.trunc(y)].flat[0]
        raise ValueError(
            f"{name} contains continuous values (for example {example!r}); "
            f"classification metrics need {_ACCEPTED}. Threshold scores or "
            "probabilities into labels first (for example y_score >= 0.5)."
        )


def _sklearn_kind(y: Any, name: str) -> str:
    """Target kind via scikit-learn, with our messages for unsupported kinds."""
    try:
        kind = type_of_target(y, input_name=name)
    except ValueError as exc:
        msg = str(exc)
        if "legacy multi-label" in msg:
            raise ValueError(
                f"{name} is a sequence of sequences, a legacy multilabel format; "
                "pass a 0/1 indicator matrix instead (sklearn.preprocessing."
                "MultiLabelBinarizer converts to it)."
            ) from exc
        raise
    if kind in ("binary", "multiclass"):
        if getattr(y, "ndim", 1) == 2 and sp.issparse(y):
            raise TypeError(
                f"{name} is a sparse matrix with a single column; sparse input is "
                "only supported for multilabel targets (2 or more indicator columns)."
            )
        return "1d"
    if kind == "multilabel-indicator":
        return "multilabel-indicator"
    if kind.startswith("continuous"):
        raise ValueError(
            f"{name} contains continuous values ({kind}); classification metrics "
            f"need {_ACCEPTED}. Threshold scores or probabilities into labels "
            "first (for example y_score >= 0.5)."
        )
    if kind == "multiclass-multioutput":
        raise ValueError(
            f"{name} is multiclass-multioutput (a 2-D array with several columns of "
            f"class labels), which F-scores do not support; accepted: {_ACCEPTED}."
        )
    raise ValueError(
        f"{name} has a type of target that cannot be scored ({kind}: for example "
        f"an object array of non-string values, or a 3-D array); accepted: "
        f"{_ACCEPTED}."
    )


def _kind(y: Any, name: str) -> str:
    """ "1d" or "multilabel-indicator" (raises for every other target type)."""
    if _is_fast_numeric(y):
        if y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1):
            _check_float_labels(y, name)
            return "1d"
        if y.ndim == 2 and y.shape[0] > 0 and y.dtype.kind in "biuf":
            if y.dtype.kind == "b" or ((y == 0) | (y == 1)).all():
                return "multilabel-indicator"
    return _sklearn_kind(y, name)


def _describe(y: Any, name: str) -> str:
    try:
        return type_of_target(y, input_name=name)
    except ValueError:
        return "unknown"


def read_targets(y_true: Any, y_pred: Any) -> Targets:
    """Validate and encode a pair of targets (see :class:`Targets`)."""
    yt = _to_array(y_true, "y_true")
    yp = _to_array(y_pred, "y_pred")
    n_true, n_pred = _num_samples(yt), _num_samples(yp)
    if n_true != n_pred:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: y_true has "
            f"{n_true} and y_pred has {n_pred}; they must be equal."
        )
    if n_true < 1:
        raise ValueError(
            "Found empty input array (y_true and y_pred have 0 samples) while a "
            "minimum of 1 sample is required."
        )
    kind_true, kind_pred = _kind(yt, "y_true"), _kind(yp, "y_pred")
    if kind_true != kind_pred:
        raise ValueError(
            "Classification metrics can't handle a mix of "
            f"{_describe(yt, 'y_true')} (y_true) and {_describe(yp, 'y_pred')} "
            "(y_pred) targets; both must be 1-D label arrays or both multilabel "
            "indicator matrices with the same columns."
        )
    if kind_true == "multilabel-indicator":
        return _read_multilabel(yt, yp, n_true)
    return _read_1d(yt, yp, n_true)


def _read_multilabel(yt: Any, yp: Any, n: int) -> Targets:
    if yt.shape[1] != yp.shape[1]:
        raise ValueError(
            "Multi-label binary indicator input with different numbers of labels: "
            f"y_true has {yt.shape[1]} columns and y_pred has {yp.shape[1]}."
        )
    # Nonzero means "label set", as in scikit-learn's count_nonzero.
    true = _indicator(yt)
    pred = _indicator(yp)
    if sp.issparse(true) != sp.issparse(pred):
        true, pred = sp.csr_matrix(true), sp.csr_matrix(pred)
    return Targets("multilabel-indicator", true, pred, np.arange(yt.shape[1]), n)


def _indicator(y: Any) -> Any:
    if sp.issparse(y):
        y = sp.csr_matrix(y, copy=True)
        y.eliminate_zeros()
        y.data = np.ones_like(y.data, dtype=bool)
        return y
    y = np.asarray(y)
    return y if y.dtype == bool else y != 0


def _column(y: np.ndarray) -> np.ndarray:
    return y.reshape(-1) if y.ndim == 2 else y


def _read_1d(yt: Any, yp: Any, n: int) -> Targets:
    if _is_fast_numeric(yt) and _is_fast_numeric(yp):
        return _read_numeric(_column(yt), _column(yp), n)
    if (
        isinstance(yt, np.ndarray)
        and isinstance(yp, np.ndarray)
        and yt.dtype.kind == "U"
        and yp.dtype.kind == "U"
    ):
        yt, yp = _column(yt), _column(yp)
        return _encode_sorted(yt, yp, n)
    classes = unique_labels(yt, yp)  # raises on a mix of strings and numbers
    yt = np.asarray(yt).reshape(-1)
    yp = np.asarray(yp).reshape(-1)
    codes_t = np.searchsorted(classes, yt)
    codes_p = np.searchsorted(classes, yp)
    return Targets("1d", codes_t, codes_p, classes, n)


def _encode_sorted(yt: np.ndarray, yp: np.ndarray, n: int) -> Targets:
    classes, inverse = np.unique(np.concatenate([yt, yp]), return_inverse=True)
    inverse = inverse.reshape(-1)
    return Targets("1d", inverse[:n], inverse[n:], classes, n)


def _read_numeric(yt: np.ndarray, yp: np.ndarray, n: int) -> Targets:
    label_dtype = np.result_type(yt.dtype, yp.dtype)
    if yt.dtype.kind == "b":
        yt = yt.view(np.uint8)
    if yp.dtype.kind == "b":
        yp = yp.view(np.uint8)
    lo = min(yt.min(), yp.min())
    hi = max(yt.max(), yp.max())
    span = int(hi) - int(lo) + 1
    if span * span > max(MAX_JOINT_CELLS, 4 * n):
        classes, inverse = np.unique(np.concatenate([yt, yp]), return_inverse=True)
        inverse = inverse.reshape(-1)
        return Targets("1d", inverse[:n], inverse[n:], classes.astype(label_dtype), n)
    if lo != 0 or yt.dtype.kind == "f" or yp.dtype.kind == "f":
        yt = (yt - lo).astype(np.intp, copy=False)
        yp = (yp - lo).astype(np.intp, copy=False)
    code_labels = (np.arange(span, dtype=np.int64) + int(lo)).astype(label_dtype)
    return Targets("1d", yt, yp, code_labels, n)
