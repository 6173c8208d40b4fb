"""Layers (issue 8 §2 and §7): nothing under ``sefode/store/`` imports accounts or awards, and awards and accounts
name no game and read no game's options.

Checked on the source (every ``import`` and ``from … import``, at any depth, also inside functions), so a lazy
import cannot hide; and at run time, the store resolves account sessions only through a registered resolver.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import sefode.store

STORE = Path(sefode.store.__file__).parent
FORBIDDEN = ("sefode.accounts", "sefode.awards")


def imported_modules(source: str) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def offending(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))


def test_the_checker_sees_lazy_and_from_imports() -> None:
    source = "def f():\n    from sefode.accounts.service import x\nimport sefode.awards\nfrom sefode import accounts\n"
    assert offending(imported_modules(source)) == [
        "sefode.accounts",
        "sefode.accounts.service",
        "sefode.accounts.service.x",
        "sefode.awards",
    ]
    assert offending(imported_modules("import sefode.store.tables\nfrom sefode.engine import Outcome\n")) == []


def test_no_module_under_store_imports_accounts_or_awards() -> None:
    files = sorted(STORE.rglob("*.py"))
    assert len(files) >= 5  # db, tables, migrations: the walk found the package
    bad = {str(f.relative_to(STORE)): offending(imported_modules(f.read_text())) for f in files}
    assert {f: mods for f, mods in bad.items() if mods} == {}


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
