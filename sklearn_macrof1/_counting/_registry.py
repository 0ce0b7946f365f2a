"""Sources: every kind of data is turned into the count record by one mechanism.

A *source* knows one kind of data that lives elsewhere: Dask collections
(counted chunk by chunk on the workers), Spark DataFrames (counted by
aggregation queries in Spark), and device arrays (array-API namespaces other
than NumPy, counted on their device: ``_sources/_array_api.py``). Every reading asks
:func:`source_of` for the source of its data: the source that claims the type
of one of its values counts it into the count record
(:class:`~._record.MacroF1Counts`, in a :class:`~._record.Reading`); data that
no registered source claims are in-memory arrays, read and counted by
:func:`~._record.read` itself. Nothing above the record knows where the data
lived: the scores, the summary, the report, the intervals and the comparisons
read the record.

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
    refuse, saying why). The record says whether its samples are weighted
    (``weighted``) and follows the all-zero-weights rule below for
    ``request.part``; the constructor that asked sets its fixed ``labels``. Errors name
    the caller's arguments (``y_true``, ``label_col=...``) and use
    scikit-learn's exception types.
``count_jointly(data, request) -> JointReading`` or None
    The reading of each prediction set of a :class:`JointPredictions` and the
    joint cells of each pair of 1-D predictions (:class:`~._pairs.JointReading`).
    None: the source does not compare classifiers (a paired comparison of its
    data is refused).
``tally(data, stream)`` (optional)
    One batch (:class:`Predictions`) of a stream (:class:`Stream`: the
    options of the ``MacroF1Accumulator`` that counts it), counted where it
    lives: its record, or a :class:`Tally` kept there (a device's counts,
    added batch by batch without a read), or None for an empty batch; or
    :class:`Predictions` to be counted as the stream counts batches in this
    process (the values given back, or NumPy views of them). A source
    without it has its batches counted by ``count`` (``part=True``).

Sources register with :func:`register_source` (the integrations layer does, on
import; a source registered again under the same name replaces the old one).
A type goes to the first registered source that claims it; the values are
looked at in order (``y_true``, the predictions, the weights) and the first
claimed one decides. The sources that come next plug in the same way, without
touching a verb: the source of device arrays claims the array types that have
``__array_namespace__`` (and PyTorch tensors) and are not NumPy's, counts on
the device and brings back the record (a source may also hand data it finds
in this process to :func:`~._record.read_in_memory`, whose reading keeps the
targets; a :class:`~._pairs.JointReading` of such readings serves a comparison).
Integer labels in a dense range are no source: they are NumPy arrays like any
other, validated by the in-memory reading, and the label encoding
(``_read/_encoding.py``, :func:`dense_range`) makes them their own codes, which
the counting core counts by ``bincount`` without a sort; a source claiming
``numpy.ndarray`` would have to repeat that validation.

All-zero weights
----------------
One rule, one function (:func:`~._record.zero_weight_rule`): a part of the data
(a batch of a stream, a chunk of a Dask collection: ``CountRequest(part=True)``)
may have weights that are all zero, and its record says so
(``MacroF1Counts._zero_weight``, set when it is counted); merged records keep the
flag while every part has it, and a result refuses such a record
(:meth:`~._record.MacroF1Counts._check_weights`). The data of a whole call
(``part=False``) must have a non-zero weight: the source applies the rule before
counting when it can see the weights (in memory, Spark), to the merge of its
parts otherwise (Dask). (A Spark DataFrame is always a whole.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the sources' results, for type hints only: never imported
    from ._pairs import JointReading
    from ._record import MacroF1Counts, Reading

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
    cells : bool
        The occupied cells of the confusion matrix of 1-D targets of more than
        2048 classes (a summary, an interval), for sources that keep no
        targets to find them from later (device arrays); a record that leaves
        (``targets_kept=False``) or has moments keeps them anyway.
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
    cells: bool = False
    targets_kept: bool = True
    part: bool = False
    caller: str = "this function"


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


@dataclass
class Stream:
    """The options of a stream (``MacroF1Accumulator``) that a source's
    ``tally`` counts a batch with: the fixed ``labels`` (None: discovered),
    those labels as sorted ``integers`` (None: discovered, or no integers),
    ``ignore_index``, ``threshold`` and what the stream keeps (``keep``).
    ``prepared`` holds what a source prepares once per stream (the fixed
    labels on a device), under the source's name."""

    labels: Any
    integers: Any
    ignore_index: int | None
    threshold: float | None
    keep: str
    prepared: dict[str, Any] = field(default_factory=dict)


class Tally(Protocol):
    """The counts of a stream's batches kept where they live (a device), as
    a source's ``tally`` returns them: nothing is read back until
    :meth:`record`, where the checks the batches deferred raise."""

    def __add__(self, other: Any) -> Any: ...

    def same_place(self, other: Any) -> bool:
        """Whether ``other`` is a tally that adds to this one (the same
        device, kind of weights and labels)."""
        ...

    def samples_counted(self) -> int: ...

    def record(self) -> MacroF1Counts | None:
        """The host record of the samples counted (None: none)."""
        ...

    def targets(self) -> tuple[str, int]:
        """The kind of targets and the number of multilabel columns (0 for
        1-D labels), known without a read."""
        ...

    def first_label(self) -> Any:
        """One label of 1-D targets (a NumPy array of one), whose dtype is
        that of all the labels."""
        ...


# ---------------------------------------------------------------- the registry

_lock = threading.Lock()
_sources: tuple[Source, ...] = ()
#: The source of each type seen (None: no source claims it). Written under
#: ``_lock``; read without it (a dict look-up is atomic, and a missing entry is
#: only computed again).
_by_type: dict[type, Source | None] = {}


def register_source(source: Source) -> None:
    """Consult ``source`` for every count from now on (after the sources
    registered before it; one registered under the same name is replaced)."""
    global _sources
    with _lock:
        kept = tuple(s for s in _sources if s.name != source.name)
        _sources = (*kept, source)
        _by_type.clear()


def _source_of_type(cls: type) -> Source | None:
    try:
        return _by_type[cls]
    except KeyError:
        with _lock:
            source = next((s for s in _sources if s.claims(cls)), None)
            _by_type[cls] = source
        return source


def source_of(data: Data) -> Source | None:
    """The source that counts ``data``: that of its first value whose type a
    registered source claims; None for in-memory arrays."""
    for value in data.values():
        source = _source_of_type(type(value))
        if source is not None:
            return source
    return None


def lives_elsewhere(*values: Any) -> bool:
    """True when a registered source claims one of ``values`` (a Dask
    collection: the data are counted where they live)."""
    return any(_source_of_type(type(value)) is not None for value in values)


__all__ = [
    "Columns",
    "CountRequest",
    "Data",
    "JointPredictions",
    "Predictions",
    "Source",
    "Stream",
    "Tally",
    "lives_elsewhere",
    "register_source",
    "source_of",
]
