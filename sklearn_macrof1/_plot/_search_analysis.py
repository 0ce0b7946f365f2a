"""``analyze_search``: do the two macro F1s pick the same model in a search?

Reads the per-fold test scores a ``GridSearchCV`` / ``RandomizedSearchCV`` (its
``cv_results_``) or ``cross_validate`` already computed under both formulas and
reports the best candidate under each, the rank agreement across candidates,
and Nadeau-Bengio corrected resampled t-tests (the statistics live in
:mod:`sklearn_macrof1._stats._search`). Nothing is re-fitted or re-scored.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.base import is_classifier
from sklearn.exceptions import NotFittedError

from .._averages import AVERAGES
from .._html import (
    MAX_HTML_ROWS,
    Column,
    Table,
    format_p_value,
    percent,
    render_html,
    render_view,
    table_frame,
)
from .._results._scorers import _parse
from .._results._views import fbeta_name
from .._stats._search import (
    FoldDifference,
    FoldScores,
    RankAgreement,
    corrected_resampled_ttest,
    fold_scores_from_cross_validate,
    fold_scores_from_cv_results,
    fold_size_ratio,
    metric_names,
    rank_agreement,
)
from ._display import check_matplotlib

_SKLEARN_F1 = re.compile("f1_(" + "|".join(AVERAGES) + ")")
_FIX = (
    "Score the search with both formulas: scoring=MACRO_F1_SCORING (keys "
    "'averaged_f1' and 'f1_of_averages'), or a dict holding an "
    "'averaged_f<beta>_<average>' and an 'f<beta>_of_averages_<average>' scorer "
    "(sklearn_macrof1.get_scorer(name)); or name the two metrics with "
    "metrics=(averaged_name, of_averages_name)."
)


def _formula(name: str) -> tuple[str, float, str] | None:
    """(kind, beta, average) that a metric name stands for, if it says."""
    if name == "averaged_f1":
        return "averaged", 1.0, "macro"
    if name == "f1_of_averages":
        return "of_averages", 1.0, "macro"
    match = _SKLEARN_F1.fullmatch(name)
    if match is not None:  # scikit-learn's own name of the averaged F1
        return "averaged", 1.0, match[1]
    return _parse(name)


def _pick_metrics(
    available: Sequence[str], metrics: Any, *, halving: bool
) -> tuple[str, str, float | None, str | None]:
    if metrics is not None:
        if (
            not isinstance(metrics, Sequence)
            or isinstance(metrics, str)
            or len(metrics) != 2
            or not all(isinstance(m, str) for m in metrics)
        ):
            raise ValueError(
                "metrics must be a pair of metric names (averaged_name, "
                f"of_averages_name); got {metrics!r}."
            )
        for m in metrics:
            if m not in available:
                raise ValueError(
                    f"metrics names {m!r}, which these results were not scored "
                    f"with; they hold {list(available)}."
                )
        a, b = _formula(metrics[0]), _formula(metrics[1])
        if a is not None and b is not None and a[1:] == b[1:]:
            return metrics[0], metrics[1], a[1], a[2]
        return metrics[0], metrics[1], None, None
    parsed = {m: _formula(m) for m in available}
    pairs = [
        (m1, m2, f1[1], f1[2])
        for m1, f1 in parsed.items()
        if f1 is not None and f1[0] == "averaged"
        for m2, f2 in parsed.items()
        if f2 is not None and f2[0] == "of_averages" and f2[1:] == f1[1:]
    ]
    if len(pairs) == 1:
        return pairs[0]
    if not pairs:
        extra = ""
        if halving:
            extra = (
                " scikit-learn's successive-halving searches take one metric "
                "only, so they cannot carry both formulas: refit the candidates "
                "of its last iteration with GridSearchCV(..., scoring="
                "MACRO_F1_SCORING) or cross_validate."
            )
        raise ValueError(
            "These results were not scored with both macro F1 formulas (the "
            f"averaged F-beta and the F-beta of averages); they hold {list(available)}"
            f". {_FIX}{extra}"
        )
    raise ValueError(
        "These results hold several pairs of the two formulas: "
        f"{[p[:2] for p in pairs]}; choose one with metrics=(averaged_name, "
        "of_averages_name)."
    )


def _formula_names(beta: float | None) -> tuple[str, str]:
    name = "F-beta" if beta is None else fbeta_name(beta)
    return f"averaged {name}", f"{name} of averages"


@dataclass(frozen=True, eq=False)
class SearchAnalysis:
    """Whether the two macro F-beta formulas pick the same model in a search.

    Returned by :func:`analyze_search`. Scores are the per-fold test scores of
    the search; "A - B" differences are tested with the Nadeau-Bengio corrected
    resampled t-test (variance ``(1/J + n_test/n_train) s²``, J - 1 degrees of
    freedom).

    Attributes
    ----------
    candidates : list of str
        The candidates compared (the parameters that vary, or the names of a
        ``cross_validate`` mapping).
    averaged_metric, of_averages_metric : str
        The metric names the two formulas' scores were read from.
    beta : float or None
        The formulas' beta (None when the metric names do not say).
    average : str or None
        Their average (None when the metric names do not say).
    averaged_scores, of_averages_scores : ndarray of shape (n_candidates, n_folds)
        Per-fold test scores under each formula.
    best_averaged, best_of_averages : int
        Index of the best candidate (highest mean) under each formula; the
        first one on ties, as scikit-learn's ``best_index_``.
    ranks : RankAgreement
        Spearman's rho and Kendall's tau (with p-values) between the mean
        scores under the two formulas, and the number of candidates.
    picks_averaged, picks_of_averages : FoldDifference or None
        When the picks differ: ``best_averaged - best_of_averages`` under the
        averaged F-beta and under the F-beta of averages.
    runner_up_averaged, runner_up_of_averages : FoldDifference or None
        Under each formula: its best candidate minus its runner-up, the next
        best candidate whose fold scores differ from the best's (None when all
        are equal).
    n_folds : int
    test_train_ratio : float
        ``n_test / n_train`` used by the correction.
    n_train, n_test : float or None
        Mean training and test fold sizes, when known.
    size_note : str
        Where ``test_train_ratio`` came from.
    confidence : float
    excluded : list of str
        Candidates left out because a fold score is nan (a failed fit).
    note : str
        Anything else to know about the candidates (successive halving).
    """

    candidates: list[str]
    averaged_metric: str
    of_averages_metric: str
    beta: float | None
    average: str | None
    averaged_scores: np.ndarray
    of_averages_scores: np.ndarray
    best_averaged: int
    best_of_averages: int
    ranks: RankAgreement
    picks_averaged: FoldDifference | None
    picks_of_averages: FoldDifference | None
    runner_up_averaged: FoldDifference | None
    runner_up_of_averages: FoldDifference | None
    n_folds: int
    test_train_ratio: float
    n_train: float | None
    n_test: float | None
    size_note: str
    confidence: float
    excluded: list[str] = field(default_factory=list)
    note: str = ""

    @property
    def n_candidates(self) -> int:
        """Number of candidates compared."""
        return len(self.candidates)

    @property
    def picks_differ(self) -> bool:
        """Whether the two formulas pick different candidates."""
        return self.best_averaged != self.best_of_averages

    @property
    def mean_averaged(self) -> np.ndarray:
        """Mean over folds of each candidate's averaged F-beta."""
        return self.averaged_scores.mean(axis=1)

    @property
    def mean_of_averages(self) -> np.ndarray:
        """Mean over folds of each candidate's F-beta of averages."""
        return self.of_averages_scores.mean(axis=1)

    @property
    def formula_names(self) -> tuple[str, str]:
        """The two formulas' names, e.g. ("averaged F1", "F1 of averages")."""
        return _formula_names(self.beta)

    @property
    def disagreement_beyond_noise(self) -> bool | None:
        """When the picks differ: whether both corrected tests of the two picks
        reject "no difference" at ``1 - confidence`` (each formula then prefers
        its own pick beyond fold noise); None when the picks agree."""
        if self.picks_averaged is None or self.picks_of_averages is None:
            return None
        return self.picks_averaged.significant and self.picks_of_averages.significant

    @property
    def statement(self) -> str:
        """The answer in words."""
        avg_name, foa_name = self.formula_names
        alpha = 1 - self.confidence

        def verdict(d: FoldDifference) -> str:
            sig = "significant" if d.significant else "not significant"
            return f"{d.difference:+.4f} (p={d.p_value:.3g}, {sig} at {percent(alpha)})"

        a, b = (
            self.candidates[self.best_averaged],
            self.candidates[self.best_of_averages],
        )
        if not self.picks_differ:
            text = f"Both formulas pick {a}."
        else:
            assert self.picks_averaged is not None
            assert self.picks_of_averages is not None
            beyond = self.disagreement_beyond_noise
            text = (
                f"The formulas pick different candidates: {avg_name} picks {a}, "
                f"{foa_name} picks {b}. ({a}) - ({b}): {avg_name} "
                f"{verdict(self.picks_averaged)}, {foa_name} "
                f"{verdict(self.picks_of_averages)}; the disagreement is "
                + (
                    "beyond fold noise (both significant)."
                    if beyond
                    else "within fold noise (not both significant)."
                )
            )
        return text

    # ---------------------------------------------------------------- views
    def __repr__(self) -> str:
        return (
            f"SearchAnalysis(n_candidates={self.n_candidates}, n_folds="
            f"{self.n_folds}, picks_differ={self.picks_differ})"
        )

    def __str__(self) -> str:
        return render_view(*self._view())

    def _candidate_table(self) -> Table:
        """One row per candidate: mean, fold s.d. and rank under each formula."""
        avg_name, foa_name = self.formula_names
        index = np.arange(self.n_candidates)
        picks = []
        for i in index:
            marks = []
            if i == self.best_averaged:
                marks.append(f"best by {avg_name}")
            if i == self.best_of_averages:
                marks.append(f"best by {foa_name}")
            picks.append("; ".join(marks))
        r = self.ranks
        ranks = (
            "rank agreement: undefined (fewer than 3 candidates or constant scores)"
            if math.isnan(r.spearman)
            else f"rank agreement: Spearman {r.spearman:.3f} "
            f"(p={r.spearman_p_value:.3g}), Kendall {r.kendall:.3f} "
            f"(p={r.kendall_p_value:.3g}), {r.n_candidates} candidates"
        )
        columns = [Column("candidate", self.candidates, shown=False)]
        for name, key, scores in (
            (avg_name, "averaged", self.averaged_scores),
            (foa_name, "of_averages", self.of_averages_scores),
        ):
            mean = scores.mean(axis=1)
            columns += [
                Column(f"mean_{key}", mean, heading=name),
                Column(f"std_{key}", scores.std(axis=1, ddof=1), "fold s.d."),
                Column(f"rank_{key}", _ranks(mean), "rank"),
            ]
        columns += [
            Column("pick", picks, data=False),
            Column("best_averaged", index == self.best_averaged, shown=False),
            Column("best_of_averages", index == self.best_of_averages, shown=False),
        ]
        how = (
            f"{self.average}, beta={self.beta:g}"
            if self.average is not None and self.beta is not None
            else "formulas named by the caller"
        )
        return Table(
            f"search analysis: {self.n_candidates} candidates, {self.n_folds} folds "
            f"({how}; metrics {self.averaged_metric!r}, "
            f"{self.of_averages_metric!r})",
            columns,
            labels=self.candidates,
            notes=[ranks],
            index="candidate",
            unit="candidates",
            unit_one="candidate",
            full="analysis.to_frame()",
            shown_order=self._shown_candidates(),
        )

    def _shown_candidates(self) -> list[int] | None:
        """The rows a view shows of more than :data:`MAX_HTML_ROWS` candidates:
        the first ones and the two picks, in the candidates' order (None: all)."""
        if self.n_candidates <= MAX_HTML_ROWS:
            return None
        picks = {int(self.best_averaged), int(self.best_of_averages)}
        first = [i for i in range(MAX_HTML_ROWS) if i not in picks]
        return sorted(picks | set(first[: MAX_HTML_ROWS - len(picks)]))

    def _test_table(self) -> Table:
        """One row per corrected resampled t-test."""
        avg_name, foa_name = self.formula_names
        tests = [
            (test, f"{what}, {name}", d)
            for test, what, name, d in (
                ("picks", "picks", avg_name, self.picks_averaged),
                ("picks", "picks", foa_name, self.picks_of_averages),
                ("runner-up", "best - runner-up", avg_name, self.runner_up_averaged),
                ("runner-up", "best - runner-up", foa_name, self.runner_up_of_averages),
            )
            if d is not None
        ]

        def column(key: str, **how: Any) -> Column:
            return Column(key, [getattr(d, key) for _, _, d in tests], **how)

        hidden = {"shown": False}
        return Table(
            f"Nadeau-Bengio corrected resampled t-tests (J = {self.n_folds}, "
            f"n_test/n_train = {self.test_train_ratio:.3g}, "
            f"{percent(self.confidence)} intervals)",
            [
                Column("test", [test for test, _, _ in tests], shown=False),
                column("formula", **hidden),
                column("candidate_a", **hidden),
                column("candidate_b", **hidden),
                Column(
                    "A - B",
                    [f"{d.candidate_a} - {d.candidate_b}" for _, _, d in tests],
                    data=False,
                ),
                column("difference", fmt=lambda v: f"{v:+.4f}"),
                Column(
                    "interval",
                    [f"[{d.low:+.4f}, {d.high:+.4f}]" for _, _, d in tests],
                    data=False,
                ),
                column("low", **hidden),
                column("high", **hidden),
                column("std_error", **hidden),
                column("t", fmt=lambda v: f"{v:.2f}"),
                column("df", **hidden),
                column("p_value", heading="p", fmt=format_p_value),
                column(
                    "uncorrected_p_value", heading="uncorrected p", fmt=format_p_value
                ),
            ],
            labels=[what for _, what, _ in tests],
            notes=[f"n_test/n_train: {self.size_note}"],
            index="test",
        )

    def _view(self) -> tuple[list[Table], list[str]]:
        """What a notebook and the text show: the candidates, the t-tests (if
        any), then the statement and notes."""
        candidates, tests = self._candidate_table(), self._test_table()
        notes = [self.statement]
        if self.excluded:
            notes.append(f"left out (nan fold scores): {', '.join(self.excluded)}")
        if self.note:
            notes.append(f"note: {self.note}")
        return ([candidates, tests] if tests.n_rows else [candidates]), notes

    def _repr_html_(self) -> str:
        return render_html(*self._view())

    def to_frame(self) -> Any:
        """One row per candidate (pandas is imported lazily): mean and fold
        standard deviation and rank under each formula, and the two picks."""
        return table_frame([self._candidate_table()], caller="SearchAnalysis.to_frame")

    def tests_frame(self) -> Any:
        """The corrected t-tests as a ``pandas.DataFrame``, one row per test."""
        return table_frame([self._test_table()], caller="SearchAnalysis.tests_frame")

    def plot(
        self, ax: Any = None, *, annotate: bool = True, top: int | None = None
    ) -> SearchAnalysisDisplay:
        """Draw the candidates at (averaged F-beta, F-beta of averages).

        See :meth:`SearchAnalysisDisplay.plot`; needs matplotlib
        (``pip install matplotlib``, or from the repository root
        ``pip install ".[plot]"``).
        """
        return SearchAnalysisDisplay(self).plot(ax=ax, annotate=annotate, top=top)


def _ranks(values: np.ndarray) -> np.ndarray:
    """scikit-learn's ``rank_test_*``: 1 for the best, ties share the lowest."""
    order = -values
    return np.array([int((order < v).sum()) + 1 for v in order])


def _check_confidence(confidence: Any) -> float:
    if (
        not isinstance(confidence, numbers.Real)
        or isinstance(confidence, bool)
        or not 0 < float(confidence) < 1
    ):
        raise ValueError(
            f"confidence must be a number in (0, 1), e.g. 0.95; got {confidence!r}."
        )
    return float(confidence)


def _read(
    results: Any, metrics: Any
) -> tuple[FoldScores, str, str, float | None, str | None, bool]:
    """The fold score tables of a fitted search, a cv_results_ dict or a mapping
    name -> cross_validate result, and the two metrics to compare."""
    if (
        hasattr(results, "cv_results_")
        or hasattr(results, "param_grid")
        or hasattr(results, "param_distributions")
    ):
        if not hasattr(results, "cv_results_"):
            raise NotFittedError(
                f"This {type(results).__name__} instance is not fitted yet; call "
                "fit(X, y) before analyze_search (with scoring=MACRO_F1_SCORING)."
            )
        cv_results = results.cv_results_
        halving = "iter" in cv_results or type(results).__name__.startswith("Halving")
        cv = getattr(results, "cv", None)
        splitter = 5 if cv is None else cv  # cv=None is scikit-learn's 5-fold
        classifier = bool(is_classifier(getattr(results, "estimator", None)))
    elif isinstance(results, Mapping) and "params" in results:  # a cv_results_
        cv_results, halving = results, "iter" in results
        splitter, classifier = None, True
    elif (
        isinstance(results, Mapping)
        and results
        and all(isinstance(v, Mapping) for v in results.values())
    ):
        names = [set(metric_names(v, "test_")) for v in results.values()]
        common = sorted(set.intersection(*names))
        picked = _pick_metrics(common, metrics, halving=False)
        return fold_scores_from_cross_validate(results, picked[:2]), *picked, True
    elif isinstance(results, Mapping) and any(
        str(k).startswith("test_") for k in results
    ):
        raise TypeError(
            "results looks like one cross_validate result; analyze_search "
            "compares several: pass {name: cross_validate(...) result} with "
            "two or more estimators evaluated on the same cv."
        )
    else:
        raise TypeError(
            "results must be a fitted GridSearchCV / RandomizedSearchCV (or its "
            "cv_results_), or a mapping {name: cross_validate(...) result}; got "
            f"{type(results).__name__}."
        )
    picked = _pick_metrics(
        metric_names(cv_results, "mean_test_"), metrics, halving=halving
    )
    scores = fold_scores_from_cv_results(cv_results, picked[:2], splitter=splitter)
    return scores, *picked, classifier


def analyze_search(
    results: Any,
    *,
    metrics: Sequence[str] | None = None,
    n_train: Any = None,
    n_test: Any = None,
    test_size_ratio: float | None = None,
    X: Any = None,
    y: Any = None,
    groups: Any = None,
    confidence: float = 0.95,
) -> SearchAnalysis:
    """Do the two macro F1s pick the same model in this search, beyond fold noise?

    Reads the per-fold test scores under both formulas (the averaged F-beta and
    the F-beta of averages) and reports the best candidate under each, the rank
    agreement across all candidates (Spearman, Kendall), and Nadeau-Bengio
    corrected resampled t-tests: the two picks compared under each formula, and
    each formula's best against its runner-up. Nothing is re-fitted.

    Parameters
    ----------
    results : fitted search, ``cv_results_`` dict, or mapping of cross_validate results
        A fitted ``GridSearchCV`` or ``RandomizedSearchCV`` scored with both
        formulas (``scoring=MACRO_F1_SCORING``, or a dict of scorers named
        ``averaged_f<beta>_<average>`` and ``f<beta>_of_averages_<average>``;
        any ``refit`` and ``return_train_score``: only test scores are read),
        its ``cv_results_``, or ``{name: cross_validate(est, X, y, cv=cv,
        scoring=MACRO_F1_SCORING)}`` for two or more estimators on the same
        ``cv``. Successive-halving searches take one metric only in
        scikit-learn; their last iteration is read when both are present.
    metrics : (str, str), default=None
        The metric names of the averaged and of the of-averages scores, when
        the names do not say (e.g. ``("f1_macro", "of_avg")``).
    n_train, n_test : int or array-like of shape (n_folds,), default=None
        Training and test set sizes of the folds, for the test's correction
        ``1/J + n_test/n_train``.
    test_size_ratio : float, default=None
        ``n_test / n_train`` directly (instead of ``n_train`` and ``n_test``).
    X, y, groups : array-like, default=None
        The data the search was fitted on: the sizes are then those of the
        search's ``cv`` splits. Without any of these, k-fold splitters (an int
        ``cv``, ``KFold``, ``StratifiedKFold``, their repeated forms) give
        ``1/(k-1)``, shuffle splits with fractional sizes
        ``test_size/train_size``, and ``cross_validate`` results made with
        ``return_indices=True`` their exact sizes; otherwise a ValueError says
        what to pass.
    confidence : float, default=0.95
        Coverage of the intervals; a p-value below ``1 - confidence`` is
        called significant.

    Returns
    -------
    analysis : SearchAnalysis
        Printable (text), ``_repr_html_`` for notebooks, ``to_frame()`` /
        ``tests_frame()`` for pandas and ``plot()`` for a figure.

    Raises
    ------
    ValueError
        When the results do not hold both formulas (the message says how to
        score them), hold fewer than 2 folds or 2 candidates, or the fold
        sizes cannot be inferred.
    NotFittedError
        For a search that was not fitted.
    TypeError
        For another kind of ``results``.

    Notes
    -----
    The best-versus-runner-up tests reuse the folds that chose the best
    candidate, so they are optimistic (a winner's curse); treat a small p-value
    there as "the lead is not obviously noise", not as an unbiased test.

    Examples
    --------
    >>> from sklearn.datasets import load_wine
    >>> from sklearn.model_selection import GridSearchCV, StratifiedKFold
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_macrof1 import MACRO_F1_SCORING, analyze_search
    >>> X, y = load_wine(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 4]},
    ...     scoring=MACRO_F1_SCORING, refit=False,
    ...     cv=StratifiedKFold(5, shuffle=True, random_state=0)).fit(X, y)
    >>> analysis = analyze_search(search)
    >>> analysis.picks_differ, analysis.candidates[analysis.best_averaged]
    (False, 'max_depth=3')
    >>> d = analysis.runner_up_averaged
    >>> d.candidate_b, round(d.difference, 4), round(d.p_value, 3)
    ('max_depth=4', 0.0113, 0.338)
    """
    confidence = _check_confidence(confidence)
    scores, avg, foa, beta, average, classifier = _read(results, metrics)
    a_all, b_all = scores.scores[avg], scores.scores[foa]
    n_folds = int(a_all.shape[1])
    if n_folds < 2:
        raise ValueError(
            f"The results hold {n_folds} fold; the corrected t-test needs at least "
            "2 (use cv=3 or more, or a splitter with n_splits >= 2)."
        )
    valid = np.isfinite(a_all).all(axis=1) & np.isfinite(b_all).all(axis=1)
    excluded = [c for c, ok in zip(scores.candidates, valid, strict=True) if not ok]
    candidates = [c for c, ok in zip(scores.candidates, valid, strict=True) if ok]
    if len(candidates) < 2:
        raise ValueError(
            f"analyze_search compares candidates; these results hold "
            f"{len(candidates)} with finite scores in every fold"
            + (f" ({len(excluded)} left out for nan scores)" if excluded else "")
            + ". Search over two or more candidates."
        )
    a, b = a_all[valid], b_all[valid]
    ratio, tr, te, size_note = fold_size_ratio(
        scores,
        n_folds,
        n_train=n_train,
        n_test=n_test,
        test_size_ratio=test_size_ratio,
        X=X,
        y=y,
        groups=groups,
        classifier=classifier,
    )
    avg_name, foa_name = _formula_names(beta)
    mean_a, mean_b = a.mean(axis=1), b.mean(axis=1)
    order_a = np.argsort(-mean_a, kind="stable")
    order_b = np.argsort(-mean_b, kind="stable")
    best_a, best_b = int(order_a[0]), int(order_b[0])

    def test(table: np.ndarray, i: int, j: int, formula: str) -> FoldDifference:
        return corrected_resampled_ttest(
            table[i] - table[j],
            test_train_ratio=ratio,
            confidence=confidence,
            candidate_a=candidates[i],
            candidate_b=candidates[j],
            formula=formula,
        )

    def runner_up(
        table: np.ndarray, order: np.ndarray, formula: str
    ) -> FoldDifference | None:
        # the next candidate whose fold scores are not those of the best (equal
        # fold scores, e.g. trees that stop growing, test nothing)
        best = int(order[0])
        for j in order[1:]:
            if not np.array_equal(table[best], table[j]):
                return test(table, best, int(j), formula)
        return None

    picks_a = picks_b = None
    if best_a != best_b:
        picks_a = test(a, best_a, best_b, avg_name)
        picks_b = test(b, best_a, best_b, foa_name)
    return SearchAnalysis(
        candidates=candidates,
        averaged_metric=avg,
        of_averages_metric=foa,
        beta=beta,
        average=average,
        averaged_scores=a,
        of_averages_scores=b,
        best_averaged=best_a,
        best_of_averages=best_b,
        ranks=rank_agreement(mean_a, mean_b),
        picks_averaged=picks_a,
        picks_of_averages=picks_b,
        runner_up_averaged=runner_up(a, order_a, avg_name),
        runner_up_of_averages=runner_up(b, order_b, foa_name),
        n_folds=n_folds,
        test_train_ratio=ratio,
        n_train=tr,
        n_test=te,
        size_note=size_note,
        confidence=confidence,
        excluded=excluded,
        note=scores.note,
    )


class SearchAnalysisDisplay:
    """Candidates of a search at (averaged F-beta, F-beta of averages).

    Each candidate is a point at its mean score under the two formulas with
    bars of ± one fold standard deviation; the best candidate under each
    formula is marked, and the diagonal shows where the two scores are equal
    (for macro, weighted and samples averaging the F-beta of averages is never
    below the averaged F-beta, so points sit on or above it). Create it with
    :meth:`from_search` or :meth:`SearchAnalysis.plot`; needs matplotlib
    (``pip install matplotlib``, or from the repository root
    ``pip install ".[plot]"``).

    Parameters
    ----------
    analysis : SearchAnalysis

    Attributes
    ----------
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure
    points_ : matplotlib ErrorbarContainer
        All candidates with their fold spread.
    pick_averaged_, pick_of_averages_ : matplotlib Line2D
        The markers of the two picks.
    diagonal_ : matplotlib Line2D
    annotations_ : list of matplotlib Text

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.datasets import load_wine
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_macrof1 import MACRO_F1_SCORING, SearchAnalysisDisplay
    >>> X, y = load_wine(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3]},
    ...     scoring=MACRO_F1_SCORING, refit=False, cv=3).fit(X, y)
    >>> disp = SearchAnalysisDisplay.from_search(search)
    >>> disp.pick_averaged_.get_label()
    'best by averaged F1: max_depth=3'
    """

    def __init__(self, analysis: SearchAnalysis) -> None:
        self.analysis = analysis

    @classmethod
    def from_search(
        cls,
        results: Any,
        *,
        ax: Any = None,
        annotate: bool = True,
        top: int | None = None,
        **kwargs: Any,
    ) -> SearchAnalysisDisplay:
        """Analyse ``results`` (see :func:`analyze_search`, which takes
        ``kwargs``) and draw it (see :meth:`plot`)."""
        check_matplotlib("SearchAnalysisDisplay.from_search")
        analysis = analyze_search(results, **kwargs)
        return cls(analysis).plot(ax=ax, annotate=annotate, top=top)

    def plot(
        self, ax: Any = None, *, annotate: bool = True, top: int | None = None
    ) -> SearchAnalysisDisplay:
        """Draw on ``ax`` (a new figure when None).

        ``top`` draws only the candidates among the ``top`` best under either
        formula (the interesting corner of a large grid); ``annotate`` labels
        the other drawn candidates when there are at most 12 (the legend
        names the picks).
        """
        check_matplotlib("SearchAnalysisDisplay.plot")
        import matplotlib.pyplot as plt

        an = self.analysis
        avg_name, foa_name = an.formula_names
        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 5.6), layout="constrained")
        x_all, y_all = an.mean_averaged, an.mean_of_averages
        shown = np.arange(an.n_candidates)
        if top is not None:
            if not isinstance(top, numbers.Integral) or top < 1:
                raise ValueError(f"top must be a positive integer; got {top!r}.")
            shown = np.union1d(
                np.argsort(-x_all, kind="stable")[:top],
                np.argsort(-y_all, kind="stable")[:top],
            )
        x, y = x_all[shown], y_all[shown]
        sx = an.averaged_scores[shown].std(axis=1, ddof=1)
        sy = an.of_averages_scores[shown].std(axis=1, ddof=1)
        self.points_ = ax.errorbar(
            x,
            y,
            xerr=sx,
            yerr=sy,
            fmt="o",
            color="0.45",
            ecolor="0.8",
            elinewidth=1,
            markersize=5,
            label="candidate (mean ± fold s.d.)",
            zorder=2,
        )
        ia, ib = an.best_averaged, an.best_of_averages
        (self.pick_averaged_,) = ax.plot(
            x_all[ia],
            y_all[ia],
            "*",
            color="tab:red",
            markersize=17,
            markeredgecolor="black",
            label=f"best by {avg_name}: {an.candidates[ia]}",
            zorder=4,
        )
        (self.pick_of_averages_,) = ax.plot(
            x_all[ib],
            y_all[ib],
            "D",
            color="tab:blue",
            markersize=10,
            markerfacecolor="none",
            markeredgewidth=2,
            label=f"best by {foa_name}: {an.candidates[ib]}",
            zorder=5,
        )
        low = float(min((x - sx).min(), (y - sy).min()))
        high = float(max((x + sx).max(), (y + sy).max()))
        pad = 0.05 * max(high - low, 1e-3)
        lo, hi = low - pad, min(high + pad, 1.0 + pad)
        (self.diagonal_,) = ax.plot(
            [lo, hi], [lo, hi], "--", color="0.6", lw=1, label="equal scores", zorder=1
        )
        self.annotations_ = []
        if annotate and shown.shape[0] <= 12:
            middle = (lo + hi) / 2
            groups: dict[tuple[float, float], list[int]] = {}
            for i in shown:  # candidates with the same mean scores: one label
                groups.setdefault((x_all[i], y_all[i]), []).append(int(i))
            placed: list[tuple[float, float]] = []
            span = hi - lo
            for (px, py), members in sorted(groups.items(), key=lambda g: -g[0][1]):
                if ia in members or ib in members:
                    continue  # the legend names the picks
                text = an.candidates[members[0]]
                if len(members) > 1:
                    text += f" (+{len(members) - 1} equal)"
                right = px > middle
                # the highest point of a cluster is labelled above, the others below
                near = any(
                    abs(px - qx) < 0.25 * span and abs(py - qy) < 0.04 * span
                    for qx, qy in placed
                )
                placed.append((px, py))
                self.annotations_.append(
                    ax.annotate(
                        text,
                        (px, py),
                        xytext=(-7 if right else 7, -11 if near else 4),
                        textcoords="offset points",
                        ha="right" if right else "left",
                        fontsize=7,
                        color="0.3",
                        annotation_clip=True,
                    )
                )
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel(f"{avg_name} (mean over {an.n_folds} folds)")
        ax.set_ylabel(f"{foa_name} (mean over {an.n_folds} folds)")
        r = an.ranks
        ranks = (
            "rank agreement undefined"
            if math.isnan(r.spearman)
            else f"Spearman {r.spearman:.2f}, Kendall {r.kendall:.2f}"
        )
        verdict = "picks differ" if an.picks_differ else "same pick"
        ax.set_title(f"{an.n_candidates} candidates: {verdict}; {ranks}", fontsize=10)
        ax.legend(loc="lower right", fontsize=8, framealpha=0.9)
        self.ax_ = ax
        self.figure_ = ax.figure
        return self
