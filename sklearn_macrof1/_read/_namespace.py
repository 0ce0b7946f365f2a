"""Array namespaces: which values are device arrays (array-API arrays other
than NumPy's), their namespace and device, and moving values between them.

What the reading of device arrays and the streams' batch preparation share;
nothing here reads a sample. The optional package ``array-api-compat`` (the
``[array-api]`` extra) gives each array its namespace; it is imported only
when a device array is met.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._extras import missing
from .._options import host_copy

#: Libraries whose arrays another source counts (or that are read in memory).
_OTHER_SOURCES = frozenset({"dask", "dask_expr", "pyspark", "scipy", "sparse"})


# ---------------------------------------------------------------- recognition


def is_device_array_type(cls: type) -> bool:
    """An array-API array type that is not NumPy's (checked without importing
    its library): it has ``__array_namespace__``, or is a PyTorch tensor."""
    if issubclass(cls, np.ndarray | np.generic):
        return False
    if cls.__module__.split(".")[0] in _OTHER_SOURCES:
        return False  # Dask collections have a namespace, and their own source
    if hasattr(cls, "__array_namespace__"):
        return True
    return any(
        base.__name__ == "Tensor" and base.__module__.split(".")[0] == "torch"
        for base in cls.__mro__
    )


def is_device_array(value: Any) -> bool:
    """True for an array-API array that is not a NumPy array."""
    return is_device_array_type(type(value))


def compat_module() -> Any:
    try:
        import array_api_compat
    except ImportError as exc:  # pragma: no cover - the [array-api] extra
        raise missing(
            "array_api_compat",
            "Counting arrays on their device (PyTorch tensors on a GPU, CuPy, JAX "
            "or array-api-strict arrays) needs array-api-compat, which gives each "
            "array its namespace (NumPy arrays and PyTorch CPU tensors need no "
            "extra package)",
        ) from exc
    return array_api_compat


def namespace_of(value: Any) -> tuple[Any, Any]:
    """``(xp, device)`` of one array-API array (the compatible namespace)."""
    compat = compat_module()
    return compat.array_namespace(value), compat.device(value)


def detached(value: Any) -> Any:
    """A tensor that requires grad, detached (scores are not differentiable)."""
    if getattr(value, "requires_grad", False) and hasattr(value, "detach"):
        return value.detach()
    return value


def to_host(value: Any) -> np.ndarray:
    """A NumPy array of ``value``: a view of a CPU array, a copy from another
    device. Device arrays pass here only for what crosses to the host (the
    count record's O(k) numbers and occupied cells), or when the caller asked
    for NumPy (``y_pred`` a NumPy array, or no ``array_api_dispatch``)."""
    value = detached(value)
    if not is_device_array(value):
        return np.asarray(value)
    return np.asarray(host_copy(value))


def on_device(value: Any, xp: Any, device: Any) -> Any:
    """``value`` as an array of ``xp`` (NumPy included) on ``device``."""
    if xp is np:
        return to_host(value) if is_device_array(value) else np.asarray(value)
    return moved_to(value, xp, device)


def moved_to(value: Any, xp: Any, device: Any, like: Any = None) -> Any:
    """``value`` (None, a list, a NumPy array or an array of any namespace) as
    an array of ``xp`` on ``device``; an array of ``like``'s type is of ``xp``
    (its namespace is not looked up again)."""
    if value is None:
        return None
    value = detached(value)
    same = type(value) is type(like)
    if same or is_device_array(value):
        compat = compat_module()
        if same or compat.array_namespace(value) is xp:
            if compat.device(value) == device:
                return value
            return compat.to_device(value, device)
        value = to_host(value)
    host = np.asarray(value)
    if host.dtype.kind not in "biuf":
        raise TypeError(
            f"labels of dtype {host.dtype} cannot be moved to the namespace "
            f"{xp.__name__} of y_pred; with array_api_dispatch=True the labels "
            "of device arrays are numbers or bools."
        )
    return xp.asarray(host, device=device)


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


__all__ = [
    "bincount",
    "compat_module",
    "detached",
    "is_device_array",
    "is_device_array_type",
    "moved_to",
    "namespace_of",
    "on_device",
    "to_host",
]
