"""Count how often one public call checks its options.

Every option check goes through one entry point,
``sklearn_macrof1._options.check_options_of(caller, **options)``.
:func:`counting_option_checks` replaces it, wherever the package's modules
imported it, by a wrapper that records each call (the public function's name
and the options' names) and then checks as before.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

# the one entry point of every option check has no public face: wrapped to
# count the checks of each public call
from sklearn_macrof1 import _options as _validation


@contextmanager
def counting_option_checks() -> Iterator[list[tuple[str, tuple[str, ...]]]]:
    """Within the block, every option check appends ``(caller, option names)``
    to the yielded list."""
    original = _validation.check_options_of
    calls: list[tuple[str, tuple[str, ...]]] = []

    def counted(caller: str, /, **options: Any) -> dict[str, Any]:
        calls.append((caller, tuple(options)))
        return original(caller, **options)

    with pytest.MonkeyPatch.context() as patch:
        for name, module in list(sys.modules.items()):
            if name.split(".")[0] != "sklearn_macrof1" or module is None:
                continue
            if getattr(module, "check_options_of", None) is original:
                patch.setattr(module, "check_options_of", counted)
        yield calls
