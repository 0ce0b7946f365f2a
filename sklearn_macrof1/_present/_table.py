"""The table description of a result and the formats of its cells.

A result object describes what it shows once, as :class:`Table` objects: a
title, the row labels, :class:`Column` objects (the values, the heading a
notebook shows, the key a frame, CSV file or JSON document uses, and the
number format) and notes. The renderers of this package turn one description
into every view: :mod:`._html` the notebook's, :mod:`._text` the text of
``str()`` and of a report, :mod:`._frame` the ``pandas.DataFrame`` of
``to_frame()`` and the CLI's CSV rows and JSON objects.

A column can be a view's only (``data=False``: shown, not data; ``shown=False``:
data, not shown). Adding a figure to every view is adding one column, row or
``Table``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Rows of one table a notebook shows; the rest are left out with a note that
#: says how many (pandas shows 60 rows of a frame; 20 rows of classes keep a
#: summary of 10,000 classes readable). ``to_frame()`` has every row.
MAX_HTML_ROWS = 20


@dataclass
class Column:
    """One column of a :class:`Table`.

    ``key`` names the column in a frame, a CSV file and a JSON object;
    ``heading`` (default: ``key``) heads it in a notebook. ``values`` holds
    one value per row (a list or an array; None is an empty cell). ``fmt``
    turns a value into the text of a cell (default: :func:`format_value`
    with the table's ``digits``). ``shown=False`` keeps the column out of the
    notebook and the text, ``data=False`` out of frames, CSV and JSON. In text
    the column is at least ``width`` characters wide.
    """

    key: str
    values: Sequence[Any] | np.ndarray
    heading: str | None = None
    fmt: Callable[[Any], str] | None = None
    shown: bool = True
    data: bool = True
    width: int = 0


@dataclass
class Table:
    """One table of a result: title, row labels, columns and notes.

    ``keys`` label the rows of a frame (its index; None: no index, the rows
    are numbered) and ``labels`` the rows a notebook shows (default: the keys
    as text). ``index`` heads the labels in a notebook, ``index_name`` names
    the frame's index. A notebook shows at most ``max_rows`` rows; the note
    then counts the rest in ``unit`` and names ``full``, the call that has
    every row. In text the labels are at least ``index_width`` wide.
    """

    title: str
    columns: list[Column]
    keys: Sequence[Any] | np.ndarray | None = None
    labels: Sequence[Any] | None = None
    notes: list[str] = field(default_factory=list)
    index: str = ""
    index_name: str | None = None
    digits: int = 4
    max_rows: int = MAX_HTML_ROWS
    unit: str = "rows"
    #: ``unit`` of one row ("1 more class").
    unit_one: str = "row"
    full: str = ""
    #: The rows in the order a notebook shows them (default: as given).
    shown_order: Sequence[int] | np.ndarray | None = None
    index_width: int = 0

    @property
    def n_rows(self) -> int:
        sized = self.labels if self.keys is None else self.keys
        if sized is None:
            return len(self.columns[0].values) if self.columns else 0
        return len(sized)

    def shown_rows(self) -> Sequence[int] | np.ndarray:
        """The rows a view shows: at most ``max_rows``, in ``shown_order``."""
        order = range(self.n_rows) if self.shown_order is None else self.shown_order
        return order[: self.max_rows]

    def view_notes(self) -> list[str]:
        """The notes a view shows: the table's, then the one on the rows it
        leaves out ("... and 9980 more classes")."""
        left = self.n_rows - self.max_rows
        if left <= 0:
            return list(self.notes)
        where = f": {self.full} has every row." if self.full else "."
        unit = self.unit_one if left == 1 else self.unit
        return [*self.notes, f"... and {left} more {unit}{where}"]

    def label(self, i: int) -> str:
        """The text labelling row ``i`` in a notebook."""
        source = self.keys if self.labels is None else self.labels
        return "" if source is None else str(item(source[i]))


def item(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def format_value(value: Any, digits: int = 4) -> str:
    """A cell's text: floats with ``digits`` decimals, integers as integers."""
    if value is None:
        return ""
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)  # (nan formats as "nan")
        if value.is_integer() and abs(value) < 1e15 and digits == 0:
            return str(int(value))
        return f"{value:.{digits}f}"
    return str(value)


def percent(fraction: float) -> str:
    """A level or error rate as given: 0.95 is "95%", 0.975 "97.5%", 0.025
    "2.5%" (not rounded to a whole percent)."""
    return f"{fraction * 100:g}%"


def format_p_value(p: float, resolution: float | None = None) -> str:
    """A p-value as people read it; bootstrap p-values at their floor show
    ``< 1/(B+1)`` (``resolution``) rather than a number they cannot resolve."""
    if p is None or math.isnan(p):
        return "nan"
    if resolution is not None and p <= resolution * (1 + 1e-9):
        return f"< {resolution:.2g}"
    if p < 1e-4:
        return f"{p:.1e}"
    return f"{p:.4f}"


def cell(table: Table, column: Column, value: Any) -> str:
    """A cell's text: the column's ``fmt``, else :func:`format_value` at the
    table's ``digits``."""
    value = item(value)
    if column.fmt is not None and value is not None:
        return column.fmt(value)
    return format_value(value, table.digits)


def attribute_column(rows: Sequence[Any], key: str, **how: Any) -> Column:
    """The column ``key`` of ``rows`` (result objects), one attribute a row;
    ``how``: the other fields of :class:`Column`."""
    return Column(key, [getattr(row, key) for row in rows], **how)


# ------------------------------------------------------------------ the names


def fbeta_name(beta: float) -> str:
    """ "F1", "F2", "F0.5": the score's name for ``beta``."""
    return "F1" if beta == 1 else f"F{beta:g}"


def formula_labels(beta: float | None) -> tuple[str, str]:
    """The two formulas' names for ``beta``: "averaged F1", "F1 of averages"
    ("averaged F-beta", "F-beta of averages" when ``beta`` is not known)."""
    name = "F-beta" if beta is None else fbeta_name(beta)
    return f"averaged {name}", f"{name} of averages"


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
