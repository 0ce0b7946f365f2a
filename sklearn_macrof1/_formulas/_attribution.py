"""The gap between the two F-beta formulas as a sum over class pairs.

The reference paper's Lemma (Opitz & Burst, "Macro F1 and Macro F1") writes the
macro F1 gap as a sum of non-negative class-pair terms. The same algebra holds
for any weighted mean over classes and any beta. With class weights ``w_i``
(summing to 1: ``1/n`` for macro, ``support_i / sum(support)`` for weighted),
``a_i = b² P_i + R_i``, ``A = sum_i w_i a_i`` and ``F_i = (1+b²) P_i R_i / a_i``,

    F-beta of averages - averaged F-beta
        = (1+b²) P̄ R̄ / A - sum_x w_x F_x
        = (1+b²) / A * sum_{x,y} w_x w_y P_x (a_x R_y - a_y R_x) / a_x
        = (1+b²) b² / (2A) * sum_{x,y} w_x w_y (P_x R_y - P_y R_x)² / (a_x a_y)

(the last step symmetrises the (x, y) and (y, x) terms and uses
``a_x R_y - a_y R_x = b² (P_x R_y - P_y R_x)`` and
``P_x a_y - P_y a_x = P_x R_y - P_y R_x``). With ``w_i = 1/n`` and ``b = 1`` this
is the Lemma. Both sums run over classes with ``a_i > 0``; a class with
``P_i = R_i = 0`` adds nothing to either score's numerator and drops out.

The exact identity needs ``F_i = H_beta(P_i, R_i)`` for every class (true for
``zero_division`` 0, 1 or "warn") and one set of weights for P, R and F (false
where ``zero_division=nan`` leaves different classes out of each mean).
"""

from __future__ import annotations

import math

import numpy as np


def class_weights(support: np.ndarray, average: str) -> np.ndarray:
    """The weights of the per-class mean of ``average`` ("macro" or "weighted"),
    summing to 1 (the plain mean when every support is 0, as scikit-learn)."""
    k = support.shape[0]
    if average == "weighted":
        support = np.asarray(support, dtype=np.float64)
        total = float(support.sum())
        if total > 0:
            return support / total
    return np.full(k, 1.0 / k)


def gap_pair_terms(
    precision: np.ndarray,
    recall: np.ndarray,
    weights: np.ndarray,
    beta: float,
) -> np.ndarray:
    """The k x k table of class-pair terms whose sum is the gap.

    Entry ``(x, y)`` is ``(1+b²) b² / (2A) * w_x w_y (P_x R_y - P_y R_x)² /
    (a_x a_y)``: symmetric, zero on the diagonal and wherever ``a = b² P + R``
    is 0; each unordered pair's share of the gap is split equally between
    ``(x, y)`` and ``(y, x)``, so row sums give per-class shares that add up to
    the gap too. ``precision``, ``recall`` and ``weights`` are 1-D float64
    arrays, finite, in [0, 1]; ``weights`` sum to 1. beta 0 or inf: the two
    formulas coincide (F-beta is P, resp. R), every term is 0.
    """
    p, r, w = precision, recall, weights
    k = p.shape[0]
    table = np.zeros((k, k))
    if beta == 0 or math.isinf(beta):
        return table
    beta2 = beta * beta
    a = beta2 * p + r
    total = float(np.dot(w, a))
    keep = np.flatnonzero(a > 0)
    if total == 0 or keep.shape[0] < 2:
        return table
    p, r, w, a = p[keep], r[keep], w[keep], a[keep]
    cross = np.outer(p, r)
    cross -= cross.T  # P_x R_y - P_y R_x
    # w_x (P_x R_y - P_y R_x) / a_x, dividing first: |D_xy| / a_x is bounded
    # (by R_y / b² + P_y) even where a_x is tiny, so nothing overflows
    scaled = w[:, None] * (cross / a[:, None])
    # (w_x D / a_x) * (w_y D / a_y): no underflow of D² before the division
    terms = scaled * scaled.T  # = -w_x w_y D² / (a_x a_y): D_yx = -D_xy
    terms *= -(1 + beta2) * beta2 / (2 * total)
    terms += 0.0  # no negative zeros in the table
    np.fill_diagonal(terms, 0.0)
    table[np.ix_(keep, keep)] = terms
    return table
