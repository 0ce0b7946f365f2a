"""Paired comparison of two classifiers under both formulas."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from sklearn_macrof1 import (
    averaged_f1_score,
    compare_classifiers,
    f1_of_averages_score,
    fbeta_confidence_interval,
)


def _noisy(y, accuracy, rng, k):
    return np.where(
        rng.random(y.shape[0]) < accuracy, y, rng.integers(0, k, y.shape[0])
    )


def test_scores_and_differences_match_the_score_functions():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 2000)
    a, b = _noisy(y, 0.8, rng, 4), _noisy(y, 0.7, rng, 4)
    for method in ("delta", "bootstrap"):
        c = compare_classifiers(y, a, b, method=method, random_state=0, n_resamples=300)
        assert c.averaged_fbeta.score_a == pytest.approx(averaged_f1_score(y, a))
        assert c.fbeta_of_averages.score_b == pytest.approx(f1_of_averages_score(y, b))
        for d in (c.averaged_fbeta, c.fbeta_of_averages):
            assert d.difference == pytest.approx(d.score_a - d.score_b)
            assert d.low < d.difference < d.high
            assert d.low > 0  # 10 points of accuracy on 2000 samples
            assert d.p_value < 0.01  # bootstrap: >= 2 / (n_resamples + 1)
        assert not c.rankings_differ
        assert c.reversal_p_value is None
        assert "prefers A" in c.statement


def test_pairing_makes_the_difference_tighter_than_independent_intervals():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 3000)
    a = _noisy(y, 0.8, rng, 3)
    b = a.copy()
    flip = rng.random(3000) < 0.02  # B differs from A on 2% of the samples
    b[flip] = rng.integers(0, 3, flip.sum())
    c = compare_classifiers(y, a, b)
    single = fbeta_confidence_interval(y, a)
    assert c.averaged_fbeta.std_error < 0.5 * single.averaged_fbeta.std_error


def test_delta_and_paired_bootstrap_agree():
    rng = np.random.default_rng(2)
    y = rng.choice(5, 3000, p=[0.4, 0.25, 0.15, 0.12, 0.08])
    a, b = _noisy(y, 0.75, rng, 5), _noisy(y, 0.73, rng, 5)
    w = rng.uniform(0.5, 2, 3000)
    for weights in (None, w):
        d = compare_classifiers(y, a, b, sample_weight=weights)
        s = compare_classifiers(
            y, a, b, sample_weight=weights, method="bootstrap", random_state=3
        )
        for name in ("averaged_fbeta", "fbeta_of_averages"):
            assert getattr(d, name).std_error == pytest.approx(
                getattr(s, name).std_error, rel=0.15
            )


def test_identical_classifiers():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 500)
    a = _noisy(y, 0.7, rng, 3)
    for method in ("delta", "bootstrap"):
        c = compare_classifiers(y, a, a, method=method, random_state=0)
        for d in (c.averaged_fbeta, c.fbeta_of_averages):
            assert (d.difference, d.low, d.high) == (0.0, 0.0, 0.0)
            assert d.p_value == 1.0
        assert "does not separate" in c.statement


def test_reversal_is_detected_and_tested():
    """The paper's mechanism: B predicts class 0 for half of classes 1 and 2.

    Its per-class precision and recall are skewed (P_0 low, R_0 = 1; P_1 = P_2
    = 1, R_1 and R_2 low), which lifts its F1 of averages above its averaged F1,
    while A makes balanced errors: averaged F1 prefers A, F1 of averages B.
    """
    n = 2000
    y = np.repeat([0, 1, 2], n)
    rng = np.random.default_rng(0)
    a = np.where(rng.random(3 * n) < 0.7, y, (y + rng.integers(1, 3, 3 * n)) % 3)
    b = y.copy()
    b[(y > 0) & (rng.random(3 * n) < 0.5)] = 0
    c = compare_classifiers(y, a, b)
    assert c.averaged_fbeta.difference > 0 > c.fbeta_of_averages.difference
    assert c.rankings_differ
    assert c.reversal_p_value == max(
        c.averaged_fbeta.p_greater, c.fbeta_of_averages.p_less
    )
    assert c.reversal_p_value < 0.001
    assert "rank the classifiers differently; the reversal is significant" in (
        c.statement
    )
    boot = compare_classifiers(y, a, b, method="bootstrap", random_state=0)
    assert boot.rankings_differ and boot.reversal_p_value < 0.01
    # half the data, a weaker B: the reversal is there but not significant
    b2 = y.copy()
    b2[(y > 0) & (rng.random(3 * n) < 0.47)] = 0
    weak = compare_classifiers(y[::4], a[::4], b2[::4])
    if weak.rankings_differ:
        assert weak.reversal_p_value == max(
            d.p_greater if d.difference > 0 else d.p_less
            for d in (weak.averaged_fbeta, weak.fbeta_of_averages)
        )


def test_multilabel_and_samples():
    rng = np.random.default_rng(5)
    yt = rng.random((800, 3)) < 0.4
    a = np.where(rng.random((800, 3)) < 0.85, yt, ~yt)
    b = np.where(rng.random((800, 3)) < 0.75, yt, ~yt)
    for average in ("macro", "samples"):
        d = compare_classifiers(yt, a, b, average=average, zero_division=0.0)
        s = compare_classifiers(
            sp.csr_matrix(yt),
            sp.csr_matrix(a),
            sp.csr_matrix(b),
            average=average,
            zero_division=0.0,
            method="bootstrap",
            random_state=0,
            n_resamples=300,
        )
        assert d.averaged_fbeta.difference == pytest.approx(s.averaged_fbeta.difference)
        assert d.averaged_fbeta.difference > 0
        assert d.averaged_fbeta.std_error == pytest.approx(
            s.averaged_fbeta.std_error, rel=0.25
        )


def test_errors():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        compare_classifiers([0, 1, 1], [0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="method"):
        compare_classifiers([0, 1], [0, 1], [1, 1], method="exact")


def test_bootstrap_reproducible():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 3, 400)
    a, b = _noisy(y, 0.8, rng, 3), _noisy(y, 0.7, rng, 3)
    one = compare_classifiers(y, a, b, method="bootstrap", random_state=11)
    two = compare_classifiers(y, a, b, method="bootstrap", random_state=11)
    assert one == two
    assert "paired bootstrap" in str(one)
