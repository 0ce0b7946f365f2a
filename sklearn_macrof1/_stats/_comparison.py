"""Paired comparison of two classifiers under both F-beta formulas.

Both classifiers are scored on the same samples and over one class set (the
``labels``, else the classes of ``y_true`` and of every prediction set), so
their scores are correlated; the difference ``S_A - S_B`` is analysed per
sample:

- jackknife (the default): each sample left out in turn, both classifiers
  rescored by an update of the full score at the sample's classes (one row
  per joint (true, pred_A, pred_B) cell for 1-D targets), the variance of the
  left-out differences and a Student t reference whose degrees of freedom
  come from their fourth moment;
- delta method: the influence of sample ``i`` on the difference is
  ``u_i^A - u_i^B`` (see :mod:`._intervals`), i.e. the multinomial delta method
  on the joint (true, pred_A, pred_B) table; for 1-D targets it is computed
  from that table's cells (:mod:`~sklearn_macrof1._counting._pairs`), else per sample;
- paired bootstrap: the same resampled samples score both classifiers (two
  unweighted classifiers of 1-D targets with few joint cells: the cells
  redrawn).

The p-value is two-sided for "no difference". The two formulas *rank the
classifiers differently* when the differences have opposite signs; that
reversal is significant at level ``alpha`` when both one-sided tests in the
observed directions reject (an intersection-union test, whose p-value is the
larger of the two one-sided p-values).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, overload

import numpy as np
import scipy.sparse as sp
from scipy.special import ndtr, stdtr, stdtrit

from .._counting._pairs import INFLUENCE_SUMS, MAX_PAIR_CELLS, PairCells
from .._counting._record import SAMPLE_ROWS, Reading, union_labels
from .._counting._registry import lives_elsewhere
from .._equality import ValueEquality
from .._formulas._aggregation import (
    ALL_METRICS,
    harmonic_fbeta,
    ratios,
    zero_division_fill,
)
from .._formulas._evaluation import Options, evaluate, read_jointly
from .._options import COMPARISON_METHODS
from .._present._frame import table_frame
from .._present._intervals import (
    comparison_statement,
    comparison_table,
    difference_text,
    multiple_table,
)
from .._present._table import Table, format_p_value
from .._present._views import TableViews
from .._sklearn_private import InvalidParameterError
from ._intervals import (
    _BLOCK,
    Evaluation,
    _z,
    check_interval_call,
    draw_cells,
    draw_multiplicities,
    evaluation_from,
    moment_variance,
    one_hot_design,
    percentile_bounds,
)
from ._progress import Progress


@dataclass(frozen=True, eq=False)
class ScoreDifference(ValueEquality):
    """One formula's scores of A and B and their difference ``A - B``.

    Attributes
    ----------
    score_a, score_b : float
        The two classifiers' scores.
    difference : float
        ``score_a - score_b``.
    low, high : float
        Confidence interval of the difference.
    std_error : float
        Its standard error (jackknife or delta method) or bootstrap standard
        deviation.
    p_value : float
        Two-sided p-value of "no difference".
    p_greater, p_less : float
        One-sided p-values of "A is not better" and "A is not worse".
    p_resolution : float or None
        The smallest p-value the method can give: ``1 / (B + 1)`` for a
        bootstrap of ``B`` resamples (a p-value at this floor means "below
        it"), None for the other methods.
    df : float or None
        Degrees of freedom of the Student t reference of the jackknife
        (``inf``: the normal one), None for the other methods.
    """

    score_a: float
    score_b: float
    difference: float
    low: float
    high: float
    std_error: float
    p_value: float
    p_greater: float
    p_less: float
    p_resolution: float | None = None
    df: float | None = None

    @property
    def p_value_text(self) -> str:
        """The p-value as text; ``"< 0.001"`` at a bootstrap's resolution."""
        return format_p_value(self.p_value, self.p_resolution)

    def describe(self, name_a: str = "A", name_b: str = "B") -> str:
        """One line: both scores, the difference, its interval and p-value."""
        return difference_text(self, name_a, name_b)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return (
            f"ScoreDifference(difference={self.difference:+.4g}, "
            f"low={self.low:+.4g}, high={self.high:+.4g}, "
            f"p_value={self.p_value:.4g})"
        )


@dataclass(frozen=True, eq=False)
class ClassifierComparison(ValueEquality, TableViews):
    """Paired comparison of classifiers A and B under both formulas.

    Returned by :func:`compare_classifiers`.

    Attributes
    ----------
    averaged_fbeta, fbeta_of_averages : ScoreDifference
        The difference ``A - B`` under each formula.
    average : str
    beta : float
    confidence : float
    method : {"jackknife", "delta", "bootstrap"}
    n_samples : int
    n_resamples : int or None
    rankings_differ : bool
        True when the formulas prefer different classifiers (differences of
        opposite signs, neither zero).
    reversal_p_value : float or None
        p-value of the intersection-union test that the ranking reversal is
        real (the larger one-sided p-value); None when the rankings agree.
    names : tuple of str
        The names of A and B (``names`` of :func:`compare_classifiers`).

    Notes
    -----
    Equal when every attribute is (nan equal to nan), hashable. In a notebook
    the comparison shows as a table; :meth:`to_frame` gives it to pandas.
    """

    averaged_fbeta: ScoreDifference
    fbeta_of_averages: ScoreDifference
    average: str
    beta: float
    confidence: float
    method: str
    n_samples: int
    n_resamples: int | None
    rankings_differ: bool
    reversal_p_value: float | None
    names: tuple[str, str] = ("A", "B")

    @property
    def statement(self) -> str:
        """A plain-language answer: which classifier each formula prefers."""
        return comparison_statement(self)

    def __repr__(self) -> str:
        name_a, name_b = self.names
        return (
            f"ClassifierComparison({name_a!r} vs {name_b!r}, "
            f"average={self.average!r}, method={self.method!r}, "
            f"n_samples={self.n_samples}, "
            f"averaged_fbeta={self.averaged_fbeta!r}, "
            f"fbeta_of_averages={self.fbeta_of_averages!r}, "
            f"rankings_differ={self.rankings_differ})"
        )

    def _view(self) -> tuple[list[Table], list[str]]:
        return [comparison_table(self)], [self.statement]

    def to_frame(self) -> Any:
        """The comparison as a ``pandas.DataFrame`` (needs pandas).

        One row per formula (index ``averaged_fbeta``, ``fbeta_of_averages``);
        columns ``model_a``, ``model_b`` (the names), ``score_a``, ``score_b``,
        ``difference``, ``low``, ``high``, ``std_error``, ``p_value``,
        ``p_greater``, ``p_less``, ``p_resolution`` (nan for the jackknife
        and the delta method) and ``df`` (the jackknife's degrees of freedom;
        nan for the other methods).

        Examples
        --------
        >>> from sklearn_macrof1 import compare_classifiers
        >>> y = [0, 0, 1, 1, 2, 2, 2, 2] * 25
        >>> a = [0, 1, 1, 1, 2, 0, 2, 2] * 25
        >>> b = [0, 0, 1, 2, 2, 0, 1, 2] * 25
        >>> df = compare_classifiers(y, a, b, names=("lr", "gnb")).to_frame()
        >>> df.loc["averaged_fbeta", ["model_a", "model_b"]].tolist()
        ['lr', 'gnb']
        >>> round(float(df.loc["averaged_fbeta", "difference"]), 4)
        0.0952
        """
        return table_frame(
            [comparison_table(self)], caller="ClassifierComparison.to_frame"
        )


@dataclass(frozen=True, eq=False)
class MultipleComparison(ValueEquality, TableViews):
    """Every pair of several classifiers compared under both formulas.

    Returned by :func:`compare_classifiers` given more than two prediction sets.
    Each pair is a :class:`ClassifierComparison` on the same resamples; the
    p-values of each formula are also adjusted over all pairs by Holm's
    step-down method, which bounds the chance of any false "significant" among
    the pairs (the family-wise error rate) by ``1 - confidence``. The intervals
    of the pairs are not adjusted.

    Attributes
    ----------
    names : tuple of str
        The classifiers, in the order given.
    comparisons : tuple of ClassifierComparison
        One per pair ``(names[i], names[j])`` with ``i < j``, in that order.
    averaged_fbeta_p_holm, fbeta_of_averages_p_holm : tuple of float
        Holm-adjusted p-values of each pair's difference, per formula.
    """

    names: tuple[str, ...]
    comparisons: tuple[ClassifierComparison, ...]
    averaged_fbeta_p_holm: tuple[float, ...]
    fbeta_of_averages_p_holm: tuple[float, ...]

    def __getitem__(self, pair: tuple[str, str]) -> ClassifierComparison:
        """The comparison of ``(name_a, name_b)``, as ordered in ``names``."""
        for comparison in self.comparisons:
            if comparison.names == tuple(pair):
                return comparison
        raise KeyError(
            f"No comparison {pair!r}: pairs are (names[i], names[j]) with i < j, "
            f"names={self.names!r}."
        )

    def __repr__(self) -> str:
        return (
            f"MultipleComparison(names={self.names!r}, "
            f"n_pairs={len(self.comparisons)}, "
            f"method={self.comparisons[0].method!r})"
        )

    def _view(self) -> tuple[list[Table], list[str]]:
        return [multiple_table(self)], []

    def to_frame(self) -> Any:
        """Every pair and formula as a row of a ``pandas.DataFrame``.

        Columns ``model_a``, ``model_b``, ``score`` (``averaged_fbeta`` or
        ``fbeta_of_averages``), then those of :meth:`ClassifierComparison.to_frame`
        and ``p_holm``. Needs pandas.
        """
        return table_frame([multiple_table(self)], caller="MultipleComparison.to_frame")


def _from_normal(a: float, b: float, variance: float, *, z: float) -> ScoreDifference:
    d = a - b
    se = math.sqrt(variance)
    if math.isnan(d):
        nan = math.nan
        return ScoreDifference(a, b, d, nan, nan, nan, nan, nan, nan)
    if se == 0:
        p_greater = 0.0 if d > 0 else 1.0
        p_less = 0.0 if d < 0 else 1.0
    else:
        p_greater = float(ndtr(-d / se))  # H0: A <= B
        p_less = float(ndtr(d / se))  # H0: A >= B
    p = min(1.0, 2 * min(p_greater, p_less))
    return ScoreDifference(a, b, d, d - z * se, d + z * se, se, p, p_greater, p_less)


def _from_replicates(
    a: float, b: float, replicates: np.ndarray, *, confidence: float
) -> ScoreDifference:
    d = a - b
    replicates = replicates[~np.isnan(replicates)]
    m = replicates.shape[0]
    if math.isnan(d) or m < 2:
        nan = math.nan
        return ScoreDifference(a, b, d, nan, nan, nan, nan, nan, nan)
    low, high, std = percentile_bounds(d, replicates, confidence)
    # one-sided p-values from the bootstrap distribution (share of replicates
    # on the other side of 0, +1 correction so that p > 0)
    p_greater = min(1.0, (np.count_nonzero(replicates <= 0) + 1) / (m + 1))
    p_less = min(1.0, (np.count_nonzero(replicates >= 0) + 1) / (m + 1))
    p = min(1.0, 2 * min(p_greater, p_less))
    # the two-sided p-value's floor (the resolution) is twice the one-sided one
    return ScoreDifference(a, b, d, low, high, std, p, p_greater, p_less, 2 / (m + 1))


def _check_names(names: Any, count: int, *, caller: str) -> tuple[str, ...]:
    if names is None:
        return tuple(chr(ord("A") + i) if i < 26 else f"#{i + 1}" for i in range(count))
    if isinstance(names, str) or not hasattr(names, "__len__") or len(names) != count:
        raise InvalidParameterError(
            f"The 'names' parameter of {caller} must name the {count} classifiers "
            f"compared, one name each, e.g. {('lr', 'gnb', 'svc')[:count]!r}. Got "
            f"{names!r} instead."
        )
    out = tuple(str(name) for name in names)
    if len(set(out)) != count:
        raise ValueError(
            f"The 'names' parameter of {caller} must name {count} different "
            f"classifiers; got {names!r}."
        )
    return out


@overload
def compare_classifiers(
    y_true: Any,
    y_pred_a: Any,
    y_pred_b: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    confidence: float = 0.95,
    method: str = "jackknife",
    n_resamples: int = 1000,
    random_state: Any = None,
    names: Any = None,
    verbose: int = 0,
) -> ClassifierComparison: ...


@overload
def compare_classifiers(
    y_true: Any,
    y_pred_a: Any,
    y_pred_b: Any,
    y_pred_c: Any,
    /,
    *y_pred_more: Any,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    confidence: float = 0.95,
    method: str = "jackknife",
    n_resamples: int = 1000,
    random_state: Any = None,
    names: Any = None,
    verbose: int = 0,
) -> MultipleComparison: ...


def compare_classifiers(
    y_true: Any,
    y_pred_a: Any,
    y_pred_b: Any,
    *y_pred_more: Any,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    confidence: float = 0.95,
    method: str = "jackknife",
    n_resamples: int = 1000,
    random_state: Any = None,
    names: Any = None,
    verbose: int = 0,
) -> ClassifierComparison | MultipleComparison:
    """Is classifier A better than B, under each of the two F-beta formulas?

    Paired comparison on the same samples: the difference ``A - B`` of the
    averaged F-beta and of the F-beta of averages, each with a confidence
    interval and a p-value, and whether the formulas rank A and B differently.

    Every classifier is scored over one class set: ``labels`` when given, else
    the classes of ``y_true`` and of every prediction set together (as if
    passed as ``labels``). Where a classifier never predicts a class that
    another predicts (and ``y_true`` lacks it), its ``score_a`` / ``score_b``
    then differs from its stand-alone score: the class enters its average with
    the ``zero_division`` value, so that both scores average the same classes
    and the difference is paired. With the same class set the scores are the
    stand-alone scores.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or {array-like, sparse matrix} of \
shape (n_samples, n_labels)
        Ground truth.
    y_pred_a, y_pred_b : same kind as ``y_true``
        Predictions of classifiers A and B for the same samples.
    *y_pred_more : same kind as ``y_true``
        Predictions of further classifiers: every pair is then compared (on the
        same resamples), with Holm-adjusted p-values, in a
        :class:`MultipleComparison`.
    beta : float, default=1.0
        Weight of recall against precision.
    labels : array-like, default=None
        The labels to average over (as in ``sklearn.metrics.fbeta_score``).
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "binary", "samples"}, default="macro"
        The averaging mode; None is not accepted.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio.
    confidence : float, default=0.95
        Nominal coverage of the intervals; the statement calls a difference
        significant when its p-value is below ``1 - confidence``.
    method : {"jackknife", "delta", "bootstrap"}, default="jackknife"
        "jackknife": the standard error of each difference from leaving out
        each sample in turn, with a Student t reference whose degrees of
        freedom come from the spread of those left-out differences (few or
        uneven ones give few degrees of freedom); it holds its level with
        small classes, where the delta method is too confident (see Notes).
        "delta": delta method on the per-sample influences of both classifiers
        (from the joint table of true label and both predictions), normal
        reference. "bootstrap": paired percentile bootstrap over samples.
    n_resamples : int, default=1000
        Bootstrap replicates.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the bootstrap.
    names : sequence of str, default=None
        The names of the classifiers, one per prediction set, used in the
        printed comparison, its statement, its notebook table and
        ``to_frame()``; "A", "B", "C" ... when None.
    verbose : int, default=0
        Progress of the bootstrap on standard error: 0 prints nothing, 1 about
        every tenth of the resamples, 2 and more every block of resamples.

    Returns
    -------
    comparison : ClassifierComparison or MultipleComparison
        Two prediction sets give a :class:`ClassifierComparison`:
        ``comparison.averaged_fbeta`` and ``comparison.fbeta_of_averages``
        hold the differences and ``comparison.statement`` says it in words.
        Three or more give a :class:`MultipleComparison` of every pair. The
        type follows from the number of prediction sets alone, and the
        signature says so to type checkers (one overload per call form).

    Notes
    -----
    ``y_true`` and ``sample_weight`` are read and validated once, together
    with every prediction set (errors name the prediction at fault:
    ``y_pred_a``, ``y_pred_b``, ...), and each classifier is counted once.

    The jackknife leaves out each sample in turn and rescores both
    classifiers; a sample changes the counts of its true and predicted classes
    only, so each left-out score is an update of the full one, and the samples
    of one joint (true, pred_A, pred_B) cell leave the same scores: O(cells)
    work for 1-D targets, whatever the number of classes (with
    ``sample_weight``, each cell's mean weight is left out and a sample's
    weight scales it). Multilabel targets are left out sample by sample. The
    variance is the jackknife's ``(n - 1) / n`` times the sum of squared
    deviations; the degrees of freedom of the t reference are
    ``2 S2**2 / (S4 - S2**2 / n)`` from the second and fourth sums of those
    deviations (at most ``n - 1``), so a difference carried by a few samples
    (a rare class, few disagreements) gets a wider interval than the normal
    one. On populations with rare classes (a rarest class of 5-10 expected
    samples) the delta method rejected a true "no difference" 8-17 % of the
    time at nominal 5 %; the jackknife stays near or below 5 % (the user
    guide's uncertainty page shows the table and the command that makes it).

    For 1-D targets the delta method works from the joint (true, pred_A,
    pred_B) table of each pair: a sample's influence on the difference depends
    only on its cell and its weight, so each cell's sum of weights and of
    squared weights suffice, at most ``k**3`` cells whatever the number of
    samples (up to 128 classes; beyond, and for multilabel targets, from each
    sample's contribution). The paired bootstrap of two unweighted classifiers
    redraws the joint cells multinomially when they are few (at most ``n / 8``);
    with more cells, ``sample_weight`` or more classifiers it redraws the
    samples, the same resamples for every pair.

    Dask collections of 1-D labels are counted on the workers, joint cells
    included, and never gathered: the delta method gives the in-memory result,
    weighted or not, for any number of classifiers. The bootstrap of two
    unweighted classifiers always redraws the joint cells there: the in-memory
    result for the same seed where memory redraws the cells too, else a draw
    of the same distribution. A bootstrap with ``sample_weight`` or more
    than two classifiers would need every sample in one process: it raises
    ``ValueError`` (use ``method="delta"``). The jackknife of 1-D labels works
    from the same joint cells there. Multilabel Dask collections need each
    sample's contributions under every method: they raise ``ValueError``
    (compute them first if they fit in memory).

    Device arrays (``array_api_dispatch=True``) of 1-D labels are compared
    from the joint cells counted on their device. Multilabel device arrays are
    compared by the delta method: each sample's influence on both scores is
    computed on the device from the gradients, and only the sums of each
    pair's differences and of their squares cross to the host (the in-memory
    result). Their jackknife, bootstrap and ``average="samples"`` would need
    every sample on the host: they raise ``ValueError`` (use
    ``method="delta"``).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_macrof1 import compare_classifiers
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 1000)
    >>> a = np.where(rng.random(1000) < 0.8, y, rng.integers(0, 3, 1000))
    >>> b = np.where(rng.random(1000) < 0.7, y, rng.integers(0, 3, 1000))
    >>> c = compare_classifiers(y, a, b)
    >>> c.averaged_fbeta.difference > 0, c.averaged_fbeta.p_value < 0.05
    (True, True)
    >>> c.rankings_differ
    False

    Named classifiers:

    >>> c = compare_classifiers(y, a, b, names=("lr", "gnb"))
    >>> print(c.averaged_fbeta.describe(*c.names))
    lr 0.8750  gnb 0.7918  lr-gnb +0.0832 [+0.0503, +0.1161]  p=8.5e-07

    Three classifiers: every pair, p-values adjusted by Holm's method:

    >>> d = np.where(rng.random(1000) < 0.75, y, rng.integers(0, 3, 1000))
    >>> many = compare_classifiers(y, a, b, d, names=("lr", "gnb", "svc"))
    >>> [c.names for c in many.comparisons]
    [('lr', 'gnb'), ('lr', 'svc'), ('gnb', 'svc')]
    >>> [round(p, 4) for p in many.averaged_fbeta_p_holm]
    [0.0, 0.0147, 0.022]
    """
    caller = "compare_classifiers"
    jackknife = isinstance(method, str) and method == "jackknife"
    options, resampling = check_interval_call(
        caller,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
        confidence=confidence,
        # the option table knows the interval methods; the jackknife is the
        # comparison's own, and draws nothing
        method="delta" if jackknife else _checked_method(method, caller),
        n_resamples=n_resamples,
        random_state=random_state,
        verbose=verbose,
    )
    confidence = resampling.confidence
    method = "jackknife" if jackknife else resampling.method
    predictions = (y_pred_a, y_pred_b, *y_pred_more)
    names = _check_names(names, len(predictions), caller=caller)
    pairs = [
        (i, j) for i in range(len(predictions)) for j in range(i + 1, len(predictions))
    ]
    unweighted_two = sample_weight is None and len(predictions) == 2
    if method == "bootstrap" and not unweighted_two:
        _refuse_foreign_bootstrap(y_true, predictions, sample_weight)
    samplewise = options.average == "samples"
    joint = read_jointly(
        y_true,
        predictions,
        names=_argument_names(len(predictions)),
        sample_weight=sample_weight,
        labels=options.labels if samplewise else None,
        samplewise=samplewise,
        caller=caller,
    )
    readings = joint.readings
    n = joint.n_samples
    if n < 2:  # no spread to estimate: every method would call it significant
        raise ValueError(
            f"{caller} found {n} sample while a minimum of 2 is required: a "
            "paired comparison estimates how the difference varies across "
            "samples, which one sample cannot show."
        )
    one_d = readings[0].counts.kind != "multilabel-indicator"
    options = _one_class_set(options, readings)
    # 1-D targets: the joint (true, pred_i, pred_j) cells of each pair suffice
    # for the delta method, and for a bootstrap of two unweighted classifiers;
    # in memory, up to MAX_PAIR_CELLS cells (else the per-sample design serves)
    held = joint._provides
    in_memory = SAMPLE_ROWS in held
    use_cells = (
        one_d
        and (method != "bootstrap" or unweighted_two)
        and (
            not in_memory
            or method == "jackknife"  # any number of classes: O(cells)
            or all(_k(readings, i, j) ** 3 <= MAX_PAIR_CELLS for i, j in pairs)
        )
    )
    if use_cells and method == "bootstrap" and in_memory:
        # a redraw costs one binomial per cell: cheaper than redrawing the
        # samples only when the cells are few (measured: 2.5x faster at n / 12
        # cells, 3x slower at n / 4), else the samples are redrawn
        use_cells = joint.pair_cells(0, 1).count.shape[0] * _FEW_CELLS <= n
    on_device = INFLUENCE_SUMS in held  # multilabel, device arrays
    if on_device:
        _refuse_device_multilabel(method, str(options.average))
    if use_cells or on_device:
        evaluations = [_evaluated(reading, options, n, caller) for reading in readings]
    else:
        evaluations = [
            evaluation_from(
                reading, options, caller=caller, per_sample=True, warn_for=ALL_METRICS
            )
            for reading in readings
        ]
    spread: dict[tuple[int, int], Any]  # each pair's variances or replicates
    resamples = None
    if method == "jackknife":
        spread = _jackknife_spreads(evaluations, pairs, joint, n, use_cells)
        difference = partial(_from_t, confidence=confidence)
    elif method == "delta":
        if use_cells:
            spread = {
                (i, j): _paired_variances(
                    evaluations[i], evaluations[j], joint.pair_cells(i, j), n
                )
                for i, j in pairs
            }
        elif on_device:
            spread = _device_variances(evaluations, pairs, n, joint.influence_sums)
        else:
            spread = _design_variances(evaluations, pairs, n)
        difference = partial(_from_normal, z=_z(confidence))
    else:
        rng, n_resamples = resampling.rng, resampling.n_resamples
        assert rng is not None
        progress = Progress(
            resampling.verbose, n_resamples, caller=caller, what="paired bootstrap"
        )
        if use_cells:
            # two unweighted classifiers: the joint cells redrawn multinomially
            # (the samples' bootstrap, in O(cells) per resample), each cell
            # standing for a sample of its (true, prediction) in the designs
            cells = joint.pair_cells(0, 1)
            evaluations = [
                replace(ev, design=_cell_totals(ev, cells, column))
                for column, ev in enumerate(evaluations, start=1)
            ]
            block = max(1, min(_BLOCK, (1 << 22) // max(cells.count.shape[0], 1)))
            draw = partial(draw_cells, rng, cells.count)
        else:  # the samples redrawn
            block = _BLOCK
            draw = partial(draw_multiplicities, rng, evaluations[0].n_samples)
        spread = _paired_replicates(
            evaluations, pairs, draw, n_resamples, block, progress
        )
        difference = partial(_from_replicates, confidence=confidence)
        resamples = n_resamples
    comparisons = []
    for i, j in pairs:
        d_avg, d_foa = map(
            difference, evaluations[i].estimates, evaluations[j].estimates, spread[i, j]
        )
        differ = d_avg.difference * d_foa.difference < 0
        # the reversal's p-value: the larger of each formula's one-sided
        # p-value in its own observed direction
        reversal = None
        if differ:
            reversal = max(
                d.p_greater if d.difference > 0 else d.p_less for d in (d_avg, d_foa)
            )
        comparisons.append(
            ClassifierComparison(
                d_avg,
                d_foa,
                str(options.average),
                options.beta,
                confidence,
                method,
                n,
                resamples,
                bool(differ),
                reversal,
                (names[i], names[j]),
            )
        )
    if len(predictions) == 2:
        return comparisons[0]
    return MultipleComparison(
        names=names,
        comparisons=tuple(comparisons),
        averaged_fbeta_p_holm=tuple(
            float(p) for p in holm([c.averaged_fbeta.p_value for c in comparisons])
        ),
        fbeta_of_averages_p_holm=tuple(
            float(p) for p in holm([c.fbeta_of_averages.p_value for c in comparisons])
        ),
    )


#: In memory, the paired bootstrap redraws the joint cells when there are at
#: most ``n / _FEW_CELLS`` of them (benchmarks/bench_comparison.py).
_FEW_CELLS = 8


def _checked_method(method: Any, caller: str) -> Any:
    """``method`` if it is one of :data:`COMPARISON_METHODS`, else the error
    the option table gives, naming every method of the comparison."""
    if isinstance(method, str) and method in COMPARISON_METHODS:
        return method
    choices = ", ".join(map(repr, COMPARISON_METHODS))
    raise InvalidParameterError(
        f"The 'method' parameter of {caller} must be a str among {{{choices}}}. "
        f"Got {method!r} instead."
    )


def _one_class_set(options: Options, readings: list[Reading]) -> Options:
    """Score every classifier over one class set: with ``labels=None``, the
    classes of ``y_true`` and of every prediction set, as if given as
    ``labels`` (a classifier that never predicts a class another predicts
    scores it by ``zero_division``). Unchanged when every classifier already
    has that set, and for averages that pool the classes or take one."""
    if options.labels is not None or options.average not in ("macro", "weighted"):
        return options
    classes = [reading.counts.classes for reading in readings]
    union = classes[0]
    for other in classes[1:]:
        union = union_labels(union, other)
    if all(c.shape == union.shape for c in classes):
        return options
    return replace(options, labels=union)


def _k(readings: list[Reading], i: int, j: int) -> int:
    """The number of classes of y_true and predictions i and j together."""
    a, b = readings[i].counts.classes, readings[j].counts.classes
    return int(union_labels(a, b).shape[0])


def _argument_names(count: int) -> list[str]:
    """``y_pred_a``, ``y_pred_b``, ... as the errors name the predictions."""
    return [
        f"y_pred_{chr(ord('a') + i)}" if i < 26 else f"y_pred_more[{i - 2}]"
        for i in range(count)
    ]


def _refuse_foreign_bootstrap(
    y_true: Any, predictions: tuple[Any, ...], sample_weight: Any
) -> None:
    """The paired bootstrap of Dask collections serves two unweighted
    classifiers only (from their joint cells): refused before any counting."""
    if not lives_elsewhere(y_true, *predictions, sample_weight):
        return
    why = (
        "sample_weight (each sample's weight)"
        if sample_weight is not None
        else f"{len(predictions)} classifiers (the joint cells of every "
        "classifier, to redraw the same samples for every pair)"
    )
    raise ValueError(
        "compare_classifiers(method='bootstrap') on Dask collections (or device "
        "arrays) redraws the joint (true, pred_a, pred_b) cells counted where the "
        f"data live, which serves two unweighted classifiers only; {why} would "
        "need every sample in this process, and such data are never gathered. "
        "Use method='delta' (computed from the joint cells), or compute the "
        "arrays yourself (e.g. y.compute(), or y.cpu()) if they fit in memory."
    )


def _evaluated(reading: Reading, options: Options, n: int, caller: str) -> Evaluation:
    """One classifier's scores from its counts alone (no per-sample design)."""
    counts = reading.counts
    selection, averages = evaluate(counts, options, warn_for=ALL_METRICS, caller=caller)
    return Evaluation(counts, options, selection, averages, n)


def _positions(classes: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Index in ``classes`` (sorted) of each of ``labels`` that it holds (others:
    any valid index, never read)."""
    return np.minimum(np.searchsorted(classes, labels), classes.shape[0] - 1)


def _paired_variances(
    a: Evaluation, b: Evaluation, cells: PairCells, n: int
) -> tuple[float, float]:
    """Delta-method variances of both differences ``S_A - S_B``, from the joint
    cells: a sample in cell (t, p, q) has influence ``w (c_A(t, p) - c_B(t, q))``
    (``c``: each classifier's cell gradients), so the first and second moments
    of the influences are sums over the cells of the weights and squared
    weights (:func:`~._intervals.moment_variance`, a diagonal second moment)."""
    t, p, q = cells.cells.T
    at, bt = (
        _positions(a.counts.classes, cells.classes),
        _positions(b.counts.classes, cells.classes),
    )
    d = a.cell_gradients_at(at[t], at[p]) - b.cell_gradients_at(bt[t], bt[q])
    var_avg, var_foa = moment_variance(d, cells.first, cells.second, n).tolist()
    return var_avg, var_foa


def _design_variances(
    evaluations: list[Evaluation], pairs: list[tuple[int, int]], n: int
) -> dict[tuple[int, int], tuple[float, float]]:
    """Delta-method variances of each pair's differences from the per-sample
    influences (multilabel targets, or too many classes for joint cells)."""
    influences = [np.array(ev.influence()) for ev in evaluations]
    out: dict[tuple[int, int], tuple[float, float]] = {}
    for i, j in pairs:
        differences = influences[i] - influences[j]
        ones = np.ones(differences.shape[1])  # each sample its own term
        var_avg, var_foa = moment_variance(differences, ones, ones, n).tolist()
        out[i, j] = var_avg, var_foa
    return out


def _device_variances(
    evaluations: list[Evaluation],
    pairs: list[tuple[int, int]],
    n: int,
    influence_sums: Callable[..., dict[tuple[int, int], tuple[Any, Any]]],
) -> dict[tuple[int, int], tuple[float, float]]:
    """Delta-method variances of each pair's differences for multilabel targets
    on their device: the source sums the per-sample influence differences and
    their squares there (:func:`moment_variance` with each sample its own
    term: ``sum u**2 - (sum u)**2 / n``)."""
    gradients = [ev._count_gradients().reshape(2, -1) for ev in evaluations]
    out: dict[tuple[int, int], tuple[float, float]] = {}
    for pair, (first, second) in influence_sums(gradients, pairs).items():
        var_avg, var_foa = np.maximum(second - first * first / n, 0.0).tolist()
        out[pair] = var_avg, var_foa
    return out


def _refuse_device_multilabel(method: str, average: str) -> None:
    """What the paired comparison of multilabel device arrays cannot compute
    from sums made on the device."""
    if method == "bootstrap":
        why, instead = "the paired bootstrap redraws every sample", "method='delta'"
    elif method == "jackknife":
        why = "the jackknife leaves out each sample in turn"
        instead = "method='delta'"
    elif average == "samples":
        why = "average='samples' pairs each sample's own score"
        instead = "another average"
    else:
        return
    raise ValueError(
        "compare_classifiers compares multilabel device arrays with the delta "
        f"method, from sums computed on the device; {why}, which would need "
        "every sample in this process, and device arrays are never moved to "
        f"the host for it. Use {instead}, or move the arrays to the CPU "
        "yourself (e.g. y.cpu()) if they fit in memory."
    )


def _cell_totals(evaluation: Evaluation, cells: PairCells, column: int) -> Any:
    """``(n_cells, 3k)``: what one sample of each joint cell adds to the (tp,
    true, pred) totals of a classifier, whose prediction is ``column`` (1 or 2)
    of the cells."""
    classes = evaluation.counts.classes
    where = _positions(classes, cells.classes)
    t, p = where[cells.cells[:, 0]], where[cells.cells[:, column]]
    return one_hot_design(t, p, classes.shape[0])


def _paired_replicates(
    evaluations: list[Evaluation],
    pairs: list[tuple[int, int]],
    draw: Callable[[int], np.ndarray],
    n_resamples: int,
    block: int,
    progress: Progress,
) -> dict[tuple[int, int], list[np.ndarray]]:
    """Paired bootstrap: the same resamples (``draw(rows)``: the multiplicities
    of the rows of the designs, ``block`` resamples at a time) score every
    classifier, once per classifier per resample."""
    reps: dict[tuple[int, int], list[list[np.ndarray]]] = {
        pair: [[], []] for pair in pairs
    }
    for start in range(0, n_resamples, block):
        rows = min(block, n_resamples - start)
        m = draw(rows)
        scores = [ev.replicates_from_multiplicities(m) for ev in evaluations]
        for i, j in pairs:
            for k in range(2):
                reps[i, j][k].append(scores[i][k] - scores[j][k])
        progress.update(start + rows)
    return {pair: [np.concatenate(r) for r in reps[pair]] for pair in pairs}


# ------------------------------------------------------------------ the jackknife
#
# The jackknife leaves each sample out in turn and scores both classifiers on
# the rest. A sample changes the (tp, true, pred) counts of at most a few
# classes (1-D targets: its true class and its predicted class), so each
# left-out score is the full score updated at those classes: O(entries), never
# a table of k classes per sample. Samples of one joint (true, pred_a, pred_b)
# cell leave the same scores, so 1-D targets need one row per cell.


@dataclass(frozen=True)
class LeftOut:
    """What leaving out one row of samples changes in one classifier's counts.

    Row ``rows[e]`` lowers the (tp, true, pred) counts of counted class
    ``classes[e]`` by ``deltas[:, e]`` (each row's classes distinct). A row is
    a joint cell (one sample of it, of the cell's mean weight) or a sample.
    """

    rows: np.ndarray
    classes: np.ndarray
    deltas: np.ndarray  # (3, entries): tp, true, pred
    n_rows: int

    @classmethod
    def of_cells(
        cls, true: np.ndarray, pred: np.ndarray, weight: np.ndarray | None = None
    ) -> LeftOut:
        """Rows of 1-D samples: sample ``j`` has counted classes ``true[j]`` and
        ``pred[j]`` and weight ``weight[j]`` (1 when None)."""
        m = true.shape[0]
        w = np.ones(m) if weight is None else np.asarray(weight, dtype=np.float64)
        hit = (true == pred).astype(np.float64) * w
        other = np.flatnonzero(true != pred)
        zeros = np.zeros(other.shape[0])
        deltas = np.concatenate(
            [np.stack([hit, w, hit]), np.stack([zeros, zeros, w[other]])], axis=1
        )
        rows = np.concatenate([np.arange(m), other])
        return cls(rows, np.concatenate([true, pred[other]]), deltas, m)

    @classmethod
    def of_design(cls, design: Any, k: int) -> LeftOut:
        """Rows of samples from a per-sample design (``n x 3k``: tp | true |
        pred of the counted classes, weighted)."""
        coo = sp.coo_array(design)
        n = int(coo.shape[0])
        key = coo.row.astype(np.int64) * k + coo.col % k
        entries, where = np.unique(key, return_inverse=True)
        deltas = np.zeros((3, entries.shape[0]))
        np.add.at(deltas, (coo.col // k, where.reshape(-1)), coo.data)
        rows, classes = np.divmod(entries, k)
        return cls(rows, classes, deltas, n)


def left_out_scores(
    evaluation: Evaluation,
    left: LeftOut,
    counts: np.ndarray | None = None,
    multiplicity: np.ndarray | None = None,
) -> np.ndarray:
    """``(2, ..., n_rows)``: both scores of ``evaluation`` with each row left
    out. ``counts`` (``(..., 3, k)``: tp, true, pred of the counted classes)
    and ``multiplicity`` (``(..., k)``: how often the selection takes each
    counted class) replace the evaluation's own: a stack of them scores many
    count tables over the same rows at once (the calibration benchmark)."""
    options = evaluation.options
    if counts is None:
        c = evaluation.counts
        counts = np.array([c.tp, c.true, c.pred], dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    k = counts.shape[-1]
    index = evaluation.index
    n_absent = 0
    if multiplicity is None:
        multiplicity = np.bincount(index[index >= 0], minlength=k).astype(np.float64)
        n_absent = int(np.count_nonzero(index < 0))
    rule = {"beta": options.beta, "zero_division": options.zero_division}
    changed = counts[..., :, left.classes] - left.deltas
    unit = multiplicity[..., left.classes]
    gather = sp.csr_array(
        (np.ones(left.rows.shape[0]), (np.arange(left.rows.shape[0]), left.rows)),
        shape=(left.rows.shape[0], left.n_rows),
    )

    def per_row(x: np.ndarray) -> np.ndarray:  # sum of (..., entries) per row
        if x.shape[-1] == 0:  # no row counts anything (all-zero indicators)
            return np.zeros((*x.shape[:-1], left.n_rows))
        flat = x.reshape(-1, x.shape[-1])
        return np.asarray(gather.T @ flat.T).T.reshape(*x.shape[:-1], left.n_rows)

    if options.average == "micro":  # one pooled class, lowered per row
        pooled = (counts * multiplicity[..., None, :]).sum(-1)
        lowered = pooled[..., None] - per_row(unit[..., None, :] * left.deltas)
        r = ratios(*np.moveaxis(lowered, -2, 0), **rule)
        return np.stack([r.fbeta, harmonic_fbeta(r.precision, r.recall, options.beta)])
    before = ratios(*np.moveaxis(counts, -2, 0), **rule)
    after = ratios(*np.moveaxis(changed, -2, 0), **rule)
    fill = zero_division_fill(options.zero_division)
    # the supports weigh the means of average="weighted"
    w_before = multiplicity * counts[..., 1, :]
    w_after = unit * changed[..., 1, :]

    def sums(x_b: np.ndarray, x_a: np.ndarray, w_b: Any, w_a: Any) -> Any:
        """Each row's (weighted sum, sum of weights) of the defined ratios."""
        d_b, d_a = ~np.isnan(x_b), ~np.isnan(x_a)
        v_b = np.where(d_b, x_b, 0.0) * w_b
        v_a, m_b = np.where(d_a, x_a, 0.0) * w_a, d_b * w_b
        total = v_b.sum(-1)[..., None] + per_row(v_a - v_b[..., left.classes])
        weight = m_b.sum(-1)[..., None] + per_row(d_a * w_a - m_b[..., left.classes])
        return total, weight

    def mean(x_b: np.ndarray, x_a: np.ndarray) -> np.ndarray:
        """The selection's nan-aware mean of one ratio, each row left out."""
        plain, count = sums(x_b, x_a, multiplicity, unit)
        if n_absent and not math.isnan(fill):  # selected labels never counted
            plain, count = plain + n_absent * fill, count + n_absent
        with np.errstate(divide="ignore", invalid="ignore"):
            out: np.ndarray = plain / count
            if options.average == "weighted":  # the plain mean if no support
                total, weight = sums(x_b, x_a, w_before, w_after)
                out = np.where(weight != 0, total / weight, out)
        return out

    precision = mean(before.precision, after.precision)
    recall = mean(before.recall, after.recall)
    return np.stack(
        [
            mean(before.fbeta, after.fbeta),
            harmonic_fbeta(precision, recall, options.beta),
        ]
    )


def _samples_left_out(evaluation: Evaluation) -> np.ndarray:
    """``(2, n)``: both scores of ``average="samples"`` with each sample left
    out: the means over samples lose that sample's term."""
    per = evaluation.averages.per_class
    w = evaluation.sample_weight
    assert w is not None  # set for average="samples"
    assert evaluation.row_count is None  # in memory: one row per sample

    def mean(x: np.ndarray) -> np.ndarray:
        d = ~np.isnan(x)
        v, m = np.where(d, x, 0.0), d.astype(np.float64)
        total, weight = (v * w).sum() - v * w, (m * w).sum() - m * w
        plain, count = v.sum() - v, m.sum() - m
        with np.errstate(divide="ignore", invalid="ignore"):
            out: np.ndarray = np.where(weight != 0, total / weight, plain / count)
        return out

    precision, recall = mean(per.precision), mean(per.recall)
    return np.stack(
        [mean(per.fbeta), harmonic_fbeta(precision, recall, evaluation.options.beta)]
    )


def jackknife_spread(
    difference: np.ndarray,
    left_out: np.ndarray,
    count: np.ndarray,
    square: np.ndarray,
    n: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Jackknife variances and t degrees of freedom of differences.

    ``left_out`` (``(..., rows)``) holds the difference with one sample of
    each row left out, ``difference`` (``(...,)``) the full sample's. Row ``j``
    stands for ``count[j]`` samples; ``square[j]`` is the sum of their squared
    weights relative to the row's mean weight (``count`` when unweighted): a
    sample of relative weight ``r`` moves the difference ``r`` times as far
    as the row's. The variance is ``(n - 1) / n`` times the sum of squared
    deviations of the left-out values from their mean; the degrees of freedom,
    ``2 S2**2 / (S4 - S2**2 / n)`` from the second and fourth sums of
    deviations (a scaled chi-square matched to the estimated variance of the
    variance: few or uneven deviations, few degrees of freedom), at most
    ``n - 1``.
    """
    e = left_out - difference[..., None]
    with np.errstate(invalid="ignore"):
        s1 = (e * count).sum(-1)
        s2 = np.maximum((e * e * square).sum(-1) - s1 * s1 / n, 0.0)
        spread = np.sqrt(
            np.divide(square, count, out=np.ones_like(square), where=count > 0)
        )
        c = e * spread - (s1 / n)[..., None]
        s4 = ((c * c) ** 2 * count).sum(-1)
        excess = s4 - s2 * s2 / n
        df = np.where(
            excess > 0, 2 * s2 * s2 / np.where(excess > 0, excess, 1.0), np.inf
        )
    # n left-out values carry at most n - 1 degrees of freedom (deviations of
    # equal size make the formula's denominator 0: n = 2 always does)
    return (n - 1) / n * s2, np.clip(df, 1.0, max(n - 1, 1))


def _jackknife_spreads(
    evaluations: list[Evaluation],
    pairs: list[tuple[int, int]],
    joint: Any,
    n: int,
    cells: bool,
) -> dict[tuple[int, int], list[tuple[float, float]]]:
    """The jackknife (variance, degrees of freedom) of each pair's
    differences, per formula: from the pair's joint cells (1-D targets: the
    samples of a cell leave the same scores; weighted, the cell's mean weight
    is left out and each sample scales it by its weight), else sample by
    sample from the per-sample designs (multilabel)."""
    out: dict[tuple[int, int], list[tuple[float, float]]] = {}
    if not cells:
        left = [
            _samples_left_out(ev)
            if ev.options.average == "samples"
            else left_out_scores(ev, LeftOut.of_design(ev.design, ev.counts.n_classes))
            for ev in evaluations
        ]
        ones = np.ones(n)
    for i, j in pairs:
        a, b = evaluations[i], evaluations[j]
        d = np.subtract(a.estimates, b.estimates)
        if cells:
            pair = joint.pair_cells(i, j)
            count = pair.count.astype(np.float64)
            mean_weight = None
            square = count
            if pair.weight is not None:
                mean_weight = np.divide(
                    pair.first, count, out=np.zeros_like(count), where=count > 0
                )
                square = np.divide(
                    pair.second,
                    mean_weight**2,
                    out=np.zeros_like(count),
                    where=mean_weight != 0,
                )
            t, p, q = pair.cells.T
            theta = [
                left_out_scores(
                    ev,
                    LeftOut.of_cells(where[t], where[pred], mean_weight),
                )
                for ev, pred, where in (
                    (a, p, _positions(a.counts.classes, pair.classes)),
                    (b, q, _positions(b.counts.classes, pair.classes)),
                )
            ]
            variance, df = jackknife_spread(d, theta[0] - theta[1], count, square, n)
        else:
            variance, df = jackknife_spread(d, left[i] - left[j], ones, ones, n)
        out[i, j] = list(zip(variance.tolist(), df.tolist(), strict=True))
    return out


def _from_t(
    a: float, b: float, spread: tuple[float, float], *, confidence: float
) -> ScoreDifference:
    """A difference with its jackknife standard error and a t reference."""
    variance, df = spread
    d = a - b
    se = math.sqrt(variance)
    nan = math.nan
    if math.isnan(d) or math.isnan(se):
        return ScoreDifference(a, b, d, nan, nan, nan, nan, nan, nan, df=df)
    if se == 0:
        p_greater = 0.0 if d > 0 else 1.0
        p_less = 0.0 if d < 0 else 1.0
    else:
        p_greater = float(stdtr(df, -d / se))  # H0: A <= B
        p_less = float(stdtr(df, d / se))  # H0: A >= B
    p = min(1.0, 2 * min(p_greater, p_less))
    half = float(stdtrit(df, 0.5 + confidence / 2)) * se
    return ScoreDifference(a, b, d, d - half, d + half, se, p, p_greater, p_less, df=df)


def holm(p_values: Any) -> np.ndarray:
    """Holm's step-down adjustment of ``m`` p-values (family-wise error rate).

    The ``i``-th smallest p-value is multiplied by ``m - i`` (``i`` from 0), the
    running maximum is taken so that the order is kept, and values are capped
    at 1; nan p-values stay nan and do not count in ``m``.
    """
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    defined = np.flatnonzero(~np.isnan(p))
    m = defined.shape[0]
    if m == 0:
        return out
    order = defined[np.argsort(p[defined], kind="stable")]
    adjusted = np.maximum.accumulate(p[order] * (m - np.arange(m)))
    out[order] = np.minimum(adjusted, 1.0)
    return out
