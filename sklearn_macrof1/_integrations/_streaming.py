"""Streaming evaluation: each batch counted into a count record, records merged.

Every score of the package is a function of additive counts, so a stream of
batches (or the chunks of a Dask array, see
:mod:`~sklearn_macrof1._integrations._dask`) can be counted piece by piece
into :class:`~sklearn_macrof1.MacroF1Counts` records that merge exactly
(:meth:`~sklearn_macrof1.MacroF1Counts.merge`): per-class counts aligned by label
over the union of the classes seen and, for ``average="samples"``, a histogram of
the per-sample ``(tp, true, pred)`` triples, whose size is bounded by the number of
distinct triples, not by the number of samples.

:func:`count_batch` counts one batch with the counting core; the public
:class:`~sklearn_macrof1.MacroF1Accumulator` merges them and scores the result.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from .._core._counting import SampleCounts
from .._core._record import MacroF1Counts, prepare


def _n_rows(y: Any) -> int | None:
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) > 0:
        return shape[0]
    try:
        return len(y)
    except TypeError:
        return None


def all_zero(sample_weight: Any, n_samples: int) -> bool:
    """Weights of the right shape that are all zero (valid within a stream)."""
    if sample_weight is None or np.isscalar(sample_weight) or n_samples == 0:
        return False
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return weights.shape == (n_samples,) and not weights.any()


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
    come as a histogram (:meth:`~sklearn_macrof1._core._record.MacroF1Counts.compact`).
    A batch whose weights are all zero is valid (its record says so); only the
    whole stream must have a non-zero weight, as one call. ``moments`` adds the
    second moments of a delta-method interval to the record.
    """
    n_samples = _n_rows(y_true)
    if n_samples == 0 and _n_rows(y_pred) == 0:
        return None
    zero_weights = all_zero(sample_weight, n_samples or 0)
    if zero_weights:  # count with unit weights, then scale the counts by 0
        sample_weight = np.ones(n_samples or 0)
    counts = prepare(
        y_true,
        y_pred,
        sample_weight=sample_weight,
        labels=columns,
        samplewise=samplewise,
        moments=moments,
        targets_kept=False,  # only the record leaves: it needs every moment
        caller=caller,
    ).compact()
    return zero_weight_counts(counts) if zero_weights else counts


def zero_weight_counts(counts: MacroF1Counts) -> MacroF1Counts:
    """The record of a batch whose weights are all zero, from its record
    counted with unit weights: every count scaled by 0, and marked so."""
    samples = None
    if counts.samples is not None:  # every sample's weighted counts are (0, 0, 0)
        zero = np.zeros(1, dtype=np.int64)
        samples = SampleCounts(
            zero, zero, zero, np.zeros(1), np.array([counts.n_samples]), np.zeros(1)
        )
    return replace(
        counts,
        tp=counts.tp * 0.0,
        true=counts.true * 0.0,
        pred=counts.pred * 0.0,
        confusion=None if counts.confusion is None else counts.confusion * 0.0,
        moments=None if counts.moments is None else counts.moments * 0.0,
        samples=samples,
        zero_weight=True,
    )


__all__ = ["all_zero", "count_batch", "zero_weight_counts"]
