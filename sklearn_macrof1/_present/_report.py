"""The view of a classification report: its keys, its two tables (the
classes, the averaged rows) behind the text and the frame, and the legend
under the text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ._gap import summary_attribution, top_contributors
from ._table import Column, Table

if TYPE_CHECKING:
    from .._results._report import _Classes, _Row
    from .._results._summary import FBetaSummary
    from .._stats._intervals import FBetaInterval

#: scikit-learn's columns, in its order.
HEADERS = ("precision", "recall", "f1-score", "support")
#: The key of the F1 of averages in each averaged row.
F1_OF_AVERAGES = "f1-of-averages"
#: The keys of the macro row's gap and of Theorem 3's bound on it.
GAP = "gap"
GAP_BOUND = "gap-bound"
EXTRA_HEADERS = (F1_OF_AVERAGES, GAP, GAP_BOUND)
#: The keys of the confidence intervals (``[low, high]``) in ``output_dict``:
#: of ``f1-score`` and of ``f1-of-averages`` in each averaged row; the accuracy's
#: is ``{"f1-score-ci": [low, high]}`` under the top-level key ``"accuracy-ci"``
#: (a dict, so that ``pandas.DataFrame(report)`` loads it as a row of its own).
F1_CI = "f1-score-ci"
F1_OF_AVERAGES_CI = "f1-of-averages-ci"
ACCURACY_CI = "accuracy-ci"


def report_tables(
    classes: _Classes,
    average_rows: list[_Row],
    digits: int,
    interval_level: str | None = None,
) -> list[Table]:
    """The report's description: the table of its classes and the table of
    its averaged rows, behind the text (:func:`~._text.render_text`) and the frame.

    scikit-learn's layout: columns 9 wide (a new one one wider than its name),
    labels at least as wide as "weighted avg" and as ``digits``, every column
    widened only where a value would not fit. The frame has each value in its
    own cell (the accuracy row's only under ``f1-score``) and an interval as
    ``<key>-low`` and ``<key>-high``; the text writes it ``[low, high]``.
    """
    unshown = classes.names[len(classes.shown) :]  # names without a line
    index_width = max([len("weighted avg"), digits] + [len(str(n)) for n in unshown])
    support = classes.support
    class_table = Table(
        "classes",
        [
            Column("precision", classes.precision, width=9),
            Column("recall", classes.recall, width=9),
            Column("f1-score", classes.f1, width=9),
            Column("support", support.astype(np.float64), shown=False),
            Column("support", support, fmt=str, data=False, width=9),
        ],
        keys=classes.shown,
        digits=digits,
        index_width=index_width,
    )
    rows = average_rows

    def figure(key: str) -> list[Any]:
        return [row.extra.get(key) for row in rows]

    number = f"{{:.{digits}f}}".format
    columns = [
        Column(
            "precision", [None if r.accuracy else r.precision for r in rows], width=9
        ),
        Column("recall", [None if r.accuracy else r.recall for r in rows], width=9),
        Column("f1-score", [r.f1 for r in rows], width=9),
        Column("support", [float(r.support) for r in rows], shown=False),
        Column("support", [r.support for r in rows], fmt=str, data=False, width=9),
        *(
            Column(key, figure(key), width=max(9, len(key) + 1))
            for key in EXTRA_HEADERS
        ),
    ]
    if interval_level is not None:
        for key, name in ((F1_CI, "f1-score"), (F1_OF_AVERAGES_CI, F1_OF_AVERAGES)):
            heading = f"{name} {interval_level} CI"
            pairs = [r.ci.get(key) for r in rows]
            columns += [
                Column(
                    heading,
                    pairs,
                    fmt=lambda ci: f"[{number(ci[0])}, {number(ci[1])}]",
                    data=False,
                    width=len(heading) + 1,
                ),
                Column(
                    f"{key}-low",
                    [None if p is None else float(p[0]) for p in pairs],
                    shown=False,
                ),
                Column(
                    f"{key}-high",
                    [None if p is None else float(p[1]) for p in pairs],
                    shown=False,
                ),
            ]
    average_table = Table(
        "averages",
        columns,
        keys=[r.name for r in rows],
        digits=digits,
        index_width=index_width,
    )
    return [class_table, average_table]


def report_legend(
    classes: _Classes,
    average_rows: list[_Row],
    digits: int,
    interval_legend: str | None = None,
) -> list[str]:
    """The lines under the text report: what the new columns are, the macro
    gap's largest contributors and how the intervals were computed."""
    legend = [
        "f1-score:       averaged F1, the mean of the per-class F1 "
        "(sklearn's f1-score).",
        "f1-of-averages: F1 of averages, the harmonic mean of the row's "
        "precision and recall.",
        "gap:            f1-of-averages - f1-score; gap-bound: its supremum "
        f"for {len(classes.shown)} classes",
        "                (Opitz & Burst, Macro F1 and Macro F1, Theorem 3).",
    ]
    for row in average_rows:  # the macro row's
        if row.gap_pairs:
            legend.append(
                f"gap by {row.gap_by}:".ljust(16)
                + ", ".join(
                    f"{what} {value:.{max(digits, 4)}f} ({share:.0%})"
                    for what, value, share in row.gap_pairs
                )
            )
    if interval_legend is not None:
        legend.append(interval_legend)
    return legend


def interval_legend(interval: FBetaInterval) -> str:
    how = interval.method_description
    return (
        f"{interval.confidence * 100:g}% CI: confidence intervals [low, high] of "
        f"f1-score and f1-of-averages ({how}, n={interval.n_samples})."
    )


def gap_contributors(
    summary: FBetaSummary, names: list | np.ndarray
) -> tuple[str, list[tuple[str, float, float]]]:
    """The (at most 3) class pairs that make most of the macro gap, as
    ("pair", [("x & y", contribution, share)]); above ``MAX_PAIR_CLASSES``
    classes (O(k²) pairs) the classes instead, as ("class", [("x", ...)]).
    None when the gap is 0 or no sum over pairs (zero_division=nan). See
    :meth:`FBetaSummary.gap_attribution`."""
    if len(names) != summary.n_classes:
        return "pair", []
    attribution = summary_attribution(summary)
    if attribution is None:
        return "pair", []
    gap = attribution.gap
    by, top = top_contributors(attribution, 3, names)
    # contributors that round to 0% say nothing
    return by, [(what, v, v / gap) for what, v in top if v >= 0.005 * gap]
