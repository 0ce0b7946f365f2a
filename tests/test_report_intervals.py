"""classification_report(..., confidence=...): interval columns of both scores."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import classification_report as sk_report

from sklearn_macrof1 import (
    CoverageWarning,
    MacroF1Accumulator,
    MacroF1Counts,
    classification_report,
    fbeta_confidence_interval,
    fbeta_summary,
)

RNG = np.random.default_rng(3)
Y_TRUE = RNG.integers(0, 3, 300)
Y_PRED = np.where(RNG.random(300) < 0.7, Y_TRUE, RNG.integers(0, 3, 300))
ROWS = {"macro avg": "macro", "weighted avg": "weighted"}


@pytest.mark.parametrize("method", ["delta", "bootstrap"])
def test_dict_intervals_equal_the_library(method):
    report = classification_report(
        Y_TRUE,
        Y_PRED,
        output_dict=True,
        confidence=0.9,
        interval_method=method,
        n_resamples=200,
        random_state=0,
    )
    if method == "delta":  # the bootstrap shares one generator across rows
        for row, average in ROWS.items():
            ci = fbeta_confidence_interval(
                Y_TRUE, Y_PRED, average=average, confidence=0.9, method=method
            )
            assert report[row]["f1-score-ci"] == [
                ci.averaged_fbeta.low,
                ci.averaged_fbeta.high,
            ]
            assert report[row]["f1-of-averages-ci"] == [
                ci.fbeta_of_averages.low,
                ci.fbeta_of_averages.high,
            ]
        micro = fbeta_confidence_interval(
            Y_TRUE, Y_PRED, average="micro", confidence=0.9, method=method
        )
        assert report["accuracy-ci"] == {
            "f1-score-ci": [micro.averaged_fbeta.low, micro.averaged_fbeta.high]
        }
    for row in ROWS:
        low, high = report[row]["f1-score-ci"]
        assert low <= report[row]["f1-score"] <= high
        low, high = report[row]["f1-of-averages-ci"]
        assert low <= report[row]["f1-of-averages"] <= high


def test_sklearn_keys_and_values_unchanged():
    ours = classification_report(Y_TRUE, Y_PRED, output_dict=True, confidence=0.95)
    theirs = sk_report(Y_TRUE, Y_PRED, output_dict=True)
    for key, value in theirs.items():
        if isinstance(value, dict):
            assert {k: ours[key][k] for k in value} == pytest.approx(value)
        else:
            assert ours[key] == pytest.approx(value)
    new = set(ours) - set(theirs)
    assert new == {"accuracy-ci"}


def test_bootstrap_report_is_reproducible():
    kw = dict(confidence=0.95, interval_method="bootstrap", n_resamples=100)
    a = classification_report(Y_TRUE, Y_PRED, random_state=7, **kw)
    b = classification_report(Y_TRUE, Y_PRED, random_state=7, **kw)
    assert a == b


def test_text_columns_and_unchanged_without_confidence():
    plain = classification_report(Y_TRUE, Y_PRED)
    assert plain == classification_report(Y_TRUE, Y_PRED, confidence=None)
    text = classification_report(Y_TRUE, Y_PRED, confidence=0.95, digits=3)
    header = text.splitlines()[0]
    assert "f1-score 95% CI" in header and "f1-of-averages 95% CI" in header
    ci = fbeta_confidence_interval(Y_TRUE, Y_PRED, average="macro")
    macro = next(line for line in text.splitlines() if "macro avg" in line)
    assert f"[{ci.averaged_fbeta.low:.3f}, {ci.averaged_fbeta.high:.3f}]" in macro
    assert f"[{ci.fbeta_of_averages.low:.3f}, {ci.fbeta_of_averages.high:.3f}]" in macro
    # the plain report's lines are the start of the interval report's lines
    two = classification_report(Y_TRUE, Y_PRED, confidence=0.95)
    for a, b in zip(plain.splitlines()[:7], two.splitlines()[:7], strict=True):
        assert b.startswith(a)


def test_multilabel_has_samples_row_interval():
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 2, (200, 3))
    y_pred = np.where(rng.random((200, 3)) < 0.8, y_true, 1 - y_true)
    report = classification_report(
        y_true, y_pred, output_dict=True, confidence=0.95, zero_division=0.0
    )
    ci = fbeta_confidence_interval(y_true, y_pred, average="samples", zero_division=0.0)
    assert report["samples avg"]["f1-score-ci"] == [
        ci.averaged_fbeta.low,
        ci.averaged_fbeta.high,
    ]
    assert "micro avg" in report and "f1-of-averages-ci" in report["micro avg"]


def test_matrix_report_intervals_equal_summary_intervals():
    matrix = [[50, 5, 3], [4, 40, 6], [2, 8, 30]]
    report = classification_report(
        MacroF1Counts.from_confusion_matrix(matrix, rows="true"),
        output_dict=True,
        confidence=0.95,
    )
    summary = fbeta_summary(MacroF1Counts.from_confusion_matrix(matrix, rows="true"))
    ci = summary.confidence_interval(confidence=0.95)
    assert report["macro avg"]["f1-score-ci"] == [
        ci.averaged_fbeta.low,
        ci.averaged_fbeta.high,
    ]
    assert report["macro avg"]["f1-of-averages-ci"] == [
        ci.fbeta_of_averages.low,
        ci.fbeta_of_averages.high,
    ]
    # and the matrix path agrees with the samples behind the matrix
    y_true = np.repeat([0, 0, 0, 1, 1, 1, 2, 2, 2], np.ravel(matrix))
    y_pred = np.repeat([0, 1, 2] * 3, np.ravel(matrix))
    direct = classification_report(y_true, y_pred, output_dict=True, confidence=0.95)
    assert direct["macro avg"]["f1-score-ci"] == pytest.approx(
        report["macro avg"]["f1-score-ci"]
    )


def test_weighted_matrix_is_refused():
    with pytest.raises(ValueError, match="non-integer"):
        classification_report(
            MacroF1Counts.from_confusion_matrix([[1.5, 0.5], [0.25, 2]], rows="true"),
            confidence=0.95,
        )


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.1, "0.95", True, np.nan])
def test_bad_confidence_raises(bad):
    with pytest.raises(ValueError, match="'confidence' parameter"):
        classification_report(Y_TRUE, Y_PRED, confidence=bad)
    with pytest.raises(ValueError, match="'confidence' parameter"):
        classification_report(
            MacroF1Counts.from_confusion_matrix([[1, 2], [3, 4]], rows="true"),
            confidence=bad,
        )


def test_bad_interval_options_raise():
    with pytest.raises(ValueError, match="'interval_method' parameter"):
        classification_report(Y_TRUE, Y_PRED, confidence=0.9, interval_method="bca")
    with pytest.raises(ValueError, match="'n_resamples' parameter"):
        classification_report(
            Y_TRUE, Y_PRED, confidence=0.9, interval_method="bootstrap", n_resamples=1
        )
    with pytest.raises(ValueError, match="'random_state' parameter"):
        classification_report(
            Y_TRUE, Y_PRED, confidence=0.9, interval_method="bootstrap", random_state=-1
        )


def test_perfect_classifier_warns_once():
    y = [0, 1, 2] * 20
    with pytest.warns(UserWarning, match="zero width") as record:
        report = classification_report(
            y, y, output_dict=True, confidence=0.95, interval_method="delta"
        )
    assert sum("zero width" in str(w.message) for w in record) == 1
    assert report["macro avg"]["f1-score-ci"] == [1.0, 1.0]
    # the default (the posterior for these labels) has positive width
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        report = classification_report(y, y, output_dict=True, confidence=0.95)
    low, high = report["macro avg"]["f1-score-ci"]
    assert low < high == 1.0


def test_posterior_rows_equal_the_library_and_warn_once():
    report = classification_report(
        Y_TRUE, Y_PRED, output_dict=True, confidence=0.95,
        interval_method="posterior", n_resamples=200, random_state=0,
    )  # fmt: skip
    for row, average in ROWS.items():
        ci = fbeta_confidence_interval(
            Y_TRUE, Y_PRED, average=average, method="posterior",
            n_resamples=200, random_state=0,
        )  # fmt: skip
        low, high = report[row]["f1-score-ci"]
        # one generator serves the rows in turn: other draws, the same interval
        # up to the Monte Carlo error of 200 draws
        expected = (ci.averaged_fbeta.low, ci.averaged_fbeta.high)
        assert (low, high) == pytest.approx(expected, abs=0.01)
        assert low <= report[row]["f1-score"] <= high
    y = np.array([0] * 40 + [1] * 40 + [2] * 3)
    with pytest.warns(CoverageWarning) as caught:
        text = classification_report(
            y, y, confidence=0.95, interval_method="posterior", random_state=0
        )
    assert sum(w.category is CoverageWarning for w in caught) == 1
    assert "Dirichlet posterior, 1000 draws" in text


def test_posterior_refusals_name_interval_method():
    # the report's argument is interval_method: its refusals advise in it,
    # from arrays and from a record alike (they said method=, which the report
    # does not take)
    y = np.array([0, 1, 2, 2, 1, 0, 1, 2])
    p = np.array([0, 2, 2, 1, 1, 0, 0, 2])
    w = np.array([1.0, 2, 1, 1, 3, 1, 1, 2])
    with pytest.raises(ValueError) as from_arrays:
        classification_report(
            y, p, sample_weight=w, confidence=0.9, interval_method="posterior"
        )
    accumulator = MacroF1Accumulator(keep="cells")
    accumulator.update(y, p, sample_weight=w)
    with pytest.raises(ValueError) as from_record:
        classification_report(
            accumulator.counts, confidence=0.9, interval_method="posterior"
        )
    for refusal in (from_arrays.value, from_record.value):
        assert "interval_method='posterior'" in str(refusal)
        assert "interval_method='delta'" in str(refusal)
        assert " method=" not in str(refusal)
