"""sklearn-macrof1: both macro F1s, with scikit-learn's semantics, from one pass.

"Macro F1" means two different things in the literature:

- **averaged F1** (:func:`averaged_f1_score`): the arithmetic mean of per-class F1,
  what ``sklearn.metrics.f1_score`` computes;
- **F1 of averages** (:func:`f1_of_averages_score`): the harmonic mean of the
  averaged precision and averaged recall.

They can differ by up to 0.5 and rank classifiers differently (Opitz & Burst,
"Macro F1 and Macro F1"). This package computes both, exactly, for every
``average`` scikit-learn knows, plus their gap, its closed form and its bound.
"""

from ._counting._record import MacroF1Counts
from ._decisions import (
    DecisionRule,
    GamedScoreWarning,
    MacroF1TunedClassifierCV,
    tune_decision_rule,
)
from ._formulas._paper import gap_bound, gap_closed_form, supremum_confusion_matrix
from ._plot._display import MacroF1Display
from ._plot._search_analysis import SearchAnalysisDisplay
from ._results._accumulator import MacroF1Accumulator
from ._results._compute_metrics import make_compute_metrics
from ._results._gap_attribution import GapAttribution
from ._results._report import classification_report
from ._results._scorers import (
    get_scorer,
    get_scorer_names,
    make_averaged_fbeta_scorer,
    make_fbeta_of_averages_scorer,
    make_macro_f1_scoring,
)
from ._results._scores import (
    averaged_f1_score,
    averaged_fbeta_score,
    f1_of_averages_score,
    fbeta_of_averages_score,
    fbeta_summary,
)
from ._results._search_analysis import SearchAnalysis, analyze_search
from ._results._summary import FBetaSummary
from ._stats._comparison import (
    ClassifierComparison,
    MultipleComparison,
    ScoreDifference,
    compare_classifiers,
)
from ._stats._intervals import (
    CoverageWarning,
    FBetaInterval,
    ScoreInterval,
    fbeta_confidence_interval,
)
from ._version import __version__ as __version__

__all__ = [
    "ClassifierComparison",
    "CoverageWarning",
    "DecisionRule",
    "FBetaInterval",
    "FBetaSummary",
    "GamedScoreWarning",
    "GapAttribution",
    "ScoreDifference",
    "ScoreInterval",
    "SearchAnalysis",
    "SearchAnalysisDisplay",
    "MacroF1Accumulator",
    "MacroF1Counts",
    "MacroF1Display",
    "MacroF1TunedClassifierCV",
    "MultipleComparison",
    "analyze_search",
    "averaged_f1_score",
    "averaged_fbeta_score",
    "classification_report",
    "compare_classifiers",
    "f1_of_averages_score",
    "fbeta_of_averages_score",
    "fbeta_confidence_interval",
    "fbeta_summary",
    "gap_closed_form",
    "gap_bound",
    "get_scorer",
    "get_scorer_names",
    "make_averaged_fbeta_scorer",
    "make_compute_metrics",
    "make_fbeta_of_averages_scorer",
    "make_macro_f1_scoring",
    "supremum_confusion_matrix",
    "tune_decision_rule",
]
