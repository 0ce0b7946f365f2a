"""The table descriptions of the summary and the accumulator.

:class:`~sklearn_macrof1.FBetaSummary` and the accumulator describe
themselves here as :class:`~._table.Table` objects; the renderers turn the
same tables into the HTML of a notebook (``_repr_html_``), the text of
``str()`` and the ``pandas.DataFrame`` of ``to_frame()``. A new figure in
every view is one more column, row or table in the functions below. pandas is
imported only when a frame is asked for.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._averages import CLASS_MEANS, HAS_BOUND
from ._frame import table_frame
from ._gap import gap_headline
from ._html import render_html
from ._table import Column, Table, column_names, fbeta_name, format_value

if TYPE_CHECKING:
    from collections.abc import Callable

    from .._results._summary import FBetaSummary
    from .._stats._intervals import FBetaInterval


#: Classes up to which a notebook view names the largest class pairs of the
#: gap: their table has one value per pair of classes (8 MB at 1,000 classes).
MAX_PAIR_NOTE_CLASSES = 1000


def _classes(n: int) -> str:
    """ "1 class", "3 classes"."""
    return f"{n} class" if n == 1 else f"{n} classes"


def _count(value: Any) -> str:
    """Supports print as integers when they are whole numbers (unweighted)."""
    value = float(value)
    return format_value(int(value) if value.is_integer() else value)


# ----------------------------------------------------------------------- summary


def summary_tables(
    summary: FBetaSummary, interval: FBetaInterval | None = None
) -> tuple[Table | None, Table]:
    """The summary's two tables: its average (None for ``average=None``) and
    its classes.

    A notebook shows the average first, both scores side by side; the frame
    of ``to_frame()`` has the classes first and the average's row last (with
    the columns ``<score>-ci-low`` ... of both scores when ``interval`` is
    given), in the column order of :func:`classification_report`.
    """
    name = fbeta_name(summary.beta)
    score, of_averages = column_names(summary.beta)
    per_class_only = summary.average is None
    main = None
    if not per_class_only:
        columns = [
            Column(score, [summary.averaged_fbeta], heading=f"averaged {name}"),
            Column(of_averages, [summary.fbeta_of_averages], f"{name} of averages"),
            Column("gap", [summary.gap]),
        ]
        if summary.average in HAS_BOUND:
            columns.append(Column("gap-bound", [summary.gap_bound], "gap bound"))
        columns += [
            Column("precision", [summary.precision]),
            Column("recall", [summary.recall]),
            Column("support", [float(np.sum(summary.support))], shown=False),
        ]
        if interval is not None:
            for key, ci in (
                (score, interval.averaged_fbeta),
                (of_averages, interval.fbeta_of_averages),
            ):
                columns.append(Column(f"{key}-ci-low", [ci.low], shown=False))
                columns.append(Column(f"{key}-ci-high", [ci.high], shown=False))
        main = Table(
            f"{summary.average} average, beta={summary.beta:g}: "
            f"{_classes(summary.n_classes)} ({summary.target_type})",
            columns,
            keys=[f"{summary.average} avg"],
            labels=[summary.average],
            index="average",
        )
        if summary.average in HAS_BOUND:
            main.notes.append(
                f"gap = {name} of averages - averaged {name}; gap bound: its "
                f"supremum for {_classes(summary.n_classes)} (Opitz & Burst, Macro F1 "
                "and Macro F1, Theorem 3)."
            )
        pairs = _gap_pairs_note(summary)
        if pairs:
            main.notes.append(pairs)
    support = np.asarray(summary.support, dtype=np.float64)
    columns = [
        Column("precision", np.asarray(summary.class_precision, dtype=np.float64)),
        Column("recall", np.asarray(summary.class_recall, dtype=np.float64)),
        Column(score, np.asarray(summary.class_fbeta, dtype=np.float64), name),
        Column("support", support, fmt=_count),
    ]
    if per_class_only:  # the notebook shows the scores together, before support
        columns[3].shown = False
        foa = np.asarray(summary.fbeta_of_averages, dtype=np.float64)
        columns.append(Column(of_averages, foa, f"{name} of P and R"))
        columns.append(Column("support", support, fmt=_count, data=False))
    classes = Table(
        f"per class (average=None, beta={summary.beta:g})"
        if per_class_only
        else "per class",
        columns,
        # the labels as they are: a view writes the text of the rows it shows
        # (20 of 1,000,000 classes), a frame's index that of every label
        keys=summary.labels,
        index="class",
        unit="classes",
        unit_one="class",
        full="summary.to_frame()",
    )
    return main, classes


def summary_view(summary: FBetaSummary) -> list[Table]:
    """What a notebook and the text show of the summary: its average, then its
    classes."""
    main, classes = summary_tables(summary)
    return [classes] if main is None else [main, classes]


def _gap_pairs_note(summary: FBetaSummary) -> str:
    """The largest class-pair terms of the gap (macro or weighted, gap > 0)."""
    if summary.average not in CLASS_MEANS or not summary.gap > 0:
        return ""
    if summary.n_classes > MAX_PAIR_NOTE_CLASSES:  # the pair table is k x k
        return (
            "summary.gap_attribution() splits the gap over class pairs (not "
            f"computed for a view of more than {MAX_PAIR_NOTE_CLASSES} classes)."
        )
    headline = gap_headline(summary)
    if not headline:
        return ""
    return f"{headline}; summary.gap_attribution() has every pair and class."


def summary_frame(
    summary: FBetaSummary, interval: FBetaInterval | None, *, caller: str
) -> Any:
    """``FBetaSummary.to_frame``: one row per class, then the average's row (with
    the interval columns ``<score>-ci-low`` ... of both scores, when given)."""
    main, classes = summary_tables(summary, interval)
    classes.keys = [str(label) for label in summary.labels.tolist()]
    return table_frame([classes] if main is None else [classes, main], caller=caller)


# ------------------------------------------------------------------ accumulator


def accumulator_html(accumulator: Any, summarize: Callable[[Any], Any]) -> str:
    """What has been counted, then the macro summary of it (as a summary shows);
    ``summarize`` is :func:`fbeta_summary`, given a record."""
    labels = _labels_text(accumulator.labels)
    notes = []
    tables: list[Table] = []
    if accumulator.n_samples == 0 and not accumulator._parts:
        row = [0, None, None, labels]
        notes.append("No batch counted yet: call update(y_true, y_pred).")
    else:
        try:
            counts = accumulator.counts
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a view never warns
                summary = summarize(counts)
        except ValueError as exc:  # e.g. every weight zero so far
            row = [accumulator.n_samples, None, None, None]
            notes.append(str(exc))
        else:
            row = [accumulator.n_samples, counts.n_classes, counts.kind, labels]
            tables = summary_view(summary)
    head = Table(
        "MacroF1Accumulator",
        [
            Column(key, [value])
            for key, value in zip(
                ("samples", "classes", "targets", "labels"), row, strict=True
            )
        ],
        keys=["counted"],
        notes=notes,
    )
    return render_html([head, *tables])


def _labels_text(labels: Any) -> str:
    if labels is None:
        return "discovered"
    values = np.asarray(labels).tolist()
    text = ", ".join(map(str, values[:8]))
    return text + (f", ... ({len(values)})" if len(values) > 8 else "")
