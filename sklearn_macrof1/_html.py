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
  JSON objects;
- :func:`render_text` gives the aligned plain text of a report (one line per
  row, however many rows: the cells are formatted column by column).

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
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._extras import import_optional

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
    notes = [*table.notes, *_left_out_note(table)]
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


def render_html(tables: list[Table], notes: Sequence[str] = ()) -> str:
    """The ``_repr_html_`` of a result: its tables, then its notes."""
    parts = [_table_html(t) for t in tables]
    parts += [f"<p>{html.escape(n)}</p>" for n in notes]
    return f'<div class="skm1">{_STYLE}{"".join(parts)}</div>'


def _left_out_note(table: Table) -> list[str]:
    """The note on the rows a view leaves out ("... and 9980 more classes")."""
    n = table.n_rows
    if n <= table.max_rows:
        return []
    where = f": {table.full} has every row." if table.full else "."
    left = n - table.max_rows
    unit = table.unit_one if left == 1 else table.unit
    return [f"... and {left} more {unit}{where}"]


# ------------------------------------------------------------------------- text


def render_view(tables: list[Table], notes: Sequence[str] = ()) -> str:
    """The ``__str__`` of a result: what its notebook view shows, as text.

    Each table as :func:`render_html` shows it: its title, then its rows
    (at most ``max_rows``, in ``shown_order``, aligned by :func:`render_text`),
    then its notes and the one on the rows left out; the result's ``notes``
    last. Parts are set apart by a blank line, two spaces at least set the
    columns apart, notes are wrapped at spaces to :data:`TEXT_WIDTH`
    characters, and no newline ends the text.
    """
    parts = []
    for table in tables:
        order = range(table.n_rows) if table.shown_order is None else table.shown_order
        shown = _rows_of(table, np.asarray(order[: table.max_rows], dtype=np.intp))
        notes_of_table = _wrapped([*table.notes, *_left_out_note(table)])
        text = render_text([shown], notes_of_table, spacing=2)
        parts.append(f"{table.title}\n{text.rstrip()}")
    if notes:
        parts.append("\n".join(_wrapped(notes)))
    return "\n\n".join(parts)


#: The width at which :func:`render_view` wraps notes.
TEXT_WIDTH = 88


def _wrapped(notes: Sequence[str]) -> list[str]:
    """The lines of ``notes``, broken at spaces only: a class label or a
    candidate in a note ("science-fiction", a path) stays whole on one line,
    longer than :data:`TEXT_WIDTH` if it must."""
    return [
        line
        for note in notes
        for line in textwrap.wrap(
            note, TEXT_WIDTH, break_long_words=False, break_on_hyphens=False
        )
    ]


def _rows_of(table: Table, rows: np.ndarray) -> Table:
    """``table`` with only ``rows``, in that order (the notes left out)."""

    def pick(values: Any) -> Any:
        if values is None:
            return None
        if isinstance(values, np.ndarray):
            return values[rows]
        return [values[i] for i in rows.tolist()]

    columns = [replace(c, values=pick(c.values)) for c in table.columns if c.shown]
    return replace(
        table,
        columns=columns,
        keys=pick(table.keys),
        labels=pick(table.labels),
        notes=[],
        shown_order=None,
    )


#: Rows of a long table joined into lines at a time (bounds the memory of the
#: character blocks: 65,536 rows of 100 characters are 26 MB).
_TEXT_BLOCK_ROWS = 1 << 16
#: Below this many rows, cells and lines are written one by one: numpy's cost
#: per call is then larger than the work (a report of 3 classes; the two ways
#: take the same time at about 128 rows).
_COLUMN_WISE_ROWS = 128


def render_text(
    tables: list[Table], notes: Sequence[str] = (), *, spacing: int = 1
) -> str:
    """The plain text of ``tables``, aligned as one table, then ``notes``.

    A line of headings (the first table's ``index``, then the headings of the
    shown columns as first met), then each table's rows, set apart from what
    comes before by a blank line; a column a table lacks is empty there. Every
    cell is right-aligned in a column as wide as its widest text, heading and
    ``width``; two spaces follow the labels, ``spacing`` spaces each other column, and
    a line ends at its last non-blank character. The notes follow after a
    blank line, one per line. Titles are not shown (the caller's own first
    line, if any, says what the table is).

    The cells are formatted column by column (:func:`text_cells`) and the
    lines built as blocks of characters, so that a table of 1,000,000 rows
    takes a second, not the time of 1,000,000 format calls.
    """
    keys: list[str] = []
    headings: dict[str, str] = {}
    least: dict[str, int] = {}
    for table in tables:
        for column in table.columns:
            if not column.shown:
                continue
            if column.key not in headings:
                keys.append(column.key)
                headings[column.key] = (
                    column.key if column.heading is None else column.heading
                )
            least[column.key] = max(least.get(column.key, 0), column.width)
    index = tables[0].index
    blocks = []
    for table in tables:
        cells = {c.key: text_cells(table, c) for c in table.columns if c.shown}
        blocks.append((_label_cells(table), cells))
    index_width = max(
        [len(index), *(t.index_width for t in tables)]
        + [_longest(labels) for labels, _ in blocks]
    )
    widths = [
        max(
            [least[key], len(headings[key])]
            + [_longest(c[key]) for _, c in blocks if key in c]
        )
        + spacing
        - 1
        for key in keys
    ]
    head = _text_lines(
        np.array([index]),
        [np.array([headings[key]]) for key in keys],
        index_width,
        widths,
    )
    lines = head
    for labels, cells in blocks:
        lines.append("")  # a blank line before each table's rows
        columns = [cells.get(key) for key in keys]
        for start in range(0, len(labels), _TEXT_BLOCK_ROWS):
            stop = start + _TEXT_BLOCK_ROWS
            lines += _text_lines(
                labels[start:stop],
                [None if c is None else c[start:stop] for c in columns],
                index_width,
                widths,
            )
    if notes:
        if lines[-1]:  # (a table without rows ends with its blank line)
            lines.append("")
        lines += notes
    return "\n".join(lines) + "\n"


def _longest(cells: np.ndarray) -> int:
    if cells.size < _COLUMN_WISE_ROWS:
        return max(map(len, cells.tolist()), default=0)
    return int(np.char.str_len(cells).max())


def _text_lines(
    labels: np.ndarray,
    columns: list[np.ndarray | None],
    index_width: int,
    widths: list[int],
) -> list[str]:
    """The lines of one block of rows: each cell right-aligned at the end of
    its column in a block of spaces (one code point per element), the block
    read back as one string per row, trailing blanks stripped."""
    n = len(labels)
    if n < _COLUMN_WISE_ROWS:
        rows = zip(
            labels.tolist(),
            *([""] * n if c is None else c.tolist() for c in columns),
            strict=True,
        )
        template = f"{{:>{index_width}}} " + "".join(f" {{:>{w}}}" for w in widths)
        return [template.format(*row).rstrip() for row in rows]
    # the labels end at index_width; each column ends a space and its width on
    ends = np.cumsum([index_width + 1] + [1 + w for w in widths]).tolist()
    block = np.full((n, ends[-1]), ord(" "), dtype=np.uint32)
    for cells, end, width in zip(
        [labels, *columns],
        [index_width, *ends[1:]],
        [index_width, *widths],
        strict=True,
    ):
        if cells is None or width == 0:  # a column this table lacks: blank
            continue
        if cells.dtype.itemsize // 4 > width:  # e.g. astype(str) of int64: <U21
            cells = cells.astype(f"<U{width}")
        size = cells.dtype.itemsize // 4
        chars = np.ascontiguousarray(cells).view(np.uint32).reshape(n, size)
        if (chars[:, -1] == 0).any():  # a shorter cell (numpy pads it with NULs)
            chars = np.char.rjust(cells, size).view(np.uint32).reshape(n, size)
        block[:, end - size : end] = chars
    lines = block.view(f"<U{block.shape[1]}").reshape(n)
    return np.char.rstrip(lines).tolist()


def _label_cells(table: Table) -> np.ndarray:
    """The row labels of ``table`` as a numpy string array."""
    source = table.keys if table.labels is None else table.labels
    if source is None:
        return np.full(table.n_rows, "", dtype="<U1")
    if isinstance(source, np.ndarray) and source.dtype.kind in "iuUb":
        return source.astype(str)
    return np.array([str(_item(v)) for v in source], dtype=str).reshape(len(source))


def text_cells(table: Table, column: Column) -> np.ndarray:
    """The text of each cell of ``column``, as a numpy string array.

    A cell is what :func:`_text_cell` writes (the column's ``fmt``, floats
    as ``f"{x:.{digits}f}"`` with the table's ``digits``, anything else as
    :func:`format_value` writes it). An array of floats
    without ``fmt`` goes through :func:`format_fixed`, an array of integers
    through ``astype(str)``; ``fmt=str`` writes integers, and floats that are
    whole numbers, column-wise too. Any other column, and any column of fewer
    than ``_COLUMN_WISE_ROWS`` values, is formatted cell by cell.
    """
    values = column.values
    if (
        len(values) >= _COLUMN_WISE_ROWS
        and isinstance(values, np.ndarray)
        and values.ndim == 1
        and column.fmt in (None, str)
    ):
        kind = values.dtype.kind
        if kind in "iu":
            return values.astype(str)
        if kind == "f" and column.fmt is None:
            return format_fixed(values, table.digits)
        if kind == "f":  # str(float): whole numbers are "<integer>.0"
            x = values.astype(np.float64)
            whole = (np.abs(x) < 1e15) & (np.floor(x) == x) & ~np.signbit(x)
            if whole.all():
                return np.char.add(x.astype(np.int64).astype(str), ".0")
    if isinstance(values, np.ndarray):
        values = values.tolist()  # Python numbers: one call, not one per cell
    return np.array([_text_cell(table, column, v) for v in values], dtype=str).reshape(
        len(values)
    )


def _text_cell(table: Table, column: Column, value: Any) -> str:
    """A cell of text: a float as Python's fixed-point format writes it (as
    scikit-learn's report does: -0.0 is "-0" at ``digits=0``, where
    :func:`format_value` writes "0"), anything else as :func:`_cell`."""
    value = _item(value)
    if column.fmt is None and isinstance(value, float):
        return format(value, f".{table.digits}f")
    return _cell(table, column, value)


def format_fixed(values: Any, digits: int) -> np.ndarray:
    """``f"{x:.{digits}f}"`` of each float of ``values`` ("nan", "inf", "-0"),
    as a numpy string array, computed column-wise.

    ``|x| * 10**digits`` is a float within a relative 2**-53 of the exact
    product, so its rounding to an integer is Python's (the correctly rounded
    decimal of the exact binary value) unless it lies that close to a halfway
    point; those values (exact ties such as 0.125 included, which Python
    rounds to even) and products of 2**52 and more are formatted by Python.
    The digits of the rounded integers come from a lookup table of their
    range when it is no longer than the column, else from ``astype(str)``.
    """
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = np.abs(x) * 10.0 ** min(digits, 15)  # (10.0**400 overflows)
        near_tie = np.abs(scaled - np.floor(scaled) - 0.5) <= scaled * 2.0**-50
        fast = (scaled < 2.0**52) & ~near_tie & (digits <= 15)
    rounded = np.rint(scaled[fast]).astype(np.int64)
    if rounded.size:
        low, high = int(rounded.min()), int(rounded.max())
        if high - low < max(rounded.size, 1024):
            table = _fixed_digits(np.arange(low, high + 1, dtype=np.int64), digits)
            text = table[rounded - low]
        else:
            text = _fixed_digits(rounded, digits)
        negative = np.signbit(x[fast])
        if negative.any():
            text = np.where(negative, np.char.add("-", text), text)
    else:
        text = np.array([], dtype="<U1")
    nan = np.isnan(x)  # many, with zero_division=nan
    slow = np.flatnonzero(~fast & ~nan)
    slow_text = [format(v, f".{digits}f") for v in x[slow].tolist()]
    size = max([text.dtype.itemsize // 4, 3] + [len(t) for t in slow_text])
    out = np.empty(x.shape, dtype=f"<U{size}")
    out[fast] = text
    out[nan] = "nan"
    out[slow] = slow_text
    return out


def _fixed_digits(rounded: np.ndarray, digits: int) -> np.ndarray:
    """``whole.fraction`` of non-negative integers ``rounded`` = |x| 10**digits."""
    if digits == 0:
        return rounded.astype(str)
    whole, fraction = np.divmod(rounded, 10**digits)
    return np.char.add(
        np.char.add(whole.astype(str), "."),
        np.char.zfill(fraction.astype(str), digits),
    )


# ------------------------------------------------------------------------- pandas


def import_pandas(caller: str) -> Any:
    """``pandas``, or an ImportError saying how to install it."""
    return import_optional(
        "pandas", f"{caller} returns a pandas.DataFrame and needs pandas"
    )


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
        index = [_item(k) for part in keys for k in (part if part is not None else [])]
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
            if f.compare
        )

    def __hash__(self) -> int:
        return hash(
            (type(self).__qualname__,)
            + tuple(
                _hash_key(getattr(self, f.name))
                for f in fields(self)  # type: ignore[arg-type]
                if f.compare
            )
        )
