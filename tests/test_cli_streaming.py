"""``macrof1 score`` reads its input in chunks: chunk boundaries change
nothing (label types decided over the whole file, errors naming the line,
rows of blank cells, weights), with pyarrow's readers and without them."""

from __future__ import annotations

import json

import numpy as np
import pytest
from _program import macrof1

from sklearn_macrof1 import fbeta_summary

# The chunk size and the pyarrow switch of the reader: no public face.
from sklearn_macrof1._cli import _reading


@pytest.fixture(params=["pyarrow", "csv"])
def tiny_chunks(request, monkeypatch):
    """Chunks of 3 rows; ``csv``: the standard library's reader alone."""
    monkeypatch.setattr(_reading, "CHUNK_ROWS", 3)
    if request.param == "csv":
        monkeypatch.setattr(_reading, "arrow", lambda: None)
    elif _reading.arrow() is None:
        pytest.skip("needs pyarrow")
    return request.param


def scores(path, *options):
    status, out, err = macrof1(
        ["score", str(path), "--true", "y", "--pred", "p", *options, "--format", "json"]
    )
    assert status == 0, err
    return json.loads(out)


def table(tmp_path, rows, name="t.csv"):
    path = tmp_path / name
    path.write_text("y,p,w\n" + "".join(f"{r}\n" for r in rows))
    return path


def test_integers_then_a_string_are_strings(tmp_path, tiny_chunks):
    rows = ["1,1,1", "2,2,1", "10,2,1", "2,2,1", "1,10,1", "x,1,1", "2,x,1"]
    doc = scores(table(tmp_path, rows))
    y = ["1", "2", "10", "2", "1", "x", "2"]
    p = ["1", "2", "2", "2", "10", "1", "x"]
    expected = fbeta_summary(y, p, zero_division=0)
    assert [c["label"] for c in doc["classes"]] == ["1", "10", "2", "x"]
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(expected.averaged_fbeta)
    assert doc["input"]["n_samples"] == 7


def test_whole_numbers_after_integers_are_floats(tmp_path, tiny_chunks):
    rows = ["1,1,1", "2,2,1", "3,2,1", "2,2,1", "1.0,3,1"]
    doc = scores(table(tmp_path, rows))
    assert [c["label"] for c in doc["classes"]] == [1.0, 2.0, 3.0]


def test_an_error_in_a_later_chunk_names_its_line(tmp_path, tiny_chunks):
    rows = ["1,1,1"] * 7 + ["1,,1"] + ["1,1,1"] * 4 + ["2,1.5,1"]
    status, _, err = macrof1(
        ["score", str(table(tmp_path, rows)), "--true", "y", "--pred", "p"]
    )
    assert status == 1
    # the empty label (line 9) is found before the continuous value (line 14)
    assert "column 'p': the value on line 9 is empty" in err
    rows[7] = "1,1,1"
    status, _, err = macrof1(
        ["score", str(table(tmp_path, rows)), "--true", "y", "--pred", "p"]
    )
    assert "column 'p': the value on line 14 is '1.5'" in err
    rows[12] = "2,1.5,1,9"  # a row of another width outranks both
    status, _, err = macrof1(
        ["score", str(table(tmp_path, rows)), "--true", "y", "--pred", "p"]
    )
    assert "line 14 has 4 field(s), the header has 3" in err


def test_chunks_of_blank_rows_are_skipped(tmp_path, tiny_chunks):
    rows = ["1,1,1", "", ",,", " , , ", "", ",,", "2,1,1", "", "", "", "2,2,2"]
    doc = scores(table(tmp_path, rows))
    assert doc["input"]["n_samples"] == 3
    rows.append("x,,1")
    status, _, err = macrof1(
        ["score", str(table(tmp_path, rows)), "--true", "y", "--pred", "p"]
    )
    assert "column 'p': the value on line 13 is empty" in err


def test_weights_across_chunks(tmp_path, tiny_chunks):
    rng = np.random.default_rng(0)
    y, p = rng.integers(0, 4, 20), rng.integers(0, 4, 20)
    w = rng.integers(1, 5, 20).astype(float)
    rows = [f"{a},{b},{c}" for a, b, c in zip(y, p, w, strict=True)]
    doc = scores(table(tmp_path, rows), "--sample-weight", "w")
    expected = fbeta_summary(y, p, sample_weight=w)
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(expected.averaged_fbeta)
    assert [c["support"] for c in doc["classes"]] == expected.support.tolist()
    rows[17] = "1,2,heavy"
    status, _, err = macrof1(
        [
            "score",
            str(table(tmp_path, rows)),
            "--true",
            "y",
            "--pred",
            "p",
            "--sample-weight",
            "w",
        ]
    )
    assert "column 'w': the value on line 19 is not a finite number ('heavy')" in err


def test_label_files_and_label_sets_across_chunks(tmp_path, tiny_chunks):
    true, pred = tmp_path / "true.txt", tmp_path / "pred.txt"
    true.write_text("a\nb\nc\na\nb\nc\na\n\n\n")
    pred.write_text("a\nb\nb\na\nc\nc\nb\n")
    doc = json.loads(macrof1(["score", str(true), str(pred), "--format", "json"])[1])
    expected = fbeta_summary(list("abcabca"), list("abbaccb"))
    assert doc["scores"]["averaged_fbeta"] == pytest.approx(expected.averaged_fbeta)
    sets = tmp_path / "sets.csv"
    sets.write_text("y;p\n" + "a,b;a\nb;b\n;a\nc;c\nc,a;a,c\nb;\n7;b\n")
    status, out, err = macrof1(
        [
            "score",
            str(sets),
            "--true",
            "y",
            "--pred",
            "p",
            "--label-sep",
            ",",
            "--format",
            "json",
        ]
    )
    assert status == 0, err
    assert [c["label"] for c in json.loads(out)["classes"]] == ["7", "a", "b", "c"]


def test_parquet_in_batches(tmp_path, tiny_chunks):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    if tiny_chunks == "csv":
        pytest.skip("Parquet needs pyarrow")
    path = tmp_path / "t.parquet"
    y = [1, 2, 2, 3, 1, 2, 3, None]
    pq.write_table(pa.table({"y": y, "p": [1, 2, 3, 3, 1, 1, 3, 2]}), path)
    status, _, err = macrof1(["score", str(path), "--true", "y", "--pred", "p"])
    assert status == 1
    assert "column 'y': the value in row 8 is empty" in err


def test_standard_input_across_chunks(tiny_chunks):
    rows = "y,p\n" + "1,1\n2,1\n" * 4 + "3,x\n\n2,2\n2,\n"
    status, _, err = macrof1(["score", "-", "--true", "y", "--pred", "p"], rows)
    assert status == 1
    assert "standard input, column 'p': the value on line 13 is empty" in err
    status, out, err = macrof1(
        ["score", "-", "--true", "y", "--pred", "p", "--format", "json"],
        rows.replace("2,\n", "2,1\n"),
    )
    assert status == 0, err
    doc = json.loads(out)
    assert doc["input"]["n_samples"] == 11
    assert [c["label"] for c in doc["classes"]] == ["1", "2", "3", "x"]


@pytest.mark.parametrize("cell", ["nan", "inf", "-inf", "1e999"])
def test_a_weight_that_is_not_finite_in_a_later_chunk_names_its_line(
    tmp_path, tiny_chunks, cell
):
    rows = ["1,1,1", "2,2,0.5", "1,2,2"] * 4
    rows[9] = f"2,1,{cell}"
    options = ["--true", "y", "--pred", "p", "--sample-weight", "w"]
    status, _, err = macrof1(["score", str(table(tmp_path, rows)), *options])
    assert status == 1
    assert f"column 'w': the value on line 11 is not a finite number ('{cell}')" in err


def test_a_parquet_weight_that_is_not_finite_names_its_row(tmp_path, tiny_chunks):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    if tiny_chunks == "csv":
        pytest.skip("Parquet needs pyarrow")
    path = tmp_path / "t.parquet"
    w = [1.0, 0.5, 2.0, 1.0, 1.0, 1.0, float("inf"), 1.0]
    pq.write_table(pa.table({"y": [1, 2] * 4, "p": [1, 1, 2, 2] * 2, "w": w}), path)
    options = ["--true", "y", "--pred", "p", "--sample-weight", "w"]
    status, _, err = macrof1(["score", str(path), *options])
    assert status == 1
    assert "column 'w': the value in row 7 is not a finite number ('inf')" in err


def test_continuous_values_then_a_string_count_every_chunk(tmp_path, tiny_chunks):
    # "1.5" in the first chunk is a continuous value until "x" in a later one
    # makes the column strings: the first chunk is counted as strings too
    rows = ["1.5,1,1", "1,1,1", "2,2,1", "x,1,1", "2,2,1", "2,1,1", "nan,2,1"]
    y = ["1.5", "1", "2", "x", "2", "2", "nan"]
    p = ["1", "1", "2", "1", "2", "1", "2"]
    expected = fbeta_summary(y, p, zero_division=0)
    for path in (table(tmp_path, rows), table(tmp_path, rows[:-1] + ['"nan",2,1'])):
        doc = scores(path, "--zero-division", "0")
        assert doc["input"]["n_samples"] == 7
        assert [c["support"] for c in doc["classes"]] == expected.support.tolist()
        assert doc["scores"]["averaged_fbeta"] == expected.averaged_fbeta
    true, pred = tmp_path / "true.txt", tmp_path / "pred.txt"
    true.write_text("".join(f"{v}\n" for v in y))
    pred.write_text("".join(f"{v}\n" for v in p))
    status, out, err = macrof1(
        ["score", str(true), str(pred), "--zero-division", "0", "--format", "json"]
    )
    assert status == 0, err
    assert json.loads(out)["input"]["n_samples"] == 7


def test_integers_keep_their_text_when_a_later_chunk_makes_them_strings(
    tmp_path, tiny_chunks
):
    # integer columns are read as numbers (pyarrow's reader, or NumPy's without
    # it): "05" and "+3" are the labels 5 and 3 while every label is an
    # integer, and their own text once a string, chunks later, makes the column
    # strings; "0x10" is a string, never 16
    rows = ["1,1,1", "05,5,1", "2,2,1"] * 3
    doc = scores(table(tmp_path, [*rows, "+3,3,1"]))
    assert [c["label"] for c in doc["classes"]] == [1, 2, 3, 5]
    assert doc["input"]["n_samples"] == 10
    for last in ("x,1,1", "0x10,16,1"):
        y, p = zip(*(r.split(",")[:2] for r in [*rows, last, last]), strict=True)
        doc = scores(table(tmp_path, [*rows, last, last]))
        assert [c["label"] for c in doc["classes"]] == sorted({*y, *p})
        expected = fbeta_summary(list(y), list(p), zero_division=0)
        assert [c["support"] for c in doc["classes"]] == expected.support.tolist()
