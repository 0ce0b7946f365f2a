"""The one renderer of results: a table description and its views.

A result object describes what it shows once, as :class:`Table` objects: a
title, the row labels, :class:`Column` objects (the values, the heading a
notebook shows, the key a frame, CSV file or JSON document uses, and the
number format) and notes. From that description

- :func:`render_html` gives the ``_repr_html_`` of a notebook (a long table
  shows its first :data:`MAX_HTML_ROWS` rows and says how many it left out, as
  pandas does);
- :func:`table_frame` gives the ``pandas.DataFrame`` of ``to_frame()``;
- :func:`render_csv` and :func:`table_records` give the CLI's CSV rows and
  JSON objects.

A column can be a view's only (``data=False``: shown, not data; ``shown=False``:
data, not shown). Adding a figure to every view is adding one column, row or
``Table``. Plain strings only: pandas is imported by :func:`import_pandas` when
a frame is asked for, never at import time.

The module also holds the equality every result object shares
(:class:`ValueEquality`): field by field, arrays by value, nan equal to nan, and a
hash consistent with it.
"""

from __future__ import annotations

import csv
import html
import io
import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
import scipy.sparse as sp

_PANDAS_HINT = 'pip install "sklearn-macrof1[pandas]"'

#: Rows of one table a notebook shows; the rest are left out with a note that
#: says how many (pandas shows 60 rows of a frame; 20 rows of classes keep a
#: summary of 10,000 classes readable). ``to_frame()`` has every row.
MAX_HTML_ROWS = 20


# --------------------------------------------------------------------- the tables


@dataclass
class Column:
    """One column of a :class:`Table`.

    ``key`` names the column in a frame, a CSV file and a JSON object;
    ``heading`` (default: ``key``) heads it in a notebook. ``values`` holds
    one value per row (a list or an array; None is an empty cell). ``fmt``
    turns a value into the text of a notebook cell (default:
    :func:`format_value` with the table's ``digits``). ``shown=False`` keeps
    the column out of the notebook, ``data=False`` out of frames, CSV and JSON.
    """

    key: str
    values: Sequence[Any] | np.ndarray
    heading: str | None = None
    fmt: Callable[[Any], str] | None = None
    shown: bool = True
    data: bool = True


@dataclass
class Table:
    """One table of a result: title, row labels, columns and notes.

    ``keys`` label the rows of a frame (its index; None: no index, the rows
    are numbered) and ``labels`` the rows a notebook shows (default: the keys
    as text). ``index`` heads the labels in a notebook, ``index_name`` names
    the frame's index. A notebook shows at most ``max_rows`` rows; the note
    then counts the rest in ``unit`` and names ``full``, the call that has
    every row.
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
    full: str = ""
    #: The rows in the order a notebook shows them (default: as given).
    shown_order: Sequence[int] | np.ndarray | None = None

    @property
    def n_rows(self) -> int:
        sized = self.labels if self.keys is None else self.keys
        if sized is None:
            return len(self.columns[0].values) if self.columns else 0
        return len(sized)

    def label(self, i: int) -> str:
        """The text labelling row ``i`` in a notebook."""
        source = self.keys if self.labels is None else self.labels
        return "" if source is None else str(_item(source[i]))


def _item(value: Any) -> Any:
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


# ------------------------------------------------------------------------- HTML

_STYLE = (
    "<style>"
    ".skm1 table{border-collapse:collapse;margin:0.2em 0 0.6em 0}"
    ".skm1 th,.skm1 td{padding:0.15em 0.7em;text-align:right}"
    ".skm1 thead th{border-bottom:1px solid #888}"
    ".skm1 tbody th{text-align:left;font-weight:normal}"
    ".skm1 caption{text-align:left;font-weight:bold;padding-bottom:0.2em}"
    ".skm1 p{margin:0.1em 0;font-size:0.9em}"
    "</style>"
)


def _table_html(table: Table) -> str:
    esc = html.escape
    shown = [c for c in table.columns if c.shown]
    headings = [c.key if c.heading is None else c.heading for c in shown]
    head = "".join(f"<th>{esc(h)}</th>" for h in [table.index, *headings])
    n = table.n_rows
    order = range(n) if table.shown_order is None else table.shown_order
    body = "".join(
        f"<tr><th>{esc(table.label(i))}</th>"
        + "".join(f"<td>{esc(_cell(table, c, c.values[i]))}</td>" for c in shown)
        + "</tr>"
        for i in order[: table.max_rows]
    )
    notes = list(table.notes)
    if n > table.max_rows:
        where = f": {table.full} has every row." if table.full else "."
        notes.append(f"... and {n - table.max_rows} more {table.unit}{where}")
    return (
        f"<table><caption>{esc(table.title)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        + "".join(f"<p>{esc(note)}</p>" for note in notes)
    )


def _cell(table: Table, column: Column, value: Any) -> str:
    value = _item(value)
    if column.fmt is not None and value is not None:
        return column.fmt(value)
    return format_value(value, table.digits)


def render_html(tables: list[Table], notes: list[str] | None = None) -> str:
    """The ``_repr_html_`` of a result: its tables, then its notes."""
    parts = [_table_html(t) for t in tables]
    parts += [f"<p>{html.escape(n)}</p>" for n in notes or []]
    return f'<div class="skm1">{_STYLE}{"".join(parts)}</div>'


# ------------------------------------------------------------------------- pandas


def import_pandas(caller: str) -> Any:
    """``pandas``, or an ImportError saying how to install it."""
    try:
        import pandas as pd
    except ImportError as exc:
        raise ImportError(
            f"{caller} returns a pandas.DataFrame, and pandas is not installed. It "
            f"is an optional dependency of sklearn-macrof1; install it with "
            f"`{_PANDAS_HINT}` (or `pip install pandas`)."
        ) from exc
    return pd


def table_frame(tables: list[Table], *, caller: str) -> Any:
    """One ``pandas.DataFrame`` of the data columns of ``tables``, their rows
    one after the other.

    Columns come as first met; a column the rows of one table lack is empty
    (nan) there, and a column of numbers with an empty cell is a column of
    floats. One table's array is passed as it is (its dtype kept). The index
    is the tables' ``keys``, named by the first table's ``index_name``; without
    keys the rows are numbered.
    """
    pd = import_pandas(caller)
    order: list[str] = []
    for table in tables:
        order += [c.key for c in table.columns if c.data and c.key not in order]
    data = {key: _frame_column([_data_values(t, key) for t in tables]) for key in order}
    keys = [t.keys for t in tables]
    index: Any = None
    if len(keys) == 1 and keys[0] is not None:
        index = keys[0]
    elif any(k is not None for k in keys):
        index = [k for part in keys for k in (part if part is not None else [])]
    out = pd.DataFrame(data, index=index, columns=order)
    if tables[0].index_name is not None:
        out.index.name = tables[0].index_name
    return out


def _data_values(table: Table, key: str) -> Any:
    for column in table.columns:
        if column.key == key and column.data:
            return column.values
    return [None] * table.n_rows


def _frame_column(parts: list[Any]) -> Any:
    """The cells of one column of a frame from its tables' values.

    A column of numbers with an empty cell (None, or a table without the
    column) is a column of floats with nan there; an array of one table
    keeps its dtype.
    """
    if len(parts) == 1 and isinstance(parts[0], np.ndarray):
        return parts[0]
    values = [v for part in parts for v in part]
    if not any(v is None for v in values):
        return values
    if all(
        v is None or isinstance(v, numbers.Real) and not isinstance(v, bool)
        for v in values
    ):
        return np.array([np.nan if v is None else v for v in values], np.float64)
    return [np.nan if v is None else v for v in values]


# ---------------------------------------------------------------- CSV and JSON


def table_records(table: Table) -> list[dict[str, Any]]:
    """One dict per row of ``table``'s data columns (a JSON document's objects)."""
    columns = [c for c in table.columns if c.data]
    return [{c.key: _item(c.values[i]) for c in columns} for i in range(table.n_rows)]


def render_csv(table: Table, cell: Callable[[Any], str] = str) -> str:
    """``table``'s data columns as CSV: a header of keys, then one line per
    row; ``cell`` writes a value (None: an empty cell)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c.key for c in table.columns if c.data])
    for record in table_records(table):
        writer.writerow(["" if v is None else cell(v) for v in record.values()])
    return out.getvalue()


# ----------------------------------------------------------------------- equality


def values_equal(a: Any, b: Any) -> bool:
    """Equality of two field values: arrays by shape and value, nan equal nan."""
    if sp.issparse(a) or sp.issparse(b):  # a large confusion matrix's cells
        if not (sp.issparse(a) and sp.issparse(b)) or a.shape != b.shape:
            return False
        return (a != b).nnz == 0
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        both = isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
        if not both or a.shape != b.shape:
            return False
        try:
            return bool(np.array_equal(a, b, equal_nan=True))
        except TypeError:  # strings, objects: no nan to compare
            return bool(np.array_equal(a, b))
    if isinstance(a, numbers.Real) and isinstance(b, numbers.Real):
        a, b = float(a), float(b)
        return a == b or (math.isnan(a) and math.isnan(b))
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # pragma: no cover - exotic values
        return a is b


def _hash_key(value: Any) -> Any:
    """A hashable stand-in, equal for values that :func:`values_equal` calls equal."""
    if isinstance(value, np.ndarray):
        return ("ndarray", value.shape)  # coarse, but never inconsistent
    if isinstance(value, numbers.Real):
        value = float(value)
        return "nan" if math.isnan(value) else value
    try:
        return hash(value)
    except TypeError:  # pragma: no cover - exotic values
        return type(value).__name__


class ValueEquality:
    """Field-by-field equality and a matching hash for frozen result dataclasses.

    Declare the dataclass with ``eq=False`` so that these methods are kept.
    Two results are equal when they are of the same class and every field is
    equal (arrays by value, nan equal to nan); equal results hash equally.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(
            values_equal(getattr(self, f.name), getattr(other, f.name))
            for f in fields(self)  # type: ignore[arg-type]
        )

    def __hash__(self) -> int:
        return hash(
            (type(self).__qualname__,)
            + tuple(
                _hash_key(getattr(self, f.name))
                for f in fields(self)  # type: ignore[arg-type]
            )
        )
