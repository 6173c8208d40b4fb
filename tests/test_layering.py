"""Layers (issue 8 §2 and §7, issue 21): which part of ``sefode`` may import which.

The contracts live in ``pyproject.toml`` (``[tool.importlinter]``) and are checked here with import-linter, which
reads every ``import`` and ``from … import`` at any depth, also inside functions, so a lazy import cannot hide
(imports under ``TYPE_CHECKING`` are for the type checker and do not count). No two modules of ``sefode`` may import
each other, directly or round a longer circle. At run time, the store resolves account sessions only through a
registered resolver; awards and accounts name no game and read no game's options.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Set
from pathlib import Path

import grimp
import pytest
from importlinter.application.use_cases import lint_imports
from importlinter.configuration import configure

import sefode.store

STORE = Path(sefode.store.__file__).parent
ROOT = STORE.parent.parent
PYPROJECT = ROOT / "pyproject.toml"


def _lint(config: Path) -> bool:
    """``lint-imports --config CONFIG --no-cache``, in this process (its report goes to stdout)."""
    configure()
    return bool(lint_imports(config_filename=str(config), cache_dir=None, no_logo=True))


def test_the_import_contracts_are_kept(capsys: pytest.CaptureFixture[str]) -> None:
    kept = _lint(PYPROJECT)
    out = capsys.readouterr().out
    assert kept, out
    assert re.search(r"Contracts: ([5-9]|\d\d+) kept, 0 broken", out), out


def test_a_broken_contract_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same checker, on a package whose lower layer imports the upper one lazily, inside a function."""
    package = tmp_path / "layerprobe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "engine.py").write_text("def f() -> None:\n    from layerprobe.server import x\n")
    (package / "server.py").write_text("x = 1\n")
    (package / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from layerprobe import server\n"
    )
    config = tmp_path / "contracts.toml"
    config.write_text(
        textwrap.dedent(
            """\
            [tool.importlinter]
            root_package = "layerprobe"
            exclude_type_checking_imports = true

            [[tool.importlinter.contracts]]
            name = "the engine imports no server"
            type = "forbidden"
            source_modules = ["layerprobe.engine"]
            forbidden_modules = ["layerprobe.server"]

            [[tool.importlinter.contracts]]
            name = "a typing-only import does not count"
            type = "forbidden"
            source_modules = ["layerprobe.typed"]
            forbidden_modules = ["layerprobe.server"]
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert not _lint(config)
    out = capsys.readouterr().out
    assert "the engine imports no server BROKEN" in out, out
    assert "a typing-only import does not count KEPT" in out, out


# ---------------------------------------------------------------------- import circles
def circles(graph: Mapping[str, Set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module importing itself), each sorted:
    every import circle lies within one. Tarjan's algorithm, without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(sorted(component))
    return sorted(found)


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert circles(graph) == [["a", "b", "c"], ["e"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_import_circle_among_sefode_modules() -> None:
    """Imports at any depth (a lazy import inside a function closes a circle too), TYPE_CHECKING aside."""
    graph = grimp.build_graph("sefode", exclude_type_checking_imports=True, cache_dir=None)
    modules = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert len(modules) >= 90  # the walk found the package
    assert "sefode.server.cluster" in modules["sefode.server.app"]  # and sees imports inside functions
    assert circles(modules) == []


def test_importing_the_store_loads_neither_accounts_nor_awards() -> None:
    code = (
        "import sys, sefode.store, sefode.store.db, sefode.store.tables\n"
        "print(sorted(m for m in sys.modules if m.startswith(('sefode.accounts', 'sefode.awards'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_awards_and_accounts_name_no_game_and_read_no_options() -> None:
    """Awards read seats and the stored Outcome alone (issue 8 §2): no game's name, no ``matches.options``, no
    game option key (``teams``, ``variant``) anywhere in ``sefode/accounts`` or ``sefode/awards``."""
    from sefode.engine import game_names

    root = STORE.parent
    names = game_names()
    assert names  # the registry found the built-in games
    words = [re.compile(rf"\b{re.escape(n)}\b", re.IGNORECASE) for n in names]
    words += [re.compile(p) for p in (r"c\.options\b", r"[\"']teams[\"']", r"[\"']variant[\"']", r"7 ?letras")]
    found = {
        str(f.relative_to(root)): [w.pattern for w in words if w.search(f.read_text())]
        for package in ("accounts", "awards")
        for f in sorted((root / package).rglob("*.py"))
    }
    assert len(found) >= 10
    assert {f: hits for f, hits in found.items() if hits} == {}


def part_of(module: str) -> str:
    """The part of ``sefode`` a module belongs to: its subpackage (``sefode.server.routes.ws`` is ``sefode.server``)
    or the top-level module itself (``sefode.engine``)."""
    return ".".join(module.split(".")[:2])


def part_graph(modules: Mapping[str, Set[str]]) -> dict[str, set[str]]:
    """The imports between the parts of ``sefode`` (an import within one part is no edge)."""
    parts: dict[str, set[str]] = {}
    for module, imported in modules.items():
        here = part_of(module)
        parts.setdefault(here, set()).update(part_of(m) for m in imported if part_of(m) != here)
    return parts


def test_the_part_graph_collapses_modules_to_their_part() -> None:
    modules = {"p.a.x": {"p.b.y", "p.a.z"}, "p.a.z": set(), "p.b.y": {"p.c"}, "p.c": {"p.a.z"}}
    assert part_graph(modules) == {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}}
    assert circles(part_graph(modules)) == [["p.a", "p.b", "p.c"]]


def test_no_import_circle_among_sefode_parts() -> None:
    """No two parts of ``sefode`` (its subpackages and top-level modules) import each other, directly or round a
    longer circle: the parts stack up (docs/architecture.md). Imports at any depth count, TYPE_CHECKING aside."""
    graph = grimp.build_graph("sefode", exclude_type_checking_imports=True, cache_dir=None)
    modules = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    parts = part_graph(modules)
    assert {"sefode.accounts", "sefode.awards", "sefode.server", "sefode.store", "sefode.engine"} <= set(parts)
    found = circles(parts)
    edges = {" ".join(c): {p: sorted(parts[p] & set(c)) for p in c} for c in found}
    assert found == [], edges
