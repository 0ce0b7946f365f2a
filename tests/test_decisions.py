"""Decision rules tuned for a macro F-beta: ``tune_decision_rule`` and
``MacroF1TunedClassifierCV``.

The count-based scoring of candidate rules is checked against the package's
score functions on random rules (every formula, average, beta, zero_division,
labels and weights); the search against its own claims (the score it reports is
the score of the rule it returns, and it beats argmax where there is something
to gain); the estimator against scikit-learn's estimator checks and model
selection tools.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from sklearn.base import clone
from sklearn.datasets import make_classification, make_multilabel_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.multiclass import OneVsRestClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_macrof1 import (
    DecisionRule,
    MacroF1TunedClassifierCV,
    averaged_fbeta_score,
    fbeta_of_averages_score,
    tune_decision_rule,
)

# Units without a public face: the count-based scoring of any candidate rule
# (the public functions score only the rule they return), the multiclass scan
# and its window (Search, _largest), and the multilabel threshold curves and
# their faster paths, checked against the general ones.
from sklearn_macrof1._decisions._inputs import (
    check_options,
    multiclass_data,
    multilabel_data,
)
from sklearn_macrof1._decisions._multiclass import Search, _largest
from sklearn_macrof1._decisions._multilabel import (
    _dense_samples_curve,
    _pooled,
    _samples_curve,
    score_thresholds,
    tune_multilabel,
)

SCORE = {"averaged": averaged_fbeta_score, "of_averages": fbeta_of_averages_score}


def _package_score(formula, y, pred, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return SCORE[formula](y, pred, **kwargs)


def _options(formula, beta, average, zero_division, smoothing=0.0):
    return check_options(
        caller="test",
        formula=formula,
        beta=beta,
        average=average,
        zero_division=zero_division,
        smoothing=smoothing,
        max_iter=20,
        tol=1e-6,
        selection_cv=None,
    )


def _same(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-12


def _imbalanced(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.choice(4, size=n, p=[0.7, 0.2, 0.07, 0.03])
    logits = rng.normal(size=(n, 4)) + 1.2 * np.eye(4)[y]
    proba = np.exp(logits)
    return y, proba / proba.sum(axis=1, keepdims=True)


# ---------------------------------------------- counts agree with the scores
MULTICLASS_CASES = list(
    itertools.product(
        ["averaged", "of_averages"],
        ["macro", "weighted", "micro"],
        [0.0, 1.0, np.nan, "warn"],
    )
)


@pytest.mark.parametrize(("formula", "average", "zero_division"), MULTICLASS_CASES)
def test_count_scores_of_random_multiclass_rules_equal_the_score_functions(
    formula, average, zero_division
):
    rng = np.random.default_rng(hash((formula, average, str(zero_division))) % 2**32)
    for trial in range(12):
        k = int(rng.integers(2, 6))
        n = int(rng.integers(1, 60))
        classes = np.arange(k)
        y = rng.integers(0, k + 1, size=n)  # label k: outside the classes
        scores = rng.random((n, k))
        weight = rng.choice([0.0, 0.5, 1.0, 3.0], size=n) if trial % 2 else None
        if weight is not None and not weight.any():
            weight[0] = 1.0
        beta = [1.0, 0.5, 2.0, 0.0, np.inf][trial % 5]
        labels = [None, [0, k - 1], [1, k, k + 3]][trial % 3]
        options = _options(formula, beta, average, zero_division)
        data = multiclass_data(
            y,
            scores,
            classes=classes,
            labels=labels,
            pos_label=1,
            weight=np.ones(n) if weight is None else weight,
            average=average,
            target="multiclass",
        )
        problem = data.problem(options.objective(data.weight))
        w, b = rng.random(k) + 0.5, rng.normal(scale=0.3, size=k)
        predicted = problem.predict(w, b)
        ours = problem.score_counts(problem.counts(predicted))
        theirs = _package_score(
            formula,
            y,
            classes[predicted],
            beta=beta,
            average=average,
            labels=labels,
            sample_weight=weight,
            zero_division=zero_division,
        )
        assert _same(ours, theirs), (trial, ours, theirs)


@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
@pytest.mark.parametrize("formula", ["averaged", "of_averages"])
def test_count_scores_of_random_binary_rules_equal_the_score_functions(
    formula, zero_division
):
    rng = np.random.default_rng(7)
    for _ in range(10):
        n = int(rng.integers(1, 40))
        y = rng.choice(["neg", "pos"], size=n)
        scores = rng.normal(size=n)
        data = multiclass_data(
            y,
            scores,
            classes=np.array(["neg", "pos"]),
            labels=None,
            pos_label="pos",
            weight=np.ones(n),
            average="binary",
            target="binary",
        )
        options = _options(formula, 1.0, "binary", zero_division)
        problem = data.problem(options.objective(data.weight))
        predicted = problem.predict(np.ones(2), np.array([0.0, rng.normal()]))
        ours = problem.score_counts(problem.counts(predicted))
        theirs = _package_score(
            formula,
            y,
            data.classes[predicted],
            beta=1.0,
            average="binary",
            pos_label="pos",
            zero_division=zero_division,
        )
        assert _same(ours, theirs)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize(
    ("formula", "average", "zero_division"),
    list(
        itertools.product(
            ["averaged", "of_averages"],
            ["macro", "weighted", "micro", "samples"],
            [0.0, 1.0, np.nan],
        )
    ),
)
def test_count_scores_of_random_thresholds_equal_the_score_functions(
    formula, average, zero_division, sparse
):
    rng = np.random.default_rng(3)
    for trial in range(6):
        n, n_labels = int(rng.integers(1, 40)), int(rng.integers(2, 6))
        y = (rng.random((n, n_labels)) < 0.3).astype(int)
        scores = np.where(rng.random((n, n_labels)) < 0.5, rng.random((n, n_labels)), 0)
        weight = rng.choice([0.0, 1.0, 2.0], size=n) if trial % 2 else None
        if weight is not None and not weight.any():
            weight[0] = 1.0
        labels = None if trial % 3 else [0]
        beta = [1.0, 0.5, 3.0][trial % 3]
        y_in = sp.csr_matrix(y) if sparse else y
        s_in = sp.csr_matrix(scores) if sparse else scores
        data = multilabel_data(
            y_in,
            s_in,
            labels=labels,
            weight=np.ones(n) if weight is None else weight,
            average=average,
        )
        options = _options(formula, beta, average, zero_division)
        problem = data.problem(options.objective(data.weight))
        thresholds = rng.random(n_labels) * 0.8
        ours = score_thresholds(problem, thresholds)
        theirs = _package_score(
            formula,
            y,
            (scores > thresholds).astype(int),
            beta=beta,
            average=average,
            labels=labels,
            sample_weight=weight,
            zero_division=zero_division,
        )
        assert _same(ours, theirs), (trial, ours, theirs)


def test_every_scanned_cut_scores_what_the_rule_then_scores():
    """The incremental scan of one class's offset predicts, for its best cut,
    exactly the score the rule has once that offset is set (rounded scores:
    many ties, and keys that differ by rounding only)."""
    rng = np.random.default_rng(5)
    checked = 0
    for trial in range(80):
        k, n = int(rng.integers(2, 5)), int(rng.integers(3, 40))
        y = rng.integers(0, k, n)
        scores = np.round(rng.random((n, k)), 1)
        formula = ["averaged", "of_averages"][trial % 2]
        average = ["macro", "weighted", "micro"][trial % 3]
        options = _options(formula, [1.0, 0.5, 2.0][trial % 3], average, 0.0)
        data = multiclass_data(
            y,
            scores,
            classes=np.arange(k),
            labels=None,
            pos_label=1,
            weight=np.ones(n),
            average=average,
            target="multiclass",
        )
        search = Search(
            data.problem(options.objective(data.weight)), np.ones(k), np.zeros(k)
        )
        j = int(rng.integers(0, k))
        members = np.flatnonzero(search.i1 == j)
        col = search.problem.scores[:, j].copy()
        _, best, _, _ = search.scan(j, search.keys(j, col, members), n, members)
        if search.step_offset(j, col):  # (its window: every sample, n < 256)
            checked += 1
            assert abs(search.value - best) < 1e-12
    assert checked > 10


# ------------------------------------------------------------- the function
def test_tuned_rule_beats_argmax_in_sample_and_reports_its_own_score():
    y, proba = _imbalanced()
    for formula in ("averaged", "of_averages"):
        rule = tune_decision_rule(y, proba, formula=formula, selection_cv=None)
        predicted = rule.predict(proba)
        exact = _package_score(formula, y, predicted, beta=1.0)
        assert rule.score == pytest.approx(exact, abs=1e-12)
        argmax = _package_score(formula, y, proba.argmax(axis=1), beta=1.0)
        assert rule.baseline_score == pytest.approx(argmax, abs=1e-12)
        assert rule.score > argmax + 0.02
        # the search is monotone in its objective and ends at the rule's score
        objective = rule.candidates["objective"]
        sweeps = [i for i, r in enumerate(rule.candidates["rule"]) if "sweep" in r]
        assert np.all(np.diff(objective[sweeps]) >= -1e-12)
        assert rule.candidates["score"][-1] == pytest.approx(rule.score, abs=1e-12)


def test_rule_on_logits_string_labels_and_weights():
    y, proba = _imbalanced(2000, seed=1)
    names = np.array(["ant", "bee", "cat", "dog"])
    weight = np.random.default_rng(0).choice([0.5, 1.0, 2.0], size=y.shape[0])
    rule = tune_decision_rule(
        names[y], np.log(proba), sample_weight=weight, beta=2.0, average="weighted"
    )
    assert list(rule.classes) == list(names)
    predicted = rule.predict(np.log(proba))
    assert set(predicted) <= set(names)
    exact = averaged_fbeta_score(
        names[y], predicted, beta=2.0, average="weighted", sample_weight=weight
    )
    assert rule.score == pytest.approx(exact, abs=1e-12)
    assert rule.score >= rule.baseline_score


def test_binary_one_column_scores_give_a_threshold_rule():
    rng = np.random.default_rng(2)
    y = (rng.random(1500) < 0.1).astype(int)
    score = rng.normal(size=1500) + 1.5 * y
    rule = tune_decision_rule(y, score, average="binary")
    predicted = rule.predict(score)
    assert rule.score == pytest.approx(
        averaged_fbeta_score(y, predicted, beta=1.0, average="binary"), abs=1e-12
    )
    # a threshold on the score: predictions are monotone in it
    order = np.argsort(score)
    assert np.all(np.diff(predicted[order]) >= 0)
    with pytest.raises(ValueError, match="must be 1-D"):
        rule.predict(np.column_stack((-score, score)))


def test_labels_and_classes_without_validation_samples():
    y, proba = _imbalanced(1500, seed=3)
    keep = y != 3  # class 3 has no validation sample: classes= names the columns
    rule = tune_decision_rule(y[keep], proba[keep], classes=[0, 1, 2, 3])
    assert rule.weights.shape == (4,)
    with pytest.raises(ValueError, match="pass classes|one column per class"):
        tune_decision_rule(y[keep], proba[keep])
    rule = tune_decision_rule(y, proba, labels=[1, 2, 3, 9])
    exact = averaged_fbeta_score(y, rule.predict(proba), beta=1.0, labels=[1, 2, 3, 9])
    assert rule.score == pytest.approx(exact, abs=1e-12)


@pytest.fixture(scope="module")
def multilabel_scores():
    X, Y = make_multilabel_classification(
        n_samples=900, n_features=10, n_classes=5, n_labels=2, random_state=0
    )
    model = OneVsRestClassifier(LogisticRegression()).fit(X[:300], Y[:300])
    return Y[300:], model.predict_proba(X[300:])


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", "samples"])
def test_multilabel_thresholds(average, sparse, multilabel_scores):
    y, proba = multilabel_scores
    if sparse:
        proba = sp.csr_matrix(np.where(proba > 0.05, proba, 0.0))
        y = sp.csr_matrix(y)
    rule = tune_decision_rule(y, proba, average=average)
    predicted = rule.predict(proba)
    assert sp.issparse(predicted) == sparse
    dense_y = y.toarray() if sparse else y
    exact = averaged_fbeta_score(dense_y, predicted, beta=1.0, average=average)
    assert rule.score == pytest.approx(exact, abs=1e-12)
    assert rule.score >= rule.baseline_score
    if average in ("micro", "samples"):  # one shared threshold
        assert np.unique(rule.thresholds).shape[0] == 1


@pytest.mark.parametrize("formula", ["averaged", "of_averages"])
@pytest.mark.parametrize("average", ["micro", "samples"])
def test_shared_threshold_of_sparse_decision_values_matches_dense(average, formula):
    # decision values stored sparsely: the best shared threshold is below 0, where
    # the unstored entries (score 0) are predicted too
    rng = np.random.default_rng(3)
    y = (rng.random((300, 4)) < 0.6).astype(int)
    stored = rng.random((300, 4)) < 0.5
    dense = np.where(stored, rng.normal(size=(300, 4)) + y - 1.5, 0.0)
    options = dict(average=average, formula=formula, selection_cv=None, smoothing=0.0)
    from_dense = tune_decision_rule(y, dense, **options)
    from_sparse = tune_decision_rule(sp.csr_matrix(y), sp.csr_matrix(dense), **options)
    assert from_dense.thresholds[0] < 0
    assert from_sparse.score == pytest.approx(from_dense.score, abs=1e-12)
    np.testing.assert_allclose(from_sparse.thresholds, from_dense.thresholds)
    score = averaged_fbeta_score if formula == "averaged" else fbeta_of_averages_score
    predicted = from_sparse.predict(sp.csr_matrix(dense))
    exact = score(y, predicted, beta=1.0, average=average)
    assert from_sparse.score == pytest.approx(exact, abs=1e-12)


def test_largest_keys_of_a_window():
    # the window of the multiclass scan: a partition of every 16th key bounds
    # the answer, then an exact partition of the keys above the bound
    rng = np.random.default_rng(2)
    for n, count in [(5, 1), (40, 3), (1000, 10), (1000, 700), (20000, 271)]:
        for keys in (rng.normal(size=n), np.round(rng.normal(size=n), 1)):
            chosen = _largest(keys, count)
            assert chosen.shape == (count,)
            assert np.unique(chosen).shape == (count,)
            # the count largest, up to which of equal keys
            expected = np.sort(keys)[::-1][:count]
            np.testing.assert_array_equal(np.sort(keys[chosen])[::-1], expected)


def test_window_of_the_scan_orders_equal_keys_by_sample():
    # the window nearest the boundary is found by partitions, which leave equal
    # keys in an order of their own; the scan adds the moves up in the order of
    # the whole column sorted stably, so that rounding cannot depend on it
    rng = np.random.default_rng(4)
    n, k = 6000, 3
    y = rng.choice(k, size=n, p=[0.9, 0.05, 0.05])
    scores = np.round(rng.dirichlet(np.ones(k), size=n), 1)
    data = multiclass_data(
        y,
        scores,
        classes=np.arange(k),
        labels=None,
        pos_label=1,
        weight=np.ones(n),
        average="macro",
        target="multiclass",
    )
    options = _options("averaged", 1.0, "macro", 0.0)
    search = Search(
        data.problem(options.objective(data.weight)), np.ones(k), np.zeros(k)
    )
    for j in (1, 2):
        members = np.flatnonzero(search.i1 == j)
        keys = search.keys(j, search.problem.scores[:, j].copy(), members)
        _, _, sorted_keys, order = search.scan(j, keys, 300, members)
        assert order.shape == (301,)
        inside = sorted_keys > sorted_keys[-1]  # the last equal keys: any of them
        expected = np.argsort(-keys, kind="stable")[: int(inside.sum())]
        np.testing.assert_array_equal(order[inside], expected)


@pytest.mark.parametrize("formula", ["averaged", "of_averages"])
@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
def test_dense_samples_curve_matches_the_curve_sorted_by_sample(formula, zero_division):
    # dense scores: each sample's entries sorted within its row, their changes
    # added per group of equal pooled scores; the general path sorts all the
    # entries by sample. Same candidate thresholds, same objectives (to
    # rounding), same best cut; rounded scores make ties within and across rows
    rng = np.random.default_rng(5)
    for trial in range(6):
        n, n_labels = int(rng.integers(10, 60)), int(rng.integers(1, 8))
        y = (rng.random((n, n_labels)) < [0.2, 0.6][trial % 2]).astype(int)
        scores = np.round(rng.normal(size=y.shape) + y - 0.5, 1)
        weight = rng.choice([0.0, 0.5, 1.0, 2.0], size=n) if trial > 2 else None
        data = multilabel_data(
            y,
            scores,
            labels=None,
            weight=np.ones(n) if weight is None else weight,
            average="samples",
        )
        options = _options(formula, [1.0, 0.5][trial % 2], "samples", zero_division)
        p = data.problem(options.objective(data.weight))
        upper, lower, values = _dense_samples_curve(p)
        g_upper, g_lower, g_values = _samples_curve(p, *_pooled(p))
        np.testing.assert_array_equal(upper, g_upper)
        np.testing.assert_array_equal(lower, g_lower)
        np.testing.assert_allclose(values, g_values, rtol=0, atol=1e-12)
        best = np.nanmax(values)
        assert np.nanmax(g_values) == pytest.approx(best, abs=1e-12)


def test_samples_threshold_does_not_depend_on_the_order_of_the_labels():
    # a shared threshold maximises a score that ignores the order of the label
    # columns, so the rule must too, bit for bit: the sum of each sample's
    # changes must not depend on how its equal scores are ordered within its
    # row (they decided ties when summed entry by entry)
    scores = np.array([[0.2, 0.2, 0.9, 0.9, 0.4, 0.2], [0.9, 0.8, 0.9, 0.4, 0.4, 0.8]])
    y = np.array([[0, 1, 1, 0, 0, 0], [0, 0, 1, 0, 1, 0]])
    weight = np.array([0.3, 0.7])
    found = set()
    for perm in itertools.permutations(range(3)):
        cols = [*perm, 3, 4, 5]
        rule = tune_decision_rule(
            y[:, cols],
            scores[:, cols],
            average="samples",
            formula="of_averages",
            zero_division=1.0,
            sample_weight=weight,
            smoothing=0.0,
            selection_cv=None,
        )
        # label 2 has positive samples (labels 0, 3 and 5 have none: never
        # predicted, whatever the shared threshold)
        found.add((float(rule.thresholds[cols.index(2)]), rule.score))
        assert not rule.predict(scores[:, cols])[:, [cols.index(0), 3, 5]].any()
    assert len(found) == 1
    threshold, score = found.pop()
    assert (threshold, score) == (pytest.approx(0.85), pytest.approx(2 / 3))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize(
    ("formula", "average"),
    [
        ("averaged", "micro"),
        ("of_averages", "micro"),
        ("averaged", "samples"),
        ("averaged", "macro"),
        ("of_averages", "macro"),
        ("of_averages", "weighted"),
    ],
)
def test_faster_multilabel_paths_tune_exactly_the_general_rule(
    formula, average, sparse
):
    # unit weights take paths that count instead of summing weights in score
    # order; forced onto the general path, a problem must give the same rule,
    # bit for bit (ties of rounded scores, negative decision values, unstored
    # entries); weighted problems take the general path on both sides
    rng = np.random.default_rng(11)
    for trial in range(4):
        n, n_labels = int(rng.integers(20, 80)), int(rng.integers(2, 7))
        y = (rng.random((n, n_labels)) < [0.3, 0.7][trial // 2]).astype(int)
        kept = rng.random((n, n_labels)) < 0.6
        # decision values: with many true labels the best threshold is below 0
        values = np.round(rng.normal(size=y.shape) + 2 * y - 1.5, 1)
        scores = np.where(kept, values, 0.0)
        weighted = trial % 2 == 1
        weight = rng.choice([0.0, 0.5, 1.0, 2.0], size=n) if weighted else np.ones(n)
        data = multilabel_data(
            sp.csr_matrix(y) if sparse else y,
            sp.csr_matrix(scores) if sparse else scores,
            labels=None,
            weight=weight,
            average=average,
        )
        options = _options(formula, [1.0, 0.5][trial % 2], average, 0.0, 1.0)
        objective = options.objective(data.weight)
        faster, general = data.problem(objective), data.problem(objective)
        assert faster.unit is not weighted
        general.unit, general.orders = False, {}  # sorts its labels itself
        ours = tune_multilabel(faster, max_iter=20, tol=1e-6)
        theirs = tune_multilabel(general, max_iter=20, tol=1e-6)
        assert np.array_equal(ours.thresholds, theirs.thresholds), trial
        assert ours.candidates == theirs.candidates, trial
        assert (ours.objective, ours.n_sweeps) == (theirs.objective, theirs.n_sweeps)


def test_rule_selection_compares_procedures_on_folds():
    y, proba = _imbalanced(2000, seed=4)
    rule = tune_decision_rule(y, proba, formula="of_averages", random_state=0)
    selection = rule.selection
    assert selection["procedure"] == ["argmax", "averaged", "of_averages"]
    assert selection["fold_scores"].shape == (3, 3)
    best = selection["procedure"][int(np.argmax(selection["mean_score"]))]
    assert rule.procedure == selection["chosen"] == best
    again = tune_decision_rule(y, proba, formula="of_averages", random_state=0)
    assert again == rule  # seeded: the same folds, the same rule
    assert "DecisionRule(multiclass, 4 classes, F1 of averages (macro)" in repr(rule)
    assert rule != "a string" and not (rule == 3)


def test_balanced_data_stays_near_argmax():
    X, y = make_classification(
        n_samples=3000, n_classes=3, n_informative=5, random_state=0
    )
    model = GaussianNB().fit(X[:1000], y[:1000])
    rule = tune_decision_rule(
        y[1000:2000], model.predict_proba(X[1000:2000]), selection_cv=3, random_state=0
    )
    test = model.predict_proba(X[2000:])
    tuned = averaged_fbeta_score(y[2000:], rule.predict(test), beta=1.0)
    argmax = averaged_fbeta_score(y[2000:], test.argmax(axis=1), beta=1.0)
    assert tuned > argmax - 0.02


# -------------------------------------------------- defaults that do no harm
@pytest.mark.parametrize("formula", ["averaged", "of_averages"])
def test_default_selection_keeps_a_tuned_rule_only_beyond_the_folds_noise(formula):
    # the default selects on 3 folds for both formulas; a tuned procedure wins
    # only if its mean gain over argmax on the folds exceeds two standard
    # errors of that gain, else the rule is argmax itself
    kept = set()
    for seed in range(12):
        y, proba = _imbalanced(150 + 150 * (seed % 4), seed=seed)
        rule = tune_decision_rule(y, proba, formula=formula, random_state=seed)
        selection = rule.selection
        assert selection["fold_scores"].shape[1] == 3
        best = int(np.argmax(selection["mean_score"]))
        diff = selection["fold_scores"][best] - selection["fold_scores"][0]
        assert selection["gain"] == pytest.approx(diff.mean())
        assert selection["gain_se"] == pytest.approx(diff.std(ddof=1) / np.sqrt(3))
        if diff.mean() > 2 * selection["gain_se"] * (1 + 1e-6):
            assert rule.procedure == selection["procedure"][best]
        elif diff.mean() < 2 * selection["gain_se"] * (1 - 1e-6):
            assert rule.procedure == "argmax"
            np.testing.assert_array_equal(rule.predict(proba), proba.argmax(axis=1))
            assert rule.score == rule.baseline_score
        kept.add(rule.procedure)
    assert "argmax" in kept and len(kept) > 1  # both outcomes occur here


def test_default_rule_gains_on_a_long_tail_and_stays_argmax_on_little_data():
    y, proba = _imbalanced(4000, seed=5)
    rule = tune_decision_rule(y[:2000], proba[:2000], random_state=0)
    assert rule.procedure == "averaged"
    held_out = averaged_fbeta_score(y[2000:], rule.predict(proba[2000:]), beta=1.0)
    argmax = averaged_fbeta_score(y[2000:], proba[2000:].argmax(axis=1), beta=1.0)
    assert held_out > argmax + 0.02
    # 60 samples, the rarest classes with a handful: nothing provable to gain
    small = tune_decision_rule(y[:60], proba[:60], random_state=0)
    assert small.procedure == "argmax"
    in_sample = tune_decision_rule(y[:60], proba[:60], selection_cv=None)
    assert in_sample.score > small.score == small.baseline_score


def test_held_out_score_is_the_selection_estimate_beside_the_in_sample_one(
    imbalanced_data,
):
    X, y = imbalanced_data
    model = MacroF1TunedClassifierCV(GaussianNB(), cv=3, random_state=0).fit(X, y)
    selection = model.rule_.selection
    chosen = selection["procedure"].index(model.rule_.procedure)
    assert model.held_out_score_ == selection["mean_score"][chosen]
    assert model.held_out_score_ == model.rule_.held_out_score
    # in-sample is optimistic: the rule was tuned on those very scores
    assert model.best_score_ == model.rule_.score > model.held_out_score_
    free = MacroF1TunedClassifierCV(GaussianNB(), cv=3, selection_cv=None).fit(X, y)
    assert math.isnan(free.held_out_score_) and free.rule_.selection is None


# ----------------------------------------------------- gaming F1 of averages
def _weak_multilabel():
    X, Y = make_multilabel_classification(
        n_samples=3000, n_features=50, n_classes=20, n_labels=4, random_state=0
    )
    model = OneVsRestClassifier(LogisticRegression(max_iter=1000)).fit(
        X[:1000], Y[:1000]
    )
    return Y[1000:], model.predict_proba(X[1000:])


def test_gamed_f1_of_averages_warns_naming_labels_and_both_scores():
    from sklearn_macrof1 import GamedScoreWarning

    Y, proba = _weak_multilabel()
    with pytest.warns(GamedScoreWarning) as caught:
        rule = tune_decision_rule(Y, proba, formula="of_averages", random_state=0)
    assert rule.procedure == "of_averages"
    predicted = rule.predict(proba)
    share, prevalence = predicted.mean(axis=0), Y.mean(axis=0)
    gamed = np.flatnonzero((share > 0.8) & (prevalence < 0.5))
    assert gamed.shape[0] > 0
    message = str(caught[0].message)
    assert f"predicts {gamed.shape[0]} labels" in message
    for label in gamed[:10]:
        assert f"{label} ({100 * share[label]:.0f} % predicted" in message
    before = (proba > 0.5).astype(int)
    oa = [fbeta_of_averages_score(Y, p, beta=1.0) for p in (before, predicted)]
    av = [averaged_fbeta_score(Y, p, beta=1.0) for p in (before, predicted)]
    assert f"raises F1 of averages from {oa[0]:.4f} (thresholds 0.5 / 0) to " in message
    assert f"to {oa[1]:.4f} while averaged F1 goes from {av[0]:.4f} to {av[1]:.4f}" in (
        message
    )
    assert issubclass(GamedScoreWarning, UserWarning)


def test_honest_rules_do_not_warn(imbalanced_data):
    Y, proba = _weak_multilabel()
    y, scores = _imbalanced(3000, seed=1)
    X, y_fit = imbalanced_data
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        tune_decision_rule(Y, proba, formula="averaged", random_state=0)
        tune_decision_rule(y, scores, formula="of_averages", random_state=0)
        MacroF1TunedClassifierCV(
            LogisticRegression(max_iter=1000), formula="of_averages", random_state=0
        ).fit(X, y_fit)


def test_a_rule_that_loses_averaged_f1_warns(imbalanced_data):
    from sklearn_macrof1 import GamedScoreWarning

    X, y = imbalanced_data
    with pytest.warns(GamedScoreWarning, match="averaged F1 goes from") as caught:
        model = MacroF1TunedClassifierCV(
            GaussianNB(), formula="of_averages", random_state=0
        ).fit(X, y)
    # no class is over-predicted here: the loss of averaged F1 alone warns
    assert "predicts" not in str(caught[0].message)
    assert caught[0].filename == __file__  # points at the caller of fit
    rows = np.concatenate([t for _, t in StratifiedKFold(5).split(X, y)])
    oof = np.concatenate(
        [
            GaussianNB().fit(X[tr], y[tr]).predict_proba(X[te])
            for tr, te in StratifiedKFold(5).split(X, y)
        ]
    )
    before = averaged_fbeta_score(y[rows], oof.argmax(axis=1), beta=1.0)
    after = averaged_fbeta_score(y[rows], model.rule_.predict(oof), beta=1.0)
    assert after < before - 0.01


# ------------------------------------------------------ never-positive labels
@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
@pytest.mark.parametrize(
    ("formula", "average"),
    [
        ("averaged", "macro"),
        ("of_averages", "macro"),
        ("averaged", "micro"),
        ("averaged", "samples"),
        ("of_averages", "weighted"),
    ],
)
@pytest.mark.parametrize("constant", [0.0, 0.7])
def test_never_positive_label_is_never_predicted(
    zero_division, formula, average, constant
):
    rng = np.random.default_rng(0)
    Y = (rng.random((400, 4)) < [0.3, 0.2, 0.1, 0.0]).astype(int)
    proba = np.clip(0.3 * Y + rng.random((400, 4)) * 0.6, 0, 1)
    proba[:, 3] = constant  # label 3: no positive sample, a constant score
    for selection_cv in (None, "auto"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            rule = tune_decision_rule(
                Y,
                proba,
                formula=formula,
                average=average,
                zero_division=zero_division,
                selection_cv=selection_cv,
                random_state=0,
            )
        assert rule.thresholds[3] >= constant
        assert not rule.predict(proba)[:, 3].any()
        assert not rule.predict(np.full((5, 4), constant))[:, 3].any()
        assert rule.predict(proba)[:, :3].any()  # the others still are


BAD_OPTIONS = [
    ({"formula": "harmonic"}, "'formula' parameter"),
    ({"beta": -1}, "'beta' parameter"),
    ({"average": None}, "average=None"),
    ({"average": "mean"}, "'average' parameter"),
    ({"zero_division": 2}, "'zero_division' parameter"),
    ({"smoothing": -1.0}, "'smoothing' parameter"),
    ({"max_iter": 0}, "'max_iter' parameter"),
    ({"selection_cv": 1}, "'selection_cv' parameter"),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_OPTIONS)
def test_bad_options_are_refused_by_name(kwargs, message):
    y, proba = _imbalanced(100)
    with pytest.raises(ValueError, match=message) as info:
        tune_decision_rule(y, proba, **kwargs)
    assert isinstance(info.value, TypeError)  # scikit-learn's InvalidParameterError


def test_too_few_samples_for_the_rule_selection_name_selection_cv():
    """A validation set too small for the selection's folds (every class
    under 3 samples; fewer samples than folds) names selection_cv and its
    fixes, rather than the splitter's n_splits; selection_cv=None tunes it."""
    scores = np.eye(3)[[0, 0, 1, 1, 2, 2]] + 0.1
    y = [0, 0, 1, 1, 2, 2]
    with pytest.raises(ValueError, match="selection_cv=None") as info:
        tune_decision_rule(y, scores)
    assert "n_splits" not in str(info.value)
    assert "3 folds" in str(info.value) and "6 validation samples" in str(info.value)
    assert (
        tune_decision_rule(y, scores, selection_cv=None).predict(scores).tolist() == y
    )
    with pytest.raises(ValueError, match="selection_cv=None"):
        tune_decision_rule([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]])


@pytest.mark.parametrize(
    "weights",
    [
        np.r_[np.nan, np.ones(99)],
        np.r_[np.inf, np.ones(99)],
        np.ones(99),
        np.ones((100, 1)),
        np.array(["1"] * 100),
        np.ones(100) + 1j,
        np.zeros(100),
        [[1.0], [1.0, 2.0]] + [[1.0]] * 98,
    ],
    ids=["nan", "inf", "short", "2-D", "strings", "complex", "all zero", "ragged"],
)
def test_tuning_refuses_bad_weights_as_the_score_functions_do(weights):
    # one weight check: the tuner's messages are the score functions' (with
    # y_score for y_pred), and so are the exception types
    y, proba = _imbalanced(100)
    with pytest.raises((TypeError, ValueError)) as scored:
        averaged_fbeta_score(y, proba.argmax(axis=1), beta=1, sample_weight=weights)
    with pytest.raises(type(scored.value)) as tuned:
        tune_decision_rule(y, proba, sample_weight=weights)
    assert str(tuned.value) == str(scored.value).replace("y_pred", "y_score")


@pytest.mark.parametrize(
    "weights, message",
    [
        (np.ones(105), "105 entries but X and y have 100 samples"),
        (np.ones(99), "99 entries but X and y have 100 samples"),
        (1.0, "1-D array of non-negative numbers"),
        (-np.ones(100), "non-negative"),
    ],
    ids=["long", "short", "scalar", "negative"],
)
def test_tuned_classifier_checks_weights_before_fitting_any_fold(weights, message):
    # an estimator that takes no weights would never look at them, and the
    # folds index them: a long array was fitted silently, a short one or a
    # scalar crashed in the indexing, before the weights were checked
    y, _ = _imbalanced(100)
    X = np.random.default_rng(0).normal(size=(100, 3))
    search = MacroF1TunedClassifierCV(GaussianNB(), cv=3, random_state=0)
    with pytest.raises(ValueError, match=message):
        search.fit(X, y, sample_weight=weights)
    assert not hasattr(search, "rule_")


def test_bad_data_is_refused_with_a_clear_message():
    y, proba = _imbalanced(100)
    with pytest.raises(ValueError, match=r"shape \(n_samples, 4\)"):
        tune_decision_rule(y, proba[:, :3])
    with pytest.raises(ValueError, match="rows"):
        tune_decision_rule(y, proba[:50])
    with pytest.raises(ValueError, match="NaN or infinity"):
        tune_decision_rule(y, np.where(proba > 0.9, np.nan, proba))
    with pytest.raises(ValueError, match="samples' applies only to multilabel"):
        tune_decision_rule(y, proba, average="samples")
    with pytest.raises(ValueError, match="average='binary'"):
        tune_decision_rule(y, proba, average="binary")
    with pytest.raises(ValueError, match="non-negative"):
        tune_decision_rule(y, proba, sample_weight=-np.ones(100))
    with pytest.raises(ValueError, match="one weight per sample"):
        tune_decision_rule(y, proba, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="continuous"):
        tune_decision_rule(np.linspace(0, 1, 100), proba)
    with pytest.raises(ValueError, match="at least 2 classes"):
        tune_decision_rule(np.zeros(100, dtype=int), proba[:, :1])
    Y = (proba > 0.3).astype(int)
    with pytest.raises(ValueError, match="average='binary'"):
        tune_decision_rule(Y, proba, average="binary")
    with pytest.raises(ValueError, match="column indices"):
        tune_decision_rule(Y, proba, labels=[7])


# ------------------------------------------------------------ the estimator
EXPECTED_FAILED_CHECKS = {
    "check_classifiers_train": (
        "predict is the tuned rule, not the argmax of predict_proba nor the sign "
        "of decision_function, which this check requires"
    ),
}
ESTIMATOR = MacroF1TunedClassifierCV(GaussianNB(), cv=3)
try:
    _CHECKS = parametrize_with_checks(
        [ESTIMATOR], expected_failed_checks=lambda e: EXPECTED_FAILED_CHECKS
    )
except TypeError:  # scikit-learn 1.5: no expected_failed_checks
    _CHECKS = parametrize_with_checks([ESTIMATOR])


@_CHECKS
def test_scikit_learn_estimator_checks(estimator, check):
    name = getattr(check, "func", check).__name__
    if name in EXPECTED_FAILED_CHECKS:
        pytest.xfail(EXPECTED_FAILED_CHECKS[name])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # classes missing from folds
        check(estimator)


@pytest.fixture(scope="module")
def imbalanced_data():
    X, y = make_classification(
        n_samples=2400,
        n_classes=4,
        n_informative=6,
        weights=[0.7, 0.2, 0.07, 0.03],
        random_state=0,
    )
    return X, y


def test_estimator_fits_predicts_and_exposes_its_rule(imbalanced_data):
    X, y = imbalanced_data
    # selection_cv=None: the rule tuned for the formula, whatever it gains
    model = MacroF1TunedClassifierCV(GaussianNB(), cv=3, selection_cv=None)
    with pytest.raises(NotFittedError):
        model.predict(X)
    model.fit(X, y)
    assert isinstance(model.rule_, DecisionRule)
    assert list(model.classes_) == [0, 1, 2, 3]
    assert model.weights_.shape == model.offsets_.shape == (4,)
    with pytest.raises(AttributeError, match="thresholds_"):
        _ = model.thresholds_
    assert model.best_score_ == model.rule_.score > model.rule_.baseline_score
    assert set(model.cv_results_) == {"rule", "objective", "score"}
    assert model.n_features_in_ == X.shape[1]
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba, model.estimator_.predict_proba(X))
    np.testing.assert_array_equal(model.predict(X), model.rule_.predict(proba))
    assert clone(model).get_params()["cv"] == 3
    assert model.n_iter_ == model.rule_.n_sweeps >= 1


def test_estimator_in_pipeline_grid_search_and_cross_validate(imbalanced_data):
    X, y = imbalanced_data
    pipe = make_pipeline(
        StandardScaler(),
        MacroF1TunedClassifierCV(GaussianNB(), cv=2),
    )
    search = GridSearchCV(
        pipe,
        {"macrof1tunedclassifiercv__smoothing": [0.0, 1.0]},
        scoring="f1_macro",
        cv=2,
    ).fit(X, y)
    assert search.best_params_["macrof1tunedclassifiercv__smoothing"] in (0.0, 1.0)
    tuned = cross_validate(
        MacroF1TunedClassifierCV(GaussianNB(), cv=2, selection_cv=None),
        X,
        y,
        scoring="f1_macro",
        cv=2,
    )["test_score"]
    plain = cross_validate(GaussianNB(), X, y, scoring="f1_macro", cv=2)["test_score"]
    assert tuned.mean() > plain.mean()


def test_frozen_estimator_tunes_on_held_out_data(imbalanced_data):
    frozen_module = pytest.importorskip("sklearn.frozen")
    X, y = imbalanced_data
    fitted = GaussianNB().fit(X[:1200], y[:1200])
    model = MacroF1TunedClassifierCV(
        frozen_module.FrozenEstimator(fitted), formula="of_averages", cv=3
    ).fit(X[1200:], y[1200:])
    assert model.estimator_.estimator is fitted
    argmax = fitted.predict(X[1200:])
    expected = fbeta_of_averages_score(y[1200:], argmax, beta=1.0)
    assert model.rule_.baseline_score == pytest.approx(expected, abs=1e-12)
    assert model.rule_.selection["fold_scores"].shape == (3, 3)


def test_refit_false_keeps_the_single_split_model(imbalanced_data):
    X, y = imbalanced_data
    model = MacroF1TunedClassifierCV(
        GaussianNB(), cv=0.5, refit=False, selection_cv=None
    ).fit(X, y)
    assert model.estimator_.theta_.shape == (4, X.shape[1])
    assert len(model.rule_.candidates["rule"]) > 1
    with pytest.raises(ValueError, match="single split"):
        MacroF1TunedClassifierCV(GaussianNB(), cv=3, refit=False).fit(X, y)


def test_string_labels_and_decision_function(imbalanced_data):
    X, y = imbalanced_data
    names = np.array(["w", "x", "y", "z"])[y]
    model = MacroF1TunedClassifierCV(LinearSVC(), cv=2).fit(X, names)
    assert model._method == "decision_function"
    assert set(model.predict(X[:50])) <= set(names)
    assert list(model.classes_) == ["w", "x", "y", "z"]


def test_estimator_refuses_classifiers_without_scores(imbalanced_data):
    from sklearn.linear_model import Perceptron, RidgeClassifier

    X, y = imbalanced_data
    with pytest.raises(ValueError, match="predict_proba"):
        MacroF1TunedClassifierCV(
            RidgeClassifier(), response_method="predict_proba"
        ).fit(X, y)
    with pytest.raises(ValueError, match="'estimator' parameter"):
        MacroF1TunedClassifierCV(object()).fit(X, y)
    with pytest.raises(ValueError, match="'response_method'"):
        MacroF1TunedClassifierCV(Perceptron(), response_method="predict").fit(X, y)
    with pytest.raises(ValueError, match="'cv' parameter"):
        MacroF1TunedClassifierCV(Perceptron(), cv=1.5).fit(X, y)


def test_class_absent_from_a_fold_warns_and_is_not_predicted_there():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = np.r_[np.zeros(120, int), np.ones(78, int), [2, 2]]
    X[y == 2] += 4
    splits = [
        (np.arange(0, 150), np.arange(150, 200)),
        (np.arange(50, 200), np.arange(50)),
    ]
    with pytest.warns(UserWarning, match=r"absent from the training part of fold 0"):
        model = MacroF1TunedClassifierCV(GaussianNB(), cv=splits).fit(X, y)
    assert list(model.classes_) == [0, 1, 2]


def test_sample_weight_is_used_and_routed(imbalanced_data):
    X, y = imbalanced_data
    weight = np.random.default_rng(0).choice([0.5, 1.0, 3.0], size=y.shape[0])
    # one seed for the three fits: the rule selection's folds are shuffled
    base = MacroF1TunedClassifierCV(GaussianNB(), cv=2, random_state=0)
    weighted = clone(base).fit(X, y, sample_weight=weight)
    expected = averaged_fbeta_score(
        y,
        weighted.rule_.predict(weighted.predict_proba(X)),
        beta=1.0,
    )
    assert weighted.best_score_ != expected  # the weights count in the tuning
    with sklearn.config_context(enable_metadata_routing=True):
        inner = GaussianNB().set_fit_request(sample_weight=True)
        routed = MacroF1TunedClassifierCV(inner, cv=2, random_state=0).fit(
            X, y, sample_weight=weight
        )
        unrequested = MacroF1TunedClassifierCV(
            GaussianNB().set_fit_request(sample_weight=False), cv=2, random_state=0
        ).fit(X, y, sample_weight=weight)
    plain = GaussianNB().fit(X, y, sample_weight=weight)
    np.testing.assert_allclose(routed.estimator_.theta_, plain.theta_)
    assert not np.allclose(unrequested.estimator_.theta_, plain.theta_)
    assert routed.best_score_ == pytest.approx(weighted.best_score_)


@pytest.mark.slow
def test_multilabel_estimator_dense_and_sparse():
    X, Y = make_multilabel_classification(
        n_samples=600, n_features=10, n_classes=4, n_labels=2, random_state=1
    )
    model = MacroF1TunedClassifierCV(OneVsRestClassifier(GaussianNB()), cv=3).fit(X, Y)
    assert model.thresholds_.shape == (4,)
    assert list(model.classes_) == [0, 1, 2, 3]
    assert model.predict(X).shape == Y.shape
    sparse = MacroF1TunedClassifierCV(
        OneVsRestClassifier(GaussianNB()), cv=3, average="micro"
    ).fit(X, sp.csr_matrix(Y))
    assert np.unique(sparse.thresholds_).shape[0] == 1
