"""Streaming evaluation: counts accumulated batch by batch, merged exactly.

Every score of the package is a function of additive counts, so a stream of
batches (or the chunks of a Dask array, see
:mod:`~sklearn_macrof1._integrations._dask`) can be
counted piece by piece and the pieces merged by summation:

- 1-D targets: per-class true positives, true and predicted counts, and the
  confusion matrix, aligned by label over the union of the classes seen;
- multilabel targets: per-column counts, and for ``average="samples"`` a
  histogram of the per-sample ``(tp, true, pred)`` triples (a sample's
  precision, recall and F-beta depend only on its triple), whose size is bounded
  by the number of distinct triples, not by the number of samples.

Each batch is read and counted by the counting core
(:func:`~sklearn_macrof1._core._evaluation.prepare`); the merged counts are turned back
into a :class:`~sklearn_macrof1._core._counting.Counts` and go through the same
selection, aggregation and summary code as a one-shot call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._aggregation import ALL_METRICS
from .._core._counting import Counts, SampleCounts
from .._core._evaluation import Options, check_options, evaluate, prepare
from .._core._validation import check_array_like
from .._presentation._summary import FBetaSummary, build_summary

#: Largest number of classes for which the confusion matrix is kept (as in the
#: counting core, which gives no matrix above it).
MAX_CONFUSION_CLASSES = 2048

_ONE_D = "1d"
_MULTILABEL = "multilabel-indicator"


def _describe_kind(kind: str) -> str:
    if kind == _ONE_D:
        return "1-D class labels (binary or multiclass)"
    return "a multilabel indicator matrix"


@dataclass(frozen=True)
class CountState:
    """Additive counts of the batches seen so far (never modified in place).

    ``kind`` is "1d" or "multilabel-indicator". For 1-D targets ``classes`` are
    the sorted labels seen (in ``y_true`` or ``y_pred``, zero-weight samples
    included) and ``confusion`` has rows = true labels (None above
    :data:`MAX_CONFUSION_CLASSES` classes). For multilabel targets ``classes``
    are the column indices, ``columns`` the columns of the per-sample counts
    (None: all) and ``triples`` / ``triple_weight`` / ``triple_count`` the
    histogram of per-sample ``(tp, true, pred)`` counts: distinct unweighted
    triples (``(0, 0, 0)`` for zero-weight samples, whose weighted counts are 0),
    the sum of the weights and the number of samples of each.
    ``nonzero_weight`` tells whether any sample counted has a non-zero weight (a
    single batch may have only zero weights; all the batches together may not,
    as for one call).
    """

    kind: str
    classes: np.ndarray
    tp: np.ndarray
    true: np.ndarray
    pred: np.ndarray
    confusion: np.ndarray | None
    n_samples: int
    weighted: bool
    columns: np.ndarray | None = None
    triples: np.ndarray | None = None
    triple_weight: np.ndarray | None = None
    triple_count: np.ndarray | None = None
    nonzero_weight: bool = True


def _n_rows(y: Any) -> int | None:
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) > 0:
        return shape[0]
    try:
        return len(y)
    except TypeError:
        return None


def _histogram(
    triples: np.ndarray, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows of ``triples`` with their weight sums and multiplicities."""
    distinct, inverse = np.unique(triples, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    count = np.bincount(inverse, minlength=distinct.shape[0]).astype(np.int64)
    if weights is None:
        weight = count.astype(np.float64)
    else:
        weight = np.bincount(inverse, weights=weights, minlength=distinct.shape[0])
    return distinct, weight, count


def _all_zero(sample_weight: Any, n_samples: int) -> bool:
    """Weights of the right shape that are all zero (valid within a stream)."""
    if sample_weight is None or np.isscalar(sample_weight):
        return False
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return (
        weights.ndim == 1
        and weights.shape[0] == n_samples
        and n_samples > 0
        and not weights.any()
    )


def batch_state(
    y_true: Any,
    y_pred: Any,
    sample_weight: Any = None,
    *,
    columns: Any = None,
    caller: str,
) -> CountState | None:
    """Count one batch with the counting core (None for an empty batch).

    ``columns`` are the multilabel columns of the per-sample counts (the
    ``labels`` of a one-shot call; ignored for 1-D targets).
    """
    n_samples = _n_rows(y_true)
    if n_samples == 0 and _n_rows(y_pred) == 0:
        return None
    zero_weights = _all_zero(sample_weight, n_samples or 0)
    if zero_weights:  # count with unit weights, then scale the counts by 0
        sample_weight = np.ones(n_samples or 0)
    counts = prepare(
        y_true,
        y_pred,
        sample_weight=sample_weight,
        labels=columns,
        samplewise=True,
        caller=caller,
    )
    weighted = sample_weight is not None
    n_samples = int(n_samples or 0)
    tp, true, pred = counts.tp, counts.true, counts.pred
    if zero_weights:
        tp, true, pred = tp * 0.0, true * 0.0, pred * 0.0
    if counts.kind != _MULTILABEL:
        confusion = counts.confusion
        if zero_weights and confusion is not None:
            confusion = confusion * 0.0
        return CountState(
            _ONE_D,
            counts.classes,
            tp,
            true,
            pred,
            confusion,
            n_samples,
            weighted,
            nonzero_weight=not zero_weights,
        )
    samples = counts.samples
    assert samples is not None  # samplewise=True
    weights = samples.weight
    if zero_weights:
        weights = np.zeros(n_samples)
    if weights is None:
        raw = samples
    else:  # the weighted per-sample counts are multiplied by the weight: recount
        raw = prepare(
            y_true, y_pred, labels=columns, samplewise=True, caller=caller
        ).samples
        assert raw is not None
    triples = np.stack([raw.tp, raw.true, raw.pred], axis=1).astype(np.int64)
    if weights is not None:
        triples[weights == 0] = 0
    distinct, weight, count = _histogram(triples, weights)
    return CountState(
        _MULTILABEL,
        counts.classes,
        tp,
        true,
        pred,
        None,
        n_samples,
        weighted,
        None if columns is None else np.asarray(columns, dtype=np.intp),
        distinct,
        weight,
        count,
        not zero_weights,
    )


def _union(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a_strings, b_strings = a.dtype.kind in "US", b.dtype.kind in "US"
    if (a_strings and b.dtype.kind in "biuf") or (b_strings and a.dtype.kind in "biuf"):
        old, new = ("strings", "numbers") if a_strings else ("numbers", "strings")
        raise ValueError(
            f"Mix of label input types: the earlier batches hold {old} and this one "
            f"holds {new} (labels {b.tolist()[:5]!r}); all batches must use labels "
            "of one type."
        )
    try:
        return np.union1d(a, b)
    except TypeError as exc:
        raise ValueError(
            "Mix of label input types (string and number) between batches: labels "
            f"{a.tolist()[:5]!r} and {b.tolist()[:5]!r}; all batches must use labels "
            "of one type."
        ) from exc


def _spread(values: np.ndarray, index: np.ndarray, size: int, dtype: Any) -> Any:
    # Added, not assigned: two classes of a batch may be one class of the union
    # (int64 labels 2**62 + 1 and 2**62 + 2 are one float64 label).
    out = np.zeros(size, dtype=dtype)
    np.add.at(out, index, values)
    return out


def _folds(index: np.ndarray) -> bool:
    """Whether two classes of a state became one class of the union."""
    return np.unique(index).shape[0] < index.shape[0]


def _same_classes(a: np.ndarray, b: np.ndarray) -> bool:
    # Strings are never numbers: not compared (numpy < 1.25 warns, then says False).
    if a.shape != b.shape or (a.dtype.kind in "SU") != (b.dtype.kind in "SU"):
        return False
    return bool(np.all(a == b))


def _merge_1d(a: CountState, b: CountState) -> CountState:
    if _same_classes(a.classes, b.classes):
        classes = a.classes
        tp, true, pred = a.tp + b.tp, a.true + b.true, a.pred + b.pred
        confusion = None
        if a.confusion is not None and b.confusion is not None:
            confusion = a.confusion + b.confusion
    else:
        classes = _union(a.classes, b.classes)
        k = classes.shape[0]
        ia = np.searchsorted(classes, a.classes)
        ib = np.searchsorted(classes, b.classes)
        dtype = np.result_type(a.tp.dtype, b.tp.dtype)
        tp = _spread(a.tp, ia, k, dtype) + _spread(b.tp, ib, k, dtype)
        true = _spread(a.true, ia, k, dtype) + _spread(b.true, ib, k, dtype)
        pred = _spread(a.pred, ia, k, dtype) + _spread(b.pred, ib, k, dtype)
        confusion = None
        if (
            k <= MAX_CONFUSION_CLASSES
            and a.confusion is not None
            and b.confusion is not None
        ):
            confusion = np.zeros((k, k), dtype=dtype)
            np.add.at(confusion, (ia[:, None], ia[None, :]), a.confusion)
            np.add.at(confusion, (ib[:, None], ib[None, :]), b.confusion)
        if _folds(ia) or _folds(ib):
            # Samples that confused two folded labels are now hits: the true
            # positives are the folded table's diagonal.
            if confusion is None:
                raise ValueError(
                    "Batches whose labels compare as one value only in a common "
                    f"dtype (labels {a.classes.tolist()[:5]!r} and "
                    f"{b.classes.tolist()[:5]!r}, for example int64 above 2**53 "
                    "and float64) cannot be merged without a confusion matrix; "
                    "give every batch labels of one dtype."
                )
            tp = confusion.diagonal().copy()
    return CountState(
        _ONE_D,
        classes,
        tp,
        true,
        pred,
        confusion,
        a.n_samples + b.n_samples,
        a.weighted or b.weighted,
        nonzero_weight=a.nonzero_weight or b.nonzero_weight,
    )


def _same_columns(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and bool(np.all(a == b))


def _merge_multilabel(a: CountState, b: CountState) -> CountState:
    if a.classes.shape[0] != b.classes.shape[0]:
        raise ValueError(
            "Multilabel batches with different numbers of labels: the earlier "
            f"batches have {a.classes.shape[0]} indicator columns and this one has "
            f"{b.classes.shape[0]}; every batch must have the same columns."
        )
    if not _same_columns(a.columns, b.columns):
        raise ValueError(
            "Cannot merge multilabel counts whose per-sample counts cover different "
            f"columns ({a.columns!r} and {b.columns!r}); use the same labels."
        )
    assert a.triples is not None and b.triples is not None
    assert a.triple_weight is not None and b.triple_weight is not None
    assert a.triple_count is not None and b.triple_count is not None
    triples = np.concatenate([a.triples, b.triples])
    distinct, inverse = np.unique(triples, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    size = distinct.shape[0]
    weight = np.bincount(
        inverse,
        weights=np.concatenate([a.triple_weight, b.triple_weight]),
        minlength=size,
    )
    count = np.bincount(
        inverse,
        weights=np.concatenate([a.triple_count, b.triple_count]),
        minlength=size,
    ).astype(np.int64)
    return CountState(
        _MULTILABEL,
        a.classes,
        a.tp + b.tp,
        a.true + b.true,
        a.pred + b.pred,
        None,
        a.n_samples + b.n_samples,
        a.weighted or b.weighted,
        a.columns,
        distinct,
        weight,
        count,
        a.nonzero_weight or b.nonzero_weight,
    )


def merge_states(a: CountState | None, b: CountState | None) -> CountState | None:
    """The counts of both (a new state; ValueError when they contradict)."""
    if a is None:
        return b
    if b is None:
        return a
    if a.kind != b.kind:
        raise ValueError(
            f"This batch holds {_describe_kind(b.kind)} but the earlier batches "
            f"held {_describe_kind(a.kind)}; all batches must have the same kind "
            "of targets."
        )
    if a.kind == _ONE_D:
        return _merge_1d(a, b)
    return _merge_multilabel(a, b)


def counts_from_state(state: CountState) -> Counts:
    """The :class:`Counts` a one-shot call on all the batches would produce."""
    if not state.nonzero_weight:
        raise ValueError(
            "sample_weight must contain at least one non-zero number; all "
            f"{state.n_samples} weights are zero."
        )
    if state.kind == _ONE_D:
        kind = "binary" if state.classes.shape[0] <= 2 else "multiclass"
        return Counts(
            kind, state.classes, state.tp, state.true, state.pred, state.confusion
        )
    assert state.triples is not None and state.triple_weight is not None
    assert state.triple_count is not None
    triples = state.triples
    weight = state.triple_weight
    if triples.shape[0] == 1 and state.n_samples > 1:
        # One entry per distinct triple; keep two so that warnings speak of
        # "samples" (plural) exactly as for the per-sample arrays.
        triples = np.repeat(triples, 2, axis=0)
        weight = np.repeat(weight / 2, 2)
    samples = SampleCounts(triples[:, 0], triples[:, 1], triples[:, 2], weight)
    return Counts(
        _MULTILABEL, state.classes, state.tp, state.true, state.pred, None, samples
    )


def _check_labels(labels: Any) -> np.ndarray | None:
    if labels is None:
        return None
    check_array_like(labels, name="labels", caller="MacroF1Accumulator", sparse=False)
    array = np.asarray(labels)
    if array.ndim != 1 or array.shape[0] == 0:
        raise ValueError(
            "labels must be a non-empty 1-D array-like of class labels (column "
            f"indices for multilabel targets); got {labels!r}."
        )
    return array


class MacroF1Accumulator:
    """Both macro F1s (and everything else) over data that arrives in batches.

    Counts are additive: :meth:`update` counts one batch with the same counting
    core as :func:`fbeta_summary`, and the scores, the summary and the
    classification report computed from the accumulated counts are those of a
    single call on all the batches concatenated, for every ``average``
    (``"samples"`` included, in memory bounded by the number of distinct
    per-sample counts). Accumulators merge (:meth:`merge` or ``+``, associative and
    order-independent), pickle, and accept Dask arrays and Series, which are
    counted chunk by chunk on the workers.

    Parameters
    ----------
    labels : array-like of shape (n_labels,), default=None
        For 1-D targets, the complete set of class labels (strings or numbers):
        a batch holding another label raises ``ValueError``. The scores are then
        those of a one-shot call with ``labels=labels`` (classes that never occur
        count as empty classes, in this order for ``average=None``). For
        multilabel targets, the indicator columns scored (the one-shot
        ``labels``), which also fixes the columns of the per-sample counts of
        ``average="samples"``. None: classes are discovered as batches arrive
        (every column for multilabel targets).

    Attributes
    ----------
    labels : ndarray or None
        The ``labels`` given.
    n_samples : int
        Number of samples counted so far.
    counts : Counts
        The accumulated counts (what one counting pass over all batches gives).

    See Also
    --------
    fbeta_summary : The same figures from one call on in-memory data.

    Examples
    --------
    >>> from sklearn_macrof1 import MacroF1Accumulator, averaged_f1_score
    >>> acc = MacroF1Accumulator()
    >>> acc.update(["cat", "dog"], ["cat", "cat"]).update(["bird"], ["bird"])
    MacroF1Accumulator(labels=None, n_samples=3, kind='multiclass', n_classes=3)
    >>> round(acc.averaged_f1_score(), 4)
    0.5556
    >>> round(averaged_f1_score(["cat", "dog", "bird"], ["cat", "cat", "bird"]), 4)
    0.5556
    >>> other = MacroF1Accumulator().update(["dog"], ["dog"])
    >>> round((acc + other).f1_of_averages_score(), 4)
    0.8333
    """

    def __init__(self, *, labels: Any = None) -> None:
        self.labels = _check_labels(labels)
        self._state: CountState | None = None

    # -- accumulating -------------------------------------------------------

    def _universe(self) -> np.ndarray | None:
        if self.labels is None:
            return None
        try:
            return np.unique(self.labels)
        except TypeError as exc:
            raise ValueError(
                f"labels mix strings and numbers: {self.labels.tolist()!r}."
            ) from exc

    def _check_fixed_labels(self, state: CountState) -> None:
        universe = self._universe()
        if universe is None or state.kind != _ONE_D:
            return
        _union(universe, state.classes)  # raises on strings mixed with numbers
        unknown = np.setdiff1d(state.classes, universe)
        if unknown.size:
            raise ValueError(
                f"This batch holds labels {unknown.tolist()[:10]!r} that are not in "
                f"the accumulator's labels {self.labels.tolist()!r}; pass every "
                "label to MacroF1Accumulator(labels=...) or leave labels=None to "
                "discover them."
            )

    def _batch(self, y_true: Any, y_pred: Any, sample_weight: Any) -> CountState | None:
        from ._dask import is_dask_collection, state_from_dask

        caller = "MacroF1Accumulator.update"
        if any(is_dask_collection(v) for v in (y_true, y_pred, sample_weight)):
            state = state_from_dask(
                y_true, y_pred, sample_weight, columns=self.labels, caller=caller
            )
        else:
            state = batch_state(
                y_true, y_pred, sample_weight, columns=self.labels, caller=caller
            )
        if state is not None:
            self._check_fixed_labels(state)
        return state

    def update(
        self, y_true: Any, y_pred: Any, sample_weight: Any = None
    ) -> MacroF1Accumulator:
        """Count one batch and add it to the accumulated counts.

        The batch is validated and counted in full before anything changes: a
        batch that is invalid or contradicts the earlier ones (another kind of
        targets, another number of multilabel columns, strings after numbers, a
        label outside fixed ``labels``) raises ``ValueError`` and leaves the
        accumulator as it was. An empty batch changes nothing.

        Parameters
        ----------
        y_true : array-like, sparse matrix, Dask array or Dask Series
            Ground truth of the batch (labels, or a 0/1 indicator matrix).
        y_pred : same kind as ``y_true``
            Predictions of the batch.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights of the batch.

        Returns
        -------
        self : MacroF1Accumulator
        """
        batch = self._batch(y_true, y_pred, sample_weight)
        self._state = merge_states(self._state, batch)
        return self

    def merge(self, other: MacroF1Accumulator) -> MacroF1Accumulator:
        """A new accumulator holding the counts of both (neither is changed)."""
        if not isinstance(other, MacroF1Accumulator):
            raise TypeError(
                "Can only merge a MacroF1Accumulator with another MacroF1Accumulator"
                f"; got {type(other).__name__}."
            )
        if not _same_columns(self.labels, other.labels) or (
            self.labels is not None and self.labels.dtype != other.labels.dtype
        ):
            raise ValueError(
                "Cannot merge accumulators with different labels: "
                f"{_plain(self.labels)!r} and {_plain(other.labels)!r}."
            )
        merged = MacroF1Accumulator.__new__(MacroF1Accumulator)
        merged.labels = self.labels
        merged._state = merge_states(self._state, other._state)
        return merged

    def __add__(self, other: Any) -> MacroF1Accumulator:
        if not isinstance(other, MacroF1Accumulator):
            return NotImplemented
        return self.merge(other)

    def __radd__(self, other: Any) -> MacroF1Accumulator:
        if isinstance(other, int) and other == 0:  # sum(accumulators)
            return self.merge(MacroF1Accumulator(labels=self.labels))
        return NotImplemented

    # -- what has been accumulated -------------------------------------------

    @property
    def n_samples(self) -> int:
        """Number of samples counted so far."""
        return 0 if self._state is None else self._state.n_samples

    @property
    def counts(self) -> Counts:
        """The accumulated :class:`~sklearn_macrof1._core._counting.Counts`."""
        if self._state is None:
            raise ValueError(
                "This MacroF1Accumulator has no samples yet; call update() with at "
                "least one non-empty batch first."
            )
        return counts_from_state(self._state)

    def __repr__(self) -> str:
        labels = None if self.labels is None else self.labels.tolist()
        if self._state is None:
            return f"MacroF1Accumulator(labels={labels!r}, n_samples=0)"
        counts = self.counts
        return (
            f"MacroF1Accumulator(labels={labels!r}, n_samples={self.n_samples}, "
            f"kind={counts.kind!r}, n_classes={counts.n_classes})"
        )

    # -- scores ------------------------------------------------------------

    def _options(
        self,
        caller: str,
        *,
        beta: Any,
        labels: Any,
        pos_label: Any,
        average: Any,
        zero_division: Any,
    ) -> tuple[Counts, Options]:
        options = check_options(
            caller=caller,
            average=average,
            beta=beta,
            zero_division=zero_division,
            labels=self.labels if labels is None else labels,
            pos_label=pos_label,
        )
        counts = self.counts
        self._check_sample_columns(counts, options.average, labels)
        return counts, options

    def _check_sample_columns(self, counts: Counts, average: Any, labels: Any) -> None:
        if average != "samples" or counts.kind != _MULTILABEL or labels is None:
            return
        fixed = np.arange(counts.n_classes) if self.labels is None else self.labels
        wanted = np.asarray(labels)
        if not (wanted.shape == fixed.shape and bool(np.all(wanted == fixed))):
            raise ValueError(
                "average='samples' uses the per-sample counts over the columns fixed "
                f"when the accumulator was created ({fixed.tolist()!r}); got "
                f"labels={wanted.tolist()!r}. Create MacroF1Accumulator(labels=...) "
                "with these columns to average over them per sample."
            )

    def summary(
        self,
        *,
        beta: float = 1.0,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = "macro",
        zero_division: Any = "warn",
    ) -> FBetaSummary:
        """Both F-beta scores, their gap and the per-class figures.

        The :class:`FBetaSummary` that :func:`fbeta_summary` returns for all the
        batches concatenated; the options mean the same (``labels`` defaults to
        the accumulator's labels).
        """
        caller = "MacroF1Accumulator.summary"
        counts, options = self._options(
            caller,
            beta=beta,
            labels=labels,
            pos_label=pos_label,
            average=average,
            zero_division=zero_division,
        )
        return build_summary(counts, options, caller=caller, warn_for=ALL_METRICS)

    def _score(
        self, caller: str, warn_for: tuple[str, ...], **options: Any
    ) -> tuple[Any, Any]:
        counts, checked = self._options(caller, **options)
        _, averages = evaluate(counts, checked, warn_for=warn_for, caller=caller)
        return averages.averaged_fbeta, averages.fbeta_of_averages

    def averaged_fbeta_score(
        self,
        *,
        beta: float,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = "macro",
        zero_division: Any = "warn",
    ) -> Any:
        """:func:`averaged_fbeta_score` of all the batches concatenated."""
        return self._score(
            "MacroF1Accumulator.averaged_fbeta_score",
            ("f-score",),
            beta=beta,
            labels=labels,
            pos_label=pos_label,
            average=average,
            zero_division=zero_division,
        )[0]

    def averaged_f1_score(
        self,
        *,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = "macro",
        zero_division: Any = "warn",
    ) -> Any:
        """:func:`averaged_f1_score` of all the batches concatenated."""
        return self.averaged_fbeta_score(
            beta=1.0,
            labels=labels,
            pos_label=pos_label,
            average=average,
            zero_division=zero_division,
        )

    def fbeta_of_averages_score(
        self,
        *,
        beta: float,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = "macro",
        zero_division: Any = "warn",
    ) -> Any:
        """:func:`fbeta_of_averages_score` of all the batches concatenated."""
        return self._score(
            "MacroF1Accumulator.fbeta_of_averages_score",
            ("precision", "recall"),
            beta=beta,
            labels=labels,
            pos_label=pos_label,
            average=average,
            zero_division=zero_division,
        )[1]

    def f1_of_averages_score(
        self,
        *,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = "macro",
        zero_division: Any = "warn",
    ) -> Any:
        """:func:`f1_of_averages_score` of all the batches concatenated."""
        return self.fbeta_of_averages_score(
            beta=1.0,
            labels=labels,
            pos_label=pos_label,
            average=average,
            zero_division=zero_division,
        )

    def classification_report(
        self,
        *,
        labels: Any = None,
        target_names: Any = None,
        digits: int = 2,
        output_dict: bool = False,
        zero_division: Any = "warn",
    ) -> str | dict[str, Any]:
        """:func:`classification_report` of all the batches concatenated."""
        from .._presentation._report import report_from_counts

        caller = "MacroF1Accumulator.classification_report"
        counts, options = self._options(
            caller,
            beta=1.0,
            labels=labels,
            pos_label=None,
            average="samples",
            zero_division=zero_division,
        )
        return report_from_counts(
            counts,
            labels=options.labels,
            target_names=target_names,
            digits=digits,
            output_dict=output_dict,
            zero_division=zero_division,
            caller=caller,
        )


def _plain(labels: np.ndarray | None) -> Any:
    return None if labels is None else labels.tolist()


__all__ = ["CountState", "MacroF1Accumulator", "batch_state", "merge_states"]
