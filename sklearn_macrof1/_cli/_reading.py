"""What ``macrof1 score`` reads, counted in chunks into one count record.

A table (CSV/TSV with a header, Parquet, Arrow IPC) or two files of one label
per line are read CHUNK_ROWS rows at a time; each chunk's cells are turned
into labels and counted by one public :class:`MacroF1Accumulator`, so memory
holds one chunk and what the count keeps (the classes, the distinct cells
seen), whatever the length of the input. With pyarrow installed (the
``arrow`` extra), its streaming readers read Parquet and Arrow IPC files, and
CSV/TSV files without quotes (``pyarrow.csv.open_csv``); otherwise, and for
every input that one of them does not read as the standard library's ``csv``
does, the standard library's ``csv`` reads the text. While the labels are
integers, the label columns of a CSV/TSV file without quotes are read as
int64 by pyarrow's reader or, a block of lines at a time, by NumPy's
``loadtxt`` (a block it cannot read so is read as text).

The cells of a label column are tokens (the stripped text of a cell, as a CSV
export of the table writes it). Their type is decided over the whole input,
as for one read of it: integers that int64 holds, else whole numbers when
every token is a number, else strings. Tokens are numbered as they first
appear; a chunk is counted as the labels of its tokens' numbers, and when a
later chunk changes the type of the tokens seen (a string after integers),
the input is read again from its start with the new type. Errors are kept,
the first of each kind, until the whole input has been read, and the first in
the order of the checks is raised, naming the line of the file (the row, for
Parquet and Arrow files), which is looked up by reading the input again.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import gc
import io
import itertools
import math
import operator
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from .._extras import install_hint

#: Rows read and counted at a time (of a table whose lines are its rows, a
#: block of 16 characters a row, to the end of a line); a test makes it
#: small to cross chunks.
CHUNK_ROWS = 1 << 16


class DataError(Exception):
    """A problem with the input data: exit status 1, one line on stderr."""


#: What ``score`` reads, for the messages about files it cannot read.
TABLE_FORMATS = (
    "UTF-8 text (a CSV/TSV table with a header, or one label per line) and, with "
    "pyarrow installed, Parquet and Arrow IPC (Feather) tables"
)
#: The first bytes of the columnar files the CLI reads, and their names.
COLUMNAR_MAGIC = {
    b"PAR1": "Parquet",
    b"ARROW1": "Arrow IPC",
    b"\xff\xff\xff\xff": "Arrow IPC stream",  # a message's continuation marker
    b"FEA1": "Feather",
}
_HEAD = 4096


# --------------------------------------------------------------------------
# Files and their text
# --------------------------------------------------------------------------


def source_name(path: str) -> str:
    return "standard input" if path == "-" else path


def columnar_format(head: bytes) -> str | None:
    """The columnar format whose magic bytes ``head`` starts with, else None."""
    for magic, name in COLUMNAR_MAGIC.items():
        if head.startswith(magic):
            return name
    return None


def columnar_file(path: str) -> str | None:
    """The columnar format of the file ``path`` (None: another file, or one
    that cannot be opened, which the text reader reports).

    Only a regular file is looked at: the bytes read from a pipe (a FIFO,
    ``<(...)`` in a shell) would be gone for the text reader. Text may start
    with the same letters ("PAR1,x" a header, "FEA1" a label): a columnar file
    also holds a NUL byte in its first bytes, or ends with its magic bytes.
    """
    if path == "-":
        return None
    try:
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            head = f.read(_HEAD)
            f.seek(max(os.fstat(f.fileno()).st_size - 8, 0))
            tail = f.read()
    except OSError:
        return None
    kind = columnar_format(head)
    ends = any(head.startswith(m) and tail.endswith(m) for m in COLUMNAR_MAGIC)
    return kind if b"\x00" in head or ends else None


def not_text(path: str, head: bytes, reads: str, reason: str | None = None) -> str:
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
    return f"{source_name(path)}: {what}; it reads {reads}"


class Text:
    """A UTF-8 text input that can be read again from its start: a file, or
    standard input copied to a temporary file as it is read (so that memory
    holds a block of it, never all of it)."""

    def __init__(self, path: str, stdin: Any = None, reads: str = TABLE_FORMATS):
        self.path = path
        self.source = source_name(path)
        self.reads = reads  # the formats the command reads, for its messages
        self._spool: Any = None
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin
            self._spool = _spooled(stream, path, reads)
        elif (
            os.path.exists(path)
            and not os.path.isfile(path)
            and not os.path.isdir(path)
        ):
            with self.open() as pipe:  # a named pipe is read once
                self._spool = _spooled(pipe, path, reads)
        else:
            with self.open() as f:  # the errors of a file that cannot be read
                head = self.read(f, _HEAD)
            raw = head.encode("utf-8", "surrogateescape")
            if b"\x00" in raw:
                raise DataError(not_text(path, raw, reads))

    def open(self) -> Any:
        """The text from its start (a byte-order mark skipped)."""
        if self._spool is not None:
            self._spool.seek(0)
            return _Unclosed(self._spool)
        try:
            return open(self.path, encoding="utf-8-sig", newline="")
        except FileNotFoundError:
            raise DataError(f"{self.path}: no such file") from None
        except IsADirectoryError:
            raise DataError(f"{self.path}: is a directory, not a file") from None
        except OSError as exc:
            raise DataError(f"{self.path}: cannot read ({exc.strerror})") from None

    @property
    def spooled(self) -> bool:
        """Read from a temporary copy (standard input, a named pipe)."""
        return self._spool is not None

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()

    def error(self, exc: Exception) -> DataError:
        """The data error of a failed read (not UTF-8, an I/O error)."""
        if isinstance(exc, UnicodeDecodeError):
            with open(self.path, "rb") as raw:
                head = raw.read(_HEAD)
            return DataError(not_text(self.path, head, self.reads, exc.reason))
        return DataError(f"{self.path}: cannot read ({getattr(exc, 'strerror', exc)})")

    def read(self, f: Any, size: int = -1) -> str:
        try:
            return f.read(size)
        except (UnicodeDecodeError, OSError) as exc:
            raise self.error(exc) from None

    def whole(self) -> str:
        """All the text (a confusion matrix: k rows)."""
        try:
            with self.open() as f:
                return self.read(f)
        finally:
            self.close()

    def drain(self, f: Any) -> None:
        """Read the rest of ``f``: a file that is not UTF-8 text further on is
        reported before a problem found earlier in it."""
        while self.read(f, 1 << 20):
            pass


def _spooled(stream: Any, path: str, reads: str) -> Any:
    """Standard input (or a named pipe) copied to a temporary file, block by
    block."""
    if stream is None:
        raise DataError("standard input is closed; give a file name instead of '-'")
    spool = tempfile.TemporaryFile(
        "w+", encoding="utf-8", errors="surrogateescape", newline=""
    )
    first = True
    try:
        while True:
            block = stream.read(1 << 20)
            if not block:
                break
            if first:
                block = block.removeprefix("\ufeff")
                raw = block[:_HEAD].encode("utf-8", "surrogateescape")
                if b"\x00" in raw:
                    raise DataError(not_text(path, raw, reads))
                first = False
            spool.write(block)
    except UnicodeDecodeError as exc:
        head = exc.object[:_HEAD] if isinstance(exc.object, bytes) else b""
        raise DataError(not_text(path, head, reads, exc.reason)) from None
    except (OSError, ValueError) as exc:  # a closed or unreadable descriptor
        if path != "-":
            raise DataError(f"{path}: cannot read ({exc})") from None
        raise DataError(f"cannot read standard input ({exc})") from None
    return spool


class _Unclosed:
    """The spooled standard input as a context manager that leaves it open."""

    def __init__(self, f: Any) -> None:
        self.f = f

    def __enter__(self) -> Any:
        return self.f

    def __exit__(self, *exc: object) -> None:
        pass


def choose_delimiter(header: str, path: str, delimiter: str | None) -> str:
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
    if "\t" in header and "," not in header:
        return "\t"
    if ";" in header and "," not in header and "\t" not in header:
        return ";"
    return ","


def column_index(header: Sequence[str], name: str, *, source: str) -> int:
    """The position of column ``name`` in ``header`` (present and unique)."""
    if name not in header:
        shown = ", ".join(repr(h) for h in header)
        raise DataError(f"{source}: no column {name!r} (columns: {shown})")
    if list(header).count(name) > 1:
        raise DataError(f"{source}: column name {name!r} is not unique")
    return list(header).index(name)


#: Where a problem is, in its message: "on line N" (the row, for Parquet and
#: Arrow files), and "line N" (a text table's own line).
WHERE, LINE = "\x00where\x00", "\x00line\x00"


class Problems:
    """The first problem of each kind found while reading, raised at the end
    in the order of the checks (``key``), located then (``row``: the data row,
    counted from 0, or None for a problem of the input as a whole)."""

    def __init__(self) -> None:
        self.found: dict[tuple[int, ...], tuple[int | None, str]] = {}

    def add(self, key: tuple[int, ...], row: int | None, message: str) -> None:
        earlier = self.found.get(key)
        if earlier is None or (row is not None and row < (earlier[0] or 0)):
            self.found[key] = (row, message)

    def raise_first(self, where: Callable[[int], str]) -> None:
        if self.found:
            row, message = self.found[min(self.found)]
            if row is not None:
                at = where(row)
                message = message.replace(WHERE, at).replace(LINE, at[3:])
            raise DataError(message)


#: The order of the checks: the problems of each kind outrank those after.
WIDTH, COLUMN, WEIGHT, EMPTY, CONTINUOUS, SETS, OPTION, COUNTING = range(8)


# --------------------------------------------------------------------------
# Sources: chunks of the columns read
# --------------------------------------------------------------------------


class TextTable:
    """A CSV/TSV table with a header, read by the standard library's csv (or,
    where it reads the same, by pyarrow's streaming CSV reader)."""

    def __init__(self, text: Text, delimiter: str | None, wanted: Sequence[str]):
        self.text = text
        self.source = text.source
        with text.open() as f:
            first = text.read(f, _HEAD * 16).split("\n", 1)[0]
            try:
                self.delimiter = choose_delimiter(first, text.path, delimiter)
            except DataError:
                text.drain(f)
                raise
        header: list[str] | None = None
        self.header_lines = 0
        with text.open() as f:
            reader = self._reader(f)
            with self._guarded(f):
                for row in reader:
                    if row and any(cell.strip() for cell in row):
                        header = [name.strip() for name in row]
                        self.header_lines = reader.line_num
                        break
                else:
                    raise DataError(f"{self.source}: empty input (no header line)")
        self.header: list[str] = header
        self.wanted = list(wanted)
        self.width = len(header)
        self.arrow_csv = True  # pyarrow's reader, where it reads the same
        self.used_arrow = False
        # the label columns that may be read as int64 (while their labels
        # are integers), and whether pyarrow's reader may read them so
        self.integers: set[str] = set()
        self.arrow_integers = True

    def _reader(self, f: Any) -> Any:
        return csv.reader(f, delimiter=self.delimiter)

    @functools.cached_property
    def plain(self) -> bool:
        """Whether each line is a row, its cells between delimiters: text
        without quotes or carriage returns, its header on line 1."""
        return self.header_lines == 1 and not {'"', "\r"} & self._found

    @functools.cached_property
    def _found(self) -> set[str]:
        """Which of the characters that decide how the text is read it holds:
        quotes and carriage returns (a line is not always a row), and ``x``
        or ``X`` (pyarrow reads "0x10" as an integer, Python as text)."""
        found = set()
        with self.text.open() as f:
            for block in iter(lambda: self.text.read(f, 1 << 22), ""):
                found |= {c for c in '"\rxX' if c in block}
        return found

    @contextlib.contextmanager
    def _guarded(self, f: Any) -> Iterator[None]:
        """The read errors of ``f`` as data errors (the rest of the file read
        for a decoding error first)."""
        try:
            yield
        except csv.Error as exc:
            self.text.drain(f)
            raise DataError(f"{self.source}: not a readable table ({exc})") from None
        except (UnicodeDecodeError, OSError) as exc:
            raise self.text.error(exc) from None

    def chunks(self, problems: Problems) -> Iterator[tuple[int, dict[str, Any]]]:
        index = {n: self.header.index(n) for n in self.wanted if n in self.header}
        arrow = _arrow_csv(self, index) if self.arrow_csv else None
        self.used_arrow = arrow is not None
        if arrow is not None:
            yield from arrow
            return
        plain = self.plain
        d, w = self.delimiter, self.width
        with self.text.open() as f, self._guarded(f), _no_gc():
            reader = self._reader(f)
            for row in reader:  # to the header
                if row and any(cell.strip() for cell in row):
                    break
            start = 0
            while True:
                if plain:  # each line a row: integers, else split, unless a
                    # line is not a row (the csv module then reads the lines)
                    block = self.text.read(f, CHUNK_ROWS * 16) + f.readline()
                    if not block:
                        break
                    numbers = None
                    if index and self.integers.issuperset(index):
                        numbers = _integer_columns(block, d, w, index)
                    if numbers is not None:
                        yield start, numbers
                        start += len(numbers[next(iter(index))])
                        continue
                    lines = block.split("\n")
                    if lines[-1] == "":
                        lines.pop()
                    if set(map(operator.methodcaller("count", d), lines)) == {w - 1}:
                        cells = block.replace("\n", d).split(d)
                        n = len(lines) * w
                        columns = {c: cells[i:n:w] for c, i in index.items()}
                        if not _blank(columns):
                            yield start, columns
                            start += len(lines)
                            continue
                    rows = list(self._reader(lines))
                else:
                    rows = list(itertools.islice(reader, CHUNK_ROWS))
                    if not rows:
                        break
                columns = _columns(rows, index)
                if set(map(len, rows)) != {w} or _blank(columns):
                    rows = self._cleaned(rows, start, problems)
                    if not rows:
                        continue
                    columns = _columns(rows, index)
                yield start, columns
                start += len(rows)
        if start == 0:
            raise DataError(f"{self.source}: empty input (a header but no rows)")

    def _cleaned(self, rows: list, start: int, problems: Problems) -> list:
        """The data rows of ``rows`` (rows of blank cells skipped), each of the
        header's width (a row of another width is a problem, padded)."""
        kept: list[list[str]] = []
        for row in rows:
            if not row or not any(cell.strip() for cell in row):
                continue
            if len(row) != self.width:
                n = len(row)
                problems.add(
                    (WIDTH,),
                    start + len(kept),
                    f"{self.source}: {LINE} has {n} field(s), the header has "
                    f"{self.width}",
                )
                row = (row + [""] * self.width)[: self.width]
            kept.append(row)
        return kept

    def where(self, row: int) -> str:
        """The line of the file where data row ``row`` starts (read again)."""
        with self.text.open() as f:
            reader = self._reader(f)
            start, index = 1, -2  # the header is row -1
            with self._guarded(f):
                for cells in reader:
                    if cells and any(cell.strip() for cell in cells):
                        index += 1
                        if index == row:
                            return f"on line {start}"
                    start = reader.line_num + 1
        raise AssertionError("no such row")  # pragma: no cover


def _integer_columns(
    block: str, delimiter: str, width: int, index: dict[str, int]
) -> dict[str, np.ndarray] | None:
    """The columns ``index`` of ``block`` (lines of a plain table) as int64,
    when each line has the header's width and each of their cells is an
    integer that int64 holds (NumPy's parser accepts a subset of what
    ``int(cell.strip())`` accepts, and reads it as that does); None
    otherwise (a blank cell or line, another type), and the block is read as
    text. A space delimiter is left to the text reader (NumPy's parser strips
    spaces around a cell)."""
    if not delimiter.isascii() or (delimiter.isspace() and delimiter != "\t"):
        return None
    data = np.frombuffer(block.encode("utf-8", "surrogatepass"), np.uint8)
    ends = np.flatnonzero(data == ord("\n"))
    if not block.endswith("\n"):
        ends = np.append(ends, len(data) - 1)
    if (np.diff(ends, prepend=-1) < 2).any():  # a blank line
        return None
    delimiters = np.cumsum(data == ord(delimiter))[ends]
    if (np.diff(delimiters, prepend=0) != width - 1).any():
        return None
    used = sorted(set(index.values()))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (a block of no rows, ...)
            values = np.loadtxt(
                io.StringIO(block),
                dtype=np.int64,
                delimiter=delimiter,
                comments=None,
                quotechar=None,
                usecols=used,
                ndmin=2,
            )
    except (ValueError, Warning):
        return None
    if len(values) != len(ends):  # blank lines, which NumPy skips
        return None
    return {name: values[:, used.index(i)] for name, i in index.items()}


def _columns(rows: list, index: dict[str, int]) -> dict[str, list[str]]:
    """The columns ``index`` of ``rows`` (short rows: blank cells)."""
    try:
        return {n: list(map(operator.itemgetter(i), rows)) for n, i in index.items()}
    except IndexError:  # a row of another width: a problem, padded later
        return {n: [r[i] if i < len(r) else "" for r in rows] for n, i in index.items()}


def _blank(columns: dict[str, list[str]]) -> bool:
    """Whether a column read has a blank cell (a row of blank cells is
    skipped, unlike a blank label)."""
    return any(
        "" in column or any(map(str.isspace, column)) for column in columns.values()
    )


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """No garbage collection while rows are read: the lists of cells made
    would trigger it every few thousand rows, over the chunks kept (5x the
    time of the parsing itself)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Fallback(Exception):
    """pyarrow's reader does not read this file as the standard library's csv
    does: read it with the standard library's."""


class _NotIntegers(Exception):
    """pyarrow's reader could not read the label columns as integers (another
    type, a blank cell, a row of another width): read them as text."""


def arrow() -> Any:
    """pyarrow, or None when it is not installed (the ``arrow`` extra)."""
    try:
        import pyarrow
        import pyarrow.compute
    except ImportError:
        return None
    return pyarrow


def _arrow_csv(table: TextTable, index: dict[str, int]) -> Any:
    """pyarrow's streaming CSV reader of the columns ``index``, where it reads
    what the standard library reads: a file (not standard input) without
    quotes or carriage returns, its header on line 1. Else None."""
    pa = arrow()
    if pa is None or not index or table.text.spooled or not table.plain:
        return None
    return _arrow_csv_chunks(table, index, pa)


def _arrow_csv_chunks(
    table: TextTable, index: dict[str, int], pa: Any
) -> Iterator[tuple[int, dict[str, Any]]]:
    import pyarrow.csv as pcsv

    names = [f"c{i}" for i in range(table.width)]
    include = sorted(set(index.values()))
    types = {names[i]: pa.string() for i in include}
    if table.arrow_integers and not {"x", "X"} & table._found:
        text = {i for n, i in index.items() if n not in table.integers}
        types.update({names[i]: pa.int64() for i in set(include) - text})
    options = {
        "read_options": pcsv.ReadOptions(
            skip_rows=1, column_names=names, block_size=CHUNK_ROWS * 64
        ),
        "parse_options": pcsv.ParseOptions(delimiter=table.delimiter),
        "convert_options": pcsv.ConvertOptions(
            include_columns=[names[i] for i in include],
            column_types=types,
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            null_values=[],
        ),
    }
    integers = pa.int64() in types.values()
    start = 0
    try:
        with pcsv.open_csv(table.text.path, **options) as reader:
            for batch in reader:
                if batch.num_rows == 0:
                    continue
                columns = {n: batch.column(names[i]) for n, i in index.items()}
                for n, column in columns.items():
                    if pa.types.is_integer(column.type):
                        columns[n] = column.to_numpy()
                    elif (
                        pa.compute.any(pa.compute.utf8_is_space(column)).as_py()
                        or pa.compute.any(pa.compute.equal(column, "")).as_py()
                    ):
                        raise _Fallback  # blank cells: a row of them is skipped
                yield start, columns
                start += batch.num_rows
    except pa.ArrowException:
        raise _NotIntegers if integers else _Fallback from None
    if start == 0:
        raise _Fallback


class LinePair:
    """Two text files of one label per line (true, then predicted), read side
    by side; the shorter is read as blank lines past its end."""

    def __init__(self, texts: Sequence[Text]) -> None:
        self.texts = texts
        self.source = texts[0].source
        self.wanted = ["true", "pred"]

    def chunks(self, problems: Problems) -> Iterator[tuple[int, dict[str, Any]]]:
        with self.texts[0].open() as f0, self.texts[1].open() as f1:
            lines = [_lines(t, f) for t, f in zip(self.texts, (f0, f1), strict=True)]
            start = 0
            while True:
                true, pred = (list(itertools.islice(it, CHUNK_ROWS)) for it in lines)
                if not true and not pred:
                    break
                n = max(len(true), len(pred))
                true += [""] * (n - len(true))
                pred += [""] * (n - len(pred))
                yield start, {"true": true, "pred": pred}
                start += n

    def where(self, row: int) -> str:
        return f"on line {row + 1}"


def _lines(text: Text, f: Any) -> Iterator[str]:
    """The lines of ``f`` as ``str.splitlines`` splits the whole text."""
    carry = ""
    while True:
        block = text.read(f, 1 << 20)
        if not block:
            break
        pieces = (carry + block).splitlines(keepends=True)
        carry = pieces.pop()
        yield from pieces
    if carry:
        yield carry


class ArrowTable:
    """A Parquet or Arrow IPC (Feather) file, read in record batches by
    pyarrow: only the columns asked for, each cell as the table's CSV export
    writes it (``1``, ``1.0``, ``True``; a null is an empty cell)."""

    def __init__(self, path: str, kind: str, wanted: Sequence[str]) -> None:
        pa = arrow()
        if pa is None:  # the arrow extra is not installed
            raise DataError(
                f"{path}: a {kind} file; reading it needs pyarrow, which is not "
                f"installed: {install_hint('pyarrow')}. Without pyarrow, macrof1 reads "
                "UTF-8 text (a CSV/TSV table with a header, or one label per line)"
            )
        self.pa = pa
        self.path = self.source = path
        self.kind = kind
        self.wanted = list(dict.fromkeys(wanted))
        if kind == "Parquet":
            with self._reading():
                import pyarrow.parquet as pq

                self.header = list(pq.ParquetFile(path).schema_arrow.names)
            for name in self.wanted:  # only the columns asked for are read
                column_index(self.header, name, source=path)
        else:
            self.header = list(self._schema().names)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """Arrow's errors while reading as data errors naming the file."""
        try:
            yield
        except (self.pa.ArrowException, OSError, ValueError) as exc:
            raise DataError(
                f"{self.path}: not a readable {self.kind} file ({exc})"
            ) from None

    def _schema(self) -> Any:
        with self._reading():
            return self._batches(None).schema

    def _batches(self, columns: list[str] | None) -> Any:
        """A reader of the record batches (``schema``, iteration)."""
        pa = self.pa
        if self.kind == "Parquet":
            import pyarrow.parquet as pq

            parquet = pq.ParquetFile(self.path)
            batches = parquet.iter_batches(batch_size=CHUNK_ROWS, columns=columns)
            return _Batches(parquet.schema_arrow, batches)
        source = pa.memory_map(self.path)
        if self.kind == "Arrow IPC stream":
            stream = pa.ipc.open_stream(source)
            return _Batches(stream.schema, stream)
        try:
            ipc = pa.ipc.open_file(source)
        except pa.ArrowInvalid:  # Feather version 1
            import pyarrow.feather as feather

            table = feather.read_table(self.path, memory_map=True)
            return _Batches(table.schema, table.to_batches(CHUNK_ROWS))
        return _Batches(
            ipc.schema, (ipc.get_batch(i) for i in range(ipc.num_record_batches))
        )

    def chunks(self, problems: Problems) -> Iterator[tuple[int, dict[str, Any]]]:
        present = [
            n for n in self.wanted if n in self.header and self.check_type(n) is None
        ]
        start = 0
        with self._reading():
            for batch in self._batches(present if self.kind == "Parquet" else None):
                if batch.num_rows == 0:
                    continue
                yield start, {n: batch.column(n) for n in present}
                start += batch.num_rows
        if start == 0:
            raise DataError(f"{self.path}: empty input (a header but no rows)")

    def check_type(self, name: str) -> str | None:
        """Why column ``name`` holds no labels (lists, structs, bytes), or None."""
        pa = self.pa
        kind = self._schema().field(name).type if self.kind != "Parquet" else None
        if kind is None:
            import pyarrow.parquet as pq

            kind = pq.ParquetFile(self.path).schema_arrow.field(name).type
        if pa.types.is_dictionary(kind):  # categorical: its values
            kind = kind.value_type
        if (
            pa.types.is_nested(kind)
            or pa.types.is_binary(kind)
            or pa.types.is_large_binary(kind)
            or pa.types.is_fixed_size_binary(kind)
        ):
            return (
                f"{self.path}, column {name!r} holds {kind} values; label columns "
                "hold one value per row (numbers, strings or booleans). For label "
                "sets, store one delimited string per row and pass --label-sep, or "
                "0/1 indicator columns"
            )
        return None

    def where(self, row: int) -> str:
        return f"in row {row + 1}"


class _Batches:
    def __init__(self, schema: Any, batches: Any) -> None:
        self.schema = schema
        self.batches = batches

    def __iter__(self) -> Iterator[Any]:
        return iter(self.batches)


# --------------------------------------------------------------------------
# Tokens and their labels
# --------------------------------------------------------------------------


class _Codes(dict):
    """Raw cell → the number of its token (the stripped cell), tokens
    numbered as first seen; a new cell is numbered where it is looked up."""

    def __init__(self) -> None:
        super().__init__()
        self.tokens: list[str] = []
        self.of: dict[str, int] = {}

    def __missing__(self, raw: str) -> int:
        token = raw.strip()
        code = self.of.get(token)
        if code is None:
            code = self.of[token] = len(self.tokens)
            self.tokens.append(token)
        self[raw] = code
        return code

    def encode(self, column: Any) -> np.ndarray:
        """The token numbers of a column: text cells, or a pyarrow array whose
        values are written as a CSV export writes them (a null is blank)."""
        if isinstance(column, list | tuple):
            return np.fromiter(map(self.__getitem__, column), np.int64, len(column))
        if isinstance(column, np.ndarray):  # int64, read as numbers
            return self._encode_integers(column)
        pa = arrow()
        encoded = (
            column
            if pa.types.is_dictionary(column.type)
            else column.dictionary_encode()
        )
        values = encoded.dictionary.to_pylist()
        local = [self["" if v is None else str(v)] for v in values]
        indices = encoded.indices
        if indices.null_count:
            local.append(self[""])
            indices = indices.fill_null(len(values))
        return np.asarray(local, dtype=np.int64)[indices.to_numpy()]

    def _encode_integers(self, column: np.ndarray) -> np.ndarray:
        """The token numbers of int64 labels, each written as ``str`` writes
        it (the tokens of labels read as integers are not shown: a chunk that
        makes them text reads the input again, as text)."""
        if len(column) == 0:
            return np.zeros(0, np.int64)
        low, high = int(column.min()), int(column.max())
        if high - low > 4 * len(column):  # few labels over a wide range
            values, inverse = np.unique(column, return_inverse=True)
            local = [self[str(v)] for v in values.tolist()]
            return np.asarray(local, dtype=np.int64)[inverse]
        offsets = column - low
        seen = np.zeros(high - low + 1, bool)
        seen[offsets] = True
        (present,) = np.nonzero(seen)
        codes = np.zeros(len(seen), np.int64)
        codes[present] = [self[str(v + low)] for v in present.tolist()]
        return codes[offsets]


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


def float_or_none(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


class LabelTypes:
    """The type of the labels of a set of tokens, kept as tokens are added:
    integers (that int64 holds) if every token is one; else, when every token
    is a number, floats that must be whole and finite (others are continuous
    values); else strings (integers beyond int64 included: identifiers)."""

    def __init__(self) -> None:
        self.not_int64 = self.not_int = self.not_number = 0
        self.continuous: list[int] = []  # numbers that are not whole and finite
        self.seen = 0
        self._values: tuple[str, np.ndarray] = ("", np.zeros(0))

    def add(self, tokens: list[str]) -> None:
        for code in range(self.seen, len(tokens)):
            token = tokens[code]
            if token == "":  # a blank cell: a problem of its own
                continue
            if not _is_int64(token):
                self.not_int64 += 1
                self.not_int += not _is_int(token)
                x = float_or_none(token)
                if x is None:
                    self.not_number += 1
                elif not (math.isfinite(x) and x == math.trunc(x)):
                    self.continuous.append(code)
        self.seen = len(tokens)

    @property
    def kind(self) -> str:
        if self.not_int64 == 0:
            return "int"
        if self.not_int > 0 and self.not_number == 0:
            return "float"
        return "str"

    def values(self, tokens: list[str], kind: str) -> np.ndarray:
        """The label of each token (a blank or continuous token: a placeholder,
        never counted); the labels of the tokens added since the last call
        are made, the others kept."""
        made, values = self._values
        if made != kind:
            values = _typed([], kind)
        if len(values) < len(tokens):
            values = np.concatenate([values, _typed(tokens[len(values) :], kind)])
        self._values = (kind, values)
        return values


def _typed(tokens: list[str], kind: str) -> np.ndarray:
    if kind == "int":
        return np.array([int(t) if t else 0 for t in tokens], dtype=np.int64)
    if kind == "float":
        return np.array([float_or_none(t) or 0.0 for t in tokens], dtype=np.float64)
    return np.array(tokens, dtype=str)


_TRUE_WORDS = {"1", "true", "yes", "y", "t", "1.0"}
_FALSE_WORDS = {"0", "false", "no", "n", "f", "0.0", ""}


def _indicator(token: str) -> int:
    low = token.lower()
    return 1 if low in _TRUE_WORDS else 0 if low in _FALSE_WORDS else -1


def _numbers(column: Any) -> tuple[np.ndarray, int | None, str]:
    """A weight column as float64, and the first cell that is not a finite
    number (its index and text; None: every cell is one), as the line of the
    file names it (NaN and infinity too, which the weights' check would
    refuse without naming the line)."""
    if not isinstance(column, list | tuple):
        pa = arrow()
        kind = column.type
        if (pa.types.is_integer(kind) or pa.types.is_floating(kind)) and (
            column.null_count == 0
        ):
            out = column.to_numpy(zero_copy_only=False).astype(np.float64)
            return (out, *_first_not_finite(out))
        column = ["" if v is None else str(v) for v in column.to_pylist()]
    try:
        out = np.fromiter(map(float, column), np.float64, len(column))
    except ValueError:  # a cell that is not a number: the first, of any kind
        out = np.zeros(len(column))
        for i, cell in enumerate(column):
            x = float_or_none(cell)
            if x is None or not math.isfinite(x):
                return out, i, cell.strip()
            out[i] = x
    bad, _ = _first_not_finite(out)
    return out, bad, "" if bad is None else str(column[bad]).strip()


def _first_not_finite(values: np.ndarray) -> tuple[int | None, str]:
    """The index and text of the first value that is not finite (None, "")."""
    finite = np.isfinite(values)
    if finite.all():
        return None, ""
    bad = int(np.argmin(finite))
    return bad, str(values[bad])


# --------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------


class _Restart(Exception):
    """A chunk changed the type of the labels: count again from the start."""


class Read:
    """What ``score`` read: the count record, the multilabel names (None for
    1-D labels), labels of the type read (for --labels), the input described."""

    def __init__(
        self, counts: Any, names: list[str] | None, known: np.ndarray, described: dict
    ) -> None:
        self.counts = counts
        self.names = names
        self.known = known
        self.input = described


def read_predictions(
    args: Any,
    stdin: Any,
    columns: Callable[[list[str] | None], Any],
    check: Callable[[np.ndarray, list[str] | None], Any],
    keep: str,
) -> Read:
    """Read and count the input of ``score`` once (``columns(names)``: the
    multilabel columns to count, from their names; ``check(known, names)``:
    the options' data errors, raised after those of the input; ``keep``: what
    the count record keeps)."""
    files = args.files
    if files.count("-") > 1:
        raise DataError("only one input can be standard input ('-')")
    source: TextTable | LinePair | ArrowTable
    if len(files) == 2:
        for path in files:
            kind = columnar_file(path)
            if kind is not None:
                raise DataError(
                    f"{path}: a {kind} file; a table is read as one FILE with "
                    "--true COL and --pred COL (two FILEs are text files, one "
                    "label per line)"
                )
        source = LinePair([Text(p, stdin) for p in files])
        true, pred = ["true"], ["pred"]
        what = (source_name(files[0]), source_name(files[1]))
        described: dict[str, Any] = {"form": "lines", "sources": list(files)}
    else:
        path = files[0]
        true, pred = list(args.true), list(args.pred)
        wanted = [*true, *pred]
        if args.sample_weight is not None:
            wanted.append(args.sample_weight)
        kind = columnar_file(path)
        if kind is not None:
            source = ArrowTable(path, kind, wanted)
        else:
            source = TextTable(Text(path, stdin), args.delimiter, wanted)
        name = source_name(path)
        shown = [", ".join(repr(c) for c in cols) for cols in (true, pred)]
        plural = "columns" if len(true) > 1 else "column"
        what = (f"{name}, {plural} {shown[0]}", f"{name}, {plural} {shown[1]}")
        described = {
            "form": "table",
            "sources": [path],
            "delimiter": getattr(source, "delimiter", None),
            "true": true,
            "pred": pred,
            "sample_weight": args.sample_weight,
        }
    if len(true) != len(pred):
        raise DataError(
            f"indicator columns pair up: got {len(true)} --true and "
            f"{len(pred)} --pred columns"
        )
    counter = _Counter(source, true, pred, args, what, columns, check, keep)
    try:
        read = counter.run()
    finally:
        for text in getattr(source, "texts", [getattr(source, "text", None)]):
            if text is not None:
                text.close()
    described["label_sep"] = args.label_sep  # None with indicator columns
    described["n_samples"] = counter.n_samples
    read.input = {**described, **read.input}
    if counter.disjoint():
        advice = (
            "check that --true and --pred name the columns meant"
            if described["form"] == "table"
            else "check that both files hold labels of the same classes, written alike"
        )
        warnings.warn(
            f"the true labels ({what[0]}) and the predicted labels ({what[1]}) "
            f"have no value in common, so no prediction is right: {advice}.",
            UserWarning,
            stacklevel=2,
        )
    return read


class _Counter:
    """One count of a source's chunks into a MacroF1Accumulator (read again
    from the start when a chunk changes the type of the labels)."""

    def __init__(
        self,
        source: Any,
        true: list[str],
        pred: list[str],
        args: Any,
        what: tuple[str, str],
        columns: Callable[[list[str] | None], Any],
        check: Callable[[np.ndarray, list[str] | None], Any],
        keep: str,
    ) -> None:
        self.source = source
        self.true, self.pred = true, pred
        self.weight = getattr(args, "sample_weight", None)
        self.sep = args.label_sep
        self.what = what
        self.columns = columns
        self.check = check
        self.keep = keep
        self.lines = isinstance(source, LinePair)
        self.mode = "sets" if self.sep is not None else "1d"
        if len(true) > 1:
            self.mode = "indicators"
        self.codes = _Codes()
        self.types = LabelTypes()
        self.names: list[str] | None = list(true) if self.mode == "indicators" else None
        self.n_samples = 0

    # -- the passes ------------------------------------------------------
    def run(self) -> Read:
        while True:
            try:
                if self.mode == "sets":
                    self._pass(count=False)
                    self._set_names()
                return self._pass(count=True)
            except _Restart:
                continue
            except _Fallback:
                self.source.arrow_csv = False
            except _NotIntegers:
                self.source.arrow_integers = False

    def _column_problems(self, problems: Problems) -> None:
        """The columns that are missing, repeated, or hold no labels."""
        header = getattr(self.source, "header", None)
        if header is None:
            return
        names = [*self.true, *self.pred]
        keys: list[tuple[int, ...]] = [(COLUMN, j) for j in range(len(names))]
        if self.weight is not None:
            names.append(self.weight)
            keys.append((WEIGHT,))
        for name, key in zip(names, keys, strict=True):
            try:
                column_index(header, name, source=self.source.source)
                why = None
                if isinstance(self.source, ArrowTable):
                    why = self.source.check_type(name)
                if why is not None:
                    raise DataError(why)
            except DataError as exc:
                problems.add(key, None, str(exc))

    def _pass(self, *, count: bool) -> Read:
        problems = Problems()
        self._column_problems(problems)
        accumulator = None
        if count:
            from .. import MacroF1Accumulator

            try:
                columns = self.columns(self.names)
            except DataError as exc:  # --labels: after the problems of the data
                problems.add((OPTION,), None, str(exc))
                columns = None
            accumulator = MacroF1Accumulator(labels=columns, keep=self.keep)
        self.state: dict[str, Any] = {
            "kind": self.types.kind,
            "counted": 0,
            "held_back": False,  # a chunk of continuous values, not counted
            "integers": False,  # a chunk read as int64
            "blank": [None, None],
            "last": [-1, -1],
            "present": [np.zeros(0, bool), np.zeros(0, bool)],
        }
        self.source.integers = set()
        if self.mode == "1d" and self.types.kind == "int":
            self.source.integers = {*self.true, *self.pred} - {self.weight}
        for start, chunk in self.source.chunks(problems):
            self._chunk(start, chunk, problems, accumulator)
        if problems.found and getattr(self.source, "used_arrow", False):
            raise _Fallback  # the lines of the problems: the csv module's
        self._finish(problems)
        if self.mode == "1d":
            known = self.types.values([], self.state["kind"])
        else:
            known = np.zeros(0, np.int64)
        if accumulator is not None:
            try:  # the options, after the data and before the counting
                self.check(known, self.names)
            except DataError as exc:
                problems.add((OPTION,), None, str(exc))
        problems.raise_first(self.source.where)
        if accumulator is None:
            return None  # type: ignore[return-value]
        try:
            counts = accumulator.counts
        except ValueError as exc:
            raise DataError(str(exc)) from None
        return Read(counts, self.names, known, {})

    # -- a chunk ---------------------------------------------------------
    def _chunk(
        self, start: int, chunk: dict[str, Any], problems: Problems, accumulator: Any
    ) -> None:
        codes = {
            name: self.codes.encode(column)
            for name, column in chunk.items()
            if name != self.weight or name in (*self.true, *self.pred)
        }
        if any(isinstance(column, np.ndarray) for column in chunk.values()):
            self.state["integers"] = True
        weights = None
        if self.weight is not None and self.weight in chunk:
            weights, bad, cell = _numbers(chunk[self.weight])
            if bad is not None:
                what = f"{self.source.source}, column {self.weight!r}"
                problems.add(
                    (WEIGHT,),
                    start + bad,
                    f"{what}: the value {WHERE} is not a finite number ({cell!r})",
                )
        if self.mode == "1d":
            y = self._labels(start, codes, problems)
        elif self.mode == "indicators":
            y = self._indicators(start, codes, problems)
        else:
            y = self._sets(start, codes)
        if accumulator is None or y is None or problems.found:
            return
        y_true, y_pred, keep = y
        if keep is not None:
            y_true, y_pred = y_true[keep], y_pred[keep]
            weights = None if weights is None else weights[keep]
        try:
            accumulator.update(y_true, y_pred, sample_weight=weights)
        except (ValueError, TypeError) as exc:
            problems.add((COUNTING,), None, str(exc))
            return
        self.state["counted"] += len(y_true)
        self.n_samples = self.state["counted"]

    def _labels(self, start: int, codes: dict, problems: Problems) -> Any:
        self.types.add(self.codes.tokens)
        state = self.state
        kind = self.types.kind
        if kind != state["kind"]:
            self.source.integers = set()  # the next chunks: text
            if state["counted"] or state["held_back"] or state["integers"]:
                raise _Restart  # chunks counted, or left out, or read as another type
            state["kind"] = kind
        blank = self.codes.of.get("")
        columns: list[np.ndarray | None] = [
            codes.get(self.true[0]),
            codes.get(self.pred[0]),
        ]
        present = state["present"]
        k = len(self.codes.tokens)
        keep = None
        for j, c in enumerate(columns):
            if c is None:
                continue
            if len(present[j]) < k:
                present[j] = np.concatenate(
                    [present[j], np.zeros(k - len(present[j]), bool)]
                )
            self._last_label(j, start, c, blank)
            if blank is not None:
                is_blank = c == blank
                blanks = np.flatnonzero(is_blank)
                if blanks.size:
                    if state["blank"][j] is None:
                        state["blank"][j] = start + int(blanks[0])
                    keep = ~is_blank if keep is None else keep & ~is_blank
        t, p = columns
        if t is None or p is None:
            return None
        if kind == "float" and self.types.continuous:
            # continuous values: a problem, unless strings follow (then this
            # chunk is counted when the input is read again as strings)
            state["held_back"] = True
            return None
        values = self.types.values(self.codes.tokens, kind)
        y_true, y_pred = values[t], values[p]
        if keep is not None:
            t, p = t[keep], p[keep]
        present[0][t] = True
        present[1][p] = True
        return y_true, y_pred, keep

    def _indicators(self, start: int, codes: dict, problems: Problems) -> Any:
        table = np.array([_indicator(t) for t in self.codes.tokens], dtype=np.int8)
        columns: list[np.ndarray | None] = []
        for j, name in enumerate([*self.true, *self.pred]):
            c = codes.get(name)
            if c is None:
                columns.append(None)
                continue
            values = table[c]
            bad = np.flatnonzero(values < 0)
            if bad.size:
                cell = self.codes.tokens[c[bad[0]]]
                what = f"{self.source.source}, column {name!r}"
                problems.add(
                    (COLUMN, j),
                    start + int(bad[0]),
                    f"{what}: the value {WHERE} is {cell!r}; indicator columns "
                    "hold 0/1 (or true/false)",
                )
            columns.append(values)
        read = [c for c in columns if c is not None]
        if len(read) < len(columns):
            return None
        m = len(self.true)
        y_true, y_pred = np.column_stack(read[:m]), np.column_stack(read[m:])
        self._any(y_true, y_pred)
        return y_true, y_pred, None

    def _last_label(self, j: int, start: int, c: np.ndarray, blank: int | None) -> None:
        """Note the last row of a chunk (from ``start``) where column ``j``
        (token numbers ``c``) is not ``blank``."""
        filled = np.flatnonzero(c != blank) if blank is not None else None
        if filled is None:
            self.state["last"][j] = start + len(c) - 1
        elif filled.size:
            self.state["last"][j] = start + int(filled[-1])

    def _any(self, y_true: np.ndarray, y_pred: np.ndarray) -> None:
        present = self.state["present"]
        for j, y in enumerate((y_true, y_pred)):
            seen = y.any(axis=0)
            present[j] = seen if len(present[j]) == 0 else present[j] | seen

    def _sets(self, start: int, codes: dict) -> Any:
        columns: list[np.ndarray | None] = [
            codes.get(self.true[0]),
            codes.get(self.pred[0]),
        ]
        blank = self.codes.of.get("")
        for j, c in enumerate(columns):
            if c is not None:
                self._last_label(j, start, c, blank)
        t, p = columns
        if self.names is None or t is None or p is None:
            return None
        keep = None
        if self.lines:  # past the last label of both files: trailing blank lines
            keep = start + np.arange(len(t)) < self.n_lines
            if keep.all():
                keep = None
        y_true, y_pred = self.sets[t], self.sets[p]
        if keep is None:
            self._any(y_true, y_pred)
        else:
            self._any(y_true[keep], y_pred[keep])
        return y_true, y_pred, keep

    def _set_names(self) -> None:
        """The labels of the sets read, sorted (as numbers if all are
        integers), and each token's indicator row over them."""
        parts = [
            [p.strip() for p in token.split(self.sep) if p.strip()]
            for token in self.codes.tokens
        ]
        names = sorted({x for s in parts for x in s})
        if not names:
            raise DataError("the label sets are all empty: no labels to score")
        if all(_is_int(n) for n in names):
            # integers are labels by value: "05" and "5" name one label
            parts = [[str(int(x)) for x in s] for s in parts]
            names = [str(n) for n in sorted({int(n) for n in names})]
        index = {n: i for i, n in enumerate(names)}
        sets = np.zeros((len(parts), len(names)), dtype=np.int8)
        for row, s in enumerate(parts):
            sets[row, [index[x] for x in s]] = 1
        self.names, self.sets = names, sets
        self.n_lines = max(self.state["last"]) + 1

    # -- the end of a pass -------------------------------------------------
    def _finish(self, problems: Problems) -> None:
        state = self.state
        if self.lines:
            n = [last + 1 for last in state["last"]]
            for j in (0, 1):
                if n[j] == 0:
                    raise DataError(f"{self.what[j]}: empty input (no labels)")
            if n[0] != n[1]:
                raise DataError(
                    f"{self.what[0]} has {n[0]} labels, {self.what[1]} has {n[1]}"
                )
        if self.mode != "1d":
            return
        for j in (0, 1):
            first = state["blank"][j]
            if first is not None and (not self.lines or first < state["last"][j]):
                problems.add(
                    (EMPTY, j),
                    first,
                    f"{self.what[j]}: the value {WHERE} is empty (a label is "
                    "needed; for multilabel sets use --label-sep)",
                )
        if self.types.kind == "float" and self.types.continuous:
            bad = np.array(self.types.continuous)
            for j, name in enumerate((self.true[0], self.pred[0])):
                found = self._first_of(name, bad)
                if found is not None:
                    row, token = found
                    problems.add(
                        (CONTINUOUS, j),
                        row,
                        f"{self.what[j]}: the value {WHERE} is {token!r}: the "
                        "column holds continuous values, and classification "
                        "metrics need class labels (threshold scores or "
                        "probabilities into labels first)",
                    )
                    break

    def _first_of(self, name: str, codes: np.ndarray) -> tuple[int, str] | None:
        """The first data row of column ``name`` holding one of ``codes``, and
        its token (the input read again)."""
        for start, chunk in self.source.chunks(Problems()):
            if name in chunk:
                encoded = self.codes.encode(chunk[name])
                hit = np.flatnonzero(np.isin(encoded, codes))
                if hit.size:
                    return start + int(hit[0]), self.codes.tokens[encoded[hit[0]]]
        return None

    def disjoint(self) -> bool:
        """No label is both a true and a predicted label (of indicator
        columns: no column is set in both)."""
        present = self.state["present"]
        if self.mode != "1d":
            return not (present[0] & present[1]).any()
        values = self.types.values(self.codes.tokens, self.state["kind"])
        k = len(present[0])
        true = values[:k][present[0]]
        pred = values[: len(present[1])][present[1]]
        return np.intersect1d(true, pred).size == 0
