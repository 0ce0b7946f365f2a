"""Sources: every kind of data is turned into the count record by one mechanism.

A *source* knows one kind of data: in-memory arrays (the built-in source), Dask
collections (counted chunk by chunk on the workers), Spark DataFrames (counted
by an aggregation query in Spark). Every entry point asks :func:`count` (or
:func:`count_jointly`) for the record of its data; the source that claims the
type of one of its values counts it, and the in-memory source counts everything
no registered source claims. Nothing above the record knows where the data
lived: the scores, the summary, the report, the intervals and the comparisons
read the :class:`Reading` a source returns.

The interface
-------------
What is counted (the *data*, one of three kinds):

- :class:`Predictions` ``(y_true, y_pred, sample_weight)``: one prediction set;
- :class:`JointPredictions` ``(y_true, y_preds, names, sample_weight)``: several
  prediction sets of the same samples (paired comparisons);
- :class:`Columns` ``(frame, label_col, prediction_col, weight_col)``: the
  columns of a table (a Spark DataFrame).

How it is counted: a :class:`CountRequest` (the multilabel columns of the
per-sample counts, per-sample counts, per-class counts, second moments, whether
the caller keeps the per-sample targets, whether the data are a part of a
whole, and the public function to name in errors).

A source is an object with

``name: str``
    Names the source in errors ("Dask", "Spark").
``claims(cls) -> bool``
    Whether this source counts data holding a value of type ``cls`` (any of
    ``y_true``, a prediction, the weights; a table's frame). Recognition is by
    type only, so that the registry decides once per type (a cache: a call
    costs three dictionary look-ups, not a call per source and value); it
    must not import the source's library (a Dask collection is recognised by
    its type's module).
``count(data, request) -> Reading``
    The :class:`Reading` of ``data``: its count record (with what ``request``
    asks for), and the per-sample targets and weights when they are in this
    process (None otherwise: the methods that would need every sample then
    refuse, saying why). Errors name the caller's arguments (``y_true``,
    ``label_col=...``) and use scikit-learn's exception types.
``count_jointly(data, request) -> JointReading`` or None
    The reading of each prediction set of a :class:`JointPredictions` and, where
    the samples are not in this process, the joint cells of each pair of 1-D
    predictions (:class:`~._pairs.PairCells`). None: the source does not compare
    classifiers (:func:`count_jointly` refuses its data).

Sources register with :func:`register_source` (the integrations layer does, on
import; a source registered again under the same name replaces the old one).
A type goes to the first registered source that claims it; the values are
looked at in order (``y_true``, the predictions, the weights) and the first
claimed one decides. The sources that come next plug in the same way, without
touching a verb: a source for device arrays claims the array types that have
``__array_namespace__`` and are not NumPy's, counts on the device and brings
back the record; a dense-integer path claims ``numpy.ndarray``, counts integer
labels with one ``bincount`` and hands anything else (other dtypes, a label
range too wide) to :data:`IN_MEMORY`'s ``count``.

All-zero weights
----------------
The one rule: a part of the data (a batch of a stream, a chunk of a Dask
collection: ``CountRequest(part=True)``) may have weights that are all zero, and
its record says so (``Counts.zero_weight``, set by the counting core); merged
records keep the flag while every part has it, and a result refuses such a
record (:meth:`~._record.Counts.check_weights`). The data of a whole call
(``part=False``) must have a non-zero weight: the source refuses them before
counting when it can see the weights (in memory, Spark), after merging its
parts otherwise (Dask).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ._counting import count_targets
from ._pairs import PairCells, pair_cells
from ._record import Counts
from ._targets import Targets, naming_prediction, read_joint_targets, read_targets
from ._validation import check_sample_weight

# ---------------------------------------------------------------- the data


@dataclass(slots=True)
class Predictions:
    """One prediction set: the arguments ``y_true, y_pred, sample_weight``."""

    y_true: Any
    y_pred: Any
    sample_weight: Any = None

    def values(self) -> tuple[Any, ...]:
        return (self.y_true, self.y_pred, self.sample_weight)


@dataclass(slots=True)
class JointPredictions:
    """Several prediction sets of the same samples; ``names`` are their
    argument names, for the errors."""

    y_true: Any
    y_preds: Sequence[Any]
    names: Sequence[str]
    sample_weight: Any = None

    def values(self) -> tuple[Any, ...]:
        return (self.y_true, *self.y_preds, self.sample_weight)


@dataclass(slots=True)
class Columns:
    """Columns of a table: true labels, predictions and optional weights."""

    frame: Any
    label_col: Any = "label"
    prediction_col: Any = "prediction"
    weight_col: Any = None

    def values(self) -> tuple[Any, ...]:
        return (self.frame,)


Data = Predictions | JointPredictions | Columns


@dataclass(slots=True)
class CountRequest:
    """What a source counts besides the per-class counts.

    Attributes
    ----------
    labels : array-like or None
        Multilabel targets: the columns of the per-sample counts (None: all);
        label sets (array columns of a table): the labels, in their order, that
        become the record's classes.
    samplewise : bool
        Per-sample counts of multilabel targets (``average="samples"``).
    class_counts : bool
        False: a lone ``average="samples"`` score, which needs no per-class
        counts of multilabel targets.
    moments : bool
        The second moments of a delta-method interval.
    targets_kept : bool
        The caller keeps the per-sample targets of an in-memory reading, from
        which the delta method takes each sample's row: multilabel targets then
        get no (costly) second moments.
    part : bool
        The data are a part of a whole (a stream's batch, a chunk): all-zero
        weights are valid and marked on the record, not refused.
    caller : str
        The public function named in errors.
    """

    labels: Any = None
    samplewise: bool = False
    class_counts: bool = True
    moments: bool = False
    targets_kept: bool = True
    part: bool = False
    caller: str = "this function"


# ------------------------------------------------------------- what a source gives


@dataclass
class Reading:
    """One reading of ``y_true`` / ``y_pred`` and its counts.

    What an entry point builds once and derives everything from: the scores and
    the report aggregate ``counts``; intervals and comparisons use ``counts``
    and, where a method must resample samples, ``targets`` and ``weights``.
    ``targets`` is None for data counted where they live (Dask, Spark), which
    are never gathered; ``weighted`` tells whether the samples are weighted.
    """

    counts: Counts
    targets: Targets | None = None
    weights: np.ndarray | None = None
    weighted: bool = False


@dataclass
class JointReading:
    """One reading of ``y_true`` with several prediction sets, and their counts.

    ``readings[j]`` is prediction set ``j``'s reading: its own count record,
    exactly as :func:`count` counts the pair. In memory their ``targets`` share
    one encoding of ``y_true`` (:func:`~._targets.read_joint_targets`) and the
    joint cells of a pair are counted from them when asked for
    (:meth:`pair_cells`); data that live elsewhere were counted there, cells of
    every pair included (``pairs``), and have no ``targets``.
    """

    readings: list[Reading]
    pairs: dict[tuple[int, int], PairCells] | None = None

    @property
    def n_samples(self) -> int:
        counts = self.readings[0].counts
        assert counts.n_samples is not None
        return counts.n_samples

    def pair_cells(self, i: int, j: int) -> PairCells:
        """The joint (true, pred_i, pred_j) cells of 1-D targets, ``i < j``."""
        if self.pairs is not None:
            return self.pairs[i, j]
        a, b = self.readings[i], self.readings[j]
        assert a.targets is not None and b.targets is not None
        return pair_cells(a.targets, b.targets, a.weights)


class Source(Protocol):
    """A kind of data that is counted into the record (see the module's
    docstring for the contract of each member)."""

    name: str

    def claims(self, cls: type) -> bool: ...

    def count(self, data: Any, request: CountRequest) -> Reading: ...

    @property
    def count_jointly(
        self,
    ) -> Callable[[JointPredictions, CountRequest], JointReading] | None: ...


# ---------------------------------------------------------------- the registry

_lock = threading.Lock()
_sources: tuple[Source, ...] = ()
#: The source of each type seen (IN_MEMORY: none claims it). Written under
#: ``_lock``; read without it (a dict look-up is atomic, and a missing entry is
#: only computed again).
_by_type: dict[type, Source] = {}


def register_source(source: Source) -> None:
    """Consult ``source`` for every count from now on (after the sources
    registered before it; one registered under the same name is replaced)."""
    global _sources
    with _lock:
        kept = tuple(s for s in _sources if s.name != source.name)
        _sources = (*kept, source)
        _by_type.clear()


def _source_of_type(cls: type) -> Source:
    source = _by_type.get(cls)
    if source is None:
        with _lock:
            source = next((s for s in _sources if s.claims(cls)), IN_MEMORY)
            _by_type[cls] = source
    return source


def source_of(data: Data) -> Source:
    """The source that counts ``data``: that of its first value whose type a
    registered source claims, else the in-memory source."""
    for value in data.values():
        source = _source_of_type(type(value))
        if source is not IN_MEMORY:
            return source
    return IN_MEMORY


def lives_elsewhere(*values: Any) -> bool:
    """True when a registered source claims one of ``values`` (a Dask
    collection: the data are counted where they live)."""
    return any(_source_of_type(type(value)) is not IN_MEMORY for value in values)


def count(data: Predictions | Columns, request: CountRequest) -> Reading:
    """The reading of ``data``, by its source."""
    source = source_of(data)
    if source is IN_MEMORY and isinstance(data, Columns):
        raise TypeError(
            f"{request.caller} counts the columns of a DataFrame of a kind it "
            f"knows (a Spark DataFrame); got {type(data.frame).__name__}."
        )
    return source.count(data, request)


def count_jointly(data: JointPredictions, request: CountRequest) -> JointReading:
    """The joint reading of ``data``, by its source (ValueError for a source
    that does not compare classifiers)."""
    source = source_of(data)
    counter = source.count_jointly
    if counter is None:
        raise ValueError(
            f"{request.caller} does not take collections of this kind "
            f"({source.name}); pass in-memory arrays (or Dask collections)."
        )
    return counter(data, request)


# ------------------------------------------------------------ in-memory arrays


def multilabel_columns(labels: Any, n_columns: int) -> np.ndarray:
    """``labels`` as column indices of multilabel targets with ``n_columns``."""
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


class _InMemory:
    """Arrays in this process: NumPy arrays and subclasses, lists, pandas,
    sparse matrices. Read and validated once (:mod:`~._targets`), counted by
    the counting core; the targets stay in the reading."""

    name = "in-memory arrays"

    def claims(self, cls: type) -> bool:
        return True

    def count(self, data: Predictions, request: CountRequest) -> Reading:
        try:
            targets = read_targets(data.y_true, data.y_pred)
        except (TypeError, ValueError) as exc:
            renamed = naming_prediction(exc)
            if renamed is exc:
                raise
            raise renamed from exc
        weights = check_sample_weight(
            data.sample_weight, targets.n_samples, zero=request.part
        )
        columns = None
        if targets.kind == "multilabel-indicator" and request.labels is not None:
            columns = multilabel_columns(request.labels, targets.code_labels.shape[0])
        counts = count_targets(
            targets,
            weights,
            samplewise=request.samplewise,
            sample_columns=columns,
            class_counts=request.class_counts,
            moments=request.moments
            and not (request.targets_kept and targets.kind == "multilabel-indicator"),
        )
        return Reading(counts, targets, weights, weights is not None)

    def count_jointly(self, data: JointPredictions, request: CountRequest) -> Any:
        try:
            targets = read_joint_targets(data.y_true, data.y_preds, data.names)
        except (TypeError, ValueError) as exc:
            if any(name in str(exc) for name in ("y_true", *data.names)):
                raise
            raise naming_prediction(exc, " and ".join(data.names)) from exc
        weights = check_sample_weight(
            data.sample_weight, targets[0].n_samples, zero=request.part
        )
        columns = None
        if targets[0].kind == "multilabel-indicator" and request.labels is not None:
            columns = multilabel_columns(
                request.labels, targets[0].code_labels.shape[0]
            )
        return JointReading(
            [
                Reading(
                    count_targets(
                        pair,
                        weights,
                        samplewise=request.samplewise,
                        sample_columns=columns,
                    ),
                    pair,
                    weights,
                    weights is not None,
                )
                for pair in targets
            ]
        )


#: The built-in source: whatever no registered source recognises.
IN_MEMORY: Source = _InMemory()


__all__ = [
    "IN_MEMORY",
    "Columns",
    "CountRequest",
    "Data",
    "JointPredictions",
    "JointReading",
    "Predictions",
    "Reading",
    "Source",
    "count",
    "count_jointly",
    "lives_elsewhere",
    "multilabel_columns",
    "register_source",
    "source_of",
]
