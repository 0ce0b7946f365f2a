"""The reference paper (Opitz & Burst, "Macro F1 and Macro F1"): its tables,
its Lemma (closed-form gap), its Theorem (sign, equality, supremum), and the
facts the two scores obey for micro, binary and None averaging."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import confusion_matrix, f1_score

from sklearn_macrof1 import (
    MacroF1Counts,
    averaged_f1_score,
    averaged_fbeta_score,
    f1_of_averages_score,
    fbeta_of_averages_score,
    fbeta_summary,
    gap_bound,
    gap_closed_form,
    supremum_confusion_matrix,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn.exceptions.UndefinedMetricWarning"
)

TABLE_1 = [[100, 10000], [0, 100]]  # rows are predictions (the paper's orientation)
TABLE_2 = [[100, 5000], [5000, 100]]


def labels_from_predicted_rows(matrix):
    """y_true, y_pred with ``matrix[p, t]`` samples predicted p of true class t."""
    m = np.asarray(matrix)
    pred, true = np.indices(m.shape)
    counts = m.ravel()
    return np.repeat(true.ravel(), counts), np.repeat(pred.ravel(), counts)


def test_table_1():
    s = fbeta_summary(MacroF1Counts.from_confusion_matrix(TABLE_1, rows="predicted"))
    assert s.fbeta_of_averages == pytest.approx(0.504950495049505, abs=1e-12)
    assert s.averaged_fbeta == pytest.approx(0.0196078431372549, abs=1e-12)
    assert s.gap == pytest.approx(0.485342651912250, abs=1e-12)
    assert s.gap_closed_form == pytest.approx(s.gap, abs=1e-12)
    # class 0 is predicted 10100 times, 100 rightly: P = (0.0099, 1), R = (1, 0.0099)
    np.testing.assert_allclose(s.class_precision, [100 / 10100, 1.0])
    np.testing.assert_allclose(s.class_recall, [1.0, 100 / 10100])
    # the same data as label arrays
    y_true, y_pred = labels_from_predicted_rows(TABLE_1)
    assert f1_of_averages_score(y_true, y_pred) == pytest.approx(
        s.fbeta_of_averages, abs=1e-12
    )
    assert averaged_f1_score(y_true, y_pred) == pytest.approx(
        f1_score(y_true, y_pred, average="macro"), abs=1e-12
    )
    assert averaged_f1_score(y_true, y_pred) == pytest.approx(
        s.averaged_fbeta, abs=1e-12
    )


def test_table_2():
    s = fbeta_summary(MacroF1Counts.from_confusion_matrix(TABLE_2, rows="predicted"))
    assert s.fbeta_of_averages == pytest.approx(100 / 5100, abs=1e-12)
    assert s.averaged_fbeta == pytest.approx(100 / 5100, abs=1e-12)
    assert s.gap == pytest.approx(0.0, abs=1e-15)
    assert s.gap_closed_form == 0.0
    y_true, y_pred = labels_from_predicted_rows(TABLE_2)
    assert f1_of_averages_score(y_true, y_pred) == pytest.approx(100 / 5100)
    assert averaged_f1_score(y_true, y_pred) == pytest.approx(100 / 5100)


# --- strategies ------------------------------------------------------------------


def count_matrices(min_classes=2, max_classes=6, max_count=30):
    return (
        st.integers(min_classes, max_classes)
        .flatmap(
            lambda k: hnp.arrays(
                np.int64,
                (k, k),
                elements=st.one_of(st.just(0), st.integers(0, max_count)),
            )
        )
        .filter(lambda m: m.sum() > 0)
    )


ZERO_DIVISIONS = st.sampled_from(["warn", 0, 1])
BETAS = st.sampled_from([0.5, 1.0, 2.0])


def _labels(m):
    """y_true, y_pred of a rows-true matrix."""
    true, pred = np.indices(m.shape)
    return np.repeat(true.ravel(), m.ravel()), np.repeat(pred.ravel(), m.ravel())


# --- Theorem, part 1: F of averages >= averaged F ----------------------------------


@given(count_matrices(), ZERO_DIVISIONS, BETAS, st.sampled_from(["macro", "weighted"]))
def test_f_of_averages_never_below_averaged_f(m, zero_division, beta, average):
    y_true, y_pred = _labels(m)
    kw = {"beta": beta, "average": average, "zero_division": zero_division}
    ours_f_of_avg = fbeta_of_averages_score(y_true, y_pred, **kw)
    ours_avg_f = averaged_fbeta_score(y_true, y_pred, **kw)
    assert ours_f_of_avg >= ours_avg_f - 1e-12
    # also with labels absent from the data (empty classes)
    kw["labels"] = [*range(m.shape[0]), m.shape[0] + 3]
    assert (
        fbeta_of_averages_score(y_true, y_pred, **kw)
        >= averaged_fbeta_score(y_true, y_pred, **kw) - 1e-12
    )


@settings(max_examples=max(10, settings.default.max_examples * 2 // 3))
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(
            hnp.arrays(bool, (n, 4)),
            hnp.arrays(bool, (n, 4)),
            st.one_of(
                st.none(), hnp.arrays(np.int64, (n,), elements=st.integers(1, 4))
            ),
        )
    ),
    ZERO_DIVISIONS,
    BETAS,
)
def test_samples_f_of_averages_never_below_averaged_f(data, zero_division, beta):
    y_true, y_pred, weight = data
    kw = {
        "beta": beta,
        "average": "samples",
        "zero_division": zero_division,
        "sample_weight": weight,
    }
    s = fbeta_summary(y_true, y_pred, **kw)
    assert s.fbeta_of_averages >= s.averaged_fbeta - 1e-12
    assert s.gap >= -1e-12


# --- Theorem, part 2: equality exactly when P_i = R_i for every class --------------


@given(count_matrices(), st.booleans())
def test_gap_zero_exactly_when_precision_equals_recall(m, symmetrise):
    """The Theorem's equality case, in the paper's setting (every class has
    tp > 0, so P_i, R_i > 0): the gap is zero exactly when P_i = R_i for all i."""
    m = m + np.diag(1 + np.diag(m))  # tp > 0 for every class
    if symmetrise:  # row sums equal column sums: P_i = R_i for every class
        m = m + m.T
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(m, rows="true"), zero_division=0
    )
    equal = np.allclose(s.class_precision, s.class_recall, rtol=0, atol=1e-12)
    if equal:
        assert abs(s.gap) <= 1e-12
        assert s.gap_closed_form <= 1e-12
    else:
        assert s.gap > 1e-12
        assert s.gap_closed_form > 1e-12
    if symmetrise:
        assert equal


@given(count_matrices(), ZERO_DIVISIONS)
def test_gap_zero_exactly_when_lemma_terms_vanish(m, zero_division):
    """In general (classes with tp = 0 allowed) the Lemma gives the exact
    condition: P_x R_y = P_y R_x for every pair of classes with P + R > 0."""
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(m, rows="true"), zero_division=zero_division
    )
    p, r = s.class_precision, s.class_recall
    keep = p + r > 0
    p, r = p[keep], r[keep]
    vanish = np.allclose(np.outer(p, r), np.outer(r, p), rtol=0, atol=1e-12)
    assert (abs(s.gap) <= 1e-12) == vanish


def test_gap_zero_although_precision_differs_from_recall():
    """A class with tp = 0 (P = R = 0) drops out of the Lemma: one class left,
    no gap, although that class has P = 1 and R = 0.5."""
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix([[1, 1], [0, 0]], rows="true"),
        zero_division=0,
    )
    np.testing.assert_allclose(s.class_precision, [1.0, 0.0])
    np.testing.assert_allclose(s.class_recall, [0.5, 0.0])
    assert s.gap == pytest.approx(0.0, abs=1e-15)


def test_gap_zero_with_equal_precision_and_recall_but_imbalance():
    # P_i = R_i for all classes but very different per-class values
    m = np.array([[90, 5, 5], [5, 1, 0], [5, 0, 0]])
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(m, rows="true"), zero_division=0
    )
    np.testing.assert_allclose(s.class_precision, s.class_recall)
    assert s.gap == pytest.approx(0.0, abs=1e-15)


# --- Lemma: the closed form equals the direct difference --------------------------


@given(count_matrices(max_classes=8), st.sampled_from([0, 1, "warn"]))
def test_closed_form_gap_equals_direct_difference(m, zero_division):
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(m, rows="true"), zero_division=zero_division
    )
    direct = s.fbeta_of_averages - s.averaged_fbeta
    assert gap_closed_form(s.class_precision, s.class_recall) == pytest.approx(
        direct, abs=1e-12
    )
    assert s.gap_closed_form == pytest.approx(direct, abs=1e-12)


@given(
    st.integers(1, 10).flatmap(
        lambda n: st.tuples(
            hnp.arrays(np.float64, n, elements=st.floats(0, 1)),
            hnp.arrays(np.float64, n, elements=st.floats(0, 1)),
        )
    )
)
def test_closed_form_on_arbitrary_rates(pr):
    p, r = pr
    # direct: F1 of the mean P, R minus the mean of the per-class F1
    pm, rm = p.mean(), r.mean()
    f_of_avg = 0.0 if pm + rm == 0 else 2 * pm * rm / (pm + rm)
    s = p + r
    f_each = np.divide(2 * p * r, s, out=np.zeros_like(s), where=s > 0)
    assert gap_closed_form(p, r) == pytest.approx(f_of_avg - f_each.mean(), abs=1e-12)


# --- Theorem 3: the supremum ------------------------------------------------------


def test_supremum_values():
    assert gap_bound(2) == 0.5
    assert gap_bound(4) == 0.5
    assert gap_bound(3) == pytest.approx(0.5 - 1 / 18)
    assert gap_bound(13) == pytest.approx(0.5 - 1 / 338)


@pytest.mark.parametrize("n", range(2, 14))
def test_supremum_approached_by_the_papers_matrices(n):
    bound = gap_bound(n)
    gaps = []
    for z in [1.0, 10.0, 1e3, 1e5, 1e7]:
        s = fbeta_summary(
            MacroF1Counts.from_confusion_matrix(
                supremum_confusion_matrix(n, z), rows="predicted"
            ),
            zero_division=0,
        )
        assert s.gap < bound
        assert s.gap_closed_form == pytest.approx(s.gap, abs=1e-12)
        gaps.append(s.gap)
    # increasing in z
    assert all(a < b for a, b in zip(gaps[:-1], gaps[1:], strict=True))
    assert bound - gaps[-1] < 1e-5  # and arbitrarily close


@given(count_matrices(max_classes=7, max_count=1000), ZERO_DIVISIONS)
def test_supremum_never_exceeded(m, zero_division):
    """Theorem 3's supremum is strict (never reached) when every ill-defined
    ratio counts 0 ("warn", 0); with zero_division=1 an empty class counts as
    perfect precision or recall and the bound is reached, never exceeded:
    [[0, 0], [1, 0]] (rows true) has averaged F1 0 and P = R = 0.5."""
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(m, rows="true"), zero_division=zero_division
    )
    if zero_division == 1:
        assert s.gap <= gap_bound(m.shape[0]) + 1e-15
    else:
        assert s.gap < gap_bound(m.shape[0])
    assert s.gap < s.gap_bound + 1e-15


def test_supremum_is_reached_with_zero_division_1():
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix([[0, 0], [1, 0]], rows="true"),
        zero_division=1,
    )
    assert s.averaged_fbeta == 0.0 and s.fbeta_of_averages == 0.5
    assert s.gap == gap_bound(2) == 0.5


def test_supremum_never_exceeded_by_skewed_random_matrices():
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(2, 9))
        m = rng.integers(0, 3, size=(n, n)) * 10.0 ** rng.integers(0, 6, size=(n, n))
        if m.sum() == 0:
            continue
        s = fbeta_summary(
            MacroF1Counts.from_confusion_matrix(m, rows="true"), zero_division=0
        )
        assert s.gap < gap_bound(n)


# --- micro, binary and None ----------------------------------------------------


@given(count_matrices(), ZERO_DIVISIONS, BETAS)
def test_micro_f_of_averages_equals_micro_f(m, zero_division, beta):
    y_true, y_pred = _labels(m)
    kw = {"beta": beta, "average": "micro", "zero_division": zero_division}
    assert fbeta_of_averages_score(y_true, y_pred, **kw) == pytest.approx(
        averaged_fbeta_score(y_true, y_pred, **kw), abs=1e-12
    )


@given(count_matrices(max_classes=2), ZERO_DIVISIONS, BETAS)
def test_binary_and_none_coincide(m, zero_division, beta):
    y_true, y_pred = _labels(m)
    assume(np.unique(np.concatenate([y_true, y_pred])).shape[0] == 2)
    for average in ["binary", None]:
        kw = {"beta": beta, "average": average, "zero_division": zero_division}
        np.testing.assert_allclose(
            fbeta_of_averages_score(y_true, y_pred, **kw),
            averaged_fbeta_score(y_true, y_pred, **kw),
            rtol=0,
            atol=1e-12,
        )


def test_confusion_matrix_orientation_matters():
    """Reading Table 1 with the wrong orientation swaps precision and recall."""
    pred_rows = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(TABLE_1, rows="predicted")
    )
    true_rows = fbeta_summary(MacroF1Counts.from_confusion_matrix(TABLE_1, rows="true"))
    np.testing.assert_allclose(pred_rows.class_precision, true_rows.class_recall)
    y_true, y_pred = labels_from_predicted_rows(TABLE_1)
    np.testing.assert_array_equal(
        confusion_matrix(y_true, y_pred), np.transpose(TABLE_1)
    )


def test_warn_behaves_like_zero_for_the_invariant():
    y_true, y_pred = [0, 0, 1, 1, 2], [0, 0, 0, 0, 0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f_of_avg = f1_of_averages_score(y_true, y_pred)
        avg_f = averaged_f1_score(y_true, y_pred)
    assert any(issubclass(w.category, UndefinedMetricWarning) for w in caught)
    assert f_of_avg >= avg_f - 1e-12
    assert f_of_avg == f1_of_averages_score(y_true, y_pred, zero_division=0)
    assert math.isfinite(f_of_avg)


@pytest.mark.parametrize(
    "p, r, expected",
    [
        ([0.0, 0.0], [2.22507386e-313, 2.22507386e-313], 0.0),  # subnormal rates
        ([1e-300, 0.0], [0.0, 1e-300], 5e-301),
    ],
)
def test_closed_form_of_tiny_rates_is_finite(p, r, expected):
    """Rates this small made the closed form's constant overflow (nan)."""
    got = gap_closed_form(np.array(p), np.array(r))
    assert got == pytest.approx(expected, rel=1e-12, abs=0.0)
