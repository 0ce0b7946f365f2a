"""Checked by mypy (``[tool.mypy] files``), never run: the public return types.

An averaged mode gives a ``float``; ``average=None`` gives per-class
``NDArray[np.float64]``. Assigning a result to a variable of the wrong type is a
mypy error here.
"""

import numpy as np
from numpy.typing import NDArray

from sklearn_macrof1 import (
    ClassifierComparison,
    FBetaInterval,
    FBetaSummary,
    MacroF1Counts,
    MultipleComparison,
    averaged_f1_score,
    averaged_fbeta_score,
    compare_classifiers,
    f1_of_averages_score,
    fbeta_confidence_interval,
    fbeta_of_averages_score,
    fbeta_summary,
)

y = [0, 1, 1]
a: float = averaged_f1_score(y, y)
b: float = f1_of_averages_score(y, y, average="weighted")
c: float = averaged_fbeta_score(y, y, beta=2.0, average="micro")
mode: str = "macro"
d: float = fbeta_of_averages_score(y, y, beta=0.5, average=mode)
e: NDArray[np.float64] = averaged_f1_score(y, y, average=None)
f: NDArray[np.float64] = f1_of_averages_score(y, y, average=None)
g: NDArray[np.float64] = averaged_fbeta_score(y, y, beta=2.0, average=None)
h: NDArray[np.float64] = fbeta_of_averages_score(y, y, beta=2.0, average=None)

# The same verbs given a count record in place of y_true (y_pred omitted).
counts = MacroF1Counts.from_predictions([0, 1, 1, 0], [0, 1, 0, 0])
i: float = averaged_f1_score(counts)
j: float = fbeta_of_averages_score(counts, beta=0.5, average=mode)
k: NDArray[np.float64] = averaged_fbeta_score(counts, beta=2.0, average=None)
l_: NDArray[np.float64] = f1_of_averages_score(counts, average=None)
s: FBetaSummary = fbeta_summary(counts)
ci: FBetaInterval = fbeta_confidence_interval(counts)
merged: MacroF1Counts = counts + MacroF1Counts.from_confusion_matrix(
    [[1, 0], [0, 1]], rows="true"
)

# compare_classifiers: one return type per call form (the number of predictions).
pair: ClassifierComparison = compare_classifiers(y, y, y, names=("a", "b"))
every_pair: MultipleComparison = compare_classifiers(y, y, y, y, method="delta")
more: MultipleComparison = compare_classifiers(y, y, y, y, y, y)
