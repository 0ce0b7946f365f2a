"""``analyze_search``: do the two macro F1s pick the same model in a search?

Reads the per-fold test scores a ``GridSearchCV`` / ``RandomizedSearchCV`` (its
``cv_results_``) or ``cross_validate`` already computed under both formulas and
reports the best candidate under each, the rank agreement across candidates,
and Nadeau-Bengio corrected resampled t-tests (the statistics live in
:mod:`sklearn_macrof1._stats._search`, the tables and the statement in
:mod:`sklearn_macrof1._present._search`, the figure in
:mod:`sklearn_macrof1._plot._search_analysis`). Nothing is re-fitted or re-scored.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .._averages import AVERAGES
from .._present._frame import table_frame
from .._present._search import (
    candidate_table,
    search_statement,
    search_view,
    test_table,
)
from .._present._table import Table, formula_labels
from .._present._views import TableViews
from .._stats._search import SearchStatistics, read_search
from ._scorers import _parse

_SKLEARN_F1 = re.compile("f1_(" + "|".join(AVERAGES) + ")")
_FIX = (
    "Score the search with both formulas: "
    "scoring=sklearn_macrof1.make_macro_f1_scoring() (keys "
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
                "sklearn_macrof1.make_macro_f1_scoring()) or cross_validate."
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


@dataclass(frozen=True, eq=False)
class SearchAnalysis(SearchStatistics, TableViews):
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

    #: Draws an analysis: ``SearchAnalysisDisplay``, which the plots layer (above
    #: this one) sets here when the package is imported.
    _display: ClassVar[type[Any]]

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
        return formula_labels(self.beta)

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
        return search_statement(self)

    # ---------------------------------------------------------------- views
    def __repr__(self) -> str:
        return (
            f"SearchAnalysis(n_candidates={self.n_candidates}, n_folds="
            f"{self.n_folds}, picks_differ={self.picks_differ})"
        )

    def _view(self) -> tuple[list[Table], list[str]]:
        return search_view(self)

    def to_frame(self) -> Any:
        """One row per candidate (pandas is imported lazily): mean and fold
        standard deviation and rank under each formula, and the two picks."""
        return table_frame([candidate_table(self)], caller="SearchAnalysis.to_frame")

    def tests_frame(self) -> Any:
        """The corrected t-tests as a ``pandas.DataFrame``, one row per test."""
        return table_frame([test_table(self)], caller="SearchAnalysis.tests_frame")

    def plot(
        self, ax: Any = None, *, annotate: bool = True, top: int | None = None
    ) -> Any:
        """Draw the candidates at (averaged F-beta, F-beta of averages).

        See :meth:`SearchAnalysisDisplay.plot`; needs matplotlib
        (``pip install matplotlib``, or from the repository root
        ``pip install ".[plot]"``).

        Returns
        -------
        display : SearchAnalysisDisplay
        """
        return self._display(self).plot(ax=ax, annotate=annotate, top=top)


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
        formulas (``scoring=make_macro_f1_scoring()``, or a dict of scorers
        named ``averaged_f<beta>_<average>`` and
        ``f<beta>_of_averages_<average>``; any ``refit`` and
        ``return_train_score``: only test scores are read), its
        ``cv_results_``, or ``{name: cross_validate(est, X, y, cv=cv,
        scoring=make_macro_f1_scoring())}`` for two or more estimators on the
        same ``cv``. Successive-halving searches take one metric only in
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
    >>> from sklearn_macrof1 import analyze_search, make_macro_f1_scoring
    >>> X, y = load_wine(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 4]},
    ...     scoring=make_macro_f1_scoring(), refit=False,
    ...     cv=StratifiedKFold(5, shuffle=True, random_state=0)).fit(X, y)
    >>> analysis = analyze_search(search)
    >>> analysis.picks_differ, analysis.candidates[analysis.best_averaged]
    (False, 'max_depth=3')
    >>> d = analysis.runner_up_averaged
    >>> d.candidate_b, round(d.difference, 4), round(d.p_value, 3)
    ('max_depth=4', 0.0113, 0.338)
    """
    confidence = _check_confidence(confidence)
    source = read_search(results)
    avg, foa, beta, average = _pick_metrics(
        source.metrics, metrics, halving=source.halving
    )
    return SearchAnalysis._from_fold_scores(
        source.fold_scores((avg, foa)),
        avg,
        foa,
        beta=beta,
        average=average,
        formulas=formula_labels(beta),
        confidence=confidence,
        classifier=source.classifier,
        n_train=n_train,
        n_test=n_test,
        test_size_ratio=test_size_ratio,
        X=X,
        y=y,
        groups=groups,
    )
