"""The package's layers: imports point only down, and no module imports in a cycle.

The contract is written in pyproject.toml ([tool.importlinter]) and checked with
import-linter, which reads every import of every module, those inside functions
included.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_layer_and_acyclic_contracts_hold() -> None:
    pytest.importorskip("importlinter")
    if not (ROOT / "pyproject.toml").is_file():  # pragma: no cover
        pytest.skip("needs the source tree's pyproject.toml")
    code = (
        "import sys; from importlinter.cli import lint_imports_command; "
        "sys.exit(lint_imports_command())"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout
