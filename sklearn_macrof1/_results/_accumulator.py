"""The public streaming accumulator: batches counted into one count record.

:meth:`MacroF1Accumulator.update` hands each batch to the source that claims
it, as every reading does (:func:`~sklearn_macrof1._counting._registry.source_of`):
a source counts a batch where it lives (its ``tally``: Dask collections on
their workers, device batches into a tally kept on their device) or gives it
back to be counted in this process
(:func:`~sklearn_macrof1._sources._stream.count_batch`); the records merge
(:meth:`~sklearn_macrof1._counting._record.MacroF1Counts.merge`), and every
verb takes the merged record (``acc.counts``) exactly as it takes a one-shot
call's own.

One accumulator may be shared by threads: each batch is counted outside the lock,
in parallel, and only the merge into the state holds it; every reader takes the
state once, under the lock, and works on that record (records are never changed
in place: a merge makes a new one).

The host state is a short stack of records (:func:`_pushed`): a batch's record
is merged with the one below only while that one is at most twice its size, as
the digits of a binary counter carry. A merge costs what both records hold (their
classes and, above 2,048 classes, their occupied cells), so merging every batch
into one growing record would cost the cells counted so far at each update:
O(n² / batch) over a stream. Stacked, each class and cell is merged O(log n)
times; a reader merges the stack once and keeps the result.

What a stream keeps is declared when it is made (``keep``): by default the
per-class counts, which every score, the summary, the report and the gap
attribution need; the confusion matrix (``"cells"``) and the second moments
(``"moments"``) only when asked for. Batches of 1-D integer labels (NumPy
arrays, PyTorch CPU tensors viewed as NumPy) are then added to three vectors
of per-class counts (:class:`~sklearn_macrof1._sources._stream.ClassTally`),
no record per batch. Device batches of 1-D integer labels with fixed
``labels`` are counted by their source into a tally that stays on their
device (:class:`~sklearn_macrof1._counting._registry.Tally`). The state is
the host records, the class tally and the device tally, all replaced, never
changed, by an update; a reader merges them into one record.
"""

from __future__ import annotations

import html
import threading
from dataclasses import replace
from typing import Any, cast

import numpy as np
import scipy.sparse as sp

from .._counting._record import (
    MacroF1Counts,
    describe,
    fixed_labels,
    merge_counts,
    union_labels,
)
from .._counting._registry import Predictions, Stream, Tally, source_of
from .._options import check_array_like, host_copy
from .._present._summary import accumulator_html
from .._sklearn_private import InvalidParameterError
from .._sources._stream import (
    TALLY_RANGE,
    ClassTally,
    batch_labels,
    check_label_columns,
    count_batch,
    integer_labels,
    tally_labels,
)
from ._scores import fbeta_summary

_MULTILABEL = "multilabel-indicator"

#: What a stream may keep beyond its per-class counts, in order: each level
#: keeps what the ones before it keep.
KEEP = ("counts", "cells", "moments")

_State = MacroF1Counts | ClassTally | Tally


def _same_columns(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and bool(np.all(a == b))


def _check_labels(labels: Any) -> np.ndarray | None:
    if labels is None:
        return None
    check_array_like(labels, name="labels", caller="MacroF1Accumulator", sparse=False)
    array = fixed_labels(np.asarray(host_copy(labels)))  # strings as <U, however held
    if array.ndim != 1 or array.shape[0] == 0:
        raise ValueError(
            "labels must be a non-empty 1-D array-like of class labels (column "
            f"indices for multilabel targets); got {labels!r}."
        )
    return array


class MacroF1Accumulator:
    """Both macro F1s (and everything else) over data that arrives in batches.

    Counts are additive: :meth:`update` counts one batch with the same counting
    core as :func:`fbeta_summary`, and every verb given the accumulated record
    (:attr:`counts`: ``fbeta_summary(acc.counts)``, the four scores,
    :func:`classification_report`, :func:`fbeta_confidence_interval`,
    :meth:`MacroF1Display.from_counts`) gives what a single call on all the
    batches concatenated gives, for every ``average`` (``"samples"`` included,
    in memory bounded by the number of distinct per-sample counts).
    Accumulators merge (:meth:`merge` or ``+``, associative and
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
        (every column for multilabel targets). The record :attr:`counts`
        carries them as its fixed ``labels``.
    ignore_index : int, default=None
        Deep-learning batches of class labels: ``y_true`` may have any shape
        (``(batch, tokens)`` for token classification; ``y_pred`` the same, or
        with one more axis of class scores), both are flattened, and the
        samples whose true label is ``ignore_index`` (the padding label,
        -100 in Hugging Face transformers) are dropped before counting. None:
        every label is a class, as in a one-shot call. With class scores the
        prediction is a column index, so a true label that names no column
        (-100 with 3 columns, or 5) raises ``ValueError`` naming this option
        and the value seen.
    threshold : float, default=None
        Deep-learning batches of multilabel targets: ``y_pred`` holds scores
        (logits or probabilities) shaped like the 0/1 ``y_true``, and a label is
        predicted where its score is above ``threshold`` (0.0 for logits is 0.5
        for probabilities). None: ``y_pred`` holds labels.
    keep : {"counts", "cells", "moments"}, default="counts"
        What the stream keeps, declared up front (an update cannot recount
        the batches before it):

        - ``"counts"``: the true positives, true counts and predicted counts
          of each class (and, for multilabel targets, the histogram of
          per-sample counts of ``average="samples"``): three vectors of
          ``k`` numbers, enough for every score, :func:`fbeta_summary`
          (without its ``confusion_matrix``), :func:`classification_report`
          and the gap attribution. The intervals of 1-D targets raise
          ``ValueError`` naming this option.
        - ``"cells"``: also the confusion matrix (its occupied cells above
          2,048 classes), as a one-shot record keeps it: the summary's
          ``confusion_matrix``, and the intervals (both methods) of
          unweighted 1-D targets.
        - ``"moments"``: also the second moments a delta-method interval
          needs for weighted or multilabel batches
          (``MacroF1Counts.from_predictions(..., moments=True)``). Device
          batches are then counted on their device and their records, with
          the moments, reach the host at each update.

        With ``"cells"`` or ``"moments"``, :func:`fbeta_confidence_interval`
        and ``classification_report(..., confidence=...)`` of
        :attr:`counts` give the interval of one call on all the batches.

    Attributes
    ----------
    labels : ndarray or None
        The ``labels`` given.
    n_samples : int
        Number of samples counted so far.
    counts : MacroF1Counts
        The accumulated record (what one counting pass over all batches gives),
        with the accumulator's ``labels`` as its fixed labels: give it to any
        verb.

    Notes
    -----
    **Device arrays.** PyTorch tensors on the CPU are read as the NumPy
    arrays that view them (no copy; bfloat16 and float8 tensors as float32
    copies, which hold their values exactly), as the one-shot functions read
    them; they need no extra package. Batches of PyTorch tensors on a GPU, CuPy,
    JAX or array-api-strict arrays are counted on their device (with or
    without scikit-learn's ``array_api_dispatch``: the accumulator returns no
    arrays), which needs the package ``array-api-compat`` (the
    ``[array-api]`` extra): the argmax of class scores, the threshold and the
    ``ignore_index`` mask run there too. When ``y_pred`` has one more axis
    than ``y_true``, the last axis holds the scores of each class and the
    prediction is their argmax.

    With integer ``labels`` given, device batches of integer class labels (or
    class scores) keep their counts on the device, and so do multilabel
    batches (0/1 labels, or scores with ``threshold``) of up to 160 columns
    counted: an update adds the batch's counts there and reads no count or
    label back to the host. The counts cross to the host when they are
    read (:attr:`counts`, :attr:`n_samples`, a merge, a copy, a pickle, the
    repr): the three vectors of ``k`` counts (with ``keep="cells"``, at most
    the occupied cells of the ``k x k`` confusion matrix; beyond 2048 labels
    the tally keeps its samples' joint codes on the device, folded into one
    entry per cell as they grow); for multilabel targets the column sums and
    the occupied cells of the per-sample histogram. Checks that would read
    values back are made then too: labels outside ``labels``, true labels
    that name no column of the class scores, indicator entries other than 0
    and 1, scores with NaN or non-finite weights in any batch make that read
    raise ``ValueError`` (until :meth:`reset`) instead of the update.
    Otherwise (labels discovered, labels of floats), each batch's count record
    (a few numbers per class) reaches the host at its update.

    See Also
    --------
    fbeta_summary : The same figures from one call on in-memory data.

    Examples
    --------
    >>> from sklearn_macrof1 import (
    ...     MacroF1Accumulator, averaged_f1_score, f1_of_averages_score)
    >>> acc = MacroF1Accumulator()
    >>> acc.update(["cat", "dog"], ["cat", "cat"]).update(["bird"], ["bird"])
    MacroF1Accumulator(labels=None, n_samples=3, kind='multiclass', n_classes=3)
    >>> round(averaged_f1_score(acc.counts), 4)
    0.5556
    >>> round(averaged_f1_score(["cat", "dog", "bird"], ["cat", "cat", "bird"]), 4)
    0.5556
    >>> other = MacroF1Accumulator().update(["dog"], ["dog"])
    >>> round(f1_of_averages_score((acc + other).counts), 4)
    0.8333
    """

    def __init__(
        self,
        *,
        labels: Any = None,
        ignore_index: int | None = None,
        threshold: float | None = None,
        keep: str = "counts",
    ) -> None:
        self.labels = _check_labels(labels)
        self.ignore_index = _check_number(ignore_index, "ignore_index", int)
        self.threshold = _check_number(threshold, "threshold", float)
        if not isinstance(keep, str) or keep not in KEEP:
            raise InvalidParameterError(
                "The 'keep' parameter of MacroF1Accumulator must be a str among "
                f"{', '.join(map(repr, KEEP))}. Got {keep!r} instead."
            )
        self.keep = keep
        self._parts: tuple[MacroF1Counts, ...] = ()  # host records (_pushed)
        self._classes: ClassTally | None = None  # 1-D integer labels' counts
        self._tally: Tally | None = None  # counts kept where the batches live
        self._prepare_stream()
        # Reentrant: a signal handler or finalizer reading the accumulator in
        # the thread that holds the lock reads the state before the merge.
        self._lock = threading.RLock()

    def _holding(self, counts: MacroF1Counts | None) -> MacroF1Accumulator:
        """An accumulator with this one's options holding ``counts``."""
        accumulator = MacroF1Accumulator.__new__(MacroF1Accumulator)
        accumulator.labels = self.labels
        accumulator.ignore_index = self.ignore_index
        accumulator.threshold = self.threshold
        accumulator.keep = self.keep
        accumulator._parts = () if counts is None else (counts,)
        accumulator._classes = None
        accumulator._tally = None
        accumulator._stream = self._stream
        accumulator._fixed = self._fixed
        accumulator._lock = threading.RLock()
        return accumulator

    def _state(self) -> MacroF1Counts | None:
        """The accumulated record, read once under the lock (never changed in
        place: a merge replaces it), with the class tally and the device
        tally folded in (the device's counts cross to the host here)."""
        with self._lock:
            parts, classes, tally = self._parts, self._classes, self._tally
        counts = _merged(parts)
        if len(parts) > 1:
            with self._lock:  # kept, unless an update came in meanwhile
                if self._parts is parts:
                    self._parts = (counts,) if counts is not None else ()
        if classes is not None:
            counts = merge_counts(counts, classes.record())
        if tally is None:
            return counts
        return merge_counts(counts, tally.record())

    def __getstate__(self) -> dict[str, Any]:
        state = {
            k: v
            for k, v in self.__dict__.items()
            if k
            not in (
                "_lock",
                "_tally",
                "_classes",
                "_stream",
                "_fixed",
                "_sorted",
                "_parts",
            )
        }
        state["_counts"] = self._state()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        # older pickles
        state = {"ignore_index": None, "threshold": None, "keep": "counts", **state}
        if state.pop("moments", False):  # before keep=: moments=True
            state["keep"] = "moments"
        counts = state.pop("_counts", None)
        self.__dict__.update(state)
        self._parts = () if counts is None else (counts,)
        self._classes = None
        self._tally = None
        self._prepare_stream()
        self._lock = threading.RLock()

    def _prepare_stream(self) -> None:
        """The options a source counts a batch with (:class:`Stream`), and
        the fixed labels as a class tally takes them (integers, sorted and
        unique; None: labels discovered, or fixed labels of another type)."""
        integers = integer_labels(self.labels)
        self._stream = Stream(
            self.labels, integers, self.ignore_index, self.threshold, self.keep
        )
        fixed = self.labels is not None and self.labels.dtype.kind in "iu"
        self._fixed = integers if fixed else None

    # -- accumulating -------------------------------------------------------

    def _sorted_labels(self) -> np.ndarray:
        """The fixed labels sorted and unique, found once (a batch is checked
        against them with a binary search: O(c log k) for c classes a batch
        holds, where sorting the k labels per batch took 20 ms at k = 1e5)."""
        assert self.labels is not None
        universe = self.__dict__.get("_sorted")
        if universe is None:
            try:
                universe = np.unique(self.labels)
            except TypeError as exc:
                raise ValueError(
                    f"labels mix strings and numbers: {self.labels.tolist()!r}."
                ) from exc
            self._sorted = universe  # the same value whichever thread sets it
        return universe

    def _check_fixed_labels(self, counts: MacroF1Counts) -> None:
        if self.labels is None:
            return
        universe = self._sorted_labels()
        if counts.kind == _MULTILABEL:
            return
        classes = counts.classes  # sorted and unique
        if (universe.dtype.kind in "US") != (classes.dtype.kind in "US"):
            raise ValueError(
                "Mix of label input types: this batch holds labels "
                f"{classes.tolist()[:10]!r} and the accumulator's labels are "
                f"{_plain(self.labels)!r} (strings and numbers never match). "
                "Give labels of the batches' type to MacroF1Accumulator(labels="
                "...), or leave labels=None to discover them."
            )
        found = np.minimum(np.searchsorted(universe, classes), universe.shape[0] - 1)
        unknown = classes[universe[found] != classes]
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

        With class scores in ``y_pred``, a true label that names no column of
        them (the padding label -100 without ``ignore_index``, or 5 with 3
        columns) raises ``ValueError`` naming ``ignore_index`` and the value
        (for device batches counted on their device, when the counts are read).

        Parameters
        ----------
        y_true : array-like, sparse matrix, device array, Dask array or Series
            Ground truth of the batch (labels, or a 0/1 indicator matrix; with
            ``ignore_index``, labels of any shape, such as ``(batch, tokens)``).
        y_pred : same kind as ``y_true``
            Predictions of the batch: labels, class scores with one more axis
            than ``y_true`` (their argmax is the prediction), or multilabel
            scores with ``threshold``.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights of the batch (with ``ignore_index``, one per sample
            or one per label of ``y_true``).

        Returns
        -------
        self : MacroF1Accumulator
        """
        check_label_columns(self.labels, y_true, y_pred)
        data = Predictions(y_true, y_pred, sample_weight)
        tally = getattr(source_of(data), "tally", None)
        # data that a source counts where they live (a device, Dask) are its
        # to count; it may give them back to be counted here (CPU tensors)
        counted = data if tally is None else tally(data, self._stream)
        if isinstance(counted, Predictions):
            batch = self._counted_here(*counted.values())
        elif counted is None or isinstance(counted, MacroF1Counts):
            batch = counted
        else:
            self._add_tally(counted)
            return self
        if batch is None:
            return self
        self._check_fixed_labels(batch)
        with self._lock:  # counted above in parallel; only the merge is serial
            self._check_joining(batch)
            self._parts = _pushed(self._parts, batch)
        return self

    def _counted_here(
        self, y_true: Any, y_pred: Any, sample_weight: Any
    ) -> MacroF1Counts | None:
        """The record of a batch counted in this process (None: empty, or
        added to the class tally); device arrays a source gave back are
        counted on their device as a part of the stream."""
        y_true, y_pred, sample_weight = batch_labels(
            y_true,
            y_pred,
            sample_weight,
            ignore_index=self.ignore_index,
            threshold=self.threshold,
        )
        if (
            self.keep == "counts"
            and sample_weight is None
            and (self.labels is None or self._fixed is not None)
        ):
            classes = tally_labels(y_true, y_pred, self._fixed)
            if classes is not None:
                self._add_classes(classes)
                return None
        return count_batch(
            y_true,
            y_pred,
            sample_weight,
            columns=self.labels,
            moments=self.keep == "moments",
            caller="MacroF1Accumulator.update",
            cells=self.keep != "counts",
        )

    def _check_joining(self, batch: _State) -> None:
        """Under the lock: ValueError, the accumulator unchanged, when the
        batch contradicts the state (another kind of targets, another number
        of multilabel columns, labels of another type), as a merge of the two
        would refuse it at a read."""
        bottom = self._parts[0] if self._parts else None
        for earlier in (bottom, self._classes, self._tally):
            _check_joins(earlier, batch)

    def _add_classes(self, classes: ClassTally) -> None:
        """Add a batch's class tally to the state's (a record pushed on the
        stack instead when the two span more than ``TALLY_RANGE`` labels)."""
        with self._lock:  # counted in parallel; only the sum is serial
            self._check_joining(classes)
            state = self._classes
            if state is None:
                self._classes = classes
            elif (
                state.names is not None
                or max(state.high, classes.high) - min(state.low, classes.low)
                <= TALLY_RANGE
            ):
                self._classes = state + classes
            else:
                self._parts = _pushed(self._parts, classes.record())

    def _add_tally(self, tally: Tally) -> None:
        """Add a batch's tally (counts kept where the batch lives) to the
        state's."""
        with self._lock:  # counted above in parallel; only the sum is serial
            # refused as a merge refuses it, before anything changes (the
            # device tally's kind and columns are known without a read)
            self._check_joining(tally)
            if self._tally is None:
                self._tally = tally
            elif self._tally.same_place(tally):
                self._tally = self._tally + tally
            else:  # another device: the counts so far cross to the host
                record = self._tally.record()
                if record is not None:
                    self._parts = _pushed(self._parts, record)
                self._tally = tally

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
        >>> from sklearn_macrof1 import MacroF1Accumulator, averaged_f1_score
        >>> acc = MacroF1Accumulator(labels=["cat", "dog"])
        >>> acc.update(["cat", "dog"], ["cat", "cat"]).n_samples
        2
        >>> acc.reset()
        MacroF1Accumulator(labels=['cat', 'dog'], n_samples=0)
        >>> averaged_f1_score(acc.update(["dog", "cat"], ["dog", "cat"]).counts)
        1.0
        """
        with self._lock:
            self._parts = ()
            self._classes = None
            self._tally = None
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
        return self._holding(merge_counts(mine, theirs))

    def __add__(self, other: Any) -> MacroF1Accumulator:
        if not isinstance(other, MacroF1Accumulator):
            return NotImplemented
        return self.merge(other)

    def __radd__(self, other: Any) -> MacroF1Accumulator:
        if isinstance(other, int) and other == 0:  # sum(accumulators)
            return self.merge(self._holding(None))
        return NotImplemented

    # -- what has been accumulated -------------------------------------------

    @property
    def n_samples(self) -> int:
        """Number of samples counted so far."""
        with self._lock:
            parts, classes, tally = self._parts, self._classes, self._tally
        n = sum(int(counts.n_samples or 0) for counts in parts)
        if classes is not None:
            n += classes.n_samples
        return n if tally is None else n + tally.samples_counted()

    @property
    def counts(self) -> MacroF1Counts:
        """The accumulated record, :class:`MacroF1Counts`, with the
        accumulator's ``labels`` as its fixed labels."""
        counts = self._state()
        if counts is None:
            raise ValueError(
                "This MacroF1Accumulator has no samples yet; call update() with at "
                "least one non-empty batch first."
            )
        return replace(counts._check_weights(), labels=self.labels)

    def __repr__(self) -> str:
        labels = _plain(self.labels)
        options = "".join(
            f", {name}={value!r}"
            for name, value in (
                ("ignore_index", self.ignore_index),
                ("threshold", self.threshold),
                ("keep", None if self.keep == "counts" else self.keep),
            )
            if value is not None
        )
        try:
            counts = self._state()
        except ValueError:  # a device batch failed a check: reading raises
            return (
                f"MacroF1Accumulator(labels={labels!r}{options}, "
                "invalid batches: reading counts raises)"
            )
        if counts is None:
            return f"MacroF1Accumulator(labels={labels!r}{options}, n_samples=0)"
        return (  # all weights zero so far is no reason for a repr to raise
            f"MacroF1Accumulator(labels={labels!r}{options}, "
            f"n_samples={counts.n_samples}, kind={counts.kind!r}, "
            f"n_classes={counts.n_classes})"
        )

    def _repr_html_(self) -> str:
        # A still copy: the view reads the state several times.
        try:
            still = self._holding(self._state())
        except ValueError:  # a device batch failed a check: reading raises
            return f"<pre>{html.escape(repr(self))}</pre>"
        return accumulator_html(still, fbeta_summary)


def _size(counts: MacroF1Counts) -> int:
    """What merging ``counts`` costs: its classes and stored sparse cells."""
    size = counts.n_classes
    for table in (counts.confusion, counts.moments):
        if table is not None and sp.issparse(table):
            size += int(cast(Any, table).nnz)
    return size


def _pushed(
    parts: tuple[MacroF1Counts, ...], batch: MacroF1Counts
) -> tuple[MacroF1Counts, ...]:
    """The stack of host records with ``batch`` on top: merged with the record
    below while that one is at most twice its size (sizes then fall at least
    by half from the bottom up: O(log n) records, and each class or cell is
    merged O(log n) times). The caller has checked the batch against the
    state (``MacroF1Accumulator._check_joining``)."""
    stack = [*parts, batch]
    while len(stack) > 1 and _size(stack[-2]) <= 2 * _size(stack[-1]):
        top = stack.pop()
        stack[-1] = stack[-1].merge(top)
    return tuple(stack)


def _merged(parts: tuple[MacroF1Counts, ...]) -> MacroF1Counts | None:
    """The record of every part (None: none), merged from the top down: the
    small records first, so that the bottom one, which holds most of the
    cells, is merged once (from the bottom up each merge copied it: 6x slower
    at 100,000 classes)."""
    counts = None
    for part in reversed(parts):
        counts = merge_counts(part, counts)
    return counts


def _targets_of(state: _State) -> tuple[str, int]:
    """The kind of targets of a record or tally and its number of multilabel
    columns (0 for 1-D labels), known without reading a device."""
    if isinstance(state, ClassTally):
        return "multiclass", 0
    if not isinstance(state, MacroF1Counts):
        return state.targets()  # a source's tally
    if state.kind != _MULTILABEL:
        return "multiclass", 0
    return _MULTILABEL, state.n_classes


def _first_label(state: _State) -> np.ndarray:
    """One label of a state of 1-D targets (none: empty), whose dtype's kind
    is that of all its labels."""
    if isinstance(state, ClassTally):
        if state.names is not None:
            return state.names[:1].astype(state.dtype)
        return np.array([state.low], dtype=state.dtype)
    if not isinstance(state, MacroF1Counts):
        return state.first_label()  # a source's tally
    return state.classes[:1]


def _check_joins(earlier: _State | None, batch: _State) -> None:
    """ValueError, as a merge of the two records raises it, when a batch has
    another kind of targets, another number of multilabel columns or labels
    of another type (strings and numbers) than the counts so far: refused at
    its update, the accumulator unchanged."""
    if earlier is None:
        return
    (kind, width), (new_kind, new_width) = _targets_of(earlier), _targets_of(batch)
    if (kind == _MULTILABEL) != (new_kind == _MULTILABEL):
        raise ValueError(
            f"This batch holds {describe(new_kind)} but the earlier batches held "
            f"{describe(kind)}; all batches must have the same kind of targets."
        )
    if width != new_width:
        raise ValueError(
            "Multilabel batches with different numbers of labels: the earlier "
            f"batches have {width} indicator columns and this one has "
            f"{new_width}; every batch must have the same columns."
        )
    if kind != _MULTILABEL:  # labels of one type (classes of one dtype kind are)
        first, new = _first_label(earlier), _first_label(batch)
        if first.size and new.size and first.dtype.kind != new.dtype.kind:
            union_labels(first, new)


def _label_type(labels: np.ndarray) -> Any:
    """What merging compares besides the values: the dtype, except that strings
    are strings whatever their width or array (``<U3``, ``<U8``, an object array
    of ``str`` from pandas; a ``StringDType`` array became ``<U``)."""
    if labels.dtype.kind == "U" or (
        labels.dtype == object and all(isinstance(v, str) for v in labels.tolist())
    ):
        return str
    return labels.dtype


def _check_number(value: Any, name: str, kind: type) -> Any:
    """None, or a real number (an integer for ``ignore_index``)."""
    if value is None:
        return None
    integral = isinstance(value, int | np.integer) and not isinstance(value, bool)
    real = integral or isinstance(value, float | np.floating)
    if not (integral if kind is int else real) or (real and not np.isfinite(value)):
        accepted = "an integer label" if kind is int else "a finite real number"
        raise InvalidParameterError(
            f"The '{name}' parameter of MacroF1Accumulator must be {accepted} or "
            f"None. Got {value!r} instead."
        )
    return kind(value)


def _plain(labels: np.ndarray | None) -> Any:
    return None if labels is None else labels.tolist()


__all__ = ["MacroF1Accumulator"]
