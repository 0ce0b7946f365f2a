"""The public streaming accumulator: batches counted into one count record.

:meth:`MacroF1Accumulator.update` counts each batch where it lives (in memory with
:func:`~sklearn_macrof1._integrations._streaming.count_batch`, Dask collections on
their workers with :func:`~sklearn_macrof1._integrations._dask.counts_from_dask`)
and merges the records (:meth:`~sklearn_macrof1._core._record.Counts.merge`); the
scores, summary and report read the merged record exactly as a one-shot call reads
its own.

One accumulator may be shared by threads: each batch is counted outside the lock,
in parallel, and only the merge into the state holds it; every reader takes the
state once, under the lock, and works on that record (records are never changed
in place: a merge makes a new one).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from .._core._aggregation import ALL_METRICS
from .._core._evaluation import Options, check_options, evaluate
from .._core._record import Counts, merge_counts, union_labels
from .._core._targets import fixed_width_strings
from .._core._validation import check_array_like
from .._integrations._dask import counts_from_dask, is_dask_collection
from .._integrations._streaming import count_batch
from ._report import report_from_counts
from ._summary import FBetaSummary, build_summary
from ._views import accumulator_html

_MULTILABEL = "multilabel-indicator"


def _same_columns(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and bool(np.all(a == b))


def _check_labels(labels: Any) -> np.ndarray | None:
    if labels is None:
        return None
    check_array_like(labels, name="labels", caller="MacroF1Accumulator", sparse=False)
    array = np.asarray(labels)
    if array.dtype.kind == "T":  # numpy 2's StringDType
        array = fixed_width_strings(array, "labels")
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

    One accumulator can be updated from several threads at once (data-loader
    workers, a serving process): each batch is counted in its own thread and
    merged into the state under a lock, so no sample is lost, and every score,
    summary, report, merge, copy or pickle reads one consistent state.

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
        self._counts: Counts | None = None
        # Reentrant: a signal handler or finalizer reading the accumulator in
        # the thread that holds the lock reads the state before the merge.
        self._lock = threading.RLock()

    @classmethod
    def _holding(
        cls, labels: np.ndarray | None, counts: Counts | None
    ) -> MacroF1Accumulator:
        """An accumulator with ``labels`` (already checked) holding ``counts``."""
        accumulator = cls.__new__(cls)
        accumulator.labels = labels
        accumulator._counts = counts
        accumulator._lock = threading.RLock()
        return accumulator

    def _state(self) -> Counts | None:
        """The accumulated record, read once under the lock (never changed in
        place: a merge replaces it)."""
        with self._lock:
            return self._counts

    def __getstate__(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k != "_lock"}
        state["_counts"] = self._state()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    # -- accumulating -------------------------------------------------------

    def _check_fixed_labels(self, counts: Counts) -> None:
        if self.labels is None:
            return
        try:
            universe = np.unique(self.labels)
        except TypeError as exc:
            raise ValueError(
                f"labels mix strings and numbers: {self.labels.tolist()!r}."
            ) from exc
        if counts.kind == _MULTILABEL:
            return
        union_labels(universe, counts.classes)  # raises on strings mixed with numbers
        unknown = np.setdiff1d(counts.classes, universe)
        if unknown.size:
            raise ValueError(
                f"This batch holds labels {unknown.tolist()[:10]!r} that are not in "
                f"the accumulator's labels {_plain(self.labels)!r}; pass every "
                "label to MacroF1Accumulator(labels=...) or leave labels=None to "
                "discover them."
            )

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
        dask = any(is_dask_collection(v) for v in (y_true, y_pred, sample_weight))
        batch = (counts_from_dask if dask else count_batch)(
            y_true,
            y_pred,
            sample_weight,
            columns=self.labels,
            caller="MacroF1Accumulator.update",
        )
        if batch is None:
            return self
        self._check_fixed_labels(batch)
        with self._lock:  # counted above in parallel; only the merge is serial
            self._counts = merge_counts(self._counts, batch)
        return self

    def reset(self) -> MacroF1Accumulator:
        """Forget every batch counted so far; keep the ``labels``.

        The accumulator is then as newly created with the same ``labels``, ready
        for the next evaluation (an epoch, a validation run). A batch being
        counted by another thread while ``reset`` runs is merged either before
        (and forgotten) or after (and kept), never half.

        Returns
        -------
        self : MacroF1Accumulator

        Examples
        --------
        >>> from sklearn_macrof1 import MacroF1Accumulator
        >>> acc = MacroF1Accumulator(labels=["cat", "dog"])
        >>> acc.update(["cat", "dog"], ["cat", "cat"]).n_samples
        2
        >>> acc.reset()
        MacroF1Accumulator(labels=['cat', 'dog'], n_samples=0)
        >>> acc.update(["dog", "cat"], ["dog", "cat"]).averaged_f1_score()
        1.0
        """
        with self._lock:
            self._counts = None
        return self

    def merge(self, other: MacroF1Accumulator) -> MacroF1Accumulator:
        """A new accumulator holding the counts of both (neither is changed)."""
        if not isinstance(other, MacroF1Accumulator):
            raise TypeError(
                "Can only merge a MacroF1Accumulator with another MacroF1Accumulator"
                f"; got {type(other).__name__}."
            )
        if not _same_columns(self.labels, other.labels) or (
            self.labels is not None
            and other.labels is not None
            and _label_type(self.labels) != _label_type(other.labels)
        ):
            raise ValueError(
                "Cannot merge accumulators with different labels: "
                f"{_plain(self.labels)!r} and {_plain(other.labels)!r}."
            )
        # Each operand's state read once under its own lock (never both locks at
        # once: a.merge(b) and b.merge(a) in two threads cannot deadlock).
        mine, theirs = self._state(), other._state()
        return MacroF1Accumulator._holding(self.labels, merge_counts(mine, theirs))

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
        counts = self._state()
        return 0 if counts is None else int(counts.n_samples or 0)

    @property
    def counts(self) -> Counts:
        """The accumulated :class:`~sklearn_macrof1._core._record.Counts`."""
        counts = self._state()
        if counts is None:
            raise ValueError(
                "This MacroF1Accumulator has no samples yet; call update() with at "
                "least one non-empty batch first."
            )
        return counts.check_weights()

    def __repr__(self) -> str:
        labels, counts = _plain(self.labels), self._state()
        if counts is None:
            return f"MacroF1Accumulator(labels={labels!r}, n_samples=0)"
        return (  # all weights zero so far is no reason for a repr to raise
            f"MacroF1Accumulator(labels={labels!r}, n_samples={counts.n_samples}, "
            f"kind={counts.kind!r}, n_classes={counts.n_classes})"
        )

    # -- scores ------------------------------------------------------------

    def _options(
        self,
        caller: str,
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
        samplewise = options.average == "samples" and counts.kind == _MULTILABEL
        if samplewise and labels is not None:
            fixed = np.arange(counts.n_classes) if self.labels is None else self.labels
            wanted = np.asarray(labels)
            if not _same_columns(wanted, fixed):
                raise ValueError(
                    "average='samples' uses the per-sample counts over the columns "
                    f"fixed when the accumulator was created ({fixed.tolist()!r}); "
                    f"got labels={wanted.tolist()!r}. Create "
                    "MacroF1Accumulator(labels=...) with these columns to average "
                    "over them per sample."
                )
        return counts, options

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
            caller, beta, labels, pos_label, average, zero_division
        )
        return build_summary(counts, options, caller=caller, warn_for=ALL_METRICS)

    def _score(
        self,
        name: str,
        beta: Any,
        labels: Any,
        pos_label: Any,
        average: Any,
        zero_division: Any,
    ) -> Any:
        """The score method ``name`` (which also says which of the two scores)."""
        caller = f"MacroF1Accumulator.{name}"
        counts, options = self._options(
            caller, beta, labels, pos_label, average, zero_division
        )
        averaged = name.startswith("averaged")
        warn_for = ("f-score",) if averaged else ("precision", "recall")
        _, averages = evaluate(counts, options, warn_for=warn_for, caller=caller)
        return averages.averaged_fbeta if averaged else averages.fbeta_of_averages

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
            "averaged_fbeta_score", beta, labels, pos_label, average, zero_division
        )

    def averaged_f1_score(
        self,
        *,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = "macro",
        zero_division: Any = "warn",
    ) -> Any:
        """:func:`averaged_f1_score` of all the batches concatenated."""
        return self._score(
            "averaged_f1_score", 1.0, labels, pos_label, average, zero_division
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
            "fbeta_of_averages_score", beta, labels, pos_label, average, zero_division
        )

    def f1_of_averages_score(
        self,
        *,
        labels: Any = None,
        pos_label: Any = 1,
        average: str | None = "macro",
        zero_division: Any = "warn",
    ) -> Any:
        """:func:`f1_of_averages_score` of all the batches concatenated."""
        return self._score(
            "f1_of_averages_score", 1.0, labels, pos_label, average, zero_division
        )

    def classification_report(
        self,
        *,
        labels: Any = None,
        target_names: Any = None,
        digits: int = 2,
        output_dict: bool = False,
        zero_division: Any = "warn",
        as_frame: bool = False,
    ) -> Any:
        """:func:`classification_report` of all the batches concatenated.

        ``as_frame=True`` returns it as a ``pandas.DataFrame`` (needs pandas).
        """
        caller = "MacroF1Accumulator.classification_report"
        counts, options = self._options(
            caller, 1.0, labels, None, "samples", zero_division
        )
        return report_from_counts(
            counts,
            labels=options.labels,
            target_names=target_names,
            digits=digits,
            output_dict=output_dict,
            zero_division=zero_division,
            caller=caller,
            as_frame=as_frame,
        )

    # -- views -------------------------------------------------------------

    def to_frame(
        self,
        *,
        beta: float = 1.0,
        average: str | None = "macro",
        zero_division: Any = "warn",
    ) -> Any:
        """The summary of all the batches as a ``pandas.DataFrame``.

        ``self.summary(beta=..., average=..., zero_division=...).to_frame()``:
        one row per class, then the average's row (see
        :meth:`FBetaSummary.to_frame`). Needs pandas.
        """
        return self.summary(
            beta=beta, average=average, zero_division=zero_division
        ).to_frame()

    def _repr_html_(self) -> str:
        # A still copy: the view reads the state several times.
        return accumulator_html(MacroF1Accumulator._holding(self.labels, self._state()))


def _label_type(labels: np.ndarray) -> Any:
    """What merging compares besides the values: the dtype, except that strings
    are strings whatever their width or array (``<U3``, ``<U8``, an object array
    of ``str`` from pandas; a ``StringDType`` array became ``<U``)."""
    if labels.dtype.kind == "U" or (
        labels.dtype == object and all(isinstance(v, str) for v in labels.tolist())
    ):
        return str
    return labels.dtype


def _plain(labels: np.ndarray | None) -> Any:
    return None if labels is None else labels.tolist()


__all__ = ["MacroF1Accumulator"]
