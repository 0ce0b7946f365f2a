"""Paired comparison of two classifiers under both formulas."""

from __future__ import annotations

import typing

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_macrof1 import (
    ClassifierComparison,
    MacroF1Counts,
    MultipleComparison,
    averaged_f1_score,
    averaged_fbeta_score,
    compare_classifiers,
    f1_of_averages_score,
    fbeta_confidence_interval,
    fbeta_of_averages_score,
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
    for method in ("jackknife", "delta", "bootstrap"):
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
    with pytest.raises(
        InvalidParameterError,
        match=r"'method' parameter of compare_classifiers must be a str among "
        r"\{'jackknife', 'delta', 'bootstrap'\}",
    ):
        compare_classifiers([0, 1], [0, 1], [1, 1], method="exact")


def test_bootstrap_reproducible():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 3, 400)
    a, b = _noisy(y, 0.8, rng, 3), _noisy(y, 0.7, rng, 3)
    one = compare_classifiers(y, a, b, method="bootstrap", random_state=11)
    two = compare_classifiers(y, a, b, method="bootstrap", random_state=11)
    assert one == two
    assert "paired bootstrap" in str(one)


# ------------------------------------------------ joint reading and joint cells


def _design_reference(y, predictions, average="macro", **options):
    """Delta-method variances of every pair from the per-sample design, the
    computation that the joint cells replace (one reading per classifier)."""
    # the per-sample design (each sample's influence on each score) has no
    # public face: it is the reference the comparison's joint cells must equal
    from sklearn_macrof1._formulas._evaluation import check_options, read_for
    from sklearn_macrof1._stats._intervals import evaluation_from

    weights = options.pop("sample_weight", None)
    checked = check_options(
        caller="test", average=average, beta=options.pop("beta", 1.0),
        zero_division=0.0, labels=options.pop("labels", None),
        pos_label=options.pop("pos_label", 1),
    )  # fmt: skip
    evaluations = [
        evaluation_from(
            read_for(y, p, checked, sample_weight=weights, caller="t"),
            checked,
            caller="t",
            per_sample=True,
        )
        for p in predictions
    ]
    influences = [ev.influence() for ev in evaluations]
    n = len(y)
    out = {}
    for i in range(len(predictions)):
        for j in range(i + 1, len(predictions)):
            out[i, j] = [
                np.sqrt(
                    max(float((u - v) @ (u - v)) - float((u - v).sum()) ** 2 / n, 0)
                )
                for u, v in zip(influences[i], influences[j], strict=True)
            ]
    return out


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"average": "weighted"},
        {"average": "micro"},
        {"labels": [0, 2, 7]},
        {"beta": 0.5},
        {"average": "binary", "pos_label": 3},
    ],
    ids=["macro", "weighted", "micro", "labels", "beta", "binary"],
)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_classifiers", [2, 3])
def test_joint_cells_give_the_per_sample_delta_method(options, weighted, n_classifiers):
    rng = np.random.default_rng(21)
    k = 2 if options.get("average") == "binary" else 5
    y = rng.choice(k, 1500) + (2 if k == 2 else 0)  # binary: labels 2 and 3
    predictions = [
        np.where(rng.random(1500) < acc, y, rng.choice(np.unique(y), 1500))
        for acc in (0.8, 0.7, 0.75)[:n_classifiers]
    ]
    predictions[-1][:5] = y.max() + 1 if k > 2 else predictions[-1][:5]  # a new class
    if weighted:
        options = {**options, "sample_weight": rng.uniform(0.2, 3, 1500)}
    result = compare_classifiers(
        y, *predictions, zero_division=0.0, method="delta", **options
    )
    pairs = result.comparisons if n_classifiers > 2 else (result,)
    if "labels" not in options and options.get("average", "macro") != "micro":
        # one class set for every classifier: the last predicts a new class
        options["labels"] = np.unique(np.concatenate([y, *predictions]))
    reference = _design_reference(y, predictions, **options)
    for (i, j), comparison in zip(reference, pairs, strict=True):
        assert comparison.names == ("ABC"[i], "ABC"[j])
        for expected, d in zip(
            reference[i, j],
            (comparison.averaged_fbeta, comparison.fbeta_of_averages),
            strict=True,
        ):
            assert d.std_error == pytest.approx(expected, rel=1e-12, abs=1e-15)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize(
    ("truth", "a", "b"),
    [
        ([1, 2, 3, 2] * 30, [1, 2, 2, 2] * 30, [1.0, 3.0, 3.0, 4.0] * 30),
        (
            ["x", "yy", "z", "x"] * 30,
            ["x", "x", "z", "w"] * 30,
            ["yy", "x", "z", "x"] * 30,
        ),
        (
            np.array(["b", "a", "c", "a"] * 30, dtype=object),
            np.array(["a", "a", "c", "b"] * 30),
            np.array(["b", "a", "d", "a"] * 30, dtype=object),
        ),
        (
            [True, False, True, True] * 30,
            [1, 0, 1, 0] * 30,
            [True, True, False, True] * 30,
        ),
        (
            np.array([1, 5, 9, 5] * 30, dtype=np.uint8),
            np.array([1, 5, 5, 9] * 30, dtype=np.int32),
            [9, 9, 5, 1] * 30,
        ),
    ],
    ids=["int-float", "strings", "objects", "bools", "int-dtypes"],
)
def test_both_classifiers_are_scored_over_one_class_set(truth, a, b):
    """Without labels, both are scored over the classes of y_true and both
    predictions: a classifier that never predicts a class the other predicts
    (nor y_true holds) gets that class's zero_division value in its average,
    as the score functions give it with labels=<that set>; the same class set
    gives the stand-alone scores."""
    union = sorted(set(list(truth)) | set(list(a)) | set(list(b)))
    for method in ("jackknife", "delta", "bootstrap"):
        c = compare_classifiers(
            truth, a, b, method=method, random_state=0, n_resamples=50
        )
        for d, score in (
            (c.averaged_fbeta, averaged_f1_score),
            (c.fbeta_of_averages, f1_of_averages_score),
        ):
            for got, pred in ((d.score_a, a), (d.score_b, b)):
                if len(set(list(truth)) | set(list(pred))) == len(union):
                    assert got == score(truth, pred)
                else:  # this classifier lacks a class: lower than alone
                    assert got < score(truth, pred)
                    assert got == pytest.approx(score(truth, pred, labels=union))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_joint_reading_names_the_prediction_at_fault():
    y, a = [0, 1, 1, 2], [0, 1, 2, 2]
    with pytest.raises(ValueError, match="y_true has 4 and y_pred_b has 3"):
        compare_classifiers(y, a, [0, 1, 1])
    with pytest.raises(ValueError, match="y_true has 4 and y_pred_c has 5"):
        compare_classifiers(y, a, a, [0] * 5)
    with pytest.raises(ValueError, match=r"y_pred_b.*cannot be scored|Mix.*y_pred_b"):
        compare_classifiers(y, a, ["a", "b", "c", "d"])
    with pytest.raises(ValueError, match="Input y_pred_a contains NaN"):
        compare_classifiers(y, [0, 1, np.nan, 2], a)
    with pytest.raises(ValueError, match=r"\(y_true\) and .* \(y_pred_b\)"):
        compare_classifiers(y, a, np.eye(4, dtype=int))
    with pytest.raises(ValueError, match="y_pred_b has 2"):
        compare_classifiers(np.eye(4, 3), np.eye(4, 3), np.eye(4, 2))
    big = np.array([2**60 + 1, 1, 1, 2], dtype=np.int64)
    with pytest.raises(ValueError, match="y_pred_a holds integer labels beyond 2"):
        compare_classifiers([1, 1, 2, 2], big, [1.0, 2.0, 1.0, 2.0])


_LABEL_SETS = {
    "int8": (np.array([-3, 0, 2, 5], dtype=np.int8), np.int8),
    "uint8": (np.array([0, 1, 7, 200], dtype=np.uint8), np.uint8),
    "int64": (np.array([-(2**40), 3, 4, 2**40], dtype=np.int64), np.int64),
    "beyond 2**53": (np.array([5, 2**60 + 1, 2**60 + 3], dtype=np.int64), np.int64),
    "float": (np.array([0.0, 1.0, 2.0, 5.0]), np.float64),
    "bool": (np.array([False, True]), bool),
    "str": (np.array(["a", "bb", "c", "dd"]), None),
    "object": (np.array(["a", "bb", "c", "dd"], dtype=object), object),
}


@st.composite
def joint_labels(draw):
    """y_true and 2 to 4 prediction sets of one label set, as arrays or lists,
    in one dtype or several numeric ones, with optional weights."""
    name = draw(st.sampled_from(sorted(_LABEL_SETS)))
    values, dtype = _LABEL_SETS[name]
    n = draw(st.integers(1, 30))
    m = draw(st.integers(2, 4))

    def labels():
        picked = values[
            draw(st.lists(st.integers(0, len(values) - 1), min_size=n, max_size=n))
        ]
        form = draw(
            st.sampled_from(
                ["array", "list"]
                + (["int32", "float"] if name in ("int8", "uint8") else [])
            )
        )
        if form == "list":
            return picked.tolist()
        if form == "int32":
            return picked.astype(np.int32)
        if form == "float":
            return picked.astype(np.float64)
        return picked if dtype is None else picked.astype(dtype)

    y = labels()
    predictions = [labels() for _ in range(m)]
    weights = draw(
        st.one_of(
            st.none(), st.lists(st.floats(0.0, 3.0), min_size=n, max_size=n).filter(any)
        )
    )
    return y, predictions, weights


@pytest.mark.slow
@given(joint_labels())
def test_joint_reading_counts_each_pair_as_read_alone(data):
    """read_jointly (y_true read once) gives every prediction set the count
    record that reading the pair alone gives, and each pair's joint cells sum
    to both classifiers' confusion matrices."""
    # the joint reading of several prediction sets (and its pair cells) has no
    # public face: compare_classifiers folds it into differences
    from sklearn_macrof1._formulas._evaluation import read_jointly

    y, predictions, weights = data
    names = [f"y_pred_{c}" for c in "abcd"[: len(predictions)]]
    joint = read_jointly(y, predictions, names=names, sample_weight=weights)
    for p, reading in zip(predictions, joint.readings, strict=True):
        alone = MacroF1Counts.from_predictions(y, p, sample_weight=weights)
        counts = reading.counts
        assert counts.kind == alone.kind and counts.n_samples == alone.n_samples
        assert counts.classes.tolist() == alone.classes.tolist()
        for field in ("tp", "true", "pred", "confusion"):
            assert np.array_equal(getattr(counts, field), getattr(alone, field))
    for i in range(len(predictions)):
        for j in range(i + 1, len(predictions)):
            cells = joint.pair_cells(i, j)
            for which, column in ((i, 1), (j, 2)):
                counts = joint.readings[which].counts
                where = np.searchsorted(counts.classes, cells.classes)
                where = np.minimum(where, counts.n_classes - 1)
                table = np.zeros((counts.n_classes,) * 2)
                t, p = where[cells.cells[:, 0]], where[cells.cells[:, column]]
                np.add.at(table, (t, p), cells.first)
                np.testing.assert_allclose(table, counts.confusion, rtol=1e-12)
                squares = np.zeros_like(table)
                np.add.at(squares, (t, p), cells.second)
                w = np.ones(len(y)) if weights is None else np.asarray(weights)
                assert squares.sum() == pytest.approx(float(w @ w), rel=1e-12)


def test_paired_bootstrap_redraws_cells_only_when_they_are_few(monkeypatch):
    """Redrawing the joint cells costs a draw per cell and resample: it serves
    two unweighted classifiers when the cells are few (at most n / 8); with as
    many cells as samples (many classes, noisy predictions) the samples are
    redrawn, as the comparison did before."""
    # which resampling the paired bootstrap takes has no public face: its cell
    # draws are counted
    from sklearn_macrof1._stats import _comparison

    redrawn = []
    draw_cells = _comparison.draw_cells

    def spy(rng, cells, n_resamples):  # one call per block of resamples
        redrawn.append(cells.shape[0])
        return draw_cells(rng, cells, n_resamples)

    monkeypatch.setattr(_comparison, "draw_cells", spy)
    rng = np.random.default_rng(20)
    options = {"method": "bootstrap", "n_resamples": 20, "random_state": 0}
    for k, expected in ((3, 1), (60, 0)):
        y = rng.integers(0, k, 2000)
        a = np.where(rng.random(2000) < 0.3, y, rng.integers(0, k, 2000))
        b = np.where(rng.random(2000) < 0.3, y, rng.integers(0, k, 2000))
        redrawn.clear()
        compare_classifiers(y, a, b, **options)
        assert len(redrawn) == expected, (k, redrawn)


def test_int64_and_uint64_predictions_beyond_float_precision():
    """Labels beyond 2**53 given as int64 and uint64 are compared exactly, as
    each pair alone is scored (no common float dtype that would round them)."""
    rng = np.random.default_rng(21)
    y = rng.integers(0, 3, 500) + 2**60
    a = np.where(rng.random(500) < 0.8, y, 2**60)
    b = np.where(rng.random(500) < 0.7, y, 2**60 + 1)
    expected = compare_classifiers(y, a, b)
    assert compare_classifiers(y, a, b.astype(np.uint64)) == expected
    assert compare_classifiers(y, a.astype(np.uint64), b) == expected


def test_bytes_labels_of_one_prediction_set_name_it_alone():
    """scikit-learn's refusal of bytes labels names the prediction set at fault
    (TypeError for bytes from scikit-learn 1.7; before, bytes beside strings are
    a ValueError for mixed label types)."""
    y = np.array(["ant", "bee", "ant", "bee"])
    refused = (TypeError, ValueError)
    with pytest.raises(refused, match=r"^y_true and y_pred_b cannot be scored"):
        compare_classifiers(y, y, y.astype("S"))
    with pytest.raises(refused, match=r"^y_true and y_pred_c cannot be scored"):
        compare_classifiers(y, y, y, y.astype("S"))


# ------------------------------------------------------------------ the jackknife


def _left_out_spread(y, a, b, sample_weight=None, labels=None, **options):
    """The jackknife standard errors by definition: both scores with each
    sample removed in turn, through the score functions (one class set)."""
    options = {"beta": 1.0, "zero_division": 0.0, **options}
    y, a, b = (np.asarray(v) for v in (y, a, b))
    if labels is None and y.ndim == 1 and options.get("average") != "micro":
        labels = np.unique(np.concatenate([y, a, b]))
    n = y.shape[0]
    left_out = []
    for i in range(n):
        keep = np.arange(n) != i
        w = None if sample_weight is None else sample_weight[keep]
        left_out.append(
            [
                score(y[keep], a[keep], labels=labels, sample_weight=w, **options)
                - score(y[keep], b[keep], labels=labels, sample_weight=w, **options)
                for score in (averaged_fbeta_score, fbeta_of_averages_score)
            ]
        )
    left_out = np.array(left_out)
    return np.sqrt((n - 1) / n * ((left_out - left_out.mean(axis=0)) ** 2).sum(axis=0))


_Y = np.random.default_rng(30).integers(0, 4, 48)
_A = np.where(np.random.default_rng(31).random(48) < 0.7, _Y, (_Y + 1) % 5)
_B = np.where(np.random.default_rng(32).random(48) < 0.6, _Y, 2)  # never 3, 4


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"average": "weighted"},
        {"average": "micro"},
        {"beta": 2.0},
        {"labels": [0, 1, 3, 7]},  # 7 absent: a constant in every mean
        {"average": "weighted", "labels": [0, 4, 9]},
        {"zero_division": np.nan},  # undefined ratios leave the means
        {"zero_division": 1.0, "labels": [1, 3, 4]},
        {"sample_weight": (1.0 + _Y) * (2.0 + 0.1 * _A) * (1.0 + 0.01 * _B)},
    ],
    ids=["macro", "weighted", "micro", "beta", "labels", "weighted-labels",
         "nan", "one", "weights"],
)  # fmt: skip
def test_jackknife_is_leaving_each_sample_out(options):
    """From the joint cells, the jackknife equals removing each sample in turn
    and rescoring both classifiers (weights constant within a joint cell: the
    cell's samples are then alike)."""
    c = compare_classifiers(_Y, _A, _B, **{"zero_division": 0.0, **options})
    assert c.method == "jackknife"
    expected = _left_out_spread(_Y, _A, _B, **options)
    got = [c.averaged_fbeta.std_error, c.fbeta_of_averages.std_error]
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", "samples"])
def test_jackknife_of_multilabel_targets_leaves_out_each_sample(average, weighted):
    rng = np.random.default_rng(33)
    y = rng.integers(0, 2, (40, 4))
    a = np.where(rng.random((40, 4)) < 0.8, y, 1 - y)
    b = np.where(rng.random((40, 4)) < 0.7, y, 1 - y)
    w = rng.uniform(0.5, 2, 40) if weighted else None
    c = compare_classifiers(
        y, a, b, average=average, sample_weight=w, zero_division=0.0
    )
    expected = _left_out_spread(y, a, b, average=average, sample_weight=w)
    got = [c.averaged_fbeta.std_error, c.fbeta_of_averages.std_error]
    np.testing.assert_allclose(got, expected, rtol=1e-10)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", "samples"])
def test_jackknife_of_multilabel_targets_without_any_label(average):
    # no sample counts anything: every left-out score is the score, as the
    # delta method's zero spread says (the jackknife crashed in NumPy here)
    z = np.zeros((8, 3), dtype=int)
    c = compare_classifiers(z, z, z, average=average, zero_division=0.0)
    assert c == compare_classifiers(
        z, z, z, average=average, zero_division=0.0, method="jackknife"
    )
    for d in (c.averaged_fbeta, c.fbeta_of_averages):
        assert (d.difference, d.low, d.high, d.std_error) == (0.0, 0.0, 0.0, 0.0)
    # one classifier predicting no label: its rows count nothing either
    b = np.zeros((8, 3), dtype=int)
    b[::2, 1] = 1
    c = compare_classifiers(z, z, b, average=average, zero_division=0.0)
    expected = _left_out_spread(z, z, b, average=average)
    got = [c.averaged_fbeta.std_error, c.fbeta_of_averages.std_error]
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-14)


def test_jackknife_binary_average():
    y, a, b = (_Y > 1).astype(int), (_A > 1).astype(int), (_B > 1).astype(int)
    c = compare_classifiers(y, a, b, average="binary")
    expected = _left_out_spread(y, a, b, average="binary")
    got = [c.averaged_fbeta.std_error, c.fbeta_of_averages.std_error]
    np.testing.assert_allclose(got, expected, rtol=1e-10)


def test_jackknife_t_reference():
    """The interval is difference +- t quantile x standard error, the p-value
    its two-sided t tail; with many samples the degrees of freedom are many
    and the jackknife meets the delta method; a difference carried by one
    sample has about 2 and is not significant."""
    rng = np.random.default_rng(34)
    y = rng.integers(0, 4, 20000)
    a, b = _noisy(y, 0.8, rng, 4), _noisy(y, 0.78, rng, 4)
    jack, delta = (
        compare_classifiers(y, a, b),
        compare_classifiers(y, a, b, method="delta"),
    )
    for j, d in zip(
        (jack.averaged_fbeta, jack.fbeta_of_averages),
        (delta.averaged_fbeta, delta.fbeta_of_averages),
        strict=True,
    ):
        assert d.df is None
        assert j.df > 1000
        assert j.std_error == pytest.approx(d.std_error, rel=0.01)
        half = stats.t.ppf(0.975, j.df) * j.std_error
        assert (j.low, j.high) == pytest.approx(
            (j.difference - half, j.difference + half)
        )
        assert j.p_value == pytest.approx(
            2 * stats.t.sf(abs(j.difference) / j.std_error, j.df)
        )
    y = np.repeat([0, 1, 2], 20)
    b = y.copy()
    b[0] = 1  # B's one error: the only disagreement
    c = compare_classifiers(y, y, b)
    for d in (c.averaged_fbeta, c.fbeta_of_averages):
        assert d.difference > 0
        assert 1 <= d.df < 3
        assert d.p_value > 0.3
        assert d.low < 0 < d.high
    assert "not significant" in c.statement


@pytest.mark.parametrize("method", ["jackknife", "delta", "bootstrap"])
def test_one_sample_is_refused(method):
    """One sample shows no spread: every method once called its difference
    significant (standard error 0, p=0)."""
    with pytest.raises(ValueError, match="1 sample while a minimum of 2"):
        compare_classifiers([0], [0], [1], method=method, random_state=0)


def test_jackknife_degrees_of_freedom_at_most_n_minus_1():
    """n left-out values give at most n - 1 degrees of freedom: two samples
    whose deviations have equal sizes once gave infinite ones (a normal
    reference, p=0.008 from two samples)."""
    c = compare_classifiers([0, 1], [0, 1], [1, 1])
    for d in (c.averaged_fbeta, c.fbeta_of_averages):
        assert d.df == 1
        assert d.p_value > 0.05
        half = stats.t.ppf(0.975, 1) * d.std_error
        assert (d.low, d.high) == pytest.approx(
            (d.difference - half, d.difference + half)
        )
    # equal halves: S4 = S2**2 / n, the formula's infinity
    y = np.repeat([0, 1], 50)
    d = compare_classifiers(y, y, np.ones(100, dtype=int)).averaged_fbeta
    assert d.df == 99


def test_return_type_per_call_form():
    """Two prediction sets give a ClassifierComparison, three or more a
    MultipleComparison; the overloads tell type checkers the same."""
    assert isinstance(
        compare_classifiers(_Y, _A, _B, zero_division=0.0), ClassifierComparison
    )
    many = compare_classifiers(_Y, _A, _B, _A, zero_division=0.0)
    assert isinstance(many, MultipleComparison)
    assert len(many.comparisons) == 3
    overloads = getattr(typing, "get_overloads", None)  # Python 3.11+
    if overloads is not None:
        returns = [f.__annotations__["return"] for f in overloads(compare_classifiers)]
        assert returns == ["ClassifierComparison", "MultipleComparison"]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_several_classifiers_share_one_class_set():
    """Every classifier of a multiple comparison is scored over the classes of
    y_true and every prediction set: C's class 9 enters A's and B's averages."""
    c = np.where(_A == 0, 9, _A)
    many = compare_classifiers(_Y, _A, _B, c, zero_division=0.0)
    union = np.unique(np.concatenate([_Y, _A, _B, c]))
    pair = many["A", "B"]
    assert pair.averaged_fbeta.score_a == pytest.approx(
        averaged_f1_score(_Y, _A, labels=union, zero_division=0.0)
    )
    assert pair.fbeta_of_averages.score_b == pytest.approx(
        f1_of_averages_score(_Y, _B, labels=union, zero_division=0.0)
    )
    alone = compare_classifiers(_Y, _A, _B, zero_division=0.0)
    assert alone.averaged_fbeta.score_a > pair.averaged_fbeta.score_a


def test_a_joint_reading_says_what_it_holds():
    """A comparison asks the joint reading what it holds: samples read in
    memory hold their rows and (1-D) the pairs' joint cells; chunks counted
    where they live hold the cells only; a record's reading holds no rows."""
    from sklearn_macrof1._counting._pairs import INFLUENCE_SUMS, PAIR_CELLS
    from sklearn_macrof1._counting._record import SAMPLE_ROWS, Reading
    from sklearn_macrof1._formulas._evaluation import read_jointly

    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 200)
    a, b = _noisy(y, 0.8, rng, 4), _noisy(y, 0.6, rng, 4)
    names = ["y_pred_a", "y_pred_b"]
    in_memory = read_jointly(y, [a, b], names=names)
    assert {SAMPLE_ROWS, PAIR_CELLS} <= in_memory._provides
    assert INFLUENCE_SUMS not in in_memory._provides
    elsewhere = in_memory.counted_elsewhere()
    assert PAIR_CELLS in elsewhere._provides
    assert SAMPLE_ROWS not in elsewhere._provides
    np.testing.assert_array_equal(
        elsewhere.pair_cells(0, 1).count, in_memory.pair_cells(0, 1).count
    )
    assert SAMPLE_ROWS not in Reading(in_memory.readings[0].counts)._provides
    indicators = [rng.integers(0, 2, (50, 3)) for _ in range(3)]
    multilabel = read_jointly(indicators[0], indicators[1:], names=names)
    assert SAMPLE_ROWS in multilabel._provides
    assert PAIR_CELLS not in multilabel._provides  # 1-D targets only
