"""The score of a decision rule, from counts.

Every score the tuners maximise is a function of per-group counts, where a group
is a class (a label for multilabel targets) or, for ``average="samples"``, a
sample. Each group contributes a few additive *terms* (its averaging weight times
its ratio, and whether the ratio is defined), and the score is a function of the
sums of the terms over the groups. A decision rule that moves one sample from
one class to another changes the terms of two groups only, so a tuner scores a
candidate rule by updating a few sums (O(1) per move), never by recounting the
``n`` samples.

The formulas are those of the package's score functions (checked against them in
the tests to 1e-12): precision ``tp / pred``, recall ``tp / true`` and F-beta
``(1 + b²) tp / (b² true + pred)``, ``zero_division`` where the denominator is 0
(left out of the means when it is nan), means weighted by the support for
``average="weighted"`` and by the sample weights for ``average="samples"``
(scikit-learn's ``_nanaverage``: the plain mean of the defined entries when their
weights sum to 0, nan when none is defined), pooled counts for "micro", and the
weighted harmonic mean ``H_beta(P, R)`` of the averages for F-beta of averages.

*Smoothing* (the tuners' guard against over-fitting rare classes) replaces, in
the objective only, a defined ratio ``num / den`` of a class by
``(num + alpha / 2) / (den + alpha)``: ``alpha`` pseudo-predictions, half of them
correct, added to each class. A class predicted a handful of times can then no
longer reach a precision of 1 by luck: the tuner must predict it often enough for
its measured precision to outweigh the prior.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: The two formulas of "macro F-beta".
FORMULAS = ("averaged", "of_averages")


@dataclass(frozen=True)
class Objective:
    """A score as a function of summed per-group terms.

    ``fill`` is the value of an ill-defined ratio (nan: left out of the means);
    ``smoothing`` is the pseudo-count ``alpha`` (in units of sample weight) applied
    to the ratios of classes (not to the ratios of samples, nor to pooled counts);
    0 gives the exact score.
    """

    formula: str
    beta: float
    average: str
    fill: float
    smoothing: float = 0.0

    @property
    def n_terms(self) -> int:
        if self.average == "micro":
            return 5
        return 4 if self.formula == "averaged" else 8

    def exact(self) -> Objective:
        """The same score without smoothing."""
        if self.smoothing == 0:
            return self
        return Objective(self.formula, self.beta, self.average, self.fill, 0.0)

    # ------------------------------------------------------------------ terms
    def terms(
        self,
        tp: np.ndarray,
        pred: np.ndarray,
        true: np.ndarray,
        n_pred: np.ndarray,
        n_true: np.ndarray,
        weight: np.ndarray | float = 1.0,
    ) -> np.ndarray:
        """The terms of each group, shape ``tp.shape + (n_terms,)``.

        ``tp``, ``pred`` and ``true`` are (weighted) counts; ``n_pred`` and
        ``n_true`` the numbers of samples with a positive weight behind ``pred``
        and ``true`` (a ratio is defined where its count is positive, which
        rounding in the weighted sums cannot blur). ``weight`` is each group's
        averaging weight (macro: 1; weighted: the support; samples: the sample
        weight). Groups outside the selection must be masked by the caller.
        """
        tp = np.asarray(tp, dtype=np.float64)
        pred = np.asarray(pred, dtype=np.float64)
        true = np.asarray(true, dtype=np.float64)
        has_pred = np.asarray(n_pred) > 0
        has_true = np.asarray(n_true) > 0
        if self.average == "micro":
            return _stack_last(tp, pred, true, has_pred, has_true)
        alpha = self.smoothing if self.average != "samples" else 0.0
        if self.formula == "averaged":
            ratios = [self._fbeta(tp, pred, true, has_pred, has_true, alpha)]
        else:
            ratios = [
                _ratio(tp, pred, has_pred, self.fill, alpha),
                _ratio(tp, true, has_true, self.fill, alpha),
            ]
        shape = np.broadcast(*(a for ratio in ratios for a in ratio), weight).shape
        block = np.empty((4 * len(ratios), *shape))
        for i, (value, counted) in enumerate(ratios):
            _mean_terms(block[4 * i : 4 * i + 4], value, counted, weight)
        return block.transpose(*range(1, block.ndim), 0)

    def _fbeta(
        self,
        tp: np.ndarray,
        pred: np.ndarray,
        true: np.ndarray,
        has_pred: np.ndarray,
        has_true: np.ndarray,
        alpha: float,
    ) -> tuple[np.ndarray, np.ndarray]:
        if self.beta == 0:
            return _ratio(tp, pred, has_pred, self.fill, alpha)
        if math.isinf(self.beta):
            return _ratio(tp, true, has_true, self.fill, alpha)
        beta2 = self.beta * self.beta
        if alpha:  # F = tp / m with m = (b² true + pred) / (1 + b²), smoothed
            size = (beta2 * true + pred) / (1 + beta2)
            return _ratio(tp, size, has_pred | has_true, self.fill, alpha)
        return _ratio(
            (1 + beta2) * tp, beta2 * true + pred, has_pred | has_true, self.fill, 0.0
        )

    # ------------------------------------------------------------------ value
    def value(self, sums: np.ndarray) -> np.ndarray:
        """The score of summed terms (shape ``(..., n_terms)`` to ``(...)``)."""
        sums = np.asarray(sums, dtype=np.float64)
        if self.average == "micro":
            return self._micro(sums)
        if self.formula == "averaged":
            return _nan_mean(sums[..., :4])
        precision = _nan_mean(sums[..., :4])
        recall = _nan_mean(sums[..., 4:])
        return harmonic(precision, recall, self.beta)

    def _micro(self, sums: np.ndarray) -> np.ndarray:
        return self.micro_value(*(sums[..., i] for i in range(5)))

    def micro_value(
        self,
        tp: np.ndarray,
        pred: np.ndarray,
        true: np.ndarray | float,
        n_pred: np.ndarray,
        n_true: np.ndarray | float,
    ) -> np.ndarray:
        """The score of pooled counts (``average="micro"``), without stacking
        them into terms (a curve of millions of cuts: scalars broadcast)."""
        true = np.asarray(true, dtype=np.float64)
        has_pred, has_true = np.asarray(n_pred) > 0, np.asarray(n_true) > 0
        precision, _ = _ratio(tp, pred, has_pred, self.fill, 0.0)
        recall, _ = _ratio(tp, true, has_true, self.fill, 0.0)
        if self.formula == "of_averages":
            return harmonic(precision, recall, self.beta)
        fbeta, _ = self._fbeta(tp, pred, true, has_pred, has_true, 0.0)
        return fbeta

    def score(
        self,
        tp: np.ndarray,
        pred: np.ndarray,
        true: np.ndarray,
        n_pred: np.ndarray,
        n_true: np.ndarray,
        weight: np.ndarray | float = 1.0,
        constant: np.ndarray | None = None,
    ) -> float:
        """The score of one set of per-group counts (``constant``: terms of groups
        that cannot change, such as requested labels absent from the classes)."""
        sums = self.terms(tp, pred, true, n_pred, n_true, weight).sum(axis=-2)
        if constant is not None:
            sums = sums + constant
        return float(self.value(sums))


def _stack_last(*columns: np.ndarray) -> np.ndarray:
    """The columns stacked along a last axis, as a view of one block per column
    (stacking along the last axis directly interleaves the values, several times
    slower on millions of groups)."""
    shape = np.broadcast(*columns).shape
    block = np.empty((len(columns), *shape))
    for row, column in zip(block, columns, strict=True):
        row[...] = column
    return block.transpose(*range(1, block.ndim), 0)


def _ratio(
    numerator: np.ndarray,
    denominator: np.ndarray,
    defined: np.ndarray,
    fill: float,
    alpha: float,
) -> tuple[np.ndarray, np.ndarray]:
    """``numerator / denominator`` where ``defined``, else ``fill``; and whether
    each entry counts in a mean (defined, or ``fill`` is not nan)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (numerator + alpha / 2) / (denominator + alpha)
    value = np.where(defined, value, fill)
    counted = defined if math.isnan(fill) else np.ones_like(defined)
    return value, counted


def _mean_terms(
    out: np.ndarray,
    value: np.ndarray,
    counted: np.ndarray,
    weight: np.ndarray | float,
) -> None:
    """``out[:4]`` = ``(w v, w, v, 1)`` where ``counted``, 0 elsewhere: the
    terms of :func:`_nan_mean`, written in place."""
    out[2] = np.where(counted, value, 0.0)
    out[3] = counted
    np.multiply(weight, out[2], out=out[0])
    np.multiply(weight, out[3], out=out[1])


def _nan_mean(sums: np.ndarray) -> np.ndarray:
    """scikit-learn's ``_nanaverage`` from ``(Σ w v, Σ w, Σ v, n)`` of the defined
    entries: the weighted mean, the plain mean where the weights sum to 0, nan
    where no entry is defined."""
    weighted, weight, plain, count = (sums[..., i] for i in range(4))
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(weight != 0, weighted / weight, plain / count)
    return np.where(count > 0, mean, np.nan)


def harmonic(precision: np.ndarray, recall: np.ndarray, beta: float) -> np.ndarray:
    """``(1 + b²) P R / (b² P + R)``: 0 where P = R = 0, P for b = 0, R for
    b = inf, nan where P or R is nan."""
    precision = np.asarray(precision, dtype=np.float64)
    recall = np.asarray(recall, dtype=np.float64)
    if beta == 0:
        return precision
    if math.isinf(beta):
        return recall
    beta2 = beta * beta
    numerator = (1 + beta2) * precision * recall
    denominator = beta2 * precision + recall
    with np.errstate(divide="ignore", invalid="ignore"):
        out = numerator / denominator
    return np.where(denominator == 0, 0.0, out)
