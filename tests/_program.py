"""``python -m sklearn_macrof1 ARGS`` run in this process: the ``macrof1`` program.

Tests of the command line go through its public face: :func:`macrof1` runs the
package's ``__main__`` (which calls the console script's entry point) with
``sys.argv``, ``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` replaced for the
call, and takes the exit status from its ``SystemExit``. No interpreter is
started and nothing is imported again, so a run costs what calling the
internals did; and a test sees what a user sees: argparse's usage errors and
``--help``, the one-line data errors, the warnings, the entry point's handlers.

The entry point's handlers of last resort turn an exception that the program
did not expect (a bug) or a ``MemoryError`` into one line and status 1. No test
expects either: :func:`macrof1` raises :class:`ProgramCrashed` with that line,
so that such a run fails the test that made it.
"""

from __future__ import annotations

import io
import re
import runpy
import sys
from collections.abc import Sequence
from typing import NamedTuple

PACKAGE = "sklearn_macrof1"
PROGRAM = "macrof1"

#: The lines of the entry point's handlers of last resort.
_CRASH = re.compile(
    rf"^{PROGRAM}: error: (unexpected \w+: .* \(this is a bug in sklearn-macrof1; "
    r"please report it with the command that caused it\)|not enough memory for this "
    r"input)$",
    re.MULTILINE,
)


class ProgramCrashed(AssertionError):
    """The program met an exception it did not expect (its message: the line)."""


class Run(NamedTuple):
    """What a run of the program gave: exit status, standard output and error."""

    status: int
    out: str
    err: str


def macrof1(args: Sequence[str], stdin: str = "", *, merged: bool = False) -> Run:
    """Run ``python -m sklearn_macrof1 ARGS`` in this process, with ``stdin`` as
    its standard input; with ``merged``, standard error goes to standard output
    (``2>&1``; ``err`` is then empty)."""
    out = io.StringIO()
    err = out if merged else io.StringIO()
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr
    # runpy warns when the module it runs as __main__ was imported under its own
    # name before (pytest's --doctest-modules imports sklearn_macrof1.__main__).
    imported = sys.modules.pop(f"{PACKAGE}.__main__", None)
    sys.argv = [PROGRAM, *args]
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        runpy.run_module(PACKAGE, run_name="__main__", alter_sys=True)
        status = 0  # the interpreter's status when __main__ returns
    except SystemExit as exc:
        status = _exit_status(exc.code, err)
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved
        if imported is not None:
            sys.modules[f"{PACKAGE}.__main__"] = imported
    crash = _CRASH.search(err.getvalue())
    if crash is not None:
        raise ProgramCrashed(crash[0])
    return Run(status, out.getvalue(), "" if merged else err.getvalue())


def _exit_status(code: object, err: io.StringIO) -> int:
    """The exit status the interpreter gives for ``sys.exit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=err)  # sys.exit("message"): printed, status 1
    return 1
