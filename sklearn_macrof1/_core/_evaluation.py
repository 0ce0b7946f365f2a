"""From user arguments to counts and averages: the path every entry point takes.

``prepare`` validates the options, reads and counts the targets once (collections
living elsewhere go to the counters the integrations layer registers); ``select``
applies scikit-learn's ``labels`` / ``pos_label`` / ``average="binary"`` rules to
the counts; ``evaluate`` runs the aggregation on the selection. The report, the
scorers, the CLI and the streaming accumulator all go through these three.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._aggregation import Averages, Ratios, aggregate, aggregate_many
from ._averages import averages_of, ordered, spelled
from ._counting import count_targets
from ._pairs import JointCounts, PairCells, pair_cells
from ._record import Counts
from ._targets import (
    Targets,
    fixed_width_strings,
    naming_prediction,
    read_joint_targets,
    read_targets,
)
from ._validation import (
    check_array_like,
    check_options_of,
    check_sample_weight,
    warn_user,
)


@dataclass
class Options:
    """Validated options of one call."""

    average: str | None
    beta: float
    zero_division: Any
    labels: Any
    pos_label: Any


def check_options(
    *,
    caller: str,
    average: Any,
    beta: Any,
    zero_division: Any,
    labels: Any = None,
    pos_label: Any = 1,
) -> Options:
    """Validate the scalar options (the order scikit-learn checks them in)."""
    checked = check_options_of(
        caller,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
    )
    if isinstance(labels, np.ndarray) and labels.dtype.kind == "T":
        labels = fixed_width_strings(labels, "labels")  # numpy 2's StringDType
    return Options(
        checked["average"],
        checked["beta"],
        checked["zero_division"],
        labels,
        checked["pos_label"],
    )


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


#: Counters of collections that live elsewhere (Dask, Spark), as (recognises,
#: count) pairs: ``recognises(value)`` says whether ``value`` is such a
#: collection (without importing its library), ``count`` takes the arguments of
#: :func:`prepare` but ``class_counts`` (``moments`` included) and returns the
#: merged count record. The integrations layer registers them
#: (:func:`register_foreign_counter`) when the package is imported, so that the
#: core imports nothing above it.
FOREIGN_COUNTERS: list[tuple[Callable[[Any], bool], Callable[..., Counts]]] = []


def register_foreign_counter(
    recognises: Callable[[Any], bool], count: Callable[..., Counts]
) -> None:
    """Route inputs that ``recognises`` accepts to ``count`` in :func:`prepare`."""
    if (recognises, count) not in FOREIGN_COUNTERS:
        FOREIGN_COUNTERS.append((recognises, count))


@dataclass
class Reading:
    """One reading of ``y_true`` / ``y_pred`` and its counts.

    What an entry point builds once and derives everything from: the scores and
    the report aggregate ``counts``; intervals and comparisons use ``counts``
    and, where a method must resample samples, ``targets`` and ``weights``.
    ``targets`` is None for Dask collections, which are counted where they live
    and never gathered; ``weighted`` tells whether a ``sample_weight`` was given.
    """

    counts: Counts
    targets: Targets | None = None
    weights: np.ndarray | None = None
    weighted: bool = False


def prepare(y_true: Any, y_pred: Any, **options: Any) -> Counts:
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
    weights an array-like), each naming its argument."""
    check_array_like(y_true, name="y_true", caller=caller, sparse=True)
    for y, name in zip(y_preds, names, strict=True):
        check_array_like(y, name=name, caller=caller, sparse=True)
    for name, y in (("y_true", y_true), *zip(names, y_preds, strict=True)):
        if isinstance(y, str | bytes | set | frozenset | dict) and not sp.issparse(y):
            raise ValueError(
                f"{name} must be an array-like of labels (an array or a non-string "
                f"sequence); got a {type(y).__name__}: {y!r}."
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
    targets_kept: bool = True,
    caller: str = "this function",
) -> Reading:
    """Read, validate and count ``y_true`` / ``y_pred`` in one pass.

    ``samplewise`` asks for the per-sample counts of ``average="samples"``
    (multilabel targets; over the columns named by ``labels``, when given);
    ``class_counts=False`` then skips the per-class counts of multilabel targets;
    ``moments`` adds the second moments of a delta-method interval (see
    :func:`~sklearn_macrof1._core._counting.count_targets`); with
    ``targets_kept`` (the caller keeps the targets of this reading, so the
    delta method can take each sample's row from them) multilabel targets get
    none: their 3L x 3L moments cost O(n L²), the rows O(n L) per gradient.
    A batch counted where the data live (Dask) passes ``targets_kept=False``.
    """
    _check_arguments(y_true, (y_pred,), ("y_pred",), sample_weight, caller)
    for recognises, count in FOREIGN_COUNTERS:  # Dask, Spark: counted where they live
        if any(recognises(v) for v in (y_true, y_pred, sample_weight)):
            counts = count(
                y_true,
                y_pred,
                sample_weight=sample_weight,
                labels=labels,
                samplewise=samplewise,
                moments=moments,
                caller=caller,
            )
            return Reading(counts, weighted=sample_weight is not None)
    try:
        targets = read_targets(y_true, y_pred)
    except (TypeError, ValueError) as exc:
        renamed = naming_prediction(exc)
        if renamed is exc:
            raise
        raise renamed from exc
    weights = check_sample_weight(sample_weight, targets.n_samples)
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
    )
    return Reading(counts, targets, weights, weights is not None)


#: Counters of several prediction sets of collections that live elsewhere (Dask),
#: as (recognises, count) pairs: ``count(y_true, y_preds, names=, sample_weight=,
#: caller=)`` returns the merged :class:`~._pairs.JointCounts`.
FOREIGN_JOINT_COUNTERS: list[
    tuple[Callable[[Any], bool], Callable[..., JointCounts]]
] = []


def register_foreign_joint_counter(
    recognises: Callable[[Any], bool], count: Callable[..., JointCounts]
) -> None:
    """Route inputs that ``recognises`` accepts to ``count`` in :func:`read_jointly`."""
    if (recognises, count) not in FOREIGN_JOINT_COUNTERS:
        FOREIGN_JOINT_COUNTERS.append((recognises, count))


def is_foreign(*values: Any) -> bool:
    """True when a value is a collection that lives elsewhere (Dask, Spark)."""
    return any(
        recognises(value) for recognises, _ in FOREIGN_COUNTERS for value in values
    )


@dataclass
class JointReading:
    """One reading of ``y_true`` with several prediction sets, and their counts.

    ``readings[j]`` is prediction set ``j``'s reading: its own count record,
    exactly as :func:`read` counts the pair. In memory their ``targets`` share
    one encoding of ``y_true`` (:func:`~._targets.read_joint_targets`) and the
    joint cells of a pair are counted from them when asked for
    (:meth:`pair_cells`); collections that live elsewhere were counted there,
    cells of every pair included (``pairs``), and have no ``targets``.
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


def read_jointly(
    y_true: Any,
    y_preds: Sequence[Any],
    *,
    names: Sequence[str],
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
    caller: str = "this function",
) -> JointReading:
    """:func:`read` of ``y_true`` with several prediction sets: ``y_true`` and the
    weights are read and validated once, each prediction set is counted once
    into its own record. ``names`` are the predictions' argument names, for
    the errors."""
    _check_arguments(y_true, y_preds, names, sample_weight, caller)
    values = (y_true, *y_preds, sample_weight)
    for recognises, count in FOREIGN_JOINT_COUNTERS:  # Dask: counted where it lives
        if any(recognises(v) for v in values):
            joint = count(
                y_true, y_preds, names=names, sample_weight=sample_weight, caller=caller
            )
            weighted = sample_weight is not None
            return JointReading(
                [Reading(counts, weighted=weighted) for counts in joint.counts],
                joint.pairs,
            )
    if is_foreign(*values):
        raise ValueError(
            f"{caller} does not take collections of this kind ("
            f"{', '.join(sorted({type(v).__name__ for v in values if is_foreign(v)}))}"
            "); pass in-memory arrays (or Dask collections)."
        )
    try:
        targets = read_joint_targets(y_true, y_preds, names)
    except (TypeError, ValueError) as exc:
        if any(name in str(exc) for name in ("y_true", *names)):
            raise
        raise naming_prediction(exc, " and ".join(names)) from exc
    weights = check_sample_weight(sample_weight, targets[0].n_samples)
    columns = None
    if targets[0].kind == "multilabel-indicator" and labels is not None:
        columns = _multilabel_columns(labels, targets[0].code_labels.shape[0])
    return JointReading(
        [
            Reading(
                count_targets(
                    pair, weights, samplewise=samplewise, sample_columns=columns
                ),
                pair,
                weights,
                weights is not None,
            )
            for pair in targets
        ]
    )


@dataclass
class Selection:
    """The classes an aggregation runs over, with their counts."""

    labels: np.ndarray
    tp: np.ndarray
    true: np.ndarray
    pred: np.ndarray


def _positions(classes: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Index of each wanted label in ``classes`` (sorted), -1 where absent.

    A label of another kind than the data (a string among numbers, or a number
    among strings) is compared as a string, as in scikit-learn.
    """
    absent = np.full(wanted.shape[0], -1, dtype=np.intp)
    if wanted.size == 0 or classes.shape[0] == 0:
        return absent
    numeric = (classes.dtype.kind in "biuf", wanted.dtype.kind in "biuf")
    textual = (classes.dtype.kind in "US", wanted.dtype.kind in "US")
    if (numeric[0] and textual[1]) or (textual[0] and numeric[1]):
        # scikit-learn stacks labels of the other kind with the present labels
        # into one string array, so labels=['1', '2'] selects the integer classes
        # 1 and 2 (and labels=[1, 2] the string classes '1' and '2'): both sides
        # are compared as numpy writes them as strings ('1', '1.0', 'True').
        names = {text: i for i, text in enumerate(classes.astype(str).tolist())}
        positions = [names.get(text, -1) for text in wanted.astype(str).tolist()]
        return np.asarray(positions, dtype=np.intp)
    try:
        index = np.searchsorted(classes, wanted)
        index = np.minimum(index, classes.shape[0] - 1)
        found = np.asarray(classes[index] == wanted, dtype=bool)
    except TypeError as exc:
        raise TypeError(
            "labels must be comparable with the labels in y_true and y_pred "
            f"({classes.tolist()!r}); got {wanted.tolist()!r}."
        ) from exc
    return np.where(found, index, -1)


def _take(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    if values.shape[0] == 0:
        return np.zeros(index.shape[0], dtype=values.dtype)
    return np.where(index >= 0, values[np.maximum(index, 0)], 0)


def _contains(classes: np.ndarray, label: Any) -> bool:
    try:
        return bool(np.any(classes == label))
    except (TypeError, ValueError):
        return False


def select(counts: Counts, options: Options, *, caller: str) -> Selection:
    """Apply ``average``, ``labels`` and ``pos_label`` as scikit-learn does."""
    average, labels, pos_label = options.average, options.labels, options.pos_label
    classes = counts.classes
    if average == "binary":
        if counts.kind != "binary":
            choices = [None, *averages_of(counts.kind)]
            raise ValueError(
                f"Target is {counts.kind} but average='binary'. Please choose "
                f"another average setting, one of {choices!r}."
            )
        if not _contains(classes, pos_label) and classes.shape[0] >= 2:
            raise ValueError(
                f"pos_label={pos_label!r} is not a valid label. It should be one of "
                f"{classes.tolist()!r} (the labels in y_true and y_pred)."
            )
        wanted = np.asarray([pos_label])
    else:
        if pos_label not in (None, 1):
            warn_user(
                f"Note that pos_label (set to {pos_label!r}) is ignored when "
                f"average != 'binary' (got {average!r}). You may use "
                "labels=[pos_label] to specify a single positive class.",
                UserWarning,
            )
        if average == "samples" and counts.kind != "multilabel-indicator":
            one_d = ordered(averages_of("binary"), "micro", "macro", "weighted")
            raise ValueError(
                "average='samples' is only available for multilabel targets "
                "(2-D 0/1 indicator matrices); for 1-D targets use "
                f"{spelled([*one_d, None])}."
            )
        if labels is None:
            return Selection(classes, counts.tp, counts.true, counts.pred)
        wanted = np.asarray(labels)
        if wanted.ndim != 1:
            raise ValueError(
                f"labels must be a 1-D array-like; got shape {wanted.shape}."
            )
    if counts.kind == "multilabel-indicator":
        index = _multilabel_columns(wanted, classes.shape[0])
    else:
        index = _positions(classes, wanted)
    return Selection(
        wanted,
        _take(counts.tp, index),
        _take(counts.true, index),
        _take(counts.pred, index),
    )


def evaluate(
    counts: Counts,
    options: Options,
    *,
    warn_for: tuple[str, ...],
    caller: str,
) -> tuple[Selection, Averages]:
    """Selection and aggregation for one ``average``."""
    if not counts.class_counts and options.average != "samples":  # pragma: no cover
        raise RuntimeError("per-class counts were not computed")
    selection = select(counts, options, caller=caller)
    averages = aggregate(
        selection.tp,
        selection.true,
        selection.pred,
        average=options.average,
        beta=options.beta,
        zero_division=options.zero_division,
        warn_for=warn_for,
        samples=None if counts.samples is None else counts.samples.arrays(),
    )
    return selection, averages


def evaluate_averages(
    counts: Counts,
    options: Options,
    averages: Sequence[str | None],
    *,
    warn_for: tuple[str, ...],
    caller: str,
) -> tuple[Selection, Ratios, dict[str | None, Averages]]:
    """:func:`evaluate` for several averages of the same labels at once (a
    report's rows): one selection, one computation of the per-class ratios.

    ``options.average`` is ignored; ``averages`` may hold None, "micro",
    "macro", "weighted" and (multilabel counts with per-sample counts)
    "samples". Returns the selection, the per-class ratios and the averages.
    """
    if not counts.class_counts:  # pragma: no cover
        raise RuntimeError("per-class counts were not computed")
    selection = select(counts, replace(options, average=None), caller=caller)
    shared, results = aggregate_many(
        selection.tp,
        selection.true,
        selection.pred,
        averages=averages,
        beta=options.beta,
        zero_division=options.zero_division,
        warn_for=warn_for,
        samples=None if counts.samples is None else counts.samples.arrays(),
    )
    return selection, shared, results


def count_for(y_true: Any, y_pred: Any, options: Options, **kwargs: Any) -> Counts:
    """The count record of :func:`read_for` (same arguments)."""
    return read_for(y_true, y_pred, options, **kwargs).counts


def read_for(
    y_true: Any,
    y_pred: Any,
    options: Options,
    *,
    sample_weight: Any,
    caller: str,
    class_counts: bool = True,
    moments: bool = False,
) -> Reading:
    """:func:`read` with the per-sample counts that ``options.average`` needs.

    ``class_counts=False``: a lone score, which for ``average="samples"`` needs no
    per-class counts; ``moments``: the second moments of a delta-method interval.
    """
    samplewise = options.average == "samples"
    return read(
        y_true,
        y_pred,
        sample_weight=sample_weight,
        labels=options.labels if samplewise else None,
        samplewise=samplewise,
        class_counts=class_counts,
        moments=moments,
        caller=caller,
    )


def score(
    y_true: Any,
    y_pred: Any,
    *,
    caller: str,
    warn_for: tuple[str, ...],
    beta: Any,
    labels: Any,
    pos_label: Any,
    average: Any,
    sample_weight: Any,
    zero_division: Any,
) -> tuple[Counts, Selection, Averages, Options]:
    """Validate, count once and aggregate: the body of every score function.

    Only the two averages are wanted, so a multilabel ``average="samples"``
    score counts no per-class totals.
    """
    options = check_options(
        caller=caller,
        average=average,
        beta=beta,
        zero_division=zero_division,
        labels=labels,
        pos_label=pos_label,
    )
    counts = count_for(
        y_true,
        y_pred,
        options,
        sample_weight=sample_weight,
        caller=caller,
        class_counts=False,
    )
    selection, averages = evaluate(counts, options, warn_for=warn_for, caller=caller)
    return counts, selection, averages, options
