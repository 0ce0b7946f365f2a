"""Streaming evaluation: each batch counted into a count record, records merged.

Every score of the package is a function of additive counts, so a stream of
batches (or the chunks of a Dask array, see
:mod:`~sklearn_macrof1._sources._dask`) can be counted piece by piece
into :class:`~sklearn_macrof1.MacroF1Counts` records that merge exactly
(:meth:`~sklearn_macrof1.MacroF1Counts.merge`): per-class counts aligned by label
over the union of the classes seen and, for ``average="samples"``, a histogram of
the per-sample ``(tp, true, pred)`` triples, whose size is bounded by the number of
distinct triples, not by the number of samples.

:func:`count_batch` counts one batch with the counting core; the public
:class:`~sklearn_macrof1.MacroF1Accumulator` merges them and scores the result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._counting._kernels import _joint_table as joint_table
from .._counting._kernels import table_counts
from .._counting._record import MacroF1Counts, prepare
from .._counting._registry import lives_elsewhere
from .._read._namespace import is_device_array, namespace_of, on_device, to_host


def _n_rows(y: Any) -> int | None:
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) > 0:
        return shape[0]
    try:
        return len(y)
    except TypeError:
        return None


def count_batch(
    y_true: Any,
    y_pred: Any,
    sample_weight: Any = None,
    *,
    columns: Any = None,
    samplewise: bool = True,
    cells: bool = True,
    moments: bool = False,
    caller: str,
) -> MacroF1Counts | None:
    """The count record of one in-memory batch (None for an empty batch).

    ``columns`` are the multilabel columns of the per-sample counts (the
    ``labels`` of a one-shot call; ignored for 1-D targets). The per-sample counts
    come as a histogram (:meth:`~sklearn_macrof1.MacroF1Counts._compact`).
    A batch is a part of the stream: its weights may all be zero (its record
    says so; only the whole stream must have a non-zero weight, as one call).
    ``cells`` keeps the confusion matrix of 1-D targets (its occupied cells
    above 2,048 classes), ``moments`` the second moments of a delta-method
    interval too; without either the record holds the per-class counts (and
    the per-sample histogram of multilabel targets) only.
    """
    if _n_rows(y_true) == 0 and _n_rows(y_pred) == 0:
        return None
    counts = prepare(
        y_true,
        y_pred,
        sample_weight=sample_weight,
        labels=columns,
        samplewise=samplewise,
        moments=moments,
        # a record that leaves with its cells needs them counted here (above
        # 2,048 classes a sort); without, the per-class counts suffice
        targets_kept=not (cells or moments),
        part=True,
        caller=caller,
    )._compact()
    if not (cells or moments) and counts.confusion is not None:
        counts = replace(counts, confusion=None)
    return counts


#: Widest range of integer labels (largest minus smallest, plus one) that a
#: :class:`ClassTally` counts: three vectors of 2**20 counts are 24 MiB.
TALLY_RANGE = 1 << 20


@dataclass(frozen=True)
class ClassTally:
    """The default state of a stream of 1-D integer labels: the true
    positives, true counts and predicted counts of each label, three vectors.

    The vectors run over the integers ``low .. low + m - 1`` (labels
    discovered) or over the positions of the sorted fixed labels ``names``.
    Adding a batch is two or three ``np.bincount`` calls and a vector
    addition; the record (:meth:`record`) keeps the labels that occur,
    without a confusion matrix.
    """

    table: np.ndarray  # (3, m) int64: tp, true and pred of each position
    low: int  # the label at position 0 (labels discovered)
    names: np.ndarray | None  # fixed labels: the label at each position
    dtype: np.dtype  # the labels' dtype, promoted over the batches
    n_samples: int

    @property
    def high(self) -> int:
        """The label after the last position (labels discovered)."""
        return self.low + int(self.table.shape[1])

    def __add__(self, other: ClassTally) -> ClassTally:
        dtype = np.promote_types(self.dtype, other.dtype)
        n = self.n_samples + other.n_samples
        if self.names is not None or (self.low, self.high) == (other.low, other.high):
            return ClassTally(self.table + other.table, self.low, self.names, dtype, n)
        low, high = min(self.low, other.low), max(self.high, other.high)
        table = np.zeros((3, high - low), dtype=np.int64)
        for part in (self, other):
            table[:, part.low - low : part.high - low] += part.table
        return ClassTally(table, low, None, dtype, n)

    def record(self) -> MacroF1Counts:
        """The record of the labels counted, as the batches' own merge."""
        tp, true, pred = self.table
        present = np.flatnonzero(true | pred)
        if self.names is None:
            classes = (present + self.low).astype(self.dtype)
        else:
            classes = self.names[present].astype(self.dtype)
        return MacroF1Counts(
            "binary" if classes.shape[0] <= 2 else "multiclass",
            classes,
            tp[present],
            true[present],
            pred[present],
            n_samples=self.n_samples,
        )


def integer_labels(labels: np.ndarray | None) -> np.ndarray | None:
    """A stream's fixed labels as sorted, unique integers (whole floats as
    the integers they name), or None when they are none (labels discovered,
    strings, fractions, or beyond +-2**62)."""
    if labels is None or labels.dtype.kind not in "biuf":
        return None
    universe = np.unique(labels)
    if universe.size == 0 or universe[0] < -(2**62) or universe[-1] > 2**62:
        return None
    if universe.dtype.kind == "f":  # whole numbers: the integers they name
        if not bool(np.all(universe == np.round(universe))):
            return None
        universe = universe.astype(np.int64)
    return universe


def _integers(y: Any) -> bool:
    """A 1-D NumPy array of integers that int64 holds (not bools)."""
    if type(y) is not np.ndarray or y.ndim != 1:
        return False
    kind = y.dtype.kind
    return kind == "i" or (kind == "u" and y.dtype.itemsize < 8)


def _shifted(y: np.ndarray, low: int) -> np.ndarray:
    """``y - low`` as ``intp`` positions (labels of a narrower or unsigned
    dtype widened first: ``int8`` 127 minus -3 would wrap, ``uint32`` minus a
    negative label would overflow)."""
    if y.dtype != np.intp:
        y = y.astype(np.intp)
    return y - low if low else y


def tally_labels(
    y_true: Any, y_pred: Any, fixed: np.ndarray | None
) -> ClassTally | None:
    """The :class:`ClassTally` of one batch of 1-D NumPy integer labels
    (``fixed``: the accumulator's fixed integer labels, sorted and unique), or
    None when the batch is not one it counts: anything but two 1-D integer
    arrays of one non-zero length, a label outside ``fixed``, labels spread
    over more than :data:`TALLY_RANGE` integers. The caller counts those as
    any other batch (and refuses the bad ones with the usual messages)."""
    if not (_integers(y_true) and _integers(y_pred)):
        return None
    n = y_true.shape[0]
    if n == 0 or y_pred.shape[0] != n:
        return None
    lo = min(int(y_true.min()), int(y_pred.min()))
    hi = max(int(y_true.max()), int(y_pred.max()))
    low, names = lo, None
    if fixed is not None:
        first, last = int(fixed[0]), int(fixed[-1])
        if lo < first or hi > last:
            return None  # labels outside the fixed ones: refused as usual
        names, m = fixed, fixed.shape[0]
        if last - first + 1 == m:  # labels=range(k): a label is its position
            low = first
            positions = [_shifted(y, low) for y in (y_true, y_pred)]
        else:
            positions = [np.searchsorted(fixed, y) for y in (y_true, y_pred)]
            if any(
                (fixed[p] != y).any()
                for p, y in zip(positions, (y_true, y_pred), strict=True)
            ):
                return None
    else:
        m = hi - lo + 1
        if m > TALLY_RANGE:
            return None
        positions = [_shifted(y, low) for y in (y_true, y_pred)]
    true, pred = positions
    if m * m <= n:  # few classes: the joint table (block by block for large n)
        table = np.stack(table_counts(joint_table(true, pred, m, None)))
    else:
        hit = true == pred
        table = np.stack(
            [
                np.bincount(true[hit], minlength=m),
                np.bincount(true, minlength=m),
                np.bincount(pred, minlength=m),
            ]
        )
    dtype = np.promote_types(y_true.dtype, y_pred.dtype)
    return ClassTally(table.astype(np.int64, copy=False), low, names, dtype, n)


def batch_labels(
    y_true: Any,
    y_pred: Any,
    sample_weight: Any = None,
    *,
    ignore_index: int | None = None,
    threshold: float | None = None,
) -> tuple[Any, Any, Any]:
    """A deep-learning batch as the targets a score takes, on its device.

    - ``threshold``: ``y_pred`` holds scores (logits, probabilities) of
      multilabel targets, shaped like ``y_true``; a label is predicted where
      its score is above ``threshold``.
    - else, when ``y_pred`` has one more dimension than ``y_true``, its last
      axis holds the scores of the classes (logits): the prediction is their
      argmax (class indices ``0 .. k-1``).
    - ``ignore_index``: ``y_true`` holds class labels of any shape
      (``(batch, tokens)`` for token classification), flattened with
      ``y_pred`` (and ``sample_weight`` when shaped like ``y_true``), and the
      samples whose true label is ``ignore_index`` (padding) are dropped.
      Token shapes with scores are flattened too.

    Arrays of an array-API namespace stay in it, on their device (the
    argmax, the threshold and the mask run there); others are read with NumPy.
    Without these options, and for targets that need none of them, the batch
    is returned as given.
    """
    y_true, y_pred, sample_weight, keep = padded_batch(
        y_true, y_pred, sample_weight, ignore_index=ignore_index, threshold=threshold
    )
    if keep is None:
        return y_true, y_pred, sample_weight
    if sample_weight is not None and _ndim(sample_weight) == 1:
        xp, device = _namespace(y_pred)
        weights = on_device(sample_weight, xp, device)
        if weights.shape[0] == keep.shape[0]:
            sample_weight = weights[keep]
    return y_true[keep], y_pred[keep], sample_weight


def padded_batch(
    y_true: Any,
    y_pred: Any,
    sample_weight: Any = None,
    *,
    ignore_index: int | None = None,
    threshold: float | None = None,
    deferred: list[tuple[Any, str]] | None = None,
) -> tuple[Any, Any, Any, Any]:
    """:func:`batch_labels` without dropping the padding: ``(y_true, y_pred,
    sample_weight, keep)``, ``keep`` the mask of the samples that are not
    padding (None: all are kept). Selecting them has a size that depends on
    the data, which a GPU learns only by waiting for it: the device tally
    (:class:`~._array_api.DeviceTally`) counts the padding into a bin of its
    own instead. With ``deferred`` (a list), scores with NaN are not checked
    here (a check waits for the device too) but appended as ``(number of
    NaN scores, message)``, a number that stays on the device.
    """
    if any(
        lives_elsewhere(value) and not is_device_array(value)
        for value in (y_true, y_pred, sample_weight)
    ):
        return y_true, y_pred, sample_weight, None  # counted where they live
    scores = _class_scores(y_true, y_pred)
    if ignore_index is None and threshold is None and not scores:
        return y_true, y_pred, sample_weight, None
    if threshold is not None and ignore_index is not None:
        raise ValueError(
            "ignore_index drops padded samples of class labels, threshold turns "
            "the scores of multilabel targets into labels: give one of them; got "
            f"ignore_index={ignore_index!r} and threshold={threshold!r}."
        )
    xp, device = _namespace(y_pred)
    y_true = on_device(y_true, xp, device)
    y_pred = on_device(y_pred, xp, device)
    if threshold is not None:
        if tuple(y_pred.shape) != tuple(y_true.shape):
            raise ValueError(
                "With threshold, y_pred holds the scores of multilabel targets, "
                f"shaped like y_true; got y_true of shape {tuple(y_true.shape)} "
                f"and y_pred of shape {tuple(y_pred.shape)}."
            )
        _check_finite_scores(xp, y_pred, deferred)
        return y_true, y_pred > threshold, sample_weight, None
    columns = 0
    if scores:
        _check_finite_scores(xp, y_pred, deferred)
        columns = int(y_pred.shape[-1])
        y_pred = xp.argmax(y_pred, axis=-1)
    elif ignore_index is not None and _ndim(y_true) == 2:
        _check_not_indicator(xp, y_true)
    if _squeezed(y_pred.shape) != _squeezed(y_true.shape):
        raise ValueError(
            "y_true and y_pred must have the same shape (labels of each sample or "
            "token), or y_pred one more axis (the scores of each class); got "
            f"y_true of shape {tuple(y_true.shape)} and y_pred of shape "
            f"{tuple(y_pred.shape)}."
        )
    shape = tuple(y_true.shape)
    y_true, y_pred = xp.reshape(y_true, (-1,)), xp.reshape(y_pred, (-1,))
    if sample_weight is not None and _ndim(sample_weight) == len(shape) > 1:
        weights = on_device(sample_weight, xp, device)
        if tuple(weights.shape) == shape:
            sample_weight = xp.reshape(weights, (-1,))
    keep = None  # None: no label can be the padding
    if ignore_index is not None and _holds(xp, y_true.dtype, ignore_index):
        keep = y_true != ignore_index
    if columns:
        _check_columns(xp, y_true, keep, columns, ignore_index, deferred)
    return y_true, y_pred, sample_weight, keep


def _padding_hint(ignore_index: int | None) -> str:
    if ignore_index is None:
        return "If {value} marks padding, pass ignore_index={value} to drop it."
    return (
        f"ignore_index={ignore_index} drops only the label {ignore_index}; give "
        "the padding label there, or fix the labels."
    )


def _check_columns(
    xp: Any,
    y_true: Any,
    keep: Any,
    columns: int,
    ignore_index: int | None,
    deferred: list[tuple[Any, str]] | None,
) -> None:
    """With class scores, the prediction is a column index (``0 ..
    columns - 1``): a true label that is no column (the padding label -100,
    or 5 with 3 columns) can never be predicted, and would silently become a
    class of its own. Refused, naming ``ignore_index`` and a value seen; with
    ``deferred`` (a device tally) the number of such labels and one of them
    are appended there instead, to be raised when the counts are read."""
    where = (
        f"with class scores (logits) in y_pred the prediction is a column "
        f"index, 0 to {columns - 1}, so each true label must be one too."
    )
    if not _isdtype(xp, y_true.dtype, ("bool", "integral", "real floating")):
        value = to_host(y_true[:1]).tolist()[0] if y_true.shape[0] else None
        raise ValueError(
            f"y_true holds labels such as {value!r}, but {where} Encode the "
            "classes as the column indices of the scores (column i is the "
            f"class of index i; fix them with labels=range({columns})), and "
            "name them in the report with classification_report(..., "
            "target_names=[...]), in column order."
        )
    if _isdtype(xp, y_true.dtype, "bool"):
        return  # 0 and 1 are columns of two or more scores
    outside = (y_true < 0) | (y_true >= columns)
    if keep is not None:
        outside = xp.logical_and(outside, keep)
    hint = _padding_hint(ignore_index)
    if deferred is not None:
        count = xp.sum(xp.astype(outside, xp.int64))
        value = xp.min(xp.where(outside, y_true, xp.full_like(y_true, columns)))
        deferred.append(
            (
                (count, value),
                "{count} true labels of the batches counted since the last "
                "reset (for example {value}) name no column of the class "
                f"scores they were compared with: {where} {hint} Then reset() "
                "the accumulator.",
            )
        )
        return
    if bool(xp.any(outside)):
        value = to_host(y_true[outside][:1]).tolist()[0]
        raise ValueError(
            f"y_true holds the label {value!r}, which names no column of the "
            f"{columns} class scores in y_pred: {where} " + hint.format(value=value)
        )


def check_label_columns(labels: np.ndarray | None, y_true: Any, y_pred: Any) -> None:
    """Fixed labels that are no numbers cannot name the columns of class
    scores (the argmax is a column index): refused, saying how labels map to
    columns."""
    if labels is None or labels.dtype.kind in "biuf":
        return
    if not _class_scores(y_true, y_pred):
        return
    columns = int(y_pred.shape[-1])
    raise ValueError(
        f"labels={labels.tolist()[:5]!r} names classes, but y_pred holds class "
        f"scores (logits) of {columns} columns, and the prediction is the index "
        f"of the highest score, 0 to {columns - 1}: column i is the class of "
        "index i. Give the column indices (labels=range("
        f"{columns})) with true labels encoded the same way, and name the "
        "classes in the report with classification_report(..., "
        "target_names=[...]), in column order."
    )


_KINDS = {"bool": "b", "integral": "iu", "real floating": "f"}


def _isdtype(xp: Any, dtype: Any, kind: str | tuple[str, ...]) -> bool:
    """``xp.isdtype``; NumPy before 2.0 has none (its dtype's kind answers)."""
    if hasattr(xp, "isdtype"):
        return bool(xp.isdtype(dtype, kind))
    kinds = (kind,) if isinstance(kind, str) else kind
    return np.dtype(dtype).kind in "".join(_KINDS[k] for k in kinds)


_NAN_SCORES = (
    "y_pred holds class scores (logits or probabilities) with NaN; their "
    "argmax or threshold is no prediction. Check the model's outputs (a "
    "diverged model, or a half-precision overflow)."
)

_NAN_SCORES_COUNTED = (
    "{count} class scores (logits or probabilities) of the batches counted "
    "since the last reset are NaN; their argmax or threshold is no "
    "prediction. Check the model's outputs (a diverged model, or a "
    "half-precision overflow), then reset() the accumulator."
)


def _check_finite_scores(
    xp: Any, scores: Any, deferred: list[tuple[Any, str]] | None = None
) -> None:
    """Scores (logits) with NaN have no argmax or threshold that means a
    prediction: refused rather than scored as class 0 or "absent" (infinite
    logits, as masking gives, order as any others). With ``deferred``, the
    number of NaN scores is appended there instead (it stays on the device)."""
    if not _isdtype(xp, scores.dtype, "real floating"):
        return
    if deferred is not None:
        nan = xp.sum(xp.astype(xp.isnan(scores), xp.int64))
        deferred.append((nan, _NAN_SCORES_COUNTED))
    elif bool(xp.any(xp.isnan(scores))):
        raise ValueError(_NAN_SCORES)


def _check_not_indicator(xp: Any, y_true: Any) -> None:
    """With ``ignore_index``, a 2-D ``y_true`` shaped like ``y_pred`` holds token
    labels, which are integers; floats or bools there are a multilabel
    indicator matrix (transformers' multilabel labels are floats), which
    flattening would score as one binary problem."""
    if _isdtype(xp, y_true.dtype, ("bool", "real floating")):
        raise ValueError(
            "With ignore_index, a 2-D y_true holds the integer class labels of "
            f"tokens; got values of dtype {y_true.dtype}, as in a multilabel "
            "indicator matrix. For multilabel targets pass threshold= (y_pred "
            "holds scores) or ignore_index=None (y_pred holds 0/1 labels)."
        )


def _holds(xp: Any, dtype: Any, value: int) -> bool:
    """Whether labels of ``dtype`` can equal the integer ``value`` (bools and
    unsigned integers never equal a negative padding label; nor do strings)."""
    if isinstance(dtype, np.dtype) and dtype.kind in "OUSTV":
        # NumPy's own labels that are no numbers: strings compare unequal to
        # an integer (NumPy before 2.0 compares the whole array, not each label)
        return dtype.kind == "O"
    if _isdtype(xp, dtype, "bool"):
        return False
    if _isdtype(xp, dtype, "integral"):
        info = xp.iinfo(dtype)
        return int(info.min) <= value <= int(info.max)
    return True


def _class_scores(y_true: Any, y_pred: Any) -> bool:
    """Whether ``y_pred`` holds class scores: an array (NumPy's or a device
    array, not a matrix) with one more axis than ``y_true``, of two classes or
    more (a column of labels is a column)."""
    array = (type(y_pred) is np.ndarray) or is_device_array(y_pred)
    true_ndim, pred_ndim = _ndim(y_true), _ndim(y_pred)
    if not array or true_ndim is None or pred_ndim is None:
        return False
    return pred_ndim == true_ndim + 1 and int(y_pred.shape[-1]) >= 2


def _squeezed(shape: Any) -> tuple[int, ...]:
    """A shape without its trailing axes of length 1 (a column is a vector)."""
    dims = tuple(int(d) for d in shape)
    while dims and dims[-1] == 1 and len(dims) > 1:
        dims = dims[:-1]
    return dims


def _ndim(y: Any) -> int | None:
    shape = getattr(y, "shape", None)
    if shape is None:
        if isinstance(y, list | tuple):
            return int(np.ndim(y))
        return None
    return len(shape)


def _namespace(y_pred: Any) -> tuple[Any, Any]:
    if is_device_array(y_pred):
        return namespace_of(y_pred)
    return np, "cpu"


__all__ = [
    "TALLY_RANGE",
    "ClassTally",
    "batch_labels",
    "check_label_columns",
    "count_batch",
    "integer_labels",
    "padded_batch",
    "tally_labels",
]
