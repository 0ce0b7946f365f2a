"""Streaming evaluation: each batch counted into a count record, records merged.

Every score of the package is a function of additive counts, so a stream of
batches (or the chunks of a Dask array, see
:mod:`~sklearn_macrof1._sources._dask`) can be counted piece by piece
into :class:`~sklearn_macrof1.MacroF1Counts` records that merge exactly
(:meth:`~sklearn_macrof1.MacroF1Counts.merge`): per-class counts aligned by label
over the union of the classes seen and, for ``average="samples"``, a histogram of
the per-sample ``(tp, true, pred)`` triples, whose size is bounded by the number of
distinct triples, not by the number of samples.

:func:`count_batch` counts one batch with the counting core; the public
:class:`~sklearn_macrof1.MacroF1Accumulator` merges them and scores the result.
"""

from __future__ import annotations

from typing import Any

from .._counting._record import MacroF1Counts, prepare


def _n_rows(y: Any) -> int | None:
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) > 0:
        return shape[0]
    try:
        return len(y)
    except TypeError:
        return None


def count_batch(
    y_true: Any,
    y_pred: Any,
    sample_weight: Any = None,
    *,
    columns: Any = None,
    samplewise: bool = True,
    moments: bool = False,
    caller: str,
) -> MacroF1Counts | None:
    """The count record of one in-memory batch (None for an empty batch).

    ``columns`` are the multilabel columns of the per-sample counts (the
    ``labels`` of a one-shot call; ignored for 1-D targets). The per-sample counts
    come as a histogram (:meth:`~sklearn_macrof1.MacroF1Counts.compact`).
    A batch is a part of the stream: its weights may all be zero (its record
    says so; only the whole stream must have a non-zero weight, as one call).
    ``moments`` adds the second moments of a delta-method interval to the
    record.
    """
    if _n_rows(y_true) == 0 and _n_rows(y_pred) == 0:
        return None
    return prepare(
        y_true,
        y_pred,
        sample_weight=sample_weight,
        labels=columns,
        samplewise=samplewise,
        moments=moments,
        targets_kept=False,  # only the record leaves: it needs every moment
        part=True,
        caller=caller,
    ).compact()


__all__ = ["count_batch"]
