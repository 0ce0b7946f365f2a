"""A classification report with both macro F1s beside each other.

Every row and value of ``sklearn.metrics.classification_report`` (per-class
rows, accuracy or micro avg, macro avg, weighted avg, samples avg), plus, for
each averaged row, the F1 of averages beside the averaged F1, and for the macro
row the gap between them and Theorem 3's bound on it.

One straight path: :func:`classification_report` checks its options once,
reads and counts the targets once (or takes a record), and
:func:`report_of_reading` runs the rest on that reading: the aggregation of
every row at once, the rows' intervals from that same aggregation, the rows,
then text, dict or frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, overload

import numpy as np

from .._averages import HAS_BOUND, averages_of
from .._counting._record import MacroF1Counts, Reading
from .._formulas._aggregation import ALL_METRICS
from .._formulas._evaluation import (
    Options,
    as_options,
    check_form,
    evaluate_averages,
    read_for,
)
from .._options import check_array_like, check_options_of, warn_user
from .._present._frame import table_frame
from .._present._report import (
    ACCURACY_CI,
    F1_CI,
    F1_OF_AVERAGES,
    F1_OF_AVERAGES_CI,
    GAP,
    GAP_BOUND,
    HEADERS,
    gap_contributors,
    interval_legend,
    report_legend,
    report_tables,
)
from .._present._text import render_text
from .._stats._intervals import (
    FBetaInterval,
    Resampling,
    check_record_interval,
    counted_for,
    report_designs,
    report_intervals,
    resampling_of,
    resampling_options,
    resolve,
)
from ._summary import FBetaSummary, build_summaries


def _averages(counts: MacroF1Counts) -> list[str]:
    """The averaged rows of a report of ``counts``: as scikit-learn, every
    average of the target but "binary"."""
    return [a for a in averages_of(counts.kind) if a != "binary"]


@dataclass
class _Row:
    """One line of the report; ``extra`` holds the values of the new columns."""

    name: str
    precision: Any
    recall: Any
    f1: Any
    support: Any
    extra: dict[str, float] = field(default_factory=dict)
    accuracy: bool = False
    #: ``F1_CI`` / ``F1_OF_AVERAGES_CI`` -> (low, high), when intervals are asked
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: The macro row's largest gap contributors (text report only):
    #: ("x & y" or, with ``gap_by="class"``, "x"; contribution, share of the gap)
    gap_pairs: list[tuple[str, float, float]] = field(default_factory=list)
    gap_by: str = "pair"


def _check_output_form(output_dict: bool, as_frame: bool, *, caller: str) -> None:
    if output_dict and as_frame:
        raise ValueError(
            f"{caller} returns a dict (output_dict=True) or a pandas.DataFrame "
            "(as_frame=True), not both: set one of them."
        )


def _target_names(
    labels: np.ndarray, target_names: Any, *, labels_given: bool, caller: str
) -> list | np.ndarray:
    if target_names is not None:
        check_array_like(target_names, name="target_names", caller=caller, sparse=False)
        target_names = list(target_names)
        if len(target_names) != len(labels):
            if labels_given:
                warn_user(
                    f"labels size, {len(labels)}, does not match size of "
                    f"target_names, {len(target_names)}",
                    UserWarning,
                )
            else:
                raise ValueError(
                    f"Number of classes, {len(labels)}, does not match size of "
                    f"target_names, {len(target_names)}. Try specifying the labels "
                    "parameter"
                )
        # the names as the report writes them: lines, dict keys, frame index
        return [str(name) for name in target_names]
    if labels.dtype.kind in "iuUb":  # "%s" % label, column-wise
        return labels.astype(str)
    return ["%s" % label for label in labels]  # noqa: UP031 - scikit-learn's format


@dataclass
class _Classes:
    """The report's per-class lines: names and figures, as arrays (a report
    may have 1,000,000 of them). As in scikit-learn, the lines stop at the
    shorter of the names and the figures; ``names`` holds every name."""

    names: list | np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    support: np.ndarray

    @property
    def shown(self) -> list | np.ndarray:
        """The names of the lines."""
        return self.names[: len(self.support)]


def _rows(
    counts: MacroF1Counts,
    averages: list[str],
    summaries: dict[str | None, FBetaSummary],
    intervals: dict[str, FBetaInterval],
    *,
    labels: Any,
    labels_given: bool,
    target_names: Any,
    caller: str,
) -> tuple[_Classes, list[_Row]]:
    """Per-class lines and averaged rows, from the summaries of every row (key
    None: the per-class figures) and the averaged rows' intervals (when asked)."""
    per_class = summaries[None]
    names = _target_names(
        per_class.labels, target_names, labels_given=labels_given, caller=caller
    )
    n = min(len(names), len(per_class.labels))
    classes = _Classes(
        names,
        *(
            np.asarray(figures)[:n]
            for figures in (
                per_class.class_precision,
                per_class.class_recall,
                per_class.class_fbeta,
                per_class.support,
            )
        ),
    )
    support = np.sum(per_class.support)
    # scikit-learn's rule: micro is accuracy for 1-D targets when every present
    # label is reported
    micro_is_accuracy = counts.kind != "multilabel-indicator" and (
        labels is None
        or set(np.asarray(labels).tolist()) >= set(counts.classes.tolist())
    )
    average_rows = []
    for average in averages:
        summary = summaries[average]
        is_accuracy = average == "micro" and micro_is_accuracy
        row = _Row(
            "accuracy" if is_accuracy else f"{average} avg",
            summary.precision,
            summary.recall,
            summary.averaged_fbeta,
            support,
            accuracy=is_accuracy,
        )
        if not is_accuracy:
            row.extra[F1_OF_AVERAGES] = float(summary.fbeta_of_averages)
        if average in HAS_BOUND:
            row.extra[GAP] = float(summary.gap)
            row.extra[GAP_BOUND] = float(summary.gap_bound)
            row.gap_by, row.gap_pairs = gap_contributors(summary, names)
        if average in intervals:
            both = intervals[average]
            row.ci[F1_CI] = (both.averaged_fbeta.low, both.averaged_fbeta.high)
            if not is_accuracy:
                row.ci[F1_OF_AVERAGES_CI] = (
                    both.fbeta_of_averages.low,
                    both.fbeta_of_averages.high,
                )
        average_rows.append(row)
    return classes, average_rows


def _check_no_summary_names(
    classes: _Classes, average_rows: list[_Row], output_dict: bool, *, caller: str
) -> None:
    """A class named as a summary row ("accuracy", "macro avg", ...) would be
    overwritten in the dict (scikit-learn's report drops it without a word) and
    share its index with the summary row in the frame: refused, with the fix."""
    keys = [row.name for row in average_rows]
    if output_dict and any(row.accuracy and F1_CI in row.ci for row in average_rows):
        keys.append(ACCURACY_CI)
    shown = classes.shown
    if isinstance(shown, np.ndarray):
        clashes = [key for key in keys if bool((shown == key).any())]
    else:
        clashes = [key for key in keys if key in shown]
    if clashes:
        form = "output_dict=True" if output_dict else "as_frame=True"
        many = len(clashes) > 1
        raise ValueError(
            f"{caller} with {form}: the class{'es' if many else ''} "
            f"{', '.join(repr(key) for key in clashes)} "
            f"{'have' if many else 'has'} the name of a summary row of the report "
            f"({', '.join(keys)}), which would hide {'them' if many else 'it'} "
            "(scikit-learn's report drops such a class). Rename the classes with "
            "target_names= (one name per label, in the order of labels= or of the "
            f"sorted labels), for example '{clashes[0]} (class)'; the text report "
            "shows every row."
        )


def _as_dict(classes: _Classes, average_rows: list[_Row]) -> dict[str, Any]:
    report: dict[str, Any] = {
        str(name): dict(zip(HEADERS, map(float, values), strict=True))
        for name, *values in zip(
            classes.shown,
            classes.precision.tolist(),
            classes.recall.tolist(),
            classes.f1.tolist(),
            classes.support.tolist(),
            strict=True,
        )
    }
    for row in average_rows:
        if row.accuracy:  # scikit-learn keeps one number: the micro precision
            report[row.name] = float(row.precision)
            if F1_CI in row.ci:
                report[ACCURACY_CI] = {F1_CI: [float(v) for v in row.ci[F1_CI]]}
            continue
        values: dict[str, Any] = dict(
            zip(
                HEADERS,
                (float(v) for v in (row.precision, row.recall, row.f1, row.support)),
                strict=True,
            )
        )
        values.update(row.extra)
        values.update({key: [float(v) for v in pair] for key, pair in row.ci.items()})
        report[row.name] = values
    return report


def _warn_zero_width(intervals: list[FBetaInterval]) -> None:
    """One warning for the whole report (the intervals module warns per row)."""
    if any(
        i.averaged_fbeta.std_error == 0 or i.fbeta_of_averages.std_error == 0
        for i in intervals
    ):
        warn_user(
            "A confidence interval of the report has zero width: the score does "
            "not vary under resampling (e.g. a perfect classifier, or no correct "
            "prediction). This reflects the sample, not certainty about the "
            "population.",
            UserWarning,
        )


def report_of_reading(
    reading: Reading,
    options: Options,
    resampling: Resampling | None,
    *,
    target_names: Any,
    digits: int,
    output_dict: bool,
    as_frame: bool,
    labels_given: bool,
    caller: str,
    record: MacroF1Counts | None = None,
) -> Any:
    """The report of one reading, every option checked by the caller.

    ``reading`` was counted samplewise over ``options.labels`` (multilabel
    targets: the per-sample counts of the samples avg row); ``options`` are
    the rows' score options (``average`` None). Evaluate every row at once,
    the rows' intervals from that same evaluation (``resampling``: None for
    a report without them; its method is resolved here,
    :func:`~._intervals.resolve`), the rows, then text, dict or frame.
    ``record``: the count record the user gave in place of ``y_true``,
    whose intervals are checked against what it holds.
    ``labels_given`` says whether the user chose the labels, which makes a
    ``target_names`` length mismatch a warning instead of an error, as in
    scikit-learn.
    """
    counts = reading.counts
    averages = _averages(counts)
    designs = None
    if resampling is not None:
        resampling = resolve(resampling, counts, tuple(averages), labels=options.labels)
        if record is not None:
            check_record_interval(
                record,
                averages,
                method=resampling.method,
                caller=caller,
                method_name="interval_method",
            )
        designs = report_designs(reading, options, averages, resampling.method)
    selection, per_class, results = evaluate_averages(
        counts, options, [None, *averages], warn_for=ALL_METRICS, caller=caller
    )
    summaries = build_summaries(counts, options, selection, per_class, results)
    intervals: dict[str, FBetaInterval] = {}
    if resampling is not None:
        intervals = report_intervals(
            reading, options, (selection, results), averages, resampling,
            caller=caller, designs=designs,
        )  # fmt: skip
    classes, average_rows = _rows(
        counts,
        averages,
        summaries,
        intervals,
        labels=options.labels,
        labels_given=labels_given,
        target_names=target_names,
        caller=caller,
    )
    _warn_zero_width(list(intervals.values()))
    if output_dict or as_frame:
        _check_no_summary_names(classes, average_rows, output_dict, caller=caller)
    if output_dict:
        return _as_dict(classes, average_rows)
    legend = level = None
    if intervals:
        first = next(iter(intervals.values()))
        legend = interval_legend(first)
        level = legend.split(" ", 1)[0]
    tables = report_tables(classes, average_rows, digits, level)
    if as_frame:
        return table_frame(tables, caller=caller)
    return render_text(tables, report_legend(classes, average_rows, digits, legend))


@overload
def classification_report(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    labels: Any = None,
    target_names: Any = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Any = "warn",
    confidence: float | None = None,
    interval_method: str = "auto",
    n_resamples: int = 1000,
    random_state: Any = None,
    as_frame: bool = False,
    verbose: int = 0,
) -> Any: ...


@overload
def classification_report(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    target_names: Any = None,
    sample_weight: Any = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Any = "warn",
    confidence: float | None = None,
    interval_method: str = "auto",
    n_resamples: int = 1000,
    random_state: Any = None,
    as_frame: bool = False,
    verbose: int = 0,
) -> Any: ...


def classification_report(
    y_true: Any,
    y_pred: Any = None,
    *,
    labels: Any = None,
    target_names: Any = None,
    sample_weight: Any = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Any = "warn",
    confidence: float | None = None,
    interval_method: str = "auto",
    n_resamples: int = 1000,
    random_state: Any = None,
    as_frame: bool = False,
    verbose: int = 0,
) -> Any:
    """scikit-learn's classification report, with both macro F1s.

    Every row and value of ``sklearn.metrics.classification_report`` (per-class
    rows, accuracy or micro avg, macro avg, weighted avg and, for multilabel
    targets, samples avg), unchanged, plus:

    - ``f1-of-averages`` for each averaged row: the F1 of that row's precision
      and recall (harmonic mean of averages), beside ``f1-score``, which stays
      scikit-learn's averaged F1 (mean of per-class F1);
    - ``gap`` (``f1-of-averages - f1-score``) and ``gap-bound`` (Theorem 3 of
      Opitz & Burst: the supremum of that gap for the number of reported
      classes) for the macro row.

    The targets are read and counted once; every row is an aggregation of
    those counts.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), {array-like, sparse matrix} of \
shape (n_samples, n_labels) or MacroF1Counts
        Ground truth labels, or a 0/1 indicator matrix for multilabel targets.
        Or a count record (:class:`MacroF1Counts`), with ``y_pred`` omitted:
        the report of the predictions it counted (a record read from a
        confusion matrix reports its classes in the matrix's order).
    y_pred : same kind as ``y_true``, default=None
        Predicted labels; omitted with a record.
    labels : array-like of shape (n_labels,), default=None
        The labels to report, in order (column indices for multilabel targets).
        With labels that leave out a present class, the accuracy row becomes a
        micro avg row, as in scikit-learn.
    target_names : array-like of str, default=None
        Display names of ``labels`` (same length, same order).
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights (not with a record: its weights were counted into it).
    digits : int, default=2
        Number of digits of the floating-point values in the text report
        (``output_dict`` values are not rounded). Columns widen where a value
        would not fit, so the layout stays aligned.
    output_dict : bool, default=False
        Return a dict instead of text. A class named as a summary row of the
        report (``"accuracy"``, ``"macro avg"``, ...), whose row the summary's
        key would replace, raises ``ValueError`` (as with ``as_frame``): rename
        it with ``target_names``.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of ill-defined ratios, as in scikit-learn.
    confidence : float in (0, 1), default=None
        When given (e.g. 0.95), each averaged row gets confidence intervals of
        both scores, as computed by :func:`fbeta_confidence_interval` for that
        row's average: the text report adds the columns ``f1-score 95% CI``
        and ``f1-of-averages 95% CI``; ``output_dict`` adds the keys described
        under Returns. None (the default) leaves the report as without them.
    interval_method : {"auto", "delta", "bootstrap", "posterior"}, default="auto"
        The interval's ``method`` (see :func:`fbeta_confidence_interval`):
        "auto" is the posterior for unweighted 1-D targets, the delta method
        otherwise (and above 100,000 samples where every class has at least
        20 true samples).
    n_resamples : int, default=1000
        Bootstrap replicates, or posterior draws (``interval_method=
        "bootstrap"`` or ``"posterior"`` only).
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the bootstrap or the posterior; one generator serves every
        row, so a seeded report is reproducible. With None the posterior
        seeds each row's draws from its counts (the same report on every
        call; each row's interval equals :func:`fbeta_confidence_interval`'s).
    as_frame : bool, default=False
        Return a ``pandas.DataFrame`` (needs pandas): one row per line of the
        text report, the columns of ``output_dict``, and, with ``confidence``,
        ``f1-score-ci-low``, ``f1-score-ci-high``, ``f1-of-averages-ci-low``
        and ``f1-of-averages-ci-high``. A cell that the text report leaves
        empty is nan (the accuracy row has only ``f1-score``, ``support`` and
        its interval). Not together with ``output_dict``.
    verbose : int, default=0
        Progress of a bootstrap (``interval_method="bootstrap"``) on standard
        error, over all the rows' resamples: 0 prints nothing, 1 about every
        tenth, 2 and more every block of resamples.

    Returns
    -------
    report : str, dict or pandas.DataFrame
        Text, or a dict in which every key of scikit-learn's report holds
        scikit-learn's value: ``{label: {"precision", "recall", "f1-score",
        "support"}, "accuracy": float, "macro avg": {...}, ...}``; each averaged
        row also has an ``"f1-of-averages"`` entry and the macro row ``"gap"``
        and ``"gap-bound"``. With ``confidence``, each averaged row also has
        ``"f1-score-ci"`` and ``"f1-of-averages-ci"`` (``[low, high]`` lists),
        and an accuracy row comes with a top-level ``"accuracy-ci"``:
        ``{"f1-score-ci": [low, high]}``. ``pandas.DataFrame(report)`` loads
        the dict with or without intervals (pandas spreads the one number of
        ``"accuracy"`` over every cell of its column, as with scikit-learn's
        report); ``as_frame=True`` gives the table with each value in its own
        cell only.

    See Also
    --------
    MacroF1Counts.from_confusion_matrix : The record of a confusion matrix, to
        report.
    fbeta_summary : Both scores and everything behind them for one average.

    Examples
    --------
    >>> from sklearn_macrof1 import classification_report
    >>> y_true = [0, 1, 2, 2, 2]
    >>> y_pred = [0, 0, 2, 2, 1]
    >>> print(classification_report(y_true, y_pred, zero_division=0.0))
                  precision    recall  f1-score   support  f1-of-averages       gap  gap-bound
    <BLANKLINE>
               0       0.50      1.00      0.67         1
               1       0.00      0.00      0.00         1
               2       1.00      0.67      0.80         3
    <BLANKLINE>
        accuracy                           0.60         5
       macro avg       0.50      0.56      0.49         5            0.53      0.04       0.44
    weighted avg       0.70      0.60      0.61         5            0.65
    <BLANKLINE>
    f1-score:       averaged F1, the mean of the per-class F1 (sklearn's f1-score).
    f1-of-averages: F1 of averages, the harmonic mean of the row's precision and recall.
    gap:            f1-of-averages - f1-score; gap-bound: its supremum for 3 classes
                    (Opitz & Burst, Macro F1 and Macro F1, Theorem 3).
    gap by pair:    0 & 2 0.0374 (100%)
    <BLANKLINE>
    >>> report = classification_report(y_true, y_pred, output_dict=True,
    ...                                zero_division=0.0)
    >>> {k: round(v, 4) for k, v in report["macro avg"].items()}
    {'precision': 0.5, 'recall': 0.5556, 'f1-score': 0.4889, 'support': 5.0, \
'f1-of-averages': 0.5263, 'gap': 0.0374, 'gap-bound': 0.4444}

    With 95% confidence intervals for both scores (the default method "auto":
    the Dirichlet posterior for these unweighted labels):

    >>> report = classification_report(y_true * 40, y_pred * 40, output_dict=True,
    ...                                zero_division=0.0, confidence=0.95)
    >>> [round(v, 3) for v in report["macro avg"]["f1-score-ci"]]
    [0.443, 0.546]

    As a ``pandas.DataFrame``:

    >>> df = classification_report(y_true, y_pred, zero_division=0.0, as_frame=True)
    >>> df[["f1-score", "f1-of-averages", "gap"]].round(4)
                  f1-score  f1-of-averages     gap
    0               0.6667             NaN     NaN
    1               0.0000             NaN     NaN
    2               0.8000             NaN     NaN
    accuracy        0.6000             NaN     NaN
    macro avg       0.4889          0.5263  0.0374
    weighted avg    0.6133          0.6462     NaN
    """  # noqa: E501
    caller = "classification_report"
    labels_given = labels is not None
    labels = check_form(y_true, y_pred, sample_weight, labels, caller=caller)
    interval_options = {}
    if confidence is not None:
        interval_options = resampling_options(
            confidence=confidence,
            method=interval_method,
            n_resamples=n_resamples,
            random_state=random_state,
            method_name="interval_method",
        )
    checked = check_options_of(
        caller,
        digits=digits,
        output_dict=output_dict,
        as_frame=as_frame,
        labels=labels,
        zero_division=zero_division,
        **interval_options,
        verbose=verbose,
    )
    _check_output_form(output_dict, as_frame, caller=caller)
    options = as_options(checked, average=None, beta=1.0, pos_label=None)
    resampling = None
    counted: dict[str, bool] = {}
    if confidence is not None:
        resampling = resampling_of(checked, method_name="interval_method")
        counted = counted_for(resampling.method, weighted=sample_weight is not None)
    reading = read_for(
        y_true,
        y_pred,
        options,
        sample_weight=sample_weight,
        caller=caller,
        samplewise=True,  # per-sample counts for multilabel targets only
        **counted,
    )
    if isinstance(y_true, MacroF1Counts):
        # the record's fixed labels are the user's; a matrix's names order rows
        labels_given = labels_given or y_true.labels is not None
        if options.labels is None:
            options = replace(options, labels=y_true._class_order)
    return report_of_reading(
        reading,
        options,
        resampling,
        target_names=target_names,
        digits=int(checked["digits"]),
        output_dict=output_dict,
        as_frame=as_frame,
        labels_given=labels_given,
        caller=caller,
        record=y_true if isinstance(y_true, MacroF1Counts) else None,
    )
