"""Checked by mypy (``[tool.mypy] files``), never run: the public return types.

An averaged mode gives a ``float``; ``average=None`` gives per-class
``NDArray[np.float64]``. Assigning a result to a variable of the wrong type is a
mypy error here.
"""

import numpy as np
from numpy.typing import NDArray

from sklearn_macrof1 import (
    averaged_f1_score,
    averaged_fbeta_score,
    f1_of_averages_score,
    fbeta_of_averages_score,
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
