"""From user arguments to counts and averages: the path every entry point takes.

A verb takes ``(y_true, y_pred)`` or a count record in place of ``y_true``
(:func:`check_form`); its options are checked once (:func:`check_options`); the
arrays are read and counted once into a record
(:func:`~sklearn_macrof1._counting._record.read`, through :func:`read_for`), a
record given is checked against the options (:func:`record_reading`);
``select`` applies scikit-learn's ``labels`` / ``pos_label`` /
``average="binary"`` rules to the record; ``evaluate`` runs the aggregation on
the selection. The scores, the summary, the report, the intervals and the CLI
all go through these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._averages import averages_of, ordered, spelled
from .._counting._pairs import JointReading
from .._counting._record import (
    CLASS_COUNTS,
    SAMPLE_COUNTS,
    MacroF1Counts,
    Reading,
    _check_arguments,
    _multilabel_columns,
    all_zero,
    count_targets,
    read,
    zero_weight_rule,
)
from .._counting._registry import (
    CountRequest,
    JointPredictions,
    lives_elsewhere,
    source_of,
)
from .._options import (
    check_array_like,
    check_options_of,
    check_sample_weight,
    warn_user,
)
from .._read._arrays import fixed_width_strings
from .._read._targets import naming_prediction, read_joint_targets
from .._sklearn_private import InvalidParameterError
from ._aggregation import Averages, Ratios, aggregate, aggregate_many

_MULTILABEL = "multilabel-indicator"


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
    return as_options(
        check_options_of(
            caller,
            beta=beta,
            labels=labels,
            pos_label=pos_label,
            average=average,
            zero_division=zero_division,
        )
    )


def as_options(checked: dict[str, Any], **fixed: Any) -> Options:
    """The score options of one call, from what
    :func:`~sklearn_macrof1._options.check_options_of` returned for it.

    ``fixed`` gives the score options the public function does not take (a
    report: ``average=None, beta=1.0, pos_label=None``).
    """
    values = {**fixed, **checked}
    labels = values["labels"]
    if isinstance(labels, np.ndarray) and labels.dtype.kind == "T":
        labels = fixed_width_strings(labels, "labels")  # numpy 2's StringDType
    return Options(
        values["average"],
        values["beta"],
        values["zero_division"],
        labels,
        values["pos_label"],
    )


def read_jointly(
    y_true: Any,
    y_preds: Sequence[Any],
    *,
    names: Sequence[str],
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
    part: bool = False,
    caller: str = "this function",
) -> JointReading:
    """:func:`read` of ``y_true`` with several prediction sets: ``y_true`` and the
    weights are read and validated once, each prediction set is counted once
    into its own record. ``names`` are the predictions' argument names, for
    the errors; ``part`` as in :func:`read`. Data that a registered source
    claims (Dask) are counted by it, with the joint cells of every pair."""
    _check_arguments(y_true, y_preds, names, sample_weight, caller)
    data = JointPredictions(y_true, y_preds, names, sample_weight)
    source = source_of(data)
    if source is not None:
        counter = source.count_jointly
        if counter is None:
            raise ValueError(
                f"{caller} does not take collections of this kind "
                f"({source.name}); pass in-memory arrays (or Dask collections)."
            )
        request = CountRequest(
            labels=labels, samplewise=samplewise, part=part, caller=caller
        )
        return counter(data, request)
    try:
        targets = read_joint_targets(y_true, y_preds, names)
    except (TypeError, ValueError) as exc:
        if any(name in str(exc) for name in ("y_true", *names)):
            raise
        raise naming_prediction(exc, " and ".join(names)) from exc
    n_samples = targets[0].n_samples
    weights = check_sample_weight(sample_weight, n_samples)
    zero_weight = zero_weight_rule(all_zero(weights), n_samples, part=part)
    columns = None
    if targets[0].kind == "multilabel-indicator" and labels is not None:
        columns = _multilabel_columns(labels, targets[0].code_labels.shape[0])
    return JointReading(
        [
            Reading(
                count_targets(
                    pair,
                    weights,
                    samplewise=samplewise,
                    sample_columns=columns,
                    zero_weight=zero_weight,
                ),
                pair,
                weights,
            )
            for pair in targets
        ]
    )


@dataclass
class Selection:
    """The classes an aggregation runs over, with their counts.

    ``index`` holds each selected label's position in the record's
    ``classes`` (-1 for a label the record does not hold).
    """

    labels: np.ndarray
    tp: np.ndarray
    true: np.ndarray
    pred: np.ndarray
    index: np.ndarray


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


def _column_indices(classes: np.ndarray) -> bool:
    """Whether multilabel classes are the column indices ``0 .. n-1`` of
    indicator matrices (``labels`` select them by index), not the label values
    of label sets (selected by value, as class labels are)."""
    return classes.dtype.kind in "iu" and bool(
        np.array_equal(classes, np.arange(classes.shape[0]))
    )


def select(counts: MacroF1Counts, options: Options, *, caller: str) -> Selection:
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
            index = np.arange(classes.shape[0])
            return Selection(classes, counts.tp, counts.true, counts.pred, index)
        wanted = np.asarray(labels)
        if wanted.ndim != 1:
            raise ValueError(
                f"labels must be a 1-D array-like; got shape {wanted.shape}."
            )
    if counts.kind != "multilabel-indicator":
        index = _positions(classes, wanted)
    elif _column_indices(classes):
        index = _multilabel_columns(wanted, classes.shape[0])
    else:  # label values of label sets (Spark), in the order they were counted
        where = {value: i for i, value in enumerate(classes.tolist())}
        index = np.asarray([where.get(v, -1) for v in wanted.tolist()], np.intp)
    return Selection(
        wanted,
        _take(counts.tp, index),
        _take(counts.true, index),
        _take(counts.pred, index),
        index,
    )


def evaluate(
    counts: MacroF1Counts,
    options: Options,
    *,
    warn_for: tuple[str, ...],
    caller: str,
) -> tuple[Selection, Averages]:
    """Selection and aggregation for one ``average``."""
    if options.average != "samples" and CLASS_COUNTS not in counts._provides:
        raise RuntimeError("per-class counts were not computed")  # pragma: no cover
    selection = select(counts, options, caller=caller)
    averages = aggregate(
        selection.tp,
        selection.true,
        selection.pred,
        average=options.average,
        beta=options.beta,
        zero_division=options.zero_division,
        warn_for=warn_for,
        samples=None if counts._samples is None else counts._samples.arrays(),
    )
    return selection, averages


def evaluate_averages(
    counts: MacroF1Counts,
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
    if CLASS_COUNTS not in counts._provides:  # pragma: no cover
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
        samples=None if counts._samples is None else counts._samples.arrays(),
    )
    return selection, shared, results


def check_form(
    y_true: Any, y_pred: Any, sample_weight: Any, labels: Any, *, caller: str
) -> Any:
    """The form of a verb's call, checked before anything else; the ``labels``
    to use.

    A verb takes ``(y_true, y_pred)`` or a :class:`MacroF1Counts` in place of
    ``y_true`` with ``y_pred`` omitted (a ``TypeError`` naming both forms
    otherwise; arrays without ``y_pred`` are refused by :func:`read_for`, where
    the arguments are checked). A record's weights were counted into it:
    ``sample_weight`` with a record is a ``TypeError``. A record's fixed
    ``labels`` are the labels of a call that gives none.
    """
    if not isinstance(y_true, MacroF1Counts):
        return labels
    if y_pred is not None:
        raise TypeError(
            f"{caller} takes (y_true, y_pred) or a MacroF1Counts in place of "
            f"y_true with y_pred omitted ({caller}(counts, ...)); got a "
            f"MacroF1Counts and y_pred={_short(y_pred)}."
        )
    if sample_weight is not None:
        raise TypeError(
            f"{caller} takes no sample_weight with a MacroF1Counts: the weights "
            "were counted into it (MacroF1Counts.from_predictions(y_true, y_pred, "
            "sample_weight=...))."
        )
    return y_true.labels if labels is None else labels


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read_for(
    y_true: Any,
    y_pred: Any,
    options: Options,
    *,
    sample_weight: Any,
    caller: str,
    class_counts: bool = True,
    moments: bool = False,
    samplewise: bool | None = None,
    cells: bool = False,
    count_cells: bool = False,
    targets_kept: bool = True,
) -> Reading:
    """The reading a verb computes from: the record given in place of
    ``y_true`` (:func:`record_reading`), else ``y_true`` / ``y_pred`` read and
    counted once by :func:`~._record.read`, with what the verb needs.

    ``samplewise`` (default: for ``average="samples"``) asks multilabel targets
    for their per-sample counts over ``options.labels``; ``class_counts=False``:
    a lone score, which for ``average="samples"`` needs no per-class counts;
    ``moments``: the second moments of a delta-method interval; ``cells``: the
    occupied cells of a large confusion matrix, from data counted where they
    live (a summary, an interval); ``count_cells``: those cells counted in
    this pass in memory too (an interval that redraws them);
    ``targets_kept=False``: the record leaves the call without the targets
    (a summary's), so it keeps what its intervals read from it (the occupied
    cells, multilabel moments).
    """
    if samplewise is None:
        samplewise = options.average == "samples"
    if isinstance(y_true, MacroF1Counts):
        return record_reading(y_true, options, samplewise=samplewise, caller=caller)
    if y_pred is None:
        if not lives_elsewhere(y_true):  # a source's values are its to check
            check_array_like(y_true, name="y_true", caller=caller, sparse=True)
        raise InvalidParameterError(
            f"The 'y_pred' parameter of {caller} must be an array-like or a sparse "
            f"matrix. Got None instead. ({caller} takes (y_true, y_pred), or a "
            "MacroF1Counts in place of y_true with y_pred omitted.)"
        )
    return read(
        y_true,
        y_pred,
        sample_weight=sample_weight,
        labels=options.labels if samplewise else None,
        samplewise=samplewise,
        class_counts=class_counts,
        moments=moments,
        cells=cells,
        count_cells=count_cells,
        targets_kept=targets_kept,
        caller=caller,
    )


def record_reading(
    counts: MacroF1Counts, options: Options, *, samplewise: bool, caller: str
) -> Reading:
    """A record given to a verb, as a reading, once checked against the
    options: ``average="samples"`` needs per-sample counts over the columns
    the verb averages over (``samplewise``: the verb has a samples row)."""
    counts._check_weights()
    if counts.kind != _MULTILABEL:
        if options.average == "samples" and counts.n_samples is None:
            raise ValueError(
                "average='samples' needs per-sample predictions and cannot be "
                "computed from a confusion matrix; use 'macro', 'micro', "
                "'weighted', 'binary' or None."
            )
    elif samplewise:
        if SAMPLE_COUNTS not in counts._provides:
            raise ValueError(
                f"{caller}: this multilabel record has no per-sample counts, "
                "which average='samples' needs; count it with "
                "MacroF1Counts.from_predictions."
            )
        fixed = counts._sample_columns
        if fixed is None:
            fixed = np.arange(counts.n_classes)
        if options.labels is not None and not _same_values(options.labels, fixed):
            raise ValueError(
                "average='samples' uses the per-sample counts over the columns "
                f"fixed when the record was counted ({fixed.tolist()!r}); got "
                f"labels={np.asarray(options.labels).tolist()!r}. Count with "
                "MacroF1Counts.from_predictions(..., labels=...) (or "
                "MacroF1Accumulator(labels=...)) over these columns to average "
                "over them per sample."
            )
    return Reading(counts)


def _same_values(a: Any, b: np.ndarray) -> bool:
    a = np.asarray(a)
    return a.shape == b.shape and bool(np.all(a == b))


def score(
    y_true: Any,
    y_pred: Any,
    *,
    caller: str,
    result: str,
    warn_for: tuple[str, ...],
    beta: Any,
    labels: Any,
    pos_label: Any,
    average: Any,
    sample_weight: Any,
    zero_division: Any,
) -> Any:
    """Validate, count once and aggregate: the body of every score function,
    which returns the average named by ``result`` (``"averaged_fbeta"`` or
    ``"fbeta_of_averages"``), per-class arrays as the data's source returns
    them (:attr:`~._record.Reading.returns`).

    Only the two averages are wanted, so a multilabel ``average="samples"``
    score counts no per-class totals.
    """
    labels = check_form(y_true, y_pred, sample_weight, labels, caller=caller)
    options = check_options(
        caller=caller,
        average=average,
        beta=beta,
        zero_division=zero_division,
        labels=labels,
        pos_label=pos_label,
    )
    reading = read_for(
        y_true,
        y_pred,
        options,
        sample_weight=sample_weight,
        caller=caller,
        class_counts=False,
    )
    _, averages = evaluate(reading.counts, options, warn_for=warn_for, caller=caller)
    value = getattr(averages, result)
    return value if reading.returns is None else reading.returns(value)
