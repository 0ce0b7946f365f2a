"""The command line never shows a traceback: huge numbers, continuous columns,
pandas-style matrices, unwritable or closed streams (issue 13)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
from _program import macrof1

from sklearn_macrof1 import (
    MacroF1Counts,
    fbeta_summary,
)

HUGE = "99999999999999999999"  # beyond int64


def _assert_one_line_error(status, err, *words):
    assert status == 1
    assert err.startswith("macrof1: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


@pytest.fixture
def table(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "preds.csv"
    frame = pd.DataFrame(
        {
            "y": rng.integers(0, 3, 200),
            "p": rng.integers(0, 3, 200),
            "weight": np.round(rng.random(200) * 100, 2),
            "whole": rng.integers(0, 3, 200).astype(float),
        }
    )
    frame.loc[0, "weight"] = 12.5  # certainly continuous
    frame.to_csv(path, index=False)
    return path, frame


def test_continuous_column_is_refused_as_by_the_api(table):
    path, _ = table
    status, out, err = macrof1(["score", str(path), "--true", "y", "--pred", "weight"])
    _assert_one_line_error(status, err, "continuous", "'weight'")
    assert out == ""


def test_whole_float_column_is_scored_as_float_labels(table):
    path, frame = table
    status, out, _ = macrof1(
        ["score", str(path), "--true", "whole", "--pred", "y", "--format", "json"]
    )
    assert status == 0
    from sklearn.metrics import f1_score

    got = json.loads(out)["scores"]["averaged_fbeta"]
    assert got == pytest.approx(
        f1_score(frame["whole"], frame["y"].astype(float), average="macro")
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["matrix", "2", "1", HUGE, "0", "1"],
        ["matrix", "2", HUGE, HUGE, HUGE, HUGE, "--format", "json"],
        ["matrix", "2", "1", "2", "3", "4", "--labels", HUGE],
        ["matrix", "2", "1", "2", "3", "4", "--pos-label", HUGE, "--average", "binary"],
        ["matrix", "2", "1", "2", "3", "4", "--class-names", f"a,{HUGE}"],
    ],
)
def test_huge_numbers_in_arguments_never_raise(argv):
    status, _, err = macrof1(argv)
    assert status in (0, 1)
    if status == 1:
        _assert_one_line_error(status, err)


def test_huge_integers_in_label_files_columns_and_matrix_files(tmp_path):
    truth, pred = tmp_path / "t.txt", tmp_path / "p.txt"
    truth.write_text(f"1\n{HUGE}\n1\n")
    pred.write_text(f"1\n{HUGE}\n2\n")
    status, out, _ = macrof1(["score", str(truth), str(pred), "--format", "json"])
    assert status == 0
    labels = [c["label"] for c in json.loads(out)["classes"]]
    assert HUGE in labels  # an identifier, kept exactly (as a string)
    for option in ("--labels", "--pos-label"):
        extra = ["--average", "binary"] if option == "--pos-label" else []
        status, _, err = macrof1(["score", str(truth), str(pred), option, HUGE, *extra])
        assert status in (0, 1), err
    table = tmp_path / "t.csv"
    table.write_text(f"y,p\n1,{HUGE}\n2,2\n")
    assert macrof1(["score", str(table), "--true", "y", "--pred", "p"])[0] == 0
    status, _, err = macrof1(
        ["score", str(table), "--true", "y", "--pred", "p", "--labels", HUGE]
    )
    assert status in (0, 1), err
    matrix = tmp_path / "m.csv"
    matrix.write_text(f"1,{HUGE}\n0,1\n")
    assert macrof1(["matrix", "--file", str(matrix), "--rows", "true"])[0] == 0


def test_matrix_whose_sums_overflow_exits_non_zero_with_a_message():
    status, out, err = macrof1(["matrix", "2", "1e308", "1e308", "1e308", "1e308"])
    _assert_one_line_error(status, err, "too large")
    assert out == ""


def test_beta_inf_in_json():
    status, out, _ = macrof1(
        ["matrix", "2", "1", "2", "3", "4", "--beta", "inf"] + ["--format", "json"]
    )
    assert status == 0
    document = json.loads(out)
    assert document["options"]["beta"] == "inf"
    expected = fbeta_summary(
        MacroF1Counts.from_confusion_matrix([[1, 2], [3, 4]], rows="predicted"),
        beta=np.inf,
    )
    assert document["scores"]["averaged_fbeta"] == pytest.approx(
        expected.averaged_fbeta
    )


CM = np.array([[5, 1, 0], [2, 7, 1], [0, 0, 9]])
NAMES = ["cat", "dog", "eel"]


@pytest.mark.parametrize(
    "frame",
    [
        pd.DataFrame(CM, index=NAMES, columns=NAMES),
        pd.DataFrame(CM),  # pandas' default integer names
    ],
)
def test_pandas_confusion_matrix_csv_uses_its_names(tmp_path, frame):
    path = tmp_path / "cm.csv"
    frame.to_csv(path)
    status, out, _ = macrof1(
        ["matrix", "--file", str(path), "--rows", "true", "--format", "json"]
    )
    assert status == 0
    document = json.loads(out)
    names = [str(c) for c in frame.columns]
    assert [str(c["label"]) for c in document["classes"]] == sorted(names)
    expected = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(CM, rows="true", labels=names)
    )
    assert document["scores"]["averaged_fbeta"] == pytest.approx(
        expected.averaged_fbeta
    )


def test_header_only_and_index_only_matrices_use_their_names(tmp_path):
    header = tmp_path / "h.csv"
    pd.DataFrame(CM, columns=NAMES).to_csv(header, index=False)
    index = tmp_path / "i.csv"
    pd.DataFrame(CM, index=NAMES).to_csv(index, header=False)
    for path in (header, index):
        status, out, _ = macrof1(
            ["matrix", "--file", str(path), "--rows", "true", "--format", "json"]
        )
        assert status == 0
        assert [c["label"] for c in json.loads(out)["classes"]] == NAMES


def test_matrix_whose_header_and_index_disagree_is_refused_saying_so(tmp_path):
    path = tmp_path / "cm.csv"
    pd.DataFrame(CM, index=NAMES, columns=["a", "b", "c"]).to_csv(path)
    status, _, err = macrof1(["matrix", "--file", str(path), "--rows", "true"])
    _assert_one_line_error(status, err, "header row", "first column")


@pytest.mark.slow
def test_unwritable_and_closed_streams_exit_1_without_traceback(tmp_path):
    """The real program: a full device, closed stdout, closed stdin."""
    script = textwrap.dedent(
        """
        set -u
        M="$PYTHON -m sklearn_macrof1"
        $M matrix 2 1 2 3 4 > /dev/full; echo "full=$?"
        $M matrix 2 1 2 3 4 >&-; echo "closed-out=$?"
        $M score - t.txt <&-; echo "closed-in=$?"
        """
    )
    (tmp_path / "t.txt").write_text("a\nb\n")
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    proc = subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHON": sys.executable},
        timeout=600,
    )
    statuses = dict(line.split("=") for line in proc.stdout.split())
    assert statuses == {"full": "1", "closed-out": "1", "closed-in": "1"}, proc
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    errors = proc.stderr.strip().splitlines()
    assert len(errors) == 3 and all(e.startswith("macrof1: error: ") for e in errors)
