"""Cost of the input guards at n = 1e6: what reading targets safely adds to a call.

The guards (``sklearn_macrof1._read``) make every array the counting core
sees a plain ndarray whose buffer holds exactly its values: ndarray subclasses
viewed as ndarray (np.matrix and masked entries refused), bool arrays holding
bytes other than 0/1 normalised, 1-D labels made C-contiguous in native byte
order, the dtype of the class labels taken as scikit-learn's label set has it,
and sparse matrices checked structurally (every index inside the shape) before
any conversion. For each input kind the script times, side by side in one run,
a whole ``averaged_f1_score`` call and the guard steps alone on the same inputs,
and prints the guards' share of the call.

Run: ``python benchmarks/bench_input_guards.py`` (``--quick``: fewer repetitions).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from _timing import arguments, interleaved

from sklearn_macrof1 import averaged_f1_score
from sklearn_macrof1._read import _arrays, _encoding

N = 1_000_000


def _cases(rng: np.random.Generator) -> dict[str, tuple]:
    k = 10
    yt = rng.integers(0, k, N)
    yp = np.where(rng.random(N) < 0.7, yt, rng.integers(0, k, N))
    ml_t = rng.random((N, 10)) < 0.1
    ml_p = rng.random((N, 10)) < 0.1
    return {
        "int64, 10 classes": (yt, yp),
        "int8 vs int64 (label dtype check)": (yt.astype(np.int8), yp),
        "bool (byte check)": (yt < 5, yp < 5),
        "float64, 10 classes": (yt.astype(float), yp.astype(float)),
        "int64, strided view (copied)": (
            np.repeat(yt, 2)[::2],
            np.repeat(yp, 2)[::2],
        ),
        "multilabel CSR 1e6 x 10 (structure check)": (
            sp.csr_matrix(ml_t),
            sp.csr_matrix(ml_p),
        ),
    }


def _guards(yt: object, yp: object) -> None:
    """The guard steps of one call, on the inputs as the call receives them."""
    for y, name in ((yt, "y_true"), (yp, "y_pred")):
        y = _arrays.to_array(y, name)  # subclass / bool / sparse structure
        if isinstance(y, np.ndarray) and y.ndim == 1:
            _encoding._native(y)
    if isinstance(yt, np.ndarray) and yt.dtype != yp.dtype:
        _encoding.class_label_dtype(
            yt.dtype, yp.dtype, lambda: _encoding._adds_label(yt, yp, 256)
        )


def main() -> None:
    args = arguments(__doc__)
    repeats = 3 if args.quick else 7
    rng = np.random.default_rng(0)
    print(f"n = {N:,}; median of {repeats} interleaved measurements")
    print(f"{'input':44} {'call (ms)':>10} {'guards (ms)':>12} {'share':>7}")
    for name, (yt, yp) in _cases(rng).items():
        times = interleaved(
            {
                "call": lambda yt=yt, yp=yp: averaged_f1_score(yt, yp),
                "guards": lambda yt=yt, yp=yp: _guards(yt, yp),
            },
            repeats=repeats,
            budget=0.2,
        )
        call, guards = times["call"] * 1e3, times["guards"] * 1e3
        print(f"{name:44} {call:10.2f} {guards:12.3f} {guards / call:7.1%}")


if __name__ == "__main__":
    main()
