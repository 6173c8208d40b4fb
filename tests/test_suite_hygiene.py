"""Rules the suite keeps about itself, checked on its own source.

A test never calls ``asyncio.run`` on the test's own thread: once a browser test has run in a worker, Playwright's
sync API keeps its event loop marked running on that thread for the rest of the session, and ``asyncio.run`` there
fails with "cannot be called from a running event loop" — only when the scheduler happened to put a browser test
first on that worker (CI, 2026-12-03: three fair-pool tests). ``server_helpers.run_async`` runs the coroutine on a
thread of its own.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TypeGuard

TESTS = Path(__file__).resolve().parent


def _is_asyncio_run(node: ast.AST) -> TypeGuard[ast.Call]:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "run"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "asyncio"
    )


def _direct_calls(function: ast.FunctionDef) -> list[int]:
    """Lines of ``asyncio.run(...)`` in ``function``'s own body (not inside a nested function or lambda, which a
    thread may run)."""
    lines: list[int] = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if _is_asyncio_run(node):
            lines.append(node.lineno)
        stack.extend(ast.iter_child_nodes(node))
    return lines


def offenders(source: str, name: str) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            found.extend(f"{name}:{line} {node.name}" for line in _direct_calls(node))
    return found


def test_no_test_calls_asyncio_run_on_its_own_thread() -> None:
    found: list[str] = []
    for path in sorted(TESTS.rglob("test_*.py")):
        found.extend(offenders(path.read_text(encoding="utf-8"), path.relative_to(TESTS).as_posix()))
    assert not found, "use server_helpers.run_async instead of asyncio.run in: " + ", ".join(found)


def test_the_check_finds_a_direct_call_and_lets_a_thread_target_be() -> None:
    direct = "import asyncio\ndef test_a():\n    x = asyncio.run(f())\n"
    threaded = "import asyncio\ndef test_b():\n    def target():\n        asyncio.run(f())\n    run(target)\n"
    assert offenders(direct, "t.py") == ["t.py:3 test_a"]
    assert offenders(threaded, "t.py") == []
