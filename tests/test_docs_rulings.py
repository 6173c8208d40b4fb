"""The project holds its own rulings (issue 21): ``docs/rulings.md`` is the one place they are written down.

No tracked file points outside the repository (the shared rulings file or the shared seeds folder); every
``docs/rulings.md §N`` reference names a section that exists; every test that ``docs/rulings.md`` names exists;
every ruling names a test or is listed under "Not yet tested".
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rulings.md"

# Written in two pieces so that this file does not hold the strings it looks for.
OLD_NAME = "RUL" + "INGS"
OUTSIDE = (OLD_NAME + ".md", "../" + "shared/")
OLD_CITATION = re.compile(rf"\b{OLD_NAME}\b")  # the old citation, in upper case, as in "<old name> §2"

HEADING = re.compile(r"^#{2,4} §(\d+(?:\.\d+)?) ", re.MULTILINE)
ANCHOR = re.compile(r'<a id="s(\d+(?:-\d+)?)"></a>')
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")
# "docs/rulings.md §1.4", "docs/rulings.md §1.4 and §3.2", "docs/rulings.md §1.4, §1.5"
CITATION = re.compile(r"docs/rulings\.md((?:(?:\s*,\s*|\s+and\s+|\s+e\s+|\s+)?§\d+(?:\.\d+)?)+)")
SECTION = re.compile(r"§(\d+(?:\.\d+)?)")


def tracked_files() -> list[Path]:
    """The files git tracks; outside a git checkout, every file but hidden folders and environments."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout.decode()
        names = [n for n in out.split("\0") if n]
    except (OSError, subprocess.SubprocessError):
        names = []
        for top, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in {"node_modules", "__pycache__"}]
            names += [os.path.relpath(os.path.join(top, f), ROOT) for f in files]
    return [ROOT / n for n in sorted(names)]


def texts() -> dict[str, str]:
    """Every tracked text file, by its path relative to the repository."""
    out: dict[str, str] = {}
    for path in tracked_files():
        if path.is_symlink() or not path.is_file():  # docs/rules/ links to pages read at their target
            continue
        try:
            out[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images and other binary files
    return out


def sections() -> set[str]:
    return set(HEADING.findall(DOC.read_text(encoding="utf-8")))


def test_no_tracked_file_points_outside_the_repository_for_rules() -> None:
    bad = [
        f"{name}:{n}: {line.strip()}"
        for name, text in texts().items()
        if name != "docs/rulings.md"
        for n, line in enumerate(text.splitlines(), 1)
        if any(s in line for s in OUTSIDE) or OLD_CITATION.search(line)
    ]
    assert not bad, "cite docs/rulings.md §N instead:\n" + "\n".join(bad)


def test_rulings_sections_are_numbered_once_each_with_a_stable_anchor() -> None:
    text = DOC.read_text(encoding="utf-8")
    numbers = HEADING.findall(text)
    assert len(numbers) == len(set(numbers)), "a § number is used twice"
    assert {"0", "1", "2", "3", "4"} <= set(numbers)
    anchors = {a.replace("-", ".") for a in ANCHOR.findall(text)}
    assert anchors == set(numbers), "each § heading has its <a id=\"sN-M\"></a> and no anchor is left over"


def test_every_citation_of_docs_rulings_names_a_section_that_exists() -> None:
    known = sections()
    seen = 0
    bad: list[str] = []
    for name, text in texts().items():
        for m in CITATION.finditer(text):
            for number in SECTION.findall(m.group(1)):
                seen += 1
                if number not in known:
                    bad.append(f"{name}: §{number}")
    assert seen >= 40, f"only {seen} citations of docs/rulings.md found: the pattern no longer matches them"
    assert not bad, "no such section in docs/rulings.md:\n" + "\n".join(bad)


@cache  # a file is named by many rulings: parsed once
def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")
    }


def test_every_test_named_in_docs_rulings_exists() -> None:
    refs = TEST_REF.findall(DOC.read_text(encoding="utf-8"))
    assert len(refs) >= 50
    missing = [
        f"{file}::{name}"
        for file, name in refs
        if not (ROOT / file).is_file() or name not in defined_tests(ROOT / file)
    ]
    assert not missing, "docs/rulings.md names tests that do not exist:\n" + "\n".join(missing)


def test_every_ruling_names_a_test_or_is_listed_as_not_yet_tested() -> None:
    text = DOC.read_text(encoding="utf-8")
    body, sep, untested = text.partition("\n## Not yet tested")
    assert sep, 'docs/rulings.md ends with a "Not yet tested" section'
    listed = set(SECTION.findall(untested))
    heads = list(re.finditer(r"^### §(\d+\.\d+) ", body, re.MULTILINE))
    assert heads
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(body)
        chunk = body[head.end() : end]
        number = head.group(1)
        assert TEST_REF.search(chunk) or number in listed, f"§{number} names no test and is not under Not yet tested"
    assert listed <= {h.group(1) for h in heads}, "Not yet tested lists a § that is not a ruling"
