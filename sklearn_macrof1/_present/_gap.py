"""The views of a gap attribution: its headline, its classes (largest
contributions first) and its largest class pairs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._formulas._attribution import MAX_PAIR_CLASSES
from ._table import MAX_HTML_ROWS, Column, Table, item

if TYPE_CHECKING:
    from .._results._gap_attribution import GapAttribution
    from .._results._summary import FBetaSummary


def _label(value: Any) -> str:
    return str(item(value))


def _share(gap: float, share: float) -> str:
    """A share of the gap as a whole percent ("-" when there is no gap)."""
    return f"{share:.0%}" if gap > 0 else "-"


def _part(attribution: GapAttribution, value: float) -> str:
    """``value``'s share of the gap."""
    gap = attribution.gap
    return _share(gap, value / gap if gap > 0 else 0.0)


def top_contributors(
    attribution: GapAttribution, n: int, names: Any = None
) -> tuple[str, list[tuple[str, float]]]:
    """The ``n`` largest non-zero contributors to the gap, largest first:
    ``("pair", [("x & y", term), ...])``, or where the views name no pairs
    (above :data:`MAX_PAIR_CLASSES` classes) ``("class", [("x", contribution),
    ...])``. ``names`` (one per class, in the order of the labels) replaces
    the labels."""
    a = attribution
    shown = a.labels if names is None else names
    if not a._names_pairs:
        return "class", [
            (_label(shown[i]), float(a.class_contributions[i]))
            for i in a._top_class_indices(n).tolist()
        ]
    by_label = dict(zip((item(v) for v in a.labels), shown, strict=False))
    return "pair", [
        (f"{_label(by_label[x])} & {_label(by_label[y])}", v)
        for x, y, v in a.top_pairs(n)
    ]


def headline(attribution: GapAttribution, n: int, names: Any) -> str:
    """One line: the largest contributing class pairs (or classes) and their
    share of the gap."""
    by, top = top_contributors(attribution, n, names)
    if not top:
        return "gap contributors: none (the gap is 0)"
    what = "largest gap contributors" + (" (classes)" if by == "class" else "")
    return f"{what}: " + ", ".join(
        f"{name} {v:.4f} ({_part(attribution, v)})" for name, v in top
    )


def summary_attribution(summary: FBetaSummary) -> GapAttribution | None:
    """The gap attribution of ``summary``, None where it lists no terms: the
    gap is 0, or ``zero_division=nan`` left classes out of the means."""
    if not summary.gap > 0:
        return None
    try:
        return summary.gap_attribution()
    except ValueError:
        return None


def gap_headline(summary: FBetaSummary, names: Any = None) -> str:
    """The largest class-pair terms of the summary's gap, one line ("" if none)."""
    attribution = summary_attribution(summary)
    return "" if attribution is None else attribution.headline(3, names=names)


def class_table(attribution: GapAttribution) -> Table:
    """One row per class; a notebook shows the largest contributions first."""
    a = attribution
    contributions = a.class_contributions
    share = contributions / a.gap if a.gap > 0 else np.zeros(a.n_classes)
    return Table(
        f"gap attribution (average={a.average!r}, beta={a.beta:g}): gap {a.gap:.6f}",
        [
            Column("precision", a.class_precision),
            Column("recall", a.class_recall),
            Column("weight", a.weights),
            Column("contribution", contributions),
            Column("share", share, fmt=lambda v: _share(a.gap, v)),
        ],
        keys=a.labels,
        notes=[
            "contribution: half of each of the class's pair terms (they sum "
            "to the gap)."
        ],
        index="class",
        index_name="class",
        unit="classes",
        unit_one="class",
        full="attribution.to_frame()",
        # the rows a view shows, without sorting 1,000,000 classes
        shown_order=a._largest_first(MAX_HTML_ROWS),
    )


def pair_table(attribution: GapAttribution, n: int) -> Table:
    """The ``n`` largest pair terms, largest first (none listed above
    2,048 classes, where finding them is O(k²) work: ``top_pairs``)."""
    a = attribution
    pairs = a.top_pairs(n) if a._names_pairs else []
    contributions = [v for _, _, v in pairs]
    if not a._names_pairs:
        notes = [
            f"not listed above {MAX_PAIR_CLASSES:,} classes: top_pairs(n) "
            "finds them, in O(k²) time"
        ]
    else:
        notes = [] if pairs else ["none: the gap is 0"]
    return Table(
        "largest class pairs",
        [
            Column("class_x", [x for x, _, _ in pairs], shown=False),
            Column("class_y", [y for _, y, _ in pairs], shown=False),
            Column("contribution", contributions),
            Column(
                "share",
                [v / a.gap if a.gap > 0 else 0.0 for v in contributions],
                fmt=lambda v: _share(a.gap, v),
            ),
        ],
        labels=[f"{_label(x)} & {_label(y)}" for x, y, _ in pairs],
        notes=notes,
        index="pair",
    )
