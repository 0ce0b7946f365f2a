"""The counting core: one pass over the targets gives every count the scores need.

For 1-D targets the pass is a single ``np.bincount`` of the joint code
``true * k + pred``: its ``k x k`` table is the confusion matrix (rows true,
columns predicted), from which true positives (diagonal), true counts (row sums)
and predicted counts (column sums) follow. For multilabel indicator targets it is
one element-wise AND and three (weighted) column sums, plus row sums over the
selected columns when ``average="samples"`` needs per-sample counts.

Counts are additive: two :class:`Counts` over the same labels merge by summing,
which is what streaming and distributed evaluation rely on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._targets import MAX_JOINT_CELLS, Targets


@dataclass
class SampleCounts:
    """Per-sample counts over the selected labels (multilabel ``samples`` average).

    As in scikit-learn, the per-sample counts are multiplied by the sample's
    weight, and the weights are also the weights of the final mean.
    """

    tp: np.ndarray
    true: np.ndarray
    pred: np.ndarray
    weight: np.ndarray | None


@dataclass
class Counts:
    """Per-class counts of one set of targets.

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
        1-D targets with more than 2048 classes (the table would be too large).
    samples : SampleCounts or None
        Per-sample counts, only for multilabel targets counted ``samplewise``.
    """

    kind: str
    classes: np.ndarray
    tp: np.ndarray
    true: np.ndarray
    pred: np.ndarray
    confusion: np.ndarray | None = None
    samples: SampleCounts | None = field(default=None, repr=False)

    @property
    def n_classes(self) -> int:
        return int(self.classes.shape[0])


def count_targets(
    targets: Targets,
    weights: np.ndarray | None,
    *,
    samplewise: bool = False,
    sample_columns: np.ndarray | None = None,
) -> Counts:
    """Count validated targets in one pass.

    ``weights`` are validated sample weights (or None). ``samplewise`` asks for
    per-sample counts over ``sample_columns`` (all columns when None); 1-D targets
    have none (``average="samples"`` is rejected when the counts are selected).
    """
    if targets.kind == "multilabel-indicator":
        return _count_multilabel(targets, weights, samplewise, sample_columns)
    return _count_1d(targets, weights)


def _count_1d(targets: Targets, weights: np.ndarray | None) -> Counts:
    k = targets.code_labels.shape[0]
    true, pred = targets.true, targets.pred
    if k * k <= max(MAX_JOINT_CELLS, 4 * targets.n_samples):
        joint = np.multiply(true, k, dtype=np.intp)
        joint += pred
        table = np.bincount(joint, weights=weights, minlength=k * k).reshape(k, k)
        if weights is not None and not (weights > 0).all():
            seen = np.bincount(joint, minlength=k * k).reshape(k, k)
        else:
            seen = table
        del joint
        present = (seen.sum(axis=1) != 0) | (seen.sum(axis=0) != 0)
        if not present.all():
            table = table[np.ix_(present, present)]
        classes = targets.code_labels[present]
        tp = np.diagonal(table).copy()
        true_sum = table.sum(axis=1)
        pred_sum = table.sum(axis=0)
        confusion = table if classes.shape[0] <= 2048 else None
    else:  # many classes, few samples: per-class bincounts, no dense table
        hit = true == pred
        tp = np.bincount(
            true[hit], weights=None if weights is None else weights[hit], minlength=k
        )
        true_sum = np.bincount(true, weights=weights, minlength=k)
        pred_sum = np.bincount(pred, weights=weights, minlength=k)
        present = np.zeros(k, dtype=bool)
        present[true] = True
        present[pred] = True
        classes = targets.code_labels[present]
        tp, true_sum, pred_sum = tp[present], true_sum[present], pred_sum[present]
        confusion = None
    kind = "binary" if classes.shape[0] <= 2 else "multiclass"
    return Counts(kind, classes, tp, true_sum, pred_sum, confusion)


def _weighted_column_sums(y: Any, weights: np.ndarray | None) -> np.ndarray:
    if sp.issparse(y):
        if weights is None:
            return np.bincount(y.indices, minlength=y.shape[1]).astype(np.int64)
        rows = np.repeat(np.arange(y.shape[0]), np.diff(y.indptr))
        return np.bincount(y.indices, weights=weights[rows], minlength=y.shape[1])
    if weights is None:
        return np.count_nonzero(y, axis=0).astype(np.int64)
    return weights @ y.astype(np.float64)


def _row_sums(y: Any) -> np.ndarray:
    if sp.issparse(y):
        return np.diff(y.indptr).astype(np.int64)
    return np.count_nonzero(y, axis=1).astype(np.int64)


def _count_multilabel(
    targets: Targets,
    weights: np.ndarray | None,
    samplewise: bool,
    sample_columns: np.ndarray | None,
) -> Counts:
    true, pred = targets.true, targets.pred
    both = true.multiply(pred).tocsr() if sp.issparse(true) else true & pred
    tp = _weighted_column_sums(both, weights)
    true_sum = _weighted_column_sums(true, weights)
    pred_sum = _weighted_column_sums(pred, weights)
    samples = None
    if samplewise:
        if sample_columns is not None:
            both = both[:, sample_columns]
            true = true[:, sample_columns]
            pred = pred[:, sample_columns]
        s_tp, s_true, s_pred = _row_sums(both), _row_sums(true), _row_sums(pred)
        if weights is not None:
            s_tp, s_true, s_pred = s_tp * weights, s_true * weights, s_pred * weights
        samples = SampleCounts(s_tp, s_true, s_pred, weights)
    return Counts(
        "multilabel-indicator",
        targets.code_labels,
        tp,
        true_sum,
        pred_sum,
        None,
        samples,
    )
