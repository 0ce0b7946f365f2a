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
from dataclasses import replace
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import unique_labels

from ._arrays import ACCEPTED, as_column, num_samples, to_array
from ._encoding import (
    Targets,
    encode_by_key,
    encode_objects,
    encode_sorted,
    joined,
    locate,
    read_numeric,
)
from ._target_type import (
    UNIFORM_INDICATOR,
    check_finite_labels,
    check_float_labels,
    continuous_error,
    describe,
    is_fast_numeric,
    multioutput_error,
    str_objects,
    target_kind,
    unscorable_error,
)


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
    yt = to_array(y_true, "y_true")
    yps = [to_array(y, name) for y, name in zip(y_preds, names, strict=True)]
    n_true = num_samples(yt)
    for yp, name in zip(yps, names, strict=True):
        _check_lengths(n_true, num_samples(yp), name)
    if n_true < 1:
        raise ValueError(
            f"Found empty input array (y_true and {' and '.join(names)} have 0 "
            "samples) while a minimum of 1 sample is required."
        )
    kinds = [target_kind(yt, "y_true")]
    true_kind = "1d" if kinds[0] == "1d" else "multilabel-indicator"
    for yp, name in zip(yps, names, strict=True):
        try:
            kinds.append(target_kind(yp, name, true_kind))
        except (TypeError, ValueError) as exc:  # scikit-learn's may not name it
            if name in str(exc):
                raise
            renamed = naming_prediction(exc, name)
            if renamed is exc:
                raise
            raise renamed from exc
    uniform = [kind == UNIFORM_INDICATOR for kind in kinds]
    kinds = [
        "multilabel-indicator" if kind == UNIFORM_INDICATOR else kind for kind in kinds
    ]
    for yp, name, kind in zip(yps, names, kinds[1:], strict=True):
        if kind != kinds[0]:
            raise _mix_error(describe(yt, "y_true"), describe(yp, name), name)
    if kinds[0] == "multilabel-indicator":
        return _read_multilabel(yt, yps, names, n_true, uniform)
    if len(yps) == 1:
        return [_read_1d(yt, yps[0], n_true)]
    try:
        joint = _read_1d(yt, joined(yps, names), n_true)
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


def _check_lengths(n_true: int, n_pred: int, name: str) -> None:
    if n_true != n_pred:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: y_true "
            f"has {n_true} and {name} has {n_pred}; they must be equal."
        )


def _mix_error(true_kind: str, kind: str, name: str) -> ValueError:
    return ValueError(
        f"Classification metrics can't handle a mix of {true_kind} (y_true) and "
        f"{kind} ({name}) targets; both must be 1-D label arrays or both "
        "multilabel indicator matrices with the same columns."
    )


def _check_columns(n_true: int, n_pred: int, name: str) -> None:
    if n_true != n_pred:
        raise ValueError(
            "Multi-label binary indicator input with different numbers of "
            f"labels: y_true has {n_true} columns and {name} has {n_pred}."
        )


def read_device_targets(xp: Any, arrays: Sequence[Any], names: Sequence[str]) -> list:
    """The checks of :func:`read_targets` made where the targets are: arrays
    of the namespace ``xp`` on a device (``y_true`` first, then each
    prediction set, of at least one sample), with the same messages, in the
    same order; a column becomes a vector. Nothing but a few reductions is
    read back. Returns the arrays, still on their device.

    As scikit-learn's ``type_of_target`` needs every value sorted, the
    kinds of device targets are told by their dtype and shape: a 1-D array
    (or column) of numbers or bools is 1-D labels, a 2-D array of 0/1 values
    a multilabel indicator matrix; the mix of the two names the 1-D kind
    "1-D label"."""
    first, *others = arrays
    for y, name in zip(others, names[1:], strict=True):
        _check_lengths(int(first.shape[0]), int(y.shape[0]), name)
    out: list[Any] = []
    true_kind = None
    for y, name in zip(arrays, names, strict=True):
        y = _device_target(xp, y, name, true_kind)
        if not out:
            true_kind = "1d" if y.ndim == 1 else "multilabel-indicator"
        elif (y.ndim == 2) != (out[0].ndim == 2):
            raise _mix_error(_kind_name(out[0]), _kind_name(y), name)
        out.append(y)
    for y, name in zip(out[1:], names[1:], strict=True):
        if y.ndim == 2:
            _check_columns(int(out[0].shape[1]), int(y.shape[1]), name)
    return out


def _kind_name(y: Any) -> str:
    return "multilabel-indicator" if y.ndim == 2 else "1-D label"


def _device_target(xp: Any, y: Any, name: str, true_kind: str | None) -> Any:
    """One device target checked as :func:`target_kind` checks a NumPy one."""
    if y.ndim == 2 and y.shape[1] == 1:
        y = xp.reshape(y, (-1,))
    if y.ndim not in (1, 2):
        raise unscorable_error(name, "unknown")
    if not xp.isdtype(y.dtype, ("bool", "integral", "real floating")):
        raise ValueError(
            f"{name} holds values of dtype {y.dtype}; accepted: {ACCEPTED}."
        )
    if y.ndim == 1:
        check_float_labels(y, name, true_kind, xp)
        return y
    if xp.isdtype(y.dtype, "real floating"):
        check_finite_labels(y, name, xp)
        if not bool(xp.all(y == xp.trunc(y))):
            raise continuous_error(
                name, "continuous-multioutput", int(y.shape[1]), true_kind
            )
    if not xp.isdtype(y.dtype, "bool") and not bool(xp.all((y == 0) | (y == 1))):
        raise multioutput_error(name)
    return y


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
        _check_columns(int(yt.shape[1]), int(yp.shape[1]), name)
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

    ``uniform``: :func:`target_kind` saw one nonzero stored value only, so there is no
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


def _read_1d(yt: Any, yp: Any, n: int) -> Targets:
    if is_fast_numeric(yt) and is_fast_numeric(yp):
        return read_numeric(as_column(yt), as_column(yp), n)
    if isinstance(yt, np.ndarray) and isinstance(yp, np.ndarray):
        if yt.dtype.kind == "U" and yp.dtype.kind == "U":
            yt, yp = as_column(yt), as_column(yp)
            encoded = encode_by_key(yt, yp, n)
            return encoded if encoded is not None else encode_sorted(yt, yp, n)
        values_t, values_p = str_objects(yt), str_objects(yp)
        if values_t is not None and values_p is not None:
            return encode_objects(as_column(yt), as_column(yp), values_t | values_p, n)
    classes = unique_labels(yt, yp)  # raises on a mix of strings and numbers
    yt = np.asarray(yt).reshape(-1)
    yp = np.asarray(yp).reshape(-1)
    codes_t, codes_p = locate(classes, yt), locate(classes, yp)
    if codes_t is None or codes_p is None:
        shown = classes[:10].tolist()
        raise ValueError(
            "y_true and y_pred hold labels that cannot be ordered consistently "
            "(for example NaT, or strings ending in NUL characters, which numpy "
            f"string arrays drop); classes found ({classes.shape[0]}, first 10): "
            f"{shown!r}. Accepted: {ACCEPTED}."
        )
    return Targets("1d", codes_t, codes_p, classes, n, in_range=True)
