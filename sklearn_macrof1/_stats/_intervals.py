"""Confidence intervals for both F-beta scores: delta method and bootstrap.

Both scores are functions of additive totals: the confusion-matrix cells for 1-D
targets, the per-label (tp, true, pred) sums for multilabel targets. Every score
``S`` here is *scale invariant* (homogeneous of degree 0 in the totals), which
the delta method below uses.

**Delta method.** With ``z_i = w_i x_i`` the contribution of sample ``i`` to
the totals (``x_i`` a one-hot cell for 1-D targets, the ``(tp | true | pred)``
indicator row for multilabel targets) and ``g`` the gradient of ``S`` with
respect to the totals, the influence of sample ``i`` is ``u_i = g . z_i`` and
``Var(S) ~= sum u_i**2 - (sum u_i)**2 / n = g' M g - (g' m)**2 / n``, with the
first and second moments ``m = sum z_i`` (the counts) and
``M = sum w_i**2 x_i x_i'`` that the count record carries
(:func:`moment_variance`, the one implementation): per confusion cell the sum of
the squared weights (diagonal M; the cell counts themselves without weights,
the multinomial covariance), the ``3L x 3L`` matrix for multilabel targets. So
the variance costs O(k^2) (or O(L^2)) after the counting pass, wherever the
samples were counted (Dask workers included); above 2048 classes (256 labels)
the record keeps only the occupied cells (entries) of these tables and the
variance costs O(cells + k): ``g' m`` is a sum over the cells, and the
quadratic form ``g' M g`` needs every occupied cell (its cross terms
``dS/dtrue_a dS/dpred_b`` pair the row and the column of each cell, so no
per-class sums of M give it). The gradient is derived in closed form
(:func:`score_gradients`), by the chain rule

    cells N_ab -> (tp_i, true_i, pred_i) -> (P_i, R_i, F_i) -> average -> H_beta,

with ``d/dN_ab = [a == b] d/dtp_a + d/dtrue_a + d/dpred_b``. Ratios whose
denominator is zero (filled by ``zero_division``) are locally constant: their
derivative is 0. For ``average="samples"`` each sample's ratio is fixed and the
score a weighted mean of them, whose influence is ``v_i (X_i - mean) / sum(v)``:
the per-sample rows, or the histogram of distinct per-sample triples with the
sums of the weights and of the squared weights of each, are the moments.
Paired comparisons of 1-D targets use the joint (true, pred_a, pred_b) cells of
each pair (:mod:`~sklearn_macrof1._counting._pairs`), other targets each sample's
influence (``Evaluation.influence``).

**Bootstrap (percentile).** Unweighted 1-D targets: the ``k x k`` cell counts are
redrawn from a multinomial (sequential binomials over the non-empty cells), so
a replicate costs O(k^2), not O(n); above 2048 classes the occupied cells are
redrawn in blocks of replicates, O(cells + k) per replicate and in memory (a
multinomial draw of the n samples over the cells: each sample drawn where the
cells hold few, ``numpy.random.Generator.multinomial`` where they hold many). A
resample of the samples is exactly such a multinomial draw over the cells they
occupy. With ``sample_weight`` and for
multilabel targets: samples are redrawn (each replicate is a vector of
multiplicities ``m_i``; the weights become ``m_i w_i``), costing O(n) per
replicate, in blocks of at most ``_DRAWN`` multiplicities.
Replicates are aggregated by :func:`~._aggregation.aggregate_rows`, the batched
twin of the aggregation every score uses.
"""

from __future__ import annotations

import hashlib
import math
import warnings
from dataclasses import asdict, dataclass, replace
from typing import Any, overload

import numpy as np
import scipy.sparse as sp
from scipy.special import ndtri

from .._averages import CLASS_MEANS, HAS_INTERVAL, ordered, spelled
from .._counting._kernels import table_counts
from .._counting._record import (
    CELLS,
    MOMENTS,
    SAMPLE_COUNTS,
    SAMPLE_ROWS,
    MacroF1Counts,
    Reading,
)
from .._equality import ValueEquality
from .._formulas._aggregation import (
    ALL_METRICS,
    Averages,
    Ratios,
    aggregate_rows,
    fbeta_weights,
    harmonic_fbeta,
    nan_average,
    ratios,
)
from .._formulas._evaluation import (
    Options,
    Selection,
    as_options,
    check_form,
    evaluate,
    read_for,
)
from .._options import METHODS, as_generator, check_options_of, warn_user
from .._present._frame import table_frame
from .._present._intervals import interval_table, method_text
from .._present._table import Table, percent, short
from .._present._views import TableViews
from .._read._encoding import Targets
from .._read._targets import as_bool
from ._progress import Progress

_MULTILABEL = "multilabel-indicator"

#: Resampled rows per block when samples are redrawn (bounds memory to
#: ``_BLOCK * n_samples`` integers) ...
_BLOCK = 64

#: ... and at most this many drawn multiplicities (of samples or of occupied
#: cells) per block: 32 MiB of float64, however many samples or cells.
_DRAWN = 1 << 22

#: The methods that draw at random (``random_state``, ``n_resamples``); the
#: options that take a ``random_state`` are these and those that may resolve
#: to one (:data:`_SEEDED_METHODS`).
_DRAWN_METHODS = ("bootstrap", "posterior")

#: Samples per occupied cell up to which a bootstrap of the cells draws each
#: sample (measured: 2x faster than the binomials at 3 samples per cell).
_PER_CELL = 4


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, eq=False)
class ScoreInterval(ValueEquality):
    """A point estimate with its confidence interval.

    Attributes
    ----------
    estimate : float
        The score on the data (what the score function returns).
    low, high : float
        The interval's bounds, within [0, 1].
    std_error : float
        Estimated standard error (delta method) or standard deviation of the
        bootstrap replicates.
    """

    estimate: float
    low: float
    high: float
    std_error: float

    @property
    def width(self) -> float:
        """``high - low``."""
        return self.high - self.low

    def __contains__(self, value: float) -> bool:
        return bool(self.low <= value <= self.high)

    def __str__(self) -> str:
        return f"{self.estimate:.4f} [{self.low:.4f}, {self.high:.4f}]"

    def __repr__(self) -> str:
        return (
            f"ScoreInterval(estimate={short(self.estimate)}, low={short(self.low)}, "
            f"high={short(self.high)}, std_error={short(self.std_error)})"
        )


@dataclass(frozen=True, eq=False)
class FBetaInterval(ValueEquality, TableViews):
    """Confidence intervals of both F-beta scores of one classifier.

    Returned by :func:`fbeta_confidence_interval` and
    :meth:`FBetaSummary.confidence_interval`.

    Attributes
    ----------
    averaged_fbeta : ScoreInterval
        The arithmetic mean of per-class F-beta (``sklearn.metrics.fbeta_score``).
    fbeta_of_averages : ScoreInterval
        The F-beta of averaged precision and recall.
    average : str
        The averaging mode.
    beta : float
        The F-beta weight.
    confidence : float
        The nominal coverage, e.g. 0.95.
    method : {"delta", "bootstrap", "posterior"}
        How the interval was computed (what ``method="auto"`` resolved to).
    n_samples : int
        Number of samples behind the counts.
    n_resamples : int or None
        Bootstrap replicates or posterior draws (None for the delta method).

    Notes
    -----
    Equal when every attribute is (nan equal to nan), hashable. In a notebook
    the interval shows as a table; :meth:`to_frame` gives it to pandas.

    Examples
    --------
    >>> from sklearn_macrof1 import fbeta_confidence_interval
    >>> y_true = [0, 0, 1, 1, 2, 2, 2, 2] * 25
    >>> y_pred = [0, 1, 1, 1, 2, 0, 2, 2] * 25
    >>> ci = fbeta_confidence_interval(y_true, y_pred)
    >>> ci
    FBetaInterval(average='macro', confidence=0.95, method='posterior', n_samples=200, \
averaged_fbeta=0.7190 [0.6506, 0.7830], fbeta_of_averages=0.7358 [0.6742, 0.7949])
    """

    averaged_fbeta: ScoreInterval
    fbeta_of_averages: ScoreInterval
    average: str
    beta: float
    confidence: float
    method: str
    n_samples: int
    n_resamples: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dictionary (JSON-serialisable)."""
        return asdict(self)

    def __repr__(self) -> str:
        return (
            f"FBetaInterval(average={self.average!r}, confidence={self.confidence:g}, "
            f"method={self.method!r}, n_samples={self.n_samples}, "
            f"averaged_fbeta={self.averaged_fbeta}, "
            f"fbeta_of_averages={self.fbeta_of_averages})"
        )

    @property
    def method_description(self) -> str:
        """The method in words, e.g. "delta method"."""
        return method_text(self.method, self.n_resamples)

    def _view(self) -> tuple[list[Table], list[str]]:
        return [interval_table(self)], []

    def to_frame(self) -> Any:
        """Both intervals as a ``pandas.DataFrame`` (needs pandas).

        One row per score (index ``averaged_fbeta``, ``fbeta_of_averages``);
        columns ``estimate``, ``low``, ``high``, ``std_error``, and the
        ``average``, ``confidence`` and ``method`` they were computed with.

        Examples
        --------
        >>> from sklearn_macrof1 import fbeta_confidence_interval
        >>> y_true = [0, 0, 1, 1, 2, 2, 2, 2] * 25
        >>> y_pred = [0, 1, 1, 1, 2, 0, 2, 2] * 25
        >>> df = fbeta_confidence_interval(y_true, y_pred).to_frame()
        >>> row = df.loc["fbeta_of_averages", ["estimate", "low", "high"]]
        >>> row.astype(float).round(4)
        estimate    0.7358
        low         0.6742
        high        0.7949
        Name: fbeta_of_averages, dtype: float64
        """
        return table_frame([interval_table(self)], caller="FBetaInterval.to_frame")


# ------------------------------------------------------------------- the warning


class CoverageWarning(UserWarning):
    """An interval whose data cannot support its nominal level.

    Raised by :func:`fbeta_confidence_interval`,
    :meth:`FBetaSummary.confidence_interval` and :func:`classification_report`
    (with ``confidence``) when a class of the average has fewer true samples
    in the data than the method needs (5 for ``method="posterior"``, 10 for
    the delta method and the bootstrap): a class absent from
    both ``y_true`` and ``y_pred`` (fixed ``labels``), a class predicted but
    never true, or a rare class. With ``sample_weight`` a class counts its
    effective number of true samples, ``(sum w)**2 / sum w**2`` over their
    weights, which does not depend on the weights' scale. The message names
    those classes and their counts. The interval is still computed; see the
    user guide's page on uncertainty for what it estimates then.

    Examples
    --------
    >>> import warnings
    >>> from sklearn_macrof1 import CoverageWarning, fbeta_confidence_interval
    >>> y_true = [0] * 40 + [1] * 40 + [2] * 3
    >>> y_pred = [0] * 38 + [1] * 2 + [1] * 40 + [2] * 3
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     ci = fbeta_confidence_interval(y_true, y_pred, method="posterior",
    ...                                    random_state=0)
    >>> [w.category.__name__ for w in caught]
    ['CoverageWarning']
    >>> print(caught[0].message)  # doctest: +ELLIPSIS
    The interval may cover less often than its nominal 95%: ...
    """


#: True samples a class of the average needs for the interval to hold its
#: level, by method (the Intervals and comparisons page): the posterior holds
#: 93% where the rarest class expects 5; the delta method and the bootstrap
#: need roughly 10 to 25, and at 10 observed their warning fires in at most
#: 1.7% of the replications where the rarest class expects 20 or more.
MIN_TRUE_SAMPLES = {"posterior": 5, "delta": 10, "bootstrap": 10}


def _listed(names: np.ndarray, values: Any = None, at_most: int = 5) -> str:
    """``'a' (3), 'b' (4)``: the first classes with their counts (or none)."""
    shown = [
        repr(name.item() if isinstance(name, np.generic) else name)
        + ("" if values is None else f" ({float(values[i]):g})")
        for i, name in enumerate(names[:at_most])
    ]
    more = names.shape[0] - at_most
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def coverage_warning(
    selection: Selection,
    options: Options,
    confidence: float,
    *,
    method: str,
    posterior: bool,
    method_name: str = "method",
    labels_advice: str = "pass labels without them",
    true_squares: np.ndarray | None = None,
) -> str | None:
    """The :class:`CoverageWarning` message of an interval of averaged scores
    over ``selection`` (None: the data support the level). Classes of the
    average (``labels``, else the classes counted) with fewer true samples
    than :data:`MIN_TRUE_SAMPLES` gives ``method``: observed counts, or with
    ``true_squares`` (the sums of the squared weights of each counted class's
    true samples, :func:`true_square_sums`) the effective numbers of weighted
    true samples, ``(sum w)**2 / sum w**2`` (Kish's), which do not depend on
    the weights' scale; without them the weighted sums are counted.
    ``posterior``: whether the posterior is defined for these data (unweighted
    1-D targets), and so may be advised; ``method_name``: the caller's name of
    the method argument; ``labels_advice``: how the caller leaves classes out
    of the average (not advised with ``average="binary"``, whose class is
    ``pos_label``)."""
    if options.average not in ("macro", "weighted", "binary"):
        return None
    true = np.asarray(selection.true, dtype=np.float64)
    pred = np.asarray(selection.pred, dtype=np.float64)
    names = np.asarray(selection.labels, dtype=object)
    samples, never_true, weight_zero = "true samples", "never true", ""
    if true_squares is not None:
        index = selection.index
        squares = np.where(index >= 0, true_squares[np.maximum(index, 0)], 0.0)
        true = np.divide(
            true * true, squares, out=np.zeros_like(true), where=squares > 0
        )
        samples = "effective true samples"
        never_true = "never true with a non-zero weight"
        weight_zero = " (or only with weight 0)"
    absent = (true == 0) & (pred == 0)
    never = (true == 0) & (pred != 0)
    needed = MIN_TRUE_SAMPLES[method]
    rare = (true > 0) & (true < needed)
    if not (absent.any() or never.any() or rare.any()):
        return None
    parts = []
    if absent.any():
        parts.append(
            f"{int(absent.sum())} class(es) of labels absent from y_true and "
            f"y_pred{weight_zero}: {_listed(names[absent])}"
        )
    if never.any():
        parts.append(
            f"{int(never.sum())} class(es) predicted but {never_true} (times "
            f"predicted): {_listed(names[never], pred[never])}"
        )
    if rare.any():
        order = np.argsort(true[rare], kind="stable")
        parts.append(
            f"{int(rare.sum())} class(es) with fewer than {needed} "
            f"{samples} ({samples}): "
            f"{_listed(names[rare][order], true[rare][order])}"
        )
    advice = "collect more samples of these classes"
    if options.average != "binary":
        advice += f", or {labels_advice}"
    if method != "posterior" and posterior:
        advice += f"; {method_name}='posterior' holds its level with fewer samples"
    if true_squares is not None:
        samples += (
            " (the squared sum of the weights of its true samples over the sum "
            "of their squares)"
        )
    return (
        f"The interval may cover less often than its nominal "
        f"{percent(confidence)}: every class of the average needs at least "
        f"{needed} {samples} with {method_name}={method!r}, and "
        + "; ".join(parts)
        + f". {advice[0].upper()}{advice[1:]}."
    )


def true_square_sums(
    counts: MacroF1Counts, design: Any = None, row_count: Any = None
) -> np.ndarray | None:
    """The sum of the squared weights of the true samples of each counted
    class, which :func:`coverage_warning` turns into effective numbers of
    samples: from the record's second moments (what the delta method reads:
    the rows of the cells' squared weights of 1-D targets, the diagonal of
    the true entries of multilabel ones), else from the per-sample ``design``
    of the bootstrap when each of its rows is one sample (``row_count`` None).
    None without weights, and where neither is there (a record counted
    without moments, a histogram of samples): the warning then counts the
    weighted sums."""
    if not counts.weighted:
        return None
    k = counts.n_classes
    moments = counts.moments
    if moments is not None:
        if counts.kind == _MULTILABEL:
            return np.asarray(moments.diagonal()[k : 2 * k], dtype=np.float64)
        return np.asarray(moments.sum(axis=1), dtype=np.float64).reshape(-1)
    if design is not None and row_count is None:
        true = design[:, k : 2 * k]
        squares = true.multiply(true) if sp.issparse(true) else true * true
        return np.asarray(squares.sum(axis=0), dtype=np.float64).reshape(-1)
    return None


# ------------------------------------------------------------------- the options


@dataclass(frozen=True)
class Resampling:
    """The interval options of one call, checked by the public function.

    ``method`` may still be "auto" until :func:`resolve` has seen the data.
    ``rng`` is the generator of the bootstrap, or of the posterior given a
    ``random_state``; one generator serves every interval of the call (the
    rows of a report), so a seeded call is reproducible. None for the delta
    method, and for the posterior without a ``random_state``: each of its
    intervals then draws from a generator seeded by the counts it is computed
    from (:func:`counts_seed`). ``verbose`` as in
    :class:`~._progress.Progress`.
    """

    confidence: float
    method: str
    n_resamples: int
    rng: np.random.Generator | None = None
    verbose: int = 0


def resampling_options(
    *,
    confidence: Any,
    method: Any,
    n_resamples: Any,
    random_state: Any,
    method_name: str = "method",
) -> dict[str, Any]:
    """The interval options of a call, as keywords of
    :func:`~sklearn_macrof1._options.check_options_of`: the public function
    checks them with its other options, in its one check. ``method_name`` is
    the option's name (the report's ``interval_method``). ``random_state`` is
    an option of the bootstrap, the posterior and "auto" only: the delta
    method ignores it unchecked."""
    options = {
        "confidence": confidence,
        method_name: method,
        "n_resamples": n_resamples,
    }
    if isinstance(method, str) and method in _SEEDED_METHODS:
        options["random_state"] = random_state
    return options


def resampling_of(
    checked: dict[str, Any], *, method_name: str = "method"
) -> Resampling:
    """The :class:`Resampling` of a call's checked options (those of
    :func:`resampling_options`, and ``verbose``)."""
    method = checked[method_name]
    rng = None
    if method == "bootstrap" or (
        method in _SEEDED_METHODS and checked["random_state"] is not None
    ):
        rng = as_generator(checked["random_state"])
    return Resampling(
        checked["confidence"], method, checked["n_resamples"], rng, checked["verbose"]
    )


def check_interval_average(
    average: str | None, *, caller: str, made_by: str | None = None
) -> None:
    """An interval needs one score per formula: refuse ``average=None``.
    ``made_by``: the function whose ``average`` fixed it (a summary's), which
    the advice names."""
    if average not in HAS_INTERVAL:
        averages = spelled(ordered(HAS_INTERVAL, "macro", "micro", "weighted"))
        advice = f"use {averages}"
        if made_by is not None:
            advice = (
                f"make the summary with {made_by}(y_true, y_pred, average=...) "
                f"set to {averages}"
            )
        raise ValueError(
            f"{caller} needs one score per formula: average=None (per-class "
            f"scores) has no interval here; {advice}."
        )


def check_interval_call(
    caller: str,
    *,
    beta: Any,
    labels: Any,
    pos_label: Any,
    average: Any,
    zero_division: Any,
    confidence: Any,
    method: Any,
    n_resamples: Any,
    random_state: Any,
    verbose: Any,
) -> tuple[Options, Resampling]:
    """The one option check of a public interval function (an interval, a
    comparison): its score options and its resampling, checked together.
    A comparison checks its ``method`` among its own methods first
    (:data:`~sklearn_macrof1._options.COMPARISON_METHODS`)."""
    checked = check_options_of(
        caller,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
        **resampling_options(
            confidence=confidence,
            method=method,
            n_resamples=n_resamples,
            random_state=random_state,
        ),
        verbose=verbose,
    )
    options = as_options(checked)
    check_interval_average(options.average, caller=caller)
    return options, resampling_of(checked)


#: Samples above which ``method="auto"`` is the delta method for unweighted
#: 1-D targets too, where every class of the record has at least
#: :data:`AUTO_DELTA_MIN_TRUE` true samples. The posterior's cost does not
#: fall with n (1000 draws of the occupied cells, some milliseconds per
#: interval at k = 10) while the counting pass's grows; where every class
#: expects 20 true samples or more the delta method holds its level (the
#: coverage tables of the uncertainty page). A report of 10 classes with
#: intervals then costs the delta method's 1.2x the report instead of the
#: posterior's 6x at n = 1e6. With a smaller class (many classes, a long
#: tail, fixed ``labels`` naming an absent class) the posterior stays, at any n.
AUTO_POSTERIOR_MAX_SAMPLES = 100_000

#: The fewest true samples of a class for which ``method="auto"`` leaves the
#: posterior for the delta method above :data:`AUTO_POSTERIOR_MAX_SAMPLES`.
AUTO_DELTA_MIN_TRUE = 20


def resolved_method(
    method: str,
    *,
    weighted: bool,
    multilabel: bool,
    average: str | tuple[str, ...],
    n_samples: float,
    smallest_class: float = math.inf,
) -> str:
    """The method an interval computed with ``method`` uses: "auto" (the
    default) is the Dirichlet posterior for unweighted 1-D targets with every
    average it supports (all but "samples"), which holds its level with small
    classes and has positive width without errors, and the delta method
    elsewhere: ``sample_weight``, multilabel targets, ``average="samples"``,
    where the posterior is not defined, and more than
    :data:`AUTO_POSTERIOR_MAX_SAMPLES` samples whose ``smallest_class`` (the
    fewest true samples of a class) has at least :data:`AUTO_DELTA_MIN_TRUE`,
    where the delta method holds its level. Any other method is itself.
    ``average``: the interval's average, or those of the rows of a report
    that share one method."""
    if method != "auto":
        return method
    averages = (average,) if isinstance(average, str) else average
    if weighted or multilabel or "samples" in averages:
        return "delta"
    if n_samples > AUTO_POSTERIOR_MAX_SAMPLES and smallest_class >= AUTO_DELTA_MIN_TRUE:
        return "delta"
    return "posterior"


def possible_methods(
    method: str, *, weighted: bool, average: str | None = None
) -> frozenset[str]:
    """The methods an interval asked for with ``method`` may use, known
    before the data are read: every answer :func:`resolved_method` can give
    for samples ``weighted`` or not and for ``average`` (None: any), whatever
    the data's kind, size and smallest class turn out to be ("auto": the
    delta method, and the posterior for unweighted samples and averages
    other than "samples"). Any other method is itself."""
    return frozenset(
        resolved_method(
            method,
            weighted=weighted,
            multilabel=multilabel,
            average=each,
            n_samples=size,
            smallest_class=size,
        )
        for multilabel in (False, True)
        for each in (("macro", "samples") if average is None else (average,))
        for size in (0.0, math.inf)
    )


#: The options that take a ``random_state``: the methods that draw at random
#: and those that may resolve to one.
_SEEDED_METHODS = tuple(
    m for m in METHODS if possible_methods(m, weighted=False) & set(_DRAWN_METHODS)
)


def counted_for(
    method: str, *, weighted: bool, average: str | None = None
) -> dict[str, bool]:
    """What the one counting pass of an interval asked for with ``method``
    (not resolved yet: the data are not read) counts besides the class
    counts, as keywords of :func:`~._evaluation.read_for`: what any method
    it may use (:func:`possible_methods`) :func:`requires` of the record for
    ``average`` (None: any, as the rows of a report).
    ``moments``: the second moments of the delta method (which the counting
    skips where they are not read: unweighted 1-D targets, and multilabel
    targets whose samples the call keeps); ``count_cells``: the cells that
    the bootstrap and the posterior redraw (unweighted 1-D targets), counted
    in this pass; ``cells``: the occupied cells of a large confusion matrix
    from data counted where they live. ``weighted``: ``sample_weight`` was
    given."""
    methods = possible_methods(method, weighted=weighted, average=average)
    needed = frozenset().union(
        *(
            requires(m, kind=kind, weighted=weighted, average=average)
            for m in methods
            for kind in ("multiclass", _MULTILABEL)
        )
    )
    redrawn = frozenset().union(
        *(
            requires(m, kind="multiclass", weighted=weighted, average=average)
            for m in methods & set(_DRAWN_METHODS)
        )
    )
    return {
        "moments": MOMENTS in needed,
        "count_cells": CELLS in redrawn,
        "cells": True,
    }


def resolve(
    resampling: Resampling,
    counts: MacroF1Counts,
    average: str | tuple[str, ...],
    *,
    labels: Any = None,
    pos_label: Any = 1,
) -> Resampling:
    """``resampling`` with its method resolved (:func:`resolved_method`) for
    the intervals of ``average`` of ``counts`` (``labels``: the classes
    averaged, when fixed; ``average="binary"`` averages ``pos_label``'s
    only)."""
    if resampling.method != "auto":
        return resampling
    multilabel = counts.kind == _MULTILABEL
    averaged = [pos_label] if average == "binary" else labels
    method = resolved_method(
        resampling.method,
        weighted=counts.weighted,
        multilabel=multilabel,
        average=average,
        # 1-D targets: every sample has one true class
        n_samples=0.0 if multilabel else float(np.sum(counts.true)),
        smallest_class=0.0 if multilabel else _smallest_class(counts, averaged),
    )
    return replace(resampling, method=method)


def _smallest_class(counts: MacroF1Counts, labels: Any) -> float:
    """The fewest true samples of a class of the average: of ``labels`` when
    fixed (0 for a label the record never saw), else of the record's
    classes."""
    true = np.asarray(counts.true)
    if labels is not None:
        wanted = np.asarray(labels)
        present = np.isin(counts.classes, wanted)
        if int(present.sum()) < np.unique(wanted).shape[0]:
            return 0.0
        true = true[present]
    return float(true.min()) if true.size else 0.0


def counts_seed(evaluation: Evaluation) -> list[int]:
    """The seed of the posterior's draws without a ``random_state``: a hash of
    the occupied cells of the confusion matrix (their counts, in the
    matrix's order, which is the order they are drawn in) and of the true,
    predicted and correct totals of the classes of the average. The same
    data give the same draws wherever they were counted (arrays, records,
    streams, Dask, Spark) and on every call."""
    digest = hashlib.blake2b(digest_size=16)
    _, _, values = occupied_cells(evaluation.counts.confusion)
    selection = evaluation.selection
    for part in (values, selection.tp, selection.true, selection.pred):
        data = np.ascontiguousarray(part, dtype=np.float64)
        digest.update(np.int64(data.shape[0]).tobytes())
        digest.update(data.tobytes())
    return [int(x) for x in np.frombuffer(digest.digest(), dtype=np.uint32)]


# ------------------------------------------------------------------ delta variance
def moment_variance(
    coefficients: np.ndarray, first: np.ndarray, second: np.ndarray, n_samples: int
) -> np.ndarray:
    """Variance of a sum of per-sample terms from their first and second moments.

    Sample ``i`` adds ``w_i x_i`` to the totals (``x_i``: a 0/1 row over d
    entries, ``w_i`` its weight); a linear functional with ``coefficients`` c
    (shape ``(s, d)``, s functionals at once) gives it the term
    ``u_i = w_i c . x_i``, and the empirical variance of the sum is

        sum_i u_i**2 - (sum_i u_i)**2 / n  =  c' M c - (c' m)**2 / n

    with ``m = sum_i w_i x_i`` (``first``, shape ``(d,)``) and
    ``M = sum_i w_i**2 x_i x_i'`` (``second``: shape ``(d, d)``, dense or
    sparse, or ``(d,)`` when each sample has exactly one entry, as a confusion
    cell or a histogram row, M then being diagonal). Returns the s variances,
    floored at 0 (rounding may make a zero variance slightly negative).
    """
    c = np.atleast_2d(np.asarray(coefficients, dtype=np.float64))
    if sp.issparse(second):  # occupied entries only: O(entries + s d)
        quadratic = np.einsum("sd,sd->s", np.asarray(second @ c.T).T, c)
    elif second.ndim == 2:
        quadratic = np.einsum("sd,de,se->s", c, second, c)
    else:
        quadratic = (c * c) @ np.asarray(second, dtype=np.float64)
    linear = c @ np.asarray(first, dtype=np.float64)
    out: np.ndarray = np.maximum(quadratic - linear * linear / n_samples, 0.0)
    return out


# ------------------------------------------------------------------------- gradients


def _reciprocal(x: np.ndarray) -> np.ndarray:
    safe = np.where(x == 0, 1.0, x)
    return np.where(x == 0, 0.0, 1.0 / safe)


def _ratio_gradients(
    tp: np.ndarray, true: np.ndarray, pred: np.ndarray, values: Ratios, beta: float
) -> np.ndarray:
    """Partial derivatives of P_i, R_i and F_i in (tp_i, true_i, pred_i).

    Shape ``(3, 3, k)``: ratio (P, R, F) x count (tp, true, pred) x class.
    ``P = tp/pred``: (1/pred, 0, -P/pred); ``R = tp/true``: (1/true, -R/true, 0);
    ``F = tp / D`` with ``D = a pred + b true`` (``a, b`` of
    :func:`~sklearn_macrof1._formulas._aggregation.fbeta_weights`, so P at beta = 0
    and R at inf): (1/D, -b F/D, -a F/D). Zero where the denominator is zero
    (the ratio is the constant ``zero_division`` there). ``values`` are the
    ratios from the aggregation.
    """
    a, b = fbeta_weights(beta)
    ratio = np.array((values.precision, values.recall, values.fbeta))
    inverse = _reciprocal(np.array((pred, true, a * pred + b * true)))
    scaled = np.where(np.isnan(ratio), 0.0, ratio) * inverse
    per_true = np.array([[0.0], [1.0], [b]])  # D's coefficient of true
    per_pred = np.array([[1.0], [0.0], [a]])  # and of pred
    out = np.empty((3, 3, inverse.shape[1]))
    out[:, 0], out[:, 1], out[:, 2] = inverse, -per_true * scaled, -per_pred * scaled
    return out


def _mean_gradients(
    values: np.ndarray, grads: np.ndarray, true: np.ndarray, weighted: bool
) -> np.ndarray:
    """Gradients of the nan-aware (support-weighted) means of each row of
    ``values`` (``(3, k)``), from the rows' gradients ``grads`` (``(3, 3, k)``)."""
    defined = ~np.isnan(values)
    m = defined.sum(axis=1, keepdims=True)
    scale = defined / np.maximum(m, 1)  # the plain mean (0 without an entry)
    if not weighted:
        return grads * scale[:, None, :]
    w = np.where(defined, true, 0.0)
    total = w.sum(axis=1, keepdims=True)
    use = total != 0  # else the plain mean, as the aggregation takes it
    total = np.where(use, total, 1.0)
    out = grads * np.where(use, w / total, scale)[:, None, :]
    # the weights are the supports: d mean / d true_i also moves them
    mean = nan_average(values, true)[:, None]
    out[:, 1, :] += np.where(use & defined, (values - mean) / total, 0.0)
    return out


def _harmonic_partials(
    precision: float, recall: float, beta: float
) -> tuple[float, float]:
    """(dH/dP, dH/dR) of ``H = (1+b²) P R / (b² P + R) = P R / (a R + b P)``.

    ``(a (R/D)², b (P/D)²)`` with ``D = a R + b P`` (``a, b`` of
    :func:`~sklearn_macrof1._formulas._aggregation.fbeta_weights`). Where D is 0 or
    nan: (a, b) at beta = 0 or inf (H is then P or R itself), else (0, 0).
    """
    a, b = fbeta_weights(beta)
    den = a * recall + b * precision
    if not den or math.isnan(den):
        return (a, b) if a * b == 0 else (0.0, 0.0)
    return a * (recall / den) ** 2, b * (precision / den) ** 2


def score_gradients(
    selection: Selection, averages: Averages, options: Options
) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form gradients of (averaged F-beta, F-beta of averages).

    Each is a ``(3, k)`` array: the derivatives with respect to the counts
    ``tp``, ``true`` and ``pred`` of the k selected classes (``selection``), at
    the point the aggregation evaluated (``averages``). ``average`` is "binary",
    "micro", "macro" or "weighted".
    """
    tp = np.asarray(selection.tp, dtype=np.float64)
    true = np.asarray(selection.true, dtype=np.float64)
    pred = np.asarray(selection.pred, dtype=np.float64)
    average, beta = options.average, options.beta
    k = tp.shape[0]
    if average == "micro":  # one pooled class; every class feeds it
        tp, true, pred = (np.atleast_1d(a.sum()) for a in (tp, true, pred))
    per_class = averages.per_class
    values = np.array((per_class.precision, per_class.recall, per_class.fbeta))
    means = _mean_gradients(
        values,
        _ratio_gradients(tp, true, pred, per_class, beta),
        true,
        average == "weighted",
    )
    h_p, h_r = _harmonic_partials(averages.precision, averages.recall, beta)
    g_fbar, g_foa = means[2], h_p * means[0] + h_r * means[1]
    if average == "micro":
        g_fbar, g_foa = np.repeat(g_fbar, k, axis=1), np.repeat(g_foa, k, axis=1)
    return g_fbar, g_foa


def _scatter(grad: np.ndarray, index: np.ndarray, k: int) -> np.ndarray:
    """A ``(3, k')`` gradient over the selected classes as one over the ``k``
    counted classes (``index``: each selected class's position, -1 if absent)."""
    if index.shape[0] == k and (index == np.arange(k)).all():
        return grad  # every counted class, in order (labels=None)
    out = np.zeros((3, k))
    keep = index >= 0
    for row in range(3):  # labels may repeat a class: add, do not assign
        np.add.at(out[row], index[keep], grad[row, keep])
    return out


def _mean_coefficients(
    values: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(c, v)``: row ``t``'s influence on the nan-aware weighted mean of
    ``values`` is ``v_t c_t``; ``v`` is ``weights``, or ones where the weights
    of the defined entries sum to zero (the mean is then the plain mean)."""
    defined = ~np.isnan(values)
    mean = nan_average(values, weights)  # the plain mean in that case too
    total = np.where(defined, weights, 0.0).sum()
    if total == 0:
        weights = np.ones_like(weights)
        total = defined.sum()
    if total == 0:
        return np.zeros_like(values), weights
    return np.where(defined, values - mean, 0.0) / total, weights


def _mean_influence(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per-sample influence on the nan-aware weighted mean of ``values``."""
    c, v = _mean_coefficients(values, weights)
    return v * c


# -------------------------------------------------------------------- the evaluation


_NO_MOMENTS = (
    "The delta method needs the second moments of the weighted counts, which "
    "this count record does not carry (records counted without them, or merged "
    "with such a record); count the samples again asking for an interval."
)


def _counted(moments: Any) -> Any:
    """The record's second moments (ValueError when it has none)."""
    if moments is None:
        raise ValueError(_NO_MOMENTS)
    if sp.issparse(moments):
        return moments.astype(np.float64)
    return np.asarray(moments, dtype=np.float64)


@dataclass
class Evaluation:
    """One classifier's counts, scores and what resampling needs.

    ``design`` (n_samples x 3k, possibly sparse) holds each sample's weighted
    contribution to the (tp, true, pred) totals of every counted class; None
    when the record suffices: its confusion matrix (unweighted 1-D targets,
    and the bootstrap of their cells), its second moments (the delta method).
    ``sample_weight`` (for ``average="samples"``) are the weights of the mean
    over samples (ones when the user gave none). ``row_count``: None when each
    row of the per-sample counts is one sample; for a histogram of distinct
    per-sample triples (counts made where the data live), the number of
    unweighted samples of each row (``sample_weight`` are then the rows'
    weight sums with weights, else ones). ``weighted``: a ``sample_weight``
    was given.
    """

    counts: MacroF1Counts
    options: Options
    selection: Selection
    averages: Averages
    n_samples: int
    design: Any = None
    sample_weight: np.ndarray | None = None
    row_count: np.ndarray | None = None
    weighted: bool = False

    @property
    def index(self) -> np.ndarray:
        """Each selected label's position in the counted classes (-1: absent)."""
        return self.selection.index

    @property
    def estimates(self) -> tuple[float, float]:
        return float(self.averages.averaged_fbeta), float(
            self.averages.fbeta_of_averages
        )

    # ---- delta method
    def influence(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-sample influence ``u_i`` of each score (needs ``design``)."""
        if self.options.average == "samples":
            per = self.averages.per_class
            w = self.sample_weight
            assert w is not None  # set for average="samples"
            if self.row_count is not None:  # a row's influence: its samples'
                w = w * self.row_count
            u_p = _mean_influence(per.precision, w)
            u_r = _mean_influence(per.recall, w)
            h_p, h_r = _harmonic_partials(
                self.averages.precision, self.averages.recall, self.options.beta
            )
            return _mean_influence(per.fbeta, w), h_p * u_p + h_r * u_r
        g_avg, g_foa = self._count_gradients().reshape(2, -1)
        return (
            np.asarray(self.design @ g_avg).reshape(-1),
            np.asarray(self.design @ g_foa).reshape(-1),
        )

    def _count_gradients(self) -> np.ndarray:
        """``(2, 3, k)``: the gradient of each score with respect to the (tp,
        true, pred) counts of every counted class."""
        k = self.counts.n_classes
        return np.array(  # (score, tp/true/pred, class)
            [
                _scatter(grad, self.index, k)
                for grad in score_gradients(self.selection, self.averages, self.options)
            ]
        )

    def cell_gradients(self) -> np.ndarray:
        """``(2, k, k)``: the gradient of each score with respect to each cell
        ``N_ab`` (true class a, predicted b) of the counted classes (1-D)."""
        k = self.counts.n_classes
        g = self._count_gradients()
        # d S / d N_ab = [a == b] dS/dtp_a + dS/dtrue_a + dS/dpred_b
        cell_grad = g[:, 1, :, None] + g[:, 2, None, :]
        cell_grad[:, np.arange(k), np.arange(k)] += g[:, 0]
        return cell_grad

    def cell_gradients_at(self, true: np.ndarray, pred: np.ndarray) -> np.ndarray:
        """``(2, m)``: :meth:`cell_gradients` at the cells ``(true[i], pred[i])``
        only (positions of counted classes), without the ``k x k`` tables."""
        g = self._count_gradients()
        out = g[:, 1, true] + g[:, 2, pred]
        same = np.flatnonzero(true == pred)
        out[:, same] += g[:, 0, true[same]]
        return out

    def variances(self) -> tuple[float, float]:
        """Delta-method variances of (averaged F-beta, F-beta of averages).

        From the record's first and second moments (:func:`moment_variance`);
        from each sample's influence only where the record has no moments
        (a design was built instead).
        """
        n = self.n_samples
        if self.options.average == "samples":
            coefficients, first, second = self._samples_moments()
        elif self.design is not None:  # each sample its own term, weight 1
            coefficients = np.array(self.influence())
            first = second = np.ones(coefficients.shape[1])
        else:
            counts = self.counts
            if counts.kind == "multilabel-indicator":
                coefficients = self._count_gradients().reshape(2, -1)
                first = np.concatenate([counts.tp, counts.true, counts.pred])
                second = _counted(counts.moments)
            elif sp.issparse(counts.confusion):
                coefficients, first, second = self._cell_moments()
            else:
                coefficients = self.cell_gradients().reshape(2, -1)
                first = np.asarray(counts.confusion).reshape(-1)
                # without weights, each cell's squared weights are its count
                second = _counted(counts.moments if self.weighted else first)
                second = second.reshape(-1)
        var_avg, var_foa = moment_variance(coefficients, first, second, n).tolist()
        return var_avg, var_foa

    def _cell_moments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Coefficients (both scores) and first and second moments at the
        occupied cells of a record that keeps them (1-D, above 2048 classes):
        O(cells + k), no ``k x k`` table. The cells are those of the second
        moments, which hold every cell with a non-zero count (a cell whose
        squared weights sum to 0 has only weights 0)."""
        confusion = self.counts.confusion
        table = confusion if not self.weighted else _counted(self.counts.moments)
        cells = sp.coo_array(table)
        coefficients = self.cell_gradients_at(cells.row, cells.col)
        second = np.asarray(cells.data, dtype=np.float64)
        if table is confusion:  # unweighted: each cell's count is its own
            return coefficients, second, second
        first = sp.csr_array(confusion)[cells.row, cells.col]
        return coefficients, np.asarray(first, dtype=np.float64).reshape(-1), second

    def _samples_moments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Coefficients (both scores) and the rows' first and second moments
        of ``average="samples"``: a sample of weight w on row t has the
        influence ``w c_t``."""
        per = self.averages.per_class
        samples = self.counts._samples
        assert samples is not None and self.sample_weight is not None
        if self.row_count is None:  # one row per sample
            first = self.sample_weight
            second = first * first
        elif self.weighted:
            found = samples.moments()
            if found is None:
                raise ValueError(_NO_MOMENTS)
            first, second = found
        else:  # each of the row's samples has weight 1
            first = second = self.row_count
        rows = [
            _mean_coefficients(v, first) for v in (per.precision, per.recall, per.fbeta)
        ]
        if any(v is not first for _, v in rows):
            # the weights of the defined samples sum to zero (negative
            # weights): the plain mean's influence, each sample its own term
            if self.row_count is not None:
                raise ValueError(
                    "The delta method for average='samples' cannot use these "
                    "weights: the weights of the samples with a defined ratio "
                    "sum to zero."
                )
            u = np.array(self.influence())
            ones = np.ones(u.shape[1])
            return u, ones, ones
        h_p, h_r = _harmonic_partials(
            self.averages.precision, self.averages.recall, self.options.beta
        )
        (c_p, _), (c_r, _), (c_f, _) = rows
        return np.array([c_f, h_p * c_p + h_r * c_r]), first, second

    # ---- bootstrap
    def _scores_of_totals(self, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Both scores for rows of (tp, true, pred) totals, shape (B, 3, k)."""
        index = self.index
        keep = (index >= 0)[None, :]
        parts = [
            np.where(keep, totals[:, j, np.maximum(index, 0)], 0.0) for j in range(3)
        ]
        if (
            self.options.labels is None
            and self.options.average in CLASS_MEANS
            and self.counts.kind != "multilabel-indicator"
        ):
            # as the scores do with labels=None, a class absent from both
            # y_true and y_pred of a resample is not averaged over (nan counts
            # are left out of every mean)
            absent = (parts[1] == 0) & (parts[2] == 0)
            if absent.any():
                parts = [np.where(absent, np.nan, part) for part in parts]
        return aggregate_rows(
            *parts,
            average=self.options.average,
            beta=self.options.beta,
            zero_division=self.options.zero_division,
        )

    def replicates_from_multiplicities(
        self, multiplicity: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Scores when sample ``i`` is drawn ``multiplicity[b, i]`` times."""
        if self.options.average == "samples":
            per = self.averages.per_class
            assert self.sample_weight is not None  # set for average="samples"
            w = multiplicity * self.sample_weight[None, :]
            precision = nan_average(per.precision, w)
            recall = nan_average(per.recall, w)
            averaged = nan_average(per.fbeta, w)
            return averaged, np.asarray(
                harmonic_fbeta(precision, recall, self.options.beta)
            )
        design = self.design
        if sp.issparse(design):
            totals = np.asarray((design.T @ multiplicity.T).T)
        else:
            totals = multiplicity @ design
        k = self.counts.n_classes
        return self._scores_of_totals(totals.reshape(-1, 3, k))


def draw_cells(
    rng: np.random.Generator, cells: np.ndarray, n_resamples: int
) -> np.ndarray:
    """``n_resamples`` multinomial redraws of the samples counted in ``cells``
    (sequential binomials over the nonzero cells), shape ``(n_resamples,
    len(cells))``: a bootstrap of unweighted samples that costs O(cells)."""
    n = int(round(float(cells.sum())))
    nonzero = np.flatnonzero(cells)
    probs = cells[nonzero] / cells.sum()
    drawn = np.zeros((n_resamples, cells.shape[0]))
    remaining = np.full(n_resamples, n, dtype=np.int64)
    rest = 1.0
    for j, cell in enumerate(nonzero[:-1]):
        chance = min(max(probs[j] / rest, 0.0), 1.0) if rest > 0 else 1.0
        x = rng.binomial(remaining, chance)
        drawn[:, cell] = x
        remaining -= x
        rest -= probs[j]
    if nonzero.shape[0]:
        drawn[:, nonzero[-1]] = remaining
    return drawn


def draw_multiplicities(
    rng: np.random.Generator, n_samples: int, n_rows: int
) -> np.ndarray:
    """``n_rows`` bootstrap resamples of ``n_samples`` samples, as multiplicities."""
    idx = rng.integers(0, n_samples, size=(n_rows, n_samples))
    idx += (np.arange(n_rows) * n_samples)[:, None]
    return (
        np.bincount(idx.reshape(-1), minlength=n_rows * n_samples)
        .reshape(n_rows, n_samples)
        .astype(np.float64)
    )


def _design_1d(
    targets: Targets, counts: MacroF1Counts, weights: np.ndarray | None
) -> sp.csr_matrix:
    k_codes = targets.code_labels.shape[0]
    present = np.zeros(k_codes, dtype=bool)
    present[targets.true] = True
    present[targets.pred] = True
    position = np.cumsum(present) - 1
    k = counts.n_classes
    if int(present.sum()) != k:  # pragma: no cover - guarded by the counting core
        raise RuntimeError("class encoding does not match the counts")
    return one_hot_design(position[targets.true], position[targets.pred], k, weights)


def one_hot_design(
    t: np.ndarray, p: np.ndarray, k: int, weights: np.ndarray | None = None
) -> sp.csr_matrix:
    """``(m, 3k)``: what row ``i`` (true class ``t[i]``, predicted ``p[i]``, of
    weight ``weights[i]``, 1 by default) adds to the (tp, true, pred) totals."""
    m = t.shape[0]
    w = np.ones(m) if weights is None else weights
    hit = t == p
    rows = np.concatenate([np.flatnonzero(hit), np.arange(m), np.arange(m)])
    cols = np.concatenate([t[hit], k + t, 2 * k + p])
    data = np.concatenate([w[hit], w, w])
    return sp.csr_matrix((data, (rows, cols)), shape=(m, 3 * k))


def _design_multilabel(targets: Targets, weights: np.ndarray | None) -> Any:
    true, pred = targets.true, targets.pred
    if sp.issparse(true):
        true, pred = as_bool(true), as_bool(pred)  # stored values are labels
        both = true.multiply(pred)
        design = sp.hstack([both, true, pred], format="csr").astype(np.float64)
        if weights is not None:
            design = sp.diags(weights) @ design
        return sp.csr_matrix(design)
    design = np.hstack([true & pred, true, pred]).astype(np.float64)
    if weights is not None:
        design *= weights[:, None]
    return design


#: What each interval method reads, by target: (unweighted 1-D, weighted
#: 1-D, multilabel), for averages other than "samples". The delta method reads
#: the confusion matrix (its own second moment without weights) and the
#: second moments; the bootstrap and the posterior redraw the cells of
#: unweighted 1-D targets, else every sample (the posterior is refused there).
_READS: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    "delta": (
        frozenset({CELLS}),
        frozenset({CELLS, MOMENTS}),
        frozenset({MOMENTS}),
    ),
    "bootstrap": (
        frozenset({CELLS}),
        frozenset({SAMPLE_ROWS}),
        frozenset({SAMPLE_ROWS}),
    ),
    "posterior": (
        frozenset({CELLS}),
        frozenset({SAMPLE_ROWS}),
        frozenset({SAMPLE_ROWS}),
    ),
}


def requires(
    method: str | None, *, kind: str, weighted: bool, average: str | None = None
) -> frozenset[str]:
    """What an interval by the (resolved) ``method`` reads for ``average``:
    what a count record holds (``MacroF1Counts._provides``) or
    :data:`SAMPLE_ROWS`, which only the targets a reading keeps give.
    ``method`` None: either the delta method or a resampling may follow.
    ``average="samples"`` (multilabel targets) reads the per-sample counts,
    and each sample's weight for a resampling with ``sample_weight``."""
    if method is None:
        return requires("delta", kind=kind, weighted=weighted, average=average) | (
            requires("bootstrap", kind=kind, weighted=weighted, average=average)
        )
    if kind == _MULTILABEL and average == "samples":
        return frozenset(
            {SAMPLE_ROWS if weighted and method != "delta" else SAMPLE_COUNTS}
        )
    return _READS[method][2 if kind == _MULTILABEL else int(weighted)]


def needs_design(
    reading: Reading, options: Options, *, per_sample: bool, method: str | None = None
) -> bool:
    """Whether the per-sample design is needed (else the counts suffice):
    the interval :func:`requires` what the record does not hold, or a paired
    comparison (``per_sample``) needs each sample's contribution.
    ``average="samples"`` needs only the per-sample counts (kept per sample
    when the targets are). ``method`` None: either method may follow.
    """
    if options.average == "samples":
        return False
    counts = reading.counts
    needed = requires(method, kind=counts.kind, weighted=reading.weighted)
    return per_sample or not needed <= counts._provides


def design_of(reading: Reading, *, method: str | None = None) -> Any:
    """The per-sample design of a reading: ``(n_samples, 3k)``, tp | true | pred.

    Built from the one prepared reading of the targets; Dask collections are
    never gathered for it: the options that would need it are refused, saying
    why.
    """
    targets = reading.targets
    counts = reading.counts
    if SAMPLE_ROWS not in reading._provides:
        raise _elsewhere_refusal(reading, method)
    assert targets is not None
    if counts.kind == _MULTILABEL:
        return _design_multilabel(targets, reading.weights)
    return _design_1d(targets, counts, reading.weights)


def report_designs(
    reading: Reading, options: Options, averages: list[str], method: str
) -> dict[str, bool]:
    """Which of a report's averaged rows need the per-sample design (else the
    record suffices), asked once per row for the whole report. Refuses,
    before any row is evaluated, a report whose data were counted where they
    live and whose rows need every sample."""
    needs = {
        average: needs_design(
            reading, replace(options, average=average), per_sample=False, method=method
        )
        for average in averages
    }
    if SAMPLE_ROWS not in reading._provides and any(needs.values()):
        raise _elsewhere_refusal(reading, method)
    return needs


def _elsewhere_refusal(reading: Reading, method: str | None) -> ValueError:
    return ValueError(
        "Intervals and comparisons of Dask collections (and of device arrays) "
        "are computed from the counts made where the data live: the confusion "
        "matrix (1-D targets; its occupied cells above 2048 classes), the "
        "per-sample histogram "
        "(average='samples') and, for the delta method, the second moments "
        "of the weighted or multilabel counts, one classifier at a time; "
        f"{_dask_refusal(reading, method)} would need every "
        "sample in this process, and Dask collections (device arrays) are "
        "never gathered (moved to the host). Compute the arrays yourself (e.g. "
        "y.compute(), or y.cpu()) if they fit in memory."
    )


def _dask_refusal(reading: Reading, method: str | None) -> str:
    """What a reading without targets lacks for ``method``: what the interval
    :func:`requires` that the record does not hold."""
    counts = reading.counts
    needed = requires(method, kind=counts.kind, weighted=reading.weighted)
    if counts.kind != _MULTILABEL and CELLS not in counts._provides:
        return "counts of more than 2048 classes without their confusion matrix"
    if SAMPLE_ROWS in needed:
        what = "sample_weight" if reading.weighted else "multilabel targets"
        return (
            f"the bootstrap with {what} (it redraws every sample; "
            "method='delta' gives this interval from the counts made on the "
            "workers)"
        )
    return "the delta method without the second moments of the counts"


def posterior_refusal(
    counts: MacroF1Counts,
    averages: Any,
    *,
    caller: str,
    method_name: str = "method",
    alternatives: tuple[str, ...] = ("delta", "bootstrap"),
    from_samples: str | None = None,
) -> None:
    """Refuse the posterior where it is not defined (it draws the cells of the
    confusion matrix of unweighted 1-D targets, averages other than
    "samples"), for the intervals of ``averages`` of the samples ``counts``
    counted. ``alternatives``: the methods the refusal
    advises (those a record can give); none: ``from_samples``, the function
    that computes the interval from the predictions."""
    why = None
    if counts.kind == _MULTILABEL:
        why = "multilabel targets"
    elif counts.weighted:
        why = "sample_weight"
    elif "samples" in averages:
        why = "average='samples'"
    if why is None:
        return
    advice = "use " + " or ".join(f"{method_name}={m!r}" for m in alternatives)
    if not alternatives:
        advice = (
            "compute the interval from the predictions with "
            f"{from_samples or caller}(y_true, y_pred, ..., {method_name}='delta')"
        )
    raise ValueError(
        f"{caller}: {method_name}='posterior' draws the cells of the "
        "confusion matrix of unweighted 1-D targets, and is not defined "
        f"with {why}; {advice}."
    )


def posterior_defined(counts: MacroF1Counts) -> bool:
    """Whether the posterior is defined for the samples of ``counts``:
    unweighted 1-D targets."""
    return counts.kind != _MULTILABEL and not counts.weighted


def evaluation_from(
    reading: Reading,
    options: Options,
    *,
    caller: str,
    per_sample: bool = False,
    warn_for: tuple[str, ...] = ALL_METRICS,
    design: Any = None,
    evaluated: tuple[Selection, Averages] | None = None,
    method: str | None = None,
    per_sample_rows: bool | None = None,
    method_name: str = "method",
) -> Evaluation:
    """Evaluate one reading for one average; add what ``method`` needs.

    Nothing is read or counted again: the scores come from ``reading.counts``
    (or ``evaluated``, the selection and averages the caller aggregated
    already), the per-sample design (:func:`design_of`, or ``design`` when the
    caller has built it already) from the reading's targets, and only when
    :func:`needs_design` says so (or ``per_sample_rows``, when the caller
    has asked it already). ``method`` ("delta", "bootstrap", or None for
    either) is the interval that follows; ``method_name`` the caller's name
    of it, for a refusal.
    """
    counts = reading.counts
    if evaluated is None:
        evaluated = evaluate(counts, options, warn_for=warn_for, caller=caller)
    if method == "posterior":
        posterior_refusal(
            counts, (str(options.average),), caller=caller, method_name=method_name
        )
    selection, averages = evaluated
    weight = row_count = None
    if options.average == "samples":
        samples = counts._samples
        assert samples is not None  # counted samplewise for this average
        n = int(samples.tp.shape[0])
        weight = np.ones(n) if samples.weight is None else samples.weight
        if samples.count is not None:  # a histogram of the per-sample triples
            needed = requires(
                method, kind=counts.kind, weighted=reading.weighted, average="samples"
            )
            if SAMPLE_ROWS in needed:  # each sample's weight: not in a histogram
                raise ValueError(
                    "The bootstrap of average='samples' with sample_weight for "
                    "Dask collections (or device arrays) needs each sample's "
                    "weight, which the counts made where the data live keep "
                    "only summed per distinct (tp, true, pred) triple; such "
                    "data are never gathered. Use method='delta' (computed from "
                    "those sums), or compute the arrays yourself (e.g. "
                    "y.compute(), or y.cpu()) if they fit in memory."
                )
            # row t stands for count[t] samples (of weight 1 without weights)
            row_count = samples.count.astype(np.float64)
            if not reading.weighted:
                weight = np.ones(n)
            n = int(samples.count.sum())
            per_row = ratios(
                samples.tp,
                samples.true,
                samples.pred,
                beta=options.beta,
                zero_division=options.zero_division,
            )
            averages = replace(averages, per_class=per_row)
    elif (
        per_sample_rows
        if per_sample_rows is not None
        else needs_design(reading, options, per_sample=per_sample, method=method)
    ):
        if design is None:
            design = design_of(reading, method=method)
        n = int(design.shape[0])
    else:
        design = None  # the record suffices
        n = -1  # unknown: never equal to a number of per-sample rows
        if counts.n_samples is not None:
            n = counts.n_samples
        elif counts.confusion is not None:  # a confusion matrix: unweighted counts
            n = int(round(float(counts.confusion.sum())))
    return Evaluation(
        counts,
        options,
        selection,
        averages,
        n,
        design,
        weight,
        row_count,
        reading.weighted,
    )


# ---------------------------------------------------------------------- the intervals


def _z(confidence: float) -> float:
    return float(ndtri(0.5 + confidence / 2))


def _score_interval(
    estimate: float, low: float, high: float, std_error: float
) -> ScoreInterval:
    """The :class:`ScoreInterval` of a score with bounds ``low`` and ``high``
    clipped to [0, 1], where every score lies: a bound of the delta method may
    pass them, and a score computed from drawn counts may round past them."""
    return ScoreInterval(
        estimate, min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0), std_error
    )


def _delta_interval(estimate: float, variance: float, z: float) -> ScoreInterval:
    se = math.sqrt(variance)
    if math.isnan(estimate):
        return ScoreInterval(math.nan, math.nan, math.nan, math.nan)
    return _score_interval(estimate, estimate - z * se, estimate + z * se, se)


def _percentile_interval(
    estimate: float, replicates: np.ndarray, confidence: float
) -> ScoreInterval:
    replicates = replicates[~np.isnan(replicates)]
    if math.isnan(estimate) or replicates.shape[0] < 2:
        return ScoreInterval(estimate, math.nan, math.nan, math.nan)
    bounds = percentile_bounds(estimate, replicates, confidence)
    return _score_interval(estimate, *bounds)


def _posterior_interval(
    estimate: float, lower: np.ndarray, upper: np.ndarray, confidence: float
) -> ScoreInterval:
    """The lower bound from the draws of the lower posterior, the upper from
    those of the upper one (each widened to contain the estimate); the
    standard error is the standard deviation of the draws of both."""
    if math.isnan(estimate):
        return ScoreInterval(estimate, math.nan, math.nan, math.nan)
    alpha = 1 - confidence
    low = float(np.quantile(lower, alpha / 2))
    high = float(np.quantile(upper, 1 - alpha / 2))
    std = float(np.std(np.concatenate([lower, upper]), ddof=1))
    return _score_interval(estimate, min(low, estimate), max(high, estimate), std)


def percentile_bounds(
    estimate: float, replicates: np.ndarray, confidence: float
) -> tuple[float, float, float]:
    """(low, high, standard deviation) of two or more finite ``replicates``.

    The percentile interval of a discrete statistic may miss the estimate by a
    rounding step: it is widened to contain the estimate.
    """
    alpha = 1 - confidence
    low, high = np.quantile(replicates, [alpha / 2, 1 - alpha / 2])
    std = float(np.std(replicates, ddof=1))
    return min(float(low), estimate), max(float(high), estimate), std


def bootstrap_replicates(
    evaluation: Evaluation,
    rng: np.random.Generator,
    n_resamples: int,
    progress: Progress | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Replicates of both scores (cells when possible, else samples)."""
    if evaluation.design is None and evaluation.options.average != "samples":
        if sp.issparse(evaluation.counts.confusion):
            return _occupied_cell_replicates(evaluation, rng, n_resamples, progress)
        # the confusion-matrix cells redrawn multinomially: O(B k²)
        cells = np.asarray(evaluation.counts.confusion).reshape(-1)
        k = evaluation.counts.n_classes
        drawn = draw_cells(rng, cells, n_resamples).reshape(n_resamples, k, k)
        out = evaluation._scores_of_totals(np.stack(table_counts(drawn), axis=1))
        if progress is not None:
            progress.update(n_resamples)
        return out
    averaged, of_averages = [], []
    block = max(1, min(_BLOCK, _DRAWN // max(evaluation.n_samples, 1)))
    for start in range(0, n_resamples, block):
        rows = min(block, n_resamples - start)
        if evaluation.row_count is None:
            m = draw_multiplicities(rng, evaluation.n_samples, rows)
        else:  # samples drawn from each histogram row
            n, count = evaluation.n_samples, evaluation.row_count
            m = rng.multinomial(n, count / n, size=rows).astype(np.float64)
        a, b = evaluation.replicates_from_multiplicities(m)
        averaged.append(a)
        of_averages.append(b)
        if progress is not None:
            progress.update(start + rows)
    return np.concatenate(averaged), np.concatenate(of_averages)


def _occupied_cell_replicates(
    evaluation: Evaluation,
    rng: np.random.Generator,
    n_resamples: int,
    progress: Progress | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Replicates of both scores from the occupied cells of a confusion matrix
    of unweighted counts (a ``csr_array``): each replicate a multinomial draw
    of the ``n`` samples over the cells, which is what a resample of the
    samples gives them; blocks of replicates, O(cells + k) memory each."""
    cells = sp.coo_array(evaluation.counts.confusion)
    keep = cells.data > 0
    rows, cols = cells.row[keep], cells.col[keep]
    counts = np.asarray(cells.data[keep], dtype=np.float64)
    n = int(round(float(counts.sum())))
    k = evaluation.counts.n_classes
    # what one sample of each cell adds to the (tp, true, pred) totals
    design = one_hot_design(rows, cols, k).T.tocsr()
    averaged, of_averages = [], []
    # Few samples per cell: n uniform draws of a sample (the samples of a cell
    # consecutive), summed per cell, O(n) = O(cells) each; else sequential
    # binomials over the cells, O(cells).
    c = counts.shape[0]
    cell_of = None  # the cell of each sample, samples of a cell consecutive
    if n <= _PER_CELL * c:
        cell_of = np.repeat(np.arange(c), counts.astype(np.intp))
    width = max(c, 3 * k, 1)
    block = max(1, min(_BLOCK, _DRAWN // width))
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        if cell_of is None:
            drawn = rng.multinomial(n, counts / n, size=size).astype(np.float64)
        else:  # the cells of n samples drawn, counted per replicate
            drawn = np.empty((size, c))
            for r in range(size):
                drawn[r] = np.bincount(cell_of[rng.integers(0, n, n)], minlength=c)
        totals = np.asarray(design @ drawn.T).T.reshape(size, 3, k)
        a, b = evaluation._scores_of_totals(totals)
        averaged.append(a)
        of_averages.append(b)
        if progress is not None:
            progress.update(start + size)
    return np.concatenate(averaged), np.concatenate(of_averages)


# ------------------------------------------------------------------- the posterior

#: The priors of the two posteriors, in pseudo-counts per class of the
#: average: the lower bound's posterior adds to each class's false negatives
#: and to its false positives ``max(2/k, 0.2)`` each (errors the sample may
#: have missed), the upper bound's adds ``max(4.5/k, 0.45)`` true positives
#: (successes it may have missed), as the two Beta posteriors of the
#: Clopper-Pearson interval do for one proportion. Chosen on the tuning
#: populations of ``benchmarks/bench_calibration.py --populations tuning``,
#: apart from those of the coverage table of the Intervals and comparisons
#: page: the smallest of the form that covers 94% there wherever the rarest
#: class expects 5 true samples or more.
POSTERIOR_ERRORS = (2.0, 0.2)
POSTERIOR_HITS = (4.5, 0.45)


def occupied_cells(confusion: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(true class, predicted class, count) of each non-empty cell of a
    confusion matrix (dense, or sparse above 2048 classes): O(cells)."""
    if sp.issparse(confusion):
        cells = sp.coo_array(confusion)
        keep = cells.data > 0
        rows, cols, values = cells.row[keep], cells.col[keep], cells.data[keep]
    else:
        table = np.asarray(confusion)
        rows, cols = np.nonzero(table > 0)
        values = table[rows, cols]
    return rows, cols, np.asarray(values, dtype=np.float64)


def _selected_totals(
    where: np.ndarray, drawn: np.ndarray, k: int, keep: np.ndarray, at: np.ndarray
) -> np.ndarray:
    """``(draws, selected)``: the sums of the drawn cells ``drawn`` (shape
    ``(draws, cells)``) per counted class ``where`` of each cell, at the
    selected classes (``at``; 0 where not ``keep``, a class not counted)."""
    size = drawn.shape[0]
    offset = (np.arange(size) * k)[:, None]
    flat = np.bincount(
        (offset + where[None, :]).reshape(-1),
        weights=drawn.reshape(-1),
        minlength=size * k,
    )
    return np.where(keep, flat.reshape(size, k)[:, at], 0.0)


def posterior_replicates(
    evaluation: Evaluation,
    rng: np.random.Generator,
    n_draws: int,
    progress: Progress | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Draws of both scores from two Dirichlet posteriors of the population's
    cell probabilities (unweighted 1-D targets): ``(lower averaged, lower of
    averages, upper averaged, upper of averages)``.

    The cells are the occupied cells of the confusion matrix, plus for each
    class of the average (``labels``, else the counted classes) the prior's
    cells (:data:`POSTERIOR_ERRORS` pseudo-counts of false negatives and of
    false positives for the lower posterior, :data:`POSTERIOR_HITS` of true
    positives for the upper one); an absent class has the prior's only. A
    Dirichlet draw is a vector of independent Gamma draws (shape: the count)
    up to a common scale, which no score depends on: the scores are those of
    the drawn (tp, true, pred) totals, and both posteriors share the draws of
    the occupied cells. O(cells + k) per draw, in blocks of at most
    ``_DRAWN`` numbers.
    """
    counts = evaluation.counts
    rows, cols, values = occupied_cells(counts.confusion)
    k = counts.n_classes
    hit = rows == cols
    index = evaluation.index
    keep = (index >= 0)[None, :]
    at = np.maximum(index, 0)
    selected = index.shape[0]
    per_class = max(selected, 1)
    errors = max(POSTERIOR_ERRORS[0] / per_class, POSTERIOR_ERRORS[1])
    hits = max(POSTERIOR_HITS[0] / per_class, POSTERIOR_HITS[1])
    width = values.shape[0] + 3 * (k + selected)
    block = max(1, min(n_draws, _DRAWN // max(width, 1)))
    options = evaluation.options
    out: list[list[np.ndarray]] = [[], [], [], []]
    for start in range(0, n_draws, block):
        size = min(block, n_draws - start)
        drawn = rng.standard_gamma(values, size=(size, values.shape[0]))
        tp = _selected_totals(rows[hit], drawn[:, hit], k, keep, at)
        true = _selected_totals(rows, drawn, k, keep, at)
        pred = _selected_totals(cols, drawn, k, keep, at)
        missed = rng.standard_gamma(errors, size=(2, size, selected))
        found = rng.standard_gamma(hits, size=(size, selected))
        both = (
            (tp, true + missed[0], pred + missed[1]),  # the lower posterior
            (tp + found, true + found, pred + found),  # the upper posterior
        )
        for side, (t, r, q) in enumerate(both):
            a, b = aggregate_rows(
                t, r, q,
                average=options.average,
                beta=options.beta,
                zero_division=options.zero_division,
            )  # fmt: skip
            out[2 * side].append(a)
            out[2 * side + 1].append(b)
        if progress is not None:
            progress.update(start + size)
    return tuple(np.concatenate(o) for o in out)  # type: ignore[return-value]


def interval_of(
    evaluation: Evaluation,
    resampling: Resampling,
    progress: Progress | None = None,
    *,
    warn_level: bool = True,
    method_name: str = "method",
    labels_advice: str = "pass labels without them",
) -> FBetaInterval:
    """Both intervals of one evaluated classifier. ``warn_level``: raise the
    :class:`CoverageWarning` of the data (else the caller does), worded with
    ``method_name`` and ``labels_advice`` (as :func:`coverage_warning`)."""
    est_avg, est_foa = evaluation.estimates
    confidence, method = resampling.confidence, resampling.method
    if method == "delta":
        var_avg, var_foa = evaluation.variances()
        z = _z(confidence)
        ci_avg = _delta_interval(est_avg, var_avg, z)
        ci_foa = _delta_interval(est_foa, var_foa, z)
        resamples = None
    elif method == "posterior":
        rng = resampling.rng
        if rng is None:  # no random_state: draws seeded by the counts
            rng = np.random.default_rng(counts_seed(evaluation))
        resamples = resampling.n_resamples
        low_avg, low_foa, high_avg, high_foa = posterior_replicates(
            evaluation, rng, resamples, progress
        )
        ci_avg = _posterior_interval(est_avg, low_avg, high_avg, confidence)
        ci_foa = _posterior_interval(est_foa, low_foa, high_foa, confidence)
    else:
        assert resampling.rng is not None
        resamples = resampling.n_resamples
        rep_avg, rep_foa = bootstrap_replicates(
            evaluation, resampling.rng, resamples, progress
        )
        ci_avg = _percentile_interval(est_avg, rep_avg, confidence)
        ci_foa = _percentile_interval(est_foa, rep_foa, confidence)
    if warn_level:
        message = coverage_warning(
            evaluation.selection,
            evaluation.options,
            confidence,
            method=method,
            posterior=posterior_defined(evaluation.counts),
            method_name=method_name,
            labels_advice=labels_advice,
            true_squares=true_square_sums(
                evaluation.counts, evaluation.design, evaluation.row_count
            ),
        )
        if message is not None:
            warn_user(message, CoverageWarning)
    if ci_avg.std_error == 0 or ci_foa.std_error == 0:
        warn_user(
            "The confidence interval has zero width: the score does not vary "
            "under resampling (e.g. a perfect classifier, or no correct "
            "prediction). This reflects the sample, not certainty about the "
            "population; collect more errors or report the sample size.",
            UserWarning,
        )
    return FBetaInterval(
        ci_avg,
        ci_foa,
        str(evaluation.options.average),
        evaluation.options.beta,
        confidence,
        method,
        evaluation.n_samples,
        resamples,
    )


@overload
def fbeta_confidence_interval(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    zero_division: Any = "warn",
    confidence: float = 0.95,
    method: str = "auto",
    n_resamples: int = 1000,
    random_state: Any = None,
    verbose: int = 0,
) -> FBetaInterval: ...


@overload
def fbeta_confidence_interval(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    confidence: float = 0.95,
    method: str = "auto",
    n_resamples: int = 1000,
    random_state: Any = None,
    verbose: int = 0,
) -> FBetaInterval: ...


def fbeta_confidence_interval(
    y_true: Any,
    y_pred: Any = None,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    confidence: float = 0.95,
    method: str = "auto",
    n_resamples: int = 1000,
    random_state: Any = None,
    verbose: int = 0,
) -> FBetaInterval:
    """Confidence intervals for the averaged F-beta and the F-beta of averages.

    The samples are treated as independent draws from the population the
    classifier is evaluated on; the interval is for the score on that
    population. Both intervals come from one counting pass.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), {array-like, sparse matrix} of \
shape (n_samples, n_labels) or MacroF1Counts
        Ground truth: class labels, or a 0/1 indicator matrix (multilabel). Or
        a count record (:class:`MacroF1Counts`), with ``y_pred`` omitted: see
        the Notes for the intervals a record gives.
    y_pred : same kind as ``y_true``, default=None
        Predicted labels; omitted with a record.
    beta : float, default=1.0
        Weight of recall against precision (1 gives F1).
    labels : array-like, default=None
        The labels to average over, as in ``sklearn.metrics.fbeta_score``.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "binary", "samples"}, default="macro"
        The averaging mode (scikit-learn's meaning); None is not accepted.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights; the pairs (sample, weight) are treated as the draws
        (not with a record: its weights were counted into it).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio, as in the score functions.
    confidence : float, default=0.95
        Nominal coverage of the intervals, in (0, 1).
    method : {"auto", "delta", "bootstrap", "posterior"}, default="auto"
        "auto": "posterior" for unweighted 1-D targets (averages other than
        "samples"), "delta" otherwise (``sample_weight``, multilabel targets,
        ``average="samples"``, and more than 100,000 samples where every class
        has at least 20 true samples, enough for it); the result's ``method``
        names the one used.
        "delta": the multinomial delta method with closed-form gradients
        (normal-approximation interval, clipped to [0, 1]). "bootstrap": the
        percentile bootstrap (the confusion-matrix cells are resampled for
        unweighted 1-D targets, the samples otherwise). "posterior":
        quantiles of two Dirichlet posteriors of the confusion cells, one
        with a prior of a fraction of an error per class (the lower bound),
        one with a fraction of a correct prediction per class (the upper
        bound); it holds its level with small classes and has positive width
        without errors (unweighted 1-D targets, averages other than
        "samples"; see the Intervals and comparisons page of the documentation).
    n_resamples : int, default=1000
        Bootstrap replicates, or draws of each posterior (ignored by the delta
        method).
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the bootstrap or the posterior. With None the posterior's
        draws are seeded from the counts themselves (its occupied cells and
        class totals): the same data give the same interval on every call,
        from arrays, a record, a stream, Dask or Spark. The bootstrap draws
        afresh with None.
    verbose : int, default=0
        Progress of the bootstrap on standard error: 0 prints nothing, 1 about
        every tenth of the resamples, 2 and more every block of resamples.

    Returns
    -------
    interval : FBetaInterval
        ``interval.averaged_fbeta`` and ``interval.fbeta_of_averages`` are
        :class:`ScoreInterval` objects (``estimate``, ``low``, ``high``,
        ``std_error``).

    Notes
    -----
    With the delta method and the bootstrap, a perfect classifier, or any
    classifier whose scores do not vary under resampling, gets a zero-width
    interval ``[estimate, estimate]``: the data show no error to extrapolate
    from; ratios filled by ``zero_division`` (a class never predicted) count
    as constants. The posterior gives such a sample an interval that
    shrinks with n. A :class:`CoverageWarning` names the classes of the
    average with fewer true samples than the method used needs (5 for the
    posterior, 10 for the delta method and the bootstrap: absent, predicted
    but never true, or rare), with which it may not hold its level. The
    Intervals and comparisons page of the documentation gives the coverage
    measured by simulation.

    A count record keeps no samples, and neither are Dask collections
    gathered (they are counted on the workers): the intervals come from the
    confusion matrix (1-D targets; its occupied cells above 2048 classes) and
    the histogram of per-sample counts and, for the delta method, from the
    second moments counted with them (``sample_weight``, multilabel targets:
    ``MacroF1Counts.from_predictions(..., moments=True)``). The
    bootstrap redraws the confusion-matrix cells (unweighted 1-D targets) or
    the histogram's rows (unweighted ``average="samples"``); with
    ``sample_weight`` or for the other averages of multilabel targets it
    would redraw every sample and raises ``ValueError``, offering
    ``method="delta"``. A record read from a confusion matrix takes its cells
    as counts of independent samples.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_macrof1 import fbeta_confidence_interval
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 3, 2000)
    >>> y_pred = np.where(rng.random(2000) < 0.8, y_true, rng.integers(0, 3, 2000))
    >>> ci = fbeta_confidence_interval(y_true, y_pred)
    >>> ci.method  # "auto": the posterior for unweighted 1-D labels
    'posterior'
    >>> ci.averaged_fbeta.low < ci.averaged_fbeta.estimate < ci.averaged_fbeta.high
    True
    >>> round(ci.averaged_fbeta.width, 3)
    0.031
    >>> fbeta_confidence_interval(y_true, y_pred) == ci  # seeded by the counts
    True
    """
    return interval_of_data(
        y_true,
        y_pred,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
        confidence=confidence,
        method=method,
        n_resamples=n_resamples,
        random_state=random_state,
        verbose=verbose,
    )


def interval_of_data(
    y_true: Any,
    y_pred: Any,
    *,
    beta: Any,
    labels: Any,
    pos_label: Any,
    average: Any,
    sample_weight: Any,
    zero_division: Any,
    confidence: Any,
    method: Any,
    n_resamples: Any,
    random_state: Any,
    verbose: Any,
    method_name: str = "method",
) -> FBetaInterval:
    """The body of :func:`fbeta_confidence_interval` (the arguments as it
    takes them); ``method_name``: the caller's name of ``method``, which the
    :class:`CoverageWarning` advises (``make_compute_metrics``' ``interval``)."""
    caller = "fbeta_confidence_interval"
    labels = check_form(y_true, y_pred, sample_weight, labels, caller=caller)
    options, resampling = check_interval_call(
        caller,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
        confidence=confidence,
        method=method,
        n_resamples=n_resamples,
        random_state=random_state,
        verbose=verbose,
    )
    reading = read_for(
        y_true,
        y_pred,
        options,
        sample_weight=sample_weight,
        caller=caller,
        **counted_for(
            resampling.method,
            weighted=sample_weight is not None,
            average=str(options.average),
        ),
    )
    return interval_of_reading(
        reading,
        options,
        resampling,
        caller=caller,
        refusal={} if isinstance(y_true, MacroF1Counts) else None,
        method_name=method_name,
    )


def check_record_interval(
    counts: MacroF1Counts,
    averages: Any,
    *,
    method: str,
    caller: str,
    method_name: str = "method",
    recount: str = (
        "MacroF1Counts.from_predictions(..., moments=True) or "
        "MacroF1Accumulator(keep='moments')"
    ),
    from_samples: str | None = None,
) -> None:
    """Refuse the intervals a count record cannot give (it keeps no samples).

    The delta method reads the confusion matrix (unweighted 1-D targets) or
    the second moments counted with the record (weighted 1-D targets,
    multilabel targets), and the histogram of per-sample counts for
    ``average="samples"``. The bootstrap redraws the confusion-matrix cells
    (unweighted 1-D targets) or the histogram's rows (unweighted
    ``average="samples"``); anything else would redraw every sample.
    ``averages`` are the averages of the intervals to come. The refusals name
    how to get the interval: ``recount`` counts the record with its second
    moments, ``from_samples`` is the function that computes it from the
    predictions (by default ``caller``).
    """
    verb = caller if from_samples is None else from_samples

    def needed_by(method: str) -> frozenset[str]:
        """What ``method`` reads for ``averages``."""
        kind, weighted = counts.kind, counts.weighted
        return frozenset().union(
            *(
                requires(method, kind=kind, weighted=weighted, average=a)
                for a in averages
            )
        )

    def holds(method: str) -> bool:
        return needed_by(method) <= counts._provides

    if method == "posterior":
        posterior_refusal(
            counts,
            averages,
            caller=caller,
            method_name=method_name,
            alternatives=tuple(m for m in ("delta", "bootstrap") if holds(m)),
            from_samples=verb,
        )
    advice = (
        f"use {method_name}='delta' (computed from the record's counts and "
        "their second moments), or compute the interval from the predictions "
        f"with {verb}(y_true, y_pred, ...)."
    )
    needed = needed_by(method)
    if needed <= counts._provides:
        return
    if counts.kind != _MULTILABEL and CELLS not in counts._provides:
        raise ValueError(
            f"{caller} computes the intervals of a record of 1-D targets "
            "from its confusion matrix (its occupied cells above 2048 "
            "classes); this record keeps only per-class counts (read from "
            "totals, accumulated by a MacroF1Accumulator made without "
            "keep='cells', or merged with such a record). Make the "
            "accumulator with MacroF1Accumulator(keep='cells') to keep the "
            "confusion matrix, or compute the interval from the predictions "
            f"with {verb}(y_true, y_pred, ...)."
        )
    if counts.kind != _MULTILABEL and counts.weighted and counts.n_samples is None:
        raise ValueError(  # a matrix of non-integer cells
            "The record's confusion matrix holds non-integer (sample-weighted) "
            "counts; the interval needs the samples and their weights: use "
            f"{verb}(y_true, y_pred, sample_weight=...)."
        )
    per_label = [a for a in averages if a != "samples"]
    if SAMPLE_ROWS in needed and counts.kind != _MULTILABEL:
        raise ValueError(
            f"{caller}: the bootstrap with sample weights redraws every sample "
            "with its weight, which the record keeps only summed per (label, "
            f"prediction) cell; {advice}"
        )
    if SAMPLE_ROWS in needed and per_label:
        raise ValueError(
            f"{caller}: the bootstrap of multilabel targets for average="
            f"{per_label[0]!r} redraws every sample's labels, which the record "
            "does not keep (it resamples the histogram of per-sample counts "
            f"for average='samples' only); {advice}"
        )
    if SAMPLE_ROWS in needed:
        raise ValueError(
            f"{caller}: the bootstrap with sample weights redraws every sample "
            "with its weight, which the histogram of per-sample (tp, true, "
            f"pred) counts keeps only summed; {advice}"
        )
    raise ValueError(
        f"{caller}: the delta method for "
        f"{'multilabel' if counts.kind == _MULTILABEL else 'weighted'} "
        "targets needs the second moments of the counts, which this record "
        f"does not carry; count it with {recount}."
    )


def _progress(resampling: Resampling, caller: str, *, rows: int = 1) -> Progress | None:
    """The progress of a bootstrap asked to print it (``rows`` intervals)."""
    if resampling.method not in _DRAWN_METHODS or not resampling.verbose:
        return None
    total = resampling.n_resamples * rows
    return Progress(resampling.verbose, total, caller=caller, what=resampling.method)


def interval_of_reading(
    reading: Reading,
    options: Options,
    resampling: Resampling,
    *,
    caller: str,
    refusal: dict[str, str] | None = None,
    warn_for: tuple[str, ...] = ALL_METRICS,
    method_name: str = "method",
    labels_advice: str = "pass labels without them",
) -> FBetaInterval:
    """:func:`fbeta_confidence_interval` of a reading, every option checked:
    ``method`` resolved (:func:`resolve`), the interval of a record given in
    place of the data refused where the record lacks what it reads
    (``refusal``: the keywords of :func:`check_record_interval` for such a
    record; None: the data were read), then computed over every class of a
    record read from a confusion matrix when no ``labels`` are given;
    ``warn_for`` as in :func:`evaluation_from`; ``method_name`` and
    ``labels_advice`` word the :class:`CoverageWarning` in the caller's
    arguments (:func:`coverage_warning`)."""
    if options.labels is None and reading.counts._class_order is not None:
        # Every row and column of a confusion matrix is a class, also in a
        # resample that draws none of its samples.
        options = replace(options, labels=reading.counts.classes)
    average = str(options.average)
    resampling = resolve(
        resampling,
        reading.counts,
        average,
        labels=options.labels,
        pos_label=options.pos_label,
    )
    if refusal is not None:
        check_record_interval(
            reading.counts,
            (average,),
            method=resampling.method,
            caller=caller,
            **refusal,
        )
    evaluation = evaluation_from(
        reading,
        options,
        caller=caller,
        warn_for=warn_for,
        method=resampling.method,
        method_name=method_name,
    )
    return interval_of(
        evaluation,
        resampling,
        _progress(resampling, caller),
        method_name=method_name,
        labels_advice=labels_advice,
    )


def summary_confidence_interval(
    summary: Any,
    counts: MacroF1Counts | None,
    options: Options | None,
    *,
    confidence: float = 0.95,
    method: str = "auto",
    n_resamples: int = 1000,
    random_state: Any = None,
    verbose: int = 0,
) -> FBetaInterval:
    """The body of ``FBetaSummary.confidence_interval``: the interval of the
    count record ``counts`` the summary was made from with its ``options``,
    as :func:`fbeta_confidence_interval` gives it from the data, or a refusal
    (:func:`check_record_interval`) naming how to get it."""
    caller = "FBetaSummary.confidence_interval"
    checked = check_options_of(
        caller,
        **resampling_options(
            confidence=confidence,
            method=method,
            n_resamples=n_resamples,
            random_state=random_state,
        ),
        verbose=verbose,
    )
    check_interval_average(summary.average, caller=caller, made_by="fbeta_summary")
    resampling = resampling_of(checked)
    if counts is None or options is None:  # pragma: no cover - never: see build
        raise ValueError(f"{caller}: this summary keeps no count record.")
    refusal = {
        "recount": "fbeta_summary(y_true, y_pred, ..., moments=True)",
        "from_samples": "fbeta_confidence_interval",
    }
    return interval_of_reading(
        Reading(counts),
        options,
        resampling,
        caller=caller,
        refusal=refusal,
        warn_for=(),
        labels_advice="make the summary with fbeta_summary(..., labels=...) without "
        "them",
    )


def report_intervals(
    reading: Reading,
    options: Options,
    evaluated: tuple[Selection, dict[str | None, Averages]],
    averages: list[str],
    resampling: Resampling,
    *,
    caller: str,
    designs: dict[str, bool] | None = None,
    method_name: str = "interval_method",
) -> dict[str, FBetaInterval]:
    """The intervals (F1) of a report's averaged rows.

    From the report's reading (counted samplewise over its ``labels`` for
    multilabel targets, so it serves every row, "samples" included) and its
    evaluation ``evaluated``: the selection of its labels and each average's
    aggregation, made once for the rows (nothing is selected or aggregated
    again). ``options`` are the report's (``average`` is each row's);
    ``averages`` the rows' modes; ``designs`` which rows need the per-sample
    design (:func:`report_designs`, asked once by the report). The design,
    when one is needed, is built once for all the rows, and one generator
    serves them all.
    Warnings are left to the report, which raises them once.
    """
    selection, results = evaluated
    if designs is None:
        designs = report_designs(reading, options, averages, resampling.method)
    progress = _progress(resampling, caller, rows=len(averages))
    out: dict[str, FBetaInterval] = {}
    design = row_count = None
    for row, average in enumerate(averages):
        row_options = replace(options, average=average)
        if progress is not None:
            progress.offset = row * resampling.n_resamples
        if design is None and designs[average]:
            design = design_of(reading, method=resampling.method)
        evaluation = evaluation_from(
            reading,
            row_options,
            caller=caller,
            design=design,
            evaluated=(selection, results[average]),
            method=resampling.method,
            per_sample_rows=designs[average],
            method_name=method_name,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # zero-width: per row
            out[average] = interval_of(
                evaluation, resampling, progress, warn_level=False
            )
        row_count = evaluation.row_count
    message = coverage_warning(
        selection,
        replace(options, average="macro"),
        resampling.confidence,
        method=resampling.method,
        posterior=posterior_defined(reading.counts),
        method_name=method_name,
        true_squares=true_square_sums(reading.counts, design, row_count),
    )
    if message is not None:  # once for the report: the rows share the classes
        warn_user(message, CoverageWarning)
    return out
