"""Opt-in progress of long resampling runs (scikit-learn's ``verbose``).

``verbose=0`` (every default) prints nothing; ``verbose >= 1`` prints the start,
about every tenth of the work and the end; ``verbose >= 2`` every block. Lines go
to standard error, as scikit-learn's estimators print theirs. Scorers never pass
``verbose``: cross-validation stays silent.
"""

from __future__ import annotations

import sys
import time


class Progress:
    """Reports ``done`` of ``total`` resamples of one call, when asked to."""

    def __init__(self, verbose: int, total: int, *, caller: str, what: str) -> None:
        self.verbose = verbose
        self.total = total
        self.caller = caller
        self.what = what
        self._start = time.perf_counter()
        self._next = 0
        #: resamples done before the current part (several rows of one report)
        self.offset = 0
        if verbose:
            self._print(f"{what}: {total} resamples")

    def _print(self, message: str) -> None:
        print(f"[{self.caller}] {message}", file=sys.stderr, flush=True)

    def update(self, done: int) -> None:
        """Record that ``done`` resamples (cumulative) are finished."""
        if not self.verbose:
            return
        done += self.offset
        if done < self.total and self.verbose < 2 and done < self._next:
            return
        step = max(self.total // 10, 1)
        self._next = (done // step + 1) * step
        elapsed = time.perf_counter() - self._start
        self._print(
            f"{self.what}: {done}/{self.total} resamples "
            f"({100 * done / self.total:.0f}%), {elapsed:.1f} s"
        )
