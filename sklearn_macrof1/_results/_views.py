"""Notebook and pandas views of the presentation layer's results.

:class:`~._summary.FBetaSummary` and the report describe themselves here as
:class:`~sklearn_macrof1._html.Table` objects; the same tables give the
HTML of a notebook (``_repr_html_``) and, row for row, the ``pandas.DataFrame``
of ``to_frame()``. A new figure in a view is one more column, row or table in
the functions below. pandas is imported only when a frame is asked for.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._averages import CLASS_MEANS, HAS_BOUND
from .._html import Table, frame, render_html

if TYPE_CHECKING:
    from collections.abc import Callable

    from .._stats._intervals import FBetaInterval
    from ._summary import FBetaSummary

#: Per-class rows shown in a notebook before the rest is summarised in a note.
MAX_HTML_CLASSES = 20


def fbeta_name(beta: float) -> str:
    """ "F1", "F2", "F0.5": the score's name for ``beta``."""
    return "F1" if beta == 1 else f"F{beta:g}"


def column_names(beta: float) -> tuple[str, str]:
    """The report's keys of the two scores for ``beta``: ``f1-score`` and
    ``f1-of-averages`` for F1."""
    name = fbeta_name(beta).lower()
    return f"{name}-score", f"{name}-of-averages"


def short(value: Any) -> str:
    """A value of a one-line ``__repr__``: 4 significant digits, arrays summarised."""
    if isinstance(value, np.ndarray):
        if value.size <= 6:
            return np.array2string(value, precision=4, separator=", ")
        return f"<{value.size} values>"
    if value is None:
        return "None"
    return f"{float(value):.4g}"


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _count(value: Any) -> Any:
    """Supports print as integers when they are whole numbers (unweighted)."""
    value = float(value)
    return int(value) if value.is_integer() else value


# ----------------------------------------------------------------------- summary


def summary_tables(summary: FBetaSummary) -> list[Table]:
    """The summary's notebook view: both scores side by side, then the classes."""
    name = fbeta_name(summary.beta)
    tables = []
    per_class_only = summary.average is None
    if not per_class_only:
        cells = {
            f"averaged {name}": summary.averaged_fbeta,
            f"{name} of averages": summary.fbeta_of_averages,
            "gap": summary.gap,
        }
        if summary.average in HAS_BOUND:
            cells["gap bound"] = summary.gap_bound
        cells.update(precision=summary.precision, recall=summary.recall)
        main = Table(
            f"{summary.average} average, beta={summary.beta:g}: "
            f"{summary.n_classes} classes ({summary.target_type})",
            list(cells),
            index="average",
        )
        main.add_row(summary.average, [_scalar(v) for v in cells.values()])
        if summary.average in HAS_BOUND:
            main.notes.append(
                f"gap = {name} of averages - averaged {name}; gap bound: its "
                f"supremum for {summary.n_classes} classes (Opitz & Burst, Macro F1 "
                "and Macro F1, Theorem 3)."
            )
        pairs = _gap_pairs_note(summary)
        if pairs:
            main.notes.append(pairs)
        tables.append(main)
    columns = ["precision", "recall", name, "support"]
    if per_class_only:
        columns.insert(3, f"{name} of P and R")
    classes = Table(
        f"per class (average=None, beta={summary.beta:g})"
        if per_class_only
        else "per class",
        columns,
        index="class",
    )
    n = summary.n_classes
    for i in range(min(n, MAX_HTML_CLASSES)):
        values = [
            summary.class_precision[i],
            summary.class_recall[i],
            summary.class_fbeta[i],
            _count(summary.support[i]),
        ]
        if per_class_only:
            values.insert(3, np.asarray(summary.fbeta_of_averages)[i])
        classes.add_row(summary.labels[i], [_scalar(v) for v in values])
    if n > MAX_HTML_CLASSES:
        classes.notes.append(
            f"... and {n - MAX_HTML_CLASSES} more classes: summary.to_frame() has "
            "every row."
        )
    tables.append(classes)
    return tables


def _gap_pairs_note(summary: FBetaSummary) -> str:
    """The largest class-pair terms of the gap (macro or weighted, gap > 0)."""
    if summary.average not in CLASS_MEANS or not summary.gap > 0:
        return ""
    try:
        attribution = summary.gap_attribution()
    except ValueError:  # zero_division=nan left classes out: no pair terms
        return ""
    return (
        f"{attribution.headline(3)}; summary.gap_attribution() has every pair "
        "and class."
    )


def summary_frame(
    summary: FBetaSummary, interval: FBetaInterval | None, *, caller: str
) -> Any:
    """``FBetaSummary.to_frame``: one row per class, then the average's row (with
    the interval columns ``<score>-ci-low`` ... of both scores, when given)."""
    score, of_averages = column_names(summary.beta)
    foa = np.asarray(summary.fbeta_of_averages)
    records: list[dict[str, Any]] = []
    for i in range(summary.n_classes):
        record = {
            "precision": float(summary.class_precision[i]),
            "recall": float(summary.class_recall[i]),
            score: float(summary.class_fbeta[i]),
            "support": float(summary.support[i]),
        }
        if summary.average is None:
            record[of_averages] = float(foa[i])
        records.append(record)
    index = [str(label) for label in summary.labels]
    if summary.average is not None:
        record = {
            "precision": float(summary.precision),
            "recall": float(summary.recall),
            score: float(summary.averaged_fbeta),
            "support": float(np.sum(summary.support)),
            of_averages: float(summary.fbeta_of_averages),
            "gap": float(summary.gap),
        }
        if summary.average in HAS_BOUND:
            record["gap-bound"] = float(summary.gap_bound)
        if interval is not None:
            for key, ci in (
                (score, interval.averaged_fbeta),
                (of_averages, interval.fbeta_of_averages),
            ):
                record[f"{key}-ci-low"] = float(ci.low)
                record[f"{key}-ci-high"] = float(ci.high)
        records.append(record)
        index.append(f"{summary.average} avg")
    return frame(records, index=index, caller=caller)


# ------------------------------------------------------------------------ report


def report_frame(rows: list[Any], *, caller: str) -> Any:
    """The report's rows as a ``pandas.DataFrame`` (``as_frame=True``).

    ``rows`` are the report's row records (``name``, ``precision``, ``recall``,
    ``f1``, ``support``, ``extra``, ``accuracy``, ``ci``). Every cell holds a
    value of its own row: the accuracy row has the accuracy under ``f1-score``
    (where the text report prints it) and nan under precision and recall, and
    only the rows that have them show ``f1-of-averages``, ``gap`` and
    ``gap-bound``. Intervals are the ``<key>-ci-low`` / ``<key>-ci-high``
    columns.
    """
    records = []
    for row in rows:
        record: dict[str, Any] = {
            "precision": None if row.accuracy else float(row.precision),
            "recall": None if row.accuracy else float(row.recall),
            "f1-score": float(row.f1),
            "support": float(row.support),
        }
        record.update({key: float(value) for key, value in row.extra.items()})
        for key, (low, high) in row.ci.items():  # "f1-score-ci" -> "f1-score-ci-low"
            record[f"{key}-low"] = float(low)
            record[f"{key}-high"] = float(high)
        records.append(record)
    order = (
        "precision", "recall", "f1-score", "support", "f1-of-averages", "gap",
        "gap-bound", "f1-score-ci-low", "f1-score-ci-high",
        "f1-of-averages-ci-low", "f1-of-averages-ci-high",
    )  # fmt: skip
    return frame(records, index=[row.name for row in rows], order=order, caller=caller)


# ------------------------------------------------------------------ accumulator


def accumulator_html(accumulator: Any, summarize: Callable[[Any], Any]) -> str:
    """What has been counted, then the macro summary of it (as a summary shows);
    ``summarize`` is :func:`fbeta_summary`, given a record."""
    head = Table(
        "MacroF1Accumulator",
        ["samples", "classes", "targets", "labels"],
        index="",
    )
    labels = _labels_text(accumulator.labels)
    if accumulator.n_samples == 0 and accumulator._counts is None:
        head.add_row("counted", [0, None, None, labels])
        head.notes.append("No batch counted yet: call update(y_true, y_pred).")
        return render_html([head])
    try:
        counts = accumulator.counts
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a view never warns
            summary = summarize(counts)
    except ValueError as exc:  # e.g. every weight zero so far
        head.add_row("counted", [accumulator.n_samples, None, None, None])
        head.notes.append(str(exc))
        return render_html([head])
    row = [accumulator.n_samples, counts.n_classes, counts.kind, labels]
    head.add_row("counted", row)
    return render_html([head, *summary_tables(summary)])


def _labels_text(labels: Any) -> str:
    if labels is None:
        return "discovered"
    values = np.asarray(labels).tolist()
    text = ", ".join(map(str, values[:8]))
    return text + (f", ... ({len(values)})" if len(values) > 8 else "")
