"""Decisions that maximise a macro F-beta: tuned rules on top of scores."""

from ._estimator import MacroF1TunedClassifierCV
from ._rule import DecisionRule, GamedScoreWarning, tune_decision_rule

__all__ = [
    "DecisionRule",
    "GamedScoreWarning",
    "MacroF1TunedClassifierCV",
    "tune_decision_rule",
]
