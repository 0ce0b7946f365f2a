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

from ._core._paper import gap_closed_form, gap_supremum, supremum_confusion_matrix
from ._decisions import DecisionRule, MacroF1TunedClassifierCV, tune_decision_rule
from ._inference._comparison import (
    ClassifierComparison,
    MultipleComparison,
    ScoreDifference,
    compare_classifiers,
)
from ._inference._intervals import (
    FBetaInterval,
    ScoreInterval,
    fbeta_confidence_interval,
)
from ._presentation._accumulator import MacroF1Accumulator
from ._presentation._attribution import GapAttribution
from ._presentation._confusion import (
    fbeta_summary_from_confusion_matrix,
    gap_attribution_from_confusion_matrix,
)
from ._presentation._display import MacroF1Display
from ._presentation._report import (
    classification_report,
    classification_report_from_confusion_matrix,
)
from ._presentation._scorers import (
    MACRO_F1_SCORING,
    get_scorer,
    get_scorer_names,
    make_averaged_fbeta_scorer,
    make_fbeta_of_averages_scorer,
    make_macro_f1_scoring,
)
from ._presentation._scores import (
    averaged_f1_score,
    averaged_fbeta_score,
    f1_of_averages_score,
    fbeta_of_averages_score,
    fbeta_summary,
)
from ._presentation._search import (
    SearchAnalysis,
    SearchAnalysisDisplay,
    analyze_search,
)
from ._presentation._spark import (
    averaged_f1_score_spark,
    averaged_fbeta_score_spark,
    classification_report_spark,
    f1_of_averages_score_spark,
    fbeta_confidence_interval_spark,
    fbeta_of_averages_score_spark,
    fbeta_summary_spark,
)
from ._presentation._summary import FBetaSummary
from ._version import __version__ as __version__

__all__ = [
    "ClassifierComparison",
    "DecisionRule",
    "FBetaInterval",
    "FBetaSummary",
    "GapAttribution",
    "ScoreDifference",
    "ScoreInterval",
    "SearchAnalysis",
    "SearchAnalysisDisplay",
    "MACRO_F1_SCORING",
    "MacroF1Accumulator",
    "MacroF1Display",
    "MacroF1TunedClassifierCV",
    "MultipleComparison",
    "analyze_search",
    "averaged_f1_score",
    "averaged_f1_score_spark",
    "averaged_fbeta_score",
    "averaged_fbeta_score_spark",
    "classification_report",
    "classification_report_from_confusion_matrix",
    "classification_report_spark",
    "compare_classifiers",
    "f1_of_averages_score",
    "f1_of_averages_score_spark",
    "fbeta_of_averages_score",
    "fbeta_of_averages_score_spark",
    "fbeta_confidence_interval",
    "fbeta_confidence_interval_spark",
    "fbeta_summary",
    "fbeta_summary_from_confusion_matrix",
    "fbeta_summary_spark",
    "gap_attribution_from_confusion_matrix",
    "gap_closed_form",
    "gap_supremum",
    "get_scorer",
    "get_scorer_names",
    "make_averaged_fbeta_scorer",
    "make_fbeta_of_averages_scorer",
    "make_macro_f1_scoring",
    "supremum_confusion_matrix",
    "tune_decision_rule",
]


def __getattr__(name: str) -> object:
    # MacroF1Evaluator subclasses pyspark's Evaluator, so defining it imports
    # pyspark (the [spark] extra): it is loaded on first use. It is left out of
    # __all__ so that ``from sklearn_macrof1 import *`` works without pyspark.
    if name == "MacroF1Evaluator":
        try:
            from ._presentation._spark_evaluator import MacroF1Evaluator
        except ImportError as exc:
            raise ImportError(
                "MacroF1Evaluator needs pyspark: pip install "
                '"sklearn-macrof1[spark]" (and Java 17 or later).'
            ) from exc
        return MacroF1Evaluator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
