"""Issue 10, defect 12: the dependency floors admit no release with a known vulnerability (docs/security.md)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PATCHED = {
    # CVE-2025-62727 (0.49.1), CVE-2026-48710 (1.0.1), CVE-2026-54282/54283 (1.3.1); 1.6.0 carries them all
    "starlette": (1, 6, 0),
    # CVE-2024-27454 (loads, 3.9.15) and CVE-2025-67221 (dumps, 3.11.6)
    "orjson": (3, 11, 6),
}


def test_floors_are_patched_releases() -> None:
    data = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    floors = {}
    for requirement in data["project"]["dependencies"]:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)(\[[^\]]*\])?>=([0-9.]+)", requirement.replace(" ", ""))
        if match:
            floors[match.group(1).lower()] = tuple(int(x) for x in match.group(3).split("."))
    for name, patched in PATCHED.items():
        assert name in floors, f"{name} has no floor"
        assert floors[name] >= patched, f"{name}>={'.'.join(map(str, floors[name]))} admits a vulnerable release"
