"""Test helpers: call scikit-learn (the reference) and our functions side by side.

Every helper records the outcome of a call as ``("ok", value, warnings)`` or
``("raise", exception_type, message)`` so that tests can compare behaviour,
warnings and exceptions at once.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import fbeta_score, precision_score, recall_score

#: Warning categories whose presence must match scikit-learn's exactly.
COMPARED_WARNINGS = (UndefinedMetricWarning, UserWarning, RuntimeWarning)


def _rejects_all_zero_weights() -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fbeta_score([0, 1], [0, 1], beta=1, sample_weight=[0, 0])
        except ValueError:
            return True
    return False


#: Recent scikit-learn refuses all-zero sample weights (ValueError), older
#: releases scored them; this package follows the recent behaviour.
SKLEARN_REJECTS_ALL_ZERO_WEIGHTS = _rejects_all_zero_weights()


def all_zero_weights(kwargs: dict) -> bool:
    weights = kwargs.get("sample_weight")
    if weights is None or np.ndim(weights) != 1 or len(weights) == 0:
        return False
    try:
        return not np.asarray(weights, dtype=float).any()
    except (TypeError, ValueError):
        return False


def expected(reference: tuple, kwargs: dict) -> tuple:
    """The outcome we promise: scikit-learn's, but all-zero weights are refused."""
    if (
        reference[0] == "ok"
        and not SKLEARN_REJECTS_ALL_ZERO_WEIGHTS
        and all_zero_weights(kwargs)
    ):
        return ("raise", ValueError, "all-zero sample_weight")
    return reference


def outcome(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple:
    """Run ``func`` and record its value and warnings, or its exception."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = func(*args, **kwargs)
        except Exception as exc:
            return ("raise", type(exc), str(exc))
    categories = {w.category for w in caught if w.category in COMPARED_WARNINGS}
    return ("ok", value, categories)


def fbeta_of(precision: Any, recall: Any, beta: float) -> Any:
    """The F-beta of averages, written out independently of the package."""
    p = np.asarray(precision, dtype=float)
    r = np.asarray(recall, dtype=float)
    out = np.empty(np.broadcast(p, r).shape)
    for idx in np.ndindex(out.shape):
        pi, ri = float(p[idx]), float(r[idx])
        # beta = 0 is precision and beta = inf recall whatever the other is,
        # as for sklearn.metrics.fbeta_score.
        if beta == 0:
            out[idx] = pi
        elif math.isinf(beta):
            out[idx] = ri
        elif math.isnan(pi) or math.isnan(ri):
            out[idx] = math.nan
        elif pi == 0 and ri == 0:
            out[idx] = 0.0
        else:
            b2 = beta * beta
            out[idx] = (1 + b2) * pi * ri / (b2 * pi + ri)
    return float(out) if out.ndim == 0 else out


def reference_fbeta_of_averages(
    y_true: Any, y_pred: Any, *, beta: float, **kw: Any
) -> tuple:
    """Outcome of F-beta of ``precision_score`` and ``recall_score`` (same args).

    The warnings are those of both calls together.
    """
    p = outcome(precision_score, y_true, y_pred, **kw)
    if p[0] == "raise":
        return p
    r = outcome(recall_score, y_true, y_pred, **kw)
    if r[0] == "raise":
        return r
    return ("ok", fbeta_of(p[1], r[1], beta), p[2] | r[2])


def assert_same_value(ours: Any, theirs: Any, *, atol: float = 1e-12) -> None:
    """Equal within ``atol``, nan exactly where the reference is nan."""
    a = np.asarray(ours, dtype=float)
    b = np.asarray(theirs, dtype=float)
    assert a.shape == b.shape, (ours, theirs)
    assert np.array_equal(np.isnan(a), np.isnan(b)), (ours, theirs)
    ok = ~np.isnan(b)
    assert np.all(np.abs(a[ok] - b[ok]) <= atol), (ours, theirs)
    if np.ndim(theirs) == 0:
        assert np.ndim(ours) == 0, (ours, theirs)


def public_type(exc_type: type) -> type:
    """The exception type a user catches: numpy's internal subclasses (such as
    ``UFuncTypeError``) count as their builtin base (``TypeError``)."""
    for cls in exc_type.__mro__:
        if cls.__module__ == "builtins" or cls.__module__.startswith("sklearn"):
            return cls
    return exc_type  # pragma: no cover


def assert_same_outcome(ours: tuple, theirs: tuple, *, atol: float = 1e-12) -> None:
    """Same value and warning categories, or the same exception type."""
    if theirs[0] == "raise":
        assert ours[0] == "raise", (
            f"scikit-learn raised {theirs[1].__name__}({theirs[2]!r}) but we "
            f"returned {ours[1]!r}"
        )
        assert issubclass(ours[1], public_type(theirs[1])), (
            f"we raised {ours[1].__name__}({ours[2]!r}), scikit-learn "
            f"{theirs[1].__name__}({theirs[2]!r})"
        )
        return
    assert ours[0] == "ok", (
        f"we raised {ours[1].__name__}({ours[2]!r}); "
        f"scikit-learn returned {theirs[1]!r}"
    )
    assert_same_value(ours[1], theirs[1], atol=atol)
    assert ours[2] == theirs[2], f"warnings: ours {ours[2]}, scikit-learn {theirs[2]}"
