"""Dask support: count each chunk where it lives, merge the small counts.

``y_true`` and ``y_pred`` (and ``sample_weight``) may be Dask arrays or Dask
Series / DataFrames. They are aligned chunk by chunk (``y_pred`` is rechunked to
``y_true``'s row chunks), each pair of chunks is counted on a worker by the
counting core (:func:`~sklearn_macrof1._sources._stream.count_batch`), and
the per-chunk count records are merged in a tree on the workers; only the final
record (a few small arrays) reaches the calling process. The label arrays are
never gathered.

Dask is an optional dependency (the ``[dask]`` extra): this module imports it
only when it is handed a Dask collection, which :func:`is_dask_collection`
recognises without importing Dask.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from .._counting._pairs import JointReading, merge_joint_readings
from .._counting._record import MacroF1Counts, Reading, merge_counts
from .._counting._registry import (
    CountRequest,
    JointPredictions,
    Predictions,
    Stream,
    register_source,
)
from .._formulas._evaluation import read_jointly
from .._options import check_weight_shape
from ._stream import count_batch


def is_dask_collection(value: Any) -> bool:
    """True for Dask arrays, Series, DataFrames (checked without importing Dask)."""
    return _DASK.claims(type(value))


_DASK_MODULES = ("dask.", "dask_expr.")


def _as_dask_array(value: Any, name: str) -> Any:
    """A Dask array for a Dask array, Series or DataFrame."""
    if hasattr(value, "to_dask_array"):  # Dask Series / DataFrame
        return value.to_dask_array(lengths=True)
    if hasattr(value, "chunks") and hasattr(value, "to_delayed"):
        if value.ndim and any(math.isnan(c) for c in value.chunks[0]):
            value = value.compute_chunk_sizes()
        return value
    raise TypeError(
        f"{name} is a Dask collection of type {type(value).__name__}; accepted are "
        "Dask arrays, Series and DataFrames."
    )


def _from_local(value: Any, rows: tuple[int, ...], name: str) -> Any:
    """A local array-like cut into the given row chunks (shipped to the workers)."""
    import dask.array as da

    from .._read._arrays import to_array

    array = to_array(value, name)
    if array.ndim == 0 or array.shape[0] != sum(rows):
        return array  # the per-chunk check cannot run: let the caller report it
    chunks = (rows,) + tuple((n,) for n in array.shape[1:])
    return da.from_array(array, chunks=chunks)


def _rows(value: Any) -> int:
    return int(value.shape[0]) if value.ndim else 0


def _aligned(value: Any, rows: tuple[int, ...]) -> Any:
    chunks = (rows,) + tuple((n,) for n in value.shape[1:])
    return value if value.chunks == chunks else value.rechunk(chunks)


def _check_lengths(
    y_true: Any, y_pred: Any, weights: Any, *, name: str = "y_pred"
) -> None:
    n_true, n_pred = _rows(y_true), _rows(y_pred)
    if n_true != n_pred:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: y_true has "
            f"{n_true} and {name} has {n_pred}; they must be equal."
        )
    if weights is not None:  # an array: a scalar was refused with the arguments
        check_weight_shape(np.shape(weights), n_true, inputs=f"y_true and {name}")


def _blocks(value: Any) -> list[Any]:
    return list(np.ravel(value.to_delayed()))


def _chunked(
    values: list[Any], names: list[str], sample_weight: Any
) -> tuple[list[list[Any]], list[Any]]:
    """The blocks of each of ``values`` (``y_true`` first) and of the weights,
    cut into the row chunks of the first Dask collection among the values (one
    chunk when only the weights live on the cluster); lengths checked. Local
    weights (None, scalars) are the same value for each block."""
    # the first Dask collection sets the row chunks (found by identity: ``==``
    # would compare a local array with it elementwise)
    first = next((i for i, v in enumerate(values) if is_dask_collection(v)), None)
    if first is None:
        from .._read._arrays import to_array

        local_true = to_array(values[0], names[0])
        rows: tuple[int, ...] = (_rows(local_true),)
        reference, reference_name = local_true, names[0]
    else:
        reference = _as_dask_array(values[first], names[first])
        rows, reference_name = reference.chunks[0], names[first]
    arrays = []
    for i, (name, value) in enumerate(zip(names, values, strict=True)):
        if is_dask_collection(value):
            # converted once: a Series' conversion computes its partition lengths
            arrays.append(reference if i == first else _as_dask_array(value, name))
            continue
        local = _from_local(value, rows, name)
        if not is_dask_collection(local):  # the wrong length
            if arrays:
                _check_lengths(arrays[0], local, None, name=name)
            else:
                _check_lengths(local, reference, None, name=reference_name)
        arrays.append(local)
    weights = sample_weight  # a Dask array, or a local one cut like the rows
    if is_dask_collection(weights):
        weights = _as_dask_array(weights, "sample_weight")
    elif weights is not None and not np.isscalar(weights):
        weights = _from_local(np.asarray(weights), rows, "sample_weight")
    for name, array in zip(names[1:], arrays[1:], strict=True):
        _check_lengths(arrays[0], array, weights, name=name)
    blocks = [_blocks(_aligned(array, rows)) for array in arrays]
    if is_dask_collection(weights):
        return blocks, _blocks(_aligned(weights, rows))
    return blocks, [weights] * len(blocks[0])


def _merged_on_workers(parts: list[Any], merge: Any) -> Any:
    """The merge of the delayed records ``parts`` (a tree of merges, run on the
    workers); None when there are none."""
    import dask

    merge = dask.delayed(merge, pure=True)
    while len(parts) > 1:
        pairs = [merge(a, b) for a, b in zip(parts[::2], parts[1::2], strict=False)]
        parts = pairs + ([parts[-1]] if len(parts) % 2 else [])
    return dask.compute(parts[0])[0] if parts else None


def _nonempty(record: Any, names: Sequence[str]) -> Any:
    """``record``, unless there was nothing to count (None)."""
    if record is None:
        raise ValueError(
            f"Found empty input array (y_true and {' and '.join(names)} have 0 "
            "samples) while a minimum of 1 sample is required."
        )
    return record


def counts_from_dask(
    y_true: Any,
    y_pred: Any,
    sample_weight: Any = None,
    *,
    columns: Any = None,
    samplewise: bool = True,
    moments: bool = False,
    caller: str,
) -> MacroF1Counts | None:
    """Count aligned chunks on the workers and merge the records (None if empty).

    As :func:`~sklearn_macrof1._sources._stream.count_batch`, a record
    whose weights are all zero is returned as such. ``moments``: each chunk's
    record also carries the second moments of a delta-method interval (summed
    by the merges, on the workers).
    """
    import dask

    (true_blocks, pred_blocks), weight_blocks = _chunked(
        [y_true, y_pred], ["y_true", "y_pred"], sample_weight
    )
    count = dask.delayed(count_batch, pure=True)
    options = dict(columns=columns, samplewise=samplewise, moments=moments)
    parts = [
        count(t, p, w, caller=caller, **options)
        for t, p, w in zip(true_blocks, pred_blocks, weight_blocks, strict=True)
    ]
    return _merged_on_workers(parts, merge_counts)


def count_joint_batch(
    y_true: Any,
    y_preds: list[Any],
    sample_weight: Any = None,
    *,
    names: Sequence[str],
    caller: str,
) -> JointReading | None:
    """The count record of each prediction set and the joint cells of each pair,
    of one in-memory chunk (None when it is empty); all-zero weights are valid
    in a chunk, as in :func:`~._streaming.count_batch`."""
    if int(np.shape(y_true)[0]) == 0:
        return None
    joint = read_jointly(
        y_true, y_preds, names=names, sample_weight=sample_weight, part=True,
        caller=caller,
    )  # fmt: skip
    return joint.counted_elsewhere()


def count_joint_dask(
    y_true: Any,
    y_preds: Sequence[Any],
    *,
    names: Sequence[str],
    sample_weight: Any = None,
    part: bool = False,
    caller: str = "this function",
) -> JointReading:
    """The joint counts of Dask collections: each chunk of ``y_true`` and of
    every prediction set counted on a worker (:func:`count_joint_batch`), the
    records merged in a tree there.

    1-D targets only: a paired comparison of multilabel targets needs each
    sample's per-label contributions, which are not kept (refused before any
    computation).
    """
    import dask

    def indicator(value: Any) -> bool:
        return getattr(value, "ndim", 1) == 2 and value.shape[1] != 1

    kind = {True: "multilabel-indicator", False: "1-D label"}
    for name, value in zip(names, y_preds, strict=True):
        if indicator(value) != indicator(y_true):
            raise ValueError(
                "Classification metrics can't handle a mix of "
                f"{kind[indicator(y_true)]} (y_true) and {kind[indicator(value)]} "
                f"({name}) targets; both must be 1-D label arrays or both "
                "multilabel indicator matrices with the same columns."
            )
    for name, value in (("y_true", y_true), *zip(names, y_preds, strict=True)):
        if indicator(value):
            raise ValueError(
                f"{caller} compares multilabel targets ({name} has "
                f"{value.shape[1]} columns) from each sample's per-label "
                "contributions, which the counts made on the workers do not keep, "
                "and Dask collections are never gathered. Dask collections of 1-D "
                "labels are compared from the joint cells counted on the workers; "
                "compute multilabel arrays yourself (e.g. y.compute()) if they fit "
                "in memory."
            )
    blocks, weight_blocks = _chunked(
        [y_true, *y_preds], ["y_true", *names], sample_weight
    )
    count = dask.delayed(count_joint_batch, pure=True)
    parts = [
        count(t, list(ps), w, names=list(names), caller=caller)
        for t, *ps, w in zip(*blocks, weight_blocks, strict=True)
    ]
    joint = _nonempty(_merged_on_workers(parts, merge_joint_readings), names)
    if not part:
        for reading in joint.readings:
            reading.counts._check_weights()
    return joint


class _Dask:
    """Dask arrays, Series and DataFrames (any of the values): counted chunk
    by chunk on the workers, the records merged there (never gathered)."""

    name = "Dask"

    def claims(self, cls: type) -> bool:
        module = cls.__module__
        return module.startswith(_DASK_MODULES) or module in ("dask", "dask_expr")

    def count(self, data: Predictions, request: CountRequest) -> Reading:
        counts = counts_from_dask(
            data.y_true,
            data.y_pred,
            data.sample_weight,
            columns=request.labels if request.samplewise else None,
            samplewise=request.samplewise,
            moments=request.moments,
            caller=request.caller,
        )
        counts = _nonempty(counts, ["y_pred"])
        if not request.part:
            counts._check_weights()
        if data.sample_weight is not None and not counts.weighted:
            counts = replace(counts, weighted=True)
        return Reading(counts)

    def tally(self, data: Predictions, stream: Stream) -> MacroF1Counts | None:
        """One batch of a stream, counted chunk by chunk on the workers: its
        record (None when empty), with what the stream keeps."""
        counts = counts_from_dask(
            data.y_true,
            data.y_pred,
            data.sample_weight,
            columns=stream.labels,
            moments=stream.keep == "moments",
            caller="MacroF1Accumulator.update",
        )
        if counts is not None and stream.keep == "counts":
            if counts.confusion is not None:
                counts = replace(counts, confusion=None)
        return counts

    def count_jointly(
        self, data: JointPredictions, request: CountRequest
    ) -> JointReading:
        return count_joint_dask(
            data.y_true,
            data.y_preds,
            names=data.names,
            sample_weight=data.sample_weight,
            part=request.part,
            caller=request.caller,
        )


_DASK = _Dask()
register_source(_DASK)

__all__ = [
    "count_joint_batch",
    "count_joint_dask",
    "counts_from_dask",
    "is_dask_collection",
]
