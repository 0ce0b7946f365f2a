"""The scorers where models are chosen: searches, cross-validation, routing.

Real estimators on datasets that ship with scikit-learn; every score a search or
``cross_validate`` reports is checked against a direct call of the score
function on the same fold. Small models, small grids, cv=3.
"""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from scipy.stats import loguniform
from sklearn.base import clone
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_iris,
    load_wine,
    make_classification,
    make_multilabel_classification,
)
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    RandomizedSearchCV,
    StratifiedKFold,
    cross_val_score,
    cross_validate,
    train_test_split,
)
from sklearn.multiclass import OneVsRestClassifier
from sklearn.multioutput import MultiOutputClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_macrof1 import (
    averaged_f1_score,
    averaged_fbeta_score,
    f1_of_averages_score,
    fbeta_of_averages_score,
    get_scorer,
    make_fbeta_of_averages_scorer,
    make_macro_f1_scoring,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn.exceptions.UndefinedMetricWarning"
)

CV = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)


def _score(name: str, y_true, y_pred, sample_weight=None) -> float:
    """The score a scorer name stands for, by a direct function call."""
    kind_averaged = name.startswith("averaged_f")
    stem, average = name.rsplit("_", 1)
    beta = float(
        stem.removeprefix("averaged_f")
        if kind_averaged
        else stem.removeprefix("f").removesuffix("_of_averages")
    )
    function = averaged_fbeta_score if kind_averaged else fbeta_of_averages_score
    return function(
        y_true, y_pred, beta=beta, average=average, sample_weight=sample_weight
    )


def _direct_fold_scores(estimator, X, y, cv, names, sample_weight=None):
    """Fit a clone per fold and call the score functions on its predictions."""
    scores = {name: [] for name in names}
    for train, test in cv.split(X, y):
        pred = clone(estimator).fit(X[train], y[train]).predict(X[test])
        weights = None if sample_weight is None else sample_weight[test]
        for name in names:
            scores[name].append(_score(name, y[test], pred, weights))
    return {name: np.array(values) for name, values in scores.items()}


@pytest.mark.parametrize(
    "name",
    [
        "averaged_f1_macro",
        "f1_of_averages_macro",
        "f1_of_averages_weighted",
        "averaged_f2_weighted",
        "f0.5_of_averages_macro",
    ],
)
def test_grid_search_scores_and_picks_with_each_scorer(name):
    X, y = load_wine(return_X_y=True)
    tree = DecisionTreeClassifier(random_state=0)
    grid = {"max_depth": [1, 2, 4]}
    search = GridSearchCV(tree, grid, scoring=get_scorer(name), cv=CV).fit(X, y)
    means = []
    for depth in grid["max_depth"]:
        direct = _direct_fold_scores(tree.set_params(max_depth=depth), X, y, CV, [name])
        means.append(direct[name].mean())
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], means, atol=1e-12)
    assert search.best_index_ == int(np.argmax(means))
    assert search.best_score_ == pytest.approx(max(means), abs=1e-12)


def test_the_two_scorers_are_not_the_same_numbers_in_a_search():
    X, y = load_wine(return_X_y=True)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2]},
        scoring=make_macro_f1_scoring(),
        refit="f1_of_averages",
        cv=CV,
    ).fit(X, y)
    averaged = search.cv_results_["mean_test_averaged_f1"]
    of_averages = search.cv_results_["mean_test_f1_of_averages"]
    assert (of_averages >= averaged - 1e-12).all()  # concavity: never below
    assert (of_averages - averaged).max() > 0.01


def test_cross_validate_equals_direct_calls_on_the_same_folds():
    X, y = load_digits(return_X_y=True)
    model = GaussianNB()
    names = ["averaged_f1_macro", "f1_of_averages_macro", "f1_of_averages_weighted"]
    scoring = {name: get_scorer(name) for name in names}
    result = cross_validate(model, X, y, cv=CV, scoring=scoring)
    direct = _direct_fold_scores(model, X, y, CV, names)
    for name in names:
        np.testing.assert_allclose(result[f"test_{name}"], direct[name], atol=1e-12)
    mapping = cross_validate(model, X, y, cv=CV, scoring=make_macro_f1_scoring())
    np.testing.assert_allclose(
        mapping["test_averaged_f1"], direct["averaged_f1_macro"], atol=1e-12
    )
    np.testing.assert_allclose(
        mapping["test_f1_of_averages"], direct["f1_of_averages_macro"], atol=1e-12
    )


@pytest.mark.slow
def test_parallel_runs_give_the_serial_scores():
    X, y = load_breast_cancer(return_X_y=True)
    model = DecisionTreeClassifier(max_depth=2, random_state=0)
    serial = cross_validate(
        model, X, y, cv=CV, scoring=make_macro_f1_scoring(), n_jobs=1
    )
    parallel = cross_validate(
        model, X, y, cv=CV, scoring=make_macro_f1_scoring(), n_jobs=2
    )
    for key in ("test_averaged_f1", "test_f1_of_averages"):
        np.testing.assert_array_equal(parallel[key], serial[key])


@pytest.mark.slow
def test_randomized_search_with_mapping_refit_and_workers():
    X, y = load_iris(return_X_y=True)
    pipeline = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500))
    search = RandomizedSearchCV(
        pipeline,
        {"logisticregression__C": loguniform(1e-3, 1e2)},
        n_iter=4,
        scoring=make_macro_f1_scoring(),
        refit="f1_of_averages",
        cv=CV,
        n_jobs=2,
        random_state=0,
    ).fit(X, y)
    of_averages = search.cv_results_["mean_test_f1_of_averages"]
    assert search.best_index_ == int(np.argmax(of_averages))
    assert search.best_score_ == pytest.approx(of_averages.max())
    best = search.cv_results_["params"][search.best_index_]
    direct = _direct_fold_scores(
        clone(pipeline).set_params(**best), X, y, CV, ["f1_of_averages_macro"]
    )
    assert direct["f1_of_averages_macro"].mean() == pytest.approx(
        search.best_score_, abs=1e-12
    )
    assert search.predict(X[:3]).shape == (3,)


@pytest.mark.slow
def test_metadata_routing_passes_sample_weight_to_the_scorer():
    X, y = load_wine(return_X_y=True)
    weights = np.random.default_rng(0).uniform(0.1, 5.0, y.shape[0])
    with sklearn.config_context(enable_metadata_routing=True):
        tree = DecisionTreeClassifier(max_depth=2, random_state=0).set_fit_request(
            sample_weight=False
        )
        scorer = get_scorer("f1_of_averages_macro").set_score_request(
            sample_weight=True
        )
        weighted = cross_validate(
            tree, X, y, cv=CV, scoring=scorer, params={"sample_weight": weights}
        )["test_score"]
        unweighted = cross_validate(tree, X, y, cv=CV, scoring=scorer)["test_score"]
        scoring = make_macro_f1_scoring()
        for s in scoring.values():
            s.set_score_request(sample_weight=True)
        search = GridSearchCV(
            tree,
            {"max_depth": [2]},
            scoring=scoring,
            refit="averaged_f1",
            cv=CV,
            n_jobs=2,
        ).fit(X, y, sample_weight=weights)
    direct = _direct_fold_scores(
        tree,
        X,
        y,
        CV,
        ["f1_of_averages_macro", "averaged_f1_macro"],
        sample_weight=weights,
    )
    plain = _direct_fold_scores(tree, X, y, CV, ["f1_of_averages_macro"])
    np.testing.assert_allclose(weighted, direct["f1_of_averages_macro"], atol=1e-12)
    np.testing.assert_allclose(unweighted, plain["f1_of_averages_macro"], atol=1e-12)
    assert np.abs(weighted - unweighted).max() > 1e-3  # the weights mattered
    np.testing.assert_allclose(
        [search.cv_results_[f"split{i}_test_averaged_f1"][0] for i in range(3)],
        direct["averaged_f1_macro"],
        atol=1e-12,
    )
    # a new mapping does not share the configured scorers
    fresh = make_macro_f1_scoring()["averaged_f1"].get_metadata_routing()
    assert fresh.score.requests.get("sample_weight") is None


def test_string_class_labels():
    data = load_iris()
    X, y = data.data, data.target_names[data.target]
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500, C=0.05))
    scores = cross_val_score(
        model, X, y, cv=CV, scoring=get_scorer("f1_of_averages_macro")
    )
    np.testing.assert_allclose(
        scores,
        _direct_fold_scores(model, X, y, CV, ["f1_of_averages_macro"])[
            "f1_of_averages_macro"
        ],
        atol=1e-12,
    )


def test_string_binary_labels_with_pos_label():
    data = load_breast_cancer()
    X, y = data.data, data.target_names[data.target]
    model = DecisionTreeClassifier(max_depth=2, random_state=0)
    scorer = make_fbeta_of_averages_scorer(
        beta=2.0, average="binary", pos_label="malignant"
    )
    scores = cross_val_score(model, X, y, cv=CV, scoring=scorer)
    expected = []
    for train, test in CV.split(X, y):
        pred = clone(model).fit(X[train], y[train]).predict(X[test])
        expected.append(
            fbeta_of_averages_score(
                y[test], pred, beta=2.0, average="binary", pos_label="malignant"
            )
        )
    np.testing.assert_allclose(scores, expected, atol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize(
    "model",
    [
        MultiOutputClassifier(LogisticRegression(max_iter=500)),
        OneVsRestClassifier(DecisionTreeClassifier(max_depth=3, random_state=0)),
    ],
    ids=["MultiOutputClassifier", "OneVsRestClassifier"],
)
def test_multilabel_estimators_with_samples_averaging(model):
    X, Y = make_multilabel_classification(
        n_samples=150, n_features=10, n_classes=4, random_state=0
    )
    cv = KFold(n_splits=3, shuffle=True, random_state=0)
    names = ["f1_of_averages_samples", "averaged_f1_samples", "f1_of_averages_macro"]
    result = cross_validate(
        model, X, Y, cv=cv, scoring={name: get_scorer(name) for name in names}
    )
    direct = _direct_fold_scores(model, X, Y, cv, names)
    for name in names:
        np.testing.assert_allclose(result[f"test_{name}"], direct[name], atol=1e-12)
    assert (
        result["test_f1_of_averages_samples"] >= result["test_averaged_f1_samples"]
    ).all()


@pytest.mark.slow
def test_multilabel_grid_search():
    X, Y = make_multilabel_classification(
        n_samples=120, n_features=8, n_classes=3, random_state=1
    )
    search = GridSearchCV(
        OneVsRestClassifier(DecisionTreeClassifier(random_state=0)),
        {"estimator__max_depth": [1, 3]},
        scoring=get_scorer("f1_of_averages_samples"),
        cv=KFold(3),
    ).fit(X, Y)
    assert search.best_params_["estimator__max_depth"] in (1, 3)
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()


def test_the_two_macro_f1s_rank_two_classifiers_in_opposite_order():
    """The paper's point in practice (Opitz & Burst, section 4).

    On a seeded, imbalanced 4-class problem, balanced logistic regression has
    the higher averaged macro F1 (0.6888 vs 0.6658) while Gaussian naive Bayes
    has the higher macro F1 of averages (0.7276 vs 0.6964): which model "wins
    on macro F1" depends on which macro F1 is meant.
    """
    X, y = make_classification(
        n_samples=600,
        n_classes=4,
        n_informative=4,
        n_clusters_per_class=1,
        weights=[0.6, 0.25, 0.1, 0.05],
        flip_y=0.05,
        random_state=24,
    )
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.5, random_state=24, stratify=y
    )
    logistic = LogisticRegression(class_weight="balanced").fit(X_train, y_train)
    bayes = GaussianNB().fit(X_train, y_train)
    scores = {}
    for name, model in (("logistic", logistic), ("bayes", bayes)):
        pred = model.predict(X_test)
        scores[name] = (
            averaged_f1_score(y_test, pred),
            f1_of_averages_score(y_test, pred),
        )
    assert scores["logistic"][0] == pytest.approx(0.6888, abs=5e-4)
    assert scores["bayes"][0] == pytest.approx(0.6658, abs=5e-4)
    assert scores["logistic"][1] == pytest.approx(0.6964, abs=5e-4)
    assert scores["bayes"][1] == pytest.approx(0.7276, abs=5e-4)
    assert scores["logistic"][0] > scores["bayes"][0]  # averaged F1 prefers LR
    assert scores["bayes"][1] > scores["logistic"][1]  # F1 of averages prefers NB
    # the scorers say the same as the functions
    scoring = make_macro_f1_scoring()
    for name, model in (("logistic", logistic), ("bayes", bayes)):
        assert scoring["averaged_f1"](model, X_test, y_test) == (
            pytest.approx(scores[name][0], abs=1e-12)
        )
        assert scoring["f1_of_averages"](model, X_test, y_test) == (
            pytest.approx(scores[name][1], abs=1e-12)
        )
