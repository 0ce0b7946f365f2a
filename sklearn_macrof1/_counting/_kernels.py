"""The counting core: one pass over the targets gives every count the scores need.

For 1-D targets the pass is ``np.bincount`` of the joint code ``true * k + pred``
(weighted by the sample weights, if any), block by block, into a ``k x k`` table: the
confusion matrix (rows true, columns predicted), from which true positives
(diagonal), true counts (row sums) and predicted counts (column sums) follow. For
multilabel indicator targets it is one element-wise AND and three (weighted) column
sums, plus row sums over the selected columns when ``average="samples"`` needs
per-sample counts.

Above :data:`MAX_CONFUSION_CLASSES` classes no dense table is made: a record
that leaves the call (``cells=True``) keeps the occupied cells of the confusion
matrix instead (:func:`occupied_cells`: one sort of the joint codes, O(min(n,
k²)) cells), the scores only the per-class counts (bincounts, no sort).

When a delta-method interval asks for them (``moments=True``), the same pass also
counts the second moments of the record (``MacroF1Counts.moments``): the squared
weights summed per confusion cell (weighted 1-D targets; the occupied cells above
:data:`MAX_CONFUSION_CLASSES` classes), or the ``3L x 3L`` matrix of
squared-weight-weighted products of each sample's ``(tp | true | pred)`` row
(multilabel targets; its occupied entries, a sparse matrix, above
:data:`MAX_MOMENT_LABELS` columns).

The kernels return arrays (and :class:`SampleCounts`, the per-sample counts);
:func:`~sklearn_macrof1._counting._record.count_targets` puts them into the count
record, :class:`~sklearn_macrof1._counting._record.MacroF1Counts`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._read._encoding import MAX_JOINT_CELLS, Targets, unsigned_max
from .._read._targets import as_bool

#: Largest number of classes for which a record keeps the confusion matrix as a
#: dense ``k x k`` array (above: its occupied cells, a ``scipy.sparse.csr_array``).
MAX_CONFUSION_CLASSES = 2048

#: Largest number of multilabel columns for which the second moments are a
#: dense ``3L x 3L`` array (above: its occupied entries, a
#: ``scipy.sparse.csr_array``).
MAX_MOMENT_LABELS = 256


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


def table_counts(table: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(tp, true, pred)`` of a confusion table, rows true and columns predicted.

    The diagonal, the row sums and the column sums over the last two axes, so a
    stack of tables (bootstrap replicates) gives stacked counts.
    """
    table = np.asarray(table)
    return table.diagonal(0, -2, -1).copy(), table.sum(axis=-1), table.sum(axis=-2)


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


#: Samples counted per ``np.bincount`` call.
_BLOCK = 1 << 18  # 2 MiB of intp codes: as fast as one n-length pass
#: Most cells of a joint table counted block by block: an eighth of a block.
_BLOCK_TABLE_CELLS = _BLOCK // 8
_local = threading.local()


def _take_code_buffer() -> np.ndarray:
    """The thread's ``_BLOCK``-long intp buffer, taken until :func:`_give_back`.

    Counting thus allocates no large temporary per call: where large allocations
    are mapped fresh each time (Dask's workers set ``MALLOC_TRIM_THRESHOLD_``), an
    n-length code array per chunk costs more page faults than the count itself.
    While a count holds the buffer, a count nested in the same thread (from a
    signal handler, a trace or profile function, a finalizer) finds none and
    makes its own, so it cannot overwrite the codes of the count it interrupted.
    """
    buffer = getattr(_local, "codes", None)
    _local.codes = None
    if buffer is None:
        buffer = np.empty(_BLOCK, dtype=np.intp)
    return buffer


def _give_back(buffer: np.ndarray) -> None:
    _local.codes = buffer


def _joint_table(
    true: np.ndarray, pred: np.ndarray, k: int, weights: np.ndarray | None
) -> np.ndarray:
    """The ``k x k`` (weighted) joint count table, rows true and columns predicted.

    ``true`` and ``pred`` are codes in ``[0, k)`` (the :class:`Targets`
    invariant, checked by the caller): ``np.bincount`` of the joint codes
    ``true * k + pred``. Unweighted, longer than one block and with a table of
    at most ``_BLOCK_TABLE_CELLS`` cells, block by block (the codes of each
    block in the thread's buffer), the blocks' tables added; a larger table
    costs more to allocate and add per block than its codes (20 ms against
    5 ms for one pass at 2,000 classes, n = 1e6), so one pass. Weighted, one
    ``np.bincount`` over all samples: each cell's weights are then summed in
    sample order, as scikit-learn sums them (block subtotals would round
    differently, visibly so when large weights cancel).
    """
    n = true.shape[0]
    if weights is not None or n <= _BLOCK or k * k > _BLOCK_TABLE_CELLS:
        joint = np.multiply(true, k, dtype=np.intp)
        np.add(joint, pred, out=joint, casting="unsafe")
        return np.bincount(joint, weights=weights, minlength=k * k).reshape(k, k)
    table = np.zeros(k * k, dtype=np.int64)
    codes = _take_code_buffer()
    try:
        for start in range(0, n, _BLOCK):
            stop = min(start + _BLOCK, n)
            joint = codes[: stop - start]
            np.multiply(true[start:stop], k, out=joint, dtype=np.intp, casting="unsafe")
            np.add(joint, pred[start:stop], out=joint, casting="unsafe")
            table += np.bincount(joint, minlength=k * k)
    finally:
        _give_back(codes)
    return table.reshape(k, k)


def as_scikit_learn_sums(
    tp: np.ndarray, true_sum: np.ndarray, pred_sum: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted ``(tp, true, pred)`` as scikit-learn's scores see them.

    ``multilabel_confusion_matrix`` sums each class's weights in sample order
    (``np.bincount``) and keeps ``fp = pred - tp`` and ``fn = true - tp``, from
    which ``precision_recall_fscore_support`` adds ``tp`` back: ``tp + (pred -
    tp)`` may differ from ``pred`` in the last bit with float weights, so the
    counts take the same two steps, and every score equals scikit-learn's bit
    for bit (where a sum overflows, ``inf - inf`` makes it nan, with numpy's
    RuntimeWarning, as there).
    """
    return tp, tp + (true_sum - tp), tp + (pred_sum - tp)


def count_1d(
    targets: Targets,
    weights: np.ndarray | None,
    squares: bool = False,
    cells: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Any, Any]:
    """``(classes, tp, true, pred, confusion, moments)`` of 1-D targets: the
    classes present and their counts; the confusion matrix and, with
    ``squares``, each cell's sum of squared weights. Above
    :data:`MAX_CONFUSION_CLASSES` classes both are the occupied cells
    (:func:`occupied_cells`) with ``cells``, else None."""
    k = targets.code_labels.shape[0]
    true, pred = targets.true, targets.pred
    if not targets.in_range and not all(0 <= unsigned_max(c) < k for c in (true, pred)):
        # A clear error for a bug upstream: a stray code would be counted in
        # another cell of the joint table.
        raise RuntimeError(
            f"label codes outside [0, {k}) reached the counting core; this is a "
            "bug in sklearn-macrof1's label encoding, please report it"
        )
    moments = None
    if k * k <= max(MAX_JOINT_CELLS, 4 * targets.n_samples):
        table = _joint_table(true, pred, k, weights)
        if weights is None:
            tp, true_sum, pred_sum = table_counts(table)
        else:  # each class's weights added in sample order, not cell by cell
            tp, true_sum, pred_sum = as_scikit_learn_sums(
                table.diagonal().copy(),
                np.bincount(true, weights=weights, minlength=k),
                np.bincount(pred, weights=weights, minlength=k),
            )
        if weights is not None and not (weights > 0).all():
            seen = _joint_table(true, pred, k, None)
            present = (seen.sum(axis=1) != 0) | (seen.sum(axis=0) != 0)
        else:  # each sample adds a positive amount: seen iff nonzero
            present = (true_sum != 0) | (pred_sum != 0)
        if squares and np.count_nonzero(present) <= MAX_CONFUSION_CLASSES:
            # whenever the confusion matrix is kept (codes may outnumber the
            # classes present: small integers are their own codes)
            assert weights is not None
            moments = _joint_table(true, pred, k, weights * weights)
        if not present.all():
            table = table[present][:, present]
            if moments is not None:
                moments = moments[present][:, present]
            tp, true_sum, pred_sum = tp[present], true_sum[present], pred_sum[present]
            classes = targets.code_labels[present]
        else:
            classes = targets.code_labels
        confusion = table if classes.shape[0] <= MAX_CONFUSION_CLASSES else None
    else:  # many class codes: per-class bincounts, no dense table, no sort
        hit = true == pred
        tp = np.bincount(
            true[hit], weights=None if weights is None else weights[hit], minlength=k
        )
        true_sum = np.bincount(true, weights=weights, minlength=k)
        pred_sum = np.bincount(pred, weights=weights, minlength=k)
        if weights is not None:
            tp, true_sum, pred_sum = as_scikit_learn_sums(tp, true_sum, pred_sum)
        if weights is not None and not (weights > 0).all():
            present = np.zeros(k, dtype=bool)
            present[true] = True
            present[pred] = True
        else:  # each sample adds a positive amount: seen iff nonzero
            present = (true_sum != 0) | (pred_sum != 0)
        n_present = int(np.count_nonzero(present))
        if n_present * n_present <= max(MAX_JOINT_CELLS, 4 * targets.n_samples):
            # Few classes among many codes (integer labels far apart): their
            # joint table after all (the confusion matrix, the moments), over
            # the codes of the classes present.
            position = np.cumsum(present) - 1
            dense = Targets(
                "1d",
                position[true],
                position[pred],
                targets.code_labels[present],
                targets.n_samples,
                in_range=True,
            )
            return count_1d(dense, weights, squares, cells)
        classes = targets.code_labels[present]
        tp, true_sum, pred_sum = tp[present], true_sum[present], pred_sum[present]
        confusion = None
    if confusion is None:
        moments = None
        if cells:
            confusion, moments = occupied_cells(
                targets, weights, squares and weights is not None
            )
    return classes, tp, true_sum, pred_sum, confusion, moments


#: Classes up to which :func:`occupied_cells` orders the samples by two stable
#: radix sorts of their 16-bit class positions (5x faster than ``np.unique``'s
#: sort of the joint codes at 3,000 classes, 1e6 samples).
_RADIX_CLASSES = 1 << 16


def occupied_cells(
    targets: Targets, weights: np.ndarray | None, squares: bool = False
) -> tuple[sp.csr_array, sp.csr_array | None]:
    """The confusion matrix of 1-D targets as its occupied cells (a
    ``scipy.sparse.csr_array``, rows true, columns predicted, over the classes
    present: those of :func:`count_1d`) and, with ``squares``, each of those
    cells' sum of squared weights (else None): O(n) time for two radix sorts
    of the classes (up to 65,536 present), else O(n log n) for one sort of the
    joint codes; O(min(n, k²)) cells, however many classes. Each cell's
    weights are summed in sample order, as the dense table sums them."""
    k = targets.code_labels.shape[0]
    present = np.zeros(k, dtype=bool)
    present[targets.true] = True  # bounds-checked numpy indexing
    present[targets.pred] = True
    position = np.cumsum(present) - 1
    m = int(position[-1]) + 1 if k else 0
    t, p = position[targets.true], position[targets.pred]
    joint = t * m
    joint += p
    if m <= _RADIX_CLASSES:  # two stable radix sorts of 16-bit codes, O(n)
        order = np.argsort(p.astype(np.uint16), kind="stable")
        order = order[np.argsort(t.astype(np.uint16)[order], kind="stable")]
        ordered = joint[order]
        first = np.ones(ordered.shape[0], dtype=bool)
        np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
        found = ordered[first]
        inverse = np.empty(ordered.shape[0], dtype=np.intp)
        inverse[order] = np.cumsum(first) - 1
    else:
        found, inverse = np.unique(joint, return_inverse=True)
        inverse = inverse.reshape(-1)
    rows, cols = np.divmod(found, m)

    def table(w: np.ndarray | None) -> sp.csr_array:
        values = np.bincount(inverse, weights=w, minlength=found.size)
        return sp.csr_array((values, (rows, cols)), shape=(m, m))

    squared = table(weights * weights) if squares and weights is not None else None
    return table(weights), squared


def confusion_cells(targets: Targets, weights: np.ndarray | None) -> sp.csr_array:
    """The occupied cells of the confusion matrix (:func:`occupied_cells`)."""
    return occupied_cells(targets, weights)[0]


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
            return np.bincount(y.indices, minlength=y.shape[1]).astype(np.int64)
        rows = np.repeat(np.arange(y.shape[0]), np.diff(y.indptr))
        return np.bincount(y.indices, weights=weights[rows], minlength=y.shape[1])
    if weights is None:
        return _column_counts(y)
    # each row times its weight, the rows added in order down the columns: the
    # sums of scikit-learn's bincount over the samples, bit for bit, and the
    # same on every machine (a matrix product's BLAS kernel orders its
    # additions by CPU and thread count)
    weighted = y.astype(np.float64, order="C")
    weighted *= weights[:, None]
    return weighted.sum(axis=0)


def _row_sums(y: Any) -> np.ndarray:
    if sp.issparse(y):
        return np.diff(y.indptr).astype(np.int64)
    width = y.shape[1]
    small = np.uint8 if width < 256 else np.uint16 if width < 65536 else np.int64
    return y.view(np.uint8).sum(axis=1, dtype=small).astype(np.int64)


#: The per-class counts of a record with ``class_counts=False``.
_NO_COUNTS = np.zeros(0, dtype=np.int64)
_NO_COUNTS.flags.writeable = False


def count_multilabel(
    targets: Targets,
    weights: np.ndarray | None,
    samplewise: bool,
    sample_columns: np.ndarray | None,
    class_counts: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, SampleCounts | None]:
    """``(tp, true, pred, samples)`` of multilabel targets: per-column counts
    (empty without ``class_counts``) and, when ``samplewise``, the per-sample
    counts over ``sample_columns`` (all columns when None)."""
    true, pred = targets.true, targets.pred
    if sp.issparse(true):
        true, pred = as_bool(true), as_bool(pred)
        both = true.multiply(pred).tocsr()
    else:
        both = true & pred
    if class_counts:
        tp = _weighted_column_sums(both, weights)
        true_sum = _weighted_column_sums(true, weights)
        pred_sum = _weighted_column_sums(pred, weights)
        if weights is not None:
            tp, true_sum, pred_sum = as_scikit_learn_sums(tp, true_sum, pred_sum)
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
    return tp, true_sum, pred_sum, samples


#: Most samples and most entries per block of the multilabel second moments
#: (bound the float copy of a block: 8 MiB at most).
_MOMENT_BLOCK = 1 << 14
_MOMENT_ENTRIES = 1 << 20


def indicator_moments(targets: Targets, weights: np.ndarray | None) -> Any:
    """``sum_i w_i**2 x_i x_i'`` of the rows ``x_i = (tp | true | pred)``.

    Shape ``(3L, 3L)``, as ``(w x)' (w x)`` over blocks of samples (one
    symmetric product per block; sparse indicators stay sparse). Without
    weights a block's products are counts of at most ``_MOMENT_BLOCK`` < 2**24:
    exact in float32, which halves the cost. Above :data:`MAX_MOMENT_LABELS`
    columns, the occupied entries (a ``scipy.sparse.csr_array``): the pairs of
    entries that occur together in a sample. Sparse indicators, and dense ones
    whose ``3L x 3L`` array would exceed ``MAX_JOINT_CELLS`` entries (L > 682),
    are multiplied as sparse matrices, O(sum of the squared entries per row);
    smaller dense ones by BLAS, O(n L²) (a dense block product is many times
    faster than a sparse one when the rows are dense).
    """
    true, pred = targets.true, targets.pred
    n, width = true.shape
    if sp.issparse(true) or 9 * width * width > MAX_JOINT_CELLS:
        return _sparse_indicator_moments(true, pred, weights, width)
    out = np.zeros((3 * width, 3 * width))
    dtype = np.float32 if weights is None else np.float64
    size = max(1, min(_MOMENT_BLOCK, _MOMENT_ENTRIES // (3 * width)))
    block = np.empty((min(n, size), 3 * width), dtype=dtype)
    for start in range(0, n, size):
        stop = min(start + size, n)
        x = block[: stop - start]
        t, p = true[start:stop], pred[start:stop]
        np.logical_and(t, p, out=x[:, :width], casting="unsafe")
        x[:, width : 2 * width] = t
        x[:, 2 * width :] = p
        if weights is not None:
            x *= weights[start:stop, None]
        out += x.T @ x
    return out if width <= MAX_MOMENT_LABELS else sp.csr_array(out)


def _sparse_indicator_moments(
    true: Any, pred: Any, weights: np.ndarray | None, width: int
) -> Any:
    """:func:`indicator_moments` as a sparse product, block by block of
    samples (dense indicators are made sparse one block at a time): a dense
    array up to :data:`MAX_MOMENT_LABELS` columns, else a ``csr_array``."""
    n = true.shape[0]
    total = sp.csr_array((3 * width, 3 * width), dtype=np.float64)
    # sparse indicators: one product; dense ones: blocks of ~_MOMENT_ENTRIES
    size = n if sp.issparse(true) else max(1, _MOMENT_ENTRIES // width)
    for start in range(0, n, size):
        stop = min(start + size, n)
        t, p = true[start:stop], pred[start:stop]
        if sp.issparse(t):
            t, p = as_bool(t), as_bool(p)
        t, p = sp.csr_array(t, dtype=bool), sp.csr_array(p, dtype=bool)
        rows = sp.hstack([t.multiply(p), t, p], format="csr").astype(np.float64)
        if weights is not None:  # each row times its sample's weight
            rows.data *= np.repeat(weights[start:stop], np.diff(rows.indptr))
        total = total + sp.csr_array(rows.T @ rows)
    if width <= MAX_MOMENT_LABELS:
        return np.asarray(total.toarray())
    total.sort_indices()
    return total
