"""Every example in README.md, CONTRIBUTING.md and docs/**/*.md runs as written.

Fenced blocks are found by their language and checked as follows (the conventions,
with the markers, are described in CONTRIBUTING.md, "Examples in the documentation"):

- ``python`` blocks that start with ``>>>`` are doctests; the doctest blocks of a
  page share one namespace, in page order.
- other ``python`` blocks are complete scripts, run in a fresh interpreter; a
  ``text`` block directly below one (blank lines only between) is its standard
  output, compared exactly (trailing spaces ignored).
- ``console`` blocks are terminal sessions: each ``$ command`` runs in bash and its
  output (standard output and error, as a terminal shows them) must be the lines
  below it, up to an optional ``[exit status N]`` line (without one: status 0).
- ``bash`` / ``sh`` / ``shell`` blocks (commands to copy: installs, benchmarks) must
  carry a marker that says what to do with them (``run``, ``long`` or ``skip``);
  run, they are bash scripts (``set -e``) that must succeed.

Commands, scripts and doctests run in a temporary copy of ``docs/examples/`` (the
input files the pages read), with this interpreter's directory first on ``PATH``.
An HTML comment on the line just above a block changes what happens to it:

- ``<!-- docs-test: skip REASON -->``: not run (a reason is required);
- ``<!-- docs-test: run -->``: run a ``bash`` block in the default suite;
- ``<!-- docs-test: long -->``: run only with ``DOCS_EXAMPLES=all`` (a separate
  step of ``.ci/run``): for blocks that take long;
- ``<!-- docs-test: repo -->``: run in a temporary copy of the repository (for
  commands such as ``python benchmarks/...``) instead of ``docs/examples/``;
- ``<!-- docs-test: requires MODULE[,MODULE] -->``: skipped when a module is not
  installed (python blocks also skip by themselves when they import a missing
  optional package);
- ``<!-- docs-test: excerpt-of COMMAND -->`` on a ``text`` block: every non-blank
  line of the block appears, in that order, in the output of COMMAND;
- ``<!-- docs-test: continue -->`` on a python script block: the script is the
  previous script block(s) of the page followed by this one.

Several markers go in one comment, separated by ``;`` (``long; repo``).

Script blocks and ``repo`` blocks are marked ``slow``: the default run (``-m "not
slow"``) leaves them out, ``python -m pytest -m slow`` or ``-m ""`` runs them.

``python tests/test_docs.py --update [PAGE ...]`` rewrites the shown output of the
console blocks and script outputs of the pages with what they really print (review
the diff before committing it).
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
LONG = os.environ.get("DOCS_EXAMPLES", "") == "all"
TIMEOUT = 900

PYTHON = {"python", "py", "pycon"}
CONSOLE = {"console", "shell-session"}
SHELL = {"bash", "sh", "shell"}
MODES = {"skip", "run", "long", "repo", "requires", "excerpt-of", "continue"}
#: Optional packages: a python block importing one that is missing is skipped.
OPTIONAL = {"matplotlib", "dask", "distributed", "pandas", "pyspark", "zarr"}

_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(?P<body>.*?)\s*-->\s*$")
_EXIT = re.compile(r"^\[exit status (\d+)\]$")
_IMPORT = re.compile(r"^\s*(?:from|import)\s+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)


def pages() -> list[Path]:
    """The Markdown pages whose examples are checked."""
    found = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    skip = {"_build", "generated", "examples"}
    for path in sorted((ROOT / "docs").rglob("*.md")):
        if not skip.intersection(path.relative_to(ROOT / "docs").parts[:-1]):
            found.append(path)
    return [p for p in found if p.exists()]


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    modes: dict[str, str] = field(default_factory=dict)
    start: int = 0  # index of the first content line in the page's lines
    end: int = 0  # index of the closing fence
    follows: Block | None = None  # the block just above, blank lines only between

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"

    @property
    def is_doctest(self) -> bool:
        return self.lang in PYTHON and self.text.lstrip().startswith(">>>")


def parse_modes(body: str, where: str) -> dict[str, str]:
    """``MODE [ARGUMENT]``, several separated by ``;``."""
    modes = {}
    for part in body.split(";"):
        words = part.split(None, 1)
        if not words or words[0] not in MODES:
            raise ValueError(f"{where}: unknown docs-test marker {part!r}; use {MODES}")
        mode, arg = words[0], (words[1] if len(words) > 1 else "")
        if mode in {"skip", "requires", "excerpt-of"} and not arg:
            raise ValueError(f"{where}: docs-test: {mode} needs an argument")
        modes[mode] = arg
    return modes


def parse(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    last_end = -10
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m["fence"], m["info"].strip()
        lang = info.split()[0].lower() if info else ""
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip().startswith(fence[0] * len(fence))
            and set(lines[j].strip()) == {fence[0]}
        ):
            j += 1
        modes: dict[str, str] = {}
        k = i - 1
        while k >= 0 and (mk := _MARKER.match(lines[k])):
            modes.update(parse_modes(mk["body"], f"{page.name}:{k + 1}"))
            k -= 1
        block = Block(page, i + 1, lang, "\n".join(lines[i + 1 : j]) + "\n", modes)
        block.start, block.end = i + 1, j
        between = lines[last_end + 1 : i] if last_end >= 0 else ["x"]
        if blocks and all(not s.strip() for s in between):
            block.follows = blocks[-1]
        blocks.append(block)
        last_end = j
        i = j + 1
    return blocks


def all_blocks() -> list[Block]:
    return [b for page in pages() for b in parse(page)]


# ------------------------------------------------------------------ running
def environment() -> dict[str, str]:
    env = dict(os.environ)
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env.update(
        MPLBACKEND="Agg",
        PYTHONUNBUFFERED="1",
        COLUMNS="80",
        LC_ALL="C.UTF-8",
        PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
    )
    env.pop("PYTHONWARNINGS", None)
    return env


def workdir(block: Block, tmp: Path) -> Path:
    """A fresh copy of the files the block may read."""
    if "repo" in block.modes:
        ignore = shutil.ignore_patterns(
            ".git",
            ".ci-venv*",
            ".venv",
            "build",
            "dist",
            "*.egg-info",
            ".*cache*",
            ".hypothesis",
            "__pycache__",
            "_build",
        )
        shutil.copytree(ROOT, tmp / "repo", ignore=ignore)
        return tmp / "repo"
    target = tmp / "examples"
    if EXAMPLES.is_dir():
        shutil.copytree(EXAMPLES, target)
    else:
        target.mkdir()
    return target


def normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def console_commands(block: Block) -> list[tuple[str, str, int]]:
    """(command, expected output, expected exit status) for each ``$`` line."""
    out: list[tuple[str, list[str], int]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], [], 0))
        elif not out:
            raise ValueError(f"{block.name}: console block must start with '$ '")
        elif m := _EXIT.match(line.strip()):
            cmd, shown, _ = out[-1]
            out[-1] = (cmd, shown, int(m[1]))
        else:
            out[-1][1].append(line)
    return [(cmd, "\n".join(shown), status) for cmd, shown, status in out]


def _console_script(command: str) -> list[str] | None:
    """The arguments of a plain ``macrof1 ...`` command (no pipes, redirections or
    substitutions), which is run in this process as ``python -m sklearn_macrof1``
    runs it (``tests/_program.py``: the console script's entry point), without the
    ~1 s of starting Python and importing scikit-learn."""
    unquoted = re.sub(r"'[^']*'|\"[^\"]*\"", "", command)
    if re.search(r"[|<>&;`$()*?]", unquoted):
        return None
    argv = shlex.split(command)
    return argv[1:] if argv and argv[0] == "macrof1" else None


def run_shell(command: str, cwd: Path) -> tuple[str, int]:
    argv = _console_script(command)
    if argv is not None:
        from _program import macrof1

        old_cwd, old_columns = os.getcwd(), os.environ.get("COLUMNS")
        os.chdir(cwd)
        os.environ["COLUMNS"] = "80"
        try:  # standard output and error in one stream, as a terminal shows them
            status, output, _ = macrof1(argv, merged=True)
        finally:
            os.chdir(old_cwd)
            if old_columns is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = old_columns
        return output, status
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=cwd,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
    )
    return proc.stdout, proc.returncode


def script_of(block: Block, blocks: list[Block]) -> str:
    if "continue" not in block.modes:
        return block.text
    scripts = [b for b in blocks if b.page == block.page and is_script(b)]
    index = scripts.index(block)
    start = index
    while start > 0 and "continue" in scripts[start].modes:
        start -= 1
    return "".join(b.text for b in scripts[start : index + 1])


def is_script(block: Block) -> bool:
    return block.lang in PYTHON and not block.is_doctest


def output_block(block: Block, blocks: list[Block]) -> Block | None:
    for other in blocks:
        if (
            other.follows is block
            and other.lang in {"text", ""}
            and "excerpt-of" not in other.modes
        ):
            return other
    return None


def missing_modules(block: Block, text: str) -> list[str]:
    wanted = set()
    if "requires" in block.modes:
        wanted |= {m.strip() for m in block.modes["requires"].split(",")}
    if block.lang in PYTHON:
        wanted |= set(_IMPORT.findall(text)) & OPTIONAL
    return sorted(m for m in wanted if importlib.util.find_spec(m) is None)


def check_gate(block: Block, text: str) -> None:
    if "skip" in block.modes:
        pytest.skip(block.modes["skip"])
    if "long" in block.modes and not LONG:
        pytest.skip("long example: run with DOCS_EXAMPLES=all")
    missing = missing_modules(block, text)
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")


def diff(expected: str, actual: str) -> str:
    import difflib

    return "\n".join(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            "shown in the page",
            "real output",
            lineterm="",
        )
    )


def run_console(block: Block, cwd: Path) -> list[tuple[str, str, int, str, int]]:
    """(command, shown, shown status, real output, real status) per command."""
    results = []
    for command, shown, status in console_commands(block):
        actual, code = run_shell(command, cwd)
        results.append((command, shown, status, actual, code))
    return results


def run_script(text: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    path = cwd / "docs_example.py"
    path.write_text(text, encoding="utf-8")
    try:
        return subprocess.run(
            [sys.executable, path.name],
            cwd=cwd,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    finally:
        path.unlink()


# ------------------------------------------------------------------ the tests
BLOCKS = all_blocks()
CHECKED = [
    b
    for b in BLOCKS
    if b.lang in CONSOLE | SHELL or is_script(b) or "excerpt-of" in b.modes
]
DOCTEST_PAGES = sorted({b.page for b in BLOCKS if b.is_doctest})


def _marks(block: Block) -> list[pytest.MarkDecorator]:
    if "long" in block.modes:
        return [pytest.mark.docs_long]
    # a script starts a fresh interpreter, a repo block copies the repository: a
    # second or more each, so they run with the slow tests (pytest -m slow)
    slow = is_script(block) or "repo" in block.modes
    return [pytest.mark.slow] if slow else []


@pytest.mark.parametrize(
    "block", [pytest.param(b, id=b.name, marks=_marks(b)) for b in CHECKED]
)
def test_example(block: Block, tmp_path: Path) -> None:
    text = script_of(block, BLOCKS) if is_script(block) else block.text
    check_gate(block, text)
    cwd = workdir(block, tmp_path)
    if block.lang in CONSOLE:
        problems = []
        for command, shown, status, actual, code in run_console(block, cwd):
            if normalise(actual) != normalise(shown) or code != status:
                problems.append(
                    f"$ {command}\nexit status: shown {status}, real {code}\n"
                    + diff(normalise(shown), normalise(actual))
                )
        assert not problems, f"{block.name}:\n" + "\n\n".join(problems)
    elif block.lang in SHELL:
        assert {"run", "long"} & set(block.modes), (
            f"{block.name}: say whether this {block.lang} block runs: put "
            "<!-- docs-test: run -->, <!-- docs-test: long --> or "
            "<!-- docs-test: skip REASON --> on the line above it"
        )
        actual, code = run_shell("set -e\n" + block.text, cwd)
        assert code == 0, f"{block.name} failed (exit status {code}):\n{actual}"
    elif is_script(block):
        proc = run_script(text, cwd)
        assert proc.returncode == 0, f"{block.name} failed:\n{proc.stderr}"
        shown = output_block(block, BLOCKS)
        if shown is not None:
            expected, actual = normalise(shown.text), normalise(proc.stdout)
            assert actual == expected, f"{block.name}:\n" + diff(expected, actual)
    else:  # an excerpt of a command's output
        actual, code = run_shell(block.modes["excerpt-of"], cwd)
        assert code == 0, f"{block.name}: the command failed:\n{actual}"
        rest = [normalise(line) for line in actual.splitlines()]
        for line in block.text.splitlines():
            if not line.strip():
                continue
            assert normalise(line) in rest, (
                f"{block.name}: {line!r} is not in the output of "
                f"{block.modes['excerpt-of']!r} (in this order):\n{actual}"
            )
            rest = rest[rest.index(normalise(line)) + 1 :]


@pytest.mark.parametrize(
    "page", [pytest.param(p, id=p.relative_to(ROOT).as_posix()) for p in DOCTEST_PAGES]
)
def test_doctests(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = [b for b in BLOCKS if b.page == page and b.is_doctest]
    monkeypatch.chdir(workdir(blocks[0], tmp_path))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    globs: dict[str, object] = {"__name__": "__docs__"}
    ran = 0
    for block in blocks:
        if "skip" in block.modes or ("long" in block.modes and not LONG):
            continue
        if missing_modules(block, block.text):
            continue
        test = parser.get_doctest(block.text, globs, block.name, str(page), block.line)
        runner.run(test, clear_globs=False)
        globs = test.globs  # DocTest copies the namespace: carry it to the next block
        ran += 1
    if not ran:
        pytest.skip("no doctest block of this page runs here")
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} doctest example(s) failed in {page}"


def test_markers_and_blocks_are_well_formed() -> None:
    """Every page parses, every console block starts with a command, and no page
    points outside the repository or to a path of one machine."""
    for block in BLOCKS:
        if block.lang in CONSOLE:
            assert console_commands(block), block.name
        if "excerpt-of" in block.modes:
            assert block.lang in {"text", ""}, block.name
    for page in pages():
        text = page.read_text(encoding="utf-8")
        assert "../shared" not in text, page
        assert not re.search(r"(?<![\w.])/(work|home|Users)/\w", text), page
    assert len(CHECKED) + len(DOCTEST_PAGES) > 0


# ------------------------------------------------------------------ --update
def update(paths: list[Path]) -> None:
    """Rewrite the shown outputs of console blocks and script outputs."""
    for page in paths:
        page = page.resolve()
        blocks = parse(page)
        lines = page.read_text(encoding="utf-8").splitlines()
        edits: list[tuple[int, int, list[str]]] = []
        for block in blocks:
            if "skip" in block.modes or ("long" in block.modes and not LONG):
                continue
            with tempfile.TemporaryDirectory() as tmp:
                cwd = workdir(block, Path(tmp))
                if block.lang in CONSOLE:
                    new: list[str] = []
                    for command, _, _, actual, code in run_console(block, cwd):
                        new += [f"$ {command}", *normalise(actual).splitlines()]
                        new.append(f"[exit status {code}]")
                    edits.append((block.start, block.end, new))
                elif is_script(block) and (shown := output_block(block, blocks)):
                    proc = run_script(script_of(block, blocks), cwd)
                    if proc.returncode:
                        print(f"{block.name} failed:\n{proc.stderr}", file=sys.stderr)
                        continue
                    edits.append(
                        (shown.start, shown.end, normalise(proc.stdout).splitlines())
                    )
        for start, end, new in sorted(edits, reverse=True):
            lines[start:end] = new
        page.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"updated {page.relative_to(ROOT)} ({len(edits)} blocks)")


if __name__ == "__main__":
    if sys.argv[1:2] != ["--update"]:
        raise SystemExit("usage: python tests/test_docs.py --update [PAGE ...]")
    update([Path(p) for p in sys.argv[2:]] or pages())
