"""The counting core: one pass over the targets gives every count the scores need.

For 1-D targets the pass is a single scatter-add of each sample's 1 (or weight) at
``(true, pred)`` in a ``k x k`` table (:mod:`._scipy_private`; the same as
``np.bincount`` of the joint code ``true * k + pred``, without the codes): the
confusion matrix (rows true, columns predicted), from which true positives
(diagonal), true counts (row sums) and predicted counts (column sums) follow. For
multilabel indicator targets it is one element-wise AND and three (weighted) column
sums, plus row sums over the selected columns when ``average="samples"`` needs
per-sample counts.

The result is the count record, :class:`~sklearn_macrof1._core._record.Counts`,
which merges with the records of other samples (streaming, Dask, Spark).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import scipy.sparse as sp

from . import _scipy_private
from ._record import MAX_CONFUSION_CLASSES, Counts, SampleCounts
from ._targets import MAX_JOINT_CELLS, Targets, as_bool, unsigned_max


def count_targets(
    targets: Targets,
    weights: np.ndarray | None,
    *,
    samplewise: bool = False,
    sample_columns: np.ndarray | None = None,
    class_counts: bool = True,
) -> Counts:
    """Count validated targets in one pass.

    ``weights`` are validated sample weights (or None). ``samplewise`` asks for
    per-sample counts over ``sample_columns`` (all columns when None); 1-D targets
    have none (``average="samples"`` is rejected when the counts are selected).
    ``class_counts=False`` (with ``samplewise``) skips the per-column counts of
    multilabel targets, which a lone ``average="samples"`` score does not use.
    """
    if targets.kind == "multilabel-indicator":
        class_counts = class_counts or not samplewise
        counts = _count_multilabel(
            targets, weights, samplewise, sample_columns, class_counts
        )
        counts.sample_columns = sample_columns if samplewise else None
    else:
        counts = _count_1d(targets, weights)
    counts.n_samples = targets.n_samples
    return counts


#: Samples (or stored entries) added per call of the scatter-add.
_BLOCK = 1 << 16
#: The value each unweighted sample adds.
_ONES = np.ones(_BLOCK, dtype=np.int64)
_ONES.flags.writeable = False
_local = threading.local()


def _block(
    values: np.ndarray, start: int, stop: int, dtype: Any, slot: int
) -> np.ndarray:
    """``values[start:stop]`` as a contiguous array of ``dtype``.

    A view when it already is one; else a copy into a buffer the thread keeps for
    its next call (one per ``slot``). Counting thus allocates no large temporary
    per call: where large allocations are mapped fresh each time (Dask's workers
    set ``MALLOC_TRIM_THRESHOLD_``), a new array per block would cost more page
    faults than the count itself.
    """
    part = values[start:stop]
    if part.dtype == dtype and part.flags.c_contiguous:
        return part
    buffers = getattr(_local, "buffers", None)
    if buffers is None:
        buffers = _local.buffers = {}
    buffer = buffers.get((slot, np.dtype(dtype)))
    if buffer is None:
        buffer = buffers[slot, np.dtype(dtype)] = np.empty(_BLOCK, dtype=dtype)
    out = buffer[: stop - start]
    np.copyto(out, part, casting="unsafe")  # codes are small ints: exact
    return out


def _index_dtype(*codes: np.ndarray) -> Any:
    """The index type the scatter-add reads without converting: int32 or intp."""
    return np.int32 if all(c.dtype == np.int32 for c in codes) else np.intp


def _joint_table(
    true: np.ndarray, pred: np.ndarray, k: int, weights: np.ndarray | None
) -> np.ndarray:
    """The ``k x k`` (weighted) joint count table, rows true and columns predicted.

    ``true`` and ``pred`` are codes in ``[0, k)`` (the :class:`Targets`
    invariant, which the scatter-add relies on: it checks no bounds). Counted in
    blocks of ``_BLOCK`` samples, each added in one compiled loop, in order.
    """
    if not _scipy_private.AVAILABLE:
        joint = np.multiply(true, k, dtype=np.intp)
        joint += pred
        table = np.bincount(joint, weights=weights, minlength=k * k)
        return table.reshape(k, k)
    index = _index_dtype(true, pred)
    table = np.zeros((k, k), dtype=np.int64 if weights is None else np.float64)
    n = true.shape[0]
    for start in range(0, n, _BLOCK):
        stop = min(start + _BLOCK, n)
        if weights is None:
            values = _ONES[: stop - start]
        else:
            values = _block(weights, start, stop, np.float64, 2)
        _scipy_private.add_at_pairs(
            table,
            _block(true, start, stop, index, 0),
            _block(pred, start, stop, index, 1),
            values,
        )
    return table


def _index_counts(indices: np.ndarray, n_columns: int) -> np.ndarray:
    """How often each column index in ``[0, n_columns)`` occurs (int64).

    ``np.bincount(indices, minlength=n_columns)``, by the scatter-add when every
    index is in range. An index outside the range (a malformed sparse matrix)
    takes the bincount, which then raises or returns a longer array, as before.
    """
    if (
        not _scipy_private.AVAILABLE
        or indices.shape[0] == 0
        or not 0 <= unsigned_max(indices) < n_columns
    ):
        return np.bincount(indices, minlength=n_columns).astype(np.int64, copy=False)
    index = _index_dtype(indices)
    out = np.zeros(n_columns, dtype=np.int64)
    m = indices.shape[0]
    for start in range(0, m, _BLOCK):
        stop = min(start + _BLOCK, m)
        block = _block(indices, start, stop, index, 0)
        _scipy_private.add_at(out, block, _ONES[: stop - start])
    return out


def _count_1d(targets: Targets, weights: np.ndarray | None) -> Counts:
    k = targets.code_labels.shape[0]
    true, pred = targets.true, targets.pred
    if not targets.in_range and not all(0 <= unsigned_max(c) < k for c in (true, pred)):
        # The scatter-add checks no bounds: never let a stray code reach it.
        raise RuntimeError(
            f"label codes outside [0, {k}) reached the counting core; this is a "
            "bug in sklearn-macrof1's label encoding, please report it"
        )
    if k * k <= max(MAX_JOINT_CELLS, 4 * targets.n_samples):
        table = _joint_table(true, pred, k, weights)
        true_sum = table.sum(axis=1)
        pred_sum = table.sum(axis=0)
        if weights is not None and not (weights > 0).all():
            seen = _joint_table(true, pred, k, None)
            present = (seen.sum(axis=1) != 0) | (seen.sum(axis=0) != 0)
        else:  # each sample adds a positive amount: seen iff nonzero
            present = (true_sum != 0) | (pred_sum != 0)
        tp = table.diagonal().copy()
        if not present.all():
            table = table[present][:, present]
            tp, true_sum, pred_sum = tp[present], true_sum[present], pred_sum[present]
            classes = targets.code_labels[present]
        else:
            classes = targets.code_labels
        confusion = table if classes.shape[0] <= MAX_CONFUSION_CLASSES else None
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


def _column_counts(y: np.ndarray) -> np.ndarray:
    """Number of True values in each column of a 2-D bool array.

    Pairwise halving in uint8 (exact while a cell sums at most 255 rows): long
    vectorised byte additions instead of a per-row reduction with casts.
    """
    n = y.shape[0]
    data = y.view(np.uint8)
    blocks = n - n % 256
    head = data[:blocks]
    rows_per_cell = 1
    while head.shape[0] > 1 and head.shape[0] % 2 == 0 and rows_per_cell < 128:
        half = head.shape[0] // 2
        if rows_per_cell == 1:  # the input is the caller's: add into a new array
            head = head[:half] + head[half:]
        else:  # then halve in place, no further allocation
            head = np.add(head[:half], head[half:], out=head[:half])
        rows_per_cell *= 2
    out = head.sum(axis=0, dtype=np.int64)
    if blocks < n:
        out += data[blocks:].sum(axis=0, dtype=np.int64)
    return out


def _weighted_column_sums(y: Any, weights: np.ndarray | None) -> np.ndarray:
    if sp.issparse(y):
        if weights is None:
            return _index_counts(y.indices, y.shape[1])
        rows = np.repeat(np.arange(y.shape[0]), np.diff(y.indptr))
        return np.bincount(y.indices, weights=weights[rows], minlength=y.shape[1])
    if weights is None:
        return _column_counts(y)
    return weights @ y.astype(np.float64)


def _row_sums(y: Any) -> np.ndarray:
    if sp.issparse(y):
        return np.diff(y.indptr).astype(np.int64)
    width = y.shape[1]
    small = np.uint8 if width < 256 else np.uint16 if width < 65536 else np.int64
    return y.view(np.uint8).sum(axis=1, dtype=small).astype(np.int64)


#: The per-class counts of a Counts with ``class_counts=False``.
_NO_COUNTS = np.zeros(0, dtype=np.int64)
_NO_COUNTS.flags.writeable = False

#: 2**j for each column j of a row mask.
_POWERS_OF_TWO = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))


def _row_bits(y: sp.csr_matrix) -> np.ndarray:
    """Sum of 2**column over each row's stored entries (fewer than 65 columns).

    That is the row's set of columns as the bits of a uint64 when no column is
    stored twice in a row, which holds exactly when the number of set bits equals
    the row's number of entries (a repeat always carries). Built in one buffer:
    powers of two, their running sum, and its differences at the row boundaries.
    """
    running = np.empty(y.indices.shape[0] + 1, dtype=np.uint64)
    running[0] = 0
    powers = running[1:]
    np.copyto(powers, y.indices, casting="unsafe")
    np.left_shift(np.uint64(1), powers, out=powers)
    np.cumsum(powers, out=powers)
    return np.diff(running.take(y.indptr))


#: Levels of the carry-save tree of :func:`_bit_column_counts`.
_SLICE_LEVELS = 5


def _bit_column_counts(bits: np.ndarray, n_columns: int) -> np.ndarray:
    """Number of rows with bit j set, for each column j < n_columns (int64).

    Unpacking every row to 64 bytes costs 64 bytes a row; instead the two halves
    of the rows are first added as binary numbers whose digits are whole uint64
    words (bit j of digit d is digit d of column j's count, a carry-save tree),
    ``_SLICE_LEVELS`` times: then each group of 2**levels rows holds its counts in
    levels + 1 digit words, and only those are unpacked and counted, weighted by
    their place value. An odd row left over at a level is counted apart.
    """
    counts = np.zeros(64, dtype=np.int64)
    digits = [bits.astype("<u8", copy=False)]
    for _ in range(_SLICE_LEVELS):
        n = digits[0].shape[0]
        if n < 2:
            break
        if n % 2:
            for place, digit in enumerate(digits):
                counts += _unpacked_counts(digit[-1:]) << place
            digits = [digit[:-1] for digit in digits]
            n -= 1
        half = n // 2
        digits = _add_digits(
            [digit[:half] for digit in digits], [digit[half:] for digit in digits]
        )
    for place, digit in enumerate(digits):
        counts += _unpacked_counts(digit) << place
    return counts[:n_columns]


def _add_digits(a: list[np.ndarray], b: list[np.ndarray]) -> list[np.ndarray]:
    """Sum of two bit-sliced numbers (lists of digit words, lowest first)."""
    out = []
    carry = None
    for x, y in zip(a, b, strict=True):
        partial = x ^ y
        if carry is None:
            out.append(partial)
            carry = x & y
        else:
            out.append(partial ^ carry)
            carry = np.bitwise_or(x & y, carry & partial, out=carry)
    out.append(carry)
    return out


def _unpacked_counts(words: np.ndarray) -> np.ndarray:
    """Number of words with bit j set, for each j < 64 (little-endian words)."""
    octets = np.ascontiguousarray(words, dtype="<u8").view(np.uint8)
    unpacked = np.unpackbits(octets, bitorder="little").reshape(words.shape[0], 64)
    return _column_counts(unpacked)


def _count_sparse_bits(
    true: sp.csr_matrix,
    pred: sp.csr_matrix,
    samplewise: bool,
    sample_columns: np.ndarray | None,
    class_counts: bool,
) -> Counts | None:
    """Unweighted counts of two CSR indicators from 64-bit row masks.

    Replaces the sparse ``multiply`` (which builds a third matrix) by a bitwise
    AND of row masks. None when it does not apply: more than 64 columns, numpy
    without ``bitwise_count``, a column stored twice in a row, or repeated
    ``sample_columns``.
    """
    n_columns = true.shape[1]
    if n_columns > 64 or not hasattr(np, "bitwise_count"):
        return None
    if sample_columns is not None and (
        np.unique(sample_columns).shape[0] != sample_columns.shape[0]
    ):
        return None
    bits_t, bits_p = _row_bits(true), _row_bits(pred)
    # A row's popcount never exceeds its number of entries, and equals it exactly
    # when no column repeats: one total per matrix tells.
    if (
        np.bitwise_count(bits_t).sum(dtype=np.int64) != true.indices.shape[0]
        or np.bitwise_count(bits_p).sum(dtype=np.int64) != pred.indices.shape[0]
    ):
        return None
    both = bits_t & bits_p
    if class_counts:
        tp = _bit_column_counts(both, n_columns)
        true_sum = _index_counts(true.indices, n_columns)
        pred_sum = _index_counts(pred.indices, n_columns)
    else:
        tp = true_sum = pred_sum = _NO_COUNTS
    samples = None
    if samplewise:
        if sample_columns is not None:
            mask = np.bitwise_or.reduce(_POWERS_OF_TWO[sample_columns], initial=0)
            both, bits_t, bits_p = both & mask, bits_t & mask, bits_p & mask
            per_row_t, per_row_p = np.bitwise_count(bits_t), np.bitwise_count(bits_p)
        else:
            per_row_t, per_row_p = np.diff(true.indptr), np.diff(pred.indptr)
        samples = SampleCounts(
            np.bitwise_count(both).astype(np.int64),
            per_row_t.astype(np.int64),
            per_row_p.astype(np.int64),
            None,
        )
    return Counts(
        "multilabel-indicator",
        np.arange(n_columns),
        tp,
        true_sum,
        pred_sum,
        None,
        samples,
        class_counts,
    )


def _count_multilabel(
    targets: Targets,
    weights: np.ndarray | None,
    samplewise: bool,
    sample_columns: np.ndarray | None,
    class_counts: bool,
) -> Counts:
    true, pred = targets.true, targets.pred
    if sp.issparse(true) and weights is None:
        counts = _count_sparse_bits(
            true, pred, samplewise, sample_columns, class_counts
        )
        if counts is not None:
            counts.classes = targets.code_labels
            return counts
    if sp.issparse(true):
        true, pred = as_bool(true), as_bool(pred)
        both = true.multiply(pred).tocsr()
    else:
        both = true & pred
    if class_counts:
        tp = _weighted_column_sums(both, weights)
        true_sum = _weighted_column_sums(true, weights)
        pred_sum = _weighted_column_sums(pred, weights)
    else:
        tp = true_sum = pred_sum = _NO_COUNTS
    samples = None
    if samplewise:
        if sample_columns is not None:
            both = both[:, sample_columns]
            true = true[:, sample_columns]
            pred = pred[:, sample_columns]
        samples = SampleCounts(
            _row_sums(both), _row_sums(true), _row_sums(pred), weights
        )
    return Counts(
        "multilabel-indicator",
        targets.code_labels,
        tp,
        true_sum,
        pred_sum,
        None,
        samples,
        class_counts,
    )
