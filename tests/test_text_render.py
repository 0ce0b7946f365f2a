"""The text renderer of the table description: cells formatted column-wise
exactly as Python formats them, and the aligned text of tables and the report."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import classification_report as sklearn_report

# The renderer's units (the table description, the column-wise formatting and
# the text layout) have no public face of their own: every result reaches them.
import sklearn_macrof1._present._text as text_module
from sklearn_macrof1 import classification_report
from sklearn_macrof1._present._table import Column, Table, format_value
from sklearn_macrof1._present._text import format_fixed, render_text, text_cells

#: Halfway cases (exact binary ties and decimal ties that are not binary
#: ones), the ends of [0, 1], signed zeros and what is not a number.
ADVERSARIAL = [
    0.125, 0.375, 0.625, 0.285, 0.005, 0.015, 0.045, 0.0005, 0.995, 0.9995,
    0.5, 1.5, 2.5, 1e-17, 5e-324, 0.9999999999999999, 1.0, 0.0, -0.0, -0.125,
    -0.001, -0.5, 123456.785, 1e15, 1e16, 2.0**52, 2.0**53, 1e300, -1e300,
    float("nan"), float("inf"), -float("inf"),
]  # fmt: skip


def _python(values, digits):
    return [format(float(v), f".{digits}f") for v in values]


@pytest.mark.parametrize("digits", range(7))
def test_format_fixed_is_pythons_format_on_adversarial_floats(digits):
    values = np.array(ADVERSARIAL)
    assert format_fixed(values, digits).tolist() == _python(values, digits)
    # format_value differs only in -0.0 at digits=0 ("0"; Python's "-0")
    texts = format_fixed(values, digits).tolist()
    differ = [
        (v, text)
        for v, text in zip(ADVERSARIAL, texts, strict=True)
        if format_value(v, digits) != text
    ]
    assert differ == ([(-0.0, "-0")] if digits == 0 else [])


@pytest.mark.parametrize("digits", range(7))
def test_format_fixed_is_pythons_format_on_rates(digits):
    # every rate i/n for small n: the halfway cases a report meets
    rates = np.concatenate([np.arange(n + 1) / n for n in range(1, 300)])
    assert format_fixed(rates, digits).tolist() == _python(rates, digits)
    # (2i+1) / 2·10^d: the decimal ties of every digit (a lookup table of
    # the whole range, and, at 7 digits, a long range written out)
    ties = (np.arange(0, 10 ** min(digits, 4) + 1) + 0.5) / 10**digits
    assert format_fixed(ties, digits).tolist() == _python(ties, digits)
    spread = np.random.default_rng(digits).random(3000) * 10.0 ** (digits % 4)
    assert format_fixed(spread, digits).tolist() == _python(spread, digits)


@given(
    st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=20),
    st.one_of(st.integers(0, 17), st.just(400)),
)
def test_format_fixed_equals_pythons_format(values, digits):
    assert format_fixed(np.array(values), digits).tolist() == _python(values, digits)


def test_text_cells_of_integers_supports_and_fmt(monkeypatch):
    monkeypatch.setattr(text_module, "_COLUMN_WISE_ROWS", 1)
    table = Table("t", [], digits=3)
    ints = Column("n", np.array([0, -7, 12345678901]))
    assert text_cells(table, ints).tolist() == ["0", "-7", "12345678901"]
    whole = Column("s", np.array([1.0, 25.0]), fmt=str)
    assert text_cells(table, whole).tolist() == ["1.0", "25.0"]
    weights = Column("s", np.array([1.0, 2.5, 1e16, -0.0]), fmt=str)
    assert text_cells(table, weights).tolist() == ["1.0", "2.5", "1e+16", "-0.0"]
    mixed = Column("m", [None, 0.5, 3, "x"])
    assert text_cells(table, mixed).tolist() == ["", "0.500", "3", "x"]
    pct = Column("p", np.array([0.5, 0.25]), fmt=lambda v: f"{v:.0%}")
    assert text_cells(table, pct).tolist() == ["50%", "25%"]


def test_render_text_aligns_tables_as_one():
    first = Table(
        "ignored",
        [
            Column("a", np.array([0.5, 0.125])),
            Column("b", np.array([3, 40]), width=5),
        ],
        keys=np.array([7, 12345]),
        index="class",
        digits=2,
    )
    second = Table(
        "",
        [
            Column("a", [None, 1.0]),
            Column("b", [None, 2]),
            Column("c", [0.25, None], heading="long heading"),
        ],
        labels=["total", "x"],
        digits=2,
    )
    text = render_text([first, second], ["note one", "note two"])
    # labels, two spaces, then each column after one space, right-aligned
    assert text == (
        "class     a     b long heading\n"
        "\n"
        "    7  0.50     3\n"
        "12345  0.12    40\n"
        "\n"
        "total" + " " * 21 + "0.25\n"
        "    x  1.00     2\n"
        "\n"
        "note one\n"
        "note two\n"
    )
    # a table without rows keeps its blank line; no notes, no blank line after
    empty = Table("", [Column("a", np.array([]))], keys=[])
    assert render_text([empty, second]) == (
        "          a b long heading\n\n\ntotal" + " " * 17 + "0.25\n    x  1.00 2\n"
    )


def test_render_text_of_long_tables_is_the_same_in_blocks(monkeypatch):
    rng = np.random.default_rng(0)
    names = np.array(["c" * int(i) for i in rng.integers(1, 9, 50)])
    table = Table(
        "",
        [Column("x", rng.random(50)), Column("n", rng.integers(0, 10**6, 50))],
        keys=names,
        digits=3,
    )
    whole = render_text([table])  # 50 rows: cell by cell
    monkeypatch.setattr(text_module, "_COLUMN_WISE_ROWS", 1)  # column-wise
    assert render_text([table]) == whole
    monkeypatch.setattr(text_module, "_TEXT_BLOCK_ROWS", 7)  # in blocks
    assert render_text([table]) == whole
    width = max(len(n) for n in names)
    n_width = max(len(str(v)) for v in table.columns[1].values)
    x_values, n_values = (c.values for c in table.columns)
    lines = whole.splitlines()[2:]
    for line, name, x, n in zip(lines, names, x_values, n_values, strict=True):
        assert line == f"{name:>{width}}  {x:>5.3f} {n:>{max(1, n_width)}}"


def _report_lines(y_true, y_pred, digits, **options):
    """The per-class lines of the report written one by one with Python's
    formatting (the layout of scikit-learn's report)."""
    report = classification_report(
        y_true, y_pred, output_dict=True, zero_division=0.0, **options
    )
    names = [k for k, v in report.items() if isinstance(v, dict) and " avg" not in k]
    names = [k for k in names if k != "accuracy-ci"]
    width = max([len(n) for n in names] + [len("weighted avg"), digits])
    lines = []
    for name in names:
        row = report[name]
        cells = [f"{row[k]:.{digits}f}" for k in ("precision", "recall", "f1-score")]
        lines.append(
            f"{name:>{width}s} "
            + "".join(f" {c:>9}" for c in cells)
            + f" {int(row['support']):>9}"
        )
    return lines


@pytest.mark.parametrize("digits", [0, 2, 3, 5])
def test_report_text_lines_are_pythons_format(digits):
    rng = np.random.default_rng(digits)
    k = 400
    y_true = rng.integers(0, k, 3000)
    y_pred = np.where(rng.random(3000) < 0.5, y_true, rng.integers(0, k, 3000))
    text = classification_report(y_true, y_pred, digits=digits, zero_division=0.0)
    lines = text.splitlines()
    assert lines[2 : 2 + k] == _report_lines(y_true, y_pred, digits)
    assert lines[2 + k] == ""
    assert lines[3 + k].lstrip().startswith("accuracy")


def test_report_text_hand_checked():
    # 1/8, 3/8 and 5/8 are binary ties: Python rounds them to even
    y_true = [0] * 8 + [1] * 8
    y_pred = [0] + [1] * 7 + [1] * 3 + [0] * 5
    text = classification_report(y_true, y_pred, digits=2, target_names=["no", "yes"])
    assert text.splitlines()[:8] == [
        "              precision    recall  f1-score   support  f1-of-averages"
        "       gap  gap-bound",
        "",
        "          no       0.17      0.12      0.14         8",
        "         yes       0.30      0.38      0.33         8",
        "",
        "    accuracy                           0.25        16",
        "   macro avg       0.23      0.25      0.24        16            0.24"
        "      0.00       0.50",
        "weighted avg       0.23      0.25      0.24        16            0.24",
    ]


def test_report_text_with_many_digits(monkeypatch):
    # beyond the digits a float product can round: every cell by Python
    monkeypatch.setattr(text_module, "_COLUMN_WISE_ROWS", 1)
    y_true, y_pred = [0, 1, 1] * 30, [0, 1, 0] * 30
    lines = classification_report(y_true, y_pred, digits=20).splitlines()
    assert lines[2].split() == ["0", format(0.5, ".20f"), "1" + "." + "0" * 20,
                                format(2 / 3, ".20f"), "30"]  # fmt: skip
    lines = classification_report(y_true, y_pred, digits=400).splitlines()
    assert lines[2].split()[1] == format(0.5, ".400f")


@pytest.mark.parametrize("column_wise_rows", [1, 10**9])
def test_report_text_of_negative_zero_is_scikit_learns(monkeypatch, column_wise_rows):
    # negative weights make rates of -0.0: scikit-learn writes "-0" at 0 digits
    monkeypatch.setattr(text_module, "_COLUMN_WISE_ROWS", column_wise_rows)
    y_true, y_pred = np.arange(9) % 3, (np.arange(9) + 1) % 3
    options = dict(sample_weight=-np.ones(9), digits=0, zero_division=0)
    text = classification_report(y_true, y_pred, **options)
    expected = sklearn_report(y_true, y_pred, **options).splitlines()
    lines = text.splitlines()
    assert lines[2:5] == expected[2:5]
    assert lines[2].split() == ["0", "-0", "-0", "-0", "-3.0"]
    assert lines[8].split()[:6] == "weighted avg -0 -0 -0 -9.0".split()


def test_report_target_names_of_other_types_are_written_as_text():
    # as the dict's keys, the frame's index holds the names as written
    pytest.importorskip("pandas")
    y_true, y_pred = [0, 1, 2, 2], [0, 2, 2, 1]
    names = np.array([0.1, 0.5, 0.9], dtype=np.float32)
    frame = classification_report(y_true, y_pred, target_names=names, as_frame=True)
    report = classification_report(y_true, y_pred, target_names=names, output_dict=True)
    assert list(frame.index[:3]) == ["0.1", "0.5", "0.9"] == list(report)[:3]
    text = classification_report(y_true, y_pred, target_names=[10, 20, 30])
    assert [line.split()[0] for line in text.splitlines()[2:5]] == ["10", "20", "30"]
    frame = classification_report(
        y_true, y_pred, target_names=[10, 20, 30], as_frame=True
    )
    assert list(frame.index[:3]) == ["10", "20", "30"]
    # the gap line names them as the lines do
    y_true, y_pred = np.array([0, 0, 0, 0, 1, 2, 2]), np.array([0, 1, 1, 2, 1, 2, 0])
    text = classification_report(y_true, y_pred, target_names=names)
    assert text.splitlines()[-1].startswith("gap by pair:    0.1 & 0.5 0.0375 (63%)")
