"""From user arguments to counts and averages: the path every entry point takes.

``prepare`` validates the options, reads and counts the targets once (by the
source of the data: :mod:`~._sources`, where Dask collections are counted on
their workers); ``select``
applies scikit-learn's ``labels`` / ``pos_label`` / ``average="binary"`` rules to
the counts; ``evaluate`` runs the aggregation on the selection. The report, the
scorers, the CLI and the streaming accumulator all go through these three.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._aggregation import Averages, Ratios, aggregate, aggregate_many
from ._record import Counts
from ._sources import (
    CountRequest,
    JointPredictions,
    JointReading,
    Predictions,
    Reading,
    count,
    count_jointly,
    multilabel_columns,
)
from ._validation import (
    check_array_like,
    check_average,
    check_beta,
    check_pos_label,
    check_zero_division,
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
    beta = check_beta(beta, caller=caller)
    if labels is not None:
        check_array_like(labels, name="labels", caller=caller, sparse=False)
    pos_label = check_pos_label(pos_label, caller=caller)
    average = check_average(average, caller=caller)
    zero_division = check_zero_division(zero_division, caller=caller)
    return Options(average, beta, zero_division, labels, pos_label)


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
    part: bool = False,
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
    ``part``: the data are a batch or a chunk of a whole, whose weights may all
    be zero (the record says so; see :mod:`~._sources`).
    """
    _check_arguments(y_true, (y_pred,), ("y_pred",), sample_weight, caller)
    request = CountRequest(
        labels=labels,
        samplewise=samplewise,
        class_counts=class_counts,
        moments=moments,
        targets_kept=targets_kept,
        part=part,
        caller=caller,
    )
    return count(Predictions(y_true, y_pred, sample_weight), request)


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
    the errors."""
    _check_arguments(y_true, y_preds, names, sample_weight, caller)
    request = CountRequest(
        labels=labels, samplewise=samplewise, part=part, caller=caller
    )
    data = JointPredictions(y_true, y_preds, names, sample_weight)
    return count_jointly(data, request)


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
            choices = [None, "micro", "macro", "weighted"]
            if counts.kind == "multilabel-indicator":
                choices.append("samples")
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
            raise ValueError(
                "average='samples' is only available for multilabel targets "
                "(2-D 0/1 indicator matrices); for 1-D targets use 'micro', "
                "'macro', 'weighted', 'binary' or None."
            )
        if labels is None:
            return Selection(classes, counts.tp, counts.true, counts.pred)
        wanted = np.asarray(labels)
        if wanted.ndim != 1:
            raise ValueError(
                f"labels must be a 1-D array-like; got shape {wanted.shape}."
            )
    if counts.kind == "multilabel-indicator":
        index = multilabel_columns(wanted, classes.shape[0])
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
