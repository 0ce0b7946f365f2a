"""Tables of results: one description, three views (HTML, text, pandas).

A result object describes what it shows as :class:`Table` objects (a title,
column headings, labelled rows of values and notes); :func:`render_html` turns
them into the ``_repr_html_`` of a notebook and :func:`frame` into a
``pandas.DataFrame``. Adding a row or a section to a view is adding a row or a
``Table`` to that list. Plain strings only: pandas is imported by
:func:`import_pandas` when a frame is asked for, never at import time.

The module also holds the equality every result object shares
(:class:`ValueEquality`): field by field, arrays by value, nan equal to nan, and a
hash consistent with it.
"""

from __future__ import annotations

import html
import math
import numbers
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
import scipy.sparse as sp

_PANDAS_HINT = 'pip install "sklearn-macrof1[pandas]"'


# --------------------------------------------------------------------- the tables


@dataclass
class Table:
    """One table of a view.

    ``rows`` are ``(label, values)`` pairs, ``values`` aligned with ``columns``;
    a value of None is an empty cell. ``index`` heads the column of row labels.
    """

    title: str
    columns: list[str]
    rows: list[tuple[str, list[Any]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    index: str = ""
    digits: int = 4

    def add_row(self, label: Any, values: list[Any]) -> None:
        if len(values) != len(self.columns):  # pragma: no cover - programming error
            raise ValueError("a row needs one value per column")
        self.rows.append((str(label), list(values)))


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
    head = "".join(f"<th>{esc(c)}</th>" for c in [table.index, *table.columns])
    body = "".join(
        "<tr><th>"
        + esc(label)
        + "</th>"
        + "".join(f"<td>{esc(format_value(v, table.digits))}</td>" for v in values)
        + "</tr>"
        for label, values in table.rows
    )
    notes = "".join(f"<p>{esc(n)}</p>" for n in table.notes)
    return (
        f"<table><caption>{esc(table.title)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{notes}"
    )


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


def frame(
    records: list[dict[str, Any]],
    *,
    index: list[Any] | None = None,
    index_name: str | None = None,
    order: tuple[str, ...] = (),
    caller: str,
) -> Any:
    """A ``pandas.DataFrame`` of ``records`` (one dict per row, None for nan).

    Columns come in ``order`` first (those present), then as first met.
    """
    pd = import_pandas(caller)
    present = {key for record in records for key in record}
    columns: list[str] = [c for c in order if c in present]
    for record in records:
        columns += [key for key in record if key not in columns]
    data = {c: [np.nan if r.get(c) is None else r[c] for r in records] for c in columns}
    out = pd.DataFrame(data, index=index, columns=columns)
    for c in columns:  # numbers stay numbers even when a cell is missing
        values = [r.get(c) for r in records]
        if all(
            v is None or isinstance(v, numbers.Real) and not isinstance(v, bool)
            for v in values
        ) and any(isinstance(v, numbers.Real) for v in values):
            out[c] = out[c].astype(np.float64)
    if index_name is not None:
        out.index.name = index_name
    return out


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
