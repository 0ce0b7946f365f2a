"""The meta-estimator: a classifier whose decisions maximise a macro F-beta."""

from __future__ import annotations

import numbers
import warnings
from inspect import signature
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn import get_config
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    MetaEstimatorMixin,
    clone,
)
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, check_cv
from sklearn.utils import Bunch, _safe_indexing, check_random_state
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted, indexable

from ._inputs import check_options, check_weights
from ._package import InvalidParameterError
from ._rule import DecisionRule, tune

try:  # scikit-learn >= 1.6
    from sklearn.frozen import FrozenEstimator
except ImportError:  # pragma: no cover - scikit-learn 1.5
    FrozenEstimator = None

_RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


def _estimator_has(attr: str) -> Any:
    def check(self: MacroF1TunedClassifierCV) -> bool:
        estimator = getattr(self, "estimator_", self.estimator)
        getattr(estimator, attr)  # AttributeError hides the method
        return True

    return check


def _is_frozen(estimator: Any) -> bool:
    return FrozenEstimator is not None and isinstance(estimator, FrozenEstimator)


class MacroF1TunedClassifierCV(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """Classifier whose decisions are tuned to maximise a macro F-beta.

    ``argmax`` of predicted probabilities maximises accuracy, not macro F1: with
    imbalanced classes it under-predicts the rare ones. This meta-estimator
    learns, from cross-validated predictions of ``estimator``, the decision rule
    with the highest macro F-beta of the formula you report, and applies it in
    ``predict``:

    - multiclass (and binary) targets: ``argmax_j (w_j s_j - b_j)`` over the
      class scores ``s`` (``predict_proba``, or ``decision_function``), weights
      ``w`` and offsets ``b`` found by coordinate ascent;
    - multilabel targets: one threshold per label (``average="macro"`` or
      ``"weighted"``), or one shared threshold (``"micro"``, ``"samples"``).

    It is the multiclass and multilabel counterpart of scikit-learn's
    ``TunedThresholdClassifierCV`` for the two macro F-betas. The method, its
    sources and a benchmark: the page "Raising macro F1 by choosing decisions"
    of the documentation; the same tuning on scores you already hold:
    :func:`tune_decision_rule`.

    By default the tuned rule must earn its place: it is kept only if it beats
    argmax (thresholds 0.5 / 0 for multilabel targets) on held-out folds of the
    out-of-fold predictions beyond the folds' noise (``selection_cv``), so that
    a small training set does not leave you worse off than the plain
    classifier.

    Parameters
    ----------
    estimator : estimator instance
        The classifier, with ``predict_proba`` or ``decision_function``. Wrap a
        fitted classifier in ``sklearn.frozen.FrozenEstimator`` to tune its rule
        on held-out data: ``fit(X_holdout, y_holdout)`` then tunes on all of it,
        fits nothing, and ignores ``cv`` and ``refit``.
    formula : {"averaged", "of_averages"}, default="averaged"
        The score maximised: averaged F-beta (mean of per-class F-beta, as
        ``sklearn.metrics.f1_score``) or F-beta of averages (F-beta of the
        averaged precision and recall).
    beta : float, default=1.0
        Weight of recall against precision.
    average : {"macro", "weighted", "micro", "binary", "samples"}, default="macro"
        As in the score functions ("binary": binary targets; "samples":
        multilabel ones).
    labels : array-like, default=None
        The labels averaged (column indices for multilabel targets); by default
        those present in the targets or predictions.
    pos_label : int, float, bool or str, default=1
        The class scored with ``average="binary"``.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of ill-defined ratios, as in the score functions ("warn" acts as 0).
    response_method : {"auto", "predict_proba", "decision_function"}, \
default="auto"
        The scores the rule is learned on; "auto" tries ``predict_proba`` then
        ``decision_function``.
    cv : int, float, cross-validation generator or iterable, default=None
        How the cross-validated predictions are made: None for 5 folds
        (stratified for multiclass targets), an int for that many folds, a float
        in (0, 1) for one shuffled split keeping that fraction for tuning, or
        any scikit-learn splitter or iterable of (train, test) indices. The rule
        is tuned on the pooled out-of-fold scores.
    refit : bool, default=True
        Refit ``estimator`` on all the data after tuning (the rule is applied to
        its scores). ``False`` keeps the model of the single split (only with
        one split).
    smoothing : float, default=1.0
        Guard against over-fitting rare classes: pseudo-predictions added to
        each class's precision and F-beta while searching (see
        :func:`tune_decision_rule`); 0 maximises the in-sample score.
    selection_cv : "auto", int or None, default="auto"
        Rule selection: with ``n`` folds of the out-of-fold scores, the rule
        left as it is (argmax, or thresholds 0.5 / 0), the rule tuned for
        averaged F-beta and, for ``formula="of_averages"``, the rule tuned for
        F-beta of averages are each tuned on ``n - 1`` folds and scored on the
        other. The procedure with the best mean is refitted on all the
        out-of-fold scores if its mean gain over the untuned rule exceeds
        twice the standard error of that gain across the folds; otherwise the
        untuned rule is kept. "auto" runs 3 folds. None tunes for ``formula`` without
        selection (the in-sample optimum: it over-fits classes with a few
        training samples and can do worse than argmax on new data).
    max_iter : int, default=20
        Most sweeps of coordinate ascent.
    tol : float, default=1e-6
        A sweep raising the objective by ``tol`` or less ends the search.
    n_jobs : int, default=None
        Folds fitted in parallel (joblib); None means 1.
    random_state : int, RandomState instance or None, default=None
        Seeds the split when ``cv`` is a float and the folds of the rule
        selection.

    Attributes
    ----------
    estimator_ : estimator instance
        The fitted classifier whose scores ``predict`` turns into decisions.
    rule_ : DecisionRule
        The tuned rule, with its search (``rule_.candidates``) and selection.
    classes_ : ndarray
        The class labels (column indices for multilabel targets).
    best_score_ : float
        In-sample: the score of the tuned rule on the out-of-fold predictions
        it was tuned on (optimistic, often by points with rare classes).
    held_out_score_ : float
        Held out: the mean score of the chosen procedure on the held-out folds
        of the rule selection, each fold's rule tuned on the other folds (nan
        with ``selection_cv=None``). The estimate to compare with argmax's
        (``rule_.selection["mean_score"][0]``); measure a test set to report.
    n_iter_ : int
        Sweeps of coordinate ascent run by the final tuning (1 when the rule
        selection keeps the untuned rule).
    weights_, offsets_ : ndarray of shape (n_classes,)
        The multiclass rule (absent for multilabel targets).
    thresholds_ : ndarray of shape (n_labels,)
        The multilabel rule (absent for multiclass targets).
    cv_results_ : dict
        The rules the search scored: ``"rule"`` (names), ``"objective"`` (the
        smoothed objective maximised) and ``"score"`` (exact scores).
    n_features_in_ : int
        Number of features seen by ``estimator_``, when it records it.
    feature_names_in_ : ndarray
        Names of those features, when ``estimator_`` records them.

    See Also
    --------
    tune_decision_rule : the tuning on validation scores, without a classifier.
    sklearn.model_selection.TunedThresholdClassifierCV : binary thresholds for
        any scorer.

    Warns
    -----
    GamedScoreWarning
        When the rule tuned for ``formula="of_averages"`` predicts a class or
        label for more than 80 % of the out-of-fold samples while fewer than
        half hold it, or lowers their averaged F-beta by more than 0.01 below
        the untuned rule's; the message names the classes or labels and both
        scores.

    Notes
    -----
    A class absent from the training part of a fold (common with long tails)
    cannot be scored by that fold's model: a ``UserWarning`` names it, and its
    out-of-fold column on that fold's samples is set to probability 0 (with
    ``predict_proba``) or to 1 below the row's lowest decision value (with
    ``decision_function``), so the rule does not predict it there. A label
    without a positive training sample (multilabel targets) is never
    predicted, whatever ``zero_division``.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import train_test_split
    >>> from sklearn_macrof1 import MacroF1TunedClassifierCV, averaged_f1_score
    >>> X, y = make_classification(
    ...     n_samples=4000, n_classes=4, n_informative=6,
    ...     weights=[0.7, 0.2, 0.07, 0.03], random_state=0,
    ... )
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> plain = LogisticRegression(max_iter=1000).fit(X_train, y_train)
    >>> tuned = MacroF1TunedClassifierCV(LogisticRegression(max_iter=1000))
    >>> tuned = tuned.fit(X_train, y_train)
    >>> round(averaged_f1_score(y_test, plain.predict(X_test)), 3)
    0.427
    >>> round(averaged_f1_score(y_test, tuned.predict(X_test)), 3)
    0.554
    """

    def __init__(
        self,
        estimator: Any,
        *,
        formula: str = "averaged",
        beta: float = 1.0,
        average: str = "macro",
        labels: Any = None,
        pos_label: Any = 1,
        zero_division: Any = "warn",
        response_method: str = "auto",
        cv: Any = None,
        refit: bool = True,
        smoothing: float = 1.0,
        selection_cv: Any = "auto",
        max_iter: int = 20,
        tol: float = 1e-6,
        n_jobs: int | None = None,
        random_state: Any = None,
    ) -> None:
        self.estimator = estimator
        self.formula = formula
        self.beta = beta
        self.average = average
        self.labels = labels
        self.pos_label = pos_label
        self.zero_division = zero_division
        self.response_method = response_method
        self.cv = cv
        self.refit = refit
        self.smoothing = smoothing
        self.selection_cv = selection_cv
        self.max_iter = max_iter
        self.tol = tol
        self.n_jobs = n_jobs
        self.random_state = random_state

    # ------------------------------------------------------------------ fit
    def _response_methods(self) -> list[str]:
        name = type(self).__name__
        if not (
            isinstance(self.response_method, str)
            and self.response_method in _RESPONSE_METHODS
        ):
            raise InvalidParameterError(
                f"The 'response_method' parameter of {name} must be a str among "
                f"{{'auto', 'predict_proba', 'decision_function'}}. Got "
                f"{self.response_method!r} instead."
            )
        wanted = (
            ["predict_proba", "decision_function"]
            if self.response_method == "auto"
            else [self.response_method]
        )
        available = [m for m in wanted if hasattr(self.estimator, m)]
        if not hasattr(self.estimator, "fit") or not available:
            raise InvalidParameterError(
                f"The 'estimator' parameter of {name} must be a classifier with "
                f"{' or '.join(wanted)}; {type(self.estimator).__name__} has "
                f"{'no fit method' if not hasattr(self.estimator, 'fit') else 'none'}."
            )
        return available

    def fit(
        self, X: Any, y: Any, sample_weight: Any = None, **fit_params: Any
    ) -> MacroF1TunedClassifierCV:
        """Fit the classifier on cross-validation folds and tune the rule.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data, as ``estimator`` accepts it.
        y : array-like of shape (n_samples,) or (n_samples, n_labels)
            Class labels, or a 0/1 indicator matrix for multilabel targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the tuned score; also passed to
            ``estimator.fit`` when it accepts them (or, with metadata routing
            enabled, when requested with ``set_fit_request``).
        **fit_params : dict
            Passed to ``estimator.fit`` (with routing enabled: routed to it and
            to the splitter as requested).

        Returns
        -------
        self : object
        """
        name = type(self).__name__
        options = check_options(
            caller=name,
            formula=self.formula,
            beta=self.beta,
            average=self.average,
            zero_division=self.zero_division,
            smoothing=self.smoothing,
            max_iter=self.max_iter,
            tol=self.tol,
            selection_cv=self.selection_cv,
        )
        methods = self._response_methods()
        if not isinstance(self.refit, bool | np.bool_):
            raise InvalidParameterError(
                f"The 'refit' parameter of {name} must be an instance of 'bool'. "
                f"Got {self.refit!r} instead."
            )
        X, y = indexable(X, y)
        check_classification_targets(y)
        weight = None
        if sample_weight is not None:
            # Checked before any fold is fitted: the folds index the weights,
            # and an estimator that takes none would never look at them.
            weight = check_weights(sample_weight, _num_samples(y), inputs="X and y")
        multilabel = type_of_target(y) == "multilabel-indicator"
        routed = self._route(sample_weight, fit_params)
        random_state = check_random_state(self.random_state)
        split_seed = random_state.randint(np.iinfo(np.int32).max)
        rows: np.ndarray | None = None
        if _is_frozen(self.estimator):
            self.estimator_ = self.estimator
            scores, method = _response(self.estimator_, X, methods)
            classes = None if multilabel else self.estimator_.classes_
        else:
            scores, method, rows = self._cross_validated(
                X, y, methods, routed, multilabel, split_seed
            )
            classes = None if multilabel else np.unique(np.asarray(y))
        self._method = method
        y_tune, weight_tune = y, weight
        if rows is not None:  # the samples of the test folds, in fold order
            y_tune = _safe_indexing(y, rows)
            if weight is not None:
                weight_tune = weight[rows]
        self.rule_ = tune(
            y_tune,
            scores,
            options=options,
            labels=self.labels,
            pos_label=self.pos_label,
            classes=classes,
            sample_weight=weight_tune,
            random_state=random_state.randint(np.iinfo(np.int32).max),
        )
        if hasattr(self.estimator_, "n_features_in_"):
            self.n_features_in_ = self.estimator_.n_features_in_
        if hasattr(self.estimator_, "feature_names_in_"):
            self.feature_names_in_ = self.estimator_.feature_names_in_
        return self

    def _route(self, sample_weight: Any, fit_params: dict[str, Any]) -> Bunch:
        if get_config().get("enable_metadata_routing", False):
            return process_routing(
                self, "fit", sample_weight=sample_weight, **fit_params
            )
        fit_kwargs = dict(fit_params)
        if sample_weight is not None:
            fit = getattr(self.estimator, "fit", None)
            if fit is not None and "sample_weight" in signature(fit).parameters:
                fit_kwargs["sample_weight"] = sample_weight
            elif not _is_frozen(self.estimator):
                warnings.warn(
                    f"{type(self.estimator).__name__}.fit does not accept "
                    "sample_weight: the weights are used by the tuning of the "
                    "decision rule only.",
                    UserWarning,
                    stacklevel=3,
                )
        return Bunch(estimator=Bunch(fit=fit_kwargs), splitter=Bunch(split={}))

    def _splitter(self, y: Any, multilabel: bool, seed: int) -> Any:
        cv = self.cv
        if _is_fraction(cv):
            if not 0 < cv < 1:
                raise InvalidParameterError(
                    f"The 'cv' parameter of {type(self).__name__} must be an int, "
                    "a float in (0, 1), a cross-validation generator or an "
                    f"iterable. Got {cv!r} instead."
                )
            split = ShuffleSplit if multilabel else StratifiedShuffleSplit
            return split(n_splits=1, test_size=cv, random_state=seed)
        return check_cv(cv, y, classifier=True)

    def _cross_validated(
        self,
        X: Any,
        y: Any,
        methods: list[str],
        routed: Bunch,
        multilabel: bool,
        seed: int,
    ) -> tuple[Any, str, np.ndarray]:
        """The pooled out-of-fold scores, the method that gave them, and the
        sample of each row."""
        splitter = self._splitter(y, multilabel, seed)
        splits = list(splitter.split(X, y, **routed.splitter.split))
        if not self.refit and len(splits) > 1:
            raise ValueError(
                "refit=False keeps the model of a single split; cv gives "
                f"{len(splits)} splits. Use refit=True, or cv=0.5 (one split)."
            )
        fit_params = routed.estimator.fit
        n = _num_samples(X)
        classes = None if multilabel else np.unique(np.asarray(y))
        results = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_and_score)(
                clone(self.estimator), X, y, train, test, fit_params, methods, n
            )
            for train, test in splits
        )
        order = np.concatenate([test for _, test in splits])
        if np.unique(order).shape[0] != order.shape[0]:
            raise ValueError(
                "cv must give each sample to at most one test fold (the rule is "
                "tuned on the pooled out-of-fold scores)."
            )
        method = results[0][2]
        parts = []
        for f, (model, fold_scores, _) in enumerate(results):
            if classes is not None:
                fold_scores = _align(fold_scores, model.classes_, classes, method, f)
            parts.append(fold_scores)
        pooled: Any
        if any(sp.issparse(p) for p in parts):
            pooled = sp.vstack([sp.csr_matrix(p) for p in parts]).tocsr()
        else:
            pooled = np.concatenate(parts)
        if self.refit:
            self.estimator_ = clone(self.estimator).fit(X, y, **fit_params)
        else:
            self.estimator_ = results[0][0]
        return pooled, method, order

    # ------------------------------------------------------------- predict
    def _scores(self, X: Any) -> Any:
        check_is_fitted(self, "rule_")
        scores, _ = _response(self.estimator_, X, [self._method])
        if self.rule_.kind == "multiclass":
            scores = _align(
                scores, self.estimator_.classes_, self.classes_, self._method
            )
        return scores

    def predict(self, X: Any) -> Any:
        """Decisions of the tuned rule on the scores of ``estimator_``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,), or (n_samples, n_labels) 0/1
            (sparse when the scores are) for multilabel targets
        """
        scores = self._scores(X)
        return self.rule_.predict(scores)

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X: Any) -> Any:
        """``estimator_.predict_proba(X)``, unchanged."""
        check_is_fitted(self, "rule_")
        return self.estimator_.predict_proba(X)

    @available_if(_estimator_has("predict_log_proba"))
    def predict_log_proba(self, X: Any) -> Any:
        """``estimator_.predict_log_proba(X)``, unchanged."""
        check_is_fitted(self, "rule_")
        return self.estimator_.predict_log_proba(X)

    @available_if(_estimator_has("decision_function"))
    def decision_function(self, X: Any) -> Any:
        """``estimator_.decision_function(X)``, unchanged."""
        check_is_fitted(self, "rule_")
        return self.estimator_.decision_function(X)

    # ---------------------------------------------------------- attributes
    @property
    def classes_(self) -> np.ndarray:
        """The class labels (column indices for multilabel targets)."""
        check_is_fitted(self, "rule_")
        return self.rule_.classes

    @property
    def best_score_(self) -> float:
        """In-sample score of the tuned rule on the out-of-fold predictions it
        was tuned on (optimistic; ``held_out_score_`` is held out)."""
        check_is_fitted(self, "rule_")
        return self.rule_.score

    @property
    def held_out_score_(self) -> float:
        """Mean score of the chosen procedure on the held-out folds of the rule
        selection (nan without one)."""
        check_is_fitted(self, "rule_")
        return self.rule_.held_out_score

    @property
    def n_iter_(self) -> int:
        """Sweeps of coordinate ascent run by the final tuning (1 when the
        rule selection keeps the untuned rule)."""
        check_is_fitted(self, "rule_")
        return max(self.rule_.n_sweeps, 1)

    @property
    def cv_results_(self) -> dict[str, Any]:
        """The rules the search scored (names, objective, exact score)."""
        check_is_fitted(self, "rule_")
        return self.rule_.candidates

    @property
    def weights_(self) -> np.ndarray:
        """Class weights of the multiclass rule."""
        return _rule_part(self, "weights")

    @property
    def offsets_(self) -> np.ndarray:
        """Class offsets of the multiclass rule."""
        return _rule_part(self, "offsets")

    @property
    def thresholds_(self) -> np.ndarray:
        """Label thresholds of the multilabel rule."""
        return _rule_part(self, "thresholds")

    # ------------------------------------------------------------- routing
    def get_metadata_routing(self) -> MetadataRouter:
        """Metadata routing: ``sample_weight`` is used by the tuning, and routed
        with the other metadata to ``estimator.fit`` and the splitter's
        ``split`` as they request it.

        Returns
        -------
        routing : MetadataRouter
        """
        return (
            MetadataRouter(owner=self)
            .add_self_request(self)
            .add(
                estimator=self.estimator,
                method_mapping=MethodMapping().add(caller="fit", callee="fit"),
            )
            .add(
                splitter=check_cv(None if _is_fraction(self.cv) else self.cv),
                method_mapping=MethodMapping().add(caller="fit", callee="split"),
            )
        )

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        inner = self.estimator.__sklearn_tags__()
        tags.input_tags.sparse = inner.input_tags.sparse
        tags.classifier_tags.multi_label = inner.classifier_tags.multi_label
        return tags

    def _more_tags(self) -> dict[str, Any]:  # pragma: no cover - scikit-learn 1.5
        inner = getattr(self.estimator, "_get_tags", None)
        multilabel = bool(inner().get("multilabel", False)) if inner else False
        return {"multilabel": multilabel}


def _is_fraction(cv: Any) -> bool:
    return isinstance(cv, numbers.Real) and not isinstance(cv, numbers.Integral)


def _rule_part(estimator: MacroF1TunedClassifierCV, name: str) -> np.ndarray:
    check_is_fitted(estimator, "rule_")
    rule: DecisionRule = estimator.rule_
    value = getattr(rule, name)
    if value is None:
        kind = "multilabel" if rule.kind == "multilabel" else "multiclass"
        raise AttributeError(
            f"{name}_ is not defined for a {kind} rule (multiclass rules have "
            "weights_ and offsets_, multilabel rules thresholds_)."
        )
    return value


def _num_samples(X: Any) -> int:
    return X.shape[0] if hasattr(X, "shape") else len(X)


def _is_per_sample(value: Any, n: int) -> bool:
    """Whether a fit parameter holds one value per sample (then it is split
    with the samples)."""
    if isinstance(value, str) or not (
        hasattr(value, "__len__") or hasattr(value, "__array__")
    ):
        return False
    shape = np.asarray(value).shape
    return len(shape) >= 1 and shape[0] == n


def _response(estimator: Any, X: Any, methods: list[str]) -> tuple[Any, str]:
    """The scores of the first method of ``methods`` that ``estimator`` has;
    a list of (n, 2) probability arrays (multilabel) becomes one (n, L) array."""
    for method in methods:
        if hasattr(estimator, method):
            scores = getattr(estimator, method)(X)
            if isinstance(scores, list):
                scores = np.column_stack([np.asarray(s)[:, -1] for s in scores])
            return scores, method
    raise AttributeError(  # pragma: no cover - checked in fit
        f"{type(estimator).__name__} has none of {methods}."
    )


def _fit_and_score(
    estimator: Any,
    X: Any,
    y: Any,
    train: np.ndarray,
    test: np.ndarray,
    fit_params: dict[str, Any],
    methods: list[str],
    n: int,
) -> tuple[Any, Any, str]:
    params = {
        key: _safe_indexing(np.asarray(value), train)
        if _is_per_sample(value, n)
        else value
        for key, value in fit_params.items()
    }
    estimator.fit(_safe_indexing(X, train), _safe_indexing(y, train), **params)
    scores, method = _response(estimator, _safe_indexing(X, test), methods)
    return estimator, scores, method


def _align(
    scores: Any,
    model_classes: np.ndarray,
    classes: np.ndarray,
    method: str,
    fold: int | None = None,
) -> Any:
    """Scores with one column per class of the target.

    A class the model was not trained on (absent from the training part of a
    fold) gets probability 0, or a decision value below the row's lowest: it is
    not predicted for these samples; a fold's missing class is warned about.
    """
    if sp.issparse(scores):
        scores = scores.toarray()
    scores = np.asarray(scores)
    if len(model_classes) == len(classes) and np.all(model_classes == classes):
        return scores
    if scores.ndim == 1:  # a binary model of a problem with more classes
        scores = np.column_stack((-scores, scores))
    known = set(np.asarray(model_classes).tolist())
    missing = [c for c in classes.tolist() if c not in known]
    if fold is not None and missing:
        warnings.warn(
            f"Class(es) {missing!r} absent from the training part of fold {fold}: "
            f"that fold's model cannot score them, so their out-of-fold {method} "
            "is set to 0 (probabilities) or below the row's lowest decision "
            "value: they are not predicted on that fold's samples. Use fewer "
            "folds or stratified ones.",
            UserWarning,
            stacklevel=5,
        )
    if method == "predict_proba":
        fill = np.zeros((scores.shape[0], 1))
    else:
        fill = scores.min(axis=1, keepdims=True) - 1.0
    full = np.repeat(fill, len(classes), axis=1)
    full[:, np.searchsorted(classes, model_classes)] = scores
    return full
