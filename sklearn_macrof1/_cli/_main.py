"""The ``macrof1`` command line (also ``python -m sklearn_macrof1``).

Three commands, documented on the Command line page of the documentation:

- ``macrof1`` or ``macrof1 example``: the built-in example;
- ``macrof1 score FILE --true COL --pred COL`` (a table with a header) or
  ``macrof1 score TRUE_FILE PRED_FILE`` (one label per line): predictions;
- ``macrof1 matrix N a11 a12 ...`` (the reference paper's form, rows =
  predicted) or ``macrof1 matrix --file M.csv --rows true|predicted``.

Exit status: 0 success, 2 usage error (argparse), 1 data error (one line on
standard error, no traceback). The stdlib ``csv`` module and numpy read the
inputs; pyarrow, when installed (the ``arrow`` extra), reads tables stored as
Parquet or Arrow IPC (Feather) files, recognised by their first bytes.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import inspect
import io
import json
import math
import os
import re
import sys
import warnings
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from .. import _options
from .._averages import CLASS_MEANS, HAS_BOUND
from .._extras import install_hint
from .._html import Column, Table, render_csv, render_view, table_records
from .._options import INVALID, Cli, Option
from .._results._views import summary_tables

PROG = "macrof1"
SCHEMA_VERSION = 1
FORMATS = ("text", "json", "csv")
TOP_LEVEL_FLAGS = ("-h", "--help", "--version")


class DataError(Exception):
    """A problem with the input data: exit status 1, one line on stderr."""


# --------------------------------------------------------------------------
# Reading inputs
# --------------------------------------------------------------------------


#: What ``score`` reads, for the messages about files it cannot read.
TABLE_FORMATS = (
    "UTF-8 text (a CSV/TSV table with a header, or one label per line) and, with "
    "pyarrow installed, Parquet and Arrow IPC (Feather) tables"
)
MATRIX_FORMATS = "UTF-8 text (CSV or whitespace-separated numbers) and .npy arrays"
#: The first bytes of the columnar files the CLI reads, and their names.
COLUMNAR_MAGIC = {
    b"PAR1": "Parquet",
    b"ARROW1": "Arrow IPC",
    b"\xff\xff\xff\xff": "Arrow IPC stream",  # a message's continuation marker
    b"FEA1": "Feather",
}


def read_text(path: str, *, stdin: Any = None, reads: str = TABLE_FORMATS) -> str:
    """The whole text of ``path`` (``-`` is standard input); ``reads`` names the
    formats the command reads, for the message about a file that is not text."""
    if path == "-":
        stream = stdin if stdin is not None else sys.stdin
        if stream is None:
            raise DataError("standard input is closed; give a file name instead of '-'")
        try:
            return _text_only(stream.read().removeprefix("\ufeff"), path, reads)
        except UnicodeDecodeError as exc:
            raise DataError(_not_text(path, _head(exc), reads, exc.reason)) from None
        except (OSError, ValueError) as exc:  # a closed or unreadable descriptor
            raise DataError(f"cannot read standard input ({exc})") from None
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            return _text_only(f.read(), path, reads)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, not a file") from None
    except UnicodeDecodeError as exc:
        raise DataError(_not_text(path, _head(exc), reads, exc.reason)) from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror})") from None


def _head(exc: UnicodeDecodeError) -> bytes:
    return exc.object[:4096] if isinstance(exc.object, bytes) else b""


def _text_only(text: str, path: str, reads: str) -> str:
    """``text``, unless it is the text of a binary file (NUL bytes are valid
    UTF-8, and standard input may be decoded with ``surrogateescape``). Text
    that starts as a columnar file does ("PAR1,x" a header, "FEA1" a label) is
    text: the files hold NUL bytes."""
    head = text[:4096].encode("utf-8", "surrogateescape")
    if b"\x00" in head:
        raise DataError(_not_text(path, head, reads))
    return text


def _not_text(path: str, head: bytes, reads: str, reason: str | None = None) -> str:
    """Why ``path``, starting with ``head``, is not read as text (``reason``: the
    decoding error), and what the command reads."""
    kind = columnar_format(head)
    if kind is not None and path == "-":
        return (
            f"standard input: a {kind} file; give {kind} files by name "
            "(standard input is read as text)"
        )
    if kind is not None:
        what = f"a {kind} file, which this command does not read"
    elif b"\x00" in head or reason is None:
        what = "a binary file, not a format this command reads"
    else:
        what = f"not UTF-8 text ({reason}; save it as UTF-8)"
    return f"{_source(path)}: {what}; it reads {reads}"


def _columnar_file(path: str) -> str | None:
    """The columnar format of the file ``path`` (None: another file, or one
    that cannot be opened, which :func:`read_text` reports).

    Only a regular file is looked at: the bytes read from a pipe (a FIFO,
    ``<(...)`` in a shell) would be gone for the text reader. Text may start
    with the same letters ("PAR1,x" a header, "FEA1" a label): a columnar file
    also holds a NUL byte in its first bytes, or ends with its magic bytes.
    """
    try:
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            head = f.read(4096)
            f.seek(max(os.fstat(f.fileno()).st_size - 8, 0))
            tail = f.read()
    except OSError:
        return None
    kind = columnar_format(head)
    ends = any(head.startswith(m) and tail.endswith(m) for m in COLUMNAR_MAGIC)
    return kind if b"\x00" in head or ends else None


def columnar_format(head: bytes) -> str | None:
    """The columnar format whose magic bytes ``head`` starts with, else None."""
    for magic, name in COLUMNAR_MAGIC.items():
        if head.startswith(magic):
            return name
    return None


def _source(path: str) -> str:
    return "standard input" if path == "-" else path


def choose_delimiter(text: str, path: str, delimiter: str | None) -> str:
    """``--delimiter`` if given, tab for .tsv/.tab files, else from the header."""
    if delimiter is not None:
        if delimiter.lower() in ("tab", "\\t"):
            return "\t"
        if len(delimiter) != 1:
            raise DataError(
                f"--delimiter must be one character (or 'tab'); got {delimiter!r}"
            )
        return delimiter
    if path.lower().endswith((".tsv", ".tab")):
        return "\t"
    header = text.split("\n", 1)[0]
    if "\t" in header and "," not in header:
        return "\t"
    if ";" in header and "," not in header and "\t" not in header:
        return ";"
    return ","


def read_table(
    text: str, *, delimiter: str, source: str
) -> tuple[list[str], list, list[int]]:
    """Header, data rows and the line of the file where each data row starts
    (rows whose cells are all blank are skipped)."""
    rows, lines = [], []
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    start = 1  # a quoted cell may span lines: a row starts after the last one
    try:
        for row in reader:
            if row and any(cell.strip() for cell in row):
                rows.append(row)
                lines.append(start)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise DataError(f"{source}: not a readable table ({exc})") from None
    if not rows:
        raise DataError(f"{source}: empty input (no header line)")
    header = [name.strip() for name in rows[0]]
    body = rows[1:]
    if not body:
        raise DataError(f"{source}: empty input (a header but no rows)")
    for row, line in zip(body, lines[1:], strict=True):
        if len(row) != len(header):
            raise DataError(
                f"{source}: line {line} has {len(row)} field(s), the header has "
                f"{len(header)}"
            )
    return header, body, lines[1:]


#: The line of the file of each value of a column, or None for the columns of a
#: Parquet or Arrow table, which have rows but no lines.
Lines = Sequence[int] | None


def where(i: int, lines: Lines) -> str:
    """Where value ``i`` (counted from 0) of a column is in its file."""
    return f"in row {i + 1}" if lines is None else f"on line {lines[i]}"


def table_column(header: list[str], body: list, name: str, *, source: str) -> list[str]:
    """The cells of column ``name`` (exact header match)."""
    i = column_index(header, name, source=source)
    return [row[i].strip() for row in body]


def column_index(header: list[str], name: str, *, source: str) -> int:
    """The position of column ``name`` in ``header`` (present and unique)."""
    if name not in header:
        shown = ", ".join(repr(h) for h in header)
        raise DataError(f"{source}: no column {name!r} (columns: {shown})")
    if header.count(name) > 1:
        raise DataError(f"{source}: column name {name!r} is not unique")
    return header.index(name)


def read_columnar(path: str, names: list[str]) -> dict[str, list[str]] | None:
    """The columns ``names`` of a Parquet or Arrow IPC (Feather) file as text
    cells, as the CSV reader gives them; None when ``path`` is not such a file
    (by its first bytes, whatever its name).

    Cells are written as a CSV export of the table writes them (``str`` of each
    value: ``1``, ``1.0``, ``True``; a null is an empty cell), so labels are read
    from them exactly as from a CSV table. Columns of lists, structs or bytes are
    refused (multilabel sets: one delimited string per cell with --label-sep, or
    0/1 indicator columns).
    """
    kind = None if path == "-" else _columnar_file(path)
    if kind is None:
        return None
    try:
        import pyarrow as pa
        import pyarrow.feather as feather
        import pyarrow.parquet as pq
    except ImportError:  # the arrow extra is not installed
        raise DataError(
            f"{path}: a {kind} file; reading it needs pyarrow, which is not "
            f"installed: {install_hint('pyarrow')}. Without pyarrow, macrof1 reads "
            "UTF-8 text (a CSV/TSV table with a header, or one label per line)"
        ) from None
    try:
        if kind == "Parquet":
            parquet = pq.ParquetFile(path)
            header = list(parquet.schema_arrow.names)
            for name in names:  # only the columns asked for are read
                column_index(header, name, source=path)
            table = parquet.read(columns=list(dict.fromkeys(names)))
        elif kind == "Arrow IPC stream":
            with pa.memory_map(path) as source, pa.ipc.open_stream(source) as stream:
                table = stream.read_all()
        else:
            table = feather.read_table(path, memory_map=True)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise DataError(f"{path}: not a readable {kind} file ({exc})") from None
    if table.num_rows == 0:
        raise DataError(f"{path}: empty input (a header but no rows)")
    header = list(table.column_names)
    return {
        name: _cells(
            table.column(column_index(header, name, source=path)),
            what=f"{path}, column {name!r}",
        )
        for name in names
    }


def _cells(column: Any, *, what: str) -> list[str]:
    """The values of an Arrow column as the text cells of a CSV export."""
    import pyarrow as pa

    kind = column.type
    if pa.types.is_dictionary(kind):  # categorical: its values
        kind = kind.value_type
    if (
        pa.types.is_nested(kind)
        or pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
        or pa.types.is_fixed_size_binary(kind)
    ):
        raise DataError(
            f"{what} holds {kind} values; label columns hold one value per row "
            "(numbers, strings or booleans). For label sets, store one delimited "
            "string per row and pass --label-sep, or 0/1 indicator columns"
        )
    return ["" if v is None else str(v).strip() for v in column.to_pylist()]


def read_lines(text: str, *, source: str) -> list[str]:
    """One value per line; trailing blank lines are ignored."""
    lines = [line.strip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise DataError(f"{source}: empty input (no labels)")
    return lines


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _is_int64(text: str) -> bool:
    """An integer that int64 holds."""
    try:
        value = int(text)
    except ValueError:
        return False
    return -(2**63) <= value < 2**63


def _float_or_none(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def convert_labels(
    *columns: list[str], sources: Sequence[str] = (), lines: Sequence[Lines] = ()
) -> list:
    """Labels of every column, of one type for all.

    Integers (that int64 holds) if every value is one; else, when every value is
    a number, floats that must be whole and finite (other numbers are continuous
    values, refused as by the Python API); else strings (integers beyond int64
    included: they are identifiers, not quantities).
    """
    values = [v for col in columns for v in col]
    if all(_is_int64(v) for v in values):
        return [np.array([int(v) for v in col], dtype=np.int64) for col in columns]
    if not all(_is_int(v) for v in values):  # integers beyond int64 stay strings
        numbers = [_float_or_none(v) for v in values]
        if all(x is not None for x in numbers):
            names = [*sources, *["labels"] * len(columns)][: len(columns)]
            places = [*lines, *[None] * len(columns)][: len(columns)]
            for col, source, at in zip(columns, names, places, strict=True):
                for i, text in enumerate(col):
                    x = float(text)
                    if not (math.isfinite(x) and x == math.trunc(x)):
                        raise DataError(
                            f"{source}: the value {where(i, at)} is {text!r}: the "
                            "column holds continuous values, and classification "
                            "metrics need class labels (threshold scores or "
                            "probabilities into labels first)"
                        )
            return [np.array([float(v) for v in col]) for col in columns]
    return [np.array(col, dtype=str) for col in columns]


def check_no_empty(values: list[str], *, what: str, lines: Lines) -> None:
    for i, value in enumerate(values):
        if value == "":
            raise DataError(
                f"{what}: the value {where(i, lines)} is empty (a label is needed; "
                "for multilabel sets use --label-sep)"
            )


def split_sets(values: list[str], sep: str) -> list[list[str]]:
    """Label sets from delimiter-separated cells (an empty cell is the empty set)."""
    return [[p.strip() for p in v.split(sep) if p.strip()] for v in values]


def binarize_sets(
    true_sets: list[list[str]], pred_sets: list[list[str]]
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Indicator matrices over the sorted union of the labels."""
    names = sorted({x for s in true_sets + pred_sets for x in s})
    if not names:
        raise DataError("the label sets are all empty: no labels to score")
    if all(_is_int(n) for n in names):
        names = [str(n) for n in sorted(int(n) for n in names)]
    index = {n: i for i, n in enumerate(names)}

    def indicator(sets: list[list[str]]) -> np.ndarray:
        out = np.zeros((len(sets), len(names)), dtype=np.int8)
        for i, s in enumerate(sets):
            out[i, [index[label] for label in s]] = 1
        return out

    return indicator(true_sets), indicator(pred_sets), names


_TRUE_WORDS = {"1", "true", "yes", "y", "t", "1.0"}
_FALSE_WORDS = {"0", "false", "no", "n", "f", "0.0", ""}


def indicator_column(values: list[str], *, what: str, lines: Lines) -> np.ndarray:
    """0/1 (or true/false, yes/no) cells as an int8 column."""
    out = np.zeros(len(values), dtype=np.int8)
    for i, v in enumerate(values):
        low = v.lower()
        if low in _TRUE_WORDS:
            out[i] = 1
        elif low not in _FALSE_WORDS:
            raise DataError(
                f"{what}: the value {where(i, lines)} is {v!r}; indicator columns "
                "hold 0/1 "
                "(or true/false)"
            )
    return out


def float_column(values: list[str], *, what: str, lines: Lines) -> np.ndarray:
    out = np.empty(len(values), dtype=np.float64)
    for i, v in enumerate(values):
        try:
            out[i] = float(v)
        except ValueError:
            raise DataError(
                f"{what}: the value {where(i, lines)} is not a number ({v!r})"
            ) from None
    return out


def _matrix_rows(text: str) -> list[list[str]]:
    """Cells of the non-comment lines: CSV (commas, semicolons, tabs; empty
    cells kept, quotes removed) or whitespace-separated text."""
    lines = [
        line
        for line in text.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    for sep in (",", ";", "\t"):
        if any(sep in line for line in lines):
            try:
                rows = list(csv.reader(lines, delimiter=sep))
            except csv.Error:
                break
            return [[cell.strip() for cell in row] for row in rows]
    return [line.split() for line in lines]


def _is_number(text: str) -> bool:
    return _float_or_none(text) is not None


def parse_matrix_text(text: str, *, source: str) -> tuple[np.ndarray, list[str] | None]:
    """A square matrix from CSV (commas, tabs or semicolons) or whitespace text,
    and the class names of its header row and/or index column, if it has them
    (as ``pandas.DataFrame(cm, index=names, columns=names).to_csv()`` writes)."""
    rows = _matrix_rows(text)
    if not rows:
        raise DataError(f"{source}: empty input (no matrix rows)")
    names = None
    header = rows[0]
    if header[0] == "" or not all(_is_number(v) for v in header[1:]):
        # A header row of class names; an index column follows when the header's
        # first cell is empty (pandas' to_csv) or every row starts with a name.
        body = rows[1:]
        indexed = header[0] == "" or (
            bool(body)
            and all(len(r) == len(header) and not _is_number(r[0]) for r in body)
        )
        columns = header[1:] if indexed else header
        if indexed:
            index = [r[0] for r in body]
            if index != columns:
                raise DataError(
                    f"{source}: the header row names the columns {columns!r} but "
                    f"the first column names the rows {index!r}; a confusion "
                    "matrix needs the same classes, in the same order, in both"
                )
            body = [r[1:] for r in body]
        names, rows = columns, body
        if not rows:
            raise DataError(f"{source}: a header row but no matrix rows")
    elif all(len(r) == len(rows[0]) and not _is_number(r[0]) for r in rows):
        # An index column of class names without a header row.
        names, rows = [r[0] for r in rows], [r[1:] for r in rows]
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise DataError(
            f"{source}: rows have different numbers of entries "
            f"({', '.join(str(w) for w in sorted(widths))}); a matrix saved by "
            "pandas needs both its header row and its index column"
        )
    matrix = parse_numbers([v for r in rows for v in r], source=source)
    return matrix.reshape(len(rows), -1), names


def parse_numbers(values: Sequence[str], *, source: str) -> np.ndarray:
    """Numbers (int64 if all are integers that int64 holds, else float64)."""
    if all(_is_int64(v) for v in values):
        return np.array([int(v) for v in values], dtype=np.int64)
    out = []
    for v in values:
        try:
            out.append(float(v))
        except ValueError:
            raise DataError(f"{source}: {v!r} is not a number") from None
    return np.array(out, dtype=np.float64)


def read_matrix_file(
    path: str, *, stdin: Any = None
) -> tuple[np.ndarray, list[str] | None]:
    """A confusion matrix from .npy, CSV or whitespace-separated text, and its
    class names when the file has them (header row and index column)."""
    if path != "-" and path.lower().endswith(".npy"):
        try:
            m = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            raise DataError(f"{path}: no such file") from None
        except (OSError, ValueError, EOFError) as exc:
            raise DataError(f"{path}: not a readable .npy array ({exc})") from None
        if m.dtype.kind not in "biuf":
            raise DataError(f"{path}: the array holds {m.dtype}, not numbers")
        return m, None
    text = read_text(path, stdin=stdin, reads=MATRIX_FORMATS)
    return parse_matrix_text(text, source=_source(path))


def paper_matrix(values: Sequence[str]) -> np.ndarray:
    """The paper's argument form: number of classes, then the entries row by row."""
    if not _is_int(values[0]) or int(values[0]) < 1:
        raise DataError(
            f"the first value must be the number of classes (an integer >= 1); "
            f"got {values[0]!r}"
        )
    n = int(values[0])
    entries = values[1:]
    if len(entries) != n * n:
        raise DataError(
            f"{n} classes need {n * n} matrix entries (row by row); got {len(entries)}"
        )
    return parse_numbers(entries, source="matrix entries").reshape(n, n)


# --------------------------------------------------------------------------
# Inputs → arrays
# --------------------------------------------------------------------------


@dataclasses.dataclass
class Scored:
    """What a command scored, plus a description of the input for the output."""

    summary: Any
    report: str
    input: dict[str, Any]
    names: list[str]
    options: dict[str, Any]
    #: labels as JSON values: numbers stay numbers (multilabel: the names)
    json_labels: list[Any]
    #: the summary's FBetaInterval with --confidence (None without it, or when
    #: --average none leaves no single score per formula)
    interval: Any


def _split_list(text: str | None) -> list[str] | None:
    if text is None:
        return None
    items = [x.strip() for x in text.split(",")]
    if not all(items):
        raise DataError(f"empty item in the comma-separated list {text!r}")
    return items


def _labels_like(items: list[str], known: np.ndarray, *, option: str) -> np.ndarray:
    """Convert ``--labels`` / ``--pos-label`` items to the type of the labels."""
    if known.dtype.kind in "iu":
        if not all(_is_int64(x) for x in items):
            bad = next(x for x in items if not _is_int64(x))
            raise DataError(f"{option}: {bad!r} is not a label (labels are integers)")
        return np.array([int(x) for x in items], dtype=np.int64)
    if known.dtype.kind == "f":
        numbers = [_float_or_none(x) for x in items]
        if any(x is None for x in numbers):
            bad = items[numbers.index(None)]
            raise DataError(f"{option}: {bad!r} is not a label (labels are numbers)")
        return np.array(numbers, dtype=np.float64)
    return np.array(items, dtype=str)


def _label_options(
    args: argparse.Namespace, known: np.ndarray, names: list[str] | None = None
) -> tuple[list | None, Any]:
    """``--labels`` and ``--pos-label`` of the type of ``known``; with multilabel
    ``names``, ``--labels`` are column indices (and ``--pos-label`` is unused)."""
    labels = _split_list(args.labels)
    if names is not None:
        for x in labels or []:
            if x not in names:
                raise DataError(
                    f"--labels: {x!r} is not one of the labels ({', '.join(names)})"
                )
        return (None if labels is None else [names.index(x) for x in labels]), 1
    if labels is not None:
        labels = _labels_like(labels, known, option="--labels").tolist()
    pos_label: Any = 1
    if args.pos_label is not None:
        pos_label = _labels_like([args.pos_label], known, option="--pos-label")[
            0
        ].item()
    return labels, pos_label


def load_predictions(
    args: argparse.Namespace, stdin: Any = None
) -> tuple[Any, Any, np.ndarray | None, list[str] | None, dict[str, Any]]:
    """y_true, y_pred, sample_weight, the multilabel names (None for other
    targets) and a description of the input."""
    files = args.files
    if files.count("-") > 1:
        raise DataError("only one input can be standard input ('-')")
    weights = y_true = y_pred = names = None
    if len(files) == 2:
        for path in files:
            kind = None if path == "-" else _columnar_file(path)
            if kind is not None:
                raise DataError(
                    f"{path}: a {kind} file; a table is read as one FILE with "
                    "--true COL and --pred COL (two FILEs are text files, one "
                    "label per line)"
                )
        texts = [read_text(p, stdin=stdin) for p in files]
        true_vals, pred_vals = (
            read_lines(t, source=_source(p)) for t, p in zip(texts, files, strict=True)
        )
        if len(true_vals) != len(pred_vals):
            raise DataError(
                f"{_source(files[0])} has {len(true_vals)} labels, "
                f"{_source(files[1])} has {len(pred_vals)}"
            )
        described: dict[str, Any] = {"form": "lines", "sources": list(files)}
        sources = (_source(files[0]), _source(files[1]))
        lines: Lines = range(1, len(true_vals) + 1)  # one value per line
    else:
        path = files[0]
        source = _source(path)
        wanted = [*args.true, *args.pred]
        if args.sample_weight is not None:
            wanted.append(args.sample_weight)
        columnar = read_columnar(path, wanted)
        delimiter: str | None = None
        lines = None
        if columnar is None:
            text = read_text(path, stdin=stdin)
            delimiter = choose_delimiter(text, path, args.delimiter)
            header, body, lines = read_table(text, delimiter=delimiter, source=source)

        def column(name: str) -> list[str]:
            if columnar is not None:
                return columnar[name]
            return table_column(header, body, name, source=source)

        def indicators(columns: list[str]) -> np.ndarray:
            return np.column_stack(
                [
                    indicator_column(
                        column(c), what=f"{source}, column {c!r}", lines=lines
                    )
                    for c in columns
                ]
            )

        if len(args.true) > 1 or len(args.pred) > 1:
            if len(args.true) != len(args.pred):
                raise DataError(
                    f"indicator columns pair up: got {len(args.true)} --true and "
                    f"{len(args.pred)} --pred columns"
                )
            y_true, y_pred = indicators(args.true), indicators(args.pred)
            names = list(args.true)
        else:
            true_vals, pred_vals = column(args.true[0]), column(args.pred[0])
        if args.sample_weight is not None:
            weights = float_column(
                column(args.sample_weight),
                what=f"{source}, column {args.sample_weight!r}",
                lines=lines,
            )
        described = {
            "form": "table",
            "sources": [path],
            "delimiter": delimiter,
            "true": list(args.true),
            "pred": list(args.pred),
            "sample_weight": args.sample_weight,
        }
        sources = (
            f"{source}, column {args.true[0]!r}",
            f"{source}, column {args.pred[0]!r}",
        )
        if len(args.true) > 1:
            true_cols, pred_cols = (
                ", ".join(repr(c) for c in cols) for cols in (args.true, args.pred)
            )
            sources = (
                f"{source}, columns {true_cols}",
                f"{source}, columns {pred_cols}",
            )
    described["label_sep"] = args.label_sep  # None with indicator columns
    if y_true is None and args.label_sep is not None:
        y_true, y_pred, names = binarize_sets(
            split_sets(true_vals, args.label_sep), split_sets(pred_vals, args.label_sep)
        )
    elif y_true is None:
        check_no_empty(true_vals, what=sources[0], lines=lines)
        check_no_empty(pred_vals, what=sources[1], lines=lines)
        y_true, y_pred = convert_labels(
            true_vals, pred_vals, sources=sources, lines=(lines, lines)
        )
    if _disjoint(y_true, y_pred):
        check = (
            "check that --true and --pred name the columns meant"
            if described["form"] == "table"
            else "check that both files hold labels of the same classes, written alike"
        )
        warnings.warn(
            f"the true labels ({sources[0]}) and the predicted labels ({sources[1]}) "
            f"have no value in common, so no prediction is right: {check}.",
            UserWarning,
            stacklevel=2,
        )
    described["n_samples"] = len(y_true)
    return y_true, y_pred, weights, names, described


def _disjoint(y_true: Any, y_pred: Any) -> bool:
    """No label is both a true and a predicted label (of indicator matrices: no
    column is set in both)."""
    if y_true.ndim == 2:
        return not (y_true.any(axis=0) & y_pred.any(axis=0)).any()
    for value in y_true[:3]:  # the usual answer in O(n), without sorting
        if (y_pred == value).any():
            return False
    return np.intersect1d(y_true, y_pred).size == 0


# --------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------


def option_values(args: argparse.Namespace) -> dict[str, Any]:
    """The value of every option of the option table that the program offers,
    as the public functions take it (a choice's word turned into its value),
    under its name and the names it is ``also`` given as."""
    values = {}
    for option in _options.OPTIONS:
        cli = option.cli
        if cli is None or not hasattr(args, option.name):
            continue
        value = getattr(args, option.name)
        if cli.choices is not None:
            value = cli.choices[value]
        for name in (option.name, *cli.also):
            values[name] = value
    return values


def _call(verb: Any, counts: Any, values: dict[str, Any]) -> Any:
    """``verb(counts, ...)`` with each of ``values`` that ``verb`` takes."""
    taken = inspect.signature(verb).parameters
    return verb(counts, **{k: v for k, v in values.items() if k in taken})


#: The options of the JSON document's "options", in order (the interval's
#: only when --confidence asks for one).
JSON_OPTIONS = ("average", "beta", "zero_division", "labels", "pos_label")
JSON_INTERVAL_OPTIONS = ("confidence", "interval_method", "n_resamples", "random_state")


def _json_options(
    args: argparse.Namespace, labels: Any, pos_label: Any
) -> dict[str, Any]:
    values = {**option_values(args), "labels": labels, "pos_label": pos_label}
    if args.zero_division == "nan":
        values["zero_division"] = "nan"  # JSON has no NaN
    keys: tuple[str, ...] = JSON_OPTIONS
    if args.confidence is not None:  # keys added only when intervals are asked
        keys += JSON_INTERVAL_OPTIONS
    return {key: values[key] for key in keys}


def score_predictions(args: argparse.Namespace, stdin: Any = None) -> Scored:
    """The ``score`` command: the targets are counted once, into the record of
    a :class:`MacroF1Accumulator`, and the summary, the report and the
    intervals are the public verbs given that record."""
    y_true, y_pred, weights, names, described = load_predictions(args, stdin=stdin)
    labels, pos_label = _label_options(args, y_true, names)
    report_labels: Any = labels
    target_names = None
    if names is not None:  # the indicator columns scored, fixed when counted
        report_labels = list(range(len(names))) if labels is None else labels
        target_names = [names[i] for i in report_labels]
    counts = count_predictions(
        args,
        [(y_true, y_pred, weights)],
        columns=report_labels if names is not None else None,
    )
    scored = score_counts(
        args, counts, labels, pos_label, report_labels, target_names, described
    )
    if names is not None:
        scored.names = [names[i] for i in scored.summary.labels]
        scored.json_labels = scored.names
    return scored


def count_predictions(
    args: argparse.Namespace, batches: Any, *, columns: Any = None
) -> Any:
    """The one count record of ``batches`` of (y_true, y_pred, sample_weight):
    with the confusion matrix, and the second moments a delta-method interval
    of weighted or multilabel targets needs when --confidence asks for one
    (``columns``: the multilabel indicator columns scored)."""
    from .. import MacroF1Accumulator

    keep = "moments" if args.confidence is not None else "cells"
    accumulator = MacroF1Accumulator(labels=columns, keep=keep)
    for y_true, y_pred, weights in batches:
        accumulator.update(y_true, y_pred, sample_weight=weights)
    return accumulator.counts


def score_counts(
    args: argparse.Namespace,
    counts: Any,
    labels: Any,
    pos_label: Any,
    report_labels: Any,
    target_names: Any,
    described: dict[str, Any],
) -> Scored:
    """The summary, the report and the interval of one count record."""
    from .. import classification_report, fbeta_confidence_interval, fbeta_summary

    values = {**option_values(args), "labels": labels, "pos_label": pos_label}
    summary = _call(fbeta_summary, counts, values)
    report = _call(
        classification_report,
        counts,
        {**values, "labels": report_labels, "target_names": target_names},
    )
    interval = None
    if args.confidence is not None and summary.average is not None:
        interval = _call(
            fbeta_confidence_interval,
            counts,
            {**values, "average": summary.average},
        )
    described["target_type"] = summary.target_type
    return Scored(
        summary,
        cast(str, report),  # output_dict=False
        described,
        [str(x) for x in summary.labels.tolist()],
        _json_options(args, labels, pos_label),
        _plain(summary.labels),
        interval,
    )


def score_matrix(args: argparse.Namespace, stdin: Any = None) -> Scored:
    """The ``matrix`` command: the matrix's record, given to the verbs."""
    from .. import MacroF1Counts

    file_names = None
    if args.file is not None:
        matrix, file_names = read_matrix_file(args.file, stdin=stdin)
        described: dict[str, Any] = {"form": "file", "sources": [args.file]}
    else:
        matrix = paper_matrix(args.values)
        described = {"form": "arguments", "sources": []}
    rows = args.rows or "predicted"
    class_names = _split_list(args.class_names)
    if file_names is not None:
        if class_names is not None and class_names != file_names:
            raise DataError(
                f"--class-names {class_names!r} differ from the class names in "
                f"{_source(args.file)} ({file_names!r})"
            )
        class_names = file_names
    square = matrix.ndim == 2 and matrix.shape[0] == matrix.shape[1]
    if square and class_names and len(class_names) != matrix.shape[0]:
        raise DataError(
            f"--class-names: {len(class_names)} names for a "
            f"{matrix.shape[0]}-class matrix"
        )
    known = (
        np.array(class_names, dtype=str)
        if class_names
        else np.arange(max(matrix.shape[0] if matrix.ndim else 1, 1))
    )
    labels, pos_label = _label_options(args, known)
    counts = MacroF1Counts.from_confusion_matrix(matrix, rows=rows, labels=class_names)
    described["rows"] = rows
    described["shape"] = list(matrix.shape)
    described["n_samples"] = _plain(np.asarray(matrix).sum())
    return score_counts(args, counts, labels, pos_label, labels, None, described)


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """JSON-ready: numpy → Python, NaN → None (in lists and dicts too)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"  # JSON has no infinity (beta=inf)
    return value


#: The summary's values in the "scores" object of the JSON document, in order.
SCORE_KEYS = (
    "averaged_fbeta",
    "fbeta_of_averages",
    "gap",
    "gap_closed_form",
    "gap_bound",
    "precision",
    "recall",
    "n_classes",
)

#: Each class's object in the JSON document (after its "label"), and the
#: summary values behind it.
CLASS_KEYS = {
    "precision": "class_precision",
    "recall": "class_recall",
    "fbeta": "class_fbeta",
    "support": "support",
    "true_positives": "true_positives",
    "predicted": "predicted",
}


def result_dict(command: str, scored: Scored) -> dict[str, Any]:
    """The JSON document (its schema: the Command line page of the documentation)."""
    s = _plain(scored.summary.to_dict())  # the summary's own serialisation
    classes = table_records(
        Table(
            "classes",
            [
                Column("label", scored.json_labels),
                *(Column(key, s[name]) for key, name in CLASS_KEYS.items()),
            ],
        )
    )
    confusion = None
    if s["confusion_matrix"] is not None:
        confusion = {
            "rows": "true",
            "labels": s["classes"],
            "matrix": s["confusion_matrix"],
        }
    document = {
        **_document_head(command),
        "input": _plain(scored.input),
        "options": _plain(scored.options),
        "scores": {key: s[key] for key in SCORE_KEYS},
        "classes": classes,
        "confusion_matrix": confusion,
    }
    if scored.interval is not None:
        document["intervals"] = _plain(scored.interval.to_dict())
    return document


def _document_head(command: str) -> dict[str, Any]:
    """The first keys of every JSON document."""
    from .._version import __version__

    return {
        "schema_version": SCHEMA_VERSION,
        "program": PROG,
        "version": __version__,
        "command": command,
    }


def format_text(command: str, scored: Scored, *, digits: int) -> str:
    """The text output: what was read, the report, then the summary's own
    table (and its intervals') as ``str()`` shows them, at ``digits`` but at
    least 6 decimals, with the closed form of the gap beside the gap."""
    s = scored.summary
    inp = scored.input
    lines = []
    if command == "matrix":
        orientation = (
            "rows = predicted labels, columns = true labels (the reference paper's "
            "orientation)"
            if inp["rows"] == "predicted"
            else "rows = true labels, columns = predicted labels "
            "(sklearn.metrics.confusion_matrix's orientation)"
        )
        lines.append(f"confusion matrix: {orientation}")
        lines.append(
            f"{inp['shape'][0]} classes, {_fmt_count(inp['n_samples'])} samples"
        )
    else:
        what = "file" if len(inp["sources"]) == 1 else "files"
        shown = ", ".join(_source(p) for p in inp["sources"])
        lines.append(
            f"predictions: {what} {shown}; {inp['n_samples']} samples, {s.target_type}"
        )
    lines += ["", scored.report.rstrip("\n"), ""]
    if s.beta != 1:
        lines.append(f"(the report shows F1; the summary below uses beta = {s.beta:g})")
    wide = max(digits, 6)
    main, classes = summary_tables(s)
    if main is None:  # average=None: the classes' scores
        # named as in the report (a multilabel input's label names, not the
        # numbers of its columns); the rows past the 20 shown are in CSV and JSON
        classes = dataclasses.replace(
            classes,
            keys=scored.names,
            labels=None,
            digits=wide,
            full="--format csv or json",
        )
        table = _unsigned_zeros(classes)
    else:
        columns = list(main.columns)
        if s.gap_closed_form is not None:
            after_gap = [c.key for c in columns].index("gap") + 1
            closed = Column("gap-closed-form", [s.gap_closed_form], "gap (Lemma)")
            columns.insert(after_gap, closed)
        # the report's legend says what the gap and its bound are
        table = dataclasses.replace(main, columns=columns, digits=wide, notes=[])
        table = _unsigned_zeros(table)
        if not (s.average in HAS_BOUND and s.beta == 1) and s.average in CLASS_MEANS:
            pairs = _gap_pairs(s, scored.names)  # macro F1's are in the report
            if pairs:
                table.notes.append(pairs)
    tables = [table]
    if scored.interval is not None:
        interval = dataclasses.replace(scored.interval._table(), digits=wide)
        tables.append(_unsigned_zeros(interval))
    lines.append(render_view(tables))
    return "\n".join(lines) + "\n"


def _unsigned_zeros(table: Table) -> Table:
    """``table`` with its numbers written at its digits, a value that rounds
    to zero without a sign (a gap of -1e-17 is rounding noise: "0.000000")."""

    def fixed(value: Any) -> str:
        if not isinstance(value, float | np.floating):
            return str(value)
        text = f"{float(value):.{table.digits}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text

    columns = [
        c if c.fmt is not None else dataclasses.replace(c, fmt=fixed)
        for c in table.columns
    ]
    return dataclasses.replace(table, columns=columns)


def _gap_pairs(summary: Any, names: Any) -> str:
    """The largest class-pair terms of the summary's gap, one line ("" if none)."""
    if not summary.gap > 0:
        return ""
    try:
        attribution = summary.gap_attribution()
    except ValueError:  # zero_division=nan left classes out: no pair terms
        return ""
    return attribution.headline(3, names=names)


def _fmt_count(value: Any) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:g}"
    return str(int(value))


CSV_COLUMNS = (
    "label",
    "precision",
    "recall",
    "fbeta",
    "support",
    "fbeta_of_averages",
    "gap",
    "gap_closed_form",
    "gap_bound",
)


def format_csv(scored: Scored) -> str:
    """One row per class, then one row for the average (columns CSV_COLUMNS)."""
    s = scored.summary
    blank = [None] * len(scored.names)
    values: dict[str, list[Any]] = {
        "label": list(scored.names),
        **{key: list(getattr(s, CLASS_KEYS[key])) for key in CSV_COLUMNS[1:5]},
        **{key: list(blank) for key in CSV_COLUMNS[5:]},
    }
    if s.average is not None:
        average = {
            "label": f"{s.average} avg",
            "precision": s.precision,
            "recall": s.recall,
            "fbeta": s.averaged_fbeta,
            "support": np.sum(s.support),
            "fbeta_of_averages": s.fbeta_of_averages,
            "gap": s.gap,
            "gap_closed_form": s.gap_closed_form,
            "gap_bound": s.gap_bound if s.average in HAS_BOUND else None,
        }
        for key in CSV_COLUMNS:
            values[key].append(average[key])
    table = Table("scores", [Column(key, values[key]) for key in CSV_COLUMNS])
    return render_csv(table, _csv_cell)


def _csv_cell(value: Any) -> str:
    """A CSV cell: floats in full (``repr``), nan empty."""
    value = _plain(value)
    if value is None:
        return ""
    return repr(value) if isinstance(value, float) else str(value)


def _example_scores(row: Any) -> dict[str, Any]:
    """One classifier of the example, as in the JSON document."""
    s = row.summary
    return {
        "name": row.name,
        "averaged_f1": _plain(s.averaged_fbeta),
        "f1_of_averages": _plain(s.fbeta_of_averages),
        "gap": _plain(s.gap),
        "precision": _plain(s.precision),
        "recall": _plain(s.recall),
        "rank_averaged_f1": row.rank_averaged_f1,
        "rank_f1_of_averages": row.rank_f1_of_averages,
    }


def example_dict(result: Any) -> dict[str, Any]:
    from ._example import conclusion

    return {
        **_document_head("example"),
        "dataset": result.dataset,
        "setup": result.setup,
        "n_train": result.n_train,
        "n_test": result.n_test,
        "classifiers": [_example_scores(r) for r in result.rows],
        "disagreements": [dataclasses.asdict(d) for d in result.disagreements],
        "conclusion": conclusion(result),
    }


#: The example's CSV columns: the JSON's classifier keys ("name" is "classifier").
EXAMPLE_CSV_KEYS = (
    "name",
    "averaged_f1",
    "rank_averaged_f1",
    "f1_of_averages",
    "rank_f1_of_averages",
    "gap",
    "precision",
    "recall",
)


def example_csv(result: Any) -> str:
    scores = [_example_scores(r) for r in result.rows]
    columns = [
        Column("classifier" if key == "name" else key, [row[key] for row in scores])
        for key in EXAMPLE_CSV_KEYS
    ]
    return render_csv(Table("example", columns), _csv_cell)


def write_output(text: str, path: str | None, *, force: bool, stdout: Any) -> None:
    """Print, or write a file (refusing to replace an existing one without force)."""
    if path is None or path == "-":
        if stdout is None:
            raise DataError("standard output is closed; use --output FILE")
        try:
            stdout.write(text)
            stdout.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:  # a full device, a closed stream
            _silence(stdout)
            reason = getattr(exc, "strerror", None) or str(exc)
            raise DataError(f"cannot write to standard output ({reason})") from None
        return
    mode = "w" if force else "x"
    try:
        with open(path, mode, encoding="utf-8", newline="") as f:
            f.write(text)
    except FileExistsError:
        raise DataError(f"{path} exists; pass --force to overwrite it") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot write ({exc.strerror})") from None


# --------------------------------------------------------------------------
# Arguments
# --------------------------------------------------------------------------


#: The help groups of the option table's rows, in the order shown.
GROUPS = {
    "scoring": "scoring (scikit-learn's meaning)",
    "intervals": "confidence intervals (off by default)",
    "output": "output",
}


def _reader(option: Option) -> Any:
    """The argparse type of an option of the table: its text read as
    ``cli.kind``, then checked by the row."""
    cli = cast(Cli, option.cli)

    def read(text: str) -> Any:
        try:
            value = cli.kind(text)
        except ValueError:
            what = "an integer" if cli.kind is int else "a number"
            raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
        normalised = option.normalise(value)
        if normalised is INVALID:
            accepted = cli.accepted or option.accepted
            raise argparse.ArgumentTypeError(f"must be {accepted}; got {text}")
        return normalised

    read.__name__ = option.name  # argparse names the type in some messages
    return read


def _add_options(
    p: argparse.ArgumentParser, groups: Sequence[str], *, samples: bool = True
) -> None:
    """The options of the option table's rows in ``groups`` (with the output
    options of the program itself); ``samples``: --average samples offered."""
    for group in groups:
        g = p.add_argument_group(GROUPS[group])
        if group == "output":
            g.add_argument(
                "--format", choices=FORMATS, default="text", help="output format (text)"
            )
        for option in _options.OPTIONS:
            cli = option.cli
            if cli is None or cli.group != group:
                continue
            settings: dict[str, Any] = {"default": cli.default, "help": cli.help}
            if cli.choices is not None:
                settings["choices"] = tuple(
                    word for word in cli.choices if samples or word != "samples"
                )
            elif cli.kind is not str:
                settings["type"] = _reader(option)
            if cli.metavar is not None:
                settings["metavar"] = cli.metavar
            g.add_argument("--" + option.name.replace("_", "-"), **settings)
        if group == "output":
            g.add_argument(
                "-o", "--output", metavar="FILE", help="write to FILE instead of stdout"
            )
            g.add_argument(
                "--force",
                action="store_true",
                help="overwrite an existing --output file",
            )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Both macro F1s - averaged F1 (mean of per-class F1, sklearn's f1_score) "
            "and F1 of averages (harmonic mean of macro precision and recall) - "
            "their gap and its bound. Without a command: the built-in example."
        ),
        epilog=(
            "Run 'macrof1 COMMAND --help' for the options of a command. "
            "Exit status: 0 success, 1 data error, 2 usage error."
        ),
    )
    from .._version import __version__

    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    ex = sub.add_parser(
        "example",
        help="the built-in example (the default)",
        description="Three seeded classifiers on scikit-learn's bundled digits, "
        "ranked by both macro F1s.",
    )
    _add_options(ex, ("output",))
    ex.set_defaults(subparser=ex)

    sc = sub.add_parser(
        "score",
        help="score predictions from files",
        description=(
            "Score predictions. One FILE: a CSV/TSV table with a header (or, with "
            "pyarrow installed, a Parquet or Arrow IPC/Feather file); choose "
            "columns with --true and --pred (repeat both for multilabel indicator "
            "columns). Two FILEs: plain text, one label per line (true, then "
            "predicted). '-' reads standard input."
        ),
    )
    sc.add_argument("files", nargs="+", metavar="FILE", help="input file(s) or '-'")
    g = sc.add_argument_group("input")
    g.add_argument(
        "--true",
        action="append",
        metavar="COL",
        help="column of true labels (repeat for indicator columns)",
    )
    g.add_argument(
        "--pred",
        action="append",
        metavar="COL",
        help="column of predicted labels (repeat for indicator columns)",
    )
    g.add_argument(
        "--sample-weight", metavar="COL", help="column of sample weights (tables)"
    )
    g.add_argument(
        "--label-sep",
        metavar="SEP",
        help="multilabel: each value is a set of labels separated by SEP",
    )
    g.add_argument(
        "--delimiter",
        metavar="CHAR",
        help="table delimiter (default: tab for .tsv, else from the header)",
    )
    _add_options(sc, tuple(GROUPS))
    sc.set_defaults(subparser=sc)

    mx = sub.add_parser(
        "matrix",
        help="score a confusion matrix",
        description=(
            "Score a confusion matrix: the reference paper's form N a11 a12 ... "
            "(number of classes, then the entries row by row; rows are predictions "
            "unless --rows says otherwise), or --file M (CSV, whitespace text or "
            ".npy; --rows required)."
        ),
    )
    mx.add_argument(
        "values",
        nargs="*",
        metavar="VALUE",
        help="the paper's argument form: N, then the N*N entries row by row",
    )
    mx.add_argument("--file", metavar="M", help="matrix file (.csv, .txt, .npy, '-')")
    mx.add_argument(
        "--rows",
        choices=("true", "predicted"),
        help="what the rows are (default 'predicted' for the argument form only)",
    )
    mx.add_argument(
        "--class-names", metavar="A,B,...", help="names of the classes, row order"
    )
    _add_options(mx, tuple(GROUPS), samples=False)
    mx.set_defaults(subparser=mx)
    return parser


#: The interval methods that the counts of weighted or multilabel targets do
#: not give, and why (score counts its input; it keeps no samples).
_NOT_FROM_COUNTS = {
    "bootstrap": "redraws every sample, which score does not keep (it counts its "
    "input in chunks)",
    "posterior": "is not defined (it draws the confusion-matrix cells of "
    "unweighted labels)",
}


def check_usage(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Argument combinations argparse cannot express (exit status 2)."""

    def fail(message: str) -> None:
        args.subparser.error(message)  # usage and exit status 2

    if args.command == "score":
        args.true = args.true or []
        args.pred = args.pred or []
        if len(args.files) > 2:
            fail("give one table FILE or two label files (true, predicted)")
        if len(args.files) == 2:
            for option, value in (
                ("--true", args.true),
                ("--pred", args.pred),
                ("--sample-weight", args.sample_weight),
                ("--delimiter", args.delimiter),
            ):
                if value:
                    fail(f"{option} applies to a table (one FILE), not to label files")
        elif not args.true or not args.pred:
            fail("a table needs --true COL and --pred COL (or give two label files)")
        if args.label_sep is not None and (len(args.true) > 1 or len(args.pred) > 1):
            fail("--label-sep and several --true/--pred columns exclude each other")
        if args.label_sep == "":
            fail("--label-sep must not be empty")
        multilabel = args.label_sep is not None or len(args.true) > 1
        why = _NOT_FROM_COUNTS.get(args.interval_method)
        if args.confidence is not None and why is not None:
            if args.sample_weight is not None or multilabel:
                what = "--sample-weight" if args.sample_weight else "label sets"
                fail(
                    f"--interval-method {args.interval_method} with {what} {why}; "
                    "use --interval-method delta"
                )
    elif args.command == "matrix":
        if args.file is not None and args.values:
            fail("give the matrix as arguments or with --file, not both")
        if args.file is None and not args.values:
            fail("give the matrix: N A11 A12 ... or --file M --rows true|predicted")
        if args.file is not None and args.rows is None:
            fail(
                "--rows true|predicted is required with --file (say whether rows are "
                "true labels or predictions)"
            )


# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


#: The package's warnings and errors that name a Python argument, and what the
#: program says instead: the option that does the same.
_OPTION_WORDS: tuple[tuple[re.Pattern[str], Any], ...] = (
    (
        re.compile(
            r"Target is (\S+) but average='binary'\. Please choose another average "
            r"setting, one of \[(.*?)\]\."
        ),
        lambda m: (
            f"the labels are {m[1]}, and --average binary scores two classes only: "
            f"choose --average {_choices(m[2])}."
        ),
    ),
    (
        re.compile(
            r"pos_label=(.*?) is not a valid label\. It should be one of \[(.*?)\] "
            r"\(the labels in y_true and y_pred\)\."
        ),
        lambda m: (
            f"--pos-label {_unquoted(m[1])} is not one of the labels read "
            f"({_choices(m[2])}): give --pos-label LABEL with one of them."
        ),
    ),
    (
        re.compile(
            r"average='samples' is only available for multilabel targets \(2-D 0/1 "
            r"indicator matrices\); for 1-D targets use (.*)\."
        ),
        lambda m: (
            "--average samples needs label sets (--label-sep, or indicator columns "
            "with several --true and --pred); for one label per row choose --average "
            f"{_choices(m[1])}."
        ),
    ),
    (
        re.compile(r"Use `zero_division` parameter to control this behavior\."),
        "Use --zero-division 0, 1 or nan to choose the value (and silence this "
        "warning).",
    ),
    (
        re.compile(
            r"Note that pos_label \(set to (.*?)\) is ignored when average != "
            r"'binary' \(got '(.*?)'\)\. You may use labels=\[pos_label\] to "
            r"specify a single positive class\."
        ),
        lambda m: (
            f"--pos-label (set to {_unquoted(m[1])}) is ignored unless --average "
            f"binary (got --average {m[2]}); --labels {_unquoted(m[1])} scores that "
            "class alone."
        ),
    ),
)


def _choices(shown: str) -> str:
    """Python's list of values (``None, 'micro'`` or ``'a', 'b' or None``) as the
    program's words: ``none, micro``."""
    items = re.split(r", | or ", shown)
    return ", ".join("none" if x == "None" else _unquoted(x) for x in items if x)


def _unquoted(shown: str) -> str:
    """A label as a command line writes it, from its repr: ``'a'`` is ``a``."""
    if len(shown) >= 2 and shown[0] == shown[-1] and shown[0] in "'\"":
        return shown[1:-1]
    return shown


def in_option_words(message: str) -> str:
    """A warning or error of the package as the program says it: options, not
    arguments."""
    for pattern, replacement in _OPTION_WORDS:
        message = pattern.sub(replacement, message)
    return message


def run(
    argv: Sequence[str] | None = None,
    *,
    stdin: Any = None,
    stdout: Any = None,
    stderr: Any = None,
) -> int:
    """Run the program; return the exit status (argparse exits with 2 itself)."""
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in TOP_LEVEL_FLAGS):
        argv = ["example", *argv]  # no command: the built-in example
    args = parser.parse_args(argv)
    check_usage(parser, args)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            text = _produce(args, stdin)
        for message in dict.fromkeys(_one_line(w.message) for w in caught):
            _say(stderr, "warning", in_option_words(message))  # each one once
        write_output(text, args.output, force=args.force, stdout=stdout)
    except (DataError, ValueError, TypeError, OverflowError) as exc:
        _say(stderr, "error", in_option_words(_one_line(exc)))
        return 1
    return 0


def _say(stderr: Any, kind: str, message: str) -> None:
    """One line on standard error (nothing when standard error is closed too)."""
    try:
        stderr.write(f"{PROG}: {kind}: {message}\n")
        stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _produce(args: argparse.Namespace, stdin: Any) -> str:
    if args.command == "example":
        from ._example import format_example, run_example

        example = run_example()
        if args.format == "text":
            return format_example(example, digits=max(args.digits, 4))
        if args.format == "csv":
            return example_csv(example)
        document = example_dict(example)
    else:
        score = score_predictions if args.command == "score" else score_matrix
        scored = score(args, stdin)
        if args.format == "text":
            return format_text(args.command, scored, digits=args.digits)
        if args.format == "csv":
            return format_csv(scored)
        document = result_dict(args.command, scored)
    return json.dumps(document, indent=2, allow_nan=False) + "\n"


def _silence(stream: Any) -> None:
    """Point a failed output stream at os.devnull, so that the interpreter's
    final flush does not fail again (and print a traceback) at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Console-script entry point: ``macrof1``."""
    try:
        return run(argv)
    except KeyboardInterrupt:
        _say(sys.stderr, "error", "interrupted")
        return 130
    except BrokenPipeError:
        # stdout closed early (e.g. piped to `head`): not an error of ours
        _silence(sys.stdout)
        return 0
    except MemoryError:
        _say(sys.stderr, "error", "not enough memory for this input")
        return 1
    except Exception as exc:  # never a traceback: one line, and a non-zero status
        _say(
            sys.stderr,
            "error",
            f"unexpected {type(exc).__name__}: {_one_line(exc)} (this is a bug in "
            "sklearn-macrof1; please report it with the command that caused it)",
        )
        return 1
