"""Statistics of a model search scored with both macro F-betas.

From the per-fold test scores a search (``cv_results_``) or ``cross_validate``
already computed, nothing is re-fitted or re-scored:

- :func:`corrected_resampled_ttest`: the Nadeau-Bengio corrected resampled
  t-test of a per-fold score difference. Cross-validation folds share most of
  their training data, so the fold differences are positively correlated and the
  plain paired t-test (variance ``s²/J``) is too liberal; Nadeau & Bengio
  (Machine Learning 52, 2003) inflate the variance to ``(1/J + n_test/n_train)
  s²`` (J folds, all repetitions included, as Bouckaert & Frank's corrected
  repeated k-fold test does), with J - 1 degrees of freedom;
- :func:`rank_agreement`: Spearman's rho and Kendall's tau between the
  candidates' mean scores under the two formulas;
- :func:`read_search`, :func:`fold_scores_from_cv_results` and
  :func:`fold_scores_from_cross_validate`: the metrics a fitted search, its
  ``cv_results_`` or a mapping of ``cross_validate`` results holds, its
  (candidates x folds) score tables and what is known about the fold sizes;
- :class:`SearchStatistics`: the candidates' picks under the two formulas, their
  rank agreement and the corrected t-tests of the picks and runner-ups (the
  numbers of ``SearchAnalysis``, which adds their views).
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
from scipy import stats
from sklearn.base import is_classifier
from sklearn.exceptions import NotFittedError


@dataclass(frozen=True, eq=False)
class FoldDifference:
    """A corrected resampled t-test of ``A - B`` over cross-validation folds.

    Attributes
    ----------
    candidate_a, candidate_b : str
        The two candidates compared.
    formula : str
        The score compared (e.g. "averaged F1").
    differences : ndarray of shape (n_folds,)
        Per-fold ``score(A) - score(B)``.
    difference : float
        Their mean.
    std_error : float
        Corrected standard error ``sqrt((1/J + n_test/n_train) * s²)``.
    t : float
        ``difference / std_error`` (0 when both are 0, ±inf when only the
        standard error is 0).
    df : int
        Degrees of freedom, ``J - 1``.
    p_value : float
        Two-sided p-value of "no difference" under the corrected test.
    low, high : float
        Confidence interval of the difference.
    confidence : float
    test_train_ratio : float
        ``n_test / n_train`` used by the correction.
    uncorrected_p_value : float
        The plain paired t-test's p-value (variance ``s²/J``), for contrast.
    """

    candidate_a: str
    candidate_b: str
    formula: str
    differences: np.ndarray
    difference: float
    std_error: float
    t: float
    df: int
    p_value: float
    low: float
    high: float
    confidence: float
    test_train_ratio: float
    uncorrected_p_value: float

    @property
    def significant(self) -> bool:
        """Whether the corrected p-value is below ``1 - confidence``."""
        return bool(self.p_value < 1 - self.confidence)

    def __repr__(self) -> str:
        return (
            f"FoldDifference({self.candidate_a!r} - {self.candidate_b!r}, "
            f"{self.formula}: {self.difference:+.4g}, p={self.p_value:.3g})"
        )

    def __str__(self) -> str:
        return (
            f"{self.difference:+.4f} [{self.low:+.4f}, {self.high:+.4f}]  "
            f"t={self.t:.2f}  p={self.p_value:.3g}"
        )


def corrected_resampled_ttest(
    differences: Any,
    *,
    test_train_ratio: float,
    confidence: float = 0.95,
    candidate_a: str = "A",
    candidate_b: str = "B",
    formula: str = "",
) -> FoldDifference:
    """Nadeau-Bengio corrected resampled t-test of per-fold differences.

    ``t = mean(d) / sqrt((1/J + n_test/n_train) * var(d, ddof=1))`` with
    ``J - 1`` degrees of freedom; the interval is ``mean(d) ± t_{J-1} * se``.
    ``test_train_ratio=0`` gives the plain paired t-test.
    """
    d = np.asarray(differences, dtype=np.float64)
    j = int(d.shape[0])
    if d.ndim != 1 or j < 2:
        raise ValueError(
            f"The corrected t-test needs at least 2 folds; got {j} difference(s)."
        )
    if not np.isfinite(d).all():
        raise ValueError("The per-fold differences must be finite (no nan scores).")
    mean = float(d.mean())
    variance = float(d.var(ddof=1))
    df = j - 1
    q = float(stats.t.ppf(0.5 + confidence / 2, df))

    def test(factor: float) -> tuple[float, float, float]:
        se = math.sqrt(factor * variance)
        if se == 0:
            if mean == 0:
                return se, 0.0, 1.0
            return se, math.copysign(math.inf, mean), 0.0
        t = mean / se
        return se, t, float(2 * stats.t.sf(abs(t), df))

    se, t, p = test(1 / j + test_train_ratio)
    _, _, p_plain = test(1 / j)
    return FoldDifference(
        candidate_a=candidate_a,
        candidate_b=candidate_b,
        formula=formula,
        differences=d,
        difference=mean,
        std_error=se,
        t=t,
        df=df,
        p_value=p,
        low=mean - q * se,
        high=mean + q * se,
        confidence=confidence,
        test_train_ratio=float(test_train_ratio),
        uncorrected_p_value=p_plain,
    )


@dataclass(frozen=True)
class RankAgreement:
    """Spearman's rho and Kendall's tau (tau-b) between two score vectors."""

    spearman: float
    spearman_p_value: float
    kendall: float
    kendall_p_value: float
    n_candidates: int


def rank_agreement(a: np.ndarray, b: np.ndarray) -> RankAgreement:
    """Rank correlations of the candidates' mean scores under two formulas (nan
    with fewer than 3 candidates or a constant score, where they say nothing)."""
    n = int(a.shape[0])
    nan = math.nan
    if n < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return RankAgreement(nan, nan, nan, nan, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rho, p_rho = stats.spearmanr(a, b)
        tau, p_tau = stats.kendalltau(a, b)
    return RankAgreement(float(rho), float(p_rho), float(tau), float(p_tau), n)


def rank_candidates(values: np.ndarray) -> np.ndarray:
    """scikit-learn's ``rank_test_*``: 1 for the best, ties share the lowest."""
    order = -values
    return np.array([int((order < v).sum()) + 1 for v in order])


# --- reading the scores ------------------------------------------------------


@dataclass(frozen=True)
class FoldScores:
    """Per-fold test scores of several candidates under several metrics.

    ``scores[metric]`` has shape (n_candidates, n_folds); the folds are the same
    for every candidate (a search; or ``cross_validate`` with one ``cv``).
    ``n_train`` / ``n_test`` are per-fold sizes when known (else None);
    ``splitter`` is the cross-validation object or int to learn them from
    (None: unknown).
    """

    candidates: list[str]
    scores: dict[str, np.ndarray]
    n_train: np.ndarray | None
    n_test: np.ndarray | None
    splitter: Any
    note: str
    size_note: str = ""


def metric_names(result: Mapping[str, Any], prefix: str) -> list[str]:
    """The metric names of the ``<prefix><name>`` keys of a result (``"score"``
    for one metric): prefix "mean_test_" in a ``cv_results_``, "test_" in a
    ``cross_validate`` result."""
    return sorted(key[len(prefix) :] for key in result if key.startswith(prefix))


def _short(value: Any) -> str:
    """A compact repr: numpy scalars as Python numbers, sequences element-wise."""
    if isinstance(value, np.generic):
        return repr(value.item())
    if isinstance(value, np.ndarray):
        return _short(value.tolist())
    if isinstance(value, tuple | list):
        inner = ", ".join(_short(v) for v in value)
        if isinstance(value, tuple):
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        return f"[{inner}]"
    return repr(value)


def _candidate_names(params: Sequence[Mapping[str, Any]]) -> list[str]:
    """Short names: only the parameters that vary between candidates."""
    if not params:
        return []
    keys = sorted({k for p in params for k in p})
    varying = [
        k for k in keys if len({repr(p.get(k, "<unset>")) for p in params}) > 1
    ] or keys
    names = []
    for p in params:
        parts = [f"{k.split('__')[-1]}={_short(p[k])}" for k in varying if k in p]
        names.append(", ".join(parts) if parts else "{}")
    # keep names unique (the same short form from different full parameters)
    counts = Counter(names)
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if counts[name] == 1 else f"{name} #{seen[name]}")
    return out


def fold_scores_from_cv_results(
    cv_results: Mapping[str, Any], metrics: Sequence[str], *, splitter: Any = None
) -> FoldScores:
    """Per-fold scores of every candidate from a search's ``cv_results_``.

    A successive-halving search (an ``iter`` column) contributes the candidates
    of its last iteration only: earlier iterations scored candidates on fewer
    resources, not comparable with the last.
    """
    params = list(cv_results.get("params", []))
    n = len(params)
    keep = np.arange(n)
    note = ""
    if "iter" in cv_results:
        iters = np.asarray(cv_results["iter"])
        keep = np.flatnonzero(iters == iters.max())
        note = (
            f"successive halving: the {keep.shape[0]} candidates of the last "
            f"iteration (iter={int(iters.max())})"
        )
    scores = {}
    for metric in metrics:
        folds = []
        i = 0
        while f"split{i}_test_{metric}" in cv_results:
            folds.append(np.asarray(cv_results[f"split{i}_test_{metric}"], float))
            i += 1
        if not folds:
            raise ValueError(
                f"cv_results_ holds no per-fold test scores of {metric!r} "
                f"(no 'split0_test_{metric}' key)."
            )
        scores[metric] = np.stack(folds, axis=1)[keep]
    return FoldScores(
        # named among the compared candidates only (a halving search lists the
        # same parameters once per iteration)
        candidates=_candidate_names([params[i] for i in keep]),
        scores=scores,
        n_train=None,
        n_test=None,
        splitter=splitter,
        note=note,
    )


def fold_scores_from_cross_validate(
    results: Mapping[str, Mapping[str, Any]], metrics: Sequence[str]
) -> FoldScores:
    """Per-fold scores from ``{name: cross_validate(...) result}``.

    Fold sizes come from ``result["indices"]`` (``return_indices=True``) when
    every result has them; the test folds must then be the same for all.
    """
    names = [str(k) for k in results]
    scores: dict[str, list[np.ndarray]] = {m: [] for m in metrics}
    n_folds = None
    for name, result in results.items():
        for metric in metrics:
            key = f"test_{metric}"
            if key not in result:
                raise ValueError(
                    f"The cross_validate result of {name!r} has no {key!r}: every "
                    "estimator must be scored with the same scoring (for example "
                    "scoring=sklearn_macrof1.make_macro_f1_scoring())."
                )
            folds = np.asarray(result[key], dtype=np.float64).ravel()
            if n_folds is None:
                n_folds = folds.shape[0]
            elif folds.shape[0] != n_folds:
                raise ValueError(
                    "Every cross_validate result must come from the same folds; "
                    f"{name!r} has {folds.shape[0]} test scores, the first result "
                    f"{n_folds}. Pass the same cv= to every call."
                )
            scores[metric].append(folds)
    n_train = n_test = None
    size_note = ""
    indices: list[Any] = [r.get("indices") for r in results.values()]
    if all(isinstance(ix, Mapping) and "test" in ix for ix in indices):
        first = indices[0]
        for name, ix in zip(names, indices, strict=True):
            same = len(ix["test"]) == len(first["test"]) and all(
                np.array_equal(a, b)
                for a, b in zip(ix["test"], first["test"], strict=False)
            )
            if not same:
                raise ValueError(
                    f"The cross_validate results of {names[0]!r} and {name!r} were "
                    "computed on different folds; a paired comparison needs the "
                    "same splits (pass the same cv= with a fixed random_state)."
                )
        n_train = np.array([len(t) for t in first["train"]], dtype=np.float64)
        n_test = np.array([len(t) for t in first["test"]], dtype=np.float64)
        size_note = "fold sizes from the results' indices (return_indices=True)"
    return FoldScores(
        candidates=names,
        scores={m: np.stack(v) for m, v in scores.items()},
        n_train=n_train,
        n_test=n_test,
        splitter=None,
        note="",
        size_note=size_note,
    )


@dataclass(frozen=True)
class SearchResults:
    """What :func:`read_search` found in the results it was given.

    ``results`` is a ``cv_results_`` or ``{name: cross_validate result}``
    (``cross_validated``); ``metrics`` are the metric names it holds for every
    candidate; ``halving`` says whether it comes from a successive-halving
    search; ``splitter`` is the search's ``cv`` (None: unknown) and
    ``classifier`` whether its estimator is a classifier (for ``check_cv``).
    """

    results: Mapping[str, Any]
    metrics: list[str]
    halving: bool
    splitter: Any
    classifier: bool
    cross_validated: bool

    def fold_scores(self, metrics: Sequence[str]) -> FoldScores:
        """The per-fold score tables of ``metrics`` (names among ``self.metrics``)."""
        if self.cross_validated:
            return fold_scores_from_cross_validate(self.results, metrics)
        return fold_scores_from_cv_results(
            self.results, metrics, splitter=self.splitter
        )


def read_search(results: Any) -> SearchResults:
    """The results of a fitted search, a cv_results_ dict or a mapping name ->
    cross_validate result, with the metric names they hold."""
    if (
        hasattr(results, "cv_results_")
        or hasattr(results, "param_grid")
        or hasattr(results, "param_distributions")
    ):
        if not hasattr(results, "cv_results_"):
            raise NotFittedError(
                f"This {type(results).__name__} instance is not fitted yet; call "
                "fit(X, y) before analyze_search (with "
                "scoring=sklearn_macrof1.make_macro_f1_scoring())."
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
        return SearchResults(results, common, False, None, True, True)
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
    return SearchResults(
        cv_results,
        metric_names(cv_results, "mean_test_"),
        halving,
        splitter,
        classifier,
        False,
    )


def _as_sizes(value: Any, name: str, n_folds: int) -> np.ndarray:
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 0:
        arr = np.full(n_folds, float(arr))
    if arr.shape != (n_folds,) or not np.isfinite(arr).all() or (arr <= 0).any():
        raise ValueError(
            f"{name} must be a positive number or one positive number per fold "
            f"({n_folds} folds); got {value!r}."
        )
    return arr


_KFOLD_NAMES = ("KFold", "StratifiedKFold", "RepeatedKFold", "RepeatedStratifiedKFold")


def fold_size_ratio(
    fold_scores: FoldScores,
    n_folds: int,
    *,
    n_train: Any = None,
    n_test: Any = None,
    test_size_ratio: Any = None,
    X: Any = None,
    y: Any = None,
    groups: Any = None,
    classifier: bool = True,
) -> tuple[float, float | None, float | None, str]:
    """``n_test / n_train`` for the correction, with where it came from.

    In order: ``test_size_ratio``; ``n_train`` and ``n_test``; the results'
    fold indices; the splits of ``X, y, groups`` by the search's ``cv``; k-fold
    splitters (an int, ``KFold``, ``StratifiedKFold`` and their repeated forms)
    give ``1 / (k - 1)``, exact up to one sample per fold; shuffle splits with
    fractional sizes give ``test_size / train_size``. Returns the ratio, the
    mean training and test sizes (None when only the ratio is known) and a note.
    """
    if test_size_ratio is not None:
        if n_train is not None or n_test is not None:
            raise ValueError(
                "Pass either test_size_ratio or n_train and n_test, not both."
            )
        if (
            not isinstance(test_size_ratio, numbers.Real)
            or isinstance(test_size_ratio, bool)
            or not math.isfinite(test_size_ratio)
            or test_size_ratio <= 0
        ):
            raise ValueError(
                "test_size_ratio must be a positive number, n_test / n_train (0.25 "
                f"for 5-fold cross-validation); got {test_size_ratio!r}."
            )
        return float(test_size_ratio), None, None, "test_size_ratio given"
    if (n_train is None) != (n_test is None):
        raise ValueError("Pass both n_train and n_test (or test_size_ratio).")
    if n_train is not None:
        tr = _as_sizes(n_train, "n_train", n_folds)
        te = _as_sizes(n_test, "n_test", n_folds)
        return _ratio(tr, te, "n_train and n_test given")
    if fold_scores.n_train is not None and fold_scores.n_test is not None:
        return _ratio(fold_scores.n_train, fold_scores.n_test, fold_scores.size_note)
    cv = fold_scores.splitter
    if X is not None:
        from sklearn.model_selection import check_cv

        splits = list(check_cv(cv, y, classifier=classifier).split(X, y, groups))
        if len(splits) != n_folds:
            raise ValueError(
                f"The search's cv splits X into {len(splits)} folds but its results "
                f"hold {n_folds}; pass the X, y (and groups) the search was fitted "
                "on, or n_train and n_test."
            )
        tr = np.array([len(a) for a, _ in splits], dtype=np.float64)
        te = np.array([len(b) for _, b in splits], dtype=np.float64)
        return _ratio(tr, te, "fold sizes from the search's cv applied to X, y")
    name = type(cv).__name__
    k = n_repeats = 0
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        k, n_repeats = int(cv), 1
        what = f"{k}-fold cross-validation"
    elif name in _KFOLD_NAMES:
        n_repeats = int(getattr(cv, "n_repeats", 1))
        k = int(cv.get_n_splits()) // n_repeats
        what = f"{name} with {k} folds"
    if k * n_repeats == n_folds and k >= 2:
        return 1 / (k - 1), None, None, f"{what}: n_test/n_train = 1/{k - 1}"
    if name in ("ShuffleSplit", "StratifiedShuffleSplit"):
        test = getattr(cv, "test_size", None)
        train = getattr(cv, "train_size", None)
        if test is None and isinstance(train, float):
            test = 1 - train
        if isinstance(test, float) and train is None:
            train = 1 - test
        if isinstance(test, float) and isinstance(train, float):
            return test / train, None, None, f"{name}: test_size / train_size"
    raise ValueError(
        "The corrected t-test needs the ratio n_test / n_train of the folds, which "
        f"cannot be read from these results (cv={cv!r}). Pass n_train= and "
        "n_test= (per fold or typical sizes), or test_size_ratio=n_test/n_train; "
        "for a search, X= and y= (the data it was fitted on); for cross_validate, "
        "call it with return_indices=True."
    )


def _ratio(
    n_train: np.ndarray, n_test: np.ndarray, note: str
) -> tuple[float, float, float, str]:
    tr, te = float(n_train.mean()), float(n_test.mean())
    return te / tr, tr, te, note


# --- the analysis ------------------------------------------------------------

_S = TypeVar("_S", bound="SearchStatistics")


@dataclass(frozen=True, eq=False)
class SearchStatistics:
    """The numbers of a search analysis under two formulas: the fields of
    ``sklearn_macrof1.SearchAnalysis`` (documented there, which adds what they
    say and their views), computed by :meth:`_from_fold_scores`."""

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

    def _per_candidate(self) -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray]]:
        """Under each formula ("averaged", then "of_averages"): each
        candidate's mean fold score, the standard deviation of its fold scores
        and its rank by the mean (scikit-learn's ``rank_test_*``)."""
        out = []
        for key, scores in (
            ("averaged", self.averaged_scores),
            ("of_averages", self.of_averages_scores),
        ):
            mean = scores.mean(axis=1)
            std = scores.std(axis=1, ddof=1)
            out.append((key, mean, std, rank_candidates(mean)))
        return out

    @classmethod
    def _from_fold_scores(
        cls: type[_S],
        scores: FoldScores,
        averaged_metric: str,
        of_averages_metric: str,
        *,
        beta: float | None,
        average: str | None,
        formulas: tuple[str, str],
        confidence: float,
        classifier: bool,
        **sizes: Any,
    ) -> _S:
        """Best candidate under each formula, rank agreement and corrected t-tests
        of the fold scores of the two metrics; candidates with a nan fold score
        are left out. ``formulas`` names the two formulas in the tests;
        ``sizes`` are the fold-size options of :func:`fold_size_ratio`."""
        a_all = scores.scores[averaged_metric]
        b_all = scores.scores[of_averages_metric]
        n_folds = int(a_all.shape[1])
        if n_folds < 2:
            raise ValueError(
                f"The results hold {n_folds} fold; the corrected t-test needs at "
                "least 2 (use cv=3 or more, or a splitter with n_splits >= 2)."
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
            scores, n_folds, classifier=classifier, **sizes
        )
        avg_name, foa_name = formulas
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
        return cls(
            candidates=candidates,
            averaged_metric=averaged_metric,
            of_averages_metric=of_averages_metric,
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
