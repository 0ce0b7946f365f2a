"""The ``macrof1`` command line: every input form, format, error path and status.

Most cases run the program in this process, exactly as ``python -m
sklearn_macrof1`` (``tests/_program.py``: no new interpreter, so fast); a few run
it in a subprocess (``python -m sklearn_macrof1`` and the console script) to check
exit statuses, standard error and the absence of tracebacks.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from _program import macrof1
from sklearn.metrics import f1_score, precision_score, recall_score

from sklearn_macrof1 import (
    MacroF1Counts,
    fbeta_summary,
    gap_closed_form,
)


def summary_row(out: str, title: str) -> dict[str, str]:
    """The summary's row in the program's text, by heading (the line after
    ``title`` holds the headings, two spaces apart; the row follows a blank)."""
    head, _, row = out.split(f"\n{title}\n", 1)[1].splitlines()[:3]
    cells = re.split(r"\s{2,}", row.strip())
    return dict(zip(re.split(r"\s{2,}", head), cells, strict=True))


# The reference paper's appendix D (rows are predictions).
PAPER_SKEWED = "2 100 10000 0 100".split()
PAPER_BALANCED = "2 100 5000 5000 100".split()

Y_TRUE = ["cat", "dog", "bird", "dog", "cat", "dog", "bird", "cat"]
Y_PRED = ["cat", "cat", "bird", "dog", "bird", "dog", "dog", "cat"]
WEIGHTS = [1, 2, 1, 1, 0.5, 1, 3, 1]


def cli_json(argv, stdin_text=""):
    status, out, err = macrof1([*argv, "--format", "json"], stdin_text)
    assert status == 0, err
    return json.loads(out)


def subprocess_run(args, *, program=None, input_text=None, cwd=None):
    cmd = program or [sys.executable, "-m", "sklearn_macrof1"]
    return subprocess.run(
        [*cmd, *args],
        input=input_text,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={**os.environ, "PYTHONWARNINGS": ""},
    )


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = tmp_path / "preds.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "gold", "guess", "weight"])
        for i, row in enumerate(zip(Y_TRUE, Y_PRED, WEIGHTS, strict=True)):
            w.writerow([i, *row])
    return path


# --------------------------------------------------------------------------
# The paper's appendix
# --------------------------------------------------------------------------


def test_paper_appendix_skewed_matrix():
    doc = cli_json(["matrix", *PAPER_SKEWED])
    s = doc["scores"]
    assert s["fbeta_of_averages"] == pytest.approx(0.504950495049505, abs=1e-12)
    assert s["averaged_fbeta"] == pytest.approx(1.96078431372549e-2, abs=1e-12)
    assert s["gap"] == pytest.approx(0.48534265191225007, abs=1e-12)
    assert s["gap_closed_form"] == pytest.approx(s["gap"], abs=1e-12)
    assert s["gap_bound"] == 0.5
    assert doc["input"]["rows"] == "predicted"  # the paper's orientation by default
    assert [c["label"] for c in doc["classes"]] == doc["confusion_matrix"]["labels"]
    assert doc["confusion_matrix"]["matrix"] == [[100, 0], [10000, 100]]  # rows true


def test_paper_appendix_balanced_matrix():
    s = cli_json(["matrix", *PAPER_BALANCED])["scores"]
    assert s["fbeta_of_averages"] == pytest.approx(1.96078431372549e-2, abs=1e-12)
    assert s["averaged_fbeta"] == pytest.approx(1.96078431372549e-2, abs=1e-12)
    assert s["gap"] == pytest.approx(0.0, abs=1e-12)
    assert s["gap_closed_form"] == pytest.approx(0.0, abs=1e-12)


def test_paper_appendix_text_prints_figures_and_orientation():
    status, out, _ = macrof1(["matrix", *PAPER_SKEWED, "--digits", "9"])
    assert status == 0
    assert "rows = predicted labels" in out and "reference paper" in out
    assert "0.504950495" in out and "0.019607843" in out
    summary = summary_row(out, "macro average, beta=1: 2 classes (binary)")
    assert summary["average"] == "macro"
    assert summary["gap"] == summary["gap (Lemma)"] == "0.485342652"
    assert summary["averaged F1"] == "0.019607843"


def test_matrix_orientation_is_explicit_and_changes_the_result():
    # the same numbers read with rows = true labels is the transposed matrix
    as_true = cli_json(["matrix", *PAPER_SKEWED, "--rows", "true"])
    ref = fbeta_summary(
        MacroF1Counts.from_confusion_matrix([[100, 10000], [0, 100]], rows="true")
    )
    assert as_true["input"]["rows"] == "true"
    assert as_true["classes"][0]["support"] == 10100
    assert as_true["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)
    status, out, _ = macrof1(["matrix", *PAPER_SKEWED, "--rows", "true"])
    assert "rows = true labels" in out


# --------------------------------------------------------------------------
# Matrix files
# --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["csv", "txt", "npy", "stdin"])
def test_matrix_file_forms(tmp_path, kind):
    m = np.array([[5, 1, 0], [2, 7, 1], [0, 3, 9]])
    text = None
    if kind == "csv":
        path = tmp_path / "m.csv"
        path.write_text("\n".join(",".join(map(str, r)) for r in m) + "\n")
    elif kind == "txt":
        path = tmp_path / "m.txt"
        path.write_text("# a comment\n" + "\n".join(" ".join(map(str, r)) for r in m))
    elif kind == "npy":
        path = tmp_path / "m.npy"
        np.save(path, m)
    else:
        path, text = "-", "5 1 0\n2 7 1\n0 3 9\n"
    doc = cli_json(["matrix", "--file", str(path), "--rows", "true"], text or "")
    ref = fbeta_summary(MacroF1Counts.from_confusion_matrix(m, rows="true"))
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)
    assert doc["scores"]["fbeta_of_averages"] == pytest.approx(ref.fbeta_of_averages)
    assert doc["confusion_matrix"]["matrix"] == m.tolist()
    assert doc["input"]["rows"] == "true" and doc["input"]["form"] == "file"


def test_matrix_class_names_labels_and_average():
    m = [[5, 1, 0], [2, 7, 1], [0, 3, 9]]
    argv = ["matrix", "3", *map(str, np.ravel(m)), "--class-names", "a,b,c"]
    doc = cli_json([*argv, "--labels", "c,a", "--average", "weighted"])
    ref = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(
            m, rows="predicted", labels=["a", "b", "c"]
        ),
        labels=["c", "a"],
        average="weighted",
    )
    assert [c["label"] for c in doc["classes"]] == ["c", "a"]
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)
    assert doc["options"] == {
        "average": "weighted",
        "beta": 1.0,
        "zero_division": "warn",
        "labels": ["c", "a"],
        "pos_label": 1,
    }


# --------------------------------------------------------------------------
# Predictions: tables, label files, multilabel, stdin
# --------------------------------------------------------------------------


@pytest.mark.parametrize("average", ["macro", "micro", "weighted", "none"])
def test_table_matches_library_and_sklearn(table, average):
    doc = cli_json(
        [
            "score",
            str(table),
            "--true",
            "gold",
            "--pred",
            "guess",
            "--sample-weight",
            "weight",
            "--average",
            average,
        ]
    )
    avg = None if average == "none" else average
    ref = fbeta_summary(Y_TRUE, Y_PRED, average=avg, sample_weight=WEIGHTS)
    sk = f1_score(Y_TRUE, Y_PRED, average=avg, sample_weight=WEIGHTS)
    assert doc["schema_version"] == 1  # docs/cli.md: "JSON schema (`schema_version` 1)"
    np.testing.assert_allclose(doc["scores"]["averaged_fbeta"], sk)
    np.testing.assert_allclose(
        doc["scores"]["fbeta_of_averages"], ref.fbeta_of_averages
    )
    np.testing.assert_allclose(doc["scores"]["gap"], ref.gap)
    p = precision_score(Y_TRUE, Y_PRED, average=avg, sample_weight=WEIGHTS)
    np.testing.assert_allclose(doc["scores"]["precision"], p)
    r = recall_score(Y_TRUE, Y_PRED, average=avg, sample_weight=WEIGHTS)
    np.testing.assert_allclose(doc["scores"]["recall"], r)
    assert [c["label"] for c in doc["classes"]] == ["bird", "cat", "dog"]
    assert doc["input"]["n_samples"] == len(Y_TRUE)
    assert doc["input"]["sample_weight"] == "weight"


def test_table_beta_labels_zero_division(table):
    doc = cli_json(
        [
            "score",
            str(table),
            "--true",
            "gold",
            "--pred",
            "guess",
            "--beta",
            "2",
            "--labels",
            "dog,cat,fish",
            "--zero-division",
            "0",
        ]
    )
    ref = fbeta_summary(
        Y_TRUE, Y_PRED, beta=2, labels=["dog", "cat", "fish"], zero_division=0
    )
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)
    assert doc["scores"]["fbeta_of_averages"] == pytest.approx(ref.fbeta_of_averages)
    assert doc["scores"]["gap_closed_form"] is None  # the Lemma is for beta = 1
    assert doc["options"]["zero_division"] == 0.0
    assert [c["label"] for c in doc["classes"]] == ["dog", "cat", "fish"]


def test_zero_division_nan_is_null_in_json(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("y,p\na,a\na,b\n")
    doc = cli_json(
        [
            "score",
            str(path),
            "--true",
            "y",
            "--pred",
            "p",
            "--zero-division",
            "nan",
            "--average",
            "none",
        ]
    )
    by_label = {c["label"]: c for c in doc["classes"]}
    assert by_label["b"]["recall"] is None  # nan: no true samples of "b"
    assert doc["options"]["zero_division"] == "nan"


def test_binary_with_pos_label(tmp_path):
    path = tmp_path / "p.tsv"  # tab-separated, chosen by the extension
    path.write_text("y\tp\nspam\tham\nspam\tspam\nham\tham\nham\tspam\nham\tham\n")
    y = ["spam", "spam", "ham", "ham", "ham"]
    p = ["ham", "spam", "ham", "spam", "ham"]
    doc = cli_json(
        [
            "score",
            str(path),
            "--true",
            "y",
            "--pred",
            "p",
            "--average",
            "binary",
            "--pos-label",
            "spam",
        ]
    )
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(
        f1_score(y, p, average="binary", pos_label="spam")
    )
    assert doc["input"]["delimiter"] == "\t"


def test_label_files_and_stdin(tmp_path):
    t = tmp_path / "true.txt"
    p = tmp_path / "pred.txt"
    t.write_text("1\n2\n10\n2\n\n")  # trailing blank line ignored
    p.write_text("1\n10\n10\n2\n")
    doc = cli_json(["score", str(t), str(p)])
    ref = fbeta_summary([1, 2, 10, 2], [1, 10, 10, 2])
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)
    # integer labels are ordered as numbers, not as strings
    assert [c["label"] for c in doc["classes"]] == [1, 2, 10]
    from_stdin = cli_json(["score", str(t), "-"], "1\n10\n10\n2\n")
    assert from_stdin["scores"] == doc["scores"]
    assert from_stdin["input"]["sources"] == [str(t), "-"]


def test_table_from_stdin(table):
    doc = cli_json(
        ["score", "-", "--true", "gold", "--pred", "guess"], table.read_text()
    )
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(
        f1_score(Y_TRUE, Y_PRED, average="macro")
    )


def test_multilabel_label_sets(tmp_path):
    path = tmp_path / "ml.csv"
    path.write_text("y,p\na;b,a\nb,\n,c\na;c,a;c\n")
    yt = np.array([[1, 1, 0], [0, 1, 0], [0, 0, 0], [1, 0, 1]])
    yp = np.array([[1, 0, 0], [0, 0, 0], [0, 0, 1], [1, 0, 1]])
    for average in ("macro", "samples"):
        doc = cli_json(
            [
                "score",
                str(path),
                "--true",
                "y",
                "--pred",
                "p",
                "--label-sep",
                ";",
                "--average",
                average,
                "--zero-division",
                "0",
            ]
        )
        ref = fbeta_summary(yt, yp, average=average, zero_division=0)
        assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)
        assert doc["scores"]["fbeta_of_averages"] == pytest.approx(
            ref.fbeta_of_averages
        )
        assert doc["input"]["target_type"] == "multilabel-indicator"
    # --labels names label-set members (columns b, c → indices 1, 2)
    doc = cli_json(
        [
            "score",
            str(path),
            "--true",
            "y",
            "--pred",
            "p",
            "--label-sep",
            ";",
            "--labels",
            "c,b",
            "--zero-division",
            "0",
        ]
    )
    ref = fbeta_summary(yt, yp, labels=[2, 1], zero_division=0)
    assert [c["label"] for c in doc["classes"]] == ["c", "b"]
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)


def test_multilabel_label_sets_in_label_files(tmp_path):
    t, p = tmp_path / "t.txt", tmp_path / "p.txt"
    t.write_text("x y\nx\n")
    p.write_text("x\nx y\n")
    doc = cli_json(["score", str(t), str(p), "--label-sep", " "])
    ref = fbeta_summary(np.array([[1, 1], [1, 0]]), np.array([[1, 0], [1, 1]]))
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)


def test_integer_label_sets_name_labels_by_value(tmp_path):
    # "05" and "5" are one label, as in a column of integer labels (a set
    # holding "05" crashed with a KeyError)
    t, p = tmp_path / "t.txt", tmp_path / "p.txt"
    t.write_text("05 1\n1\n2\n")
    p.write_text("5\n1 05\n2\n")
    doc = cli_json(["score", str(t), str(p), "--label-sep", " "])
    assert [c["label"] for c in doc["classes"]] == ["1", "2", "5"]
    ref = fbeta_summary(
        np.array([[1, 0, 1], [1, 0, 0], [0, 1, 0]]),
        np.array([[0, 0, 1], [1, 0, 1], [0, 1, 0]]),
    )
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)
    # --labels names them by value too
    doc = cli_json(["score", str(t), str(p), "--label-sep", " ", "--labels", "05,1"])
    assert [c["label"] for c in doc["classes"]] == ["5", "1"]


def test_indicator_words_are_the_indicator_values(tmp_path):
    """yes/no, y/n, t/f, TRUE/False and 1.0/0.0 (any case) are 1 and 0, and an
    empty cell is 0: the same scores as the file written in 0/1."""
    words = tmp_path / "words.csv"
    words.write_text("ta,tb,pa,pb\nYES,n,y,No\nf,T,,TRUE\nTrue,1.0,0.0,yes\n")
    digits = tmp_path / "digits.csv"
    digits.write_text("ta,tb,pa,pb\n1,0,1,0\n0,1,0,1\n1,1,0,1\n")
    columns = ["--true", "ta", "--true", "tb", "--pred", "pa", "--pred", "pb"]
    from_words = cli_json(["score", str(words), *columns])
    assert from_words["scores"] == cli_json(["score", str(digits), *columns])["scores"]
    assert from_words["classes"][1]["true_positives"] == 2


def test_rows_of_only_blanks_are_skipped(tmp_path):
    """A row whose cells are all blank (a trailing ", ," line, spaces) is not a
    sample; a row with one blank cell among others is (and is refused)."""
    plain = tmp_path / "plain.csv"
    plain.write_text("gold,guess\ncat,cat\ndog,cat\n")
    padded = tmp_path / "padded.csv"
    padded.write_text("gold,guess\ncat,cat\n  ,  \n\ndog,cat\n , \n")
    args = ["--true", "gold", "--pred", "guess"]
    doc = cli_json(["score", str(padded), *args])
    assert doc["input"]["n_samples"] == 2
    assert doc["scores"] == cli_json(["score", str(plain), *args])["scores"]


def test_spaces_around_list_items_are_not_part_of_the_labels(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text("gold,guess\ncat,cat\ndog,cat\nbird,dog\n")
    args = ["score", str(table), "--true", "gold", "--pred", "guess"]
    spaced = cli_json([*args, "--labels", " dog , cat"])
    assert [c["label"] for c in spaced["classes"]] == ["dog", "cat"]
    assert spaced["scores"] == cli_json([*args, "--labels", "dog,cat"])["scores"]
    matrix = ["matrix", "2", "5", "1", "2", "7", "--rows", "true"]
    named = cli_json([*matrix, "--class-names", " yes ,  no"])
    support = {c["label"]: c["support"] for c in named["classes"]}
    assert support == {"yes": 6, "no": 9}  # rows in the order the names give


def test_multilabel_indicator_columns(tmp_path):
    path = tmp_path / "ind.csv"
    path.write_text("ta,tb,pa,pb\n1,0,1,1\n0,1,0,1\ntrue,true,1,false\n")
    doc = cli_json(
        [
            "score",
            str(path),
            "--true",
            "ta",
            "--true",
            "tb",
            "--pred",
            "pa",
            "--pred",
            "pb",
        ]
    )
    ref = fbeta_summary(
        np.array([[1, 0], [0, 1], [1, 1]]), np.array([[1, 1], [0, 1], [1, 0]])
    )
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)
    assert [c["label"] for c in doc["classes"]] == ["ta", "tb"]
    assert doc["confusion_matrix"] is None


# --------------------------------------------------------------------------
# Formats and output files
# --------------------------------------------------------------------------


def test_text_format_has_report_both_scores_gap_and_bound(table):
    status, out, _ = macrof1(["score", str(table), "--true", "gold", "--pred", "guess"])
    assert status == 0
    ref = fbeta_summary(Y_TRUE, Y_PRED)
    assert "f1-of-averages" in out and "macro avg" in out  # the report
    assert f"{ref.averaged_fbeta:.6f}" in out
    assert f"{ref.fbeta_of_averages:.6f}" in out
    assert f"{ref.gap:.6f}" in out
    summary = summary_row(out, "macro average, beta=1: 3 classes (multiclass)")
    assert summary["gap bound"] == "0.444444"
    assert summary["averaged F1"] == f"{ref.averaged_fbeta:.6f}"


def test_text_writes_a_gap_of_rounding_noise_as_zero():
    """A symmetric confusion matrix has P = R in every class: its gap is 0, and
    its floating-point gap (-2.8e-17 here) is written "0.000000", not with a
    sign the numbers do not have."""
    cells = [40, 59, 28, 62, 59, 22, 71, 53, 28, 71, 86, 34, 62, 53, 34, 6]
    gap = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(np.reshape(cells, (4, 4)), rows="true")
    ).gap
    assert -1e-15 < gap < 0
    status, out, _ = macrof1(["matrix", "4", *map(str, cells)])
    assert status == 0
    summary = summary_row(out, "macro average, beta=1: 4 classes (multiclass)")
    assert summary["gap"] == summary["gap (Lemma)"] == "0.000000"


def per_class_rows(out: str, title: str) -> list[list[str]]:
    """The rows of the per-class table in the program's text (two spaces apart)."""
    lines = out.splitlines()
    start = lines.index(title) + 3  # the title, the headings, a blank line
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return rows


@pytest.mark.parametrize(
    ("inputs", "options", "names"),
    [
        (
            ["sports|tech\ntech\npolitics\n", "sports\ntech|politics\npolitics\n"],
            ["--label-sep", "|", "--labels", "tech,sports"],
            ["tech", "sports"],
        ),
        (
            ["a,b,x,y\n1,0,1,1\n0,1,0,1\n1,1,1,0\n"],
            ["--true", "a", "--true", "b", "--pred", "x", "--pred", "y"],
            ["a", "b"],
        ),
    ],
)
def test_text_per_class_summary_names_the_labels(tmp_path, inputs, options, names):
    """With --average none the summary's rows are named as the report's (the
    label names of a multilabel input, not their column numbers)."""
    files = []
    for i, text in enumerate(inputs):
        path = tmp_path / (f"{i}.csv" if len(inputs) == 1 else f"{i}.txt")
        path.write_text(text)
        files.append(str(path))
    argv = ["score", *files, *options, "--average", "none"]
    status, out, err = macrof1(argv)
    assert status == 0, err
    rows = per_class_rows(out, "per class (average=None, beta=1)")
    assert [row[0] for row in rows] == names
    doc = cli_json(argv)
    assert [c["label"] for c in doc["classes"]] == names
    for row, c in zip(rows, doc["classes"], strict=True):
        assert row[1:4] == [f"{c[k]:.6f}" for k in ("precision", "recall", "fbeta")]


def test_text_per_class_summary_of_many_classes_points_at_every_row(tmp_path):
    """The per-class summary shows 20 classes; its note on the rest names what
    has every row in this program, not a Python call."""
    labels = [str(i) for i in range(25)]
    t, p = tmp_path / "t.txt", tmp_path / "p.txt"
    t.write_text("\n".join(labels) + "\n")
    p.write_text("\n".join(labels[1:] + labels[:1]) + "\n")
    status, out, _ = macrof1(
        ["score", str(t), str(p), "--average", "none", "--zero-division", "0"]
    )
    assert status == 0
    rows = per_class_rows(out, "per class (average=None, beta=1)")
    assert [row[0] for row in rows] == labels[:20]
    assert out.splitlines()[-1] == (
        "... and 5 more classes: --format csv or json has every row."
    )
    assert "to_frame()" not in out


def test_csv_format(table):
    status, out, _ = macrof1(
        ["score", str(table), "--true", "gold", "--pred", "guess", "--format", "csv"]
    )
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    ref = fbeta_summary(Y_TRUE, Y_PRED)
    assert [r["label"] for r in rows] == ["bird", "cat", "dog", "macro avg"]
    assert float(rows[-1]["fbeta"]) == pytest.approx(ref.averaged_fbeta)
    assert float(rows[-1]["fbeta_of_averages"]) == pytest.approx(ref.fbeta_of_averages)
    assert float(rows[-1]["gap_bound"]) == pytest.approx(ref.gap_bound)
    np.testing.assert_allclose([float(r["recall"]) for r in rows[:3]], ref.class_recall)


def test_output_file_never_overwritten_without_force(table, tmp_path):
    out = tmp_path / "result.json"
    argv = [
        "score",
        str(table),
        "--true",
        "gold",
        "--pred",
        "guess",
        "--format",
        "json",
        "--output",
        str(out),
    ]
    status, stdout, _ = macrof1(argv)
    assert status == 0 and stdout == ""
    first = json.loads(out.read_text())
    out.write_text("precious")
    status, _, err = macrof1(argv)
    assert status == 1 and "exists" in err and "--force" in err
    assert out.read_text() == "precious"
    status, _, _ = macrof1([*argv, "--force"])
    assert status == 0 and json.loads(out.read_text()) == first


def test_example_formats_and_determinism():
    status, text1, _ = macrof1([])
    _, text2, _ = macrof1(["example"])
    assert status == 0 and text1 == text2
    assert "The two macro F1s disagree" in text1
    doc = cli_json(["example"])
    rows = doc["classifiers"]
    assert len(rows) >= 2 and doc["disagreements"]
    for r in rows:
        assert r["gap"] == pytest.approx(r["f1_of_averages"] - r["averaged_f1"])
    d = doc["disagreements"][0]
    by_name = {r["name"]: r for r in rows}
    a, b = (
        by_name[d["preferred_by_averaged_f1"]],
        by_name[d["preferred_by_f1_of_averages"]],
    )
    assert (
        a["averaged_f1"] > b["averaged_f1"]
        and a["f1_of_averages"] < b["f1_of_averages"]
    )
    assert a["rank_averaged_f1"] < b["rank_averaged_f1"]
    assert a["rank_f1_of_averages"] > b["rank_f1_of_averages"]
    status, out, _ = macrof1(["--format", "csv"])  # options without a command: example
    assert status == 0
    assert len(list(csv.DictReader(io.StringIO(out)))) == len(rows)


def test_example_scores_match_the_library():
    shown = cli_json(["example"])["classifiers"]
    for row in shown:
        p, r = row["precision"], row["recall"]
        assert row["f1_of_averages"] == pytest.approx(2 * p * r / (p + r))
    # The Lemma's closed form of the gap needs each class's precision and recall,
    # which none of the example's outputs shows (text, CSV and JSON give macro
    # values): they are read from the example's own results.
    from sklearn_macrof1._cli._example import run_example

    for row, printed in zip(run_example().rows, shown, strict=True):
        s = row.summary
        assert printed["gap"] == float(s.gap)
        assert float(s.gap) == pytest.approx(
            gap_closed_form(s.class_precision, s.class_recall)
        )


# --------------------------------------------------------------------------
# Errors (in-process): data errors → 1, usage errors → 2
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["score", "{missing}", "--true", "a", "--pred", "b"], "", "no such file"),
        (["score", "{table}", "--true", "gold", "--pred", "nope"], "", "no column"),
        (["score", "{table}", "{lines}"], "", "has 2"),
        (["score", "-", "--true", "a", "--pred", "b"], "", "empty input"),
        (["score", "-", "--true", "a", "--pred", "b"], "a,b\n", "no rows"),
        (["score", "-", "--true", "a", "--pred", "b"], "a,b\n1\n", "1 field(s)"),
        (["score", "-", "--true", "a", "--pred", "b"], "a,b\n1,\n", "empty"),
        (
            ["score", "-", "--true", "a", "--pred", "b", "--sample-weight", "a"],
            "a,b\nx,y\n",
            "not a finite number",
        ),
        (
            ["score", "-", "--true", "a", "--pred", "b", "--labels", "x"],
            "a,b\n1,2\n",
            "labels are integers",
        ),
        (
            ["score", "-", "--true", "a", "--pred", "b", "--average", "binary"],
            "a,b\n1,2\n3,1\n",
            "--average binary scores two classes only",
        ),  # library ValueError, in the program's words
        (
            ["score", "-", "--true", "a", "--true", "b", "--pred", "a"],
            "a,b\n1,0\n",
            "pair up",
        ),
        (
            ["score", "-", "--true", "a", "--true", "b", "--pred", "a", "--pred", "b"],
            "a,b\n1,x\n",
            "indicator columns hold 0/1",
        ),
        (
            ["score", "{lines}", "{lines}", "--label-sep", ";", "--labels", "q"],
            "",
            "not one of the labels",
        ),
        (["score", "{directory}", "--true", "a", "--pred", "b"], "", "directory"),
        (["matrix", "2", "1", "2", "3"], "", "need 4 matrix entries"),
        (["matrix", "x", "1"], "", "number of classes"),
        (["matrix", "2", "1", "x", "3", "4"], "", "not a number"),
        (["matrix", "2", "1", "-2", "3", "4"], "", "non-negative"),
        (["matrix", "2", "0", "0", "0", "0"], "", "no samples"),
        (["matrix", "--file", "-", "--rows", "true"], "1 2\n3\n", "different numbers"),
        (["matrix", "--file", "-", "--rows", "true"], "1 2 3\n4 5 6\n", "square"),
        (["matrix", "--file", "-", "--rows", "true"], "\n", "empty input"),
        (["matrix", "--file", "{missing}.npy", "--rows", "true"], "", "no such file"),
        (["matrix", "--file", "{bad_npy}", "--rows", "true"], "", ".npy"),
        (["matrix", "2", "1", "2", "3", "4", "--class-names", "a"], "", "2-class"),
    ],
)
def test_data_errors_exit_1_with_one_line(tmp_path, table, argv, stdin, message):
    lines = tmp_path / "lines.txt"
    lines.write_text("a\nb\n")
    bad_npy = tmp_path / "bad.npy"
    bad_npy.write_bytes(b"not numpy")
    paths = {
        "table": str(table),
        "lines": str(lines),
        "missing": str(tmp_path / "missing.csv"),
        "directory": str(tmp_path),
        "bad_npy": str(bad_npy),
    }
    argv = [a.format(**paths) for a in argv]
    status, out, err = macrof1(argv, stdin)
    assert status == 1, err
    assert out == ""
    errors = [line for line in err.splitlines() if "error" in line]
    assert len(errors) == 1 and errors[0].startswith("macrof1: error: ")
    assert message in errors[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate"],
        ["score"],
        ["score", "f.csv"],  # a table needs --true and --pred
        ["score", "a", "b", "c"],
        ["score", "a", "b", "--true", "x"],
        ["score", "f.csv", "--true", "a", "--pred", "b", "--average", "mean"],
        ["score", "f.csv", "--true", "a", "--pred", "b", "--beta", "-1"],
        ["score", "f.csv", "--true", "a", "--pred", "b", "--digits", "x"],
        ["score", "f.csv", "--true", "a", "--pred", "b", "--zero-division", "2"],
        [
            "score",
            "f.csv",
            "--true",
            "a",
            "--true",
            "c",
            "--pred",
            "b",
            "--pred",
            "d",
            "--label-sep",
            ";",
        ],
        ["matrix"],
        ["matrix", "--file", "m.csv"],  # --rows is required for files
        ["matrix", "2", "1", "2", "3", "4", "--file", "m.csv", "--rows", "true"],
        ["matrix", "2", "1", "2", "3", "4", "--average", "samples"],
        ["matrix", "2", "1", "2", "3", "4", "--rows", "sideways"],
        ["example", "--format", "xml"],
    ],
)
def test_usage_errors_exit_2(argv):
    status, _, err = macrof1(argv)
    assert status == 2
    assert "usage: macrof1" in err


def test_warnings_are_one_line_each(tmp_path):
    status, _, err = macrof1(["matrix", "2", "5", "0", "5", "0", "--rows", "true"])
    assert status == 0
    assert err and all(
        line.startswith("macrof1: warning: ") for line in err.splitlines()
    )


def test_warnings_name_the_options_of_the_program(tmp_path):
    """scikit-learn's warnings speak of arguments; the program's, of its options."""
    _, _, err = macrof1(["matrix", "2", "5", "0", "5", "0", "--rows", "true"])
    assert "macrof1: warning: Precision is ill-defined" in err
    assert "Use --zero-division 0, 1 or nan to choose the value" in err
    assert "zero_division" not in err
    assert (
        macrof1(
            [
                "matrix",
                "2",
                "5",
                "0",
                "5",
                "0",
                "--rows",
                "true",
                "--zero-division",
                "0",
            ]
        ).err
        == ""
    )
    table = tmp_path / "t.csv"
    table.write_text("y,p\na,b\nb,a\na,a\n")
    status, _, err = macrof1(
        ["score", str(table), "--true", "y", "--pred", "p", "--pos-label", "a"]
    )
    assert (status, err) == (
        0,
        "macrof1: warning: --pos-label (set to a) is ignored unless --average binary "
        "(got --average macro); --labels a scores that class alone.\n",
    )


@pytest.mark.parametrize(
    ("rows", "options", "message"),
    [
        (
            "a,a\nb,c\nc,c\n",
            ["--average", "binary"],
            "the labels are multiclass, and --average binary scores two classes "
            "only: choose --average none, micro, macro, weighted.",
        ),
        (
            "a,a\nb,a\n",
            ["--average", "binary", "--pos-label", "zz"],
            "--pos-label zz is not one of the labels read (a, b): give --pos-label "
            "LABEL with one of them.",
        ),
        (
            "a,a\nb,a\n",
            ["--average", "samples"],
            "--average samples needs label sets (--label-sep, or indicator columns "
            "with several --true and --pred); for one label per row choose "
            "--average micro, macro, weighted, binary, none.",
        ),
    ],
)
def test_errors_name_the_options_of_the_program(tmp_path, rows, options, message):
    table = tmp_path / "t.csv"
    table.write_text("y,p\n" + rows)
    status, out, err = macrof1(
        ["score", str(table), "--true", "y", "--pred", "p", *options]
    )
    assert (status, out, err) == (1, "", f"macrof1: error: {message}\n")


def test_true_and_predicted_labels_that_never_meet_are_flagged(tmp_path):
    """A wrong column (an id for the predictions) scores 0 over many classes: the
    run still succeeds, and says on standard error which columns it read."""
    table = tmp_path / "preds.csv"
    table.write_text("id,gold,guess\n1001,cat,cat\n1002,dog,cat\n1003,dog,dog\n")
    status, out, err = macrof1(["score", str(table), "--true", "gold", "--pred", "id"])
    assert status == 0 and "0.000000" in out
    assert err.splitlines()[0] == (
        f"macrof1: warning: the true labels ({table}, column 'gold') and the predicted "
        f"labels ({table}, column 'id') have no value in common, so no prediction is "
        "right: check that --true and --pred name the columns meant."
    )
    assert macrof1(["score", str(table), "--true", "gold", "--pred", "guess"]).err == ""
    true, pred = tmp_path / "true.txt", tmp_path / "pred.txt"
    true.write_text("cat\ndog\n")
    pred.write_text("1\n2\n")
    err = macrof1(["score", str(true), str(pred)]).err
    assert f"the true labels ({true}) and the predicted labels ({pred}) have no " in err
    sets = tmp_path / "sets.csv"  # label sets: no label both true and predicted
    sets.write_text("y,p\na|b,c\nb,c|d\n")
    argv = ["score", str(sets), "--true", "y", "--pred", "p", "--label-sep", "|"]
    assert "have no value in common" in macrof1(argv).err
    sets.write_text("y,p\na|b,c\nb,c|a\n")  # a: true in row 1, predicted in row 2
    assert "have no value in common" not in macrof1(argv).err


def test_classes_named_as_summary_rows_keep_their_rows_in_json(tmp_path):
    """The JSON lists the classes apart from the scores: a class named
    'accuracy' or 'macro avg' (scikit-learn issue #29205) is one of them."""
    table = tmp_path / "t.csv"
    rows = zip(
        ["accuracy", "b", "b", "accuracy", "macro avg"],
        ["accuracy", "b", "accuracy", "accuracy", "b"],
        strict=True,
    )
    table.write_text("y,p\n" + "".join(f"{t},{p}\n" for t, p in rows))
    doc = cli_json(["score", str(table), "--true", "y", "--pred", "p"])
    classes = {c["label"]: c["support"] for c in doc["classes"]}
    assert classes == {"accuracy": 2, "b": 2, "macro avg": 1}
    assert doc["scores"]["n_classes"] == 3


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        # the NaN label of data row 6 (an empty cell): line 7 of the file
        ("y,p\n0,0\n1,1\n0,1\n1,0\n2,2\n2,\n", "p", "the value on line 7 is empty"),
        # blank lines are skipped, and still counted as lines of the file
        ("y,p\n\n0,0\n\n, \n1,0.5\n", "p", "the value on line 6 is '0.5'"),
        # a quoted cell spanning two lines: the next row starts on line 4
        ('y,p\n"a\nb",a\nc,\n', "p", "the value on line 4 is empty"),
        (
            "y,p,w\n0,0,1\n1,1,x\n",
            "w",
            "the value on line 3 is not a finite number ('x')",
        ),
        ("a,b\n1,1\n1\n", None, "line 3 has 1 field(s), the header has 2"),
    ],
)
def test_errors_name_the_line_of_the_file(tmp_path, text, column, message):
    path = tmp_path / "t.csv"
    path.write_text(text)
    argv = ["score", str(path), "--true", "y", "--pred", "p"]
    if column == "w":
        argv += ["--sample-weight", "w"]
    elif column is None:
        argv = ["score", str(path), "--true", "a", "--pred", "b"]
    status, out, err = macrof1(argv)
    assert (status, out) == (1, "")
    where = f"{path}, column {column!r}: " if column else f"{path}: "
    assert err.startswith(f"macrof1: error: {where}{message}"), err


def test_errors_of_two_files_name_the_line(tmp_path):
    true, pred = tmp_path / "true.txt", tmp_path / "pred.txt"
    true.write_text("a\nb\na\n")
    pred.write_text("a\n\nb\n")
    status, _, err = macrof1(["score", str(true), str(pred)])
    assert (status, err) == (
        1,
        f"macrof1: error: {pred}: the value on line 2 is empty (a label is needed; "
        "for multilabel sets use --label-sep)\n",
    )


def test_indicator_errors_name_the_line(tmp_path):
    path = tmp_path / "ind.csv"
    path.write_text("ta,tb,pa,pb\n1,0,1,1\n\n0,1,maybe,1\n")
    status, _, err = macrof1(
        ["score", str(path), "--true", "ta", "--true", "tb", "--pred", "pa"]
        + ["--pred", "pb"]
    )
    assert status == 1
    assert f"{path}, column 'pa': the value on line 4 is 'maybe'" in err, err


# --------------------------------------------------------------------------
# Parsing: what the readers make of their input
# --------------------------------------------------------------------------


def test_parsing_rules(tmp_path):
    def write(name, text):
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    def delimiter(name, text, *options):
        argv = ["score", write(name, text), *options]
        return cli_json(argv)["input"]["delimiter"]

    # the delimiter: tab for .tsv/.tab files, else from the header; --delimiter
    assert delimiter("x.txt", "a\tb\n1\t2\n", "--true", "a", "--pred", "b") == "\t"
    one_column = ["--true", "a,b", "--pred", "a,b"]  # the header "a,b" read by tabs
    assert delimiter("x.tsv", "a,b\n1,2\n", *one_column) == "\t"
    assert delimiter("x.csv", "a;b\n1;2\n", "--true", "a", "--pred", "b") == ";"
    assert delimiter("x.csv", "a,b\n1,2\n", *one_column, "--delimiter", "tab") == "\t"
    empty = write("x", "")
    argv = ["score", empty, "--true", "a", "--pred", "b", "--delimiter", "::"]
    assert macrof1(argv) == (
        1,
        "",
        "macrof1: error: --delimiter must be one character (or 'tab'); got '::'\n",
    )
    # a table: quoted cells hold the delimiter, blank lines are skipped
    quoted = write("q.csv", 'a,"b, c"\n1,"x, y"\n\n')
    doc = cli_json(["score", quoted, "--true", "a", "--pred", "b, c"])
    assert doc["input"]["n_samples"] == 1
    assert [c["label"] for c in doc["classes"]] == ["1", "x, y"]
    assert doc["confusion_matrix"]["matrix"] == [[0, 1], [0, 0]]  # "1" → "x, y"
    status, _, err = macrof1(["score", quoted, "--true", "a", "--pred", "z"])
    assert status == 1
    assert err == f"macrof1: error: {quoted}: no column 'z' (columns: 'a', 'b, c')\n"
    # label files: one label per line, stripped; trailing blank lines ignored
    doc = cli_json(["score", write("t.txt", "a\n b \n\n\n"), write("p.txt", "a\nb\n")])
    assert doc["input"]["n_samples"] == 2
    assert [c["label"] for c in doc["classes"]] == ["a", "b"]
    assert doc["confusion_matrix"]["matrix"] == [[1, 0], [0, 1]]
    # labels: integers when every value is one, else strings (as written)
    doc = cli_json(["score", write("t.txt", "1\n-2\n"), write("p.txt", "3\n1\n")])
    labels = [c["label"] for c in doc["classes"]]
    assert labels == [-2, 1, 3] and all(type(x) is int for x in labels)
    assert doc["confusion_matrix"]["matrix"] == [[0, 1, 0], [0, 0, 1], [0, 0, 0]]
    doc = cli_json(["score", write("t.txt", "1\nx\n"), write("p.txt", "1.0\n1\n")])
    assert [c["label"] for c in doc["classes"]] == ["1", "1.0", "x"]
    assert doc["confusion_matrix"]["matrix"] == [[0, 1, 0], [0, 0, 0], [1, 0, 0]]
    # label sets: indicator columns over the sorted union (integers as numbers)
    sets = [write("t.txt", "10\n2;10\n"), write("p.txt", "\n2\n")]
    doc = cli_json(
        ["score", *sets, "--label-sep", ";", "--average", "samples"]
        + ["--zero-division", "0"]
    )
    assert [c["label"] for c in doc["classes"]] == ["2", "10"]
    yt, yp = np.array([[0, 1], [1, 1]]), np.array([[0, 0], [1, 0]])
    assert [
        (c["support"], c["predicted"], c["true_positives"]) for c in doc["classes"]
    ] == list(zip(yt.sum(0), yp.sum(0), (yt & yp).sum(0), strict=True))
    ref = fbeta_summary(yt, yp, average="samples", zero_division=0)
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(ref.averaged_fbeta)
    assert doc["scores"]["fbeta_of_averages"] == pytest.approx(ref.fbeta_of_averages)
    no_labels = write("e.csv", "id,y,p\n1,,\n")  # one sample, two empty sets
    argv = ["score", no_labels, "--true", "y", "--pred", "p", "--label-sep", ";"]
    assert macrof1(argv) == (
        1,
        "",
        "macrof1: error: the label sets are all empty: no labels to score\n",
    )
    # the paper's argument form: N, then the entries row by row
    doc = cli_json(["matrix", *PAPER_SKEWED, "--rows", "true"])
    assert doc["confusion_matrix"]["matrix"] == [[100, 10000], [0, 100]]
    assert cli_json(["matrix", "1", "2.5"])["confusion_matrix"]["matrix"] == [[2.5]]
    # a matrix file: semicolons, integers, no class names
    doc = cli_json(["matrix", "--file", "-", "--rows", "true"], "1;2\n3;4\n")
    matrix = doc["confusion_matrix"]["matrix"]
    assert matrix == [[1, 2], [3, 4]] and all(type(v) is int for r in matrix for v in r)
    assert [c["label"] for c in doc["classes"]] == [0, 1]


# --------------------------------------------------------------------------
# The real program (subprocesses)
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_module_runs_paper_example_and_reads_stdin(tmp_path):
    proc = subprocess_run(["matrix", *PAPER_SKEWED, "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    s = json.loads(proc.stdout)["scores"]
    assert s["gap"] == pytest.approx(0.48534265191225007, abs=1e-12)
    truth = tmp_path / "t.txt"
    truth.write_text("a\nb\nb\n")
    proc = subprocess_run(
        ["score", str(truth), "-", "--format", "csv"], input_text="a\na\nb\n"
    )
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert float(rows[-1]["fbeta"]) == pytest.approx(
        f1_score(["a", "b", "b"], ["a", "a", "b"], average="macro")
    )


@pytest.mark.slow
def test_module_error_statuses_without_traceback(tmp_path):
    proc = subprocess_run(
        ["score", str(tmp_path / "nope.csv"), "--true", "a", "--pred", "b"]
    )
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0
    assert "Traceback" not in proc.stderr and "no such file" in proc.stderr
    proc = subprocess_run(["matrix", "--file", "m.csv"])
    assert proc.returncode == 2 and "--rows" in proc.stderr
    assert "Traceback" not in proc.stderr


def _console_script() -> str | None:
    here = Path(sys.executable).parent / (
        "macrof1.exe" if os.name == "nt" else "macrof1"
    )
    return str(here) if here.exists() else shutil.which("macrof1")


def test_console_script_runs_the_example_with_no_arguments(tmp_path):
    script = _console_script()
    if script is None:
        pytest.skip("package not installed: no macrof1 console script")
    proc = subprocess_run([], program=[script], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "The two macro F1s disagree" in proc.stdout
    assert proc.stderr == ""


# --------------------------------------------------------------------------
# Parquet and Arrow IPC (Feather) tables
# --------------------------------------------------------------------------


def _columnar_table():
    """Every column kind a label table holds, with the CSV export of the table."""
    pa = pytest.importorskip("pyarrow")
    table = pa.table(
        {
            "gold": Y_TRUE,
            "guess": pa.array(Y_PRED).dictionary_encode(),  # categorical
            "weight": pa.array(WEIGHTS, pa.float64()),
            "int_true": pa.array([3, 10, 2, 10, 3, 10, 2, 3], pa.int32()),
            "int_pred": pa.array([3, 3, 2, 10, 2, 10, 10, 3], pa.uint8()),
            "float_true": [1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 1.0],
            "float_pred": [1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 1.0],
            "sports": [True, False, True, True, False, False, True, True],
            "pred_sports": [True, True, False, True, False, False, True, False],
            "tech": pa.array([1, 0, 1, 0, 0, 1, 1, 0], pa.int8()),
            "pred_tech": pa.array([1, 1, 1, 0, 0, 1, 0, 0], pa.int64()),
            "sets_true": ["a;b", "b", None, "a", " c ", "a;c", "b", ""],
            "sets_pred": ["a", "b;c", "c", None, "c", "a;b;c", "", "b"],
        }
    )
    return table, table.to_pandas().to_csv(index=False)


COLUMNAR_RUNS = [
    ["--true", "gold", "--pred", "guess", "--sample-weight", "weight"],
    ["--true", "gold", "--pred", "guess", "--labels", "dog,cat"],
    ["--true", "int_true", "--pred", "int_pred", "--average", "none"],
    ["--true", "float_true", "--pred", "float_pred", "--average", "binary"],
    [
        "--true",
        "sports",
        "--true",
        "tech",
        "--pred",
        "pred_sports",
        "--pred",
        "pred_tech",
    ],
    [
        "--true",
        "sets_true",
        "--pred",
        "sets_pred",
        "--label-sep",
        ";",
        "--average",
        "samples",
    ],
]


@pytest.mark.parametrize(
    "form", ["parquet", "feather", "arrow", "arrow stream", "feather v1"]
)
def test_columnar_tables_score_as_their_csv_export(tmp_path, form):
    table, csv_text = _columnar_table()
    feather = pytest.importorskip("pyarrow.feather")
    pq = pytest.importorskip("pyarrow.parquet")
    exported = tmp_path / "export.csv"
    exported.write_text(csv_text)
    # Recognised by the first bytes, whatever the file's name.
    path = tmp_path / {"feather v1": "old.dat"}.get(form, f"preds.{form}")
    if form == "parquet":
        pq.write_table(table, path)
    elif form == "feather v1":  # no dictionary (categorical) columns in v1
        plain = table.set_column(1, "guess", table.column("guess").cast("string"))
        with warnings.catch_warnings():  # deprecated by pyarrow 25, still read
            warnings.simplefilter("ignore", DeprecationWarning)
            feather.write_feather(plain, path, version=1)
    elif form == "arrow stream":  # the IPC streaming format (.arrows)
        ipc = pytest.importorskip("pyarrow.ipc")
        with ipc.new_stream(path, table.schema) as stream:
            stream.write_table(table)
    else:
        feather.write_feather(table, path, compression="zstd")
    for options in COLUMNAR_RUNS:
        ours = cli_json(["score", str(path), *options, "--zero-division", "0"])
        expected = cli_json(["score", str(exported), *options, "--zero-division", "0"])
        assert ours["input"].pop("delimiter") is None
        assert expected["input"].pop("delimiter") == ","
        assert ours["input"].pop("sources") == [str(path)]
        expected["input"].pop("sources")
        assert ours == expected, options
    status, out, _ = macrof1(["score", str(path), *COLUMNAR_RUNS[0]])
    assert status == 0 and out.startswith(f"predictions: file {path}; 8 samples")


def test_columnar_table_errors(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    lists = tmp_path / "lists.parquet"
    pq.write_table(pa.table({"t": [["a", "b"], ["c"]], "p": [["a"], ["c"]]}), lists)
    empty = tmp_path / "empty.parquet"
    pq.write_table(
        pa.table({"t": pa.array([], "string"), "p": pa.array([], "int64")}), empty
    )
    good = tmp_path / "good.parquet"
    pq.write_table(pa.table({"t": ["a", "b"], "p": ["a", None]}), good)
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(good.read_bytes()[:40])
    cases = [
        ([str(lists), "--true", "t", "--pred", "p"], "column 't' holds list<"),
        ([str(empty), "--true", "t", "--pred", "p"], "empty input"),
        (
            [str(good), "--true", "x", "--pred", "p"],
            "no column 'x' (columns: 't', 'p')",
        ),
        (
            [str(good), "--true", "t", "--pred", "p"],
            "column 'p': the value in row 2 is empty",
        ),
        ([str(cut), "--true", "t", "--pred", "p"], "not a readable Parquet file"),
        ([str(good), str(good)], "a table is read as one FILE with --true"),
    ]
    for argv, message in cases:
        status, out, err = macrof1(["score", *argv])
        assert (status, out) == (1, ""), err
        assert err.startswith("macrof1: error: ") and message in err, err
        assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("magic", "kind"), [(b"PAR1", "Parquet"), (b"ARROW1\0\0", "Arrow IPC")]
)
def test_columnar_file_without_pyarrow_says_how_to_install_it(
    tmp_path, monkeypatch, magic, kind
):
    path = tmp_path / "preds.bin"  # recognised by its first bytes, not its name
    path.write_bytes(magic + b"\0\x15\x04" * 20)
    for module in ("pyarrow", "pyarrow.parquet", "pyarrow.feather"):
        monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError
    status, out, err = macrof1(["score", str(path), "--true", "a", "--pred", "b"])
    assert (status, out) == (1, "")
    assert err == (
        f"macrof1: error: {path}: a {kind} file; reading it needs pyarrow, which is "
        "not installed: `pip install pyarrow` or, from the repository root of "
        'sklearn-macrof1, `pip install ".[arrow]"`. Without pyarrow, macrof1 reads '
        "UTF-8 text (a CSV/TSV table with a header, or one label per line)\n"
    )


def test_files_that_are_not_text_name_the_formats_read(tmp_path):
    binary = tmp_path / "model.pkl"
    binary.write_bytes(b"\x80\x04\x95\x00\x00\x00garbage\xff")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("a,b\ncaf\xe9,x\n".encode("latin-1"))
    nul = tmp_path / "nul.txt"  # valid UTF-8, but NUL bytes: not a text file
    nul.write_bytes(b"a\x00b\nc\n")
    parquet = tmp_path / "m.parquet"
    parquet.write_bytes(b"PAR1" + b"\0" * 20)
    formats = (
        "it reads UTF-8 text (a CSV/TSV table with a header, or one label per line) "
        "and, with pyarrow installed, Parquet and Arrow IPC (Feather) tables"
    )
    cases = [
        (
            ["score", str(binary), "--true", "a", "--pred", "b"],
            "",
            f"{binary}: a binary file",
        ),
        (
            ["score", str(latin), "--true", "a", "--pred", "b"],
            "",
            f"{latin}: not UTF-8 text",
        ),
        (["score", str(nul), str(nul)], "", f"{nul}: a binary file"),
        (
            ["score", "-", "--true", "a", "--pred", "b"],
            "a\x00b\n",
            "standard input: a binary",
        ),
    ]
    for argv, stdin, start in cases:
        status, out, err = macrof1(argv, stdin)
        assert (status, out) == (1, ""), err
        assert err.startswith(f"macrof1: error: {start}") and formats in err, err
        assert "save it as UTF-8" in err or "binary" in err
    status, _, err = macrof1(["matrix", "--file", str(parquet), "--rows", "true"])
    assert status == 1 and err == (
        f"macrof1: error: {parquet}: a Parquet file, which this command does not "
        "read; it reads UTF-8 text (CSV or whitespace-separated numbers) and .npy "
        "arrays\n"
    )
    head = "PAR1\x15\x04\x00"
    status, _, err = macrof1(["score", "-", "--true", "a", "--pred", "b"], head)
    assert (
        status == 1
        and "standard input: a Parquet file; give Parquet files by name" in err
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_named_pipes_are_read_whole(tmp_path):
    # A pipe (a FIFO, or <(...) in a shell) is read once: looking at its first
    # bytes for a columnar format would take them from the table (or, opened
    # again after its writer closed it, wait forever).
    import threading

    def pipe(name, text):
        path = tmp_path / name
        os.mkfifo(path)

        def write():
            with open(path, "w") as f:
                f.write(text)

        threading.Thread(target=write, daemon=True).start()
        return str(path)

    def scored(argv):
        result = []
        reader = threading.Thread(
            target=lambda: result.append(macrof1(argv)), daemon=True
        )
        reader.start()
        reader.join(timeout=60)
        assert result, "the command still waits for the pipe"
        status, out, err = result[0]
        assert status == 0, err
        return json.loads(out)["input"]["n_samples"]

    table = pipe("table", "gold,guess\na,a\nb,a\nc,c\n")
    argv = ["score", table, "--true", "gold", "--pred", "guess", "--format", "json"]
    assert scored(argv) == 3
    lines = [pipe("true", "a\nb\nc\n"), pipe("pred", "a\na\nc\n")]
    assert scored(["score", *lines, "--format", "json"]) == 3


def test_text_that_starts_like_a_columnar_file_is_text(tmp_path):
    # Parquet, Arrow and Feather files start with PAR1, ARROW1, FEA1; so may a
    # header or a label. The files also hold NUL bytes and end with the magic.
    table = tmp_path / "table.csv"
    table.write_text("PAR1,guess\na,a\nb,a\nc,c\n")
    argv = ["--true", "PAR1", "--pred", "guess"]
    expected = cli_json(["score", "-", *argv], table.read_text())
    for magic in ("PAR1", "ARROW1", "FEA1"):
        table.write_text(f"{magic},guess\na,a\nb,a\nc,c\n")
        argv[1] = magic
        assert cli_json(["score", str(table), *argv])["scores"] == expected["scores"]
        assert (
            cli_json(["score", "-", *argv], table.read_text())["input"]["n_samples"]
            == 3
        )
        true, pred = tmp_path / "true.txt", tmp_path / "pred.txt"
        true.write_text(f"{magic}\nFEA2\n{magic}\n")
        pred.write_text(f"{magic}\n{magic}\nFEA2\n")
        ours = cli_json(["score", str(true), str(pred), "--average", "none"])
        theirs = f1_score(
            [magic, "FEA2", magic], [magic, magic, "FEA2"], average=None
        ).tolist()
        assert [row["fbeta"] for row in ours["classes"]] == theirs


def test_json_confusion_matrix_of_many_classes_is_its_occupied_cells(tmp_path):
    """Above 2,048 classes the document holds the matrix's occupied cells
    (docs/cli.md), the same as FBetaSummary.to_dict(), not null."""
    k = 2_049
    rng = np.random.default_rng(0)
    y_true = np.concatenate([np.arange(k), rng.integers(0, k, 500)])
    y_pred = y_true.copy()
    y_pred[::3] = rng.integers(0, k, y_pred[::3].shape[0])
    paths = []
    for name, y in (("t.txt", y_true), ("p.txt", y_pred)):
        (tmp_path / name).write_text("\n".join(map(str, y.tolist())) + "\n")
        paths.append(str(tmp_path / name))
    doc = cli_json(["score", *paths])
    confusion = doc["confusion_matrix"]
    cells = fbeta_summary(y_true, y_pred).to_dict()["confusion_matrix"]
    assert confusion["rows"] == "true"
    assert confusion["labels"] == list(range(k))
    assert confusion["matrix"] == cells
    assert cells["shape"] == [k, k] and sum(cells["data"]) == y_true.shape[0]


@pytest.mark.parametrize("average", ["weighted", "micro"])
def test_the_gap_bound_is_shown_for_the_macro_average_only(average):
    """Theorem 3 bounds the macro gap: the text, CSV and JSON leave it out for
    the other averages, as the summary's views do."""
    argv = ["score", "-", "--true", "t", "--pred", "p", "--average", average]
    rows = zip(Y_TRUE, Y_PRED, strict=True)
    stdin = "t,p\n" + "".join(f"{t},{p}\n" for t, p in rows)
    status, out, err = macrof1(argv, stdin)
    assert status == 0, err
    assert "gap bound" not in out
    assert cli_json(argv, stdin)["scores"]["gap_bound"] is None
    status, out, _ = macrof1([*argv, "--format", "csv"], stdin)
    assert status == 0
    row = list(csv.DictReader(io.StringIO(out)))[-1]
    assert row["gap_bound"] == ""
    macro = cli_json(argv[:6], stdin)["scores"]["gap_bound"]
    assert macro == pytest.approx(fbeta_summary(Y_TRUE, Y_PRED).gap_bound)


def test_an_option_added_to_the_option_table_reaches_the_program(monkeypatch):
    """A row of the option table with its command-line metadata is an option
    of ``macrof1`` (in --help, read and checked by the row) and reaches every
    public function the program calls that takes it, with no other edit."""
    import inspect

    import sklearn_macrof1
    from sklearn_macrof1 import _options  # the option table: no public face

    def toy(value):
        return value if isinstance(value, int) and value >= 3 else _options.INVALID

    row = _options.Option(
        "toy_level",
        "an int >= 3",
        toy,
        cli=_options.Cli("the toy's level (3)", "scoring", default=3, kind=int),
    )
    monkeypatch.setattr(_options, "OPTIONS", (*_options.OPTIONS, row))
    seen = []
    summary = sklearn_macrof1.fbeta_summary

    def with_toy(*args, toy_level, **kwargs):
        seen.append(toy_level)
        return summary(*args, **kwargs)

    signature = inspect.signature(summary)
    with_toy.__signature__ = signature.replace(
        parameters=[
            *signature.parameters.values(),
            inspect.Parameter("toy_level", inspect.Parameter.KEYWORD_ONLY, default=3),
        ]
    )
    monkeypatch.setattr(sklearn_macrof1, "fbeta_summary", with_toy)

    status, out, _ = macrof1(["score", "--help"])
    assert status == 0
    assert re.search(r"--toy-level TOY_LEVEL\s+the toy's level \(3\)", out)
    assert seen == []
    status, out, err = macrof1(["matrix", *PAPER_SKEWED, "--toy-level", "5"])
    assert status == 0, err
    assert seen == [5]
    status, _, err = macrof1(["matrix", *PAPER_SKEWED, "--toy-level", "2"])
    assert status == 2
    assert "argument --toy-level: must be an int >= 3; got 2" in err
