"""Device arrays: array-API arrays (PyTorch, CuPy, JAX, array-api-strict)
counted on their device.

scikit-learn 1.9 scores arrays of any array-API namespace on their device when
``sklearn.set_config(array_api_dispatch=True)`` (with ``SCIPY_ARRAY_API=1`` in
the environment before scipy is imported). This source follows the same rules:

- the namespace and device are those of ``y_pred`` (of the first prediction
  set in a comparison); ``y_true`` and ``sample_weight`` are moved there,
  as scikit-learn moves them;
- the samples are validated and counted on that device, and only the count
  record crosses to the host: O(k) numbers for k classes, or, where a summary,
  an interval or a record that leaves asks for them, the occupied cells of
  the confusion matrix (at most ``min(n, k**2)``), of the joint cells of a
  paired comparison, of the per-sample histogram or of the second moments of
  multilabel targets; never the n samples;
- arrays on the CPU that NumPy reads without a copy (PyTorch CPU tensors, for
  example) are counted by the in-memory kernels through that view;
- the reading says how per-class results are returned
  (``Reading.returns``): averaged scores are Python floats, per-class scores
  arrays of ``y_pred``'s namespace and device; the score functions know
  nothing of devices.

Counting needs a ``bincount``, which the array-API standard lacks: the
namespace's own is used where it has one (PyTorch, CuPy, JAX, NumPy); the
documented fallback (:func:`bincount`) sorts the codes and finds each bin's
edges with standard functions only (O(n log n); weights are summed per bin by
a segmented scan, with the rounding of a pairwise sum).

Without ``array_api_dispatch``, arrays that NumPy can read (CPU tensors) are
read as NumPy arrays, as scikit-learn does; an array on another device is
refused with an error that names the setting. The optional package
``array-api-compat`` (the ``[array-api]`` extra) gives each array its
namespace; it is imported only when a device array is counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._counting._kernels import (
    MAX_CONFUSION_CLASSES,
    MAX_MOMENT_LABELS,
    SampleCounts,
    table_counts,
)
from .._counting._pairs import MAX_PAIR_CELLS, JointReading, PairCells
from .._counting._record import (
    MacroF1Counts,
    Reading,
    _multilabel_columns,
    read_in_memory,
    zero_weight_rule,
)
from .._counting._registry import (
    CountRequest,
    JointPredictions,
    Predictions,
    Stream,
    register_source,
)
from .._options import as_numpy, check_sample_weight, host_copy
from .._read._namespace import (
    compat_module,
    detached,
    is_device_array,
    is_device_array_type,
    moved_to,
    namespace_of,
    on_device,
    to_host,
)
from .._read._targets import read_device_targets
from ._stream import padded_batch

_MULTILABEL = "multilabel-indicator"
#: Widest range of integer labels counted with a dense table (beyond it, or
#: above four per sample, the labels are encoded by a sort: ``unique_inverse``).
_DENSE_RANGE = 1 << 22


# ---------------------------------------------------------------- recognition


def dispatch_enabled() -> bool:
    """scikit-learn's ``array_api_dispatch`` setting."""
    import sklearn

    return bool(sklearn.get_config().get("array_api_dispatch", False))


def _is_cpu(device: Any) -> bool:
    return "cpu" in str(device).lower()


def host_view(value: Any) -> Any:
    """A PyTorch tensor on the CPU as the NumPy array that views it (no copy,
    no extra package needed; bfloat16 and float8 as float32 copies), as the
    one-shot functions read it without ``array_api_dispatch``; any other
    value unchanged."""
    if (
        type(value).__module__.split(".")[0] == "torch"
        and is_device_array(value)
        and _is_cpu(value.device)
    ):
        try:
            return as_numpy(detached(value))
        except (RuntimeError, TypeError, ValueError, BufferError):
            return value  # a tensor NumPy cannot view: counted by PyTorch
    return value


def _device_name(value: Any) -> str:
    try:
        return str(compat_module().device(value))
    except Exception:  # pragma: no cover - array-api-compat missing
        return str(getattr(value, "device", "another device"))


def _host_values(values: Sequence[Any], names: Sequence[str], caller: str) -> list:
    """NumPy copies of the values without ``array_api_dispatch`` (CPU arrays are
    read as scikit-learn reads them; others are refused, naming the setting)."""
    host = []
    for name, value in zip(names, values, strict=True):
        if not is_device_array(value):
            host.append(value)
            continue
        try:
            host.append(as_numpy(detached(value)))
        except (RuntimeError, TypeError, ValueError, BufferError) as exc:
            raise ValueError(
                f"{caller} got {name} on the device {_device_name(value)} "
                f"({type(value).__module__}.{type(value).__name__}), which NumPy "
                "cannot read. Arrays on a device are scored there with "
                "scikit-learn's array API dispatch: run "
                "sklearn.set_config(array_api_dispatch=True) (with the "
                "environment variable SCIPY_ARRAY_API=1 set before scipy is "
                "imported), or move the arrays to the CPU first."
            ) from exc
    return host


def _on_host(value: Any, like: Any = None) -> Any:
    """``value`` on the host when it is a device array (of ``like``'s type, or
    of any namespace); other values unchanged."""
    if value is not None and (type(value) is type(like) or is_device_array(value)):
        return np.asarray(host_copy(detached(value)))
    return value


def in_memory(values: Sequence[Any], names: Sequence[str], caller: str) -> list:
    """``values`` for a function that needs every sample in this process (the
    tuning of a decision rule sorts every score): device arrays copied to the
    host with ``array_api_dispatch``, refused without it (naming the setting);
    other values unchanged."""
    if dispatch_enabled():
        return [_on_host(value) for value in values]
    return _host_values(values, names, caller)


# ---------------------------------------------------------------- counting


def widest_float(xp: Any, device: Any) -> Any:
    """float64 where ``device`` has it (as scikit-learn computes), else float32
    (Apple's MPS, array-api-strict's ``no_float64``)."""
    floats = xp.__array_namespace_info__().dtypes(device=device, kind="real floating")
    return floats.get("float64", floats.get("float32"))


def bincount(xp: Any, codes: Any, weights: Any, length: int) -> Any:
    """``bincount(codes, weights, minlength=length)`` on the device of ``codes``
    (non-negative integers below ``length``).

    The namespace's own ``bincount`` where it has one. Otherwise (the
    array-API standard has none) the fallback uses standard functions only:
    the codes are sorted and the bin edges found with ``searchsorted`` (the
    counts are their differences); weights are summed per bin by a segmented
    scan of the sorted weights (log2(n) passes, each adding the partial sum
    ``2**s`` places back within the same bin), whose rounding is that of a
    pairwise sum within each bin: O(n log n) work in all.
    """
    native = getattr(xp, "bincount", None)
    if native is not None:
        if xp.__name__.startswith("jax"):  # pragma: no cover - JAX
            return native(codes, weights, length=length)
        return native(codes, weights=weights, minlength=length)
    device = codes.device  # a standard array (the namespaces above have bincount)
    order = xp.argsort(codes)
    ordered = xp.take(codes, order)
    edges = xp.searchsorted(
        ordered, xp.arange(length + 1, dtype=codes.dtype, device=device)
    )
    if weights is None:
        return edges[1:] - edges[:-1]
    n = int(codes.shape[0])
    partial = xp.take(weights, order)
    shift = 1
    while shift < n:
        same = ordered[shift:] == ordered[:-shift]
        earlier = xp.where(same, partial[:-shift], xp.zeros_like(partial[:-shift]))
        partial = xp.concat([partial[:shift], partial[shift:] + earlier])
        shift *= 2
    # each bin's sum is the scan at its last sample; empty bins are 0
    last = xp.clip(edges[1:] - 1, 0, max(n - 1, 0))
    sums = xp.take(partial, last) if n else xp.zeros(length, dtype=weights.dtype)
    return xp.where(edges[1:] > edges[:-1], sums, xp.zeros_like(sums))


def tally_bincount(xp: Any, codes: Any, weights: Any, length: int) -> Any:
    """:func:`bincount` of codes that the caller has put in ``[0, length)``,
    without reading anything back from the device.

    PyTorch's ``bincount`` on a GPU reads the codes' minimum and maximum back
    to the host, which makes every update of the accumulator wait for the
    device; an ``index_add_`` into ``length`` zeros counts the same codes with
    no read-back (used on every PyTorch device, so that the CPU tests run it).
    Only :func:`tally_batch` calls this, after mapping every code it does not
    count to a trash bin inside the range (PyTorch still checks the indices on
    the device).
    """
    if xp.__name__.endswith("torch"):  # on every device, so that CPU tests run it
        values = xp.ones_like(codes, dtype=xp.int64) if weights is None else weights
        out = xp.zeros(length, dtype=values.dtype, device=codes.device)
        return out.index_add_(0, codes, values)
    return bincount(xp, codes, weights, length)


class _Device:
    """The arrays of one call on one device, with the dtypes it supports."""

    def __init__(self, xp: Any, device: Any, caller: str) -> None:
        self.xp, self.device, self.caller = xp, device, caller
        self.float = widest_float(xp, device)
        self.index = xp.__array_namespace_info__().default_dtypes(device=device)[
            "indexing"
        ]

    def host(self, value: Any) -> np.ndarray:
        """A NumPy copy of an array of this device (what crosses to the host)."""
        return np.asarray(host_copy(value))

    def host_int(self, value: Any) -> np.ndarray:
        return self.host(value).astype(np.int64)

    def host_float(self, value: Any) -> np.ndarray:
        return self.host(value).astype(np.float64)

    def nonzero_cells(self, seen: Any, *sums: Any) -> list[Any]:
        """The positions of the nonzero entries of ``seen`` and, at those
        positions, ``seen`` and each of ``sums`` (None stays None), on the host."""
        xp = self.xp
        cells = xp.nonzero(seen)[0]
        out: list[Any] = [self.host_int(cells), self.host_int(xp.take(seen, cells))]
        for values in sums:
            out.append(
                None if values is None else self.host_float(xp.take(values, cells))
            )
        return out


def _checked_weights(
    dev: _Device, weights: Any, on_device: bool, n: int, part: bool
) -> tuple[Any, bool]:
    """The weights as floats of the device (float64 where it has them),
    checked by :func:`~.._options.check_sample_weight` (on the host for host
    weights, then moved; on the device for weights ``on_device``), and
    whether they are all zero (read from the device once)."""
    if weights is None:
        return None, False
    xp = dev.xp
    if not on_device:  # a host array: checked there, then moved
        host = check_sample_weight(weights, n)
        zero = zero_weight_rule(n > 0 and not host.any(), n, part=part)
        return xp.asarray(host, dtype=dev.float, device=dev.device), zero
    weights = check_sample_weight(weights, n, xp=xp, dtype=dev.float)
    zero = zero_weight_rule(n > 0 and not bool(xp.any(weights != 0)), n, part=part)
    return weights, zero


def _encode(dev: _Device, arrays: Sequence[Any]) -> tuple[list[Any], np.ndarray]:
    """Codes ``0 .. k-1`` on the device of each 1-D array of labels, and the
    ``k`` labels present (sorted) on the host.

    Integer-valued labels in a range of at most ``max(4 n, 2**22)`` are coded by
    their offset from the smallest (one ``bincount`` of presence, no sort);
    wider ranges by ``unique_inverse`` of all labels (a sort on the device).
    """
    xp = dev.xp
    n = arrays[0].shape[0]
    host_dtype = np.result_type(*(dev.host(y[:0]).dtype for y in arrays))
    arrays = [
        xp.astype(y, dev.index) if xp.isdtype(y.dtype, "bool") else y for y in arrays
    ]
    low = min(_scalar(xp.min(y)) for y in arrays)
    high = max(_scalar(xp.max(y)) for y in arrays)
    span = high - low + 1
    exact = all(abs(v) < 2**53 for v in (low, high))
    if exact and span <= max(4 * n, _DENSE_RANGE):
        span = int(span)
        # widened first: the offset of a narrow dtype (int8, int16) overflows it
        codes = [xp.astype(y, dev.index) for y in arrays]
        codes = [c - int(low) if low else c for c in codes]
        seen = sum(bincount(xp, c, None, span) for c in codes)
        present = seen > 0
        offsets = dev.host_int(xp.nonzero(present)[0])
        labels = (offsets + int(low)).astype(host_dtype)
        if offsets.shape[0] < span:  # positions among the labels present
            position = xp.cumulative_sum(xp.astype(present, dev.index)) - 1
            codes = [xp.take(position, c) for c in codes]
        return codes, labels
    common = xp.result_type(*(y.dtype for y in arrays))
    values, inverse = xp.unique_inverse(
        xp.concat([xp.astype(y, common) for y in arrays])
    )
    inverse = xp.astype(inverse, dev.index)
    codes = [inverse[i * n : (i + 1) * n] for i in range(len(arrays))]
    return codes, dev.host(values).astype(host_dtype)


def _scalar(value: Any) -> float | int:
    number = float(value)
    return int(number) if number.is_integer() else number


#: ``(codes, count, weight, square)`` of cells on the host (None: not counted).
_HostCells = tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]
#: The fewest entries at which :class:`_Cells` are folded into one per cell.
_FOLD_AT = 1 << 20


@dataclass(frozen=True)
class _Cells:
    """Occupied cells of a ``k x k`` confusion matrix kept on a device, by
    joint code ``true * k + pred``.

    ``parts`` are tuples ``(codes, count, weight, square)`` of device arrays:
    each entry one sample as batches add them (``count`` None: ones;
    ``weight`` and ``square`` None without weights, or when not asked for),
    or one cell once :meth:`folded`. A fold concatenates the parts, sorts the
    codes (stably: each cell's weights are summed in sample order, as the
    host's ``bincount`` sums them) and makes one entry per code: counts by
    differences of an integer cumulative sum (exact on any device), weights
    by ``bincount`` of the cell positions. Finding the number of cells is the
    fold's one read from the device. A tally folds whenever its entries
    outgrow ``limit`` (twice the cells last found, at least ``_FOLD_AT``), so
    its memory stays O(cells + ``_FOLD_AT``) and each sample is sorted
    O(log n) times.
    """

    parts: tuple[tuple[Any, Any, Any, Any], ...]
    size: int
    limit: int

    @classmethod
    def of_batch(cls, dev: _Device, codes: Any, weights: Any, squares: bool) -> _Cells:
        """One entry per sample: ``codes`` (integers), ``weights`` (None: none)."""
        square = weights * weights if weights is not None and squares else None
        codes = dev.xp.astype(codes, dev.xp.int64)
        return cls(((codes, None, weights, square),), int(codes.shape[0]), _FOLD_AT)

    def joined(self, other: _Cells, xp: Any) -> _Cells:
        """Both sets of entries; folded when they outgrow the limit."""
        joined = _Cells(
            self.parts + other.parts,
            self.size + other.size,
            max(self.limit, other.limit),
        )
        return joined if joined.size <= joined.limit else joined.folded(xp)

    def folded(self, xp: Any) -> _Cells:
        """One entry per occupied cell, codes increasing."""
        if len(self.parts) == 1 and self.parts[0][1] is not None:
            return self  # folded already
        codes = xp.concat([part[0] for part in self.parts])
        device = compat_module().device(codes)
        count = xp.concat(
            [
                xp.ones(part[0].shape[0], dtype=xp.int64, device=device)
                if part[1] is None
                else part[1]
                for part in self.parts
            ]
        )
        order = xp.argsort(codes, stable=True)
        codes = xp.take(codes, order)
        n = int(codes.shape[0])
        first = xp.concat(
            [xp.ones(min(n, 1), dtype=xp.bool, device=device), codes[1:] != codes[:-1]]
        )
        starts = xp.nonzero(first)[0]  # the one read: how many cells
        m = int(starts.shape[0])
        ends = xp.concat(
            [starts[1:], xp.asarray([n], dtype=starts.dtype, device=device)]
        )
        running = xp.cumulative_sum(xp.take(count, order))
        at_end = xp.take(running, ends - 1) if m else running
        count = at_end - xp.concat(
            [xp.zeros(min(m, 1), dtype=xp.int64, device=device), at_end[:-1]]
        )
        cell = xp.cumulative_sum(xp.astype(first, xp.int64)) - 1

        def summed(position: int) -> Any:
            if self.parts[0][position] is None:
                return None
            values = xp.concat([part[position] for part in self.parts])
            return bincount(xp, cell, xp.take(values, order), m)

        folded = (xp.take(codes, starts), count, summed(2), summed(3))
        return _Cells((folded,), m, max(2 * m, _FOLD_AT))

    def on_host(self, dev: _Device) -> _HostCells:
        """``(codes, count, weight, square)`` of the folded cells, on the host
        (None stays None)."""
        codes, count, weight, square = self.folded(dev.xp).parts[0]
        return (
            dev.host_int(codes),
            dev.host_int(count),
            None if weight is None else dev.host_float(weight),
            None if square is None else dev.host_float(square),
        )


def _cell_tables(
    cells: _HostCells, rows: np.ndarray, cols: np.ndarray, m: int
) -> tuple[Any, Any]:
    """The confusion matrix (counts, or weight sums) and the squared-weight
    sums (None: not counted) of host cells at ``rows`` and ``cols`` of ``m``
    classes: dense up to :data:`MAX_CONFUSION_CLASSES` classes, as the host
    records keep them, else ``csr_array``."""
    _, count, weight, square = cells

    def table(values: np.ndarray) -> Any:
        out = sp.csr_array((values, (rows, cols)), shape=(m, m))
        return out.toarray() if m <= MAX_CONFUSION_CLASSES else out

    confusion = table(count if weight is None else weight)
    return confusion, None if square is None else table(square)


def _count_1d(
    dev: _Device,
    true: Any,
    pred: Any,
    labels: np.ndarray,
    weights: Any,
    moments: bool,
    zero: bool,
    cells: bool,
) -> MacroF1Counts:
    """The record of 1-D codes ``true`` and ``pred`` over ``labels`` (every
    class present in either). Above :data:`MAX_CONFUSION_CLASSES` classes it
    keeps the occupied cells of the confusion matrix (and, with ``moments``
    and weights, their sums of squared weights) when ``cells`` or
    ``moments`` asks for them: one sort of the joint codes on the device, and
    O(cells) numbers cross to the host."""
    xp = dev.xp
    k = labels.shape[0]
    confusion: Any = None
    second: Any = None
    if k <= MAX_CONFUSION_CLASSES:
        joint = true * k + pred
        seen = bincount(xp, joint, None, k * k)
        sums = None if weights is None else bincount(xp, joint, weights, k * k)
        squares = None
        if moments and weights is not None:
            squares = bincount(xp, joint, weights * weights, k * k)
        cells, count, weight, square = dev.nonzero_cells(seen, sums, squares)
        table = np.zeros(k * k, np.int64 if weight is None else np.float64)
        table[cells] = count if weight is None else weight
        confusion = table.reshape(k, k)
        if square is not None:
            second = np.zeros(k * k)
            second[cells] = square
            second = second.reshape(k, k)
        tp, true_sum, pred_sum = table_counts(confusion)
    else:
        hit = true == pred
        hit_weights = None if weights is None else weights[hit]
        host = dev.host_int if weights is None else dev.host_float
        tp = host(bincount(xp, true[hit], hit_weights, k))
        true_sum = host(bincount(xp, true, weights, k))
        pred_sum = host(bincount(xp, pred, weights, k))
        if cells or moments:
            squares = moments and weights is not None
            found = _Cells.of_batch(dev, true * k + pred, weights, squares)
            on_host = found.on_host(dev)
            rows, cols = np.divmod(on_host[0], k)
            confusion, second = _cell_tables(on_host, rows, cols, k)
    return MacroF1Counts(
        "binary" if k <= 2 else "multiclass",
        labels,
        tp,
        true_sum,
        pred_sum,
        confusion,
        n_samples=int(true.shape[0]),
        weighted=weights is not None,
        moments=second,
        _zero_weight=zero,
    )


def _count_multilabel(
    dev: _Device,
    y_true: Any,
    y_pred: Any,
    weights: Any,
    request: CountRequest,
    zero: bool,
) -> MacroF1Counts:
    xp = dev.xp
    n, width = int(y_true.shape[0]), int(y_true.shape[1])
    true, pred = (
        y if xp.isdtype(y.dtype, "bool") else y != 0 for y in (y_true, y_pred)
    )
    hit = true & pred
    class_counts = request.class_counts or not request.samplewise
    empty = np.zeros(0, dtype=np.int64)
    tp = true_sum = pred_sum = empty
    if class_counts:
        if weights is None:
            tp, true_sum, pred_sum = (
                dev.host_int(xp.sum(xp.astype(y, dev.index), axis=0))
                for y in (hit, true, pred)
            )
        else:
            column = xp.reshape(weights, (-1, 1))
            tp, true_sum, pred_sum = (
                dev.host_float(xp.sum(xp.astype(y, dev.float) * column, axis=0))
                for y in (hit, true, pred)
            )
    samples = columns = None
    if request.samplewise:
        if request.labels is not None:
            columns = _multilabel_columns(request.labels, width)
        samples = _sample_histogram(dev, hit, true, pred, weights, columns)
    second = None
    if request.moments:
        second = _indicator_moments(dev, hit, true, pred, weights)
    return MacroF1Counts(
        _MULTILABEL,
        np.arange(width),
        tp,
        true_sum,
        pred_sum,
        n_samples=n,
        weighted=weights is not None,
        moments=second,
        _samples=samples,
        _sample_columns=columns if request.samplewise else None,
        _class_counts=class_counts,
        _zero_weight=zero,
    )


#: The most entries of one block of :func:`_indicator_moments` above
#: :data:`MAX_MOMENT_LABELS` labels: rows of the indicators, and pairs of
#: entries of one sample (a single sample's pairs are never split).
_MOMENT_BLOCK = 1 << 22


def _indicator_moments(
    dev: _Device, hit: Any, true: Any, pred: Any, weights: Any
) -> Any:
    """The ``3L x 3L`` second moments of multilabel targets (the sum over the
    samples of each one's ``tp | true | pred`` row times itself and its
    squared weight), as :func:`~.._counting._kernels.indicator_moments`
    gives them: a dense array up to :data:`MAX_MOMENT_LABELS` labels (one
    product on the device); above, a ``csr_array`` of the occupied entries,
    the pairs of entries that occur together in some sample. Those are
    listed on the device sample by sample (the ``c**2`` pairs of a sample
    with ``c`` nonzero entries, in blocks of at most ``_MOMENT_BLOCK`` rows'
    entries and pairs) and folded into one entry per occupied pair
    (:class:`_Cells`): O(sum of the squared entries per sample), as the
    host's sparse product, and only the occupied entries cross to the host.
    """
    xp = dev.xp
    n, width = int(true.shape[0]), 3 * int(true.shape[1])
    squares = None if weights is None else weights * weights
    if width <= 3 * MAX_MOMENT_LABELS:
        rows = xp.astype(xp.concat([hit, true, pred], axis=1), dev.float)
        weighted = rows if squares is None else rows * xp.reshape(squares, (-1, 1))
        return dev.host_float(xp.matmul(xp.matrix_transpose(rows), weighted))
    entries = sum(xp.sum(xp.astype(y, xp.int64), axis=1) for y in (hit, true, pred))
    pairs = xp.cumulative_sum(entries * entries)
    total = int(pairs[-1]) if n else 0  # one read: how many pairs in all
    cuts = set(range(0, n, max(1, _MOMENT_BLOCK // width)))
    if total > _MOMENT_BLOCK:  # the first sample of each block of pairs
        marks = xp.arange(
            _MOMENT_BLOCK, total, _MOMENT_BLOCK, dtype=xp.int64, device=dev.device
        )
        cuts.update(dev.host_int(xp.searchsorted(pairs, marks, side="right")))
    bounds = sorted(cuts | {n})
    found: _Cells | None = None
    for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
        block = xp.concat([y[start:stop, :] for y in (hit, true, pred)], axis=1)
        row, col = xp.nonzero(block)  # by sample, then column
        if int(row.shape[0]) == 0:
            continue
        count = bincount(xp, row, None, stop - start)
        first = xp.cumulative_sum(count) - count  # each sample's first entry
        repeats = xp.take(count, row)  # the pairs each entry starts
        size = int(xp.sum(repeats))
        begins = xp.cumulative_sum(repeats) - repeats
        entry = xp.cumulative_sum(bincount(xp, begins, None, size)) - 1
        offset = xp.arange(size, dtype=begins.dtype, device=dev.device)
        sample = xp.take(row, entry)
        partner = xp.take(first, sample) + offset - xp.take(begins, entry)
        codes = xp.take(col, entry) * width + xp.take(col, partner)
        weight = None if squares is None else xp.take(squares[start:stop], sample)
        part = _Cells.of_batch(dev, codes, weight, squares=False)
        found = part if found is None else found.joined(part, xp)
    if found is None:
        return sp.csr_array((width, width), dtype=np.float64)
    codes, count, weight, _ = found.on_host(dev)
    row, col = np.divmod(codes, width)
    values = count.astype(np.float64) if weight is None else weight
    return sp.csr_array((values, (row, col)), shape=(width, width))


def _sample_histogram(
    dev: _Device,
    hit: Any,
    true: Any,
    pred: Any,
    weights: Any,
    columns: np.ndarray | None,
) -> SampleCounts:
    """The histogram of the per-sample ``(tp, true, pred)`` triples over
    ``columns`` (all: None), counted on the device."""
    xp = dev.xp
    if columns is not None:
        index = xp.asarray(columns, dtype=dev.index, device=dev.device)
        hit, true, pred = (xp.take(y, index, axis=1) for y in (hit, true, pred))
    c = int(hit.shape[1]) + 1
    tp_i, true_i, pred_i = (
        xp.sum(xp.astype(y, dev.index), axis=1) for y in (hit, true, pred)
    )
    code = (tp_i * c + true_i) * c + pred_i
    if weights is not None:  # zero-weight samples count as (0, 0, 0)
        code = xp.where(weights == 0, xp.zeros_like(code), code)
    size = c**3
    if size > max(4 * int(code.shape[0]), _DENSE_RANGE):
        values, code = xp.unique_inverse(code)
        size, code = int(values.shape[0]), xp.astype(code, dev.index)
    else:
        values = None
    seen = bincount(xp, code, None, size)
    sums = squares = None
    if weights is not None:
        sums = bincount(xp, code, weights, size)
        squares = bincount(xp, code, weights * weights, size)
    cells, count, weight, square = dev.nonzero_cells(seen, sums, squares)
    if values is not None:
        cells = dev.host_int(values)[cells]
    if weight is None:
        weight = count.astype(np.float64)
        square = weight.copy()
    tp, rest = np.divmod(cells, c * c)
    true_n, pred_n = np.divmod(rest, c)
    return SampleCounts(tp, true_n, pred_n, weight, count, square)


def _influence_sums(
    dev: _Device,
    arrays: Sequence[Any],
    weights: Any,
    gradients: Sequence[np.ndarray],
    pairs: Sequence[tuple[int, int]],
) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
    """Paired delta method of multilabel targets on the device: each sample's
    influence on both scores of prediction set ``j`` is ``w_i x_i . g_j``
    (``x_i``: its tp | true | pred row, ``g_j``: ``gradients[j]``, shape
    ``(2, 3 L)``, moved to the device), and each pair's variance needs only
    the sums over the samples of the differences and of their squares: four
    numbers per pair cross to the host, never the samples."""
    xp = dev.xp
    true = arrays[0] if xp.isdtype(arrays[0].dtype, "bool") else arrays[0] != 0
    width = int(true.shape[1])
    true_f = xp.astype(true, dev.float)
    influences = []
    for y_pred, g in zip(arrays[1:], gradients, strict=True):
        pred = y_pred if xp.isdtype(y_pred.dtype, "bool") else y_pred != 0
        g = xp.asarray(np.ascontiguousarray(g.T), dtype=dev.float, device=dev.device)
        u = (
            xp.matmul(xp.astype(true & pred, dev.float), g[:width, :])
            + xp.matmul(true_f, g[width : 2 * width, :])
            + xp.matmul(xp.astype(pred, dev.float), g[2 * width :, :])
        )
        if weights is not None:
            u = u * xp.reshape(weights, (-1, 1))
        influences.append(u)  # (n, 2): both scores
    sums = {}
    for i, j in pairs:
        d = influences[i] - influences[j]
        sums[i, j] = (
            dev.host_float(xp.sum(d, axis=0)),
            dev.host_float(xp.sum(d * d, axis=0)),
        )
    return sums


def _pair_cells(
    dev: _Device, true: Any, a: Any, b: Any, labels: np.ndarray, weights: Any
) -> PairCells:
    """The occupied joint (true, a, b) cells of codes over ``labels``."""
    xp = dev.xp
    k = labels.shape[0]
    flat = (true * k + a) * k + b
    values = None
    size = k**3
    if size > max(MAX_PAIR_CELLS, 4 * int(flat.shape[0])):
        values, flat = xp.unique_inverse(flat)
        size, flat = int(values.shape[0]), xp.astype(flat, dev.index)
    seen = bincount(xp, flat, None, size)
    sums = squares = None
    if weights is not None:
        sums = bincount(xp, flat, weights, size)
        squares = bincount(xp, flat, weights * weights, size)
    cells, count, weight, square = dev.nonzero_cells(seen, sums, squares)
    if values is not None:
        cells = dev.host_int(values)[cells]
    triples = np.stack(np.unravel_index(cells, (k, k, k)), axis=1)
    present = np.zeros(k, dtype=bool)
    present[triples.ravel()] = True
    position = np.cumsum(present) - 1
    return PairCells(labels[present], position[triples], count, weight, square)


# ---------------------------------------------------------------- the source


@dataclass
class _Prepared:
    """The values of one call, decided once: ``dev`` None when they are read
    by the in-memory kernels (no dispatch, NumPy, or a CPU array that NumPy
    views without a copy: ``arrays`` and ``weights`` are then host values),
    else the targets checked on ``dev`` and the weights (``on_device``: a
    device array there, else a host value). ``returns`` gives per-class
    results back as arrays of ``y_pred``'s namespace and device
    (``array_api_dispatch``); None: as NumPy arrays."""

    dev: _Device | None
    arrays: list[Any]
    weights: Any
    returns: Callable[[Any], Any] | None = None
    on_device: bool = False


def _prepared(
    values: Sequence[Any], names: Sequence[str], caller: str, part: bool
) -> _Prepared:
    """The :class:`_Prepared` values of a call: the namespace and device are
    those of ``values[1]`` (y_pred, or the first prediction set), asked once.
    A part of a whole (a stream's batch) returns only counts, which no
    namespace rule is about: it is counted on its device whatever
    scikit-learn's ``array_api_dispatch``."""
    *arrays, weights = values
    if not (part or dispatch_enabled()):
        *host, weights = _host_values(values, (*names, "sample_weight"), caller)
        return _Prepared(None, host, weights)
    reference = values[1]
    if not is_device_array(reference):  # y_pred is NumPy (or a list): NumPy
        return _Prepared(None, [_on_host(v) for v in arrays], _on_host(weights))
    reference = detached(reference)
    xp, device = namespace_of(reference)
    returns = partial(_returned, xp, device)
    moved = [moved_to(y, xp, device, like=reference) for y in arrays]
    if _is_cpu(device):
        try:
            host = [np.asarray(y) for y in moved]
            return _Prepared(None, host, _on_host(weights, reference), returns)
        except (RuntimeError, TypeError, ValueError, BufferError):
            pass  # a CPU array NumPy does not read: counted by its namespace
    dev = _Device(xp, device, caller)
    if any(y.ndim == 0 or y.shape[0] == 0 for y in moved):  # nothing to count
        host = [dev.host(y) for y in moved]
        return _Prepared(None, host, _on_host(weights, reference), returns)
    arrays = read_device_targets(xp, moved, names)
    on_device = weights is not None and (
        type(weights) is type(reference) or is_device_array(weights)
    )
    if on_device:
        weights = moved_to(weights, xp, device, like=reference)
    return _Prepared(dev, arrays, weights, returns, on_device)


def _returned(xp: Any, device: Any, result: Any) -> Any:
    """A per-class result (a NumPy array) as an array of ``xp`` on ``device``,
    as scikit-learn returns it with ``array_api_dispatch=True`` (float64, or
    float32 where the device has no float64); anything else unchanged."""
    if not isinstance(result, np.ndarray):
        return result
    if result.dtype.kind == "f":
        return xp.asarray(result, dtype=widest_float(xp, device), device=device)
    return xp.asarray(result, device=device)


class _ArrayAPI:
    """Arrays of an array-API namespace other than NumPy's (PyTorch, CuPy,
    JAX, array-api-strict): counted on their device."""

    name = "array API"

    def claims(self, cls: type) -> bool:
        return is_device_array_type(cls)

    def count(self, data: Predictions, request: CountRequest) -> Reading:
        prepared = _prepared(
            data.values(), ("y_true", "y_pred"), request.caller, request.part
        )
        dev, (y_true, y_pred) = prepared.dev, prepared.arrays
        if dev is None:
            reading = read_in_memory(
                Predictions(y_true, y_pred, prepared.weights),
                request.labels,
                request.samplewise,
                request.class_counts,
                request.moments,
                request.targets_kept,
                request.part,
            )
            reading.returns = prepared.returns
            return reading
        n = int(y_true.shape[0])
        weights, zero = _checked_weights(
            dev, prepared.weights, prepared.on_device, n, request.part
        )
        if y_true.ndim == 2:
            counts = _count_multilabel(dev, y_true, y_pred, weights, request, zero)
        else:
            (true, pred), labels = _encode(dev, [y_true, y_pred])
            cells = request.cells or not request.targets_kept
            counts = _count_1d(
                dev, true, pred, labels, weights, request.moments, zero, cells
            )
        return Reading(counts, returns=prepared.returns)

    def count_jointly(
        self, data: JointPredictions, request: CountRequest
    ) -> JointReading:
        from .._formulas._evaluation import read_jointly

        names = ("y_true", *data.names)
        prepared = _prepared(data.values(), names, request.caller, request.part)
        dev, arrays, weights = prepared.dev, prepared.arrays, prepared.weights
        if dev is None:
            joint = read_jointly(
                arrays[0],
                arrays[1:],
                names=data.names,
                sample_weight=weights,
                labels=request.labels,
                samplewise=request.samplewise,
                part=request.part,
                caller=request.caller,
            )
            return joint.counted_elsewhere()
        n = int(arrays[0].shape[0])
        weights, zero = _checked_weights(
            dev, weights, prepared.on_device, n, request.part
        )
        if arrays[0].ndim == 2:
            return JointReading(
                [
                    Reading(
                        _count_multilabel(dev, arrays[0], pred, weights, request, zero)
                    )
                    for pred in arrays[1:]
                ],
                {},
                influence_sums=partial(_influence_sums, dev, arrays, weights),
            )
        codes, labels = _encode(dev, arrays)
        counts = []
        for pred in codes[1:]:
            # each prediction set's record over the classes of its own pair
            xp = dev.xp
            seen = bincount(xp, codes[0], None, labels.shape[0]) + bincount(
                xp, pred, None, labels.shape[0]
            )
            present = seen > 0
            mine = dev.host_int(xp.nonzero(present)[0])
            position = xp.cumulative_sum(xp.astype(present, dev.index)) - 1
            true, own = xp.take(position, codes[0]), xp.take(position, pred)
            counts.append(
                _count_1d(
                    dev,
                    true,
                    own,
                    labels[mine],
                    weights,
                    request.moments,
                    zero,
                    request.cells,
                )
            )
        m = len(codes) - 1
        pairs = {
            (i, j): _pair_cells(
                dev, codes[0], codes[1 + i], codes[1 + j], labels, weights
            )
            for i in range(m)
            for j in range(i + 1, m)
        }
        return JointReading([Reading(c) for c in counts], pairs)

    def tally(self, data: Predictions, stream: Stream) -> Any:
        """One batch of a stream: PyTorch CPU tensors are given back as the
        NumPy arrays that view them; a device batch of 1-D integer labels
        with fixed integer labels, or of multilabel targets, is counted into
        a :class:`DeviceTally` or :class:`DeviceMultilabelTally` kept on its
        device (nothing read back); any other batch is given back, to be
        counted as a part (:meth:`count`, on its device)."""
        y_true, y_pred, weights = (host_view(value) for value in data.values())
        given = Predictions(y_true, y_pred, weights)
        # (the device tally keeps no moments)
        if stream.keep == "moments" or not is_device_array(y_pred):
            return given
        multilabel = stream.threshold is not None or (
            stream.ignore_index is None
            and _columns(y_true) > 1
            and _columns(y_pred) > 1
        )
        if not multilabel and stream.integers is None:
            return given  # discovering the labels reads the batch's values
        problems: list[tuple[Any, str]] = []
        y_true, y_pred, weights, keep = padded_batch(
            y_true,
            y_pred,
            weights,
            ignore_index=stream.ignore_index,
            threshold=stream.threshold,
            deferred=problems,
        )
        tally: Any
        if multilabel:
            tally = tally_multilabel(y_true, y_pred, weights, stream.labels, problems)
        else:
            universe = stream.prepared.get(self.name)
            if universe is None:  # two threads may both make one: either serves
                universe = stream.prepared[self.name] = Universe(stream.integers)
            tally = tally_batch(
                y_true,
                y_pred,
                weights,
                keep,
                universe,
                problems,
                keep_cells=stream.keep == "cells",
            )
        return given if tally is None else tally


def _columns(y: Any) -> int:
    """The number of columns of a 2-D array (0 for anything else)."""
    shape = getattr(y, "shape", None)
    return int(shape[1]) if shape is not None and len(shape) == 2 else 0


register_source(_ArrayAPI())


# ---------------------------------------------------------------- kept on the device

_OUTSIDE = (
    "{count} samples of the batches counted since the last reset hold labels "
    "that are not among the accumulator's labels {labels}; they were not "
    "counted. Pass every label to MacroF1Accumulator(labels=...) or leave "
    "labels=None to discover them, then reset() the accumulator."
)
_BAD_WEIGHTS = (
    "{count} sample weights of the batches counted since the last reset are NaN "
    "or infinite; sample weights must be finite. reset() the accumulator."
)


@dataclass(frozen=True)
class DeviceTally:
    """The counts of 1-D batches over fixed labels, kept on the batches' device.

    Adding a batch is a few ``bincount`` calls and one vector addition on the
    device; nothing is read back, so a GPU is never made to wait. The checks
    of the values that would need a read are counted instead (``problems``:
    labels outside ``universe``, true labels that name no column of class
    scores, NaN scores, non-finite weights) and raised when the record is
    read (:meth:`record`), the only moment anything crosses to the host.

    By default the tally keeps the three vectors of ``k`` counts (tp, true,
    pred: ``table`` of shape ``(3, k)``), and ``k`` numbers of each cross.
    A stream that keeps the confusion matrix (``keep="cells"``) keeps its
    cells: up to :data:`MAX_CONFUSION_CLASSES` labels the dense ``k x k``
    table (flat), whose occupied cells cross; beyond, the three vectors and
    the joint codes of its samples (``cells``), folded into one entry per
    occupied cell whenever they outgrow twice the cells last found
    (:class:`_Cells`: a sort on the device and one read of the number of
    cells, every million samples or so).
    """

    xp: Any
    device: Any
    universe: np.ndarray  # the fixed labels, sorted, on the host
    table: Any  # the k*k cells (flat), or the (3, k) tp, true and pred counts
    seen: Any  # weighted: how often each label occurs in y_true or y_pred
    n_samples: Any  # a device scalar
    nonzero: Any  # a device bool: some counted sample has a nonzero weight
    weighted: bool
    problems: tuple[tuple[str, Any], ...] = ()
    cells: _Cells | None = None  # beyond MAX_CONFUSION_CLASSES labels

    def same_place(self, other: Any) -> bool:
        return (
            isinstance(other, DeviceTally)
            and self.xp is other.xp
            and self.device == other.device
            and self.weighted == other.weighted
            and self.universe.shape == other.universe.shape
            and bool(np.all(self.universe == other.universe))
        )

    def samples_counted(self) -> int:
        """The number of samples counted; raises the problems counted."""
        _check_problems(self.problems, _shown(self.universe))
        return int(self.n_samples)

    def targets(self) -> tuple[str, int]:
        return "multiclass", 0

    def first_label(self) -> np.ndarray:
        return self.universe[:1]

    def __add__(self, other: DeviceTally) -> DeviceTally:
        return replace(
            self,
            table=self.table + other.table,
            seen=None if self.seen is None else self.seen + other.seen,
            n_samples=self.n_samples + other.n_samples,
            nonzero=self.xp.logical_or(self.nonzero, other.nonzero),
            problems=_added(self.problems, other.problems, self.xp),
            cells=None
            if self.cells is None or other.cells is None
            else self.cells.joined(other.cells, self.xp),
        )

    def record(self) -> MacroF1Counts | None:
        """The host record of the samples counted (None: none), as the
        batches' own records merged give it; raises the problems counted."""
        _check_problems(self.problems, _shown(self.universe))
        n = int(self.n_samples)
        if n == 0:
            return None
        dev = _Device(self.xp, self.device, "MacroF1Accumulator")
        k = self.universe.shape[0]
        host = dev.host_float if self.weighted else dev.host_int
        if self.table.ndim == 1:  # the k*k cells: only the occupied ones cross
            cells, count, weight = dev.nonzero_cells(
                self.table, self.table if self.weighted else None
            )
            table = np.zeros(k * k, np.float64 if self.weighted else np.int64)
            table[cells] = weight if self.weighted else count
            counts = table_counts(table.reshape(k, k))
        else:
            counts = tuple(host(self.table))
        if self.seen is None:  # unweighted: a label occurs where it is counted
            present = np.flatnonzero((counts[1] > 0) | (counts[2] > 0))
        else:
            present = np.flatnonzero(dev.host_int(self.seen))
        classes = self.universe[present]
        confusion = None
        if self.table.ndim == 1:
            confusion = table.reshape(k, k)[np.ix_(present, present)]
            tp, true_sum, pred_sum = table_counts(confusion)
        else:
            tp, true_sum, pred_sum = (c[present] for c in counts)
        if self.cells is not None:
            codes, count, weight, _ = self.cells.on_host(dev)
            inside = codes < k * k  # not the samples left out
            cells = (
                codes[inside],
                count[inside],
                None if weight is None else weight[inside],
                None,
            )
            position = np.full(k, -1)
            position[present] = np.arange(present.shape[0])
            rows, cols = np.divmod(codes[inside], k)
            m = present.shape[0]
            confusion = _cell_tables(cells, position[rows], position[cols], m)[0]
        return MacroF1Counts(
            "binary" if classes.shape[0] <= 2 else "multiclass",
            classes,
            tp,
            true_sum,
            pred_sum,
            confusion,
            n_samples=n,
            weighted=self.weighted,
            _zero_weight=self.weighted and not bool(self.nonzero),
        )


def _shown(labels: np.ndarray) -> str:
    values = labels.tolist()
    return repr(values) if len(values) <= 10 else f"{values[:10]!r} (of {len(values)})"


_NOT_INDICATOR = (
    "{count} entries of the multilabel batches counted since the last reset are "
    "neither 0 nor 1 (a multilabel indicator matrix holds 0/1 or bools); they "
    "were not counted as labels. reset() the accumulator."
)


#: The largest per-sample histogram (``c**3`` cells) a multilabel tally adds
#: batch by batch on the CPU (39 columns counted): on a CPU nothing waits for
#: a read, and adding more cells per batch is slower than merging each
#: batch's record on the host (``benchmarks/bench_devices.py --multilabel``).
_CPU_HISTOGRAM = 1 << 16


@dataclass(frozen=True)
class DeviceMultilabelTally:
    """The counts of multilabel batches kept on their device: the (tp, true,
    pred) sums of each of the ``width`` columns and the histogram of the
    per-sample triples over ``columns`` (all: None), dense over its ``c**3``
    cells (``c``: the number of columns counted plus one), as
    :class:`DeviceTally` keeps those of 1-D labels."""

    xp: Any
    device: Any
    width: int
    columns: np.ndarray | None
    table: Any  # (3, width): tp, true and pred of each column
    seen: Any  # (c**3,) samples of each per-sample triple
    sums: Any  # weighted: the weights of each triple, and their squares
    squares: Any
    n_samples: int
    nonzero: Any
    weighted: bool
    problems: tuple[tuple[str, Any], ...] = ()

    def same_place(self, other: Any) -> bool:
        return (
            isinstance(other, DeviceMultilabelTally)
            and self.xp is other.xp
            and self.device == other.device
            and self.weighted == other.weighted
            and self.width == other.width
        )

    def samples_counted(self) -> int:
        """The number of samples counted; raises the problems counted."""
        _check_problems(self.problems, "")
        return self.n_samples

    def targets(self) -> tuple[str, int]:
        return _MULTILABEL, self.width

    def first_label(self) -> np.ndarray:
        return np.arange(self.width)[:1]

    def __add__(self, other: DeviceMultilabelTally) -> DeviceMultilabelTally:
        return replace(
            self,
            table=self.table + other.table,
            seen=self.seen + other.seen,
            sums=None if self.sums is None else self.sums + other.sums,
            squares=None if self.squares is None else self.squares + other.squares,
            n_samples=self.n_samples + other.n_samples,
            nonzero=self.xp.logical_or(self.nonzero, other.nonzero),
            problems=_added(self.problems, other.problems, self.xp),
        )

    def record(self) -> MacroF1Counts | None:
        """The host record of the samples counted; raises the problems counted."""
        _check_problems(self.problems, "")
        if self.n_samples == 0:
            return None
        dev = _Device(self.xp, self.device, "MacroF1Accumulator")
        c = (self.width if self.columns is None else self.columns.shape[0]) + 1
        cells, count, weight, square = dev.nonzero_cells(
            self.seen, self.sums, self.squares
        )
        if weight is None:
            weight = count.astype(np.float64)
            square = weight.copy()
        tp_n, rest = np.divmod(cells, c * c)
        true_n, pred_n = np.divmod(rest, c)
        host = dev.host_float if self.weighted else dev.host_int
        tp, true_sum, pred_sum = host(self.table)
        return MacroF1Counts(
            _MULTILABEL,
            np.arange(self.width),
            tp,
            true_sum,
            pred_sum,
            n_samples=self.n_samples,
            weighted=self.weighted,
            _samples=SampleCounts(tp_n, true_n, pred_n, weight, count, square),
            _sample_columns=self.columns,
            _zero_weight=self.weighted and not bool(self.nonzero),
        )


def _added(
    a: tuple[tuple[str, Any], ...], b: tuple[tuple[str, Any], ...], xp: Any
) -> tuple[tuple[str, Any], ...]:
    """The problems of two tallies: the counts of each added; a problem that
    names a value seen (``(count, value)``) keeps the first tally's value
    where it counted any."""
    problems = dict(a)
    for message, count in b:
        if message not in problems:
            problems[message] = count
        elif isinstance(count, tuple):
            (mine, value), (theirs, other) = problems[message], count
            problems[message] = (mine + theirs, xp.where(mine > 0, value, other))
        else:
            problems[message] = problems[message] + count
    return tuple(problems.items())


def _check_problems(problems: tuple[tuple[str, Any], ...], labels: str) -> None:
    """Raise the first problem counted (each a scalar read from the device,
    with a value seen where the problem names one)."""
    for message, count in problems:
        value = None
        if isinstance(count, tuple):
            count, value = count
            value = to_host(value).tolist()
        number = int(count)
        if number:
            raise ValueError(message.format(count=number, labels=labels, value=value))


def tally_multilabel(
    y_true: Any,
    y_pred: Any,
    weights: Any,
    labels: np.ndarray | None,
    problems: list[tuple[Any, str]],
) -> DeviceMultilabelTally | None:
    """The :class:`DeviceMultilabelTally` of one batch of indicator matrices
    (``labels``: the columns of the per-sample counts), or None when the batch
    is not one it counts (the caller counts it as any other). Nothing is read
    back from the device."""
    if not is_device_array(y_pred):
        return None
    xp, device = namespace_of(detached(y_pred))
    try:
        y_true = moved_to(y_true, xp, device)
    except (TypeError, ValueError):
        return None
    kinds = ("bool", "integral", "real floating")
    if (
        y_true.ndim != 2
        or tuple(y_true.shape) != tuple(y_pred.shape)
        or int(y_true.shape[0]) == 0
        or not all(xp.isdtype(y.dtype, kinds) for y in (y_true, y_pred))
    ):
        return None
    n, width = int(y_true.shape[0]), int(y_true.shape[1])
    columns = None if labels is None else _multilabel_columns(labels, width)
    c = (width if columns is None else columns.shape[0]) + 1
    if c**3 > _DENSE_RANGE:
        return None  # the histogram's cells are found by a sort, per batch
    if _is_cpu(device) and c**3 > _CPU_HISTOGRAM:
        return None  # no device to keep waiting: a batch's record is faster
    dev = _Device(xp, device, "MacroF1Accumulator.update")
    weights = _tally_weights(dev, weights, n)
    if weights is False:
        return None
    tally_problems = [(message, count) for count, message in problems]
    indicators = []
    for y in (y_true, y_pred):
        if xp.isdtype(y.dtype, "bool"):
            indicators.append(y)
            continue
        other = xp.logical_and(y != 0, y != 1)
        tally_problems.append((_NOT_INDICATOR, xp.sum(xp.astype(other, dev.index))))
        indicators.append(y == 1)
    true, pred = indicators
    hit = true & pred
    if weights is None:
        table = xp.stack(
            [xp.sum(xp.astype(y, dev.index), axis=0) for y in (hit, true, pred)]
        )
    else:
        finite = xp.isfinite(weights)
        bad = xp.sum(xp.astype(xp.logical_not(finite), dev.index))
        tally_problems.append((_BAD_WEIGHTS, bad))
        weights = xp.where(finite, weights, xp.zeros_like(weights))
        column = xp.reshape(weights, (-1, 1))
        table = xp.stack(
            [
                xp.sum(xp.astype(y, dev.float) * column, axis=0)
                for y in (hit, true, pred)
            ]
        )
    if columns is not None:
        index = xp.asarray(columns, dtype=dev.index, device=device)
        hit, true, pred = (xp.take(y, index, axis=1) for y in (hit, true, pred))
    tp_i, true_i, pred_i = (
        xp.sum(xp.astype(y, dev.index), axis=1) for y in (hit, true, pred)
    )
    code = (tp_i * c + true_i) * c + pred_i
    sums = squares = None
    nonzero = xp.asarray(False, device=device)
    if weights is not None:  # zero-weight samples count as (0, 0, 0)
        code = xp.where(weights == 0, xp.zeros_like(code), code)
        sums = bincount(xp, code, weights, c**3)
        squares = bincount(xp, code, weights * weights, c**3)
        nonzero = xp.any(weights != 0)
    return DeviceMultilabelTally(
        xp,
        device,
        width,
        columns,
        table,
        bincount(xp, code, None, c**3),
        sums,
        squares,
        n,
        nonzero,
        weights is not None,
        tuple(tally_problems),
    )


def _tally_weights(dev: _Device, weights: Any, n: int) -> Any:
    """The weights of a tallied batch as floats of its device (None: none;
    False: not weights the tally takes, which the usual path refuses)."""
    if weights is None:
        return None
    xp = dev.xp
    if not is_device_array(weights):
        weights = np.asarray(check_sample_weight(weights, n))
    weights = moved_to(weights, xp, dev.device)
    kinds = ("bool", "integral", "real floating")
    if weights.ndim != 1 or int(weights.shape[0]) != n:
        return False
    if not xp.isdtype(weights.dtype, kinds):
        return False
    return xp.astype(weights, dev.float)


class Universe:
    """The fixed labels of a device tally: sorted on the host, and copied once
    to each device that counts batches (a copy per batch would move ``k``
    numbers per batch)."""

    def __init__(self, labels: np.ndarray) -> None:
        self.labels = labels
        self._copies: dict[tuple[int, str], Any] = {}

    def on(self, dev: _Device) -> Any:
        key = (id(dev.xp), str(dev.device))
        copy = self._copies.get(key)
        if copy is None:  # two threads may both copy: either copy serves
            copy = dev.xp.asarray(
                self.labels.astype(np.int64), dtype=dev.index, device=dev.device
            )
            self._copies[key] = copy
        return copy


def tally_batch(
    y_true: Any,
    y_pred: Any,
    weights: Any,
    keep: Any,
    fixed: Universe,
    problems: list[tuple[Any, str]],
    *,
    keep_cells: bool = False,
) -> DeviceTally | None:
    """The :class:`DeviceTally` of one batch of 1-D integer labels (after
    :func:`~._stream.padded_batch`), or None when the batch is not one the
    tally counts (NumPy arrays, labels of floats, multilabel targets, a
    sample count that does not match): the caller counts it as any other.
    ``keep_cells``: the tally keeps the cells of the confusion matrix too
    (else the three vectors of ``k`` counts only). Nothing here reads a value
    back from the device."""
    if not is_device_array(y_pred):
        return None
    xp, device = namespace_of(detached(y_pred))
    try:
        y_true = moved_to(y_true, xp, device)  # from the host: copied there
    except (TypeError, ValueError):
        return None  # strings, ragged lists: refused by the usual path
    arrays = []
    for y in (y_true, y_pred):
        if y.ndim == 2 and y.shape[1] == 1:
            y = xp.reshape(y, (-1,))
        if y.ndim != 1 or not xp.isdtype(y.dtype, ("bool", "integral")):
            return None
        arrays.append(y)
    n = int(arrays[0].shape[0])
    if int(arrays[1].shape[0]) != n or n == 0:
        return None
    dev = _Device(xp, device, "MacroF1Accumulator.update")
    weights = _tally_weights(dev, weights, n)
    if weights is False:
        return None  # refused with the usual message by the usual path
    universe = fixed.labels
    k = universe.shape[0]
    low = int(universe[0])
    dense = int(universe[-1]) - low + 1 == k  # labels=range(k): no search
    known = None if dense else fixed.on(dev)
    codes, valid = [], keep
    for y in arrays:
        y = xp.astype(y, dev.index)
        if known is None:
            position = y - low if low else y
            inside = (position >= 0) & (position < k)
            position = xp.where(inside, position, xp.zeros_like(position))
        else:
            position = xp.clip(xp.searchsorted(known, y), 0, k - 1)
            inside = xp.take(known, position) == y
        valid = inside if valid is None else xp.logical_and(valid, inside)
        codes.append(position)
    true, pred = codes
    outside = xp.logical_not(valid) if keep is None else keep & ~valid
    tally_problems = [(message, count) for count, message in problems]
    tally_problems.append((_OUTSIDE, xp.sum(xp.astype(outside, dev.index))))
    if weights is not None:
        finite = xp.isfinite(weights)
        bad = xp.logical_not(finite) if keep is None else keep & ~finite
        tally_problems.append((_BAD_WEIGHTS, xp.sum(xp.astype(bad, dev.index))))
        weights = xp.where(valid & finite, weights, xp.zeros_like(weights))
    cells = None
    if keep_cells and k <= MAX_CONFUSION_CLASSES:
        trash = k * k
        flat = xp.where(valid, true * k + pred, xp.full_like(true, trash))
        table = tally_bincount(xp, flat, weights, trash + 1)[:trash]
    else:  # tp, true and pred in one bincount: row r's codes offset by r (k+1)
        if keep_cells:
            true64, pred64 = (xp.astype(c, xp.int64) for c in codes)
            flat = xp.where(valid, true64 * k + pred64, xp.full_like(true64, k * k))
            cells = _Cells.of_batch(dev, flat, weights, squares=False)
        hit = xp.where(xp.logical_and(valid, true == pred), true, xp.full_like(true, k))
        rows = [hit, xp.where(valid, true, xp.full_like(true, k))]
        rows.append(xp.where(valid, pred, xp.full_like(pred, k)) + 2 * (k + 1))
        rows[1] = rows[1] + (k + 1)
        stacked = None if weights is None else xp.concat([weights] * 3)
        table = tally_bincount(xp, xp.concat(rows), stacked, 3 * (k + 1))
        table = xp.reshape(table, (3, k + 1))[:, :k]
    seen = None  # without weights, the table's own counts say which occur
    if weights is not None:
        both = xp.concat([xp.where(valid, c, xp.full_like(c, k)) for c in codes])
        seen = tally_bincount(xp, both, None, k + 1)[:k]
    nonzero = xp.asarray(False, device=device)
    if weights is not None:
        nonzero = xp.any(weights != 0)
    return DeviceTally(
        xp,
        device,
        universe,
        table,
        seen,
        xp.sum(xp.astype(valid, dev.index)),
        nonzero,
        weights is not None,
        tuple(tally_problems),
        cells,
    )


__all__ = [
    "DeviceMultilabelTally",
    "DeviceTally",
    "bincount",
    "dispatch_enabled",
    "host_view",
    "in_memory",
    "is_device_array",
    "namespace_of",
    "on_device",
    "tally_batch",
    "tally_multilabel",
    "to_host",
]
