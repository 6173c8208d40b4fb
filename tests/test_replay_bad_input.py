"""Issue 10, defect 11: ``sefode replay`` always exits 2 with its JSON error on a bad file, and every preset deal
is checked up front. The fixed cases reproduce the issue; the hypothesis cases are part of the fuzz suite."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sefode.games.fodinha import Fodinha
from sefode.history import replay, replay_file

REPO = Path(__file__).resolve().parent.parent
GOOD: dict[str, Any] = {
    "format": "sefode-history/1",
    "game": "fodinha",
    "options": {"variant": "sefode", "players": 3, "decks": 1, "teams": False},
    "seed": 11,
    "dealer": 0,
    "deals": [{"hands": [["3c"], ["3h"], ["2d"]]}],
    "actions": [{"seat": 1, "bid": 0}],
}


def cli(path: Path) -> tuple[int, dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "sefode", "replay", str(path)], capture_output=True, cwd=REPO, timeout=120, check=False
    )
    assert proc.stderr == b"", proc.stderr[-2000:]
    text = proc.stdout.decode("utf-8")  # valid UTF-8, or this raises
    lines = text.strip().splitlines()
    assert len(lines) == 1, text[:500]
    value = json.loads(lines[0])
    assert isinstance(value, dict)
    return proc.returncode, value


def good_with(**changes: Any) -> str:
    return json.dumps({**GOOD, **changes})


CASES = {
    "huge_integer": good_with()[:-1] + ', "seed2": ' + "9" * 5000 + "}",
    "huge_seed": good_with().replace('"seed": 11', '"seed": ' + "7" * 5000),
    "deep_nesting": '{"format": "sefode-history/1", "game": "fodinha", "x": ' + "[" * 1000 + "]" * 1000 + "}",
    "lone_surrogate_key": good_with()[:-1] + ', "\\ud800": 1}',
    "lone_surrogate_value": good_with(game="fo\ud800"),
    "huge_format": json.dumps({**GOOD, "format": "f" * (5 << 20)}),
    "huge_card": good_with(deals=[{"hands": [["3" * 100_000], ["3h"], ["2d"]]}]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_files_exit_2_with_a_short_json_error(tmp_path: Path, case: str) -> None:
    path = tmp_path / "h.json"
    raw = CASES[case]
    path.write_bytes(raw.encode("utf-8", "surrogatepass"))
    code, out = cli(path)
    assert code == 2, out
    assert out["error"] is not None and out["error"]["code"].startswith(("history/", "options/", "match/", "game/"))
    assert len(out["error"]["message"]) <= 500  # a huge value is never echoed whole


def test_a_later_deal_that_repeats_a_card_is_refused_up_front() -> None:
    """The actions stop in hand 1, but hand 2's preset deal holds the 3c twice in a single deck."""
    history = {**GOOD, "deals": [{"hands": [["3c"], ["3h"], ["2d"]]}, {"hands": [["Kc", "3c"], ["Kh", "3c"], None]}]}
    out = replay(history).result()
    assert out["error"] is not None and "deals[1]" in out["error"]["message"] and "3c" in out["error"]["message"]
    with pytest.raises(Exception, match="deals\\[1\\]"):
        Fodinha().new_match(GOOD["options"], 11, {"deals": history["deals"]})
    unknown = {**GOOD, "deals": [{"hands": [["3c"], ["3h"], ["2d"]]}, {"hands": [["Zz", "3c"], None, None]}]}
    assert "deals[1]" in replay(unknown).result()["error"]["message"]
    two_decks = {**GOOD, "options": {**GOOD["options"], "decks": 2}}
    two_decks["deals"] = [{"hands": [["3c"], ["3c"], ["2d"]]}]
    assert replay(two_decks).result()["error"] is None  # two decks hold two of each card


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    changes=st.dictionaries(
        st.sampled_from(["format", "game", "options", "seed", "dealer", "deals", "actions", "extra"]), JSON, max_size=3
    )
)
def test_replay_never_raises_on_any_history(tmp_path: Path, changes: dict[str, Any]) -> None:
    data = {**GOOD, **changes}
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = replay_file(path).result()
    json.dumps(out)  # printable as JSON
    if out["error"] is not None:
        assert len(out["error"]["message"]) <= 500


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(lambda s: s.encode("utf-8", "surrogatepass")))
def test_replay_file_never_raises_on_any_bytes(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "fuzz.json"
    path.write_bytes(raw)
    out = replay_file(path).result()
    json.dumps(out)
