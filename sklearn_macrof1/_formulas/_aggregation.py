"""The aggregation module: every formula of the package lives here, once.

From (weighted) counts to per-class precision, recall and F-beta (with
``zero_division``), to the two averages of the paper:

- averaged F-beta: ``avg_mode(F_i)``, which is ``sklearn.metrics.fbeta_score``;
- F-beta of averages: ``H_beta(avg_mode(P_i), avg_mode(R_i))``, the F-beta of what
  ``precision_score`` and ``recall_score`` return.

``avg_mode`` follows scikit-learn: binary (one class), micro (pool the counts),
macro, weighted (by support), samples (per-sample ratios, weighted by
``sample_weight``) or None (per-class arrays). With ``zero_division=np.nan`` the
undefined entries are left out of the means.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._options import warn_user

#: The metrics a caller may ask to be warned about.
ALL_METRICS = ("precision", "recall", "f-score")

#: Per-sample ``(tp, true, pred, weight)`` of ``average="samples"`` (weight None:
#: unweighted), as :meth:`~._record.SampleCounts.arrays` gives them.
SampleArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]


@dataclass
class Ratios:
    """Per-class (or per-sample) precision, recall and F-beta."""

    precision: np.ndarray
    recall: np.ndarray
    fbeta: np.ndarray
    #: Where precision, recall and F-beta were ill-defined (for the warnings);
    #: None where nothing was.
    undefined: tuple[Any, Any, Any] = field(default=(None, None, None), repr=False)

    @cached_property
    def ill_defined(self) -> tuple[bool, bool, bool]:
        """Whether precision, recall and F-beta are ill-defined anywhere."""
        p, r, f = (u is not None and bool(u.any()) for u in self.undefined)
        return p, r, f

    def take(self, index: Any) -> Ratios:
        """The entries at ``index`` (a slice or an index array), masks included."""
        p, r, f = (None if u is None else u[index] for u in self.undefined)
        taken = (self.precision[index], self.recall[index], self.fbeta[index])
        return Ratios(*taken, (p, r, f))


@dataclass
class Averages:
    """The result of one aggregation.

    ``precision`` and ``recall`` are ``avg_mode(P_i)`` and ``avg_mode(R_i)``;
    ``averaged_fbeta`` is ``avg_mode(F_i)``; ``fbeta_of_averages`` is
    ``H_beta(precision, recall)``. Floats, or per-class arrays when
    ``average=None``. ``per_class`` holds the per-class ratios behind the averages
    (per-sample ratios for ``average="samples"``, the pooled ratio for "micro").
    """

    precision: Any
    recall: Any
    averaged_fbeta: Any
    fbeta_of_averages: Any
    per_class: Ratios


def zero_division_fill(zero_division: Any) -> float:
    """The value an ill-defined ratio takes: 0 for "warn", else the option."""
    return 0.0 if isinstance(zero_division, str) else float(zero_division)


def _divide(
    numerator: np.ndarray,
    denominator: np.ndarray,
    fill: float,
) -> tuple[np.ndarray, np.ndarray | None]:
    """``numerator / denominator`` as float64, ``fill`` where the denominator is 0,
    and the mask of those entries (None when there is none).

    Divides everything (a 0 denominator gives inf or nan, silenced) and then
    overwrites the undefined entries in place: two passes over the arrays, no
    patched copy of the denominator.
    """
    undefined = np.equal(denominator, 0)
    if not undefined.any():
        return np.true_divide(numerator, denominator, dtype=np.float64), None
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.true_divide(numerator, denominator, dtype=np.float64)
    np.copyto(result, fill, where=undefined)
    return result, undefined


def _warn(metric: str, average: str | None, n_values: int) -> None:
    modifier = {
        "precision": "predicted",
        "recall": "true",
        "f-score": "true nor predicted",
    }[metric]
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if n_values == 1 else f"in {axis1}s with"
    warn_user(
        f"{metric.capitalize()} is ill-defined and being set to 0.0 {where} no "
        f"{modifier} {axis0}s. Use `zero_division` parameter to control this "
        "behavior.",
        UndefinedMetricWarning,
    )


def ratios(
    tp: np.ndarray,
    true: np.ndarray,
    pred: np.ndarray,
    *,
    beta: float,
    zero_division: Any,
    average: str | None = "macro",
    warn_for: tuple[str, ...] = (),
    n_values: int | None = None,
) -> Ratios:
    """Precision, recall and F-beta for each entry of the count arrays.

    F-beta is computed from the counts, ``(1+b²) tp / (b² true + pred)``, so that
    it is 0 (not undefined) where only one of precision and recall is undefined,
    exactly as scikit-learn does. ``n_values`` is the number of labels (or
    samples) the entries stand for, which words the warnings (default: the
    number of entries).
    """
    fill = zero_division_fill(zero_division)
    precision, p_undefined = _divide(tp, pred, fill)
    recall, r_undefined = _divide(tp, true, fill)
    f_undefined = None
    if math.isinf(beta):
        fbeta = recall
    elif beta == 0:
        fbeta = precision
    else:
        beta2 = beta * beta
        denominator = beta2 * np.asarray(true, dtype=np.float64) + np.asarray(
            pred, dtype=np.float64
        )
        fbeta, f_undefined = _divide(
            (1 + beta2) * np.asarray(tp, dtype=np.float64), denominator, fill
        )
    r = Ratios(precision, recall, fbeta, (p_undefined, r_undefined, f_undefined))
    if n_values is None:
        n_values = int(np.shape(tp)[0])
    warn_undefined(
        r,
        average=average,
        n_values=n_values,
        warn_for=warn_for,
        zero_division=zero_division,
    )
    return r


def warn_undefined(
    r: Ratios,
    *,
    average: str | None,
    n_values: int,
    warn_for: tuple[str, ...],
    zero_division: Any,
) -> None:
    """scikit-learn's ``UndefinedMetricWarning`` for the ill-defined ratios of
    ``r`` (only with ``zero_division="warn"``), in its order: precision, recall,
    F-score."""
    if zero_division != "warn" or not warn_for:
        return
    for metric, ill_defined in zip(ALL_METRICS, r.ill_defined, strict=True):
        if ill_defined and metric in warn_for:
            _warn(metric, average, n_values)


def nan_average(values: np.ndarray, weights: Any = None) -> Any:
    """Weighted mean over the last axis, leaving nan entries out.

    scikit-learn's ``_nanaverage``, batched: ``values`` (and ``weights``, which
    broadcast to its shape) may hold one row or a stack of rows (bootstrap
    replicates). A row with no defined entry averages to nan; where the weights of
    the defined entries sum to zero the plain mean is taken. Returns a float for
    1-D ``values``, else an array of the leading shape.
    """
    values = np.asarray(values, dtype=np.float64)
    if weights is not None:
        weights = np.asarray(weights, dtype=np.float64)
        if weights.shape != values.shape:
            values, weights = np.broadcast_arrays(values, weights)
    if values.ndim == 1:  # one mean: float arithmetic, few array operations
        total = float(values.sum())
        n_defined = values.shape[0]
        if math.isnan(total):  # one cheap test; mask the nan entries only then
            defined = ~np.isnan(values)
            n_defined = int(defined.sum())
            values = np.where(defined, values, 0.0)
            total = float(values.sum())
            if weights is not None:
                weights = np.where(defined, weights, 0.0)
        if weights is not None:
            weight_sum = float(weights.sum())
            if weight_sum != 0:
                return float(np.multiply(values, weights).sum() / weight_sum)
        return total / n_defined if n_defined else math.nan
    defined = ~np.isnan(values)
    n_defined = defined.sum(axis=-1)
    values = np.where(defined, values, 0.0)
    total = values.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = total / n_defined  # nan for a row without a defined entry
        if weights is not None:
            weights = np.where(defined, weights, 0.0)
            weight_sum = weights.sum(axis=-1)
            weighted = np.multiply(values, weights).sum(axis=-1) / weight_sum
            out = np.where(weight_sum == 0, out, weighted)
    return out


def fbeta_weights(beta: float) -> tuple[float, float]:
    """``(a, b)`` with ``1 / H_beta(P, R) = a / P + b / R`` and ``a + b = 1``.

    ``a = 1 / (1 + beta**2)``: (1, 0) for beta = 0 (F-beta is precision), (0, 1)
    for beta = inf (F-beta is recall), with no special case. The derivatives of
    F-beta (intervals) are written with these weights.
    """
    a = 1.0 / (1.0 + beta * beta)
    return a, 1.0 - a


def harmonic_fbeta(precision: Any, recall: Any, beta: float) -> Any:
    """The weighted harmonic mean ``(1+b²) P R / (b² P + R)``.

    0 where P = R = 0; P for beta = 0; R for beta = inf; nan where P or R is nan.
    Floats in, a float out (plain float arithmetic: a score's last step costs no
    array operations); arrays in, an array out. The same IEEE operations either way.
    """
    if np.ndim(precision) == 0 and np.ndim(recall) == 0:
        p: Any = float(precision)
        r: Any = float(recall)
    else:
        p = np.asarray(precision, dtype=np.float64)
        r = np.asarray(recall, dtype=np.float64)
    if beta == 0:
        return p
    if math.isinf(beta):
        return r
    beta2 = beta * beta
    numerator, denominator = (1 + beta2) * p * r, beta2 * p + r
    # 0 where the denominator is (never where P or R is nan: nan propagates)
    if isinstance(denominator, float):
        return numerator / denominator if denominator != 0 else 0.0
    zero = np.zeros_like(denominator)
    return np.divide(numerator, denominator, out=zero, where=denominator != 0)


#: Largest ``(tp, true, pred)`` code table of :func:`_distinct_triples`.
_MAX_TRIPLE_CELLS = 1 << 18
_MIN_TRIPLE_SAMPLES = 1024


def _distinct_triples(
    tp: np.ndarray, true: np.ndarray, pred: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The distinct ``(tp, true, pred)`` rows of unweighted per-sample counts.

    A sample's precision, recall and F-beta depend only on its triple, so they
    can be computed once per distinct triple and gathered back per sample with
    the last array (each sample's row): the same values, hence the same means to
    the last bit. None when that is not worth it (few samples) or the code table
    would be large (more than 63 labels per sample).
    """
    n = tp.shape[0]
    if n < _MIN_TRIPLE_SAMPLES or true.dtype.kind not in "iu":
        return None
    size = int(max(true.max(), pred.max())) + 1  # tp <= min(true, pred)
    if size**3 > _MAX_TRIPLE_CELLS:
        return None
    code = np.multiply(tp, size, dtype=np.intp)
    code += true
    code *= size
    code += pred
    histogram = np.bincount(code)
    distinct = np.flatnonzero(histogram)
    row = histogram  # reused as the code -> row table
    row[distinct] = np.arange(distinct.shape[0])
    d_tp, rest = np.divmod(distinct, size * size)
    d_true, d_pred = np.divmod(rest, size)
    return d_tp, d_true, d_pred, row[code]


def aggregate(
    tp: np.ndarray,
    true: np.ndarray,
    pred: np.ndarray,
    *,
    average: str | None,
    beta: float,
    zero_division: Any,
    warn_for: tuple[str, ...] = (),
    samples: SampleArrays | None = None,
) -> Averages:
    """Both scores (and the averaged precision and recall) from counts.

    ``tp``, ``true`` and ``pred`` are the counts of the selected classes (one
    class for ``average="binary"``). ``average="samples"`` uses the per-sample
    counts ``samples`` instead (unweighted ones: ratios computed once per
    distinct ``(tp, true, pred)`` triple, see :func:`_distinct_triples`).
    """
    weights: np.ndarray | None = None
    row: np.ndarray | None = None  # each sample's distinct triple
    n_values: int | None = None
    if average == "micro":
        tp, true, pred = (np.sum(a, axis=-1, keepdims=True) for a in (tp, true, pred))
    elif average == "weighted":
        weights = true
    elif average == "samples":
        if samples is None:
            raise ValueError("average='samples' needs per-sample counts")
        tp, true, pred, weights = samples
        grouped = None if weights is not None else _distinct_triples(tp, true, pred)
        if grouped is not None:
            tp, true, pred, row = grouped
            n_values = int(row.shape[0])
    r = ratios(
        tp,
        true,
        pred,
        beta=beta,
        zero_division=zero_division,
        average=average,
        warn_for=warn_for,
        n_values=n_values,
    )
    return _average_ratios(r if row is None else r.take(row), average, weights, beta)


def _average_ratios(
    r: Ratios, average: str | None, weights: np.ndarray | None, beta: float
) -> Averages:
    """The averages of ``average`` from ratios (``weights`` for the means)."""
    if average is None:
        return Averages(
            r.precision,
            r.recall,
            r.fbeta,
            harmonic_fbeta(r.precision, r.recall, beta),
            r,
        )
    precision = nan_average(r.precision, weights)
    recall = nan_average(r.recall, weights)
    return Averages(
        precision,
        recall,
        nan_average(r.fbeta, weights),
        harmonic_fbeta(precision, recall, beta),
        r,
    )


def aggregate_many(
    tp: np.ndarray,
    true: np.ndarray,
    pred: np.ndarray,
    *,
    averages: Sequence[str | None],
    beta: float,
    zero_division: Any,
    warn_for: tuple[str, ...] = (),
    samples: SampleArrays | None = None,
) -> tuple[Ratios, dict[str | None, Averages]]:
    """:func:`aggregate` for several ``averages`` of the same classes at once.

    One :func:`ratios` call gives the per-class ratios (returned first; also the
    per-class figures of the other averages) and, as one more entry, the pooled
    "micro" ratios; None, "macro" and "weighted" average the shared per-class
    ratios. "samples" has per-sample ratios of its own. Each average warns as
    its own :func:`aggregate` call would, in the order given.
    """
    counts = np.stack((tp, true, pred))
    k = counts.shape[1]
    if "micro" in averages:  # one more column: the pooled counts
        counts = np.concatenate((counts, counts.sum(axis=1, keepdims=True)), axis=1)
    both = ratios(*counts, beta=beta, zero_division=zero_division)
    shared, micro = both.take(slice(0, k)), both.take(slice(k, None))
    out: dict[str | None, Averages] = {}
    for average in averages:
        if average == "samples":
            out[average] = aggregate(
                tp,
                true,
                pred,
                average=average,
                beta=beta,
                zero_division=zero_division,
                warn_for=warn_for,
                samples=samples,
            )
            continue
        r = micro if average == "micro" else shared
        warn_undefined(
            r,
            average=average,
            n_values=int(np.shape(r.precision)[0]),
            warn_for=warn_for,
            zero_division=zero_division,
        )
        weights = true if average == "weighted" else None
        out[average] = _average_ratios(r, average, weights, beta)
    return shared, out


def aggregate_rows(
    tp: np.ndarray,
    true: np.ndarray,
    pred: np.ndarray,
    *,
    average: str | None,
    beta: float,
    zero_division: Any,
) -> tuple[Any, Any]:
    """Both scores for each row of ``(n_rows, n_classes)`` count arrays.

    :func:`aggregate` of bootstrap replicates, without warnings: returns
    ``(averaged_fbeta, fbeta_of_averages)``, each of shape ``(n_rows,)``.
    ``average`` is one of "binary", "micro", "macro" or "weighted".
    """
    averages = aggregate(
        tp, true, pred, average=average, beta=beta, zero_division=zero_division
    )
    return averages.averaged_fbeta, np.asarray(averages.fbeta_of_averages)
