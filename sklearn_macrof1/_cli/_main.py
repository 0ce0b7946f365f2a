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
from .._options import INVALID, Cli, Option
from .._present._frame import render_csv, table_records
from .._present._gap import gap_headline
from .._present._intervals import interval_table
from .._present._summary import summary_tables
from .._present._table import Column, Table
from .._present._text import render_view
from ._reading import (
    DataError,
    Text,
    _is_int,
    _is_int64,
    float_or_none,
    read_predictions,
    source_name,
)

PROG = "macrof1"
SCHEMA_VERSION = 1
FORMATS = ("text", "json", "csv")
TOP_LEVEL_FLAGS = ("-h", "--help", "--version")


#: What ``matrix --file`` reads, for the messages about files it cannot read.
MATRIX_FORMATS = "UTF-8 text (CSV or whitespace-separated numbers) and .npy arrays"


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
    return float_or_none(text) is not None


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
    text = Text(path, stdin, reads=MATRIX_FORMATS).whole()
    return parse_matrix_text(text, source=source_name(path))


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
        numbers = [float_or_none(x) for x in items]
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
        if labels is not None and all(_is_int(n) for n in [*names, *labels]):
            labels = [str(int(x)) for x in labels]  # by value, as the sets' names
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
    """The ``score`` command: the input is read in chunks and counted once,
    into the record of a :class:`MacroF1Accumulator`, and the summary, the
    report and the intervals are the public verbs given that record."""

    def columns(names: list[str] | None) -> Any:
        """The multilabel columns counted: --labels, else every column."""
        if names is None:
            return None
        labels = _label_options(args, np.zeros(0), names)[0]
        return list(range(len(names))) if labels is None else labels

    # the second moments a delta-method interval of weighted or multilabel
    # targets needs, when --confidence asks for one
    keep = "moments" if args.confidence is not None else "cells"

    def check(known: np.ndarray, names: list[str] | None) -> None:
        """The options' errors, as the functions check them before counting:
        --labels and --pos-label of the type read, then the values the parser
        left for the functions to refuse (a beta whose square overflows)."""
        _label_options(args, known, names)
        for option in _options.OPTIONS:
            cli, value = option.cli, getattr(args, option.name, None)
            if cli is None or cli.kind is str or cli.choices or value is None:
                continue  # (text, read against the labels; words of a choice)
            if option.normalise(value) is INVALID:
                raise DataError(str(option.error(value, "fbeta_summary")))

    read = read_predictions(args, stdin, columns, check, keep)
    names = read.names
    labels, pos_label = _label_options(args, read.known, names)
    report_labels: Any = labels
    target_names = None
    if names is not None:  # the indicator columns scored, fixed when counted
        report_labels = columns(names)
        target_names = [names[i] for i in report_labels]
    scored = score_counts(
        args,
        read.counts,
        labels,
        pos_label,
        report_labels,
        target_names,
        read.input,
    )
    if names is not None:
        scored.names = [names[i] for i in scored.summary.labels]
        scored.json_labels = scored.names
    return scored


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
                f"{source_name(args.file)} ({file_names!r})"
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
        shown = ", ".join(source_name(p) for p in inp["sources"])
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
            pairs = gap_headline(s, scored.names)  # macro F1's are in the report
            if pairs:
                table.notes.append(pairs)
    tables = [table]
    if scored.interval is not None:
        interval = dataclasses.replace(interval_table(scored.interval), digits=wide)
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
        if normalised is INVALID and option.special is not None:
            if option.special(value, PROG) is not None:
                return value  # the functions refuse it with their own message
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
    (  # a matrix of non-integer counts (matrix --confidence)
        re.compile(
            r"The record's confusion matrix holds non-integer \(sample-weighted\) "
            r"counts; the interval needs the samples and their weights: use "
            r"\w+\(y_true, y_pred, sample_weight=\.\.\.\)\."
        ),
        "the matrix holds non-integer (sample-weighted) counts; the interval "
        "needs the samples and their weights: score the predictions with "
        "'macrof1 score FILE --sample-weight COL --confidence LEVEL'.",
    ),
    (  # CoverageWarning: the method that needs the samples, and its advice
        re.compile(r"\b(?:interval_)?method='(\w+)'"),
        lambda m: f"--interval-method {m[1]}",
    ),
    (
        re.compile(r"or pass labels without them"),
        "or pass --labels without them",
    ),
    (
        re.compile(
            r"sample_weight must contain at least one non-zero number; all (\d+) "
            r"weights are zero\."
        ),
        lambda m: f"the --sample-weight column holds only zeros ({m[1]} rows).",
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
        said = (in_option_words(_one_line(w.message)) for w in caught)
        for message in dict.fromkeys(said):  # each once, as the program says it
            _say(stderr, "warning", message)
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
