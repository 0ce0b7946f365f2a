"""The count record, :class:`MacroF1Counts`: everything the scores need from one
set of targets, and the one way targets become it.

:func:`read` reads, checks and counts ``y_true`` / ``y_pred`` once (collections
that live elsewhere go to the counters the integrations layer registers) and
:func:`count_targets` puts the counting kernels' arrays
(:mod:`~sklearn_macrof1._counting._kernels`) into a record. Every consumer (the
scores, the summary, the report, the intervals, the streaming accumulator, Dask
and Spark) reads records, and records of disjoint sets of samples merge into the
record of their union (:meth:`MacroF1Counts.merge`, whose rule the class
documents). Per-sample counts (``average="samples"``) merge as a histogram of
the distinct per-sample ``(tp, true, pred)`` triples
(:meth:`~._counting.SampleCounts.histogram`): a sample's precision, recall and
F-beta depend only on its triple, so the merged record needs memory for the
distinct triples, not for the samples. :func:`merge_counts` merges with None (an
empty batch) on either side, the form a tree of merges on a cluster uses.

Second moments (``MacroF1Counts.moments``, ``SampleCounts.weight2``) are what the
delta method needs beyond the counts
(:func:`~sklearn_macrof1._stats._intervals.moment_variance`); they are counted
only when an interval asks for them, and they add like the counts. A record
with moments merged with one without has none (they would describe only some of
the samples); an interval that needs them then refuses the record. Above 2048
classes (256 multilabel columns) the confusion matrix and the second moments are
kept as their occupied cells (``scipy.sparse.csr_array``): their size grows
with the cells the samples occupy, O(min(n, k²)), never as a dense ``k x k``
array, and they merge cell by cell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._options import (
    all_zero_weights,
    check_array_like,
    check_confusion_matrix,
    check_sample_weight,
    host_copy,
)
from .._read._arrays import fixed_width_strings
from .._read._encoding import Targets
from .._read._targets import naming_prediction, read_targets
from .._sklearn_private import InvalidParameterError
from ._kernels import (
    MAX_CONFUSION_CLASSES,
    SampleCounts,
    count_1d,
    count_multilabel,
    indicator_moments,
    table_counts,
)
from ._registry import CountRequest, Predictions, lives_elsewhere, source_of

_MULTILABEL = "multilabel-indicator"

# What a count record can hold for the verbs (``MacroF1Counts._provides``), and
# what a reading adds; each verb declares what it reads from them (the
# intervals: :func:`~sklearn_macrof1._stats._intervals.requires`).
#: Per-class true positives, true and predicted counts: every score.
CLASS_COUNTS = "class counts"
#: The joint (true, predicted) cells of 1-D targets: the confusion matrix.
CELLS = "joint cells"
#: Each cell's (or multilabel column's) sum of squared weights.
MOMENTS = "second moments"
#: Multilabel targets' per-sample (tp, true, pred) counts: average="samples".
SAMPLE_COUNTS = "per-sample counts"
#: Each sample's own contribution: no record holds it, only a reading that
#: keeps the targets.
SAMPLE_ROWS = "sample rows"


@dataclass(eq=False)
class MacroF1Counts:
    """The count record: what the scores need from one set of predictions.

    Every verb of the package (the four scores, :func:`fbeta_summary`,
    :func:`classification_report`, :func:`fbeta_confidence_interval`,
    :meth:`MacroF1Display.from_counts`) takes a record in place of ``y_true``
    (``y_pred`` omitted), and gives what it gives for the predictions the
    record counted. Make one with :meth:`from_predictions` (in-memory arrays,
    pandas, sparse matrices, Dask collections counted where they live) or
    :meth:`from_confusion_matrix`; a :class:`MacroF1Accumulator` holds one
    (``acc.counts``). Records are not changed in place: :meth:`merge` and the
    verbs return new objects.

    Attributes
    ----------
    kind : {"binary", "multiclass", "multilabel-indicator"}
        The target type, as ``sklearn.utils.multiclass.type_of_target`` names it.
    classes : ndarray of shape (n_classes,)
        Labels present in ``y_true`` or ``y_pred``, sorted (every column index
        for multilabel targets; every row of a confusion matrix). Label sets
        counted in Spark (``sklearn_macrof1.spark.counts_from_dataframe``):
        the label values, sorted or in the order of the fixed ``labels``;
        ``labels=`` then select them by value, not by column index.
    tp, true, pred : ndarray of shape (n_classes,)
        (Weighted) true positives, true counts (support) and predicted counts
        of each class.
    confusion : ndarray or scipy.sparse.csr_array of shape (n_classes, \
n_classes), or None
        Confusion matrix, rows are true labels and columns predictions, as in
        ``sklearn.metrics.confusion_matrix``. Above 2048 classes, its occupied
        cells (a ``scipy.sparse.csr_array``, as
        ``FBetaSummary.confusion_matrix``). None for multilabel targets, and
        for records that keep only per-class counts (:meth:`from_totals`, and
        a merge with such a record).
    n_samples : int or None
        Number of samples counted (None for a record read from a confusion
        matrix or from totals).
    labels : ndarray or None
        The fixed labels the record was counted with (``from_predictions(...,
        labels=...)``, ``MacroF1Accumulator(labels=...)``): a verb given the
        record without ``labels=`` uses these, as the one-shot call with
        ``labels=`` does. None: every class present.
    weighted : bool
        Whether the counts are sample-weighted (``sample_weight`` was given,
        or a confusion matrix holds non-integer counts).
    moments : ndarray, scipy.sparse.csr_array or None
        Second moments for the delta method (``from_predictions(...,
        moments=True)``). 1-D targets: shape ``(n_classes, n_classes)`` like
        ``confusion`` (and sparse where it is), the sum of the squared sample
        weights in each cell (None without weights: the confusion matrix is
        then its own second moment). Multilabel targets: shape ``(3 L, 3 L)``
        (L columns), ``sum_i w_i**2 x_i x_i'`` of each sample's indicator row
        ``x_i = (tp | true | pred)`` over all columns; above 256 columns its
        occupied entries (a ``scipy.sparse.csr_array``: the pairs of entries
        that occur together in a sample). None when not counted.

    Notes
    -----
    **Per-sample counts.** Multilabel records from :meth:`from_predictions`
    (and streams of multilabel batches) also hold the per-sample counts that
    ``average="samples"`` needs: a histogram of the distinct per-sample
    ``(tp, true, pred)`` triples with the weights of each, so its size grows
    with the distinct triples, not with the samples. The repr says whether a
    record holds them (``samples=True``). They, and the fields whose names
    start with an underscore, are the record's internal state: not part of
    the public interface, but compared and pickled with the rest.

    **Merging.** ``a.merge(b)`` (or ``a + b``; ``sum(records)`` works) is the
    record of both sets of samples, ``a`` and ``b`` unchanged. 1-D records are
    aligned by label over the union of their classes (strings and numbers
    never mix: ``ValueError``); multilabel records must have the same columns
    (and per-sample counts over the same ones); 1-D and multilabel records do
    not merge. Both must have the same fixed ``labels``
    (or none), which the merged record keeps. Second moments are kept when
    both records have them. Confusion matrices and second moments add cell
    by cell, dense up to 2048 classes of the union and as occupied cells
    above.

    **Equality.** Two records are equal when every attribute is: arrays by
    value (same kind of dtype and shape, nan equal to nan; a sparse matrix
    equals a sparse matrix of the same values, never a dense array). Comparing never
    raises; records are not hashable (they hold arrays).

    **Pickling.** A record pickles and unpickles to an equal record, so it
    can be counted on one machine and scored on another.

    Examples
    --------
    >>> from sklearn_macrof1 import MacroF1Counts, fbeta_summary
    >>> counts = MacroF1Counts.from_predictions([0, 1, 2, 0], [0, 2, 2, 0])
    >>> counts
    MacroF1Counts(kind='multiclass', n_classes=3, n_samples=4, labels=None, \
confusion=True, samples=False, moments=False)
    >>> more = MacroF1Counts.from_predictions([1, 2], [1, 1])
    >>> round(fbeta_summary(counts + more).averaged_fbeta, 4)
    0.6667
    >>> round(fbeta_summary([0, 1, 2, 0, 1, 2], [0, 2, 2, 0, 1, 1]).averaged_fbeta, 4)
    0.6667
    """

    kind: str
    classes: np.ndarray
    tp: np.ndarray
    true: np.ndarray
    pred: np.ndarray
    confusion: np.ndarray | sp.csr_array | None = None
    n_samples: int | None = None
    labels: np.ndarray | None = None
    weighted: bool = False
    moments: np.ndarray | sp.csr_array | None = None
    # Internal state (not in the repr; compared and pickled with the rest):
    #: Multilabel: the per-sample counts of ``average="samples"`` over
    #: ``_sample_columns`` (None: all columns); None for 1-D targets.
    _samples: SampleCounts | None = field(default=None, repr=False)
    _sample_columns: np.ndarray | None = field(default=None, repr=False)
    #: False when only the per-sample counts were counted (a lone
    #: ``average="samples"`` score needs nothing else): ``tp``, ``true`` and
    #: ``pred`` are then empty and must not be aggregated.
    _class_counts: bool = field(default=True, repr=False)
    #: Every sample counted has weight 0: valid for a batch of a stream, not
    #: for a score (:meth:`_check_weights`).
    _zero_weight: bool = field(default=False, repr=False)
    #: The classes in the order of the rows of the confusion matrix they were
    #: read from (:meth:`from_confusion_matrix`; ``0 .. k-1`` without
    #: ``labels``): the order of the rows of :func:`classification_report`, and
    #: the classes every resample of an interval keeps. None: counted from
    #: predictions.
    _class_order: np.ndarray | None = field(default=None, repr=False)

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_pred: Any,
        *,
        labels: Any = None,
        sample_weight: Any = None,
        moments: bool = False,
    ) -> MacroF1Counts:
        """Count predictions once into a record.

        The targets are read, checked and counted exactly as the score
        functions count them (Dask collections on their workers, never
        gathered). Multilabel targets also get their per-sample counts (a
        histogram of distinct triples), so every ``average`` works on the
        record.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,) or {array-like, sparse \
matrix} of shape (n_samples, n_labels)
            Ground truth: class labels (ints, strings, bools; a list, numpy
            array, pandas Series or Dask collection), or a 0/1 indicator
            matrix for multilabel targets.
        y_pred : same kind as ``y_true``
            Predicted labels.
        labels : array-like, default=None
            Fixed labels: the verbs given the record use them when called
            without ``labels=`` (as the one-shot call with ``labels=``). For
            multilabel targets, the column indices, which also fix the columns
            of the per-sample counts of ``average="samples"``.
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights, counted into the record.
        moments : bool, default=False
            Also count the second moments a delta-method interval needs for
            weighted or multilabel targets (:func:`fbeta_confidence_interval`
            of the record); unweighted 1-D targets need none.

        Returns
        -------
        counts : MacroF1Counts

        Examples
        --------
        >>> from sklearn_macrof1 import MacroF1Counts, averaged_f1_score
        >>> counts = MacroF1Counts.from_predictions(["a", "b", "b"], ["a", "a", "b"])
        >>> counts.classes, counts.tp
        (array(['a', 'b'], dtype='<U1'), array([1, 1]))
        >>> averaged_f1_score(counts) == averaged_f1_score(
        ...     ["a", "b", "b"], ["a", "a", "b"])
        True
        """
        caller = "MacroF1Counts.from_predictions"
        labels = host_copy(labels)  # a device array's k labels, as NumPy
        check_counting_options(labels, moments, caller=caller)
        counts = read(
            y_true,
            y_pred,
            sample_weight=sample_weight,
            labels=labels,
            samplewise=True,  # multilabel targets only: every average works
            moments=bool(moments),
            targets_kept=False,  # only the record leaves: it needs every moment
            caller=caller,
        ).counts._compact()
        if labels is not None:
            counts.labels = fixed_labels(np.asarray(labels))
        return counts

    @classmethod
    def from_confusion_matrix(
        cls, matrix: Any, *, rows: str, labels: Any = None
    ) -> MacroF1Counts:
        """The record of a confusion matrix, with an explicit orientation.

        Parameters
        ----------
        matrix : array-like of shape (n_classes, n_classes)
            MacroF1Counts (ints, or floats for weighted counts). Every row and column
            is a class, even an empty one, as in
            ``confusion_matrix(..., labels=...)``.
        rows : {"true", "predicted"}
            Required: what the rows are. "true" is
            ``sklearn.metrics.confusion_matrix``'s orientation (rows true labels,
            columns predictions); "predicted" is the reference paper's (rows
            predictions, columns true labels). Nothing is guessed.
        labels : array-like of shape (n_classes,), default=None
            Names of the classes, in the order of the rows; ``0 .. n-1`` by
            default. :func:`classification_report` of the record lists them in
            this order.

        Returns
        -------
        counts : MacroF1Counts
            Without per-sample counts (no ``average="samples"``) and with
            ``n_samples`` None. Its intervals take the cells as counts of
            independent samples: a matrix of non-integer (weighted) counts has
            none.

        Examples
        --------
        The reference paper's Table 1, in its orientation (rows are predictions):

        >>> from sklearn_macrof1 import MacroF1Counts, fbeta_summary
        >>> counts = MacroF1Counts.from_confusion_matrix(
        ...     [[100, 10000], [0, 100]], rows="predicted")
        >>> s = fbeta_summary(counts)
        >>> round(s.fbeta_of_averages, 6), round(s.averaged_fbeta, 6), round(s.gap, 6)
        (0.50495, 0.019608, 0.485343)
        """
        m = check_confusion_matrix(matrix, rows=rows)
        k = m.shape[0]
        if labels is None:
            classes = order = np.arange(k)
        else:
            order = fixed_labels(np.asarray(labels))
            if order.shape != (k,):
                raise ValueError(
                    f"labels must name the {k} classes of the matrix; got "
                    f"{order.shape[0] if order.ndim == 1 else order.shape} names."
                )
            if np.unique(order).shape[0] != k:
                raise ValueError("labels must be distinct.")
            sort = np.argsort(order, kind="stable")
            classes, m = order[sort], m[np.ix_(sort, sort)]
        kind = "binary" if k <= 2 else "multiclass"
        return cls(
            kind,
            classes,
            *table_counts(m),
            m,
            weighted=not np.array_equal(m, np.round(m)),
            _class_order=order,
        )

    @classmethod
    def from_totals(cls, totals: Any, *, labels: Any) -> MacroF1Counts:
        """The record of per-label totals, as :meth:`totals` gives them (summed
        over processes, for example).

        Parameters
        ----------
        totals : array-like of shape (3, n_labels)
            True positives, true counts and predicted counts of each label
            (ints, or floats for weighted counts).
        labels : array-like of shape (n_labels,)
            The fixed labels the totals are over, in their order: the record's
            fixed ``labels``.

        Returns
        -------
        counts : MacroF1Counts
            1-D targets over ``labels`` (every average but ``"samples"``),
            without a confusion matrix and with ``n_samples`` None.

        Examples
        --------
        >>> from sklearn_macrof1 import MacroF1Counts, averaged_f1_score
        >>> a = MacroF1Counts.from_predictions([0, 1], [0, 0], labels=[0, 1, 2])
        >>> b = MacroF1Counts.from_predictions([2, 2], [2, 1], labels=[0, 1, 2])
        >>> a.totals() + b.totals()
        array([[1, 0, 1],
               [1, 1, 2],
               [2, 1, 1]])
        >>> total = MacroF1Counts.from_totals(a.totals() + b.totals(), labels=[0, 1, 2])
        >>> averaged_f1_score(total) == averaged_f1_score(a + b)
        True
        """
        order = fixed_labels(np.asarray(labels))
        table = np.asarray(totals)
        if order.ndim != 1 or np.unique(order).shape[0] != order.shape[0]:
            raise ValueError(f"labels must be distinct 1-D labels; got {labels!r}.")
        if table.shape != (3, order.shape[0]) or table.dtype.kind not in "biuf":
            raise ValueError(
                "totals must be numbers of shape (3, n_labels): the true positives, "
                "true counts and predicted counts of each label "
                f"({order.shape[0]} labels); got shape {table.shape}."
            )
        if not np.isfinite(table).all():
            raise ValueError("totals must be finite.")
        sort = np.argsort(order, kind="stable")
        tp, true, pred = table[:, sort]
        return cls(
            "binary" if order.shape[0] <= 2 else "multiclass",
            order[sort],
            tp,
            true,
            pred,
            labels=order,
            weighted=not np.array_equal(table, np.round(table)),
        )

    def totals(self) -> np.ndarray:
        """The true positives, true counts and predicted counts of each fixed
        label, shape ``(3, n_labels)``, in the order of ``labels``.

        Records with the same fixed labels have totals that add: counted in
        several processes, one ``all_reduce`` (sum) of the totals and
        :meth:`from_totals` give the record of every sample (1-D targets).
        Records without fixed labels see different classes: gather and
        :meth:`merge` them instead.
        """
        if self.labels is None or self.kind == _MULTILABEL:
            raise ValueError(
                "totals() are the counts of fixed labels of 1-D targets (count "
                "with labels=..., or MacroF1Accumulator(labels=...)); records of "
                "discovered labels or multilabel targets are merged instead: "
                "gather them (e.g. torch.distributed.all_gather_object) and add."
            )
        index = _positions_in(self.classes, self.labels)
        missing = np.setdiff1d(np.arange(self.n_classes), index[index >= 0])
        if missing.size:
            raise ValueError(
                f"The record counted classes {self.classes[missing].tolist()[:5]!r} "
                f"that are not among its fixed labels {_few(self.labels)}."
            )
        table = np.zeros((3, self.labels.shape[0]), dtype=self.tp.dtype)
        found = index >= 0
        for row, values in enumerate((self.tp, self.true, self.pred)):
            table[row, found] = values[index[found]]
        return table

    @property
    def _provides(self) -> frozenset[str]:
        """What this record holds for the verbs (:data:`CLASS_COUNTS`,
        :data:`CELLS`, :data:`MOMENTS`, :data:`SAMPLE_COUNTS`)."""
        held = {
            CLASS_COUNTS: self._class_counts,
            CELLS: self.confusion is not None,
            MOMENTS: self.moments is not None,
            SAMPLE_COUNTS: self._samples is not None,
        }
        return frozenset(name for name, here in held.items() if here)

    # ------------------------------------------------------------ public face
    @property
    def n_classes(self) -> int:
        """Number of classes (multilabel: columns) counted."""
        return int(self.classes.shape[0])

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(kind={self.kind!r}, n_classes={self.n_classes}, "
            f"n_samples={self.n_samples}, labels={_few(self.labels)}, "
            f"confusion={self.confusion is not None}, "
            f"samples={self._samples is not None}, "
            f"moments={self.moments is not None})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MacroF1Counts):
            return NotImplemented
        return all(
            _same(getattr(self, f.name), getattr(other, f.name)) for f in fields(self)
        )

    __hash__ = None  # type: ignore[assignment]  # equal by value, holds arrays

    def merge(self, other: MacroF1Counts) -> MacroF1Counts:
        """The record of both sets of samples (ValueError when they contradict).

        See the merge rule in the class's Notes; ``self`` and ``other`` are
        unchanged.
        """
        if not isinstance(other, MacroF1Counts):
            raise TypeError(
                "Can only merge a MacroF1Counts with another MacroF1Counts; got "
                f"{type(other).__name__}."
            )
        if (self.kind == _MULTILABEL) != (other.kind == _MULTILABEL):
            raise ValueError(
                f"This batch holds {describe(other.kind)} but the earlier batches "
                f"held {describe(self.kind)}; all batches must have the same kind "
                "of targets."
            )
        if not _same(self.labels, other.labels):
            raise ValueError(
                "Cannot merge records counted with different fixed labels: "
                f"{_few(self.labels)} and {_few(other.labels)}."
            )
        merged = (_merge_multilabel if self.kind == _MULTILABEL else _merge_1d)(
            self, other
        )
        merged._class_counts = self._class_counts and other._class_counts
        if self.n_samples is not None and other.n_samples is not None:
            merged.n_samples = self.n_samples + other.n_samples
        merged._zero_weight = self._zero_weight and other._zero_weight
        merged.labels = self.labels
        merged.weighted = self.weighted or other.weighted
        if _same(self._class_order, other._class_order):
            merged._class_order = self._class_order
        return merged

    def __add__(self, other: Any) -> MacroF1Counts:
        if not isinstance(other, MacroF1Counts):
            return NotImplemented
        return self.merge(other)

    def __radd__(self, other: Any) -> MacroF1Counts:
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self  # sum(records) starts from 0
        return NotImplemented

    # ------------------------------------------------------------ internal
    def _check_weights(self) -> MacroF1Counts:
        """Self, as the record of a whole (:func:`zero_weight_rule`)."""
        zero_weight_rule(self._zero_weight, self.n_samples)
        return self

    def _compact(self) -> MacroF1Counts:
        """The same record with its per-sample counts as a histogram."""
        if self._samples is None or self._samples.count is not None:
            return self
        return replace(self, _samples=self._samples.histogram())


def check_counting_options(labels: Any, moments: Any, *, caller: str) -> None:
    """The options of a record's constructor (``from_predictions``, Spark's
    ``counts_from_dataframe``): ``labels`` None or a 1-D array-like, ``moments``
    a bool."""
    if labels is not None:
        check_array_like(labels, name="labels", caller=caller, sparse=False)
        try:
            ndim = np.ndim(labels)
        except ValueError:  # nested sequences of different lengths
            ndim = -1
        if ndim != 1:
            raise ValueError(
                f"The 'labels' parameter of {caller} must be a 1-D "
                f"array-like; got {labels!r:.80}."
            )
    if not isinstance(moments, bool | np.bool_):
        raise InvalidParameterError(
            f"The 'moments' parameter of {caller} must be an instance of "
            f"'bool'. Got {moments!r} instead."
        )


def fixed_labels(labels: np.ndarray) -> np.ndarray:
    """Fixed labels as a record keeps them: strings (in an object array, as
    pandas holds them, or numpy 2's ``StringDType``) as the ``<U`` array the
    classes read from targets are, so equal labels compare equal."""
    if labels.dtype.kind == "T":
        return fixed_width_strings(labels, "labels")
    if (
        labels.dtype == object
        and labels.size
        and all(isinstance(label, str) for label in labels.ravel().tolist())
    ):
        return labels.astype(str)
    return labels


def _positions_in(classes: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Index of each of ``labels`` in the sorted ``classes``; -1 where absent."""
    if classes.shape[0] == 0:
        return np.full(labels.shape[0], -1, dtype=np.intp)
    index = np.minimum(np.searchsorted(classes, labels), classes.shape[0] - 1)
    return np.where(classes[index] == labels, index, -1)


def _few(labels: np.ndarray | None) -> str:
    """Labels for a repr or a message, at most five of them (O(1) in size)."""
    if labels is None:
        return "None"
    values = labels.tolist()
    if len(values) <= 5:
        return repr(values)
    return repr(values[:5])[:-1] + f", ...] ({len(values)} labels)"


def _same(a: Any, b: Any) -> bool:
    """Value equality of two attributes of a record (never raises)."""
    if a is None or b is None:
        return a is None and b is None
    if sp.issparse(a) or sp.issparse(b):
        if not (sp.issparse(a) and sp.issparse(b)):
            return False
        if a.shape != b.shape or a.dtype.kind != b.dtype.kind:
            return False
        return bool((sp.csr_array(a) != sp.csr_array(b)).nnz == 0)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        if a.shape != b.shape or a.dtype.kind != b.dtype.kind:
            return False
        try:
            return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
        except (TypeError, ValueError):  # pragma: no cover - exotic objects
            return False
    if isinstance(a, SampleCounts) and isinstance(b, SampleCounts):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # pragma: no cover - exotic objects
        return False


# ------------------------------------------------------------------- merging


def merge_counts(
    a: MacroF1Counts | None, b: MacroF1Counts | None
) -> MacroF1Counts | None:
    """``a.merge(b)``, where None (an empty batch) counts nothing."""
    if a is None:
        return b
    if b is None:
        return a
    return a.merge(b)


def describe(kind: str) -> str:
    if kind == _MULTILABEL:
        return "a multilabel indicator matrix"
    return "1-D class labels (binary or multiclass)"


def union_labels(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sorted union of two label sets; ValueError when strings meet numbers."""
    a_strings, b_strings = a.dtype.kind in "US", b.dtype.kind in "US"
    if (a_strings and b.dtype.kind in "biuf") or (b_strings and a.dtype.kind in "biuf"):
        old, new = ("strings", "numbers") if a_strings else ("numbers", "strings")
        raise ValueError(
            f"Mix of label input types: the earlier batches hold {old} and this one "
            f"holds {new} (labels {b.tolist()[:5]!r}); all batches must use labels "
            "of one type."
        )
    try:
        both = np.concatenate([a, b])
        both.sort(kind="stable")  # a sort, not np.unique's hashing (O(k log k))
        first = np.ones(both.shape[0], dtype=bool)
        first[1:] = both[1:] != both[:-1]
        return both[first]
    except TypeError as exc:
        raise ValueError(
            "Mix of label input types (string and number) between batches: labels "
            f"{a.tolist()[:5]!r} and {b.tolist()[:5]!r}; all batches must use labels "
            "of one type."
        ) from exc


def _spread(values: np.ndarray, index: np.ndarray, size: int, dtype: Any) -> Any:
    # Added, not assigned: two classes of a record may be one class of the union
    # (int64 labels 2**62 + 1 and 2**62 + 2 are one float64 label).
    out = np.zeros(size, dtype=dtype)
    np.add.at(out, index, values)
    return out


def _same_classes(a: np.ndarray, b: np.ndarray) -> bool:
    # Equal labels of different dtypes (bool and int, int and float) go through
    # the union, whose dtype is numpy's promotion of both: the merged labels do
    # not depend on the order of the merge.
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return bool(np.all(a == b))


def _merge_1d(a: MacroF1Counts, b: MacroF1Counts) -> MacroF1Counts:
    if _same_classes(a.classes, b.classes):
        classes = a.classes
        tp, true, pred = a.tp + b.tp, a.true + b.true, a.pred + b.pred
        confusion = _sum_tables(a.confusion, b.confusion)
        moments = _sum_tables(a.moments, b.moments)
    else:
        classes = union_labels(a.classes, b.classes)
        k = classes.shape[0]
        ia = np.searchsorted(classes, a.classes)
        ib = np.searchsorted(classes, b.classes)
        dtype = np.result_type(a.tp.dtype, b.tp.dtype)
        tp = _spread(a.tp, ia, k, dtype) + _spread(b.tp, ib, k, dtype)
        true = _spread(a.true, ia, k, dtype) + _spread(b.true, ib, k, dtype)
        pred = _spread(a.pred, ia, k, dtype) + _spread(b.pred, ib, k, dtype)
        confusion = moments = None
        if a.confusion is not None and b.confusion is not None:
            confusion = _spread_table(a.confusion, ia, b.confusion, ib, k, dtype)
            if a.moments is not None and b.moments is not None:
                moments = _spread_table(a.moments, ia, b.moments, ib, k, np.float64)
        # (ia, ib are sorted: a class folded into the one before it repeats it;
        # O(k), where np.unique's hashing took 0.3 s for 100,000 classes)
        if (np.diff(ia) == 0).any() or (np.diff(ib) == 0).any():
            # Two classes of a record became one class of the union: samples
            # that confused them are now hits, the folded table's diagonal.
            if confusion is None:
                raise ValueError(
                    "Batches whose labels compare as one value only in a common "
                    f"dtype (labels {a.classes.tolist()[:5]!r} and "
                    f"{b.classes.tolist()[:5]!r}, for example int64 above 2**53 "
                    "and float64) cannot be merged without a confusion matrix; "
                    "give every batch labels of one dtype (or keep the matrix: "
                    "MacroF1Accumulator(keep='cells'))."
                )
            tp = confusion.diagonal().copy()
    kind = "binary" if classes.shape[0] <= 2 else "multiclass"
    return MacroF1Counts(kind, classes, tp, true, pred, confusion, moments=moments)


def _spread_table(
    a: Any, ia: np.ndarray, b: Any, ib: np.ndarray, k: int, dtype: Any
) -> Any:
    """Two per-cell tables added on the ``k x k`` cells of the union's classes
    (``ia``, ``ib``: the union's position of each class of ``a`` and ``b``):
    dense up to :data:`MAX_CONFUSION_CLASSES` classes, else the occupied
    cells of both, re-coded and added (O(cells), no ``k x k`` array)."""
    if k <= MAX_CONFUSION_CLASSES and not (sp.issparse(a) or sp.issparse(b)):
        out = np.zeros((k, k), dtype=dtype)
        for index, table in ((ia, a), (ib, b)):
            if index.shape[0] == k and (np.diff(index) > 0).all():
                out += table  # every class of the union, in its order
            else:  # only the nonzero cells move (a batch holds few of k**2)
                rows, cols = np.nonzero(table)
                np.add.at(out, (index[rows], index[cols]), table[rows, cols])
        return out
    pa, pb = sp.coo_array(a), sp.coo_array(b)
    rows = np.concatenate([ia[pa.row], ib[pb.row]])
    cols = np.concatenate([ia[pa.col], ib[pb.col]])
    values = np.concatenate([pa.data, pb.data]).astype(dtype, copy=False)
    return _table((values, (rows, cols)), k)


def _table(cells: Any, k: int) -> Any:
    """A ``k x k`` per-cell table from its cells (duplicates added): dense up
    to :data:`MAX_CONFUSION_CLASSES` classes, else a ``csr_array``."""
    table = sp.csr_array(cells, shape=(k, k))
    table.sum_duplicates()
    return table.toarray() if k <= MAX_CONFUSION_CLASSES else table


def _sum_tables(a: Any, b: Any) -> Any:
    """``a + b`` of two per-cell tables of the same classes (or multilabel
    moments of the same columns): dense when both are, else the occupied
    cells (a record read from a large confusion matrix is dense); None when
    either is None."""
    if a is None or b is None:
        return None
    if not (sp.issparse(a) or sp.issparse(b)):
        return a + b
    return sp.csr_array(sp.csr_array(a) + sp.csr_array(b))


def _same_columns(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and bool(np.all(a == b))


def _merge_multilabel(a: MacroF1Counts, b: MacroF1Counts) -> MacroF1Counts:
    if a.n_classes != b.n_classes:
        raise ValueError(
            "Multilabel batches with different numbers of labels: the earlier "
            f"batches have {a.n_classes} indicator columns and this one has "
            f"{b.n_classes}; every batch must have the same columns."
        )
    samples = None
    if a._samples is not None or b._samples is not None:
        if (
            a._samples is None
            or b._samples is None
            or not _same_columns(a._sample_columns, b._sample_columns)
        ):
            raise ValueError(
                "Cannot merge multilabel counts whose per-sample counts cover "
                f"different columns ({a._sample_columns!r} and "
                f"{b._sample_columns!r}); use the same labels."
            )
        samples = a._samples.merge(b._samples)
    both = a._class_counts and b._class_counts
    return MacroF1Counts(
        _MULTILABEL,
        a.classes,
        a.tp + b.tp if both else a.tp[:0],
        a.true + b.true if both else a.true[:0],
        a.pred + b.pred if both else a.pred[:0],
        moments=_sum_tables(a.moments, b.moments),
        _samples=samples,
        _sample_columns=a._sample_columns,
    )


# ------------------------------------------------------------------- reading


def count_targets(
    targets: Targets,
    weights: np.ndarray | None,
    *,
    samplewise: bool = False,
    sample_columns: np.ndarray | None = None,
    class_counts: bool = True,
    moments: bool = False,
    zero_weight: bool = False,
    cells: bool = False,
) -> MacroF1Counts:
    """Count validated targets in one pass.

    ``weights`` are validated sample weights (or None). ``samplewise`` asks for
    per-sample counts over ``sample_columns`` (all columns when None); 1-D targets
    have none (``average="samples"`` is rejected when the counts are selected).
    ``class_counts=False`` (with ``samplewise``) skips the per-column counts of
    multilabel targets, which a lone ``average="samples"`` score does not use.
    ``moments`` also counts the second moments the delta method needs
    (``MacroF1Counts.moments``; nothing for unweighted 1-D targets, whose confusion
    matrix is its own second moment). ``zero_weight``: the weights are all
    zero, in a part of the data (:func:`zero_weight_rule`). ``cells``: 1-D
    targets of more than 2048 classes keep the occupied cells of their
    confusion matrix (and moments), which a record that leaves the call
    needs for its intervals; the scores of one call need only the per-class
    counts, counted without the sort the cells cost.
    """
    if targets.kind == _MULTILABEL:
        class_counts = class_counts or not samplewise
        tp, true, pred, samples = count_multilabel(
            targets, weights, samplewise, sample_columns, class_counts
        )
        second = indicator_moments(targets, weights) if moments else None
        return MacroF1Counts(
            _MULTILABEL,
            targets.code_labels,
            tp,
            true,
            pred,
            n_samples=targets.n_samples,
            weighted=weights is not None,
            moments=second,
            _samples=samples,
            _sample_columns=sample_columns if samplewise else None,
            _class_counts=class_counts,
            _zero_weight=zero_weight,
        )
    classes, tp, true, pred, confusion, second = count_1d(
        targets, weights, moments and weights is not None, cells
    )
    return MacroF1Counts(
        "binary" if classes.shape[0] <= 2 else "multiclass",
        classes,
        tp,
        true,
        pred,
        confusion,
        n_samples=targets.n_samples,
        weighted=weights is not None,
        moments=second,
        _zero_weight=zero_weight,
    )


def all_zero(weights: np.ndarray | None) -> bool:
    """Whether every one of the (checked) ``weights`` is zero."""
    return weights is not None and weights.shape[0] > 0 and not weights.any()


def zero_weight_rule(
    zero: bool,
    n_samples: int | None,
    *,
    part: bool = False,
    error: ValueError | None = None,
) -> bool:
    """The zero-weight rule; every source and every record applies it here.

    ``zero``: every sample counted has weight 0. The data of one call (a
    whole) must have a non-zero weight: ``ValueError``, as recent scikit-learn
    refuses them (``error``, when given, is the source's own wording of it). A
    part of the data (a batch of a stream, a chunk of a Dask collection:
    ``part``) may; its record keeps ``zero`` (``MacroF1Counts._zero_weight``,
    and a merge of parts while every part has it), and the whole they make is
    judged by this rule again (:meth:`MacroF1Counts._check_weights`). Returns
    ``zero``.
    """
    if zero and not part:
        raise error or all_zero_weights(n_samples)
    return zero


def _multilabel_columns(labels: Any, n_columns: int) -> np.ndarray:
    columns = np.asarray(labels)
    if columns.ndim != 1:
        raise ValueError(
            f"labels must be a 1-D array-like; got an array of shape {columns.shape}."
        )
    numeric = columns.dtype.kind in "biuf"
    if columns.size and not (
        columns.dtype.kind in "biu"  # (bools are 0 and 1, as in scikit-learn)
        or (numeric and (columns == np.trunc(columns)).all())
    ):
        raise (ValueError if numeric else TypeError)(
            "For multilabel targets, labels are column indices: integers in "
            f"[0, {n_columns}). Got {labels!r}."
        )
    columns = columns.astype(np.intp)
    if columns.size and (columns.max() >= n_columns or columns.min() < 0):
        bad = columns.max() if columns.max() >= n_columns else columns.min()
        raise ValueError(
            "All labels must be in [0, n labels) for multilabel targets: the "
            f"indicator matrices have {n_columns} columns, got label {bad}."
        )
    return columns


@dataclass
class Reading:
    """What the record's builder (:func:`read`, a source's ``count``) gives:
    the count record and what the reading kept beside it.

    An entry point builds it once and derives everything from it: the scores
    and the report aggregate ``counts``; intervals and comparisons use
    ``counts`` and, where a method must resample samples, ``targets`` and
    ``weights`` (:data:`SAMPLE_ROWS`, :attr:`_provides`). ``targets`` is None
    for data counted where they live (Dask, Spark, device arrays: a
    :mod:`~._sources` source), which are never gathered, and for a record
    given to a verb. ``returns`` gives a per-class result back as the data's
    source returns it (device arrays: an array of ``y_pred``'s namespace and
    device); None: as it is (NumPy).
    """

    counts: MacroF1Counts
    targets: Targets | None = None
    weights: np.ndarray | None = None
    returns: Callable[[Any], Any] | None = None

    @property
    def weighted(self) -> bool:
        """Whether the samples were weighted (the record says)."""
        return self.counts.weighted

    @property
    def _provides(self) -> frozenset[str]:
        """What the record holds (``MacroF1Counts._provides``) and, where the
        reading kept the targets, each sample's row (:data:`SAMPLE_ROWS`)."""
        held = self.counts._provides
        return held | {SAMPLE_ROWS} if self.targets is not None else held


def prepare(y_true: Any, y_pred: Any, **options: Any) -> MacroF1Counts:
    """The count record of :func:`read` (same arguments)."""
    return read(y_true, y_pred, **options).counts


def _check_arguments(
    y_true: Any,
    y_preds: Sequence[Any],
    names: Sequence[str],
    sample_weight: Any,
    caller: str,
) -> None:
    """The argument checks that come before any reading (array-likes of labels,
    weights an array-like), each naming its argument. A value that a
    registered source claims is that source's to check (it counts it)."""
    if not lives_elsewhere(y_true):
        check_array_like(y_true, name="y_true", caller=caller, sparse=True)
    for y, name in zip(y_preds, names, strict=True):
        if not lives_elsewhere(y):
            check_array_like(y, name=name, caller=caller, sparse=True)
    for name, y in (("y_true", y_true), *zip(names, y_preds, strict=True)):
        if isinstance(y, str | bytes | set | frozenset | dict) and not sp.issparse(y):
            raise ValueError(
                f"{name} must be an array-like of labels (an array or a non-string "
                f"sequence); got a {type(y).__name__}: {y!r}."
            )
        if getattr(y, "ndim", None) == 0:  # NumPy, device and Dask 0-d arrays
            raise TypeError(
                f"{name} must have at least one dimension (one label per sample); "
                f"got a 0-d {type(y).__name__}."
            )
    if sample_weight is not None:  # a scalar is refused, as by sklearn's metrics
        check_array_like(
            sample_weight, name="sample_weight", caller=caller, sparse=False
        )


def read(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
    class_counts: bool = True,
    moments: bool = False,
    cells: bool = False,
    count_cells: bool = False,
    targets_kept: bool = True,
    part: bool = False,
    caller: str = "this function",
) -> Reading:
    """Read, validate and count ``y_true`` / ``y_pred`` in one pass.

    ``samplewise`` asks for the per-sample counts of ``average="samples"``
    (multilabel targets; over the columns named by ``labels``, when given);
    ``class_counts=False`` then skips the per-class counts of multilabel targets;
    ``moments`` adds the second moments of a delta-method interval (see
    :func:`count_targets`); ``cells``: the occupied cells of the confusion
    matrix of 1-D targets of more than 2048 classes, from a source that keeps
    no targets (device arrays; in memory the targets give them);
    ``count_cells``: those cells whatever the source, counted in this pass
    (the bootstrap and the posterior redraw them; nothing sorts the targets
    again once the record exists); with
    ``targets_kept`` (the caller keeps the targets of this reading, so the
    delta method can take each sample's row from them) multilabel targets get
    none: their 3L x 3L moments cost O(n L²), the rows O(n L) per gradient.
    A batch counted where the data live (Dask) passes ``targets_kept=False``.
    ``part``: the data are a batch or a chunk of a whole, whose weights may all
    be zero (the record says so). Data that a registered source claims
    (:func:`~._sources.source_of`: Dask) are counted by it, the others by
    :func:`read_in_memory`.
    """
    _check_arguments(y_true, (y_pred,), ("y_pred",), sample_weight, caller)
    data = Predictions(y_true, y_pred, sample_weight)
    source = source_of(data)
    if source is None:
        return read_in_memory(
            data,
            labels,
            samplewise,
            class_counts,
            moments,
            targets_kept,
            part,
            count_cells=count_cells,
        )
    request = CountRequest(
        labels=labels,
        samplewise=samplewise,
        class_counts=class_counts,
        moments=moments,
        cells=cells or count_cells,
        targets_kept=targets_kept,
        part=part,
        caller=caller,
    )
    return source.count(data, request)


def read_in_memory(
    data: Predictions,
    labels: Any = None,
    samplewise: bool = False,
    class_counts: bool = True,
    moments: bool = False,
    targets_kept: bool = True,
    part: bool = False,
    *,
    count_cells: bool = False,
) -> Reading:
    """:func:`read` of arrays in this process (the arguments checked): read
    and validated once (:mod:`~._targets`), counted by the counting core; the
    targets stay in the reading."""
    try:
        targets = read_targets(data.y_true, data.y_pred)
    except (TypeError, ValueError) as exc:
        renamed = naming_prediction(exc)
        if renamed is exc:
            raise
        raise renamed from exc
    weights = check_sample_weight(data.sample_weight, targets.n_samples)
    zero_weight = zero_weight_rule(all_zero(weights), targets.n_samples, part=part)
    columns = None
    if targets.kind == "multilabel-indicator" and labels is not None:
        columns = _multilabel_columns(labels, targets.code_labels.shape[0])
    counts = count_targets(
        targets,
        weights,
        samplewise=samplewise,
        sample_columns=columns,
        class_counts=class_counts,
        moments=moments
        and not (targets_kept and targets.kind == "multilabel-indicator"),
        zero_weight=zero_weight,
        # the record leaves (its intervals need them), or the call redraws them
        cells=count_cells or not targets_kept,
    )
    return Reading(counts, targets, weights)


__all__ = [
    "MacroF1Counts",
    "Reading",
    "count_targets",
    "fixed_labels",
    "merge_counts",
    "prepare",
    "read",
    "read_in_memory",
    "union_labels",
]
