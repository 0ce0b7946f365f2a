"""Dask support: count each chunk where it lives, merge the small counts.

``y_true`` and ``y_pred`` (and ``sample_weight``) may be Dask arrays or Dask
Series / DataFrames. They are aligned chunk by chunk (``y_pred`` is rechunked to
``y_true``'s row chunks), each pair of chunks is counted on a worker by the
counting core (:func:`~sklearn_macrof1._integrations._streaming.count_batch`), and
the per-chunk count records are merged in a tree on the workers; only the final
record (a few small arrays) reaches the calling process. The label arrays are
never gathered.

Dask is an optional dependency (the ``[dask]`` extra): this module imports it
only when it is handed a Dask collection, which :func:`is_dask_collection`
recognises without importing Dask.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core._evaluation import register_foreign_counter
from .._core._record import Counts, merge_counts
from ._streaming import count_batch


def is_dask_collection(value: Any) -> bool:
    """True for Dask arrays, Series, DataFrames (checked without importing Dask)."""
    module = type(value).__module__
    return module.split(".", 1)[0] in ("dask", "dask_expr")


def _as_dask_array(value: Any, name: str) -> Any:
    """A Dask array for a Dask array, Series or DataFrame."""
    if hasattr(value, "to_dask_array"):  # Dask Series / DataFrame
        return value.to_dask_array(lengths=True)
    if hasattr(value, "chunks") and hasattr(value, "to_delayed"):
        if any(math.isnan(c) for c in value.chunks[0]):
            value = value.compute_chunk_sizes()
        return value
    raise TypeError(
        f"{name} is a Dask collection of type {type(value).__name__}; accepted are "
        "Dask arrays, Series and DataFrames."
    )


def _from_local(value: Any, rows: tuple[int, ...], name: str) -> Any:
    """A local array-like cut into the given row chunks (shipped to the workers)."""
    import dask.array as da

    from .._core._targets import _to_array

    array = _to_array(value, name)
    if array.ndim == 0 or array.shape[0] != sum(rows):
        return array  # the per-chunk check cannot run: let the caller report it
    chunks = (rows,) + tuple((n,) for n in array.shape[1:])
    return da.from_array(array, chunks=chunks)


def _rows(value: Any) -> int:
    return int(value.shape[0]) if value.ndim else 0


def _aligned(value: Any, rows: tuple[int, ...]) -> Any:
    chunks = (rows,) + tuple((n,) for n in value.shape[1:])
    return value if value.chunks == chunks else value.rechunk(chunks)


def _check_lengths(y_true: Any, y_pred: Any, weights: Any) -> None:
    n_true, n_pred = _rows(y_true), _rows(y_pred)
    if n_true != n_pred:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: y_true has "
            f"{n_true} and y_pred has {n_pred}; they must be equal."
        )
    if weights is not None and getattr(weights, "ndim", 0) >= 1:
        if weights.ndim != 1 or weights.shape[0] != n_true:
            raise ValueError(
                f"sample_weight has shape {weights.shape} but y_true and y_pred "
                f"have {n_true} samples; give one weight per sample."
            )


def _blocks(value: Any) -> list[Any]:
    return list(np.ravel(value.to_delayed()))


def counts_from_dask(
    y_true: Any,
    y_pred: Any,
    sample_weight: Any = None,
    *,
    columns: Any = None,
    samplewise: bool = True,
    moments: bool = False,
    caller: str,
) -> Counts | None:
    """Count aligned chunks on the workers and merge the records (None if empty).

    As :func:`~sklearn_macrof1._integrations._streaming.count_batch`, a record
    whose weights are all zero is returned as such. ``moments``: each chunk's
    record also carries the second moments of a delta-method interval (summed
    by the merges, on the workers).
    """
    import dask

    yt = _as_dask_array(y_true, "y_true") if is_dask_collection(y_true) else None
    yp = _as_dask_array(y_pred, "y_pred") if is_dask_collection(y_pred) else None
    if yt is None and yp is None:  # only the weights live on the cluster
        yt = _from_local(y_true, (_rows(np.asarray(y_true)),), "y_true")
    if yt is None:
        assert yp is not None
        yt = _from_local(y_true, yp.chunks[0], "y_true")
    rows = yt.chunks[0]
    yt = _aligned(yt, rows)
    yp = _from_local(y_pred, rows, "y_pred") if yp is None else yp
    weights = sample_weight
    if is_dask_collection(weights):
        weights = _as_dask_array(weights, "sample_weight")
    elif weights is not None and not np.isscalar(weights):
        weights = _from_local(np.asarray(weights), rows, "sample_weight")
    if not is_dask_collection(yp):  # a local array of the wrong length
        _check_lengths(yt, np.asarray(yp), None)
    _check_lengths(yt, yp, weights)
    yp = _aligned(yp, rows)
    true_blocks, pred_blocks = _blocks(yt), _blocks(yp)
    if is_dask_collection(weights):
        weight_blocks = _blocks(_aligned(weights, rows))
    else:
        weight_blocks = [weights] * len(true_blocks)
    count = dask.delayed(count_batch, pure=True)
    parts = [
        count(
            t,
            p,
            w,
            columns=columns,
            samplewise=samplewise,
            moments=moments,
            caller=caller,
        )  # fmt: skip
        for t, p, w in zip(true_blocks, pred_blocks, weight_blocks, strict=True)
    ]
    merge = dask.delayed(merge_counts, pure=True)
    while len(parts) > 1:  # a tree of merges, run on the workers
        pairs = [merge(a, b) for a, b in zip(parts[::2], parts[1::2], strict=False)]
        parts = pairs + ([parts[-1]] if len(parts) % 2 else [])
    if not parts:
        return None
    (counts,) = dask.compute(parts[0])
    return counts


def count_dask(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
    moments: bool = False,
    caller: str = "this function",
) -> Counts:
    """:func:`~sklearn_macrof1._core._evaluation.prepare` for Dask collections."""
    counts = counts_from_dask(
        y_true,
        y_pred,
        sample_weight,
        columns=labels if samplewise else None,
        samplewise=samplewise,
        moments=moments,
        caller=caller,
    )
    if counts is None:
        raise ValueError(
            "Found empty input array (y_true and y_pred have 0 samples) while a "
            "minimum of 1 sample is required."
        )
    return counts.check_weights()


register_foreign_counter(is_dask_collection, count_dask)

__all__ = ["count_dask", "counts_from_dask", "is_dask_collection"]
