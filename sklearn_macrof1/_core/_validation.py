"""Validation of the scalar options shared by every public entry point.

Each check raises the exception type scikit-learn raises for the same mistake
(``InvalidParameterError``, a ``ValueError`` and ``TypeError`` at once, for options;
``ValueError`` for inconsistent data), with a message that names the argument, the
function and what is accepted.
"""

from __future__ import annotations

import math
import numbers
from pathlib import Path
from types import FrameType
from typing import Any, cast

import numpy as np

from ._sklearn_private import InvalidParameterError

AVERAGE_OPTIONS: tuple[str | None, ...] = (
    "binary",
    "micro",
    "macro",
    "weighted",
    "samples",
    None,
)


def _got(value: Any) -> str:
    return f"Got {value!r} instead."


def check_average(average: Any, *, caller: str) -> str | None:
    """Return ``average`` when it is one of scikit-learn's averaging options."""
    if average is None or (isinstance(average, str) and average in AVERAGE_OPTIONS):
        return average
    raise InvalidParameterError(
        f"The 'average' parameter of {caller} must be a str among "
        "{'binary', 'micro', 'macro', 'weighted', 'samples'} or None. " + _got(average)
    )


def check_beta(beta: Any, *, caller: str) -> float:
    """Return ``beta`` as a float in ``[0, inf]``.

    A finite ``beta`` whose square overflows a float (above about 1.3e154) raises
    ``OverflowError``, as in scikit-learn (which computes ``beta ** 2``);
    ``beta=np.inf`` is the supported way to ask for recall.
    """
    if isinstance(beta, numbers.Real) and not (
        isinstance(beta, float | np.floating) and math.isnan(beta)
    ):
        if cast(Any, beta) >= 0:
            value = float(beta)
            if math.isfinite(value) and math.isinf(value * value):
                raise OverflowError(
                    f"The 'beta' parameter of {caller} is too large: beta ** 2 "
                    f"overflows a float (got {beta!r}). Use beta=np.inf for "
                    "recall, or a beta below 1e154."
                )
            return value
    raise InvalidParameterError(
        f"The 'beta' parameter of {caller} must be a float in the range [0.0, inf] "
        "(0 gives precision, inf gives recall). " + _got(beta)
    )


def check_zero_division(zero_division: Any, *, caller: str) -> str | float:
    """Return ``zero_division`` normalised to ``"warn"``, ``0.0``, ``1.0`` or nan.

    Any real number equal to 0 or 1 (numpy scalars included: ``np.int64(1)``,
    ``np.float32(0.0)``) means that value. scikit-learn accepts such scalars too
    but then uses nan for every numpy scalar other than float64, which is not
    what the caller asked for: a deliberate difference.
    """
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return "warn"
    elif isinstance(zero_division, numbers.Real):
        if zero_division in (0, 1):
            return float(zero_division)
        if math.isnan(zero_division):
            return math.nan
    raise InvalidParameterError(
        f"The 'zero_division' parameter of {caller} must be 'warn', 0.0, 1.0 or "
        "np.nan. " + _got(zero_division)
    )


def check_pos_label(pos_label: Any, *, caller: str) -> Any:
    """``pos_label`` must be a number, a string, a bool or None (as in sklearn)."""
    if pos_label is None or isinstance(pos_label, numbers.Real | str | np.bool_):
        return pos_label
    raise InvalidParameterError(
        f"The 'pos_label' parameter of {caller} must be an int, float, bool, str or "
        "None. " + _got(pos_label)
    )


def is_array_like(value: Any) -> bool:
    """scikit-learn's notion of "array-like": has a length, a shape or __array__."""
    return (
        hasattr(value, "__len__")
        or hasattr(value, "shape")
        or hasattr(value, "__array__")
    ) and not np.isscalar(value)


def check_array_like(value: Any, *, name: str, caller: str, sparse: bool) -> None:
    """Reject scalars and other non-sequences (and, unless ``sparse``, sparse
    matrices) for a data argument, as scikit-learn's parameter validation does."""
    if (
        value is None
        or not is_array_like(value)
        or (not sparse and hasattr(value, "toarray"))  # a scipy sparse matrix
    ):
        accepted = "an array-like or a sparse matrix" if sparse else "an array-like"
        raise InvalidParameterError(
            f"The '{name}' parameter of {caller} must be {accepted}. " + _got(value)
        )


def zero_weights_error(n_samples: int | None) -> ValueError:
    """The refusal of weights that are all zero (as in recent scikit-learn)."""
    return ValueError(
        "sample_weight must contain at least one non-zero number; all "
        f"{n_samples} weights are zero."
    )


def check_sample_weight(
    sample_weight: Any, n_samples: int, *, zero: bool = False
) -> np.ndarray | None:
    """Return ``sample_weight`` as a finite float64 vector of length ``n_samples``.

    ``sample_weight`` passed :func:`check_array_like` (no scalar, no sparse
    matrix). Negative weights are accepted (as in scikit-learn); non-numeric,
    non-finite, multi-dimensional or wrongly sized weights raise
    ``ValueError``, and so do all-zero weights unless ``zero`` (the weights of
    a part of the data: see :mod:`~._sources`).
    """
    if sample_weight is None:
        return None
    try:
        raw = np.asarray(sample_weight)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(
            "sample_weight must be a 1-D array of numbers (int or float), one per "
            "sample; got a ragged sequence."
        ) from exc
    if raw.dtype.kind == "c":
        raise ValueError("sample_weight must hold real numbers; got complex values.")
    if raw.dtype.kind not in "biuf":  # as sklearn: no strings or objects
        raise TypeError(
            "sample_weight must be a 1-D array of numbers (int or float); got "
            f"values of dtype {raw.dtype} (convert them with np.asarray(..., "
            "dtype=float) if they are numbers)."
        )
    weights = raw.astype(np.float64, copy=False)
    if weights.ndim != 1:
        raise ValueError(
            "sample_weight must be a 1-D array or a scalar; got an array of shape "
            f"{weights.shape}."
        )
    if weights.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {weights.shape[0]} entries but y_true and y_pred "
            f"have {n_samples} samples; give one weight per sample."
        )
    if not np.isfinite(weights).all():
        bad = "NaN" if np.isnan(weights).any() else "infinity"
        raise ValueError(
            f"Input sample_weight contains {bad}; sample weights must be finite."
        )
    if n_samples and not zero and not weights.any():
        raise zero_weights_error(n_samples)
    return weights


# The package folder (this file is in sklearn_macrof1/_core/): warnings point past it.
_PACKAGE_DIR = str(Path(__file__).resolve().parents[1])


ORIENTATIONS = ("true", "predicted")

#: Largest total of a float matrix: the aggregation multiplies counts by small
#: constants ((1 + beta**2) tp + ...), which must stay finite for beta <= ~1e4.
_MAX_FLOAT_TOTAL = 1e300


def check_confusion_matrix(matrix: Any, *, rows: Any) -> np.ndarray:
    """Validate a square matrix of counts; return it with rows = true labels."""
    if rows not in ORIENTATIONS:
        raise ValueError(
            "rows must say what the rows of the matrix are: 'true' (rows are true "
            "labels, as in sklearn.metrics.confusion_matrix) or 'predicted' (rows "
            f"are predictions, as in the reference paper); got {rows!r}."
        )
    if hasattr(matrix, "toarray"):
        matrix = matrix.toarray()
    try:
        m = np.asarray(matrix, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            "matrix must be a square 2-D array of non-negative counts; it holds "
            "values that are not numbers."
        ) from exc
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ValueError(
            "matrix must be a square 2-D array of non-negative counts (one row and "
            f"one column per class); got shape {m.shape}."
        )
    if m.shape[0] == 0:
        raise ValueError("matrix is empty; it needs at least one class.")
    if not np.isfinite(m).all():
        raise ValueError("matrix must hold finite counts; it contains NaN or inf.")
    if (m < 0).any():
        raise ValueError("matrix must hold non-negative counts; it has negatives.")
    with np.errstate(over="ignore"):
        total = float(m.sum())
    if total == 0:
        raise ValueError("matrix holds no samples (all counts are zero).")
    raw = np.asarray(matrix)
    if raw.dtype.kind in "biu":
        # Counted exactly in int64: every sum of cells is at most the total.
        if total >= 2.0**63:
            raise ValueError(
                f"matrix counts are too large: they sum to about {total:.3g}, "
                "beyond int64 (2**63 - 1), where the row and column sums would "
                "overflow. F-scores do not change when every count is divided by "
                "the same number: scale the matrix down."
            )
        m = raw.astype(np.int64)
    elif not total <= _MAX_FLOAT_TOTAL:
        raise ValueError(
            f"matrix counts are too large: they sum to {total:.3g}, where "
            "the ratios behind the scores would overflow float64 (the limit is "
            f"{_MAX_FLOAT_TOTAL:.3g}). F-scores do not change when every count is "
            "divided by the same number: scale the matrix down."
        )
    return m if rows == "true" else m.T


def warn_user(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` attributed to the first caller outside this package."""
    import sys
    import warnings

    frame: FrameType | None = sys._getframe(0)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
