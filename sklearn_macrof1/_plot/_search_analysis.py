"""``SearchAnalysisDisplay``: the figure of a search analysis.

The candidates of :func:`~sklearn_macrof1.analyze_search` at (averaged F-beta,
F-beta of averages); the analysis itself lives in
:mod:`sklearn_macrof1._results._search_analysis`.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .._results._search_analysis import SearchAnalysis, analyze_search
from ._display import check_matplotlib


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
    >>> from sklearn_macrof1 import SearchAnalysisDisplay, make_macro_f1_scoring
    >>> X, y = load_wine(return_X_y=True)
    >>> search = GridSearchCV(
    ...     DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3]},
    ...     scoring=make_macro_f1_scoring(), refit=False, cv=3).fit(X, y)
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


# SearchAnalysis.plot() draws with this class; set from here, the layer above it
SearchAnalysis._display = SearchAnalysisDisplay
