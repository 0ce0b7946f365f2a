"""The reference paper's analysis of the gap (Opitz & Burst, "Macro F1 and Macro F1").

- :func:`gap_closed_form`: the Lemma, the gap between F1 of averages and averaged F1
  (macro averaging, beta = 1) in closed form from per-class precision and recall;
- :func:`gap_bound`: Theorem 3, the least upper bound of that gap for n classes;
- :func:`supremum_confusion_matrix`: the paper's sequence of confusion matrices
  (Appendix C, proof 3) whose gap approaches that bound as ``z`` grows.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._attribution import gap_class_terms


def _as_rates(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(
            f"{name} must be a non-empty 1-D array of per-class values; got shape "
            f"{arr.shape}."
        )
    if not np.isfinite(arr).all() or (arr < 0).any() or (arr > 1).any():
        raise ValueError(f"{name} must hold finite values in [0, 1]; got {arr!r}.")
    return arr


def _is_integer_from(value: Any, least: int) -> bool:
    """Whether ``value`` is an integer (not a bool) of at least ``least``."""
    return (
        isinstance(value, numbers.Integral)
        and not isinstance(value, bool)
        and int(value) >= least
    )


def gap_closed_form(precision: Any, recall: Any) -> float:
    """The Lemma: macro F1 of averages minus macro averaged F1, in closed form.

    For per-class precision ``P`` and recall ``R`` over ``n`` classes,

        gap = 1 / (n * sum_x (P_x + R_x))
              * sum_{x, y} (P_x R_y - P_y R_x)**2 / ((P_x + R_x) (P_y + R_y)),

    both sums over the classes with ``P + R > 0``. It is zero exactly when
    ``P_x R_y == P_y R_x`` for all those pairs; when every class has
    ``P_i, R_i > 0`` (the paper's setting), exactly when every class has
    ``P_i == R_i`` (Theorem, part 2). A class with no true positive has
    ``P = R = 0`` (``zero_division=0``) and drops out of both sums.

    Parameters
    ----------
    precision, recall : array-like of shape (n_classes,)
        Per-class precision and recall, in [0, 1].

    Returns
    -------
    gap : float

    Examples
    --------
    The paper's Table 1 (two classes, P = (0.0099, 1), R = (1, 0.0099)):

    >>> from sklearn_macrof1 import gap_closed_form
    >>> round(gap_closed_form([100 / 10100, 100 / 100], [100 / 100, 100 / 10100]), 6)
    0.485343
    """
    p = _as_rates(precision, "precision")
    r = _as_rates(recall, "recall")
    if p.shape != r.shape:
        raise ValueError(
            f"precision and recall must have the same length; got {p.shape[0]} and "
            f"{r.shape[0]}."
        )
    # The double sum is the Lemma's pair table summed (macro weights 1 / n,
    # beta 1): its row sums have a closed form in O(k) time and memory.
    n = p.shape[0]
    return float(gap_class_terms(p, r, np.full(n, 1.0 / n), 1.0).sum())


def gap_bound(n_classes: int) -> float:
    """Theorem 3: the supremum of the macro F1 gap for ``n_classes`` classes.

    0.5 for an even number of classes, ``0.5 - 1 / (2 n**2)`` for an odd number.
    The gap gets arbitrarily close to it but never reaches it (with
    ``zero_division=1`` an ill-defined class can reach it). A summary's
    :attr:`FBetaSummary.gap_bound` is this bound for its classes, and
    :func:`classification_report` shows it on the macro row as ``gap-bound``.

    Parameters
    ----------
    n_classes : int
        Number of classes, at least 1.

    Returns
    -------
    bound : float

    Examples
    --------
    >>> from sklearn_macrof1 import gap_bound
    >>> gap_bound(2), gap_bound(3)
    (0.5, 0.4444444444444444)
    """
    if not _is_integer_from(n_classes, 1):
        raise ValueError(f"n_classes must be a positive integer; got {n_classes!r}.")
    n = int(n_classes)
    return 0.5 if n % 2 == 0 else 0.5 - 1.0 / (2.0 * n * n)


def supremum_confusion_matrix(n_classes: int, z: float) -> np.ndarray:
    """The paper's confusion matrix ``m_z^n`` whose gap tends to :func:`gap_bound`.

    Rows are **predictions** and columns true labels (the paper's orientation).
    Classes come in pairs with blocks ``[[1, 0], [z, 1]]``; for an odd number
    of classes the last three form ``[[1, 0, 0], [z, 1, z], [0, 0, 1]]``. As
    ``z`` grows, half the classes approach (P, R) = (1, 0) and the others (0, 1).

    Examples
    --------
    >>> from sklearn_macrof1 import supremum_confusion_matrix
    >>> supremum_confusion_matrix(2, 100.0)
    array([[  1.,   0.],
           [100.,   1.]])
    """
    if not _is_integer_from(n_classes, 2):
        raise ValueError(f"n_classes must be an integer >= 2; got {n_classes!r}.")
    if not isinstance(z, numbers.Real) or not np.isfinite(z) or z < 0:
        raise ValueError(f"z must be a finite number >= 0; got {z!r}.")
    n = int(n_classes)
    m = np.eye(n)  # every class has one true positive
    first = np.arange(0, n - 3 if n % 2 else n, 2)  # the first class of each pair
    m[first + 1, first] = z
    if n % 2 == 1:
        m[n - 2, [n - 3, n - 1]] = z
    return m
