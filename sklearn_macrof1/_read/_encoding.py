"""Label encoding: 1-D labels into integer codes over their sorted classes.

Non-negative integers in the dense range (every label below
:func:`dense_range` of the number of samples: twice the samples, at least
2,048) are their own codes, counted by direct ``bincount`` without a sort;
other integers in a narrow range are shifted, strings keyed by code points,
other labels (negative, huge, uint64 beyond int64) sorted once. The output is
a :class:`Targets` record that counting turns into counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ._arrays import as_column, exact_float64
from ._namespace import bincount, to_host

#: Largest number of cells of a dense joint count table (range of integer codes
#: squared) that the integer fast path builds; above it labels are re-encoded.
MAX_JOINT_CELLS = 1 << 22
#: Widest range of integer labels that :func:`encode_on_device` codes by their
#: offset (beyond it, or above four per sample, the labels are sorted).
DEVICE_DENSE_RANGE = 1 << 22


def dense_range(n_samples: int) -> int:
    """The dense range of ``n_samples`` samples: non-negative integer labels
    all below it are counted by ``bincount`` over ``range(dense_range(n))``
    (O(n + range) time, three count arrays of the range: at most a few times
    the size of the labels themselves), without sorting them."""
    return max(2 * n_samples, 1 << 11)


@dataclass
class Targets:
    """Validated targets, ready for counting.

    For 1-D targets (``kind == "1d"``), ``true`` and ``pred`` are integer codes in
    ``[0, len(code_labels))`` and ``code_labels[c]`` is the label of code ``c``; codes
    may include values absent from both arrays (the integer fast path encodes a label
    ``v`` as ``v - min``), the counting core drops those. For multilabel targets
    (``kind == "multilabel-indicator"``) ``true`` and ``pred`` are indicator
    matrices, both dense bool ndarrays or both CSR matrices whose stored entries are
    the labels (values nonzero, not necessarily bool: :func:`as_bool`), and
    ``code_labels`` is ``arange(n_labels)``.

    ``in_range`` is True when the encoding proves every code of 1-D targets lies in
    ``[0, len(code_labels))`` (by construction, or checked); the counting core
    adds at the codes without bounds checks and verifies them itself otherwise.
    """

    kind: str
    true: Any
    pred: Any
    code_labels: np.ndarray
    n_samples: int
    in_range: bool = False


def joined(yps: list[np.ndarray], names: Sequence[str]) -> np.ndarray:
    """Several 1-D prediction sets as one array, without changing a label.

    One dtype: concatenated as such. Numbers of several dtypes: in their common
    dtype, refused (``ValueError``) where it would round an integer label (beyond
    2**53 in float64). Anything else (strings with numbers, objects): as Python
    objects, which the encoding classifies as scikit-learn does.
    """
    columns = [as_column(yp) for yp in yps]
    dtypes = {c.dtype for c in columns}
    if len(dtypes) == 1:
        return np.concatenate(columns)
    if all(dtype.kind in "biuf" for dtype in dtypes):
        common = np.result_type(*dtypes)
        if common.kind == "f" and all(dtype.kind in "biu" for dtype in dtypes):
            common = _common_integer(columns, common)
        for column, name in zip(columns, names, strict=True):
            if (
                common.kind == "f"
                and column.dtype.kind in "iu"
                and not exact_float64(column)
            ):
                raise ValueError(
                    f"{name} holds integer labels beyond 2**53, which cannot be "
                    "compared exactly with the labels of another prediction set "
                    f"in their common dtype {common}; pass every prediction set "
                    "with one integer dtype."
                )
        return np.concatenate([c.astype(common, copy=False) for c in columns])
    if all(dtype.kind == "U" for dtype in dtypes):
        return np.concatenate(columns)
    return np.concatenate([c.astype(object) for c in columns])


def _common_integer(columns: list[np.ndarray], common: np.dtype) -> np.dtype:
    """int64 with uint64 labels: no integer dtype holds both ranges, but these
    labels fit int64 when the unsigned ones are below 2**63, or uint64 when the
    signed ones are nonnegative; else ``common`` (float64)."""
    top = np.iinfo(np.int64).max
    if all(c.dtype.kind != "u" or c.size == 0 or c.max() <= top for c in columns):
        return np.dtype(np.int64)
    if all(c.dtype.kind != "i" or c.size == 0 or c.min() >= 0 for c in columns):
        return np.dtype(np.uint64)
    return common


def locate(classes: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """The index of each label of ``y`` in ``classes``, checked (None when a label
    is not found where the sort puts it: labels that do not sort consistently
    would otherwise get the index of another class, or one past the last)."""
    codes = np.searchsorted(classes, y)
    if classes.shape[0] == 0 or codes.max(initial=0) >= classes.shape[0]:
        return None
    return codes if bool(np.all(classes[codes] == y)) else None


def encode_objects(yt: np.ndarray, yp: np.ndarray, values: set, n: int) -> Targets:
    """Strings in object arrays: a dict from label to code, no sorting of n values."""
    classes = sorted(values)
    code = {label: i for i, label in enumerate(classes)}.__getitem__
    codes_t = np.fromiter(map(code, yt.tolist()), dtype=np.intp, count=n)
    codes_p = np.fromiter(map(code, yp.tolist()), dtype=np.intp, count=yp.shape[0])
    return Targets("1d", codes_t, codes_p, np.asarray(classes), n, in_range=True)


#: Below this many samples, numpy string arrays are encoded by sorting.
_MIN_KEYED = 4096


_BUCKET_BITS = 18


def _code_point_ranges(columns: list[np.ndarray], width: int) -> tuple[list, list]:
    """Smallest and largest code point at each position (NUL past the end)."""
    lo: list[int | None] = [None] * width
    hi = [0] * width
    for points in columns:
        for j in range(width):
            if j < points.shape[1]:
                col = points[:, j]
                c_lo, c_hi = int(col.min()), int(col.max())
            else:
                c_lo = c_hi = 0
            prev = lo[j]
            lo[j] = c_lo if prev is None else min(prev, c_lo)
            hi[j] = max(hi[j], c_hi)
    return lo, hi


def _string_keys(points: np.ndarray, strides: list[int], start: Any) -> np.ndarray:
    """``start`` plus the mixed-radix key of each string, modulo 2**bits of the
    dtype of ``start`` (wrapping)."""
    dtype = type(start)
    key = np.full(points.shape[0], start)
    for j, stride in enumerate(strides[: points.shape[1]]):
        if stride:
            key += points[:, j].astype(dtype, copy=False) * dtype(stride)
    return key


def encode_by_key(yt: np.ndarray, yp: np.ndarray, n: int) -> Targets | None:
    """Encode numpy string arrays in O(n), without sorting n strings.

    Each string gets an exact integer key: its code points, minus the smallest
    code point at that position, as the digits of a mixed-radix number (positions
    holding one code point everywhere are skipped). Small key ranges index a
    table directly; larger ones are spread over 2**18 buckets by Fibonacci
    hashing, one string per bucket is looked up and every key is compared with
    its bucket's key, so a collision is detected: then, or when the keys would
    not fit in 64 bits, or for small ``n``, None is returned and the caller
    sorts instead.
    """
    if n < _MIN_KEYED:
        return None
    # Contiguous, in native byte order: the code points are read through a view.
    yt, yp = _native(yt), _native(yp)
    pt = yt.view(np.uint32).reshape(n, -1)
    pp = yp.view(np.uint32).reshape(yp.shape[0], -1)
    width = max(pt.shape[1], pp.shape[1])
    lo, hi = _code_point_ranges([pt, pp], width)
    strides = [0] * width
    offset = 0
    total = 1
    for j in range(width):
        if hi[j] != lo[j]:
            strides[j] = total
            offset += lo[j] * total
            total *= hi[j] - lo[j] + 1
    if total >= 1 << 63:
        return None
    bits = 32 if total < 1 << 32 else 64
    dtype = np.uint32 if bits == 32 else np.uint64
    # Each key minus the offset: exact, as the true key is below 2**bits.
    keys = [_string_keys(p, strides, dtype(-offset % (1 << bits))) for p in (pt, pp)]
    size = 1 << _BUCKET_BITS
    if total <= size:  # the key is its own bucket: no collision possible
        buckets_tp = [key.astype(np.intp) for key in keys]
        size = total
    else:
        mult = dtype(0x9E3779B9 if bits == 32 else 0x9E3779B97F4A7C15)
        shift = dtype(bits - _BUCKET_BITS)
        buckets_tp = [((key * mult) >> shift).astype(np.intp) for key in keys]
    bucket_t, bucket_p = buckets_tp
    where = np.full(size, -1, dtype=np.intp)  # one sample of each bucket
    where[bucket_p] = np.arange(n, n + yp.shape[0])
    where[bucket_t] = np.arange(n)
    buckets = np.flatnonzero(where >= 0)
    first = where[buckets]
    from_t = first < n
    if total > 1 << _BUCKET_BITS:
        stored = np.where(
            from_t, keys[0][np.minimum(first, n - 1)], keys[1][np.maximum(first - n, 0)]
        )
        bucket_key = np.zeros(size, dtype=dtype)
        bucket_key[buckets] = stored
        if not (
            np.array_equal(bucket_key[bucket_t], keys[0])
            and np.array_equal(bucket_key[bucket_p], keys[1])
        ):
            return None  # two labels share a bucket
    labels = np.empty(buckets.shape[0], dtype=np.dtype(f"U{max(width, 1)}"))
    labels[from_t] = yt[first[from_t]]
    labels[~from_t] = yp[first[~from_t] - n]
    order = np.argsort(labels, kind="stable")
    rank = np.zeros(size, dtype=np.intp)
    rank[buckets[order]] = np.arange(buckets.shape[0])
    return Targets(
        "1d", rank[bucket_t], rank[bucket_p], labels[order], n, in_range=True
    )


def encode_sorted(yt: np.ndarray, yp: np.ndarray, n: int) -> Targets:
    classes, inverse = np.unique(np.concatenate([yt, yp]), return_inverse=True)
    inverse = inverse.reshape(-1)
    return Targets("1d", inverse[:n], inverse[n:], classes, n, in_range=True)


def unsigned_max(y: np.ndarray) -> int:
    """Largest label of an integer array, or -1 when some label is negative."""
    unsigned = np.dtype(y.dtype.str.replace("i", "u"))  # keeps the byte order
    top = int(y.view(unsigned).max())
    return top if top < 1 << (8 * unsigned.itemsize - 1) else -1


def _native(y: np.ndarray) -> np.ndarray:
    """``y`` C-contiguous in native byte order (a copy only when it is not)."""
    return np.ascontiguousarray(y, dtype=y.dtype.newbyteorder("="))


def _exact_in_common_dtype(
    yt: np.ndarray, yp: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.dtype | None]:
    """Labels of two dtypes whose common numpy dtype is float64, made comparable
    exactly: numpy compares int64 with uint64, and integers with floats, in
    float64, where integers beyond 2**53 round, so two labels could become one.

    - integers that float64 holds exactly (with floats, or int64 with uint64):
      both as float64, which is also how scikit-learn shows the labels;
    - int64 with uint64 beyond that: both as int64 or uint64 (whichever holds
      every label; a negative label with one of 2**63 or more is refused), and
      the labels are shown in that dtype (scikit-learn's float64 label set would
      hold one float twice and count that class twice);
    - integers beyond 2**53 with floats: refused (``ValueError``), as no dtype
      holds both exactly and scikit-learn would merge labels or count a class
      twice.

    Returns the two arrays and the dtype to show the labels in (None: numpy's).
    """
    ints = [y for y in (yt, yp) if y.dtype.kind in "iub"]
    if all(exact_float64(y) for y in ints if y.dtype.kind != "b"):
        return yt.astype(np.float64), yp.astype(np.float64), None
    if len(ints) < 2:
        raise ValueError(
            f"y_true ({yt.dtype}) and y_pred ({yp.dtype}) mix integer labels "
            "beyond 2**53 with float labels, which cannot be compared exactly "
            "(float64 rounds such integers; scikit-learn would merge labels or "
            "count a class twice); pass both as integers."
        )
    lo = min(int(yt.min()), int(yp.min()))
    hi = max(int(yt.max()), int(yp.max()))
    if -(2**63) <= lo and hi < 2**63:
        dtype: Any = np.int64
    elif lo >= 0:
        dtype = np.uint64
    else:
        raise ValueError(
            f"y_true ({yt.dtype}) and y_pred ({yp.dtype}) hold integer labels "
            f"from {lo} to {hi}, which neither int64 nor uint64 holds exactly; "
            "pass them with one integer dtype that holds them."
        )
    return yt.astype(dtype), yp.astype(dtype), np.dtype(dtype)


def class_label_dtype(
    dtype_t: np.dtype, dtype_p: np.dtype, adds_label: Callable[[], bool]
) -> np.dtype:
    """The dtype of the class labels, as scikit-learn's ``unique_labels`` makes it.

    scikit-learn collects the labels of y_true, then those of y_pred, in one Python
    set: a label of y_pred equal to one of y_true (``1.0 == True``) is not added.
    So the labels have y_true's dtype when y_pred adds no label, else the common
    dtype (bool y_true with 0.0/1.0 predictions reports ``'False'``, ``'True'``).
    ``adds_label()`` says whether y_pred adds a label (asked only when the
    answer decides the dtype): :func:`_adds_label` in memory, on the device
    for device arrays (:func:`encode_on_device`).
    """
    common = np.result_type(dtype_t, dtype_p)
    if common == dtype_t or (dtype_t.kind in "iu" and common.kind in "iu"):
        return common  # (integers of two widths print alike: no check)
    return common if adds_label() else dtype_t


def _adds_label(codes_t: Any, codes_p: Any, k: int) -> bool:
    """Whether a code of ``codes_p`` is not among ``codes_t`` (both in ``[0, k)``)."""
    seen = np.zeros(k, dtype=bool)
    seen[codes_t] = True  # bounds-checked numpy indexing
    return not seen[codes_p].all()


def _own_codes(
    yt: np.ndarray,
    yp: np.ndarray,
    dtype_t: np.dtype,
    dtype_p: np.dtype,
    hi: int,
    n: int,
) -> Targets:
    """Non-negative integer labels up to ``hi`` as their own codes: no shifted
    copies (codes of absent labels are absent classes, dropped by the count).
    uint64 plus a signed integer promotes to float64: they count on a signed
    view (the values are small)."""
    if yt.dtype.kind == "u" and yt.dtype.itemsize == 8:
        yt = yt.view(np.int64)
    if yp.dtype.kind == "u" and yp.dtype.itemsize == 8:
        yp = yp.view(np.int64)
    shown = class_label_dtype(dtype_t, dtype_p, lambda: _adds_label(yt, yp, hi + 1))
    code_labels = np.arange(hi + 1, dtype=np.int64).astype(shown)
    return Targets("1d", yt, yp, code_labels, n, in_range=True)


def read_numeric(yt: np.ndarray, yp: np.ndarray, n: int) -> Targets:
    yt, yp = _native(yt), _native(yp)
    dtype_t, dtype_p = yt.dtype, yp.dtype
    label_dtype = np.result_type(dtype_t, dtype_p)
    if yt.dtype.kind == "b":
        yt = yt.view(np.uint8)
    if yp.dtype.kind == "b":
        yp = yp.view(np.uint8)
    limit = max(MAX_JOINT_CELLS, 4 * n)
    if yt.dtype.kind in "iu" and yp.dtype.kind in "iu":
        # One pass per array: the largest value seen as unsigned is below the
        # sign bit exactly when no label is negative (negatives wrap to huge).
        hi_t, hi_p = unsigned_max(yt), unsigned_max(yp)
        hi = max(hi_t, hi_p)
        if min(hi_t, hi_p) >= 0 and (hi + 1) ** 2 <= limit:
            # Small non-negative integers are their own codes (a joint table).
            return _own_codes(yt, yp, dtype_t, dtype_p, hi, n)
        if min(hi_t, hi_p) >= 0 and hi < dense_range(n):
            lo = min(int(yt.min()), int(yp.min()))
            if (hi - lo + 1) ** 2 > limit:
                # In the dense range, too wide for a joint table even shifted:
                # their own codes, counted class by class (no sort).
                return _own_codes(yt, yp, dtype_t, dtype_p, hi, n)
    if yt.dtype != yp.dtype and label_dtype.kind == "f":
        if yt.dtype.kind == "f" and yp.dtype.kind == "f":
            yt, yp = yt.astype(np.float64), yp.astype(np.float64)
        else:  # ints with floats, or int64 with uint64
            yt, yp, exact_dtype = _exact_in_common_dtype(yt, yp)
            if exact_dtype is not None:
                label_dtype = dtype_t = dtype_p = exact_dtype
    exact = yt.dtype.kind in "iu" and yp.dtype.kind in "iu"
    lo = min(yt.min(), yp.min())
    hi = max(yt.max(), yp.max())
    span = int(hi) - int(lo) + 1
    if span * span <= limit:
        # In intp: in a narrow dtype the difference could wrap (int8 127 - -128).
        # Floats of 2**63 or more do not cast: their codes are checked below.
        with np.errstate(invalid="ignore"):
            codes = [
                np.subtract(y, lo, dtype=np.intp, casting="unsafe") for y in (yt, yp)
            ]
        # Integer labels cast to intp exactly (uint64 of 2**63 or more wraps, and
        # so does lo: the difference is exact), so min and max prove the codes.
        if exact or all(0 <= unsigned_max(c) < span for c in codes):
            # lo + c, exact for the codes c of present labels (lo may be 2**63
            # or more in uint64 and float64, or -2**63 in int64).
            code_labels: np.ndarray
            if yt.dtype.kind == "f":
                code_labels = np.arange(span, dtype=np.float64) + float(lo)
            elif yt.dtype == np.uint64:
                code_labels = np.arange(span, dtype=np.uint64) + np.uint64(int(lo))
            else:
                code_labels = np.arange(span, dtype=np.int64) + int(lo)
            adds = partial(_adds_label, codes[0], codes[1], span)
            shown = class_label_dtype(dtype_t, dtype_p, adds)
            code_labels = code_labels.astype(shown)
            return Targets("1d", codes[0], codes[1], code_labels, n, in_range=True)
    if yt.dtype != yp.dtype:  # both integers of different dtypes: exact common one
        common = np.result_type(yt.dtype, yp.dtype)
        yt, yp = yt.astype(common, copy=False), yp.astype(common, copy=False)
    encoded = encode_sorted(yt, yp, n)
    k = encoded.code_labels.shape[0]
    adds = partial(_adds_label, encoded.true, encoded.pred, k)
    shown = class_label_dtype(dtype_t, dtype_p, adds)
    encoded.code_labels = encoded.code_labels.astype(shown)
    return encoded


def encode_on_device(
    xp: Any, arrays: Sequence[Any], index: Any
) -> tuple[list[Any], np.ndarray]:
    """The encoding of checked 1-D labels that live on a device (arrays of the
    namespace ``xp``: ``y_true``, then each prediction set): codes ``0 ..
    k-1`` of the integer dtype ``index`` on the device of each, and the ``k``
    labels present (sorted) on the host, in the dtype the in-memory encoding
    gives them (:func:`class_label_dtype`: ``y_true``'s unless a prediction adds a
    label).

    Integer-valued labels in a range of at most ``max(4 n, 2**22)`` are coded by
    their offset from the smallest (one ``bincount`` of presence, no sort);
    wider ranges by ``unique_inverse`` of all labels (a sort on the device).
    """
    n = arrays[0].shape[0]
    dtypes = [to_host(y[:0]).dtype for y in arrays]
    arrays = [xp.astype(y, index) if xp.isdtype(y.dtype, "bool") else y for y in arrays]
    low = min(_scalar(xp.min(y)) for y in arrays)
    high = max(_scalar(xp.max(y)) for y in arrays)
    span = high - low + 1
    exact = all(abs(v) < 2**53 for v in (low, high))
    if exact and span <= max(4 * n, DEVICE_DENSE_RANGE):
        span = int(span)
        # widened first: the offset of a narrow dtype (int8, int16) overflows it
        codes = [xp.astype(y, index) for y in arrays]
        codes = [c - int(low) if low else c for c in codes]
        seen = sum(bincount(xp, c, None, span) for c in codes)
        present = seen > 0
        offsets = to_host(xp.nonzero(present)[0]).astype(np.int64)
        labels = offsets + int(low)
        if offsets.shape[0] < span:  # positions among the labels present
            position = xp.cumulative_sum(xp.astype(present, index)) - 1
            codes = [xp.take(position, c) for c in codes]
    else:
        common = xp.result_type(*(y.dtype for y in arrays))
        values, inverse = xp.unique_inverse(
            xp.concat([xp.astype(y, common) for y in arrays])
        )
        inverse = xp.astype(inverse, index)
        codes = [inverse[i * n : (i + 1) * n] for i in range(len(arrays))]
        labels = to_host(values)
    k = labels.shape[0]

    def adds_label() -> bool:
        seen = bincount(xp, codes[0], None, k) > 0
        return not all(bool(xp.all(xp.take(seen, c))) for c in codes[1:])

    shown = class_label_dtype(dtypes[0], np.result_type(*dtypes[1:]), adds_label)
    return codes, labels.astype(shown)


def _scalar(value: Any) -> float | int:
    number = float(value)
    return int(number) if number.is_integer() else number
