"""Reading ``y_true`` / ``y_pred``: target type, validation and integer encoding.

The output is a :class:`Targets` record that the counting core turns into counts.
Plain numpy arrays of ints, floats and bools take a fast path (a few vectorised
reductions, no sorting). Everything else (lists of strings, object arrays, pandas
objects, sparse matrices, odd shapes) is classified with scikit-learn's public
``type_of_target`` / ``unique_labels`` so that every decision, and every rejection,
is the one scikit-learn makes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import type_of_target, unique_labels

#: Largest number of cells of a dense joint count table (range of integer codes
#: squared) that the integer fast path builds; above it labels are re-encoded.
MAX_JOINT_CELLS = 1 << 22

_ACCEPTED = (
    "a 1-D array of class labels (ints, strings or bools) or a 2-D 0/1 indicator "
    "matrix (dense or scipy sparse) for multilabel targets"
)


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


def _num_samples(y: Any) -> int:
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) > 0:
        return int(shape[0])
    return len(y)


def _to_array(y: Any, name: str) -> Any:
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


def _exact_float64(values: np.ndarray) -> bool:
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
                f"be present and finite. Accepted: {_ACCEPTED}."
            )
        values = y.to_numpy(dtype=numpy_dtype)
        if numpy_dtype.kind in "iu" and not _exact_float64(values):
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


def _is_fast_numeric(y: Any) -> bool:
    return isinstance(y, np.ndarray) and y.dtype.kind in "biuf"


def _check_float_labels(y: np.ndarray, name: str) -> None:
    """Float labels must be finite whole numbers (sklearn: else "continuous")."""
    if y.dtype.kind != "f":
        return
    finite = np.isfinite(y)
    if not finite.all():
        what = "NaN" if np.isnan(y).any() else "infinity"
        raise ValueError(
            f"Input {name} contains {what}; class labels must be finite. "
            f"Accepted: {_ACCEPTED}."
        )
    whole = y == np.trunc(y)
    if float(np.finfo(y.dtype).max) >= 2.0**63:  # (float16 cannot hold 2**63)
        within = (y >= -(2.0**63)) & (y < 2.0**63)
        if not within.all():
            example = y[~within].flat[0]
            raise ValueError(
                f"{name} contains whole numbers beyond the int64 range (for example "
                f"{example!r}), which scikit-learn calls continuous values; "
                f"classification metrics need {_ACCEPTED}: pass them as integers."
            )
    if not whole.all():
        example = y[~whole].flat[0]
        raise ValueError(
            f"{name} contains continuous values (for example {example!r}); "
            f"classification metrics need {_ACCEPTED}. Threshold scores or "
            "probabilities into labels first (for example y_score >= 0.5)."
        )


def _sklearn_kind(y: Any, name: str) -> str:
    """Target kind via scikit-learn, with our messages for unsupported kinds."""
    try:
        kind = type_of_target(y, input_name=name)
    except ValueError as exc:
        msg = str(exc)
        if "legacy multi-label" in msg:
            raise ValueError(
                f"{name} is a sequence of sequences, a legacy multilabel format; "
                "pass a 0/1 indicator matrix instead (sklearn.preprocessing."
                "MultiLabelBinarizer converts to it)."
            ) from exc
        raise
    if kind in ("binary", "multiclass"):
        if getattr(y, "ndim", 1) == 2 and sp.issparse(y):
            raise TypeError(
                f"{name} is a sparse matrix with a single column; sparse input is "
                "only supported for multilabel targets (2 or more indicator columns)."
            )
        return "1d"
    if kind == "multilabel-indicator":
        return "multilabel-indicator"
    if kind.startswith("continuous"):
        raise ValueError(
            f"{name} contains continuous values ({kind}); classification metrics "
            f"need {_ACCEPTED}. Threshold scores or probabilities into labels "
            "first (for example y_score >= 0.5)."
        )
    if kind == "multiclass-multioutput":
        raise ValueError(
            f"{name} is multiclass-multioutput (a 2-D array with several columns of "
            f"class labels), which F-scores do not support; accepted: {_ACCEPTED}."
        )
    message = (
        f"{name} has a type of target that cannot be scored ({kind}: for example "
        f"an object array of non-string values, or a 3-D array); accepted: "
        f"{_ACCEPTED}."
    )
    if isinstance(y, np.ndarray) and y.dtype == object:
        try:  # scikit-learn sorts the values first: unorderable ones, TypeError
            np.unique(y)
        except TypeError as exc:
            raise TypeError(
                f"{name} holds values that cannot be ordered together (such as "
                f"None, numbers and strings mixed: {exc}); accepted: {_ACCEPTED}."
            ) from None
    raise ValueError(message)


def _is_column(y: np.ndarray) -> bool:
    return y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1)


def _kind(y: Any, name: str) -> str:
    """ "1d", "multilabel-indicator" or ``_UNIFORM_INDICATOR`` (a sparse indicator
    storing one nonzero value only); raises for every other target type.

    Numeric arrays, numpy string arrays and object arrays holding only strings
    are classified here (scikit-learn's ``type_of_target`` sorts the values, which
    costs more than the whole count); everything else goes to scikit-learn.
    """
    if _is_fast_numeric(y):
        if _is_column(y):
            _check_float_labels(y, name)
            return "1d"
        if y.ndim == 2 and y.shape[0] > 0 and y.dtype.kind in "biuf":
            if y.dtype.kind == "b" or ((y == 0) | (y == 1)).all():
                return "multilabel-indicator"
    elif isinstance(y, np.ndarray) and _is_column(y):
        # type_of_target calls such arrays "binary" or "multiclass".
        if y.dtype.kind == "U" or _str_objects(y) is not None:
            return "1d"
    elif sp.issparse(y) and _is_fast_indicator(y):
        return _UNIFORM_INDICATOR
    return _sklearn_kind(y, name)


#: What :func:`_kind` says of a sparse indicator storing one nonzero value only.
_UNIFORM_INDICATOR = "multilabel-indicator (one stored value)"


def _str_objects(y: np.ndarray) -> set | None:
    """The set of values of an object array when they are all strings, else None.

    Hashing strings is linear and Python caches their hashes; sorting them (what
    ``np.unique`` does) is what makes object arrays slow.
    """
    if y.dtype != object or y.size == 0:
        return None
    try:
        values = set(y.reshape(-1).tolist())
    except TypeError:  # unhashable elements: leave them to scikit-learn
        return None
    if all(isinstance(v, str) for v in values):
        return values
    return None


def _is_fast_indicator(y: Any) -> bool:
    """A sparse matrix scikit-learn calls "multilabel-indicator", checked in O(nnz).

    scikit-learn's rule: 2 or more columns and every stored value equal to one
    integral number (here also nonzero and finite, else scikit-learn decides).
    """
    if y.ndim != 2 or y.shape[1] < 2 or y.format not in ("csr", "csc", "coo"):
        return False
    data = y.data
    if data.size == 0 or data.dtype.kind not in "biuf":
        return False
    if data.dtype.kind == "b":
        return bool(data.all())  # no temporary: every stored value is True
    first = data[0]
    if first == 0 or not np.isfinite(first) or first != np.trunc(first):
        return False
    return bool((data == first).all())


def _describe(y: Any, name: str) -> str:
    try:
        return type_of_target(y, input_name=name)
    except ValueError:
        return "unknown"


def read_targets(y_true: Any, y_pred: Any) -> Targets:
    """Validate and encode a pair of targets (see :class:`Targets`)."""
    return _read(y_true, (y_pred,), ("y_pred",))[0]


def read_joint_targets(
    y_true: Any, y_preds: Sequence[Any], names: Sequence[str]
) -> list[Targets]:
    """Validate and encode ``y_true`` once, together with several prediction sets.

    One :class:`Targets` per prediction set, as :func:`read_targets` reads the
    pair, with the same checks (errors name the prediction at fault by its
    ``names`` entry, e.g. ``"y_pred_b"``). 1-D targets are encoded once, jointly:
    every pair shares the same ``true`` codes and ``code_labels`` (the labels of
    all the sets), so the codes of one sample can be compared across pairs; the
    counting core drops the labels a pair does not hold, so each pair's counts
    are those of :func:`read_targets` (the dtype of the labels may be the common
    dtype of all the sets, e.g. float64 for int and float predictions).
    """
    return _read(y_true, y_preds, names)


def _read(y_true: Any, y_preds: Sequence[Any], names: Sequence[str]) -> list[Targets]:
    yt = _to_array(y_true, "y_true")
    yps = [_to_array(y, name) for y, name in zip(y_preds, names, strict=True)]
    n_true = _num_samples(yt)
    for yp, name in zip(yps, names, strict=True):
        n_pred = _num_samples(yp)
        if n_true != n_pred:
            raise ValueError(
                "Found input variables with inconsistent numbers of samples: y_true "
                f"has {n_true} and {name} has {n_pred}; they must be equal."
            )
    if n_true < 1:
        raise ValueError(
            f"Found empty input array (y_true and {' and '.join(names)} have 0 "
            "samples) while a minimum of 1 sample is required."
        )
    kinds = [_kind(yt, "y_true")]
    for yp, name in zip(yps, names, strict=True):
        try:
            kinds.append(_kind(yp, name))
        except (TypeError, ValueError) as exc:  # scikit-learn's may not name it
            if name in str(exc):
                raise
            renamed = naming_prediction(exc, name)
            if renamed is exc:
                raise
            raise renamed from exc
    uniform = [kind == _UNIFORM_INDICATOR for kind in kinds]
    kinds = [
        "multilabel-indicator" if kind == _UNIFORM_INDICATOR else kind for kind in kinds
    ]
    for yp, name, kind in zip(yps, names, kinds[1:], strict=True):
        if kind != kinds[0]:
            raise ValueError(
                "Classification metrics can't handle a mix of "
                f"{_describe(yt, 'y_true')} (y_true) and {_describe(yp, name)} "
                f"({name}) targets; both must be 1-D label arrays or both "
                "multilabel indicator matrices with the same columns."
            )
    if kinds[0] == "multilabel-indicator":
        return _read_multilabel(yt, yps, names, n_true, uniform)
    if len(yps) == 1:
        return [_read_1d(yt, yps[0], n_true)]
    try:
        joint = _read_1d(yt, _joined(yps, names), n_true)
    except (TypeError, ValueError):
        for yp, name in zip(yps, names, strict=True):  # the pair at fault
            try:
                _read_1d(yt, yp, n_true)
            except (TypeError, ValueError) as exc:
                raise naming_prediction(exc, name) from exc
        raise
    n = n_true
    return [
        replace(joint, pred=joint.pred[j * n : (j + 1) * n]) for j in range(len(yps))
    ]


def _joined(yps: list[np.ndarray], names: Sequence[str]) -> np.ndarray:
    """Several 1-D prediction sets as one array, without changing a label.

    One dtype: concatenated as such. Numbers of several dtypes: in their common
    dtype, refused (``ValueError``) where it would round an integer label (beyond
    2**53 in float64). Anything else (strings with numbers, objects): as Python
    objects, which the encoding classifies as scikit-learn does.
    """
    columns = [_column(yp) for yp in yps]
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
                and not _exact_float64(column)
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


def naming_prediction(exc: Exception, name: str = "y_pred") -> Exception:
    """``exc`` with a message naming y_true and the prediction ``name`` (same type).

    Messages of this module say ``y_pred``, which becomes ``name``; errors raised
    by scikit-learn's helpers (``unique_labels``, ``type_of_target``, sorting
    mixed objects) do not always name the arguments at fault, and get a prefix.
    """
    message = str(exc)
    if "y_pred" in message:
        if name == "y_pred":
            return exc
        renamed = message.replace("y_pred", name)
    elif "y_true" in message or name in message:
        return exc
    else:
        renamed = (
            f"y_true and {name} cannot be scored together: {message.rstrip('.')}. "
            "Labels must be of one kind (all strings or all numbers, not bytes), "
            "as 1-D arrays or as 0/1 indicator matrices for multilabel targets."
        )
    try:
        return type(exc)(renamed)
    except Exception:  # pragma: no cover - exotic exception signature
        return exc


def _read_multilabel(
    yt: Any,
    yps: list[Any],
    names: Sequence[str],
    n: int,
    uniform: list[bool],
) -> list[Targets]:
    for yp, name in zip(yps, names, strict=True):
        if yt.shape[1] != yp.shape[1]:
            raise ValueError(
                "Multi-label binary indicator input with different numbers of "
                f"labels: y_true has {yt.shape[1]} columns and {name} has "
                f"{yp.shape[1]}."
            )
    for name, y in (("y_true", yt), *zip(names, yps, strict=True)):
        if isinstance(y, np.ndarray) and (
            y.dtype.name not in _SPARSE_DTYPES or not y.dtype.isnative
        ):
            # scikit-learn turns dense indicators into scipy sparse matrices,
            # which refuse these dtypes (non-native byte order, float16...):
            # refused here too, with the reason.
            raise ValueError(
                f"{name} is a multilabel indicator matrix of dtype {y.dtype.str!r}, "
                "which scikit-learn refuses (scipy.sparse does not support it); "
                "convert it with y.astype(bool) or y.astype(int)."
            )
    # Nonzero means "label set", as in scikit-learn's count_nonzero.
    true = _indicator(yt, uniform[0])
    true_csr = None
    out = []
    for yp, flat in zip(yps, uniform[1:], strict=True):
        pred, pair_true = _indicator(yp, flat), true
        if sp.issparse(pair_true) != sp.issparse(pred):
            if true_csr is None:
                true_csr = sp.csr_matrix(true)
            pair_true, pred = true_csr, sp.csr_matrix(pred)
        out.append(
            Targets("multilabel-indicator", pair_true, pred, np.arange(yt.shape[1]), n)
        )
    return out


#: Dense indicator dtypes scipy.sparse accepts (in native byte order only).
_SPARSE_DTYPES = frozenset(
    "bool int8 uint8 int16 uint16 int32 uint32 int64 uint64 longlong ulonglong "
    "float32 float64 longdouble".split()
)


def _indicator(y: Any, uniform: bool) -> Any:
    """The labels of an indicator matrix: bool array, or CSR matrix whose stored
    entries are exactly the labels (their values may be any nonzero number: the
    counting core reads only the structure, or converts with :func:`as_bool`).

    ``uniform``: :func:`_kind` saw one nonzero stored value only, so there is no
    stored zero to drop (else scikit-learn's rule allows stored zeros too).
    """
    if sp.issparse(y):
        if y.format == "csr" and (y.data.size == 0 or uniform):
            return y
        y = sp.csr_matrix(y, copy=True)
        y.eliminate_zeros()
        y.data = np.ones_like(y.data, dtype=bool)
        return y
    y = np.ascontiguousarray(y)
    return y if y.dtype == bool else y != 0


def as_bool(y: sp.csr_matrix) -> sp.csr_matrix:
    """A CSR indicator from :func:`_indicator` with bool values (same structure)."""
    if y.dtype == bool:
        return y
    data = np.ones(y.data.shape[0], dtype=bool)
    return sp.csr_matrix((data, y.indices, y.indptr), shape=y.shape)


def _column(y: np.ndarray) -> np.ndarray:
    return y.reshape(-1) if y.ndim == 2 else y


def _read_1d(yt: Any, yp: Any, n: int) -> Targets:
    if _is_fast_numeric(yt) and _is_fast_numeric(yp):
        return _read_numeric(_column(yt), _column(yp), n)
    if isinstance(yt, np.ndarray) and isinstance(yp, np.ndarray):
        if yt.dtype.kind == "U" and yp.dtype.kind == "U":
            yt, yp = _column(yt), _column(yp)
            encoded = _encode_by_key(yt, yp, n)
            return encoded if encoded is not None else _encode_sorted(yt, yp, n)
        values_t, values_p = _str_objects(yt), _str_objects(yp)
        if values_t is not None and values_p is not None:
            return _encode_objects(_column(yt), _column(yp), values_t | values_p, n)
    classes = unique_labels(yt, yp)  # raises on a mix of strings and numbers
    yt = np.asarray(yt).reshape(-1)
    yp = np.asarray(yp).reshape(-1)
    codes_t, codes_p = _locate(classes, yt), _locate(classes, yp)
    if codes_t is None or codes_p is None:
        shown = classes[:10].tolist()
        raise ValueError(
            "y_true and y_pred hold labels that cannot be ordered consistently "
            "(for example NaT, or strings ending in NUL characters, which numpy "
            f"string arrays drop); classes found ({classes.shape[0]}, first 10): "
            f"{shown!r}. Accepted: {_ACCEPTED}."
        )
    return Targets("1d", codes_t, codes_p, classes, n, in_range=True)


def _locate(classes: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """The index of each label of ``y`` in ``classes``, checked (None when a label
    is not found where the sort puts it: labels that do not sort consistently
    would otherwise get the index of another class, or one past the last)."""
    codes = np.searchsorted(classes, y)
    if classes.shape[0] == 0 or codes.max(initial=0) >= classes.shape[0]:
        return None
    return codes if bool(np.all(classes[codes] == y)) else None


def _encode_objects(yt: np.ndarray, yp: np.ndarray, values: set, n: int) -> Targets:
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


def _encode_by_key(yt: np.ndarray, yp: np.ndarray, n: int) -> Targets | None:
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


def _encode_sorted(yt: np.ndarray, yp: np.ndarray, n: int) -> Targets:
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
    if all(_exact_float64(y) for y in ints if y.dtype.kind != "b"):
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


def _label_dtype(
    dtype_t: np.dtype, dtype_p: np.dtype, codes_t: Any, codes_p: Any, k: int
) -> np.dtype:
    """The dtype of the class labels, as scikit-learn's ``unique_labels`` makes it.

    scikit-learn collects the labels of y_true, then those of y_pred, in one Python
    set: a label of y_pred equal to one of y_true (``1.0 == True``) is not added.
    So the labels have y_true's dtype when y_pred adds no label, else the common
    dtype (bool y_true with 0.0/1.0 predictions reports ``'False'``, ``'True'``).
    """
    common = np.result_type(dtype_t, dtype_p)
    if common == dtype_t or (dtype_t.kind in "iu" and common.kind in "iu"):
        return common  # (integers of two widths print alike: no check)
    seen = np.zeros(k, dtype=bool)
    seen[codes_t] = True  # bounds-checked numpy indexing
    return common if not seen[codes_p].all() else dtype_t


def _read_numeric(yt: np.ndarray, yp: np.ndarray, n: int) -> Targets:
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
            # Small non-negative integers are their own codes: no shifted copies
            # (codes below the smallest label are absent classes, dropped later).
            # uint64 plus a signed integer promotes to float64: count on a
            # signed view (the values are small).
            if yt.dtype.kind == "u" and yt.dtype.itemsize == 8:
                yt = yt.view(np.int64)
            if yp.dtype.kind == "u" and yp.dtype.itemsize == 8:
                yp = yp.view(np.int64)
            shown = _label_dtype(dtype_t, dtype_p, yt, yp, hi + 1)
            code_labels = np.arange(hi + 1, dtype=np.int64).astype(shown)
            return Targets("1d", yt, yp, code_labels, n, in_range=True)
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
            if yt.dtype.kind == "f":
                code_labels = np.arange(span, dtype=np.float64) + float(lo)
            elif yt.dtype == np.uint64:
                code_labels = np.arange(span, dtype=np.uint64) + np.uint64(int(lo))
            else:
                code_labels = np.arange(span, dtype=np.int64) + int(lo)
            shown = _label_dtype(dtype_t, dtype_p, codes[0], codes[1], span)
            code_labels = code_labels.astype(shown)
            return Targets("1d", codes[0], codes[1], code_labels, n, in_range=True)
    if yt.dtype != yp.dtype:  # both integers of different dtypes: exact common one
        common = np.result_type(yt.dtype, yp.dtype)
        yt, yp = yt.astype(common, copy=False), yp.astype(common, copy=False)
    encoded = _encode_sorted(yt, yp, n)
    k = encoded.code_labels.shape[0]
    shown = _label_dtype(dtype_t, dtype_p, encoded.true, encoded.pred, k)
    encoded.code_labels = encoded.code_labels.astype(shown)
    return encoded
