"""The classification report: scikit-learn's rows unchanged, both macro F1s added."""

from __future__ import annotations

import dataclasses
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import metrics

from sklearn_macrof1 import (
    MacroF1Counts,
    averaged_f1_score,
    classification_report,
    f1_of_averages_score,
    gap_bound,
)

RNG = np.random.default_rng(0)
Y_TRUE_MC = RNG.integers(0, 4, 60)
Y_PRED_MC = np.where(RNG.random(60) < 0.6, Y_TRUE_MC, RNG.integers(0, 4, 60))
Y_TRUE_ML = RNG.random((40, 5)) < 0.4
Y_PRED_ML = np.where(RNG.random((40, 5)) < 0.7, Y_TRUE_ML, RNG.random((40, 5)) < 0.4)
WEIGHTS = RNG.uniform(0.1, 3.0, 60)

CASES = {
    "binary": ([0, 1, 1, 0, 1, 1, 0], [0, 1, 0, 0, 1, 1, 1], {}),
    "binary strings": (
        ["spam", "ham", "ham", "spam", "ham"],
        ["spam", "spam", "ham", "ham", "ham"],
        {},
    ),
    "multiclass": (Y_TRUE_MC, Y_PRED_MC, {}),
    "multiclass weighted": (Y_TRUE_MC, Y_PRED_MC, {"sample_weight": WEIGHTS}),
    "multiclass labels subset": (Y_TRUE_MC, Y_PRED_MC, {"labels": [2, 0]}),
    "multiclass labels superset": (Y_TRUE_MC, Y_PRED_MC, {"labels": [0, 1, 2, 3, 7]}),
    "multiclass names": (
        Y_TRUE_MC,
        Y_PRED_MC,
        {"target_names": ["ant", "bee", "cat", "dog"], "digits": 4},
    ),
    "multiclass zero_division 1": (
        [0, 0, 1, 2],
        [0, 0, 0, 0],
        {"zero_division": 1.0},
    ),
    "multiclass zero_division nan": (
        [0, 0, 1, 2],
        [0, 0, 0, 0],
        {"zero_division": np.nan},
    ),
    "strings": (
        np.array(["cat", "dog", "bird", "dog", "cat", "cat"]),
        np.array(["cat", "cat", "bird", "dog", "dog", "cat"]),
        {},
    ),
    "multilabel": (Y_TRUE_ML, Y_PRED_ML, {}),
    "multilabel sparse weighted": (
        sp.csr_matrix(Y_TRUE_ML),
        sp.csr_matrix(Y_PRED_ML),
        {"sample_weight": WEIGHTS[:40]},
    ),
    "multilabel labels": (Y_TRUE_ML, Y_PRED_ML, {"labels": [4, 1, 2]}),
}


#: The keys the report adds to scikit-learn's (documented in its docstring).
EXTRA_HEADERS = ("f1-of-averages", "gap", "gap-bound")
AVERAGE_ROWS = {
    "micro avg": {"f1-of-averages"},
    "macro avg": {"f1-of-averages", "gap", "gap-bound"},
    "weighted avg": {"f1-of-averages"},
    "samples avg": {"f1-of-averages"},
}


def _sklearn(y_true, y_pred, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return metrics.classification_report(y_true, y_pred, **kwargs)


def _ours(y_true, y_pred, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return classification_report(y_true, y_pred, **kwargs)


def _assert_same_value(ours, theirs, where, *, exact=True):
    """Exactly sklearn's number; weighted counts may differ in the last bit only
    (float sums in another order)."""
    if isinstance(theirs, float) and np.isnan(theirs):
        assert np.isnan(ours), where
    elif exact:
        assert ours == theirs, where
    else:
        assert ours == pytest.approx(theirs, rel=1e-13, abs=1e-15), where


@pytest.mark.parametrize("case", list(CASES))
def test_dict_holds_sklearn_values_under_sklearn_keys(case):
    y_true, y_pred, kwargs = CASES[case]
    theirs = _sklearn(y_true, y_pred, output_dict=True, **kwargs)
    ours = _ours(y_true, y_pred, output_dict=True, **kwargs)
    exact = "sample_weight" not in kwargs
    assert list(ours) == list(theirs)  # same rows, same order, nothing added
    for row, value in theirs.items():
        if isinstance(value, dict):
            assert list(ours[row])[: len(value)] == list(value)
            for key, number in value.items():
                _assert_same_value(ours[row][key], number, (row, key), exact=exact)
            extra = set(ours[row]) - set(value)
            assert extra <= set(EXTRA_HEADERS)
            assert extra == (set() if row not in AVERAGE_ROWS else AVERAGE_ROWS[row])
        else:  # accuracy
            _assert_same_value(ours[row], value, row, exact=exact)


@pytest.mark.parametrize("case", list(CASES))
def test_text_extends_every_sklearn_line(case):
    """Where sklearn's columns hold its values, each of its lines is a prefix of
    ours; weighted supports (long floats) overflow sklearn's 9-wide column, which
    ours widen, so there the values (tokens) are compared: the same text, supports
    included (the weighted sums are scikit-learn's to the last bit)."""
    y_true, y_pred, kwargs = CASES[case]
    theirs = _sklearn(y_true, y_pred, **kwargs).splitlines()
    ours = _ours(y_true, y_pred, **kwargs).splitlines()
    assert len(ours) > len(theirs)
    for mine, line in zip(ours, theirs, strict=False):
        if "sample_weight" in kwargs:
            tokens = line.split()
            mine_tokens = mine.split()[: len(tokens)]
            assert mine_tokens == tokens, (mine, line)
            continue
        assert mine.startswith(line), (mine, line)
        rest = mine[len(line) :]
        assert rest == "" or rest.startswith(" "), mine
    assert ours[len(theirs)] == ""  # then the legend
    assert "f1-of-averages" in ours[0] and "gap-bound" in ours[0]
    assert any("averaged F1" in line for line in ours[len(theirs) :])


@pytest.mark.parametrize(
    ("case", "averages"),
    [
        ("multiclass", ("macro", "weighted")),
        ("multiclass weighted", ("macro", "weighted")),
        ("multiclass labels subset", ("micro", "macro", "weighted")),
        ("multilabel", ("micro", "macro", "weighted", "samples")),
        ("multilabel labels", ("micro", "macro", "weighted", "samples")),
    ],
)
def test_new_values_are_the_two_scores(case, averages):
    y_true, y_pred, kwargs = CASES[case]
    report = _ours(y_true, y_pred, output_dict=True, **kwargs)
    score_kwargs = {k: v for k, v in kwargs.items() if k in ("labels", "sample_weight")}
    for average in averages:
        row = report[f"{average} avg"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = f1_of_averages_score(
                y_true, y_pred, average=average, **score_kwargs
            )
            averaged = averaged_f1_score(
                y_true, y_pred, average=average, **score_kwargs
            )
        assert row["f1-of-averages"] == pytest.approx(expected, abs=1e-12)
        assert row["f1-score"] == pytest.approx(averaged, abs=1e-12)
    macro = report["macro avg"]
    assert macro["gap"] == pytest.approx(
        macro["f1-of-averages"] - macro["f1-score"], abs=1e-12
    )
    assert macro["gap"] >= 0
    n_labels = (
        len(kwargs.get("labels", np.unique(y_true)))
        if y_true.ndim == 1
        else (len(kwargs.get("labels", range(y_true.shape[1]))))
    )
    assert macro["gap-bound"] == gap_bound(n_labels)
    assert "gap" not in report["weighted avg"]


def test_paper_table_1_report():
    """The paper's Table 1: sklearn's macro F1 0.0196, F1 of averages 0.505."""
    report = classification_report(
        MacroF1Counts.from_confusion_matrix([[100, 10000], [0, 100]], rows="predicted"),
        output_dict=True,
    )
    macro = report["macro avg"]
    assert macro["f1-score"] == pytest.approx(0.0196078431, abs=1e-9)
    assert macro["f1-of-averages"] == pytest.approx(0.504950495, abs=1e-9)
    assert macro["gap"] == pytest.approx(0.485342651, abs=1e-9)
    assert macro["gap-bound"] == 0.5


@pytest.mark.parametrize("rows", ["true", "predicted"])
def test_confusion_matrix_report_equals_report_of_the_samples(rows):
    names = np.array(["zebra", "ant", "moose"])
    y_true = names[Y_TRUE_MC % 3]
    y_pred = names[Y_PRED_MC % 3]
    matrix = metrics.confusion_matrix(y_true, y_pred, labels=names)
    given = matrix if rows == "true" else matrix.T
    for output_dict in (True, False):
        from_matrix = classification_report(
            MacroF1Counts.from_confusion_matrix(given, rows=rows, labels=names),
            output_dict=output_dict,
        )
        direct = classification_report(
            y_true, y_pred, labels=names, output_dict=output_dict
        )
        assert from_matrix == direct
    text = classification_report(MacroF1Counts.from_confusion_matrix(given, rows=rows))
    assert [line.split()[0] for line in text.splitlines()[2:5]] == ["0", "1", "2"]
    # matrix order is kept, not sorted
    text = classification_report(
        MacroF1Counts.from_confusion_matrix(given, rows=rows, labels=names)
    )
    assert [line.split()[0] for line in text.splitlines()[2:5]] == list(names)


def test_report_from_counts_is_the_report():
    counts = MacroF1Counts.from_predictions(Y_TRUE_ML, Y_PRED_ML)
    assert counts._samples is not None
    assert classification_report(counts, digits=3) == classification_report(
        Y_TRUE_ML, Y_PRED_ML, digits=3
    )
    # a multilabel record without per-sample counts (no public constructor
    # makes one: the record's internal per-sample counts removed)
    no_samples = dataclasses.replace(counts, _samples=None)
    with pytest.raises(ValueError, match="per-sample counts"):
        classification_report(no_samples)
    assert isinstance(no_samples, MacroF1Counts)


def _column_ends(header: str) -> list[int]:
    return [m.end() for m in re.finditer(r"\S+", header)]


@pytest.mark.parametrize("digits", [0, 1, 2, 5, 8, 12])
@pytest.mark.parametrize(
    "names", [None, ["a", "b", "c", "d"], ["x" * 30, "y", "a name with spaces", "z"]]
)
def test_text_columns_stay_aligned(digits, names):
    text = classification_report(
        Y_TRUE_MC,
        Y_PRED_MC,
        target_names=names,
        digits=digits,
        sample_weight=WEIGHTS,
    )
    lines = text.splitlines()
    ends = _column_ends(lines[0])
    assert len(ends) == 7
    table = [line for line in lines[2:] if line][:7]  # 4 classes and 3 averages
    name_width = max(len(n) for n in (names or ["weighted avg"]))
    name_end = max(name_width, len("weighted avg"), digits)
    for line in table:
        assert line[name_end] == " " and line[name_end - 1] != " ", line
        values = line[name_end:]
        for match in re.finditer(r"\S+", values):
            assert name_end + match.end() in ends, (line, ends)
    # every value of a column ends exactly under its header
    macro = next(line for line in table if "macro avg" in line)
    assert len(re.findall(r"\S+", macro[name_end:])) == 7


def test_accuracy_or_micro_row_as_sklearn():
    report = classification_report(
        [1, 1, 0], [1, 1, 1], labels=[1, 2, 3], output_dict=True, zero_division=0.0
    )
    assert "accuracy" not in report and "micro avg" in report
    assert "f1-of-averages" in report["micro avg"]
    report = classification_report(
        [1, 1, 0], [1, 1, 1], output_dict=True, zero_division=0.0
    )
    assert report["accuracy"] == pytest.approx(2 / 3)


def test_target_names_mismatch():
    with pytest.raises(ValueError, match="target_names"):
        classification_report([0, 1, 2], [0, 1, 1], target_names=["a", "b"])
    with pytest.warns(UserWarning, match="labels size, 2, does not match"):
        classification_report(
            [0, 1, 2], [0, 1, 1], labels=[0, 1], target_names=["a", "b", "c"]
        )
    with pytest.raises(ValueError, match="target_names"):
        classification_report(
            MacroF1Counts.from_confusion_matrix(np.eye(3), rows="true"),
            target_names=["a", "b"],
        )


# the example of scikit-learn's issue #29205, whose dict loses two classes
CLASH_TRUE = ["accuracy", "b", "b", "accuracy", "macro avg"]
CLASH_PRED = ["accuracy", "b", "accuracy", "accuracy", "b"]


@pytest.mark.parametrize("form", ["output_dict", "as_frame"])
def test_class_named_as_a_summary_row_is_refused_not_lost(form):
    """scikit-learn's dict overwrites the classes 'accuracy' and 'macro avg' with
    the summary rows; ours refuses, naming the classes and the fix."""
    theirs = metrics.classification_report(
        CLASH_TRUE, CLASH_PRED, output_dict=True, zero_division=0
    )
    assert list(theirs) == ["accuracy", "b", "macro avg", "weighted avg"]  # the loss
    message = (
        f"classification_report with {form}=True: the classes 'accuracy', 'macro avg' "
        "have the name of a summary row of the report (accuracy, macro avg, weighted "
        "avg), which would hide them (scikit-learn's report drops such a class). "
        "Rename the classes with target_names="
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        classification_report(CLASH_TRUE, CLASH_PRED, zero_division=0, **{form: True})
    renamed = classification_report(
        CLASH_TRUE,
        CLASH_PRED,
        zero_division=0,
        target_names=["accuracy (class)", "b", "macro avg (class)"],
        **{form: True},
    )
    rows = list(renamed if form == "output_dict" else renamed.index)
    assert rows[:3] == ["accuracy (class)", "b", "macro avg (class)"]
    assert rows[3:] == ["accuracy", "macro avg", "weighted avg"]
    text = classification_report(CLASH_TRUE, CLASH_PRED, zero_division=0)
    assert [
        re.split(r"\s{2,}", line.strip())[0] for line in text.splitlines()[2:5]
    ] == [
        "accuracy",
        "b",
        "macro avg",
    ]


def test_only_the_rows_a_report_has_clash():
    """A class 'micro avg' in a report whose micro row is 'accuracy', or the
    multilabel 'samples avg' in a multiclass one, hides nothing."""
    y = ["micro avg", "samples avg", "x", "x"]
    report = classification_report(y, y, output_dict=True)
    assert list(report)[:3] == ["micro avg", "samples avg", "x"]
    # with labels leaving a class out, the micro row is named "micro avg"
    with pytest.raises(ValueError, match="the class 'micro avg' has the name"):
        classification_report(y, y, labels=["micro avg", "x"], output_dict=True)
    # target_names may collide too; the accuracy interval's key as well
    with pytest.raises(ValueError, match="the class 'weighted avg' has the name"):
        classification_report(
            [0, 1], [0, 1], target_names=["a", "weighted avg"], as_frame=True
        )
    with pytest.raises(ValueError, match="the class 'accuracy-ci' has the name"):
        classification_report(
            [0, 1] * 20,
            [0, 1] * 19 + [1, 1],
            target_names=["a", "accuracy-ci"],
            output_dict=True,
            confidence=0.9,
        )
    # as a frame, the key of the interval is a column: no clash
    frame = classification_report(
        [0, 1] * 20,
        [0, 1] * 19 + [1, 1],
        target_names=["a", "accuracy-ci"],
        as_frame=True,
        confidence=0.9,
    )
    assert list(frame.index)[:2] == ["a", "accuracy-ci"]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"digits": -1}, "digits"),
        ({"digits": 2.5}, "digits"),
        ({"digits": True}, "digits"),
        ({"output_dict": "yes"}, "output_dict"),
        ({"zero_division": "nope"}, "zero_division"),
        ({"sample_weight": [1.0, 2.0]}, "sample_weight"),
    ],
)
def test_bad_options(kwargs, match):
    with pytest.raises(ValueError, match=match):
        classification_report([0, 1, 2], [0, 1, 1], **kwargs)


def test_bad_matrix_orientation():
    with pytest.raises(ValueError, match="rows must say"):
        classification_report(
            MacroF1Counts.from_confusion_matrix(np.eye(2), rows="gold")
        )


def test_warns_like_sklearn():
    with pytest.warns(metrics._classification.UndefinedMetricWarning):
        classification_report([0, 0, 1], [0, 0, 0])


def test_dict_with_no_labels_as_sklearn():
    """labels=[]: no class rows; micro pools nothing (0.0), macro and weighted are
    empty means (nan), as in scikit-learn's dict (its text report raises)."""
    ours = _ours(Y_TRUE_MC, Y_PRED_MC, labels=[], output_dict=True)
    theirs = _sklearn(Y_TRUE_MC, Y_PRED_MC, labels=[], output_dict=True)
    assert list(ours) == list(theirs) == ["micro avg", "macro avg", "weighted avg"]
    for row, values in theirs.items():
        for key, number in values.items():
            _assert_same_value(ours[row][key], number, (row, key))
