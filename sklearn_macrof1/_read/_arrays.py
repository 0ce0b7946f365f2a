"""Inputs into numpy arrays: lists, pandas and polars objects, sparse matrices.

Each conversion checks what it is given (shape, sparse format, float labels
that are not whole numbers) and names the argument in its errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

ACCEPTED = (
    "a 1-D array of class labels (ints, strings or bools) or a 2-D 0/1 indicator "
    "matrix (dense or scipy sparse) for multilabel targets"
)


def num_samples(y: Any) -> int:
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) > 0:
        return int(shape[0])
    return len(y)


def to_array(y: Any, name: str) -> Any:
    """A plain numpy array or a structurally valid CSR matrix.

    Lists and pandas objects become ndarrays as scikit-learn converts them; ndarray
    subclasses become base-class ndarrays over the same data (:func:`_plain`), so
    every later reduction sees the values the counting core will read.
    """
    if sp.issparse(y):
        return _sparse_to_csr(y, name)
    if isinstance(y, np.ndarray):
        return _plain(y, name)
    if hasattr(y, "to_numpy") and hasattr(y, "dtype"):  # pandas Series
        return _plain(_series_to_array(y, name), name)
    if hasattr(y, "to_numpy") and hasattr(y, "dtypes") and getattr(y, "ndim", 0) == 2:
        return _plain(_frame_to_array(y, name), name)  # pandas DataFrame
    try:
        arr = np.asarray(y)
    except ValueError:  # ragged nested sequences
        arr = np.asarray(y, dtype=object)
    return _plain(arr, name)


def _plain(y: np.ndarray, name: str) -> np.ndarray:
    """``y`` as a base-class ndarray whose buffer holds exactly its values.

    - ``np.matrix`` is refused with ``TypeError``, as scikit-learn does;
    - a masked array with a masked entry is refused with ``TypeError`` (as in
      scikit-learn, which fails to hash the masked constant), one without becomes
      its data (NaN or inf in the data is reported first, as in scikit-learn);
    - any other subclass (memmap, user subclasses) is viewed as a plain ndarray:
      its own reductions and indexing, which may disagree with its buffer, are
      never used (what ``np.asarray`` gives scikit-learn too);
    - a bool array holding bytes other than 0 and 1 (made by ``view(bool)``) is
      normalised to 0/1: numpy and scikit-learn read any nonzero byte as True.
    """
    if isinstance(y, np.matrix):
        raise TypeError(
            f"{name} is an np.matrix, which is not supported (as in scikit-learn); "
            "convert it to a numpy array with np.asarray."
        )
    if isinstance(y, np.ma.MaskedArray):
        data = np.ma.getdata(y)
        if data.dtype.kind == "f" and not np.isfinite(data).all():
            # scikit-learn checks the data for NaN and inf first (ValueError).
            return np.ndarray.view(data, np.ndarray)
        if np.ma.getmaskarray(y).any():
            raise TypeError(
                f"{name} is a masked array with masked entries; class labels cannot "
                "be missing (scikit-learn refuses them too). Drop those samples or "
                "fill them (y.filled(...)) before scoring."
            )
        y = np.ma.getdata(y)
    if type(y) is not np.ndarray:
        y = np.ndarray.view(y, np.ndarray)
    if y.dtype == bool and y.size and int(y.view(np.uint8).max()) > 1:
        y = y.view(np.uint8) != 0
    if y.dtype.kind == "T":
        y = fixed_width_strings(y, name)
    return y


def fixed_width_strings(y: np.ndarray, name: str) -> np.ndarray:
    """numpy 2's variable-width strings (``StringDType``) as the ``<U`` array of
    the same labels, which every reader of this package (and scikit-learn) takes.

    Refused where the ``<U`` copy would not hold the same labels: a missing value
    (a ``na_object``; ``TypeError``, as scikit-learn refuses ``None`` among
    strings) and two labels that differ only by trailing NUL characters, which
    fixed-width strings drop (``ValueError``: they would be scored as one).
    """
    try:
        width = int(np.strings.str_len(y).max(initial=1))
    except ValueError:  # numpy: "The length of a null string is undefined"
        raise TypeError(
            f"{name} holds missing values (the na_object of its StringDType); "
            "class labels cannot be missing (scikit-learn refuses them too). Drop "
            "those samples or fill them before scoring."
        ) from None
    fixed = y.astype(f"<U{width}")
    distinct = np.unique(y)  # exact: trailing NULs kept
    kept = distinct.astype(fixed.dtype)
    if np.unique(kept).shape[0] < distinct.shape[0]:
        groups: dict[str, list[str]] = {}
        for label, short in zip(distinct.tolist(), kept.tolist(), strict=True):
            groups.setdefault(short, []).append(label)
        merged = next(group for group in groups.values() if len(group) > 1)
        raise ValueError(
            f"{name} holds labels that differ only by trailing NUL characters "
            f"(for example {merged!r}), which numpy's fixed-width strings and "
            "scikit-learn drop: they would be scored as one label. Rename them, "
            "or remove the NUL characters if they are padding."
        )
    return fixed


def _sparse_to_csr(y: Any, name: str) -> Any:
    """A sparse matrix as CSR, after checking that its structure is valid.

    scipy's conversions and the counting core read the index arrays without
    bounds checks; a malformed matrix (an index outside its shape, pointers that
    run past the arrays) is refused with ``ValueError`` before any of them runs.
    """
    if y.format == "bsr":
        y = y.tocoo()
    if y.format == "coo":
        _check_coo(y, name)
    elif y.format in ("csr", "csc"):
        _check_compressed(y, name)
    if y.format != "csr":
        y = y.tocsr()
        _check_compressed(y, name)
    return y


def _malformed(name: str, what: str) -> ValueError:
    return ValueError(
        f"{name} is a malformed sparse matrix: {what}. Rebuild it with scipy's "
        "constructors (they validate their input)."
    )


def _check_compressed(y: Any, name: str) -> None:
    """O(nnz) structural check of a CSR/CSC matrix (what scipy's ``check_format``
    does with ``full_check=True``, without modifying the matrix)."""
    n_major, n_minor = y.shape if y.format == "csr" else y.shape[::-1]
    indptr, indices, data = y.indptr, y.indices, y.data
    if indptr.ndim != 1 or indptr.shape[0] != n_major + 1:
        raise _malformed(name, f"index pointer of length {indptr.shape[0]}")
    if indices.dtype.kind not in "iu" or indptr.dtype.kind not in "iu":
        raise _malformed(name, "index arrays are not integers")
    nnz = int(indptr[-1]) if indptr.shape[0] else 0
    if (
        int(indptr[0]) != 0
        or nnz > indices.shape[0]
        or nnz > data.shape[0]
        or (indptr.shape[0] > 1 and int(np.diff(indptr).min()) < 0)
    ):
        raise _malformed(name, "index pointers are not increasing from 0 to nnz")
    if nnz:
        used = indices[:nnz]
        lo, hi = int(used.min()), int(used.max())
        if lo < 0 or hi >= n_minor:
            bad = hi if hi >= n_minor else lo
            raise _malformed(name, f"index {bad} outside its {n_minor} columns/rows")


def _check_coo(y: Any, name: str) -> None:
    coords = getattr(y, "coords", None) or (y.row, y.col)
    if len(coords) != 2:
        raise _malformed(name, "it is not 2-D")
    nnz = y.data.shape[0]
    for axis, (index, size) in enumerate(zip(coords, y.shape, strict=True)):
        if index.shape[0] != nnz:
            raise _malformed(name, "coordinate and data arrays differ in length")
        if nnz and (int(index.min()) < 0 or int(index.max()) >= size):
            raise _malformed(
                name, f"a coordinate outside its {size} entries on axis {axis}"
            )


def exact_float64(values: np.ndarray) -> bool:
    """True when every integer of ``values`` is exactly a float64."""
    if values.size == 0:
        return True
    lo, hi = int(values.min()), int(values.max())
    if -(2**53) <= lo and hi <= 2**53:
        return True
    as_float = values.astype(np.float64)
    within = np.abs(as_float) < 2.0**63
    if values.dtype.kind == "u":
        within = as_float < 2.0**64
    back = np.zeros_like(values)
    back[within] = as_float[within].astype(values.dtype)
    return bool(within.all() and np.array_equal(back, values))


def _series_to_array(y: Any, name: str) -> np.ndarray:
    """A pandas Series as the ndarray scikit-learn would see.

    Nullable numeric and boolean dtypes (``Int64``, ``UInt64``, ``Float64``,
    ``boolean``...) become float64 arrays, as scikit-learn converts them (so their
    labels print as ``1.0``); a missing value is an error, as in scikit-learn.
    Integers that float64 cannot hold exactly (beyond 2**53) are refused with
    ``ValueError``: scikit-learn would silently merge distinct labels there (and a
    ``UInt64`` of 2**63 or more is refused as continuous, by the float check).
    Categoricals become arrays of their categories' values.
    """
    dtype = y.dtype
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if isinstance(numpy_dtype, np.dtype) and numpy_dtype.kind in "biuf":
        if bool(y.isna().any()):
            raise ValueError(
                f"Input {name} contains NaN (missing values); class labels must "
                f"be present and finite. Accepted: {ACCEPTED}."
            )
        values = y.to_numpy(dtype=numpy_dtype)
        if numpy_dtype.kind in "iu" and not exact_float64(values):
            raise ValueError(
                f"{name} is a pandas {dtype} column with integers beyond 2**53, "
                "which scikit-learn converts to float64, where distinct labels "
                f"become equal; pass {name}.to_numpy(dtype='{numpy_dtype}') to "
                "score them exactly."
            )
        return values.astype(np.float64)
    if getattr(dtype, "name", None) == "category":
        return np.asarray(y)
    return y.to_numpy()


def _frame_to_array(y: Any, name: str) -> np.ndarray:
    columns = [_series_to_array(y.iloc[:, j], name) for j in range(y.shape[1])]
    if not columns:
        return np.empty((y.shape[0], 0))
    if len({c.dtype for c in columns}) > 1:
        return np.asarray(y, dtype=object)
    return np.column_stack(columns)


def as_column(y: np.ndarray) -> np.ndarray:
    return y.reshape(-1) if y.ndim == 2 else y
