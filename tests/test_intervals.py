"""Confidence intervals of both scores: gradients, calibration, edge cases."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import f1_score

from sklearn_macrof1 import (
    CoverageWarning,
    MacroF1Accumulator,
    MacroF1Counts,
    averaged_fbeta_score,
    classification_report,
    fbeta_confidence_interval,
    fbeta_of_averages_score,
    fbeta_summary,
    make_compute_metrics,
)

# Units without a public face: the aggregation of many rows of counts at once
# (the replicates' kernel), and the closed-form gradient of each score (the
# delta method's), checked against finite differences of the public scores.
from sklearn_macrof1._formulas._aggregation import (
    aggregate,
    aggregate_rows,
    nan_average,
)
from sklearn_macrof1._formulas._evaluation import Options, evaluate
from sklearn_macrof1._stats._intervals import (
    AUTO_DELTA_MIN_TRUE,
    AUTO_POSTERIOR_MAX_SAMPLES,
    _scatter,
    counted_for,
    possible_methods,
    requires,
    resolved_method,
    score_gradients,
)


def _data(n, k=4, accuracy=0.7, seed=0, skew=0.0):
    rng = np.random.default_rng(seed)
    prior = np.exp(-skew * np.arange(k))
    y = rng.choice(k, size=n, p=prior / prior.sum())
    wrong = rng.integers(0, k, n)
    return y, np.where(rng.random(n) < accuracy, y, wrong)


def _cells_score(cells, options, which):
    """The score ``which`` of the record of a confusion matrix (rows true), and
    the record."""
    counts = MacroF1Counts.from_confusion_matrix(cells, rows="true")
    summary = fbeta_summary(
        counts,
        average=options.average,
        beta=options.beta,
        zero_division=options.zero_division,
        labels=options.labels,
        pos_label=options.pos_label,
    )
    return getattr(summary, which), counts


@pytest.mark.parametrize("average", ["macro", "micro", "weighted", "binary"])
@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0, 0.0, np.inf])
@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
def test_closed_form_gradient_equals_finite_differences(average, beta, zero_division):
    rng = np.random.default_rng(1)
    k = 2 if average == "binary" else 4
    cells = rng.integers(5, 60, size=(k, k)).astype(np.float64)
    if k > 2:
        cells[:, 3] = 0  # a class never predicted: its precision is filled
    labels = None if average == "binary" else np.arange(k)
    options = Options(average, beta, zero_division, labels, 1)
    for which, pick in (("averaged_fbeta", 0), ("fbeta_of_averages", 1)):
        _, counts = _cells_score(cells, options, which)
        selection, averages = evaluate(counts, options, warn_for=(), caller="t")
        grad = score_gradients(selection, averages, options)[pick]
        g = _scatter(grad, selection.index, k)
        analytic = np.diag(g[0]) + g[1][:, None] + g[2][None, :]
        h = 1e-6
        for a in range(k):
            for b in range(k):
                if cells[a, b] == 0:
                    continue  # a boundary: the one-sided derivative differs
                up, down = cells.copy(), cells.copy()
                up[a, b] += h
                down[a, b] -= h
                numeric = (
                    _cells_score(up, options, which)[0]
                    - _cells_score(down, options, which)[0]
                ) / (2 * h)
                assert analytic[a, b] == pytest.approx(numeric, rel=1e-5, abs=1e-8)


def test_aggregate_rows_equals_aggregate_row_by_row():
    rng = np.random.default_rng(2)
    tp = rng.integers(0, 5, (30, 4)).astype(float)
    true = tp + rng.integers(0, 4, (30, 4))
    pred = tp + rng.integers(0, 4, (30, 4))
    for average in ("macro", "micro", "weighted"):
        for zd in (0.0, 1.0, np.nan):
            a, b = aggregate_rows(
                tp, true, pred, average=average, beta=1.0, zero_division=zd
            )
            for i in range(30):
                ref = aggregate(
                    tp[i], true[i], pred[i], average=average, beta=1.0, zero_division=zd
                )
                np.testing.assert_allclose(a[i], ref.averaged_fbeta, equal_nan=True)
                np.testing.assert_allclose(b[i], ref.fbeta_of_averages, equal_nan=True)
    assert np.isnan(nan_average(np.array([np.nan])))


@pytest.mark.parametrize("method", ["delta", "bootstrap"])
@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_interval_contains_the_scores(method, average):
    y, p = _data(1500, k=5, skew=0.3)
    ci = fbeta_confidence_interval(
        y, p, average=average, method=method, random_state=0, n_resamples=300
    )
    assert ci.averaged_fbeta.estimate == pytest.approx(f1_score(y, p, average=average))
    assert ci.fbeta_of_averages.estimate == pytest.approx(
        fbeta_of_averages_score(y, p, beta=1.0, average=average)
    )
    for s in (ci.averaged_fbeta, ci.fbeta_of_averages):
        assert 0 <= s.low < s.estimate < s.high <= 1
        assert s.estimate in s
    assert "confidence intervals" in str(ci)
    assert ci.to_dict()["averaged_fbeta"]["low"] == ci.averaged_fbeta.low


def test_width_shrinks_like_one_over_sqrt_n():
    y, p = _data(40000, k=5, seed=3)
    small = fbeta_confidence_interval(y[:2500], p[:2500])
    large = fbeta_confidence_interval(y, p)
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        ratio = getattr(small, name).width / getattr(large, name).width
        assert ratio == pytest.approx(4.0, rel=0.15)


def test_delta_cells_equal_per_sample_influence():
    """The O(k²) cell formula and the per-sample formula are the same sum."""
    y, p = _data(3000, k=6, seed=4)
    for average in ("macro", "micro", "weighted"):
        a = fbeta_confidence_interval(y, p, average=average, method="delta")
        b = fbeta_confidence_interval(
            y, p, average=average, sample_weight=np.ones(3000)
        )
        assert (a.method, b.method) == ("delta", "delta")  # "auto" with weights
        for name in ("averaged_fbeta", "fbeta_of_averages"):
            assert getattr(a, name).std_error == pytest.approx(
                getattr(b, name).std_error, rel=1e-10
            )


def test_delta_agrees_with_bootstrap_standard_error():
    y, p = _data(4000, k=4, seed=5, skew=0.5)
    w = np.random.default_rng(0).uniform(0.5, 2.0, 4000)
    for weights in (None, w):
        d = fbeta_confidence_interval(y, p, sample_weight=weights)
        b = fbeta_confidence_interval(
            y, p, sample_weight=weights, method="bootstrap", random_state=0
        )
        for name in ("averaged_fbeta", "fbeta_of_averages"):
            assert getattr(d, name).std_error == pytest.approx(
                getattr(b, name).std_error, rel=0.15
            )


def test_bootstrap_is_reproducible():
    y, p = _data(800, k=3)
    a = fbeta_confidence_interval(y, p, method="bootstrap", random_state=7)
    b = fbeta_confidence_interval(
        y, p, method="bootstrap", random_state=np.random.default_rng(7)
    )
    c = fbeta_confidence_interval(y, p, method="bootstrap", random_state=8)
    assert a == b
    assert a != c


def test_multilabel_and_samples():
    rng = np.random.default_rng(6)
    yt = rng.random((1500, 4)) < 0.4
    yp = np.where(rng.random((1500, 4)) < 0.8, yt, ~yt)
    for average in ("macro", "micro", "weighted", "samples"):
        d = fbeta_confidence_interval(yt, yp, average=average, zero_division=0.0)
        b = fbeta_confidence_interval(
            sp.csr_matrix(yt),
            sp.csr_matrix(yp),
            average=average,
            method="bootstrap",
            random_state=0,
            n_resamples=400,
            zero_division=0.0,
        )
        assert d.averaged_fbeta.estimate == pytest.approx(
            averaged_fbeta_score(yt, yp, beta=1, average=average, zero_division=0.0)
        )
        for name in ("averaged_fbeta", "fbeta_of_averages"):
            sd, sb = getattr(d, name), getattr(b, name)
            assert sd.estimate == pytest.approx(sb.estimate)
            assert sd.low < sd.estimate < sd.high
            assert sd.std_error == pytest.approx(sb.std_error, rel=0.2)


def test_summary_method_matches_function():
    y, p = _data(1000, k=3)
    s = fbeta_summary(y, p)
    assert s.confidence_interval() == fbeta_confidence_interval(y, p)
    yb, pb = y % 2, p % 2
    s2 = fbeta_summary(yb, pb, average="binary", pos_label=0)
    assert s2.confidence_interval(method="bootstrap", random_state=1) == (
        fbeta_confidence_interval(
            yb, pb, average="binary", pos_label=0, method="bootstrap", random_state=1
        )
    )
    # weighted and multilabel delta intervals read the second moments
    weighted = fbeta_summary(y, p, sample_weight=np.linspace(0.5, 1.5, 1000))
    with pytest.raises(ValueError, match=r"fbeta_summary\(y_true, y_pred, \.\.\., "):
        weighted.confidence_interval()
    ml = fbeta_summary(np.eye(3, dtype=int), np.eye(3, dtype=int))
    with pytest.raises(ValueError, match=r"moments=True"):
        ml.confidence_interval()


def test_degenerate_cases_are_finite():
    y = np.repeat([0, 1, 2], 100)
    with pytest.warns(UserWarning, match="zero width"):
        perfect = fbeta_confidence_interval(y, y, method="delta")
    with pytest.warns(UserWarning, match="zero width"):
        boot = fbeta_confidence_interval(y, y, method="bootstrap", random_state=0)
    for ci in (perfect, boot):
        for s in (ci.averaged_fbeta, ci.fbeta_of_averages):
            assert (s.estimate, s.low, s.high, s.std_error) == (1.0, 1.0, 1.0, 0.0)
    never = np.where(y == 2, 1, y)  # class 2 is never predicted
    with pytest.warns(Warning):
        ci = fbeta_confidence_interval(y, never)
    for s in (ci.averaged_fbeta, ci.fbeta_of_averages):
        assert np.isfinite([s.low, s.high, s.std_error]).all()
        assert s.low < s.estimate < s.high
    two = fbeta_confidence_interval(y % 2, never % 2, average="binary")
    assert np.isfinite(two.averaged_fbeta.std_error)
    ci = fbeta_confidence_interval(y, never, zero_division=np.nan)
    assert np.isfinite(ci.fbeta_of_averages.high)
    with pytest.warns(UserWarning, match="zero width"):
        wrong = fbeta_confidence_interval(
            [0, 1] * 50, [1, 0] * 50, zero_division=0, method="delta"
        )
    assert (wrong.averaged_fbeta.low, wrong.averaged_fbeta.high) == (0.0, 0.0)
    # the default (the posterior) has positive width there, and for y == y
    for ci in (
        fbeta_confidence_interval([0, 1] * 50, [1, 0] * 50, zero_division=0),
        fbeta_confidence_interval(y, y),
    ):
        assert ci.method == "posterior"
        assert 0 < ci.averaged_fbeta.width < 0.1


def test_random_state_kinds_and_confusion_matrix_summary():
    y, p = _data(600, k=3, seed=9)
    a = fbeta_confidence_interval(
        y, p, method="bootstrap", random_state=np.random.RandomState(0)
    )
    b = fbeta_confidence_interval(
        y, p, method="bootstrap", random_state=np.random.RandomState(0)
    )
    assert a == b
    # the paper's Table 1 matrix (rows predicted): both intervals, both methods
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix([[100, 10000], [0, 100]], rows="predicted"),
        zero_division=0,
    )
    for method in ("delta", "bootstrap"):
        ci = s.confidence_interval(method=method, random_state=0)
        assert ci.n_samples == 10200
        assert ci.averaged_fbeta.estimate == pytest.approx(0.0196078431)
        assert ci.fbeta_of_averages.estimate == pytest.approx(0.504950495)
        assert ci.averaged_fbeta.high < ci.fbeta_of_averages.low


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"confidence": 1.0}, ValueError, "confidence"),
        ({"confidence": "95%"}, TypeError, "confidence"),
        ({"method": "bca"}, ValueError, "method"),
        ({"n_resamples": 1}, ValueError, "n_resamples"),
        ({"average": None}, ValueError, "average=None"),
        ({"method": "bootstrap", "random_state": "x"}, ValueError, "random_state"),
        ({"method": "bootstrap", "random_state": -1}, ValueError, "random_state"),
        ({"method": "bootstrap", "random_state": True}, TypeError, "random_state"),
        ({"average": "samples"}, ValueError, "samples"),
    ],
)
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        fbeta_confidence_interval([0, 1, 1, 0], [0, 1, 0, 0], **kwargs)


def test_coverage_of_a_small_simulation():
    """200 seeded data sets: a miscalibrated interval would miss this range."""
    k, n, reps = 4, 1000, 200
    rng = np.random.default_rng(123)
    prior = np.array([0.4, 0.3, 0.2, 0.1])
    confusion = np.full((k, k), 0.2 / (k - 1)) + np.eye(k) * (0.8 - 0.2 / (k - 1))
    p = (prior[:, None] * confusion).reshape(-1)  # population cell probabilities
    truth = {}
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        truth[name], _ = _cells_score(
            p.reshape(k, k) * 1e6, Options("macro", 1.0, 0.0, None, 1), name
        )
    hits = dict.fromkeys(truth, 0)
    codes = np.arange(k * k)
    for _ in range(reps):
        cell = rng.choice(codes, size=n, p=p)
        ci = fbeta_confidence_interval(cell // k, cell % k, zero_division=0.0)
        for name in truth:
            hits[name] += truth[name] in getattr(ci, name)
    for name in truth:
        assert 0.88 <= hits[name] / reps <= 0.99


def test_intervals_for_report_rows():
    # the report's intervals as FBetaInterval objects (estimate, bounds,
    # standard error) have no public face: the report prints only the bounds
    from sklearn_macrof1._counting._record import read
    from sklearn_macrof1._formulas._evaluation import evaluate_averages
    from sklearn_macrof1._stats._intervals import Resampling, report_intervals

    y, p = _data(900, k=3, seed=10)
    reading = read(y, p, samplewise=True)
    options = Options(None, 1.0, "warn", None, None)

    def intervals_for_averages(averages, method="delta", random_state=None):
        selection, _, results = evaluate_averages(
            reading.counts, options, averages, warn_for=(), caller="t"
        )
        rng = None if random_state is None else np.random.default_rng(random_state)
        resampling = Resampling(0.95, method, 1000, rng)
        return report_intervals(
            reading, options, (selection, results), averages, resampling, caller="t"
        )

    rows = intervals_for_averages(
        ["micro", "macro", "weighted"], method="bootstrap", random_state=5
    )
    again = intervals_for_averages(
        ["micro", "macro", "weighted"], method="bootstrap", random_state=5
    )
    assert rows == again
    assert rows["macro"].averaged_fbeta.estimate == pytest.approx(
        f1_score(y, p, average="macro")
    )
    delta = intervals_for_averages(["macro"])
    assert delta["macro"] == fbeta_confidence_interval(y, p, method="delta")


@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_replicates_are_the_scores_of_the_resamples(average, weighted):
    """A replicate is exactly what the score functions give on the resample,
    including classes that vanish from a resample (rare classes, labels=None)."""
    # the bootstrap's replicates (one score per drawn multiplicity vector) have
    # no public face: an interval shows only their spread
    from sklearn_macrof1._formulas._evaluation import check_options, read_for
    from sklearn_macrof1._stats._intervals import (
        draw_multiplicities,
        evaluation_from,
    )

    y, p = _data(300, k=8, seed=11, skew=0.6)
    y[0], p[0], p[1] = 8, 8, 9  # classes 8 and 9 appear in one sample each
    w = np.linspace(0.5, 2.0, 300) if weighted else None
    options = check_options(caller="t", average=average, beta=1.0, zero_division=0.0)
    reading = read_for(y, p, options, sample_weight=w, caller="t")
    ev = evaluation_from(reading, options, caller="t", per_sample=True)
    m = draw_multiplicities(np.random.default_rng(0), 300, 20)
    reps_avg, reps_foa = ev.replicates_from_multiplicities(m)
    for b in range(20):
        idx = np.repeat(np.arange(300), m[b].astype(int))
        wb = None if w is None else w[idx]
        assert reps_avg[b] == pytest.approx(
            f1_score(y[idx], p[idx], average=average, sample_weight=wb, zero_division=0)
        )
        assert reps_foa[b] == pytest.approx(
            fbeta_of_averages_score(
                y[idx], p[idx], beta=1.0, average=average, sample_weight=wb,
                zero_division=0,
            )
        )  # fmt: skip


# ---------------------------------------------------------------- the posterior


def _posterior(*args, **kwargs):
    return fbeta_confidence_interval(
        *args, method="posterior", random_state=0, **kwargs
    )


def test_posterior_without_errors_has_positive_width_shrinking_with_n():
    lows = []
    for n in (60, 600, 6000):
        y = np.arange(n) % 3
        ci = _posterior(y, y)
        for s in (ci.averaged_fbeta, ci.fbeta_of_averages):
            assert s.estimate == s.high == 1.0
            # no tighter than the rule of three (3/n errors at 95%)
            assert 0 < 1 - s.low and s.low <= 1 - 3 / n
        lows.append(ci.averaged_fbeta.low)
    assert lows[0] < lows[1] < lows[2] < 1


def test_posterior_contains_the_scores_and_is_reproducible():
    y, p = _data(300, k=5, accuracy=0.7)
    ci = _posterior(y, p)
    assert ci.method == "posterior" and ci.n_resamples == 1000
    assert ci.averaged_fbeta.estimate == pytest.approx(f1_score(y, p, average="macro"))
    assert ci.fbeta_of_averages.estimate == fbeta_of_averages_score(y, p, beta=1.0)
    for s in (ci.averaged_fbeta, ci.fbeta_of_averages):
        assert s.low < s.estimate < s.high and s.std_error > 0
    assert _posterior(y, p) == ci
    assert fbeta_confidence_interval(y, p, method="posterior", random_state=1) != ci
    assert "Dirichlet posterior, 1000 draws" in str(ci)


def test_posterior_is_the_same_from_predictions_record_stream_and_summary():
    from sklearn_macrof1 import MacroF1Accumulator

    y, p = _data(400, k=6, accuracy=0.6, skew=0.3)
    direct = _posterior(y, p)
    record = _posterior(MacroF1Counts.from_predictions(y, p))
    stream = MacroF1Accumulator(keep="cells")  # intervals need the cells
    for start in range(0, 400, 150):
        stream.update(y[start : start + 150], p[start : start + 150])
    summary = fbeta_summary(y, p).confidence_interval(
        method="posterior", random_state=0
    )
    assert record == direct
    assert _posterior(stream.counts) == direct
    assert summary == direct


def test_posterior_above_2048_classes_draws_the_occupied_cells():
    # the record keeps the occupied cells only (no k x k table); predictions
    # and record give the same interval
    rng = np.random.default_rng(3)
    k = 2100
    y = np.arange(6000) % k
    p = np.where(rng.random(6000) < 0.8, y, rng.integers(0, k, 6000))
    record = MacroF1Counts.from_predictions(y, p)
    assert sp.issparse(record.confusion)
    ci = _posterior(y, p, n_resamples=50)
    assert _posterior(record, n_resamples=50) == ci
    assert ci.averaged_fbeta.low < ci.averaged_fbeta.estimate < ci.averaged_fbeta.high


def test_auto_resolves_to_the_posterior_where_it_is_defined():
    """method="auto" (the default): the posterior for unweighted 1-D targets of
    at most AUTO_POSTERIOR_MAX_SAMPLES samples, else the delta method; the
    result names the method used, never "auto"."""
    limit = AUTO_POSTERIOR_MAX_SAMPLES
    plain = {"weighted": False, "multilabel": False, "average": "macro"}
    assert resolved_method("auto", **plain, n_samples=limit) == "posterior"
    assert resolved_method("auto", **plain, n_samples=limit + 1) == "delta"
    for other in ({"weighted": True}, {"multilabel": True}, {"average": "samples"}):
        options = {**plain, **other, "n_samples": 100}
        assert resolved_method("auto", **options) == "delta"
    assert resolved_method("auto", **{**plain, "average": ("macro", "samples")},
                           n_samples=100) == "delta"  # fmt: skip
    for method in ("delta", "bootstrap", "posterior"):
        assert resolved_method(method, **plain, n_samples=limit + 1) == method
    # above the limit, a class too small for the delta method keeps the posterior
    few = AUTO_DELTA_MIN_TRUE
    assert resolved_method("auto", **plain, n_samples=limit + 1,
                           smallest_class=few) == "delta"  # fmt: skip
    assert resolved_method("auto", **plain, n_samples=limit + 1,
                           smallest_class=few - 1) == "posterior"  # fmt: skip
    y, p = _data(limit + 1, k=4, seed=2)
    big = fbeta_confidence_interval(y, p)
    assert big == fbeta_confidence_interval(y, p, method="delta")
    assert fbeta_confidence_interval(y[:limit], p[:limit]).method == "posterior"
    rare = np.r_[y, [9] * (few - 1)], np.r_[p, [9] * (few - 1)]
    assert fbeta_confidence_interval(*rare).method == "posterior"
    assert fbeta_confidence_interval(y, p, labels=[0, 1, 2, 3, 7]).method == "posterior"
    ml = fbeta_confidence_interval(np.eye(3, dtype=int)[[0, 1, 2] * 30],
                                   np.eye(3, dtype=int)[[0, 1, 1] * 30])  # fmt: skip
    assert ml.method == "delta"
    weighted = fbeta_confidence_interval([0, 1] * 30, [0, 0] * 30,
                                         sample_weight=np.ones(60))  # fmt: skip
    assert weighted.method == "delta"


def test_auto_with_average_binary_looks_at_pos_label_only():
    # the negative class (10 true samples) is not averaged by average="binary"
    y = np.ones(AUTO_POSTERIOR_MAX_SAMPLES + 5_000, dtype=int)
    y[:10] = 0
    p = y.copy()
    p[5:20] = 1 - p[5:20]
    assert fbeta_confidence_interval(y, p, average="binary").method == "delta"
    # pos_label=0: its 10 true samples are too few for the delta method
    binary = fbeta_confidence_interval(y, p, average="binary", pos_label=0)
    assert binary.method == "posterior"
    assert fbeta_confidence_interval(y, p).method == "posterior"  # macro: both


def test_posterior_without_random_state_is_seeded_by_the_counts():
    """random_state=None: the posterior's draws are seeded from the counts, so
    the same data give the same interval on every call and wherever they were
    counted; other data get other draws; an explicit random_state wins."""
    y, p = _data(300, k=5, accuracy=0.7, seed=11)
    ci = fbeta_confidence_interval(y, p)
    assert ci.method == "posterior"
    assert fbeta_confidence_interval(y, p) == ci
    assert fbeta_confidence_interval(y, p, method="posterior") == ci
    # the same counts, however they were gathered
    record = MacroF1Counts.from_predictions(y, p)
    assert fbeta_confidence_interval(record) == ci
    stream = MacroF1Accumulator(keep="cells")
    for part in np.array_split(np.arange(300), 7):
        stream.update(y[part], p[part])
    assert fbeta_confidence_interval(stream.counts) == ci
    assert fbeta_summary(y, p).confidence_interval() == ci
    order = np.random.default_rng(0).permutation(300)  # another sample order
    assert fbeta_confidence_interval(y[order], p[order]) == ci
    # the report's rows: each equals its stand-alone interval
    report = classification_report(y, p, confidence=0.95, output_dict=True)
    for row, average in (("macro avg", "macro"), ("weighted avg", "weighted")):
        alone = fbeta_confidence_interval(y, p, average=average)
        assert report[row]["f1-score-ci"] == [
            alone.averaged_fbeta.low,
            alone.averaged_fbeta.high,
        ]
    # an explicit random_state: its own draws, reproducible
    seeded = fbeta_confidence_interval(y, p, random_state=0)
    assert seeded == fbeta_confidence_interval(y, p, random_state=0)
    assert seeded.averaged_fbeta.low != ci.averaged_fbeta.low
    # other counts (one sample changed), other draws: the bounds move by more
    # than the change of the estimate would explain alone
    q = p.copy()
    q[0] = (q[0] + 1) % 5
    other = fbeta_confidence_interval(y, q)
    assert (other.averaged_fbeta.low, other.averaged_fbeta.high) != (
        ci.averaged_fbeta.low,
        ci.averaged_fbeta.high,
    )
    # above 2048 classes the record keeps the occupied cells only
    rng = np.random.default_rng(5)
    k = 2100
    y = np.arange(5000) % k
    p = np.where(rng.random(5000) < 0.8, y, rng.integers(0, k, 5000))
    many = fbeta_confidence_interval(y, p, n_resamples=50)
    assert (
        fbeta_confidence_interval(MacroF1Counts.from_predictions(y, p), n_resamples=50)
        == many
    )


def test_posterior_absent_class_spans_its_whole_range():
    # a class of labels absent from the data: the lower posterior scores it
    # 0 (as the estimate does), the upper one near 1
    y, p = _data(400, k=4, accuracy=0.9)
    with pytest.warns(CoverageWarning, match=r"absent from y_true and y_pred: 7"):
        ci = _posterior(y, p, labels=[0, 1, 2, 3, 7], zero_division=0.0)
    full = f1_score(y, p, average="macro")
    s = ci.averaged_fbeta
    assert s.estimate == pytest.approx(full * 4 / 5)
    assert s.low <= s.estimate and s.high > (4 * full + 0.8) / 5


def test_coverage_warning_names_the_classes_and_their_counts():
    y = np.array([0] * 40 + [1] * 40 + [2] * 3)
    p = np.array([0] * 38 + [3] * 2 + [1] * 40 + [2] * 3)
    with pytest.warns(CoverageWarning) as caught:
        fbeta_confidence_interval(y, p, zero_division=0.0, method="delta")
    message = str(caught[0].message)
    assert "predicted but never true (times predicted): 3 (2)" in message
    # the delta method needs 10 true samples of every class, the posterior 5
    assert "fewer than 10 true samples (true samples): 2 (3)" in message
    assert "method='posterior' holds" in message  # the delta method's advice
    with pytest.warns(CoverageWarning) as caught:
        _posterior(y, p, zero_division=0.0)
    assert "fewer than 5 true samples (true samples): 2 (3)" in str(caught[0].message)
    assert "method='posterior' holds" not in str(caught[0].message)
    # 8 true samples: enough for the posterior, not for the delta method
    y = np.array([0] * 40 + [1] * 40 + [2] * 8)
    p = np.array([0] * 36 + [1] * 4 + [1] * 38 + [2] * 2 + [2] * 7 + [0])
    with pytest.warns(CoverageWarning, match="fewer than 10 true samples"):
        fbeta_confidence_interval(y, p, method="delta")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CoverageWarning)
        _posterior(y, p)
        # the default resolves to the posterior, and warns at its threshold
        assert fbeta_confidence_interval(y, p).method == "posterior"
    # enough true samples of every class: no warning
    y, p = _data(200, k=3, accuracy=0.8)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CoverageWarning)
        fbeta_confidence_interval(y, p)
        _posterior(y, p)
    assert issubclass(CoverageWarning, UserWarning)


def test_coverage_warning_advises_the_posterior_only_where_it_is_defined():
    # weighted and multilabel targets resolve "auto" to the delta method, and
    # the posterior refuses them: its advice would be a fix that fails
    y = np.array([0] * 40 + [1] * 40 + [2] * 3)
    p = np.array([0] * 38 + [1] * 2 + [1] * 40 + [2] * 3)
    w = np.linspace(0.5, 1.5, y.shape[0])
    with pytest.warns(CoverageWarning) as caught:
        ci = fbeta_confidence_interval(y, p, sample_weight=w)
    assert ci.method == "delta"
    message = str(caught[0].message)
    assert "fewer than 10 effective true samples" in message
    assert "posterior" not in message
    with pytest.raises(ValueError, match="not defined with sample_weight"):
        fbeta_confidence_interval(y, p, sample_weight=w, method="posterior")
    rng = np.random.default_rng(0)
    yt = (rng.random((200, 3)) < [0.4, 0.4, 0.02]).astype(int)
    yt[:3, 2] = 1
    with pytest.warns(CoverageWarning) as caught:
        ci = fbeta_confidence_interval(yt, yt ^ (rng.random((200, 3)) < 0.1))
    assert ci.method == "delta"
    assert "posterior" not in str(caught[0].message)
    # the report names its own argument
    with pytest.warns(CoverageWarning) as caught:
        classification_report(y, p, confidence=0.95, interval_method="delta")
    message = str(caught[0].message)
    assert "with interval_method='delta'" in message
    assert "interval_method='posterior' holds" in message


def _coverage_messages(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught if w.category is CoverageWarning]


@pytest.mark.parametrize("method", ["delta", "bootstrap"])
def test_coverage_warning_counts_effective_samples_with_weights(method):
    rng = np.random.default_rng(0)
    n = 3000
    y = rng.integers(0, 3, n)
    p = np.where(rng.random(n) < 0.8, y, rng.integers(0, 3, n))

    def messages(y, w, **kwargs):
        return _coverage_messages(
            lambda: fbeta_confidence_interval(
                y, p, sample_weight=w, method=method, random_state=0, **kwargs
            )
        )

    # about 1,000 samples a class: no warning at any scale of the weights
    for scale in (1 / n, 1.0, 1e6):
        assert messages(y, np.full(n, scale)) == []
    # 3 samples of weights 1, 2, 3 (whose sum, 6, is no count) scaled up
    # heavily: Kish's effective number (1+2+3)**2 / (1+4+9), whatever the scale
    y3 = y.copy()
    y3[:3] = 3
    for scale in (1.0, 1000.0):
        w = np.ones(n)
        w[:3] = np.array([1.0, 2.0, 3.0]) * scale
        (message,) = messages(y3, w, zero_division=0.0)
        assert "at least 10 effective true samples (the squared sum" in message
        rare = "fewer than 10 effective true samples (effective true samples)"
        assert f"{rare}: 3 ({36 / 14:g})" in message
    # true samples of weight 0 only: never true with a non-zero weight
    w = np.ones(n)
    w[y == 2] = 0.0
    (message,) = messages(y, w)
    assert "1 class(es) predicted but never true with a non-zero weight" in message
    # a multilabel record: the diagonal of its true entries' second moments
    if method == "delta":
        eye = np.eye(4, dtype=int)
        w = np.ones(n)
        w[:3] = [1000.0, 2000.0, 3000.0]
        (message,) = _coverage_messages(
            lambda: fbeta_confidence_interval(
                eye[y3], eye[p], sample_weight=w, zero_division=0.0
            )
        )
        assert f"(effective true samples): 3 ({36 / 14:g})" in message
    # unweighted: observed counts, worded as before
    (message,) = _coverage_messages(
        lambda: fbeta_confidence_interval(
            y3, p, method=method, random_state=0, zero_division=0.0
        )
    )
    assert "fewer than 10 true samples (true samples): 3 (3)" in message
    assert "effective" not in message


def _coverage_message(call):
    with pytest.warns(CoverageWarning) as caught:
        call()
    return str([w for w in caught if w.category is CoverageWarning][0].message)


def test_coverage_warning_advises_what_the_caller_can_do():
    y = np.array([0] * 100 + [1] * 3)
    p = y.copy()
    p[:5] = 1
    # make_compute_metrics names the method with its argument interval=
    message = _coverage_message(
        lambda: make_compute_metrics(interval="delta")((np.eye(2)[p] * 3.0, y))
    )
    assert "with interval='delta'" in message
    assert "interval='posterior' holds" in message
    assert "method=" not in message
    # a summary's method has no labels: the summary is made with them
    message = _coverage_message(
        lambda: fbeta_summary(y, p).confidence_interval(method="delta")
    )
    assert "or make the summary with fbeta_summary(..., labels=...) without" in message
    assert "pass labels" not in message
    # the one class of average="binary" is pos_label's: no labels to leave out
    message = _coverage_message(
        lambda: fbeta_confidence_interval(y, p, average="binary", method="delta")
    )
    assert "Collect more samples of these classes; method='posterior'" in message
    assert "labels" not in message
    # elsewhere the advice is unchanged
    message = _coverage_message(lambda: fbeta_confidence_interval(y, p, method="delta"))
    assert "or pass labels without them; method='posterior' holds" in message


def test_delta_values_unchanged_by_the_posterior():
    y = [0, 0, 1, 1, 2, 2, 2, 2] * 25
    p = [0, 1, 1, 1, 2, 0, 2, 2] * 25
    ci = fbeta_confidence_interval(y, p, method="delta")
    assert (ci.averaged_fbeta.low, ci.averaged_fbeta.high) == pytest.approx(
        (0.6574, 0.7807), abs=5e-5
    )
    assert (ci.fbeta_of_averages.low, ci.fbeta_of_averages.high) == pytest.approx(
        (0.6811, 0.7906), abs=5e-5
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"sample_weight": np.ones(60)}, "not defined with sample_weight"),
        ({"average": "samples"}, "not defined with multilabel targets"),
    ],
)
def test_posterior_refusals(kwargs, match):
    y, p = _data(60, k=3)
    if kwargs.get("average") == "samples":
        y, p = np.eye(3, dtype=int)[y], np.eye(3, dtype=int)[p]
    with pytest.raises(ValueError, match=match):
        _posterior(y, p, **kwargs)


def test_posterior_coverage_smoke():
    # near-perfect classifier, small classes: the delta method's worst case
    k, n, reps = 5, 100, 40
    acc = np.linspace(0.99, 0.95, k)
    cells = np.repeat(((1 - acc) / (k - 1))[:, None], k, axis=1) / k
    cells[np.arange(k), np.arange(k)] = acc / k
    truth = aggregate(
        np.diagonal(cells), cells.sum(1), cells.sum(0), average="macro",
        beta=1.0, zero_division=0.0,
    ).averaged_fbeta  # fmt: skip
    rng = np.random.default_rng(0)
    tables = rng.multinomial(n, cells.ravel(), size=reps).reshape(reps, k, k)
    hits = {"delta": 0, "posterior": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, table in enumerate(tables):
            record = MacroF1Counts.from_confusion_matrix(table, rows="true")
            for method in hits:
                ci = fbeta_confidence_interval(
                    record, zero_division=0.0, method=method,
                    n_resamples=300, random_state=i,
                ).averaged_fbeta  # fmt: skip
                hits[method] += truth in ci
    assert hits["posterior"] >= 0.9 * reps > hits["delta"]


@pytest.mark.parametrize("method", ["auto", "delta", "bootstrap", "posterior"])
@pytest.mark.parametrize("weighted", [False, True])
def test_counting_before_resolving_covers_every_resolution(method, weighted):
    """What the counting pass counts for a method not yet resolved (the data
    are not read) covers what the method it resolves to reads from the
    record, whatever the data turn out to be: "auto" never leaves a resolved
    interval without its moments or its redrawn cells."""
    counted = counted_for(method, weighted=weighted)
    resolutions = set()
    for multilabel in (False, True):
        for average in ("macro", "micro", "weighted", "samples"):
            for n, smallest in ((10, 0), (10**6, 5), (10**6, 10**4)):
                resolved = resolved_method(
                    method,
                    weighted=weighted,
                    multilabel=multilabel,
                    average=average,
                    n_samples=n,
                    smallest_class=smallest,
                )
                resolutions.add(resolved)
                assert resolved in possible_methods(method, weighted=weighted)
                kind = "multilabel-indicator" if multilabel else "multiclass"
                for asked in (None, average):  # a report's rows; one interval
                    count = counted_for(method, weighted=weighted, average=asked)
                    read = requires(
                        resolved, kind=kind, weighted=weighted, average=average
                    )
                    if "second moments" in read:
                        assert count["moments"]
                    if resolved in ("bootstrap", "posterior") and "joint cells" in read:
                        assert count["count_cells"]
    assert resolutions == possible_methods(method, weighted=weighted)
    # nothing is counted that no resolution reads (a multilabel average over
    # samples reads its per-sample counts only)
    assert counted["moments"] == ("delta" in resolutions)
    if not weighted:
        assert not counted_for(method, weighted=False, average="samples")["moments"]
    drawn_cells = not weighted and bool(resolutions & {"bootstrap", "posterior"})
    assert counted["count_cells"] == drawn_cells


@pytest.mark.parametrize("method", ["posterior", "bootstrap", "delta"])
@pytest.mark.parametrize("beta", [0.5, 1.0, 3.0])
def test_bounds_lie_within_zero_and_one(method, beta):
    # a score computed from drawn counts may round past 1 (a perfect
    # classifier's upper posterior gave 1.0000000000000002 at beta=3)
    for y, p in (([0] * 15, [0] * 15), ([0, 1] * 8, [0, 1] * 8)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ci = fbeta_confidence_interval(
                y, p, beta=beta, method=method, random_state=0
            )
        for s in (ci.averaged_fbeta, ci.fbeta_of_averages):
            assert 0.0 <= s.low <= s.estimate <= s.high <= 1.0
