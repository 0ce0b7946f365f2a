"""The one place where sklearn-macrof1 calls a private SciPy routine, guarded.

The confusion matrix of 1-D labels is a scatter-add: add 1 (or a sample weight) at
``(true, pred)`` for every sample. ``np.bincount`` needs the position as one code
array first (``true * k + pred``: a pass and an n-length temporary) and then runs its
own two passes (range, count). SciPy's compiled ``coo_todense`` -- what
``coo_array.toarray()`` runs to sum duplicate entries -- adds the values at (row,
column) positions in one loop, reading the label arrays as they are, in the same
summation order (weighted sums are bit-identical to ``np.bincount``'s). Measured at
n = 1e6, k = 10 (``benchmarks/bench_core.py``), this count with its guard is about
1.6x faster than the bincount, and it is what keeps a whole
``averaged_f1_score`` call within 1.5x of a bare ``np.bincount(y_true * k +
y_pred)``; with the bincount the call is about 1.5-1.8x the bare bincount. The
public route, ``coo_array((values, (rows, cols))).toarray()``, first checks and
downcasts the index arrays, which costs more than the count itself.

The routine lives in the private module ``scipy.sparse._sparsetools`` (with the
same arguments in every SciPy this package supports, 1.10 and later; the tests
check it is there and agrees with ``np.bincount``). It checks no bounds: an index
outside the table writes outside it. So :func:`add_at_pairs` checks, itself and
right before the call, the exact arrays it passes (types, dtypes, contiguity,
lengths and the range of every index); no caller can get past it. Should the
module move, ``AVAILABLE`` is False and the counting core uses ``np.bincount``
instead (the same numbers, slower).
"""

from __future__ import annotations

import numpy as np

try:  # private import, isolated here on purpose (see module docstring)
    from scipy.sparse._sparsetools import coo_todense
except ImportError:  # pragma: no cover - depends on SciPy's internals
    coo_todense = None

AVAILABLE = coo_todense is not None

_INDEX_TYPES = (np.dtype(np.int32), np.dtype(np.intp))
_VALUE_TYPES = (np.dtype(np.int64), np.dtype(np.float64))


def _plain_array(x: object, name: str) -> np.ndarray:
    """``x`` itself when it is a plain, C-contiguous, native-order ndarray."""
    if type(x) is not np.ndarray:  # subclasses (masked arrays, matrix) refused
        raise TypeError(
            f"{name} must be a numpy.ndarray (not a subclass); got {type(x).__name__}."
        )
    if not x.flags.c_contiguous or not x.dtype.isnative:
        raise ValueError(f"{name} must be C-contiguous and in native byte order.")
    return x


def add_at_pairs(
    out: np.ndarray, rows: np.ndarray, cols: np.ndarray, values: np.ndarray
) -> None:
    """``out[rows[i], cols[i]] += values[i]`` for every ``i``, in order.

    ``out``: a 2-D int64 or float64 array; ``values``: 1-D, of ``out``'s dtype;
    ``rows`` and ``cols``: 1-D, both int32 or both intp, of ``values``' length,
    every ``rows[i]`` in ``[0, out.shape[0])`` and every ``cols[i]`` in
    ``[0, out.shape[1])``. All plain C-contiguous ndarrays. Anything else raises
    ``TypeError`` or ``ValueError`` before SciPy's routine (which checks no
    bounds) sees it.
    """
    for name, x in (("out", out), ("rows", rows), ("cols", cols), ("values", values)):
        _plain_array(x, name)
    if out.ndim != 2 or out.dtype not in _VALUE_TYPES or values.dtype != out.dtype:
        raise TypeError(
            "out must be a 2-D int64 or float64 array and values of its dtype; got "
            f"out {out.dtype} of shape {out.shape} and values {values.dtype}."
        )
    if rows.dtype not in _INDEX_TYPES or cols.dtype != rows.dtype:
        raise TypeError(
            f"rows and cols must both be int32 or both intp; got {rows.dtype} and "
            f"{cols.dtype}."
        )
    n = values.shape[0]
    if values.ndim != 1 or rows.shape != (n,) or cols.shape != (n,):
        raise ValueError(
            "rows, cols and values must be 1-D of one length; got shapes "
            f"{rows.shape}, {cols.shape} and {values.shape}."
        )
    n_rows, n_cols = out.shape
    if n:
        unsigned = np.uint32 if rows.dtype == np.int32 else np.uintp
        # Negative indices wrap to huge unsigned values: one max per array.
        top_row, top_col = rows.view(unsigned).max(), cols.view(unsigned).max()
        if top_row >= n_rows or top_col >= n_cols:
            raise ValueError(
                f"indices outside the {n_rows} x {n_cols} table: rows in "
                f"[{rows.min()}, {rows.max()}], cols in [{cols.min()}, "
                f"{cols.max()}]."
            )
    coo_todense(n_rows, n_cols, n, rows, cols, values, out, 0)


__all__ = ["AVAILABLE", "add_at_pairs"]
