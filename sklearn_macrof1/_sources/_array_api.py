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
documented fallback (:func:`~.._read._namespace.bincount`) sorts the codes
and finds each bin's edges with standard functions only (O(n log n); weights
are summed per bin by a segmented scan, with the rounding of a pairwise sum).

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
from .._read._encoding import DEVICE_DENSE_RANGE as _DENSE_RANGE
from .._read._encoding import encode_on_device
from .._read._namespace import (
    bincount,
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


def tally_bincount(xp: Any, codes: Any, weights: Any, length: int) -> Any:
    """:func:`bincount` of codes that the caller has put in ``[0, length)``,
    without reading anything back from the device.

    PyTorch's ``bincount`` on a GPU reads the codes' minimum and maximum back
    to the host, which makes every update of the accumulator wait for the
    device; an ``index_add_`` into ``length`` zeros counts the same codes with
    no read-back (used on every PyTorch device, so that the CPU tests run it).
    Only the tally of a stream's batch (:func:`_tally_codes`) calls this,
    after mapping every code it does not count to a trash bin inside the
    range (PyTorch still checks the indices on the device).
    """
    if xp.__name__.endswith("torch"):  # on every device, so that CPU tests run it
        values = xp.ones_like(codes, dtype=xp.int64) if weights is None else weights
        out = xp.zeros(length, dtype=values.dtype, device=codes.device)
        return out.index_add_(0, codes, values)
    return bincount(xp, codes, weights, length)


class _Device:
    """The arrays of one call on one device, with the dtypes it supports."""

    def __init__(self, xp: Any, device: Any) -> None:
        self.xp, self.device = xp, device
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

    def histogram(
        self, codes: Any, weights: Any, size: int, limit: int
    ) -> tuple[Any, Any, Any, Any]:
        """``(values, seen, sums, squares)`` of integer ``codes`` in ``[0,
        size)``, on the device: how many samples have each code and (with
        ``weights``; else None) the sums of their weights and squared weights.
        Dense over the ``size`` codes up to ``limit``; above, over the codes
        that occur (``values``, found by a sort; None when dense)."""
        xp, values = self.xp, None
        if size > limit:
            values, codes = xp.unique_inverse(codes)
            size, codes = int(values.shape[0]), xp.astype(codes, self.index)
        seen = bincount(xp, codes, None, size)
        sums = squares = None
        if weights is not None:
            sums = bincount(xp, codes, weights, size)
            squares = bincount(xp, codes, weights * weights, size)
        return values, seen, sums, squares

    def occupied(self, values: Any, seen: Any, sums: Any, squares: Any) -> list[Any]:
        """The occupied codes of a :meth:`histogram` and, at those codes, its
        counts, sums and squared sums (None stays None), on the host."""
        cells, *rest = self.nonzero_cells(seen, sums, squares)
        if values is not None:
            cells = self.host_int(values)[cells]
        return [cells, *rest]


def _checked_weights(
    dev: _Device,
    weights: Any,
    on_device: bool,
    n: int,
    part: bool,
    *,
    deferred: bool = False,
) -> Any:
    """The weights as floats of the device (float64 where it has them),
    checked by :func:`~.._options.check_sample_weight` (on the host for host
    weights, then moved; on the device for weights ``on_device``) and by the
    zero-weight rule (read from the device once).

    A stream's batch counted into a tally (``deferred``) reads nothing back:
    device weights of the wrong shape or dtype give False (the usual path
    refuses them with its message), and their values are checked by the
    tally itself (non-finite weights are counted, and raised when its record
    is read)."""
    if weights is None:
        return None
    xp = dev.xp
    if not on_device:  # a host array: checked there, then moved
        host = check_sample_weight(weights, n)
        zero_weight_rule(n > 0 and not host.any(), n, part=part)
        return xp.asarray(host, dtype=dev.float, device=dev.device)
    if deferred:
        weights = moved_to(weights, xp, dev.device)
        kinds = ("bool", "integral", "real floating")
        if weights.ndim != 1 or int(weights.shape[0]) != n:
            return False
        if not xp.isdtype(weights.dtype, kinds):
            return False
        return xp.astype(weights, dev.float)
    weights = check_sample_weight(weights, n, xp=xp, dtype=dev.float)
    zero_weight_rule(n > 0 and not bool(xp.any(weights != 0)), n, part=part)
    return weights


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


def _counted(
    dev: _Device,
    true: Any,
    pred: Any,
    labels: np.ndarray,
    weights: Any,
    moments: bool,
    cells: bool,
) -> MacroF1Counts:
    """The record of 1-D codes ``true`` and ``pred`` over ``labels`` (every
    class present in either): the :class:`DeviceTally` of one batch. Up to
    :data:`MAX_CONFUSION_CLASSES` classes it keeps the confusion matrix;
    above, the occupied cells of it when ``cells`` or ``moments`` asks for
    them (and, with ``moments`` and weights, their sums of squared weights):
    one sort of the joint codes on the device, and O(cells) numbers cross to
    the host."""
    dense = labels.shape[0] <= MAX_CONFUSION_CLASSES
    tally = _tally_codes(
        dev,
        true,
        pred,
        labels,
        weights,
        None,
        (),
        cells=dense or cells or moments,
        squares=moments and weights is not None,
    )
    counts = tally.record()
    assert counts is not None  # a one-shot count has samples
    return counts


def _multilabel_record(
    dev: _Device, y_true: Any, y_pred: Any, weights: Any, request: CountRequest
) -> MacroF1Counts:
    """The record of checked indicator matrices: the
    :class:`DeviceMultilabelTally` of one batch, with what the request asks
    beyond it (class counts only when asked, the per-sample histogram only
    for samplewise averages, the second moments)."""
    xp = dev.xp
    true, pred = (
        y if xp.isdtype(y.dtype, "bool") else y != 0 for y in (y_true, y_pred)
    )
    columns = None
    if request.samplewise and request.labels is not None:
        columns = _multilabel_columns(request.labels, int(y_true.shape[1]))
    tally = _tally_indicators(
        dev,
        true,
        pred,
        weights,
        columns,
        class_counts=request.class_counts or not request.samplewise,
        histogram=request.samplewise,
    )
    second = None
    if request.moments:
        second = _indicator_moments(dev, true & pred, true, pred, weights)
    counts = tally.record(moments=second)
    assert counts is not None  # a one-shot count has samples
    return counts


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
    k = labels.shape[0]
    if k**3 >= 1 << 62:  # pragma: no cover - millions of classes (as in memory)
        raise ValueError(f"{k} classes are too many for a joint table of a pair")
    flat = (true * k + a) * k + b
    limit = max(MAX_PAIR_CELLS, 4 * int(flat.shape[0]))
    found = dev.histogram(flat, weights, k**3, limit)
    cells, count, weight, square = dev.occupied(*found)
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
    dev = _Device(xp, device)
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
                count_cells=request.cells,
            )
            reading.returns = prepared.returns
            return reading
        n = int(y_true.shape[0])
        weights = _checked_weights(
            dev, prepared.weights, prepared.on_device, n, request.part
        )
        if y_true.ndim == 2:
            counts = _multilabel_record(dev, y_true, y_pred, weights, request)
        else:
            (true, pred), labels = encode_on_device(dev.xp, [y_true, y_pred], dev.index)
            cells = request.cells or not request.targets_kept
            counts = _counted(dev, true, pred, labels, weights, request.moments, cells)
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
            # read in memory after all: the readings keep their targets, from
            # which a comparison counts what it needs (a pair's cells of 1-D
            # targets, the samples of multilabel ones), as for NumPy arrays
            return joint
        n = int(arrays[0].shape[0])
        weights = _checked_weights(dev, weights, prepared.on_device, n, request.part)
        if arrays[0].ndim == 2:
            return JointReading(
                [
                    Reading(_multilabel_record(dev, arrays[0], pred, weights, request))
                    for pred in arrays[1:]
                ],
                {},
                influence_sums=partial(_influence_sums, dev, arrays, weights),
            )
        codes, labels = encode_on_device(dev.xp, arrays, dev.index)
        counts = []
        for pred in codes[1:]:
            # each prediction set's record over the classes of its own pair:
            # the joint codes encoded again (the codes of those present)
            pair = [codes[0], pred]
            (true, own), mine = encode_on_device(dev.xp, pair, dev.index)
            moments, cells = request.moments, request.cells
            counts.append(
                _counted(dev, true, own, labels[mine], weights, moments, cells)
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
    cells, every million samples or so). With ``squares``, each cell's sum of
    squared weights too (the second moments a one-shot count may ask for).

    A one-shot count of 1-D labels on a device is the tally of one batch
    over the labels it found (:func:`_counted`): one counting engine.
    """

    dev: _Device  # the namespace and device of the batches
    universe: np.ndarray  # the fixed labels, sorted, on the host
    table: Any  # the k*k cells (flat), or the (3, k) tp, true and pred counts
    seen: Any  # weighted: how often each label occurs in y_true or y_pred
    n_samples: Any  # a device scalar
    nonzero: Any  # a device bool: some counted sample has a nonzero weight
    weighted: bool
    problems: tuple[tuple[str, Any], ...] = ()
    cells: _Cells | None = None  # beyond MAX_CONFUSION_CLASSES labels
    squares: Any = None  # the k*k cells' sums of squared weights (moments)

    def same_place(self, other: Any) -> bool:
        return (
            isinstance(other, DeviceTally)
            and self.dev.xp is other.dev.xp
            and self.dev.device == other.dev.device
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
            nonzero=self.dev.xp.logical_or(self.nonzero, other.nonzero),
            problems=_added(self.problems, other.problems, self.dev.xp),
            cells=None
            if self.cells is None or other.cells is None
            else self.cells.joined(other.cells, self.dev.xp),
            squares=None
            if self.squares is None or other.squares is None
            else self.squares + other.squares,
        )

    def record(self) -> MacroF1Counts | None:
        """The host record of the samples counted (None: none), as the
        batches' own records merged give it; raises the problems counted."""
        _check_problems(self.problems, _shown(self.universe))
        n = int(self.n_samples)
        if n == 0:
            return None
        dev = self.dev
        k = self.universe.shape[0]
        host = dev.host_float if self.weighted else dev.host_int
        second: Any = None
        counts: tuple[np.ndarray, ...]
        if self.table.ndim == 1:  # the k*k cells: only the occupied ones cross
            cells, count, weight, square = dev.nonzero_cells(
                self.table, self.table if self.weighted else None, self.squares
            )
            table = np.zeros(k * k, np.float64 if self.weighted else np.int64)
            table[cells] = weight if self.weighted else count
            counts = table_counts(table.reshape(k, k))
            if square is not None:
                second = np.zeros(k * k)
                second[cells] = square
        else:
            # one vector of k numbers at a time
            counts = tuple(host(self.table[row, :]) for row in range(3))
        if self.seen is None:  # unweighted: a label occurs where it is counted
            present = np.flatnonzero((counts[1] > 0) | (counts[2] > 0))
        else:
            present = np.flatnonzero(dev.host_int(self.seen))
        classes = self.universe[present]
        confusion = None
        every = present.shape[0] == k  # every label occurs: nothing to select
        if self.table.ndim == 1:
            confusion = table.reshape(k, k)
            if not every:
                confusion = confusion[np.ix_(present, present)]
                counts = table_counts(confusion)
            if second is not None:
                second = second.reshape(k, k)
                second = second if every else second[np.ix_(present, present)]
            tp, true_sum, pred_sum = counts
        else:
            tp, true_sum, pred_sum = counts if every else (c[present] for c in counts)
        if self.cells is not None:
            codes, count, weight, square = self.cells.on_host(dev)
            inside = codes < k * k  # not the samples left out
            cells = tuple(
                None if values is None else values[inside]
                for values in (codes, count, weight, square)
            )
            position = np.full(k, -1)
            position[present] = np.arange(present.shape[0])
            rows, cols = np.divmod(codes[inside], k)
            m = present.shape[0]
            confusion, second = _cell_tables(cells, position[rows], position[cols], m)
        return MacroF1Counts(
            "binary" if classes.shape[0] <= 2 else "multiclass",
            classes,
            tp,
            true_sum,
            pred_sum,
            confusion,
            n_samples=n,
            weighted=self.weighted,
            moments=second,
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

    dev: _Device  # the namespace and device of the batches
    width: int
    columns: np.ndarray | None
    table: Any  # (3, width): tp, true and pred of each column (None: not asked)
    seen: Any  # (c**3,) samples of each per-sample triple (None: not asked)
    sums: Any  # weighted: the weights of each triple, and their squares
    squares: Any
    n_samples: int
    nonzero: Any
    weighted: bool
    problems: tuple[tuple[str, Any], ...] = ()
    values: Any = None  # the triples' codes where ``seen`` is not dense over c**3

    def same_place(self, other: Any) -> bool:
        return (
            isinstance(other, DeviceMultilabelTally)
            and self.dev.xp is other.dev.xp
            and self.dev.device == other.dev.device
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
            nonzero=self.dev.xp.logical_or(self.nonzero, other.nonzero),
            problems=_added(self.problems, other.problems, self.dev.xp),
        )

    def record(self, moments: Any = None) -> MacroF1Counts | None:
        """The host record of the samples counted (with the second
        ``moments`` counted apart, if any); raises the problems counted."""
        _check_problems(self.problems, "")
        if self.n_samples == 0:
            return None
        dev = self.dev
        samples = None
        if self.seen is not None:
            c = (self.width if self.columns is None else self.columns.shape[0]) + 1
            cells, count, weight, square = dev.occupied(
                self.values, self.seen, self.sums, self.squares
            )
            if weight is None:
                weight = count.astype(np.float64)
                square = weight.copy()
            tp_n, rest = np.divmod(cells, c * c)
            true_n, pred_n = np.divmod(rest, c)
            samples = SampleCounts(tp_n, true_n, pred_n, weight, count, square)
        tp = true_sum = pred_sum = np.zeros(0, dtype=np.int64)
        if self.table is not None:
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
            moments=moments,
            _samples=samples,
            _sample_columns=None if samples is None else self.columns,
            _class_counts=self.table is not None,
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


def _on_batch_device(y_true: Any, y_pred: Any) -> tuple[_Device, Any] | None:
    """The device of a stream's batch (``y_pred``'s) and ``y_true`` there
    (copied from the host), or None when the batch is not one a tally counts
    (host arrays; labels that cannot move, such as strings or ragged lists:
    the usual path refuses them with its messages)."""
    if not is_device_array(y_pred):
        return None
    xp, device = namespace_of(detached(y_pred))
    try:
        return _Device(xp, device), moved_to(y_true, xp, device)
    except (TypeError, ValueError):
        return None


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
    found = _on_batch_device(y_true, y_pred)
    if found is None:
        return None
    dev, y_true = found
    xp, device = dev.xp, dev.device
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
    on_device = is_device_array(weights)
    weights = _checked_weights(dev, weights, on_device, n, True, deferred=True)
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
    if weights is not None:
        finite = xp.isfinite(weights)
        bad = xp.sum(xp.astype(xp.logical_not(finite), dev.index))
        tally_problems.append((_BAD_WEIGHTS, bad))
        weights = xp.where(finite, weights, xp.zeros_like(weights))
    # (c**3 <= 2**22 here: the histogram is dense, nothing read back)
    return _tally_indicators(dev, true, pred, weights, columns, tuple(tally_problems))


def _tally_indicators(
    dev: _Device,
    true: Any,
    pred: Any,
    weights: Any,
    columns: np.ndarray | None,
    problems: tuple[tuple[str, Any], ...] = (),
    *,
    class_counts: bool = True,
    histogram: bool = True,
) -> DeviceMultilabelTally:
    """The :class:`DeviceMultilabelTally` of one batch of bool indicator
    matrices, the one counting engine of multilabel targets on a device (a
    stream's batch, :func:`tally_multilabel`, and a one-shot count,
    :func:`_multilabel_record`): the (tp, true, pred) sums of each column
    (``class_counts``) and the histogram of the per-sample triples over
    ``columns`` (``histogram``; zero-weight samples count as ``(0, 0, 0)``),
    dense over its ``c**3`` cells unless they outnumber ``max(4 n,
    2**22)`` (then found by a sort, which reads from the device)."""
    xp = dev.xp
    n, width = int(true.shape[0]), int(true.shape[1])
    hit = true & pred
    table = None
    if class_counts:
        if weights is None:
            sums = [xp.sum(xp.astype(y, dev.index), axis=0) for y in (hit, true, pred)]
        else:
            column = xp.reshape(weights, (-1, 1))
            sums = [
                xp.sum(xp.astype(y, dev.float) * column, axis=0)
                for y in (hit, true, pred)
            ]
        table = xp.stack(sums)
    seen = summed = squares = values = None
    if histogram:
        if columns is not None:
            index = xp.asarray(columns, dtype=dev.index, device=dev.device)
            hit, true, pred = (xp.take(y, index, axis=1) for y in (hit, true, pred))
        c = int(hit.shape[1]) + 1
        tp_i, true_i, pred_i = (
            xp.sum(xp.astype(y, dev.index), axis=1) for y in (hit, true, pred)
        )
        code = (tp_i * c + true_i) * c + pred_i
        if weights is not None:
            code = xp.where(weights == 0, xp.zeros_like(code), code)
        limit = max(4 * n, _DENSE_RANGE)
        values, seen, summed, squares = dev.histogram(code, weights, c**3, limit)
    nonzero = xp.asarray(False, device=dev.device)
    if weights is not None:
        nonzero = xp.any(weights != 0)
    return DeviceMultilabelTally(
        dev,
        width,
        columns,
        table,
        seen,
        summed,
        squares,
        n,
        nonzero,
        weights is not None,
        problems,
        values,
    )


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
    found = _on_batch_device(y_true, y_pred)
    if found is None:
        return None
    dev, y_true = found
    xp = dev.xp
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
    on_device = is_device_array(weights)
    weights = _checked_weights(dev, weights, on_device, n, True, deferred=True)
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
    return _tally_codes(
        dev,
        true,
        pred,
        universe,
        weights,
        valid,
        tuple(tally_problems),
        cells=keep_cells,
        squares=False,
    )


def _tally_codes(
    dev: _Device,
    true: Any,
    pred: Any,
    universe: np.ndarray,
    weights: Any,
    valid: Any,
    problems: tuple[tuple[str, Any], ...],
    *,
    cells: bool,
    squares: bool,
) -> DeviceTally:
    """The :class:`DeviceTally` of one batch of codes ``true`` and ``pred``
    in ``[0, k)`` (``k``: the labels of ``universe``), the one counting
    engine of 1-D labels on a device: a stream's batch (:func:`tally_batch`)
    and a one-shot count (:func:`_counted`) are both tallies of one batch.

    ``valid``: the samples counted (the others, and their weights, go to a
    trash bin); None: every sample, as in a one-shot count, whose labels all
    occur (they were found among its samples). ``cells``: keep the cells of
    the confusion matrix too (else the three vectors of ``k`` counts only);
    ``squares``: also each cell's sum of squared weights. Nothing here reads
    a value back from the device."""
    xp = dev.xp
    k = universe.shape[0]
    # A one-shot count reads its record back at once: the namespace's own
    # bincount (faster; PyTorch's waits for the device); a stream's batch
    # must not make the device wait.
    count = bincount if valid is None else tally_bincount

    def kept(codes: Any, trash: int) -> Any:
        if valid is None:
            return codes
        return xp.where(valid, codes, xp.full_like(codes, trash))

    squared = weights * weights if squares and weights is not None else None
    found = second = None
    if cells and k <= MAX_CONFUSION_CLASSES:
        trash = k * k
        flat = kept(true * k + pred, trash)
        table = count(xp, flat, weights, trash + 1)[:trash]
        if squared is not None:
            second = count(xp, flat, squared, trash + 1)[:trash]
    else:  # the three vectors of tp, true and pred counts
        if cells:
            true64, pred64 = (xp.astype(c, xp.int64) for c in (true, pred))
            flat = kept(true64 * k + pred64, k * k)
            found = _Cells.of_batch(dev, flat, weights, squares=squared is not None)
        if valid is None:  # three bincounts (a selection's size is read back)
            hit = true == pred
            hit_weights = None if weights is None else weights[hit]
            rows = [(true[hit], hit_weights), (true, weights), (pred, weights)]
            table = xp.stack([count(xp, c, w, k) for c, w in rows])
        else:  # in one bincount: row r's codes offset by r (k+1), no read
            same = xp.logical_and(valid, true == pred)
            hit = xp.where(same, true, xp.full_like(true, k))
            rows = [hit, kept(true, k) + (k + 1), kept(pred, k) + 2 * (k + 1)]
            stacked = None if weights is None else xp.concat([weights] * 3)
            table = count(xp, xp.concat(rows), stacked, 3 * (k + 1))
            table = xp.reshape(table, (3, k + 1))[:, :k]
    seen = None  # without weights, the table's own counts say which occur
    nonzero = xp.asarray(False, device=dev.device)
    if weights is not None:
        if valid is None:  # every label occurs
            seen = xp.ones(k, dtype=dev.index, device=dev.device)
        else:
            both = xp.concat([kept(c, k) for c in (true, pred)])
            seen = count(xp, both, None, k + 1)[:k]
        nonzero = xp.any(weights != 0)
    n_samples = (
        int(true.shape[0]) if valid is None else xp.sum(xp.astype(valid, dev.index))
    )
    return DeviceTally(
        dev,
        universe,
        table,
        seen,
        n_samples,
        nonzero,
        weights is not None,
        problems,
        found,
        second,
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
