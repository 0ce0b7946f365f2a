"""``macrof1 score|matrix --confidence``: intervals in the report, summary, JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest
from _program import macrof1

from sklearn_macrof1 import (
    MacroF1Counts,
    fbeta_confidence_interval,
    fbeta_summary,
)

RNG = np.random.default_rng(5)
Y_TRUE = RNG.choice(["cat", "dog", "bird"], 150)
Y_PRED = np.where(RNG.random(150) < 0.7, Y_TRUE, RNG.choice(["cat", "dog"], 150))
PAPER_SKEWED = "2 100 10000 0 100".split()


@pytest.fixture
def label_files(tmp_path):
    t, p = tmp_path / "true.txt", tmp_path / "pred.txt"
    t.write_text("\n".join(Y_TRUE) + "\n")
    p.write_text("\n".join(Y_PRED) + "\n")
    return [str(t), str(p)]


def test_score_json_intervals_equal_library(label_files):
    status, out, _ = macrof1(["score", *label_files, "--confidence", "0.9",
                          "--format", "json"])  # fmt: skip
    assert status == 0
    doc = json.loads(out)
    ci = fbeta_confidence_interval(Y_TRUE, Y_PRED, confidence=0.9)
    got = doc["intervals"]
    assert got["confidence"] == 0.9 and got["method"] == ci.method == "posterior"
    assert got["averaged_fbeta"]["low"] == ci.averaged_fbeta.low
    assert got["averaged_fbeta"]["high"] == ci.averaged_fbeta.high
    assert got["fbeta_of_averages"]["low"] == ci.fbeta_of_averages.low
    assert got["fbeta_of_averages"]["high"] == ci.fbeta_of_averages.high
    assert doc["options"]["confidence"] == 0.9
    assert doc["schema_version"] == 1


def test_json_without_confidence_has_no_interval_keys(label_files):
    doc = json.loads(macrof1(["score", *label_files, "--format", "json"])[1])
    assert "intervals" not in doc and "confidence" not in doc["options"]


def test_score_bootstrap_is_reproducible_and_equal(label_files):
    argv = ["score", *label_files, "--confidence", "0.95", "--average", "weighted",
            "--interval-method", "bootstrap", "--n-resamples", "200",
            "--random-state", "3", "--format", "json"]  # fmt: skip
    first, second = json.loads(macrof1(argv)[1]), json.loads(macrof1(argv)[1])
    assert first == second
    ci = fbeta_confidence_interval(
        Y_TRUE, Y_PRED, average="weighted", method="bootstrap", n_resamples=200,
        random_state=3,
    )  # fmt: skip
    assert first["intervals"]["averaged_fbeta"]["low"] == ci.averaged_fbeta.low
    assert first["intervals"]["n_resamples"] == 200


def test_score_text_shows_columns_and_summary(label_files):
    status, out, _ = macrof1(["score", *label_files, "--confidence", "0.95"])
    assert status == 0
    assert "f1-score 95% CI" in out and "f1-of-averages 95% CI" in out
    ci = fbeta_confidence_interval(Y_TRUE, Y_PRED)
    lines = out.splitlines()
    title = lines.index("95% confidence intervals (macro average, beta=1)")
    for line, s in zip(
        lines[title + 3 : title + 5],
        (ci.averaged_fbeta, ci.fbeta_of_averages),
        strict=True,
    ):
        assert line.split()[-4:] == [
            f"{v:.6f}" for v in (s.estimate, s.low, s.high, s.std_error)
        ]
    plain = macrof1(["score", *label_files])[1]
    assert "CI" not in plain


def test_matrix_json_intervals_equal_summary():
    status, out, _ = macrof1(["matrix", *PAPER_SKEWED, "--confidence", "0.95",
                          "--format", "json"])  # fmt: skip
    assert status == 0
    doc = json.loads(out)
    summary = fbeta_summary(
        MacroF1Counts.from_confusion_matrix([[100, 10000], [0, 100]], rows="predicted")
    )
    ci = summary.confidence_interval(confidence=0.95)
    assert doc["intervals"]["fbeta_of_averages"]["low"] == ci.fbeta_of_averages.low
    assert doc["intervals"]["averaged_fbeta"]["high"] == ci.averaged_fbeta.high
    text = macrof1(["matrix", *PAPER_SKEWED, "--confidence", "0.95"])[1]
    assert "f1-of-averages 95% CI" in text
    assert text.endswith("\nDirichlet posterior, 1000 draws, n=10200 samples.\n")


def test_average_none_keeps_report_intervals(label_files):
    status, out, _ = macrof1(["score", *label_files, "--confidence", "0.95",
                          "--average", "none"])  # fmt: skip
    assert status == 0
    assert "f1-score 95% CI" in out
    # no summary of one score per formula: no interval table after it
    assert "per class (average=None, beta=1)" in out
    assert "% confidence intervals (" not in out


@pytest.mark.parametrize("level", ["0.975", "0.999", "0.5", "0.001"])
def test_text_names_the_confidence_level_as_given(label_files, level):
    """The interval table's title says the level asked for (97.5%, not 98%), as
    the report's columns do."""
    status, out, _ = macrof1(["score", *label_files, "--confidence", level])
    assert status == 0
    percent = f"{float(level) * 100:g}%"
    assert f"f1-score {percent} CI" in out
    lines = out.splitlines()
    assert f"{percent} confidence intervals (macro average, beta=1)" in lines
    assert sum(line.endswith("confidence intervals (macro average, beta=1)")
               for line in lines) == 1  # fmt: skip


@pytest.mark.parametrize("bad", ["0", "1", "1.5", "-0.2", "abc", "nan"])
def test_bad_confidence_is_a_usage_error(bad):
    status, _, err = macrof1(["matrix", *PAPER_SKEWED, f"--confidence={bad}"])
    assert status == 2
    assert "--confidence" in err


@pytest.mark.parametrize(
    "extra",
    [["--n-resamples", "1"], ["--random-state", "-1"],
     ["--interval-method", "bca"]],
)  # fmt: skip
def test_bad_interval_options_are_usage_errors(extra):
    argv = ["matrix", *PAPER_SKEWED, "--confidence", "0.9", "=".join(extra)]
    status, _, err = macrof1(argv)
    assert status == 2
    assert extra[0] in err


def test_weighted_matrix_is_a_data_error(tmp_path):
    m = tmp_path / "m.csv"
    m.write_text("1.5,0.5\n0.25,2\n")
    status, out, err = macrof1(["matrix", "--file", str(m), "--rows", "true",
                            "--confidence", "0.95"])  # fmt: skip
    assert status == 1 and out == ""
    assert "non-integer" in err


def test_score_intervals_are_those_of_its_count_record(tmp_path, label_files):
    # score counts its input and keeps no samples: the bootstrap redraws the
    # cells of unweighted labels, as fbeta_confidence_interval of the record
    argv = ["--confidence", "0.9", "--interval-method", "bootstrap", "--format",
            "json", "--random-state", "4", "--n-resamples", "200"]  # fmt: skip
    status, out, err = macrof1(["score", *label_files, *argv])
    assert status == 0, err
    counts = MacroF1Counts.from_predictions(Y_TRUE, Y_PRED)
    ci = fbeta_confidence_interval(
        counts, confidence=0.9, method="bootstrap", n_resamples=200, random_state=4
    )
    assert json.loads(out)["intervals"]["averaged_fbeta"]["low"] == (
        ci.averaged_fbeta.low
    )
    # weighted samples and label sets would be redrawn one by one: refused
    table = tmp_path / "t.csv"
    table.write_text("y,p,w\na,a,1\nb,a,2\n")
    for extra in (["--sample-weight", "w"], ["--label-sep", "|"]):
        for method in ("bootstrap", "posterior"):
            status, _, err = macrof1(["score", str(table), "--true", "y", "--pred",
                                      "p", "--confidence", "0.9", *extra,
                                      "--interval-method", method])  # fmt: skip
            assert status == 2
            assert f"--interval-method {method} with" in err
            assert "use --interval-method delta" in err


def test_coverage_warning_in_the_programs_words_once(tmp_path):
    # the report's and the interval's warning are one line, naming options
    path = tmp_path / "m.txt"
    path.write_text("2 0 0\n0 2 1\n0 1 30\n")
    for method, advice in (("delta", True), ("posterior", False)):
        status, _, err = macrof1(
            ["matrix", "--file", str(path), "--rows", "true", "--confidence",
             "0.95", "--interval-method", method]
        )  # fmt: skip
        assert status == 0, err
        lines = [x for x in err.splitlines() if "may cover less often" in x]
        assert len(lines) == 1, err
        assert f"samples with --interval-method {method}," in lines[0]
        assert "or pass --labels without them" in lines[0]
        assert ("--interval-method posterior holds" in lines[0]) is advice
        assert "method=" not in lines[0]
    # weighted: "auto" is the delta method, and the posterior is not advised
    table = tmp_path / "t.csv"
    table.write_text("y,p,w\n" + "0,0,1\n1,1,1\n2,2,1\n" * 3 + "1,0,2\n")
    status, _, err = macrof1(
        ["score", str(table), "--true", "y", "--pred", "p", "--sample-weight",
         "w", "--confidence", "0.95"]
    )  # fmt: skip
    assert status == 0, err
    assert "with --interval-method delta," in err
    assert "posterior" not in err
    # only zeros as weights: the option's name
    table.write_text("y,p,w\n0,0,0\n1,1,0\n")
    status, _, err = macrof1(
        ["score", str(table), "--true", "y", "--pred", "p", "--sample-weight", "w"]
    )
    assert status == 1
    assert "the --sample-weight column holds only zeros (2 rows)" in err


def test_help_says_when_auto_is_the_posterior_and_what_the_seed_seeds():
    status, out, _ = macrof1(["score", "--help"])
    assert status == 0
    text = " ".join(out.split())
    assert (
        "the Dirichlet posterior for unweighted labels, the delta method "
        "otherwise and above 100,000 samples in classes of 20 or more" in text
    )
    assert "seed of the bootstrap and the posterior" in text


def test_matrix_of_weighted_counts_refuses_its_interval_in_the_programs_words():
    status, _, err = macrof1(
        ["matrix", "2", "10.5", "2", "1", "8", "--confidence", "0.95"]
    )
    assert status == 1
    assert "the matrix holds non-integer (sample-weighted) counts" in err
    assert "macrof1 score FILE --sample-weight COL --confidence LEVEL" in err
    assert "y_true" not in err
