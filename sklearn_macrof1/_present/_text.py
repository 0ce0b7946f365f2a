"""Results as text: the ``__str__`` of a result (:func:`render_view`: what its
notebook view shows) and the aligned plain text of a report (:func:`render_text`:
one line per row, however many rows; the cells are formatted column by column)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ._table import Column, Table, cell, item


def render_view(tables: list[Table], notes: Sequence[str] = ()) -> str:
    """The ``__str__`` of a result: what its notebook view shows, as text.

    Each table as :func:`~._html.render_html` shows it: its title, then its rows
    (at most ``max_rows``, in ``shown_order``, aligned by :func:`render_text`),
    then its notes and the one on the rows left out; the result's ``notes``
    last. Parts are set apart by a blank line, two spaces at least set the
    columns apart, notes are wrapped at spaces to :data:`TEXT_WIDTH`
    characters, and no newline ends the text.
    """
    parts = []
    for table in tables:
        shown = _rows_of(table, np.asarray(table.shown_rows(), dtype=np.intp))
        notes_of_table = _wrapped(table.view_notes())
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
    return np.array([str(item(v)) for v in source], dtype=str).reshape(len(source))


def text_cells(table: Table, column: Column) -> np.ndarray:
    """The text of each cell of ``column``, as a numpy string array.

    A cell is what :func:`_text_cell` writes (the column's ``fmt``, floats
    as ``f"{x:.{digits}f}"`` with the table's ``digits``, anything else as
    :func:`~._table.format_value` writes it). An array of floats
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
    :func:`format_value` writes "0"), anything else as :func:`~._table.cell`."""
    value = item(value)
    if column.fmt is None and isinstance(value, float):
        return format(value, f".{table.digits}f")
    return cell(table, column, value)


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
