"""Each rule about averages is defined once, and every result follows it.

``sklearn_macrof1._averages`` holds the valid averages and which of them
have a gap, a bound, an attribution and an interval; these tests check the
public results against those definitions (so that a result that keeps a rule of
its own is caught), and the helpers that build the messages.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from _program import macrof1

from sklearn_macrof1 import (
    fbeta_confidence_interval,
    fbeta_summary,
    get_scorer_names,
)

# the table of averages (which have a gap, a bound, an attribution, an
# interval) and its message helpers have no public face: the results are
# checked against the table
from sklearn_macrof1._averages import (
    AVERAGES,
    CLASS_MEANS,
    HAS_BOUND,
    HAS_GAP,
    HAS_INTERVAL,
    averages_of,
    has_closed_form,
    ordered,
    spelled,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn.exceptions.UndefinedMetricWarning"
)

RNG = np.random.default_rng(3)
Y_MULTICLASS = RNG.integers(0, 4, 80)
P_MULTICLASS = np.where(RNG.random(80) < 0.6, Y_MULTICLASS, RNG.integers(0, 4, 80))
Y_MULTILABEL = RNG.integers(0, 2, (40, 3))
P_MULTILABEL = np.where(RNG.random((40, 3)) < 0.7, Y_MULTILABEL, 1 - Y_MULTILABEL)
Y_BINARY = RNG.integers(0, 2, 60)
P_BINARY = np.where(RNG.random(60) < 0.7, Y_BINARY, 1 - Y_BINARY)


def _data(average: str) -> tuple[np.ndarray, np.ndarray]:
    if average == "samples":
        return Y_MULTILABEL, P_MULTILABEL
    if average == "binary":
        return Y_BINARY, P_BINARY
    return Y_MULTICLASS, P_MULTICLASS


def test_the_rules_are_subsets_of_the_valid_averages() -> None:
    assert AVERAGES == ("binary", "micro", "macro", "weighted", "samples")
    for rule in (HAS_GAP, HAS_BOUND, CLASS_MEANS, HAS_INTERVAL):
        assert set(rule) <= set(AVERAGES)
    assert set(HAS_BOUND) <= set(HAS_GAP)
    assert set(CLASS_MEANS) <= set(HAS_GAP)


@pytest.mark.parametrize("average", AVERAGES)
def test_results_follow_the_rules(average: str) -> None:
    y_true, y_pred = _data(average)
    summary = fbeta_summary(y_true, y_pred, average=average)
    # a gap only where the mean is taken before the harmonic mean
    if average not in HAS_GAP:
        assert summary.gap == pytest.approx(0.0, abs=1e-12)
    # the bound: in the text, the notebook view and the frame only where proven
    text = str(summary)
    headings = re.split(r"\s{2,}", text.splitlines()[1].strip())
    assert headings[:2] == ["average", "averaged F1"]
    assert ("gap bound" in headings) == (average in HAS_BOUND)
    assert ("Theorem 3" in text) == (average in HAS_BOUND)
    assert ("gap bound" in summary._repr_html_()) == (average in HAS_BOUND)
    frame = summary.to_frame()
    assert ("gap-bound" in frame.columns) == (average in HAS_BOUND)
    # the attribution exists for the means over classes
    if average in CLASS_MEANS:
        attribution = summary.gap_attribution()
        assert attribution.gap == pytest.approx(summary.gap, abs=1e-12)
    else:
        with pytest.raises(ValueError, match="splits a mean over classes"):
            summary.gap_attribution()
    # the closed form: macro, beta = 1
    assert (summary.gap_closed_form is not None) == has_closed_form(average, 1.0)
    assert fbeta_summary(y_true, y_pred, average=average, beta=2).gap_closed_form is (
        None
    )
    # an interval for each: one score per formula
    assert average in HAS_INTERVAL
    interval = fbeta_confidence_interval(y_true, y_pred, average=average)
    assert interval.average == average


def test_no_interval_without_an_average_lists_the_ones_with_one() -> None:
    with pytest.raises(ValueError) as info:
        fbeta_confidence_interval(Y_MULTICLASS, P_MULTICLASS, average=None)
    listed = re.findall(r"'(\w+)'", str(info.value).split("use ")[-1])
    assert sorted(listed) == sorted(HAS_INTERVAL)


def test_scorer_names_and_cli_choices_cover_every_average() -> None:
    names = get_scorer_names()
    for average in AVERAGES:
        assert f"averaged_f1_{average}" in names
        assert f"f1_of_averages_{average}" in names
    status, out, _ = macrof1(["score", "--help"])
    assert status == 0  # --help: the usage, then exit
    choices = re.search(r"--average \{([a-z,]+)\}", out)
    assert choices is not None
    assert choices[1].split(",") == [
        "macro",
        "micro",
        "weighted",
        "samples",
        "binary",
        "none",
    ]
    assert set(choices[1].split(",")) == {*AVERAGES, "none"}


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("binary", ("binary", "micro", "macro", "weighted")),
        ("multiclass", ("micro", "macro", "weighted")),
        ("multilabel-indicator", ("micro", "macro", "weighted", "samples")),
    ],
)
def test_averages_of_a_target_kind(kind: str, expected: tuple[str, ...]) -> None:
    assert averages_of(kind) == expected


def test_ordered_and_spelled() -> None:
    assert ordered(AVERAGES, "macro", "micro", "weighted") == (
        "macro",
        "micro",
        "weighted",
        "binary",
        "samples",
    )
    assert ordered(("micro", "macro"), "samples", "macro") == ("macro", "micro")
    assert spelled(["macro", "micro", None]) == "'macro', 'micro' or None"
    assert spelled(["macro", "weighted"]) == "'macro' or 'weighted'"
    assert spelled(["macro"]) == "'macro'"
