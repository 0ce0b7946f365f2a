"""Scores from a confusion matrix, with an explicit orientation."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core._aggregation import ALL_METRICS, table_counts
from .._core._evaluation import check_options
from .._core._record import Counts
from ._attribution import GapAttribution
from ._summary import FBetaSummary, build_summary

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


def counts_from_confusion_matrix(
    matrix: Any, *, rows: Any, class_names: Any = None
) -> Counts:
    """Per-class counts of a confusion matrix (every row/column is a class)."""
    m = check_confusion_matrix(matrix, rows=rows)
    k = m.shape[0]
    if class_names is None:
        classes = np.arange(k)
    else:
        classes = np.asarray(class_names)
        if classes.shape != (k,):
            raise ValueError(
                f"class_names must name the {k} classes of the matrix; got "
                f"{classes.shape[0] if classes.ndim == 1 else classes.shape} names."
            )
        if np.unique(classes).shape[0] != k:
            raise ValueError("class_names must be distinct.")
        order = np.argsort(classes, kind="stable")
        classes, m = classes[order], m[np.ix_(order, order)]
    kind = "binary" if k <= 2 else "multiclass"
    return Counts(kind, classes, *table_counts(m), m)


def fbeta_summary_from_confusion_matrix(
    matrix: Any,
    *,
    rows: str,
    beta: float = 1.0,
    class_names: Any = None,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    zero_division: Any = "warn",
) -> FBetaSummary:
    """Both F-beta scores and everything behind them, from a confusion matrix.

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Counts (ints, or floats for weighted counts). Every row and column is a
        class, even an empty one, as in ``confusion_matrix(..., labels=...)``.
    rows : {"true", "predicted"}
        Required: what the rows are. "true" is ``sklearn.metrics.confusion_matrix``'s
        orientation (rows true labels, columns predictions); "predicted" is the
        reference paper's (rows predictions, columns true labels). Nothing is
        guessed.
    beta : float, default=1.0
        Weight of recall against precision.
    class_names : array-like of shape (n_classes,), default=None
        Names of the classes, in the order of the rows; ``0 .. n-1`` by default.
    labels : array-like, default=None
        Subset (and order) of ``class_names`` to average over.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"`` (2 classes only).
    average : {"macro", "micro", "weighted", "binary"} or None, default="macro"
        As in ``sklearn.metrics.fbeta_score``; "samples" needs per-sample data and
        is not available from a matrix.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of ill-defined ratios.

    Returns
    -------
    summary : FBetaSummary

    Examples
    --------
    The reference paper's Table 1, in its orientation (rows are predictions):

    >>> from sklearn_macrof1 import fbeta_summary_from_confusion_matrix
    >>> s = fbeta_summary_from_confusion_matrix(
    ...     [[100, 10000], [0, 100]], rows="predicted")
    >>> round(s.fbeta_of_averages, 6), round(s.averaged_fbeta, 6), round(s.gap, 6)
    (0.50495, 0.019608, 0.485343)
    """
    return summary_and_counts_from_confusion_matrix(**locals())[0]


def summary_and_counts_from_confusion_matrix(
    matrix: Any,
    *,
    rows: str,
    beta: float,
    class_names: Any,
    labels: Any,
    pos_label: Any,
    average: Any,
    zero_division: Any,
    caller: str = "fbeta_summary_from_confusion_matrix",
) -> tuple[FBetaSummary, Counts]:
    """:func:`fbeta_summary_from_confusion_matrix` and the counts it read from
    the matrix (which the CLI's report reuses); errors name ``caller``."""
    options = check_options(
        caller=caller,
        average=average,
        beta=beta,
        zero_division=zero_division,
        labels=labels,
        pos_label=pos_label,
    )
    if options.average == "samples":
        raise ValueError(
            "average='samples' needs per-sample predictions and cannot be computed "
            "from a confusion matrix; use 'macro', 'micro', 'weighted', 'binary' or "
            "None."
        )
    counts = counts_from_confusion_matrix(matrix, rows=rows, class_names=class_names)
    summary = build_summary(counts, options, caller=caller, warn_for=ALL_METRICS)
    return summary, counts


def gap_attribution_from_confusion_matrix(
    matrix: Any,
    *,
    rows: str,
    beta: float = 1.0,
    class_names: Any = None,
    labels: Any = None,
    average: str = "macro",
    zero_division: Any = "warn",
) -> GapAttribution:
    """Which class pairs make the two F-beta formulas differ, from a matrix.

    The reference paper's Lemma writes the macro F1 gap (F1 of averages minus
    averaged F1) as a sum of non-negative class-pair terms; this returns that
    table (k x k, summing to the gap), per-class shares and the largest
    contributors, for macro or weighted averaging and any beta (the same
    algebra with class weights; see :class:`GapAttribution`).

    Parameters
    ----------
    matrix : array-like of shape (n_classes, n_classes)
        Counts (ints, or floats for weighted counts).
    rows : {"true", "predicted"}
        Required: what the rows are. "true" is ``sklearn.metrics.confusion_matrix``'s
        orientation, "predicted" the reference paper's. Nothing is guessed.
    beta : float, default=1.0
        Weight of recall against precision.
    class_names : array-like of shape (n_classes,), default=None
        Names of the classes, in the order of the rows; ``0 .. n-1`` by default.
    labels : array-like, default=None
        Subset (and order) of ``class_names`` to average over.
    average : {"macro", "weighted"}, default="macro"
        The per-class mean whose gap is split.
    zero_division : {"warn", 0.0, 1.0}, default="warn"
        Value of ill-defined ratios (``np.nan`` leaves classes out of the means
        and the gap is then no sum over pairs: a ValueError).

    Returns
    -------
    attribution : GapAttribution

    Examples
    --------
    The reference paper's Table 1 (rows are predictions): gap 0.485342651...,
    all of it from the one pair.

    >>> from sklearn_macrof1 import gap_attribution_from_confusion_matrix
    >>> att = gap_attribution_from_confusion_matrix(
    ...     [[100, 10000], [0, 100]], rows="predicted")
    >>> round(att.gap, 9), att.pair_contributions.round(6).tolist()
    (0.485342652, [[0.0, 0.242671], [0.242671, 0.0]])
    >>> att.class_contributions.round(6)
    array([0.242671, 0.242671])
    """
    return summary_and_counts_from_confusion_matrix(
        **locals(), pos_label=1, caller="gap_attribution_from_confusion_matrix"
    )[0].gap_attribution()
