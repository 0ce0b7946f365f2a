"""Scorers for ``scoring=``: both macro F1s where models are chosen.

The scorers are ``sklearn.metrics.make_scorer`` objects around the public score
functions, so they work wherever scikit-learn takes a scorer
(``GridSearchCV``, ``RandomizedSearchCV``, ``cross_val_score``,
``cross_validate``, pipelines), pickle for ``n_jobs`` worker processes and take
``sample_weight`` through metadata routing (``set_score_request``).

Scorer names
------------
``get_scorer`` knows, besides every name of ``sklearn.metrics.get_scorer``::

    averaged_f<beta>_<average>      mean of per-class F-beta (= sklearn's f1_<average>)
    f<beta>_of_averages_<average>   F-beta of averaged precision and recall

with ``<average>`` one of ``binary``, ``micro``, ``macro``, ``weighted``,
``samples`` and ``<beta>`` a positive number written in decimal (``1``, ``2``,
``0.5``, ...): ``"f1_of_averages_macro"``, ``"averaged_f1_weighted"``,
``"f2_of_averages_samples"``, ``"averaged_f0.5_macro"``.
"""

from __future__ import annotations

import math
import re
from typing import Any

from sklearn.metrics import get_scorer as _sklearn_get_scorer
from sklearn.metrics import get_scorer_names as _sklearn_get_scorer_names
from sklearn.metrics import make_scorer

from .._averages import AVERAGES
from .._formulas._evaluation import check_options
from ._scores import (
    averaged_f1_score,
    averaged_fbeta_score,
    f1_of_averages_score,
    fbeta_of_averages_score,
)

#: The betas :func:`get_scorer_names` lists (any positive beta is accepted).
LISTED_BETAS = (1.0, 2.0, 0.5)

_BETA = r"(?P<beta>(?:0|[1-9][0-9]*)(?:\.[0-9]+)?)"
_AVERAGE = "(?P<average>" + "|".join(AVERAGES) + ")"
_PATTERNS = {
    "averaged": re.compile(rf"averaged_f{_BETA}_{_AVERAGE}"),
    "of_averages": re.compile(rf"f{_BETA}_of_averages_{_AVERAGE}"),
}


def scorer_name(kind: str, *, beta: float = 1.0, average: str = "macro") -> str:
    """The ``get_scorer`` name of a scorer (``kind`` "averaged" or "of_averages")."""
    if kind == "averaged":
        return f"averaged_f{beta:g}_{average}"
    return f"f{beta:g}_of_averages_{average}"


#: The score functions of each kind: (F1, F-beta).
_FUNCTIONS = {
    "averaged": (averaged_f1_score, averaged_fbeta_score),
    "of_averages": (f1_of_averages_score, fbeta_of_averages_score),
}


def _build_scorer(
    kind: str,
    caller: str,
    *,
    beta: Any = 1.0,
    average: Any = "macro",
    labels: Any = None,
    pos_label: Any = 1,
    zero_division: Any = "warn",
) -> Any:
    """``make_scorer`` around the score function of ``kind``, its options
    validated now (not inside a search, where errors become nan scores)."""
    options = check_options(
        caller=caller,
        average=average,
        beta=beta,
        zero_division=zero_division,
        labels=labels,
        pos_label=pos_label,
    )
    kwargs: dict[str, Any] = {"average": options.average}
    if options.beta != 1:
        kwargs["beta"] = options.beta
    if labels is not None:
        kwargs["labels"] = labels
    if options.average != "binary" and pos_label == 1:
        # pos_label means nothing here; None (as scikit-learn's own "f1_macro"
        # scorer has) stops scikit-learn < 1.6 from checking the default
        # pos_label=1 against the classes, which fails for string labels.
        kwargs["pos_label"] = None
    elif pos_label != 1:
        kwargs["pos_label"] = pos_label
    if not (isinstance(zero_division, str) and zero_division == "warn"):
        kwargs["zero_division"] = zero_division
    f1_function, fbeta_function = _FUNCTIONS[kind]
    return make_scorer(fbeta_function if "beta" in kwargs else f1_function, **kwargs)


def make_averaged_fbeta_scorer(
    *,
    beta: float = 1.0,
    average: str | None = "macro",
    labels: Any = None,
    pos_label: Any = 1,
    zero_division: Any = "warn",
) -> Any:
    """Scorer of the averaged F-beta (per-class mean).

    For ``average="macro"`` and ``beta=1`` this is the macro F1 of
    ``sklearn.metrics.f1_score`` and of the ``"f1_macro"`` scorer.

    Parameters
    ----------
    beta : float, default=1.0
        Weight of recall against precision (1 gives F1).
    average : {"macro", "micro", "weighted", "samples", "binary"} or None, \
default="macro"
        As in ``sklearn.metrics.fbeta_score``. ``"samples"`` needs multilabel
        targets (``MultiOutputClassifier``, ``OneVsRestClassifier`` on indicator
        matrices ...), ``"binary"`` two classes and ``pos_label``.
    labels : array-like, default=None
        The labels to average over (column indices for multilabel targets).
    pos_label : int, float, bool or str, default=1
        The positive class for ``average="binary"`` (a string with string labels).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of ill-defined ratios (small CV folds often have some).

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y_true, sample_weight=None)``, a scikit-learn
        scorer: it calls ``estimator.predict(X)``, pickles, and accepts
        ``set_score_request(sample_weight=True)`` under metadata routing.

    See Also
    --------
    make_fbeta_of_averages_scorer : The other macro F-beta.
    get_scorer : Both scorers (and scikit-learn's) by name.

    Examples
    --------
    >>> from sklearn.datasets import load_wine
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_macrof1 import make_averaged_fbeta_scorer
    >>> X, y = load_wine(return_X_y=True)
    >>> scorer = make_averaged_fbeta_scorer(beta=2.0, average="weighted")
    >>> scorer
    make_scorer(averaged_fbeta_score, response_method='predict', \
average=weighted, beta=2.0, pos_label=None)
    >>> cross_val_score(DecisionTreeClassifier(random_state=0), X, y, cv=3,
    ...                 scoring=scorer).round(3)
    array([0.776, 0.824, 0.932])
    """
    return _build_scorer("averaged", "make_averaged_fbeta_scorer", **locals())


def make_fbeta_of_averages_scorer(
    *,
    beta: float = 1.0,
    average: str | None = "macro",
    labels: Any = None,
    pos_label: Any = 1,
    zero_division: Any = "warn",
) -> Any:
    """Scorer of the F-beta of averages.

    The F-beta (weighted harmonic mean) of the averaged precision and the
    averaged recall, ``(1 + b²) P R / (b² P + R)``: the other "macro F1".

    Parameters
    ----------
    beta : float, default=1.0
        Weight of recall against precision (1 gives F1).
    average : {"macro", "micro", "weighted", "samples", "binary"} or None, \
default="macro"
        As in ``sklearn.metrics.fbeta_score``. ``"samples"`` needs multilabel
        targets (``MultiOutputClassifier``, ``OneVsRestClassifier`` on indicator
        matrices ...), ``"binary"`` two classes and ``pos_label``.
    labels : array-like, default=None
        The labels to average over (column indices for multilabel targets).
    pos_label : int, float, bool or str, default=1
        The positive class for ``average="binary"`` (a string with string labels).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of ill-defined ratios (small CV folds often have some).

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y_true, sample_weight=None)``, a scikit-learn
        scorer: it calls ``estimator.predict(X)``, pickles, and accepts
        ``set_score_request(sample_weight=True)`` under metadata routing.

    See Also
    --------
    make_averaged_fbeta_scorer : The mean of per-class F-beta.
    get_scorer : Both scorers (and scikit-learn's) by name.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_macrof1 import make_fbeta_of_averages_scorer
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [2, 3, 4]},
    ...     scoring=make_fbeta_of_averages_scorer(), cv=3).fit(X, y)
    >>> search.best_params_
    {'max_depth': 4}
    """
    return _build_scorer("of_averages", "make_fbeta_of_averages_scorer", **locals())


def _parse(name: str) -> tuple[str, float, str] | None:
    for kind, pattern in _PATTERNS.items():
        match = pattern.fullmatch(name)
        if match is not None:
            beta = float(match["beta"])
            if beta == 0 or math.isinf(beta):
                return None
            return kind, beta, match["average"]
    return None


def get_scorer(scoring: Any) -> Any:
    """A scorer from its name: ours, or any name ``sklearn.metrics.get_scorer`` knows.

    A drop-in replacement for ``sklearn.metrics.get_scorer``: it adds the names
    ``averaged_f<beta>_<average>`` (mean of per-class F-beta) and
    ``f<beta>_of_averages_<average>`` (F-beta of averaged precision and
    recall), with ``<average>`` one of binary, micro, macro, weighted, samples
    and ``<beta>`` a positive decimal number (``1``, ``2``, ``0.5`` ...). Every
    other string, a callable or None goes to scikit-learn's ``get_scorer``.

    Parameters
    ----------
    scoring : str, callable or None
        A scorer name (see :func:`get_scorer_names`), a scorer, or None.

    Returns
    -------
    scorer : callable
        A new scorer object for a name of ours; scikit-learn's answer otherwise.

    Raises
    ------
    ValueError
        For a name neither we nor scikit-learn know.

    Examples
    --------
    >>> from sklearn_macrof1 import get_scorer
    >>> get_scorer("f1_of_averages_macro")
    make_scorer(f1_of_averages_score, response_method='predict', average=macro, \
pos_label=None)
    >>> get_scorer("averaged_f2_weighted")
    make_scorer(averaged_fbeta_score, response_method='predict', \
average=weighted, beta=2.0, pos_label=None)
    >>> get_scorer("accuracy")
    make_scorer(accuracy_score, response_method='predict')
    """
    if isinstance(scoring, str):
        parsed = _parse(scoring)
        if parsed is not None:
            kind, beta, average = parsed
            if kind == "averaged":
                return make_averaged_fbeta_scorer(beta=beta, average=average)
            return make_fbeta_of_averages_scorer(beta=beta, average=average)
        try:
            return _sklearn_get_scorer(scoring)
        except ValueError as exc:
            raise ValueError(
                f"{scoring!r} is not a valid scoring value. sklearn-macrof1 knows "
                "'averaged_f<beta>_<average>' and 'f<beta>_of_averages_<average>' "
                f"with <average> in {list(AVERAGES)} and <beta> a positive "
                "decimal number (e.g. 'f1_of_averages_macro', "
                "'averaged_f0.5_weighted'), and every scikit-learn name; use "
                "sklearn_macrof1.get_scorer_names() to list them."
            ) from exc
    return _sklearn_get_scorer(scoring)


def get_scorer_names() -> list[str]:
    """Every scorer name :func:`get_scorer` knows, ours and scikit-learn's.

    Ours are listed for beta 1, 2 and 0.5; :func:`get_scorer` accepts any
    positive beta.

    Returns
    -------
    names : list of str
        Sorted.

    Examples
    --------
    >>> from sklearn_macrof1 import get_scorer_names
    >>> [n for n in get_scorer_names() if n.endswith("_macro") and "f1" in n]
    ['averaged_f1_macro', 'f1_macro', 'f1_of_averages_macro']
    """
    ours = [
        scorer_name(kind, beta=beta, average=average)
        for kind in _PATTERNS
        for beta in LISTED_BETAS
        for average in AVERAGES
    ]
    return sorted(set(ours) | set(_sklearn_get_scorer_names()))


def make_macro_f1_scoring(*, zero_division: Any = "warn") -> dict[str, Any]:
    """A new multi-metric ``scoring=`` mapping with both macro F1s.

    ``{"averaged_f1": <mean of per-class F1>, "f1_of_averages": <F1 of macro
    precision and recall>}``: pass it as ``scoring=`` to ``GridSearchCV``,
    ``RandomizedSearchCV`` (with ``refit="averaged_f1"`` or
    ``refit="f1_of_averages"``) or ``cross_validate``; the results have keys
    ``mean_test_averaged_f1`` / ``test_f1_of_averages`` and so on. Each call
    returns new scorer objects, so ``set_score_request`` on them changes no one
    else's.

    Parameters
    ----------
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of ill-defined ratios.

    Returns
    -------
    scoring : dict of str to scorer

    Examples
    --------
    >>> from sklearn.datasets import load_wine
    >>> from sklearn.model_selection import cross_validate
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_macrof1 import make_macro_f1_scoring
    >>> X, y = load_wine(return_X_y=True)
    >>> tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    >>> result = cross_validate(tree, X, y, cv=3, scoring=make_macro_f1_scoring())
    >>> result["test_averaged_f1"].round(3), result["test_f1_of_averages"].round(3)
    (array([0.801, 0.801, 0.766]), array([0.828, 0.808, 0.823]))
    """
    return {
        name: _build_scorer(kind, "make_macro_f1_scoring", zero_division=zero_division)
        for name, kind in (
            ("averaged_f1", "averaged"),
            ("f1_of_averages", "of_averages"),
        )
    }
