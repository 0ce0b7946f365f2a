"""Paired comparison of two classifiers under both F-beta formulas.

Both classifiers are scored on the same samples, so their scores are
correlated; the difference ``S_A - S_B`` is analysed per sample:

- delta method: the influence of sample ``i`` on the difference is
  ``u_i^A - u_i^B`` (see :mod:`._intervals`), i.e. the multinomial delta method
  on the joint (true, pred_A, pred_B) table without building it;
- paired bootstrap: the same resampled samples score both classifiers.

The p-value is two-sided for "no difference". The two formulas *rank the
classifiers differently* when the differences have opposite signs; that
reversal is significant at level ``alpha`` when both one-sided tests in the
observed directions reject (an intersection-union test, whose p-value is the
larger of the two one-sided p-values).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import ndtr

from .._core._aggregation import ALL_METRICS
from ._intervals import (
    _BLOCK,
    _z,
    check_call,
    draw_multiplicities,
    evaluation_for,
)


@dataclass(frozen=True)
class ScoreDifference:
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
        Its standard error (delta method) or bootstrap standard deviation.
    p_value : float
        Two-sided p-value of "no difference".
    p_greater, p_less : float
        One-sided p-values of "A is not better" and "A is not worse".
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

    def __str__(self) -> str:
        return (
            f"A {self.score_a:.4f}  B {self.score_b:.4f}  A-B {self.difference:+.4f} "
            f"[{self.low:+.4f}, {self.high:+.4f}]  p={self.p_value:.3g}"
        )


@dataclass(frozen=True)
class ClassifierComparison:
    """Paired comparison of classifiers A and B under both formulas.

    Returned by :func:`compare_classifiers`.

    Attributes
    ----------
    averaged_fbeta, fbeta_of_averages : ScoreDifference
        The difference ``A - B`` under each formula.
    average : str
    beta : float
    confidence : float
    method : {"delta", "bootstrap"}
    n_samples : int
    n_resamples : int or None
    rankings_differ : bool
        True when the formulas prefer different classifiers (differences of
        opposite signs, neither zero).
    reversal_p_value : float or None
        p-value of the intersection-union test that the ranking reversal is
        real (the larger one-sided p-value); None when the rankings agree.
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

    @property
    def statement(self) -> str:
        """A plain-language answer: which classifier each formula prefers."""
        alpha = 1 - self.confidence
        name = "F1" if self.beta == 1 else f"F{self.beta:g}"
        parts = []
        for label, d in (
            (f"averaged {name}", self.averaged_fbeta),
            (f"{name} of averages", self.fbeta_of_averages),
        ):
            if d.difference == 0:
                verdict = "does not separate A and B"
            else:
                better = "A" if d.difference > 0 else "B"
                sig = "significant" if d.p_value < alpha else "not significant"
                verdict = (
                    f"prefers {better} by {abs(d.difference):.4f} "
                    f"(p={d.p_value:.3g}, {sig} at {alpha:.0%})"
                )
            parts.append(f"{label} {verdict}")
        text = "; ".join(parts) + ". "
        if self.rankings_differ:
            p = self.reversal_p_value
            assert p is not None
            sig = (
                "significant: both differences are"
                if p < alpha
                else "not significant: at least one difference is not"
            )
            text += (
                "The two formulas rank the classifiers differently; the reversal "
                f"is {sig} (intersection-union p={p:.3g})."
            )
        else:
            text += "The two formulas do not rank the classifiers differently."
        return text

    def __str__(self) -> str:
        name = "F1" if self.beta == 1 else f"F{self.beta:g}"
        how = (
            "delta method"
            if self.method == "delta"
            else f"paired bootstrap, {self.n_resamples} resamples"
        )
        return "\n".join(
            [
                f"A vs B (average={self.average!r}, {how}, n={self.n_samples}, "
                f"{self.confidence:.0%} intervals)",
                f"  averaged {name}     {self.averaged_fbeta}",
                f"  {name} of averages  {self.fbeta_of_averages}",
                self.statement,
            ]
        )


def _from_normal(a: float, b: float, variance: float, z: float) -> ScoreDifference:
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
    a: float, b: float, replicates: np.ndarray, confidence: float
) -> ScoreDifference:
    d = a - b
    replicates = replicates[~np.isnan(replicates)]
    m = replicates.shape[0]
    if math.isnan(d) or m < 2:
        nan = math.nan
        return ScoreDifference(a, b, d, nan, nan, nan, nan, nan, nan)
    alpha = 1 - confidence
    low, high = np.quantile(replicates, [alpha / 2, 1 - alpha / 2])
    # one-sided p-values from the bootstrap distribution (share of replicates
    # on the other side of 0, +1 correction so that p > 0)
    p_greater = min(1.0, (np.count_nonzero(replicates <= 0) + 1) / (m + 1))
    p_less = min(1.0, (np.count_nonzero(replicates >= 0) + 1) / (m + 1))
    p = min(1.0, 2 * min(p_greater, p_less))
    return ScoreDifference(
        a,
        b,
        d,
        min(float(low), d),
        max(float(high), d),
        float(np.std(replicates, ddof=1)),
        p,
        p_greater,
        p_less,
    )


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
    method: str = "delta",
    n_resamples: int = 1000,
    random_state: Any = None,
) -> ClassifierComparison:
    """Is classifier A better than B, under each of the two F-beta formulas?

    Paired comparison on the same samples: the difference ``A - B`` of the
    averaged F-beta and of the F-beta of averages, each with a confidence
    interval and a p-value, and whether the formulas rank A and B differently.
    Each classifier is scored exactly as the score functions score it alone
    (its own classes, ``labels``, ``zero_division``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or {array-like, sparse matrix} of \
shape (n_samples, n_labels)
        Ground truth.
    y_pred_a, y_pred_b : same kind as ``y_true``
        Predictions of classifiers A and B for the same samples.
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
    method : {"delta", "bootstrap"}, default="delta"
        "delta": delta method on the per-sample influences of both classifiers
        (the joint table of true label and both predictions). "bootstrap":
        paired percentile bootstrap over samples.
    n_resamples : int, default=1000
        Bootstrap replicates.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the bootstrap.

    Returns
    -------
    comparison : ClassifierComparison
        ``comparison.averaged_fbeta`` and ``comparison.fbeta_of_averages`` hold
        the differences; ``comparison.statement`` says it in words.

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
    """
    caller = "compare_classifiers"
    options, confidence, method, n_resamples, rng = check_call(
        caller, beta, labels, pos_label, average, zero_division,
        confidence, method, n_resamples, random_state,
    )  # fmt: skip
    ev_a, ev_b = (
        evaluation_for(
            y_true,
            y_pred,
            options,
            sample_weight=sample_weight,
            caller=caller,
            per_sample=True,
            warn_for=ALL_METRICS,
        )
        for y_pred in (y_pred_a, y_pred_b)
    )
    n = ev_a.n_samples
    if ev_b.n_samples != n:  # pragma: no cover - both checked against y_true
        raise ValueError("y_pred_a and y_pred_b must have the same number of samples")
    if ev_a.counts.kind != ev_b.counts.kind and "multilabel-indicator" in (
        ev_a.counts.kind,
        ev_b.counts.kind,
    ):  # pragma: no cover - read_targets already refuses the mix
        raise ValueError("y_pred_a and y_pred_b must be of the same target type")
    est_a, est_b = ev_a.estimates, ev_b.estimates
    if method == "delta":
        z = _z(confidence)
        diffs = []
        for u_a, u_b, a, b in zip(
            ev_a.influence(), ev_b.influence(), est_a, est_b, strict=True
        ):
            u = u_a - u_b
            variance = max(float(u @ u) - float(u.sum()) ** 2 / n, 0.0)
            diffs.append(_from_normal(a, b, variance, z))
        resamples = None
    else:
        assert rng is not None
        reps: list[list[np.ndarray]] = [[], []]
        for start in range(0, n_resamples, _BLOCK):
            rows = min(_BLOCK, n_resamples - start)
            m = draw_multiplicities(rng, n, rows)
            for j, (ra, rb) in enumerate(
                zip(
                    ev_a.replicates_from_multiplicities(m),
                    ev_b.replicates_from_multiplicities(m),
                    strict=True,
                )
            ):
                reps[j].append(ra - rb)
        diffs = [
            _from_replicates(a, b, np.concatenate(r), confidence)
            for r, a, b in zip(reps, est_a, est_b, strict=True)
        ]
        resamples = n_resamples
    d_avg, d_foa = diffs
    differ = d_avg.difference * d_foa.difference < 0
    reversal = None
    if differ:
        # each formula's one-sided p-value in its own observed direction
        reversal = max(
            d.p_greater if d.difference > 0 else d.p_less for d in (d_avg, d_foa)
        )
    return ClassifierComparison(
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
    )
