"""``GapAttribution``: which class pairs make the two F-beta formulas differ."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .._averages import CLASS_MEANS
from .._equality import ValueEquality
from .._formulas._attribution import (
    MAX_PAIR_CLASSES,
    class_weights,
    gap_class_terms,
    gap_pair_terms,
    refuse_square,
    top_gap_pairs,
)
from .._present._frame import table_frame
from .._present._gap import class_table, headline, pair_table
from .._present._table import Table, item
from .._present._views import TableViews


@dataclass(frozen=True, eq=False)
class GapAttribution(ValueEquality, TableViews):
    """The gap between the two F-beta formulas, split over class pairs.

    ``pair_contributions.sum()`` equals the gap (F-beta of averages minus
    averaged F-beta) up to rounding: entry ``(x, y)`` is half of the pair
    ``{x, y}``'s term of the reference paper's Lemma, generalised to any beta
    and to the support-weighted average (Opitz & Burst, "Macro F1 and Macro
    F1", arXiv:1911.03347)::

        (1+b²) b² / (2 A) * w_x w_y (P_x R_y - P_y R_x)² / (a_x a_y)

    with class weights ``w`` (``1/n`` for macro, support shares for weighted),
    ``a_i = b² P_i + R_i`` and ``A = sum_i w_i a_i``. A pair contributes when
    its two classes trade precision against recall differently
    (``P_x / R_x != P_y / R_y``); ``class_contributions`` (row sums: half of
    each pair's term to each of its classes) also add up to the gap.

    Scale: the class contributions come from a closed form in O(k) (three
    weighted sums over the classes, see the Gap attribution page of the
    documentation), so an attribution of 1,000,000 classes costs a fraction of
    a second. The k x k
    ``pair_contributions`` table is computed when first read, and refused
    (``ValueError`` naming its size) above 2,048 classes; :meth:`top_pairs`
    finds the largest pairs of any number of classes in bounded memory, in
    O(k²) time. Above 2,048 classes the text and HTML views and
    :meth:`headline` name the classes that contribute most instead of pairs.

    Returned by :meth:`FBetaSummary.gap_attribution` (of a confusion matrix:
    ``fbeta_summary(MacroF1Counts.from_confusion_matrix(m, rows=...))``).

    Attributes
    ----------
    average : {"macro", "weighted"}
    beta : float
    labels : ndarray of shape (n_classes,)
        The classes, in the order of the table's rows and columns.
    gap : float
        The sum of ``class_contributions`` (and of ``pair_contributions``).
    direct_gap : float
        ``fbeta_of_averages - averaged_fbeta`` as computed by the scores (equal
        to ``gap`` up to rounding).
    pair_contributions : ndarray of shape (n_classes, n_classes)
        Symmetric, zero diagonal, non-negative; sums to ``gap``. Computed on
        first access; ``ValueError`` above 2,048 classes.
    class_contributions : ndarray of shape (n_classes,)
        Row sums of ``pair_contributions`` (from their closed form); sum to
        ``gap``.
    class_precision, class_recall, weights : ndarray of shape (n_classes,)
        The per-class precision, recall and averaging weights behind the table.

    Examples
    --------
    >>> from sklearn_macrof1 import fbeta_summary
    >>> s = fbeta_summary(["a", "a", "b", "c"], ["a", "b", "b", "c"])
    >>> att = s.gap_attribution()
    >>> att.pair_contributions.round(4)
    array([[0.    , 0.0167, 0.0056],
           [0.0167, 0.    , 0.0056],
           [0.0056, 0.0056, 0.    ]])
    >>> abs(att.gap - s.gap) < 1e-12
    True
    >>> print(att.headline(2))
    largest gap contributors: a & b 0.0333 (60%), a & c 0.0111 (20%)
    """

    average: str
    beta: float
    labels: np.ndarray
    gap: float
    direct_gap: float
    class_contributions: np.ndarray
    class_precision: np.ndarray
    class_recall: np.ndarray
    weights: np.ndarray

    @property
    def n_classes(self) -> int:
        """Number of classes in the table."""
        return int(self.labels.shape[0])

    @cached_property
    def pair_contributions(self) -> np.ndarray:
        """The k x k table of half pair terms (see the class docstring).

        Computed on first access (k² values); ``ValueError`` naming the size
        above 2,048 classes, where :meth:`top_pairs` and
        ``class_contributions`` answer without the table.
        """
        return gap_pair_terms(
            self.class_precision, self.class_recall, self.weights, self.beta
        )

    @property
    def _names_pairs(self) -> bool:
        """Whether the views name pairs (else the classes): up to 2,048."""
        return self.n_classes <= MAX_PAIR_CLASSES

    def top_pairs(self, n: int = 3) -> list[tuple[Any, Any, float]]:
        """The ``n`` class pairs with the largest share of the gap.

        Each as ``(label_x, label_y, contribution)`` where ``contribution`` is
        the pair's whole term (both halves of the table), largest first; pairs
        that contribute nothing are left out. Computed block by block without
        the table: memory bounded by tens of MiB and ``n``, time O(k²) (a few
        minutes at 100,000 classes).
        """
        x, y, values = top_gap_pairs(
            self.class_precision,
            self.class_recall,
            self.weights,
            self.beta,
            max(min(int(n), self.n_classes * self.n_classes), 0),
        )
        return [
            (item(self.labels[i]), item(self.labels[j]), float(v))
            for i, j, v in zip(x.tolist(), y.tolist(), values.tolist(), strict=True)
        ]

    def _largest_first(self, n: int) -> np.ndarray:
        """Indices of the ``n`` largest class contributions, largest first
        (ties in class order): O(k) selection, then a sort of the few at or
        above the ``n``-th largest."""
        values = self.class_contributions
        n = min(max(int(n), 0), values.shape[0])
        if n == 0:
            return np.zeros(0, dtype=np.intp)
        if n < values.shape[0]:
            cut = np.partition(values, values.shape[0] - n)[values.shape[0] - n]
            candidates = np.flatnonzero(values >= cut)
        else:
            candidates = np.arange(values.shape[0])
        # (candidates in class order: a stable sort keeps ties so)
        return candidates[np.argsort(-values[candidates], kind="stable")][:n]

    def _top_class_indices(self, n: int) -> np.ndarray:
        """Indices of the ``n`` largest non-zero class contributions, largest
        first (ties in class order)."""
        order = self._largest_first(n)
        return order[self.class_contributions[order] > 0]

    def top_classes(self, n: int = 3) -> list[tuple[Any, float]]:
        """The ``n`` classes with the largest share, as ``(label, contribution)``."""
        values = self.class_contributions
        return [
            (item(self.labels[i]), float(values[i]))
            for i in self._top_class_indices(n).tolist()
        ]

    def headline(self, n: int = 3, *, names: Any = None) -> str:
        """One line: the largest contributing class pairs and their share
        (above 2,048 classes: the largest contributing classes).

        ``names`` (one per class, in the order of ``labels``) replaces the
        labels in the text, e.g. a report's target names.
        """
        return headline(self, n, names)

    def __repr__(self) -> str:
        return (
            f"GapAttribution(average={self.average!r}, beta={self.beta:g}, "
            f"n_classes={self.n_classes}, gap={self.gap:.6g})"
        )

    def _view(self) -> tuple[list[Table], list[str]]:
        # the classes (largest contributions first) and the five largest pairs
        return [class_table(self), pair_table(self, 5)], []

    def to_frame(self, by: str = "class") -> Any:
        """The attribution as a ``pandas.DataFrame`` (pandas is imported lazily).

        ``by="class"``: one row per class (precision, recall, weight,
        contribution, share). ``by="pair"``: one row per unordered class pair
        with a non-zero term, largest first (class_x, class_y, contribution,
        share); ``ValueError`` above 2,048 classes (``top_pairs(n)`` gives the
        largest ones).
        """
        if by not in ("class", "pair"):
            raise ValueError(f"by must be 'class' or 'pair'; got {by!r}.")
        if by == "pair":
            refuse_square(
                self.n_classes,
                "A frame of every class pair",
                limit=MAX_PAIR_CLASSES,
                instead="top_pairs(n) gives the n largest pairs.",
            )
        if by == "class":
            table = class_table(self)
        else:
            table = pair_table(self, self.n_classes * self.n_classes)
        return table_frame([table], caller="GapAttribution.to_frame")


def attribution_from_summary(summary: Any) -> GapAttribution:
    """The :class:`GapAttribution` of an ``FBetaSummary`` (see its method)."""
    if summary.average not in CLASS_MEANS:
        averages = " and ".join(f"average={a!r}" for a in CLASS_MEANS)
        raise ValueError(
            "The gap attribution splits a mean over classes: it exists for "
            f"{averages}; this summary has "
            f"average={summary.average!r} (micro and binary: the two formulas "
            "coincide; samples: the terms would run over sample pairs; None: "
            "no mean is taken)."
        )
    p = np.asarray(summary.class_precision, dtype=np.float64)
    r = np.asarray(summary.class_recall, dtype=np.float64)
    if p.shape[0] == 0:
        raise ValueError("The summary has no classes to attribute the gap to.")
    if np.isnan(p).any() or np.isnan(r).any():
        raise ValueError(
            "The gap attribution needs every per-class precision and recall: with "
            "zero_division=np.nan, undefined ones leave different classes out of "
            "each mean and the gap is no sum over class pairs. Use zero_division=0 "
            "or 1 (or 'warn')."
        )
    beta = float(summary.beta)
    weights = class_weights(np.asarray(summary.support), summary.average)
    contributions = gap_class_terms(p, r, weights, beta)
    return GapAttribution(
        average=summary.average,
        beta=beta,
        labels=np.asarray(summary.labels),
        gap=float(contributions.sum()),
        direct_gap=float(summary.gap),
        class_contributions=contributions,
        class_precision=p,
        class_recall=r,
        weights=weights,
    )
