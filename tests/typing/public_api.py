"""Checked by mypy (``[tool.mypy] files``), never run: the public return types.

An averaged mode gives a ``float``; ``average=None`` gives per-class
``NDArray[np.float64]``. Assigning a result to a variable of the wrong type is a
mypy error here.
"""

import numpy as np
from numpy.typing import NDArray

from sklearn_macrof1 import (
    FBetaInterval,
    FBetaSummary,
    MacroF1Counts,
    averaged_f1_score,
    averaged_fbeta_score,
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
