"""The count record: everything the scores need from one set of targets.

:func:`~sklearn_macrof1._core._counting.count_targets` produces a :class:`Counts`;
every consumer (the scores, the report, the intervals, the streaming accumulator,
Dask and Spark) reads it, and records of disjoint sets of samples merge into the
record of their union:

- ``a.merge(b)`` (or ``a + b``) returns a new record, ``a`` and ``b`` unchanged.
  1-D records are aligned by label over the union of their classes (strings and
  numbers never mix: ``ValueError``); multilabel records must have the same
  columns and, for per-sample counts, the same ``sample_columns``.
- Per-sample counts (``average="samples"``) merge as a histogram of the distinct
  per-sample ``(tp, true, pred)`` triples (:meth:`SampleCounts.histogram`): a
  sample's precision, recall and F-beta depend only on its triple, so the merged
  record needs memory for the distinct triples, not for the samples.
- :func:`merge_counts` merges with None (an empty batch) on either side, the form
  a tree of merges on a cluster uses.

Second moments (``Counts.moments``, ``SampleCounts.weight2``) are what the delta
method needs beyond the counts
(:func:`~sklearn_macrof1._inference._intervals.moment_variance`); they are counted
only when an interval asks for them, and they add like the counts. A record
with moments merged with one without has none (they would describe only some of
the samples); an interval that needs them then refuses the record.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ._validation import zero_weights_error

#: Largest number of classes for which a record keeps the confusion matrix.
MAX_CONFUSION_CLASSES = 2048

#: Largest number of multilabel columns for which the second moments (a
#: ``3L x 3L`` matrix) are counted.
MAX_MOMENT_LABELS = 256

_MULTILABEL = "multilabel-indicator"


@dataclass
class SampleCounts:
    """Per-sample counts over the selected labels (multilabel ``samples`` average).

    Either one row per sample (``count`` is None) or a histogram: one row per
    distinct triple, ``count`` samples each (:meth:`histogram`).

    Attributes
    ----------
    tp, true, pred : ndarray of shape (n_rows,)
        Unweighted true positives, true and predicted labels of each sample (in a
        histogram, zero-weight samples are counted as ``(0, 0, 0)``: their
        weighted counts).
    weight : ndarray of shape (n_rows,) or None
        Each sample's weight (in a histogram, the sum of the weights of its
        samples), or None for unweighted per-sample rows. As in scikit-learn the
        per-sample counts are multiplied by the weight, and the weights are also
        the weights of the final mean.
    count : ndarray of shape (n_rows,) or None
        Samples per row of a histogram; None for per-sample rows.
    weight2 : ndarray of shape (n_rows,) or None
        In a histogram, the sum of the squared weights of each row's samples
        (equal to ``count`` without weights); None for per-sample rows (each
        row's is ``weight**2``) and for a histogram made without it.
    """

    tp: np.ndarray
    true: np.ndarray
    pred: np.ndarray
    weight: np.ndarray | None
    count: np.ndarray | None = None
    weight2: np.ndarray | None = None

    def moments(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Per row, the sums of the weights and of the squared weights (the
        first and second moments of a sample's weight on that row); None for a
        histogram made without its squared weights."""
        if self.count is None:
            w = np.ones(self.tp.shape[0]) if self.weight is None else self.weight
            return w, w * w
        if self.weight2 is None:
            return None
        assert self.weight is not None  # a histogram always carries its weights
        return self.weight, self.weight2

    def arrays(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """``(tp, true, pred, weight)`` as the aggregation takes them."""
        tp, true, pred, weight = self.tp, self.true, self.pred, self.weight
        if self.count is None:
            if weight is not None:
                tp, true, pred = tp * weight, true * weight, pred * weight
            return tp, true, pred, weight
        assert weight is not None  # a histogram always carries its weights
        if tp.shape[0] == 1 and int(self.count[0]) > 1:
            # Keep two rows so that warnings speak of "samples" (plural) exactly
            # as for the per-sample arrays.
            two = (np.repeat(tp, 2), np.repeat(true, 2), np.repeat(pred, 2))
            return (*two, np.repeat(weight / 2, 2))
        return tp, true, pred, weight

    def histogram(self) -> SampleCounts:
        """The same counts as a histogram of distinct triples (self if one)."""
        if self.count is not None:
            return self
        triples = np.stack([self.tp, self.true, self.pred], axis=1).astype(np.int64)
        weight2 = None
        if self.weight is not None:
            triples[self.weight == 0] = 0
            weight2 = self.weight * self.weight
        return _histogram(triples, self.weight, None, weight2)

    def merge(self, other: SampleCounts) -> SampleCounts:
        """The histogram of both (with squared weights when both have them)."""
        a, b = self.histogram(), other.histogram()
        triples = np.concatenate(
            [np.stack([s.tp, s.true, s.pred], axis=1) for s in (a, b)]
        )
        assert a.weight is not None and b.weight is not None
        assert a.count is not None and b.count is not None
        weight2 = None
        if a.weight2 is not None and b.weight2 is not None:
            weight2 = np.concatenate([a.weight2, b.weight2])
        return _histogram(
            triples,
            np.concatenate([a.weight, b.weight]),
            np.concatenate([a.count, b.count]),
            weight2,
        )


def _histogram(
    triples: np.ndarray,
    weight: np.ndarray | None,
    count: np.ndarray | None,
    weight2: np.ndarray | None = None,
) -> SampleCounts:
    """Distinct rows of ``triples`` with their weight sums, multiplicities and
    squared-weight sums.

    ``weight``, ``count`` and ``weight2`` are per input row (None: 1 per
    sample; the input row stands for ``count`` samples whose weights sum to
    ``weight`` and whose squared weights sum to ``weight2``). Without weights
    the squared weights are the counts; with weights but no ``weight2`` the
    histogram has none.
    """
    distinct, inverse = np.unique(triples, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    size = distinct.shape[0]
    counts = np.bincount(inverse, weights=count, minlength=size).astype(np.int64)
    weights: np.ndarray
    squared: np.ndarray | None = None
    if weight is None:
        weights = counts.astype(np.float64)
        squared = weights.copy()
    else:
        weights = np.bincount(inverse, weights=weight, minlength=size)
        if weight2 is not None:
            squared = np.bincount(inverse, weights=weight2, minlength=size)
    tp, true, pred = distinct.T.copy()
    return SampleCounts(tp, true, pred, weights, counts, squared)


@dataclass
class Counts:
    """Per-class (and per-sample) counts of one set of targets: the count record.

    Attributes
    ----------
    kind : {"binary", "multiclass", "multilabel-indicator"}
        The target type, as ``sklearn.utils.multiclass.type_of_target`` names it.
    classes : ndarray of shape (n_classes,)
        Labels present in ``y_true`` or ``y_pred``, sorted (column indices for
        multilabel targets).
    tp, true, pred : ndarray of shape (n_classes,)
        (Weighted) true positives, true counts (support) and predicted counts.
    confusion : ndarray of shape (n_classes, n_classes) or None
        Confusion matrix, rows are true labels and columns predictions, as in
        ``sklearn.metrics.confusion_matrix``. None for multilabel targets, and for
        1-D targets with more than :data:`MAX_CONFUSION_CLASSES` classes.
    samples : SampleCounts or None
        Per-sample counts, only for multilabel targets counted ``samplewise``.
    class_counts : bool
        False when only the per-sample counts were counted (a lone
        ``average="samples"`` score needs nothing else): ``tp``, ``true`` and
        ``pred`` are then empty and must not be aggregated.
    n_samples : int or None
        Number of samples counted (None for counts read from a confusion matrix).
    sample_columns : ndarray or None
        The multilabel columns of the per-sample counts (None: all).
    zero_weight : bool
        True when every sample counted has weight 0: valid for a batch of a
        stream, not for a score (:meth:`check_weights`).
    moments : ndarray or None
        Second moments for the delta method, counted only when asked for.
        1-D targets: shape ``(n_classes, n_classes)`` like ``confusion``, the
        sum of the squared sample weights in each cell (None without weights:
        the confusion matrix is then its own second moment). Multilabel
        targets: shape ``(3 L, 3 L)`` (L columns, at most
        :data:`MAX_MOMENT_LABELS`), ``sum_i w_i**2 x_i x_i'`` of each sample's
        indicator row ``x_i = (tp | true | pred)`` over all columns. None when
        not counted.
    """

    kind: str
    classes: np.ndarray
    tp: np.ndarray
    true: np.ndarray
    pred: np.ndarray
    confusion: np.ndarray | None = None
    samples: SampleCounts | None = field(default=None, repr=False)
    class_counts: bool = True
    n_samples: int | None = None
    sample_columns: np.ndarray | None = field(default=None, repr=False)
    zero_weight: bool = False
    moments: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_classes(self) -> int:
        return int(self.classes.shape[0])

    def check_weights(self) -> Counts:
        """Self; ValueError when every sample counted has weight 0."""
        if self.zero_weight:
            raise zero_weights_error(self.n_samples)
        return self

    def compact(self) -> Counts:
        """The same record with its per-sample counts as a histogram."""
        if self.samples is None or self.samples.count is not None:
            return self
        return replace(self, samples=self.samples.histogram())

    def merge(self, other: Counts) -> Counts:
        """The record of both sets of samples (ValueError when they contradict)."""
        if (self.kind == _MULTILABEL) != (other.kind == _MULTILABEL):
            raise ValueError(
                f"This batch holds {_describe(other.kind)} but the earlier batches "
                f"held {_describe(self.kind)}; all batches must have the same kind "
                "of targets."
            )
        merged = (_merge_multilabel if self.kind == _MULTILABEL else _merge_1d)(
            self, other
        )
        merged.class_counts = self.class_counts and other.class_counts
        if self.n_samples is not None and other.n_samples is not None:
            merged.n_samples = self.n_samples + other.n_samples
        merged.zero_weight = self.zero_weight and other.zero_weight
        return merged

    def __add__(self, other: Any) -> Counts:
        if not isinstance(other, Counts):
            return NotImplemented
        return self.merge(other)


def merge_counts(a: Counts | None, b: Counts | None) -> Counts | None:
    """``a.merge(b)``, where None (an empty batch) counts nothing."""
    if a is None:
        return b
    if b is None:
        return a
    return a.merge(b)


def _describe(kind: str) -> str:
    if kind == _MULTILABEL:
        return "a multilabel indicator matrix"
    return "1-D class labels (binary or multiclass)"


def union_labels(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sorted union of two label sets; ValueError when strings meet numbers."""
    a_strings, b_strings = a.dtype.kind in "US", b.dtype.kind in "US"
    if (a_strings and b.dtype.kind in "biuf") or (b_strings and a.dtype.kind in "biuf"):
        old, new = ("strings", "numbers") if a_strings else ("numbers", "strings")
        raise ValueError(
            f"Mix of label input types: the earlier batches hold {old} and this one "
            f"holds {new} (labels {b.tolist()[:5]!r}); all batches must use labels "
            "of one type."
        )
    try:
        return np.union1d(a, b)
    except TypeError as exc:
        raise ValueError(
            "Mix of label input types (string and number) between batches: labels "
            f"{a.tolist()[:5]!r} and {b.tolist()[:5]!r}; all batches must use labels "
            "of one type."
        ) from exc


def _spread(values: np.ndarray, index: np.ndarray, size: int, dtype: Any) -> Any:
    # Added, not assigned: two classes of a record may be one class of the union
    # (int64 labels 2**62 + 1 and 2**62 + 2 are one float64 label).
    out = np.zeros(size, dtype=dtype)
    np.add.at(out, index, values)
    return out


def _sum(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """``a + b``; None when either is None (counted for some samples only)."""
    return None if a is None or b is None else a + b


def _same_classes(a: np.ndarray, b: np.ndarray) -> bool:
    # Equal labels of different dtypes (bool and int, int and float) go through
    # the union, whose dtype is numpy's promotion of both: the merged labels do
    # not depend on the order of the merge.
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return bool(np.all(a == b))


def _merge_1d(a: Counts, b: Counts) -> Counts:
    if _same_classes(a.classes, b.classes):
        classes = a.classes
        tp, true, pred = a.tp + b.tp, a.true + b.true, a.pred + b.pred
        confusion, moments = _sum(a.confusion, b.confusion), _sum(a.moments, b.moments)
    else:
        classes = union_labels(a.classes, b.classes)
        k = classes.shape[0]
        ia = np.searchsorted(classes, a.classes)
        ib = np.searchsorted(classes, b.classes)
        dtype = np.result_type(a.tp.dtype, b.tp.dtype)
        tp = _spread(a.tp, ia, k, dtype) + _spread(b.tp, ib, k, dtype)
        true = _spread(a.true, ia, k, dtype) + _spread(b.true, ib, k, dtype)
        pred = _spread(a.pred, ia, k, dtype) + _spread(b.pred, ib, k, dtype)
        confusion = moments = None
        if (
            k <= MAX_CONFUSION_CLASSES
            and a.confusion is not None
            and b.confusion is not None
        ):
            confusion = _spread_table(a.confusion, ia, b.confusion, ib, k, dtype)
            if a.moments is not None and b.moments is not None:
                moments = _spread_table(a.moments, ia, b.moments, ib, k, np.float64)
        if np.unique(ia).shape[0] < ia.shape[0] or np.unique(ib).shape[0] < ib.shape[0]:
            # Two classes of a record became one class of the union: samples
            # that confused them are now hits, the folded table's diagonal.
            if confusion is None:
                raise ValueError(
                    "Batches whose labels compare as one value only in a common "
                    f"dtype (labels {a.classes.tolist()[:5]!r} and "
                    f"{b.classes.tolist()[:5]!r}, for example int64 above 2**53 "
                    "and float64) cannot be merged without a confusion matrix; "
                    "give every batch labels of one dtype."
                )
            tp = confusion.diagonal().copy()
    kind = "binary" if classes.shape[0] <= 2 else "multiclass"
    return Counts(kind, classes, tp, true, pred, confusion, moments=moments)


def _spread_table(
    a: np.ndarray, ia: np.ndarray, b: np.ndarray, ib: np.ndarray, k: int, dtype: Any
) -> np.ndarray:
    """Two per-cell tables added on the ``k x k`` cells of the union's classes."""
    out = np.zeros((k, k), dtype=dtype)
    np.add.at(out, (ia[:, None], ia[None, :]), a)
    np.add.at(out, (ib[:, None], ib[None, :]), b)
    return out


def _same_columns(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and bool(np.all(a == b))


def _merge_multilabel(a: Counts, b: Counts) -> Counts:
    if a.n_classes != b.n_classes:
        raise ValueError(
            "Multilabel batches with different numbers of labels: the earlier "
            f"batches have {a.n_classes} indicator columns and this one has "
            f"{b.n_classes}; every batch must have the same columns."
        )
    samples = None
    if a.samples is not None or b.samples is not None:
        if (
            a.samples is None
            or b.samples is None
            or not _same_columns(a.sample_columns, b.sample_columns)
        ):
            raise ValueError(
                "Cannot merge multilabel counts whose per-sample counts cover "
                f"different columns ({a.sample_columns!r} and "
                f"{b.sample_columns!r}); use the same labels."
            )
        samples = a.samples.merge(b.samples)
    return Counts(
        _MULTILABEL,
        a.classes,
        a.tp + b.tp if a.class_counts and b.class_counts else a.tp[:0],
        a.true + b.true if a.class_counts and b.class_counts else a.true[:0],
        a.pred + b.pred if a.class_counts and b.class_counts else a.pred[:0],
        None,
        samples,
        sample_columns=a.sample_columns,
        moments=_sum(a.moments, b.moments),
    )


__all__ = [
    "MAX_CONFUSION_CLASSES",
    "MAX_MOMENT_LABELS",
    "Counts",
    "SampleCounts",
    "merge_counts",
    "union_labels",
]
