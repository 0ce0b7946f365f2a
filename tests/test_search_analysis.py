"""analyze_search: both macro F1s in a real model search, the Nadeau-Bengio
corrected resampled t-test, rank agreement, errors and views."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris, load_wine
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    KFold,
    RandomizedSearchCV,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import NearestCentroid
from sklearn.tree import DecisionTreeClassifier

from sklearn_macrof1 import (
    SearchAnalysis,
    SearchAnalysisDisplay,
    analyze_search,
    get_scorer,
    make_macro_f1_scoring,
)

# the corrected t-test on chosen differences has no public face: analyze_search
# applies it to a search's folds only (never to equal fold scores, nor 1 fold)
from sklearn_macrof1._stats._search import corrected_resampled_ttest

pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn.exceptions.UndefinedMetricWarning"
)

TREE_GRID = {"max_depth": [1, 2, 3, 4, 5], "min_samples_leaf": [1, 5, 20]}


@pytest.fixture(scope="module")
def iris_search():
    """A real search where the two formulas pick different candidates."""
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        TREE_GRID,
        scoring=make_macro_f1_scoring(),
        refit=False,
        cv=cv,
    ).fit(X, y)
    return search, X, y


def test_nadeau_bengio_statistic_by_hand():
    d = [0.02, -0.01, 0.03, 0.00, 0.01]
    res = corrected_resampled_ttest(d, test_train_ratio=0.25, confidence=0.9)
    # mean 0.01; deviations .01 -.02 .02 -.01 0: s² = 0.001 / 4 = 2.5e-4
    se = math.sqrt((1 / 5 + 0.25) * 2.5e-4)
    t = 0.01 / se
    assert res.difference == pytest.approx(0.01, abs=1e-15)
    assert res.std_error == pytest.approx(se, rel=1e-12)
    assert res.t == pytest.approx(0.9428090415820634, rel=1e-12)
    assert res.t == pytest.approx(t, rel=1e-12)
    assert res.df == 4
    assert res.p_value == pytest.approx(2 * stats.t.sf(t, 4), rel=1e-12)
    q = stats.t.ppf(0.95, 4)
    assert (res.low, res.high) == pytest.approx((0.01 - q * se, 0.01 + q * se))
    # the plain paired t-test: variance s² / J, which scipy computes too
    plain = stats.ttest_rel(np.array(d), np.zeros(5))
    assert res.uncorrected_p_value == pytest.approx(plain.pvalue, rel=1e-12)
    assert res.p_value > res.uncorrected_p_value
    # degenerate folds
    assert corrected_resampled_ttest([0.0, 0.0], test_train_ratio=0.5).p_value == 1
    same = corrected_resampled_ttest([0.25, 0.25, 0.25], test_train_ratio=0.5)
    assert same.p_value == 0 and same.t == math.inf
    with pytest.raises(ValueError, match="at least 2 folds"):
        corrected_resampled_ttest([0.1], test_train_ratio=0.5)


def test_formulas_pick_different_candidates_in_a_real_search(iris_search):
    search, X, y = iris_search
    res = search.cv_results_
    a = analyze_search(search)
    assert isinstance(a, SearchAnalysis)
    assert a.n_candidates == 15 and a.n_folds == 5
    assert a.best_averaged == int(np.argmax(res["mean_test_averaged_f1"]))
    assert a.best_of_averages == int(np.argmax(res["mean_test_f1_of_averages"]))
    assert a.picks_differ
    assert a.candidates[a.best_averaged] == "max_depth=4, min_samples_leaf=1"
    assert a.candidates[a.best_of_averages] == "max_depth=3, min_samples_leaf=5"
    # the picks' test is the corrected t-test of the split scores' differences
    i, j = a.best_averaged, a.best_of_averages
    for metric, d in (
        ("averaged_f1", a.picks_averaged),
        ("f1_of_averages", a.picks_of_averages),
    ):
        folds = np.array([res[f"split{k}_test_{metric}"] for k in range(5)]).T
        diff = folds[i] - folds[j]
        se = math.sqrt((1 / 5 + 1 / 4) * diff.var(ddof=1))
        assert d.difference == pytest.approx(diff.mean(), abs=1e-15)
        assert d.t == pytest.approx(diff.mean() / se, rel=1e-12)
        assert d.p_value == pytest.approx(
            2 * stats.t.sf(abs(diff.mean() / se), 4), rel=1e-12
        )
    assert a.picks_averaged.difference > 0 > a.picks_of_averages.difference
    assert a.disagreement_beyond_noise is False
    assert a.test_train_ratio == 0.25
    assert "5-fold" not in a.size_note and "StratifiedKFold with 5 folds" in a.size_note
    # rank agreement is scipy's on the mean test scores
    rho = stats.spearmanr(res["mean_test_averaged_f1"], res["mean_test_f1_of_averages"])
    tau = stats.kendalltau(
        res["mean_test_averaged_f1"], res["mean_test_f1_of_averages"]
    )
    assert a.ranks.spearman == pytest.approx(rho.statistic)
    assert a.ranks.kendall == pytest.approx(tau.statistic)
    assert a.ranks.kendall_p_value == pytest.approx(tau.pvalue)
    assert a.ranks.n_candidates == 15
    # exact fold sizes from the data: 120 / 30 in every fold
    exact = analyze_search(search, X=X, y=y)
    assert (exact.n_train, exact.n_test) == (120.0, 30.0)
    assert exact.test_train_ratio == 0.25
    text = str(a)
    assert "The formulas pick different candidates" in text
    assert "within fold noise" in text


def test_same_pick_and_runner_up_on_wine():
    X, y = load_wine(return_X_y=True)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3, 4]},
        scoring=make_macro_f1_scoring(),
        refit="averaged_f1",
        cv=3,
        return_train_score=True,
    ).fit(X, y)
    a = analyze_search(search)
    assert not a.picks_differ
    assert a.picks_averaged is None and a.picks_of_averages is None
    assert a.disagreement_beyond_noise is None
    assert a.test_train_ratio == 0.5 and "3-fold" in a.size_note
    assert a.candidates[a.best_averaged] == search.best_params_.__repr__().replace(
        "{'max_depth': ", "max_depth="
    ).rstrip("}")
    ru = a.runner_up_averaged
    assert ru is not None and ru.candidate_a == a.candidates[a.best_averaged]
    assert ru.difference > 0
    assert str(a).splitlines()[-1].strip().startswith("Both formulas pick")
    # the cv_results_ dict itself, with the ratio given
    b = analyze_search(search.cv_results_, test_size_ratio=0.5)
    assert b.best_averaged == a.best_averaged
    assert b.runner_up_averaged.p_value == pytest.approx(ru.p_value)
    with pytest.raises(ValueError, match="ratio n_test / n_train"):
        analyze_search(search.cv_results_)


def test_randomized_search_with_named_beta_and_average():
    X, y = load_wine(return_X_y=True)
    names = ("averaged_f2_weighted", "f2_of_averages_weighted")
    search = RandomizedSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3, 4, 5, 6], "criterion": ["gini", "entropy"]},
        n_iter=6,
        random_state=0,
        scoring={n: get_scorer(n) for n in names},
        refit=False,
        cv=RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0),
    ).fit(X, y)
    a = analyze_search(search)
    assert (a.beta, a.average) == (2.0, "weighted")
    assert a.formula_names == ("averaged F2", "F2 of averages")
    assert a.n_folds == 6 and a.test_train_ratio == 0.5
    assert (a.averaged_metric, a.of_averages_metric) == names


def test_cross_validate_mapping():
    X, y = load_iris(return_X_y=True)
    cv = KFold(5, shuffle=True, random_state=1)
    ests = {
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
        "centroid": NearestCentroid(),
        "nb": GaussianNB(),
    }
    with_ix = {
        n: cross_validate(
            e, X, y, cv=cv, scoring=make_macro_f1_scoring(), return_indices=True
        )
        for n, e in ests.items()
    }
    a = analyze_search(with_ix)
    assert a.candidates == ["tree", "centroid", "nb"]
    assert (a.n_train, a.n_test) == (120.0, 30.0)
    assert "indices" in a.size_note
    for name, r in with_ix.items():
        i = a.candidates.index(name)
        np.testing.assert_array_equal(a.averaged_scores[i], r["test_averaged_f1"])
    plain = {
        n: {k: v for k, v in r.items() if k != "indices"} for n, r in with_ix.items()
    }
    with pytest.raises(ValueError, match="return_indices=True"):
        analyze_search(plain)
    b = analyze_search(plain, n_train=120, n_test=30)
    assert b.runner_up_averaged.p_value == pytest.approx(a.runner_up_averaged.p_value)
    c = analyze_search(plain, n_train=[120] * 5, n_test=[30] * 5)
    assert c.test_train_ratio == 0.25
    other = cross_validate(
        GaussianNB(),
        X,
        y,
        cv=KFold(5, shuffle=True, random_state=2),
        scoring=make_macro_f1_scoring(),
        return_indices=True,
    )
    with pytest.raises(ValueError, match="different folds"):
        analyze_search({**with_ix, "nb2": other})
    with pytest.raises(TypeError, match="one cross_validate result"):
        analyze_search(with_ix["tree"])


def test_errors_say_how_to_fix():
    X, y = load_wine(return_X_y=True)
    tree = DecisionTreeClassifier(random_state=0)
    single = GridSearchCV(tree, {"max_depth": [1, 2]}, scoring="f1_macro", cv=3)
    with pytest.raises(NotFittedError, match="not fitted"):
        analyze_search(single)
    single.fit(X, y)
    fix = r"scoring=sklearn_macrof1\.make_macro_f1_scoring\(\)"
    with pytest.raises(ValueError, match=fix):
        analyze_search(single)
    # scikit-learn's own averaged F1 name pairs with ours
    mixed = GridSearchCV(
        tree,
        {"max_depth": [1, 2, 3]},
        scoring={
            "f1_macro": "f1_macro",
            "f1_of_averages_macro": get_scorer("f1_of_averages_macro"),
        },
        refit=False,
        cv=3,
    ).fit(X, y)
    assert analyze_search(mixed).averaged_metric == "f1_macro"
    # names that do not say: metrics= names them
    custom = GridSearchCV(
        tree,
        {"max_depth": [1, 2, 3]},
        scoring={"mean_f1": make_macro_f1_scoring()["averaged_f1"], "h": "accuracy"},
        refit=False,
        cv=3,
    ).fit(X, y)
    with pytest.raises(ValueError, match="not scored with both"):
        analyze_search(custom)
    a = analyze_search(custom, metrics=("mean_f1", "h"))
    assert a.beta is None and a.formula_names == (
        "averaged F-beta",
        "F-beta of averages",
    )
    with pytest.raises(ValueError, match="not scored with"):
        analyze_search(custom, metrics=("mean_f1", "nope"))
    with pytest.raises(ValueError, match="pair of metric names"):
        analyze_search(custom, metrics="mean_f1")
    # one fold
    one = {
        n: cross_validate(
            e, X, y, cv=ShuffleSplit(1, test_size=0.3, random_state=0),
            scoring=make_macro_f1_scoring(),
        )
        for n, e in (("a", tree), ("b", GaussianNB()))
    }  # fmt: skip
    with pytest.raises(ValueError, match="at least 2"):
        analyze_search(one, test_size_ratio=0.3 / 0.7)
    # one candidate
    lone = GridSearchCV(
        tree, {"max_depth": [2]}, scoring=make_macro_f1_scoring(), refit=False, cv=3
    ).fit(X, y)
    with pytest.raises(ValueError, match="two or more candidates"):
        analyze_search(lone)
    # sizes that cannot be inferred
    groups = np.arange(y.shape[0]) % 7
    grouped = GridSearchCV(
        tree,
        {"max_depth": [1, 2, 3]},
        scoring=make_macro_f1_scoring(),
        refit=False,
        cv=GroupKFold(3),
    ).fit(X, y, groups=groups)
    with pytest.raises(ValueError, match="n_train= and n_test="):
        analyze_search(grouped)
    g = analyze_search(grouped, X=X, y=y, groups=groups)
    assert g.n_train + g.n_test == y.shape[0]
    with pytest.raises(ValueError, match="not both"):
        analyze_search(grouped, test_size_ratio=0.5, n_train=10, n_test=5)
    with pytest.raises(ValueError, match="test_size_ratio must be"):
        analyze_search(grouped, test_size_ratio=-1)
    with pytest.raises(ValueError, match="n_train must be"):
        analyze_search(grouped, n_train=[1, 2], n_test=3)
    with pytest.raises(ValueError, match="confidence"):
        analyze_search(grouped, test_size_ratio=0.5, confidence=95)
    with pytest.raises(TypeError, match="fitted GridSearchCV"):
        analyze_search([1, 2, 3])


def test_successive_halving_cannot_carry_both_formulas():
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV

    X, y = load_wine(return_X_y=True)
    halving = HalvingGridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3, 4]},
        scoring=get_scorer("f1_of_averages_macro"),
        cv=3,
        random_state=0,
    ).fit(X, y)
    with pytest.raises(ValueError, match="successive-halving searches take one"):
        analyze_search(halving)


def test_halving_style_results_use_the_last_iteration(iris_search):
    search, _, _ = iris_search
    res = dict(search.cv_results_)
    res["iter"] = np.array([0] * 10 + [1] * 5)
    a = analyze_search(res, test_size_ratio=0.25)
    assert a.n_candidates == 5
    assert "last iteration" in a.note and "note:" in str(a)


def test_halving_last_iteration_candidates_keep_their_plain_names(iris_search):
    # a halving search lists the surviving parameters again in each iteration;
    # the compared (last-iteration) candidates are named among themselves
    search, _, _ = iris_search
    full = search.cv_results_
    rows = np.array([0, 1, 2, 3, 1, 3])
    res = {
        key: (
            [full["params"][i] for i in rows]
            if key == "params"
            else np.asarray(full[key])[rows]
        )
        for key in full
        if key == "params" or key.startswith(("split", "mean_test_"))
    }
    res["iter"] = np.array([0, 0, 0, 0, 1, 1])
    a = analyze_search(res, test_size_ratio=0.25)
    expected = [
        f"max_depth={full['params'][i]['max_depth']}, "
        f"min_samples_leaf={full['params'][i]['min_samples_leaf']}"
        for i in (1, 3)
    ]
    assert a.candidates == expected


def test_failed_fits_are_left_out():
    X, y = load_wine(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        search = GridSearchCV(
            DecisionTreeClassifier(random_state=0),
            {"max_depth": [1, 2, 3, -1]},
            scoring=make_macro_f1_scoring(),
            refit=False,
            cv=3,
            error_score=np.nan,
        ).fit(X, y)
    a = analyze_search(search)
    assert a.n_candidates == 3 and a.excluded == ["max_depth=-1"]
    assert "left out" in str(a)


def test_views(iris_search):
    search, _, _ = iris_search
    a = analyze_search(search)
    html = a._repr_html_()
    assert html.count("<tr") == 1 + 15 + 1 + 4  # candidates + tests, with headers
    assert "max_depth=3, min_samples_leaf=5" in html and "uncorrected p" in html
    assert repr(a) == "SearchAnalysis(n_candidates=15, n_folds=5, picks_differ=True)"
    pd = pytest.importorskip("pandas")
    frame = a.to_frame()
    assert isinstance(frame, pd.DataFrame) and frame.shape == (15, 9)
    assert frame["best_averaged"].sum() == 1 and frame["best_of_averages"].sum() == 1
    assert frame.loc[a.best_averaged, "rank_averaged"] == 1
    np.testing.assert_allclose(
        frame["mean_of_averages"], search.cv_results_["mean_test_f1_of_averages"]
    )
    tests = a.tests_frame()
    assert (
        tests.shape[0] == 4 and list(tests["test"]) == ["picks"] * 2 + ["runner-up"] * 2
    )
    assert (tests["p_value"] >= tests["uncorrected_p_value"]).all()


def test_views_of_many_candidates_show_both_picks():
    """Of more than 20 candidates the text and the notebook show 20 rows: the
    first ones and the two picks, with their means (the rest in to_frame())."""
    rng = np.random.default_rng(0)
    averaged = 0.6 + 0.01 * rng.random((30, 5))
    of_averages = averaged + 0.002
    averaged[25] += 0.2  # best by averaged F1
    of_averages[27] += 0.3  # best by F1 of averages
    results = {
        "params": [{"C": i} for i in range(30)],
        "mean_test_averaged_f1": averaged.mean(axis=1),
        "mean_test_f1_of_averages": of_averages.mean(axis=1),
    }
    for j in range(5):
        results[f"split{j}_test_averaged_f1"] = averaged[:, j]
        results[f"split{j}_test_f1_of_averages"] = of_averages[:, j]
    a = analyze_search(results, test_size_ratio=0.25)
    assert (a.best_averaged, a.best_of_averages) == (25, 27)
    lines = str(a).splitlines()
    rows = [line.split()[0] for line in lines[3:23]]
    assert rows == [f"C={i}" for i in [*range(18), 25, 27]]
    (best_avg,) = [line for line in lines if line.startswith("     C=25 ")]
    assert f"{averaged[25].mean():.4f}" in best_avg.split()
    assert best_avg.endswith("best by averaged F1")
    (best_foa,) = [line for line in lines if line.startswith("     C=27 ")]
    assert f"{of_averages[27].mean():.4f}" in best_foa.split()
    assert best_foa.endswith("best by F1 of averages")
    assert "... and 10 more candidates: analysis.to_frame() has every row." in lines
    html = a._repr_html_()
    assert html.count("best by") == 2 and html.count("<tr>") == 1 + 20 + 1 + 4
    same = analyze_search(  # picks among the first 20: the first 20 rows
        {**results, "params": results["params"][::-1]}
        | {k: v[::-1] for k, v in results.items() if k != "params"},
        test_size_ratio=0.25,
    )
    assert (same.best_averaged, same.best_of_averages) == (4, 2)
    rows = [line.split()[0] for line in str(same).splitlines()[3:23]]
    assert rows == [f"C={i}" for i in range(29, 9, -1)]


def test_display(iris_search):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    search, _, _ = iris_search
    disp = SearchAnalysisDisplay.from_search(search)
    assert disp.pick_averaged_.get_label() == (
        "best by averaged F1: max_depth=4, min_samples_leaf=1"
    )
    assert disp.pick_of_averages_.get_label().startswith("best by F1 of averages")
    assert disp.annotations_ == []  # 15 candidates: only the legend names picks
    fig, axes = plt.subplots(1, 2)
    a = analyze_search(search)
    small = a.plot(ax=axes[0], top=3)
    assert isinstance(small, SearchAnalysisDisplay) and small.ax_ is axes[0]
    x, y = small.points_.lines[0].get_data()
    assert 3 <= len(x) <= 6
    assert all(t.get_text() for t in small.annotations_)
    with pytest.raises(ValueError, match="top must be"):
        a.plot(ax=axes[1], top=0)
    plt.close("all")
