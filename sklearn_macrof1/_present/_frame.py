"""Results as data: the ``pandas.DataFrame`` of ``to_frame()``
(:func:`table_frame`), and the CLI's CSV rows and JSON objects
(:func:`render_csv`, :func:`table_records`), from a result's
:class:`~._table.Table` description. pandas is imported by :func:`import_pandas`
when a frame is asked for, never at import time."""

from __future__ import annotations

import csv
import io
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from .._extras import import_optional
from ._table import Table, item


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
        index = [item(k) for part in keys for k in (part if part is not None else [])]
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


def table_records(table: Table) -> list[dict[str, Any]]:
    """One dict per row of ``table``'s data columns (a JSON document's objects)."""
    columns = [c for c in table.columns if c.data]
    return [{c.key: item(c.values[i]) for c in columns} for i in range(table.n_rows)]


def render_csv(table: Table, cell: Callable[[Any], str] = str) -> str:
    """``table``'s data columns as CSV: a header of keys, then one line per
    row; ``cell`` writes a value (None: an empty cell)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c.key for c in table.columns if c.data])
    for record in table_records(table):
        writer.writerow(["" if v is None else cell(v) for v in record.values()])
    return out.getvalue()
