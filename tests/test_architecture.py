"""The package's layers: imports point only down, and no module imports in a cycle.

The contract is written in pyproject.toml ([tool.importlinter]) and checked with
import-linter, which reads every import of every module, those inside functions
included.
"""

from __future__ import annotations

import ast
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
    # Every contract written in pyproject.toml was checked, and none broke.
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    n_contracts = text.count("[[tool.importlinter.contracts]]")
    assert n_contracts >= 3
    assert f"{n_contracts} kept, 0 broken" in result.stdout


def test_presentation_names_the_results_it_shows_in_type_hints_only() -> None:
    """The layers contract lets ``_present`` import ``_results`` and ``_stats``
    (pyproject.toml's ignore_imports), for the type hints that name the
    results it shows; every such import sits under ``if TYPE_CHECKING:``,
    where it never runs."""
    upward = ("sklearn_macrof1._results", "sklearn_macrof1._stats")
    executed = []
    for path in sorted((ROOT / "sklearn_macrof1" / "_present").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hinted = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = ["sklearn_macrof1." * (node.level == 2) + (node.module or "")]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if id(node) not in hinted and any(
                name.startswith(upward) for name in names
            ):
                executed.append(f"{path.name}:{node.lineno}")
    assert executed == []


@pytest.mark.slow
def test_spark_is_imported_only_by_the_spark_module() -> None:
    """``import sklearn_macrof1`` never imports pyspark; without pyspark,
    ``import sklearn_macrof1.spark`` raises ImportError naming the extra."""
    code = (
        "import sys\n"
        "import sklearn_macrof1\n"
        "assert not any(m.split('.')[0] == 'pyspark' for m in sys.modules)\n"
        "sys.modules['pyspark'] = None  # as if it were not installed\n"
        "try:\n"
        "    import sklearn_macrof1.spark\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "sklearn_macrof1.spark needs pyspark, which is not installed. Install it "
        "with `pip install pyspark` or, from the repository root of "
        'sklearn-macrof1, `pip install ".[spark]"` (and Java 17 or later).'
    )


def test_install_hints_name_commands_that_work() -> None:
    """The package is not on the package index: no hint in the package or the
    documentation says ``pip install "sklearn-macrof1[...]"``; the package's
    messages come from one helper (``_extras``), which names the dependency and the
    extra from the repository root."""
    sources = [
        *(ROOT / "sklearn_macrof1").rglob("*.py"),
        *(ROOT / "docs").rglob("*.md"),
    ]
    sources.append(ROOT / "README.md")
    wrong = [
        str(path.relative_to(ROOT))
        for path in sources
        if path.name != "_extras.py"
        and 'install "sklearn-macrof1[' in path.read_text(encoding="utf-8")
    ]
    assert wrong == []
