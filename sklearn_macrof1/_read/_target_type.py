"""The target type of ``y_true`` / ``y_pred``, as scikit-learn decides it.

Plain numpy arrays of ints, floats and bools are classified by a few vectorised
reductions; everything else by scikit-learn's public ``type_of_target``, so that
every decision, and every rejection, is the one scikit-learn makes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import type_of_target

from .._options import host_copy
from ._arrays import ACCEPTED


def is_fast_numeric(y: Any) -> bool:
    return isinstance(y, np.ndarray) and y.dtype.kind in "biuf"


def scores_hint(columns: int, true_kind: str | None) -> str:
    """How to turn scores passed as labels into labels, decided by ``y_true``.

    ``columns``: the columns of the scores (1 for a 1-D array); ``true_kind``: the
    kind :func:`target_kind` gave ``y_true`` ("1d", "multilabel-indicator"), None
    when the scores are ``y_true`` itself. Class scores of a binary or multiclass
    target become labels by their argmax, multilabel scores by a threshold.
    """
    if columns > 1 and true_kind == "1d":
        return (
            "For class scores or probabilities of shape (n_samples, n_classes), "
            "predict the class of highest score first: y_score.argmax(axis=1) (with "
            "an estimator, estimator.classes_[y_score.argmax(axis=1)])."
        )
    if columns > 1 and true_kind is not None:
        return (
            "y_true is a multilabel indicator matrix: threshold the scores or "
            "probabilities into a 0/1 indicator matrix first (for example "
            "y_score >= 0.5)."
        )
    if true_kind == "1d":
        return (
            "Threshold scores or probabilities of the positive class into labels "
            "first (for example y_score >= 0.5); for class scores of shape "
            "(n_samples, n_classes), y_score.argmax(axis=1)."
        )
    return (
        "Pass labels, not scores: y_score.argmax(axis=1) for class scores of shape "
        "(n_samples, n_classes) of a binary or multiclass target, a threshold for "
        "binary or multilabel scores (for example y_score >= 0.5)."
    )


def _first_of(xp: Any, y: Any, where: Any) -> Any:
    """The first value of ``y`` where ``where`` holds, as a NumPy scalar
    (read from a device: it is only named in an error)."""
    if xp is np:
        return y[where].flat[0]
    return np.asarray(host_copy(xp.reshape(y[where], (-1,))[:1]))[0]


def check_finite_labels(y: Any, name: str, xp: Any = np) -> None:
    """Float labels (an array of the namespace ``xp``) must be finite."""
    finite = xp.isfinite(y)
    if not (finite.all() if xp is np else xp.all(finite)):
        what = "NaN" if bool(xp.any(xp.isnan(y))) else "infinity"
        raise ValueError(
            f"Input {name} contains {what}; class labels must be finite. "
            f"Accepted: {ACCEPTED}."
        )


def continuous_error(
    name: str, kind: str, columns: int, true_kind: str | None
) -> ValueError:
    """The refusal of continuous values (scikit-learn's ``kind`` of them)."""
    return ValueError(
        f"{name} contains continuous values ({kind}); classification metrics "
        f"need {ACCEPTED}. {scores_hint(columns, true_kind)}"
    )


def multioutput_error(name: str) -> ValueError:
    """The refusal of a 2-D array of several columns of class labels."""
    return ValueError(
        f"{name} is multiclass-multioutput (a 2-D array with several columns of "
        f"class labels), which F-scores do not support; accepted: {ACCEPTED}."
    )


def unscorable_error(name: str, kind: str) -> ValueError:
    """The refusal of any other type of target (scikit-learn's ``kind``)."""
    return ValueError(
        f"{name} has a type of target that cannot be scored ({kind}: for example "
        f"an object array of non-string values, or a 3-D array); accepted: "
        f"{ACCEPTED}."
    )


def check_float_labels(
    y: Any, name: str, true_kind: str | None = None, xp: Any = np
) -> None:
    """Float labels must be finite whole numbers (sklearn: else "continuous").

    ``y`` is an array of the namespace ``xp`` (NumPy's, or a device's, where
    the labels stay and are checked): one check and one message for both."""
    numpy = xp is np  # NumPy's own methods: no dispatch of np.all
    if numpy:
        if y.dtype.kind != "f":
            return
    elif not xp.isdtype(y.dtype, "real floating"):
        return
    check_finite_labels(y, name, xp)
    whole = y == xp.trunc(y)
    if float(xp.finfo(y.dtype).max) >= 2.0**63:  # (float16 cannot hold 2**63)
        within = (y >= -(2.0**63)) & (y < 2.0**63)
        if not (within.all() if numpy else xp.all(within)):
            example = _first_of(xp, y, ~within)
            raise ValueError(
                f"{name} contains whole numbers beyond the int64 range (for example "
                f"{example!r}), which scikit-learn calls continuous values; "
                f"classification metrics need {ACCEPTED}: pass them as integers."
            )
    if not (whole.all() if numpy else xp.all(whole)):
        example = _first_of(xp, y, ~whole)
        raise ValueError(
            f"{name} contains continuous values (for example {example!r}); "
            f"classification metrics need {ACCEPTED}. {scores_hint(1, true_kind)}"
        )


def _sklearn_kind(y: Any, name: str, true_kind: str | None = None) -> str:
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
        columns = y.shape[1] if getattr(y, "ndim", 1) == 2 else 1
        raise continuous_error(name, kind, columns, true_kind)
    if kind == "multiclass-multioutput":
        raise multioutput_error(name)
    unscorable = unscorable_error(name, kind)
    if isinstance(y, np.ndarray) and y.dtype == object:
        try:  # scikit-learn sorts the values first: unorderable ones, TypeError
            np.unique(y)
        except TypeError as exc:
            raise TypeError(
                f"{name} holds values that cannot be ordered together (such as "
                f"None, numbers and strings mixed: {exc}); accepted: {ACCEPTED}."
            ) from None
    raise unscorable


def _is_column(y: np.ndarray) -> bool:
    return y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1)


def target_kind(y: Any, name: str, true_kind: str | None = None) -> str:
    """ "1d", "multilabel-indicator" or ``UNIFORM_INDICATOR`` (a sparse indicator
    storing one nonzero value only); raises for every other target type.

    ``true_kind``: for a prediction, the kind of ``y_true``, which decides how the
    message for scores passed as labels says to turn them into labels.

    Numeric arrays, numpy string arrays and object arrays holding only strings
    are classified here (scikit-learn's ``type_of_target`` sorts the values, which
    costs more than the whole count); everything else goes to scikit-learn.
    """
    if is_fast_numeric(y):
        if _is_column(y):
            check_float_labels(y, name, true_kind)
            return "1d"
        if y.ndim == 2 and y.shape[0] > 0 and y.dtype.kind in "biuf":
            if y.dtype.kind == "b" or ((y == 0) | (y == 1)).all():
                return "multilabel-indicator"
    elif isinstance(y, np.ndarray) and _is_column(y):
        # type_of_target calls such arrays "binary" or "multiclass".
        if y.dtype.kind == "U" or str_objects(y) is not None:
            return "1d"
    elif sp.issparse(y) and _is_fast_indicator(y):
        return UNIFORM_INDICATOR
    return _sklearn_kind(y, name, true_kind)


#: What :func:`kind` says of a sparse indicator storing one nonzero value only.
UNIFORM_INDICATOR = "multilabel-indicator (one stored value)"


def str_objects(y: np.ndarray) -> set | None:
    """The set of values of an object array when they are all strings, else None.

    Hashing strings is linear and Python caches their hashes; sorting them (what
    ``np.unique`` does) is what makes object arrays slow.
    """
    if y.dtype != object or y.size == 0:
        return None
    try:
        values = set(y.reshape(-1).tolist())
    except TypeError:  # unhashable elements: leave them to scikit-learn
        return None
    if all(isinstance(v, str) for v in values):
        return values
    return None


def _is_fast_indicator(y: Any) -> bool:
    """A sparse matrix scikit-learn calls "multilabel-indicator", checked in O(nnz).

    scikit-learn's rule: 2 or more columns and every stored value equal to one
    integral number (here also nonzero and finite, else scikit-learn decides).
    """
    if y.ndim != 2 or y.shape[1] < 2 or y.format not in ("csr", "csc", "coo"):
        return False
    data = y.data
    if data.size == 0 or data.dtype.kind not in "biuf":
        return False
    if data.dtype.kind == "b":
        return bool(data.all())  # no temporary: every stored value is True
    first = data[0]
    if first == 0 or not np.isfinite(first) or first != np.trunc(first):
        return False
    return bool((data == first).all())


def describe(y: Any, name: str) -> str:
    try:
        return type_of_target(y, input_name=name)
    except ValueError:
        return "unknown"
