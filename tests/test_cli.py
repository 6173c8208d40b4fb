"""The ``sefode`` command, run as a subprocess: ``sefode replay`` and ``sefode simulate``."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import sefode.arena
from sefode.cli import build_parser
from sefode.games.fodinha import Fodinha, FodinhaState
from sefode.store import db

REPO = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "sefode"

ISSUE_EXAMPLE: dict[str, Any] = {
    "format": "sefode-history/1",
    "game": "fodinha",
    "options": {"variant": "sefode", "players": 3, "decks": 1, "teams": False},
    "seed": 11,
    "dealer": 0,
    "deals": [{"hands": [["3c"], ["3h"], ["2d"]]}, {"hands": [["Kc", "5d"], ["Kh", "6c"], ["Ks", "7h"]]}],
    "actions": [
        {"seat": 1, "bid": 0},
        {"seat": 2, "bid": 1},
        {"seat": 0, "bid": 1},
        {"seat": 2, "bid": 1},
        {"seat": 0, "bid": 0},
        {"seat": 1, "bid": 0},
        {"seat": 2, "play": "Ks"},
    ],
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sefode", *args], capture_output=True, text=True, cwd=REPO, timeout=120, check=False
    )


def one_json_object(stdout: str) -> dict[str, Any]:
    """stdout holds exactly one JSON object (one line)."""
    lines = stdout.strip().splitlines()
    assert len(lines) == 1, stdout
    value = json.loads(lines[0])
    assert isinstance(value, dict)
    return value


def write(tmp_path: Path, data: object, name: str = "h.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# ======================================================================= sefode replay
def test_replay_prints_one_json_object_and_exits_0(tmp_path: Path) -> None:
    proc = run("replay", write(tmp_path, ISSUE_EXAMPLE))
    assert proc.returncode == 0, proc.stderr
    out = one_json_object(proc.stdout)
    assert out["error"] is None and out["over"] is False and out["placements"] is None
    assert out["hands"] == [
        {
            "number": 1,
            "dealer": 0,
            "cards": 1,
            "vira": None,
            "bids": [1, 0, 1],
            "tricks": [{"leader": 1, "plays": [[1, "3h"], [2, "2d"], [0, "3c"]], "winner": 2, "value": 1}],
            "won": [0, 0, 1],
            "score": [4, 5, 5],
            "out": [],
            # Keys beyond the documented ones are allowed; these two are the engine's own.
            **{k: out["hands"][0][k] for k in out["hands"][0] if k in ("void", "bolo", "dealt")},
        }
    ]


def test_replay_through_the_console_script(tmp_path: Path) -> None:
    assert SCRIPT.exists(), f"the console script {SCRIPT} is installed"
    proc = subprocess.run(
        [str(SCRIPT), "replay", write(tmp_path, ISSUE_EXAMPLE)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert one_json_object(proc.stdout)["hands"][0]["score"] == [4, 5, 5]


BAD_FILES: list[tuple[str, object, str]] = [
    ("not_json", "{not json", "history/not_json"),
    ("not_an_object", [1, 2, 3], "history/invalid"),
    ("wrong_format", {**ISSUE_EXAMPLE, "format": "pgn"}, "history/format"),
    ("unknown_game", {**ISSUE_EXAMPLE, "game": "poker"}, "game/unknown"),
    ("actions_not_a_list", {**ISSUE_EXAMPLE, "actions": {"seat": 1}}, "history/invalid"),
    ("no_seed", {k: v for k, v in ISSUE_EXAMPLE.items() if k != "seed"}, "options/invalid"),
    ("unknown_setup_key", {**ISSUE_EXAMPLE, "dealerr": 0}, "options/invalid"),
    ("bad_deal", {**ISSUE_EXAMPLE, "deals": [{"hands": [["3c"], ["3c"], ["2d"]]}]}, "options/invalid"),
]


@pytest.mark.parametrize(("name", "data", "code"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_replay_bad_file_exits_2_with_null_index(tmp_path: Path, name: str, data: object, code: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    proc = run("replay", str(path))
    assert proc.returncode == 2
    out = one_json_object(proc.stdout)
    assert out["error"]["index"] is None
    assert out["error"]["code"] == code
    assert out["error"]["message"]
    assert out["over"] is False and out["placements"] is None and out["hands"] == []


def test_replay_missing_file_exits_2_with_null_index(tmp_path: Path) -> None:
    proc = run("replay", str(tmp_path / "nowhere.json"))
    assert proc.returncode == 2
    out = one_json_object(proc.stdout)
    assert out["error"]["index"] is None and "cannot read" in out["error"]["message"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"variant": "sefode", "players": 9}, "2 to 8 players"),
        ({"variant": "7letras", "players": 3, "decks": 2}, "one deck"),
        ({"variant": "sefode", "players": 3, "colour": "red"}, "unknown option"),
        ([1, 2], "JSON object"),
    ],
)
def test_replay_bad_options_exit_2_with_null_index(tmp_path: Path, options: object, words: str) -> None:
    proc = run("replay", write(tmp_path, {**ISSUE_EXAMPLE, "options": options, "deals": []}))
    assert proc.returncode == 2
    out = one_json_object(proc.stdout)
    assert out["error"]["index"] is None
    assert words in out["error"]["message"]


@pytest.mark.parametrize(
    ("index", "entry", "code"),
    [
        (0, {"seat": 0, "bid": 0}, "action/not_your_turn"),
        (2, {"seat": 0, "bid": 0}, "action/foot_rule"),
        (3, {"seat": 2, "play": "Ks"}, "action/must_bid"),
        (6, {"seat": 2, "play": "3d"}, "action/card_not_in_hand"),
        (6, {"seat": 2, "bid": 1, "play": "Ks"}, "action/invalid"),
        (1, {"seat": "2", "bid": 1}, "history/invalid"),
    ],
)
def test_replay_rejected_action_exits_2_with_its_index(
    tmp_path: Path, index: int, entry: dict[str, Any], code: str
) -> None:
    actions = list(ISSUE_EXAMPLE["actions"])
    actions[index] = entry
    proc = run("replay", write(tmp_path, {**ISSUE_EXAMPLE, "actions": actions}))
    assert proc.returncode == 2
    out = one_json_object(proc.stdout)
    assert out["error"]["index"] == index
    assert out["error"]["code"] == code
    assert out["error"]["message"].startswith(f"action {index}:")
    # The hands finished before the rejected action are still reported.
    assert len(out["hands"]) == (1 if index > 2 else 0)


# ======================================================================= sefode simulate
SEAT_KEYS = {"seat", "player", "wins", "mean_place", "decision_ms_p50", "decision_ms_p95"}


@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "sefode", "--players", "4", "--seats", "random,random,random,random", "--matches", "12"],
        ["--variant", "sefode", "--players", "6", "--option", "decks=2", "--option", "teams=true", "--matches", "6"],
        ["--variant", "7letras", "--players", "3", "--seats", "random,random,random", "--matches", "9"],
    ],
)
def test_simulate_json_prints_the_documented_keys(args: list[str]) -> None:
    proc = run("simulate", "--game", "fodinha", *args, "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    out = one_json_object(proc.stdout)
    assert {"matches", "elapsed_s", "decisions", "hands", "seats"} <= set(out)
    matches = int(args[args.index("--matches") + 1])
    players = int(args[args.index("--players") + 1])
    assert out["matches"] == matches
    assert isinstance(out["elapsed_s"], float) and out["elapsed_s"] >= 0
    assert out["hands"] >= matches and out["decisions"] >= out["hands"]
    assert [s["seat"] for s in out["seats"]] == list(range(players))
    for s in out["seats"]:
        assert set(s) >= SEAT_KEYS
        assert s["player"] == "random"
        assert 0 <= s["wins"] <= matches
        assert 1 <= s["mean_place"] <= players
        assert 0 <= s["decision_ms_p50"] <= s["decision_ms_p95"]
    # Every match has a first place (shared or not).
    assert sum(s["wins"] for s in out["seats"]) >= matches


class RecordingFodinha(Fodinha):
    """Fodinha that keeps every match it starts, to count decisions independently of the arena."""

    def __init__(self) -> None:
        self.started: list[FodinhaState] = []

    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> FodinhaState:
        st = super().new_match(options, seed, setup)
        self.started.append(st)
        return st


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingFodinha]:
    game = RecordingFodinha()
    monkeypatch.setattr(sefode.arena, "get_game", lambda name: game)
    yield game


@pytest.mark.parametrize(
    ("variant", "players", "matches"),
    [("sefode", 4, 8), ("7letras", 3, 6), ("sefode", 2, 4)],
)
def test_simulate_decisions_count_bids_and_chosen_plays_not_automatic_ones(
    recording: RecordingFodinha, variant: str, players: int, matches: int
) -> None:
    seats = ",".join(["random"] * players)
    proc = run(
        "simulate", "--game", "fodinha", "--variant", variant, "--players", str(players), "--seats", seats,
        "--matches", str(matches), "--seed", "5", "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = one_json_object(proc.stdout)
    # The same run in this process (the CLI's defaults: duplicate seating, one worker), every match kept.
    options = {"variant": variant, "players": players, "decks": 1, "teams": False}
    result = sefode.arena.simulate("fodinha", options, ["random"] * players, matches, 5, rotation="duplicate")
    played = [st for st in recording.started if st.placements is not None]
    assert len(played) == matches
    expected = 0
    automatic = 0
    for st in played:
        for record in RecordingFodinha().report(st)["hands"]:
            dealt_in = sum(1 for b in record["bids"] if b is not None)
            expected += dealt_in  # one bid (or 7 Letras declaration) per seat dealt in
            if record["cards"] > 1:
                expected += record["cards"] * dealt_in  # every card of a 2+ card hand is chosen
            else:
                automatic += dealt_in  # mão na testa: the card plays itself
    assert automatic > 0, "the count covers one-card hands"
    assert result.decisions == expected
    assert out["decisions"] == expected
    # The histories list exactly the decisions, too.
    assert sum(len(Fodinha().history_actions(st)) for st in played) == expected
    assert out["hands"] == sum(len(st.records) for st in played)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "x"], "invalid int value"),
        (["--variant", "poker"], "variant must be one of"),
        (["--players", "3", "--seats", "random,random"], "--seats names 2 players but --players is 3"),
        (["--players", "2", "--seats", "random,genius"], "unknown player kind"),
        (["--matches", "0"], "--matches must be at least 1"),
        (["--players", "9", "--seats", ",".join(["random"] * 9)], "2 to 8 players"),
        (["--players", "3", "--option", "teams=true"], "4, 6 or 8 players"),
        (["--players", "4", "--option", "decks=3"], "1 or 2 decks"),
        (["--variant", "7letras", "--players", "4", "--option", "decks=2"], "one deck"),
        (["--variant", "7letras", "--players", "4", "--option", "lives=3"], "'lives'"),
        (["--players", "4", "--option", "colour=red"], "unknown option(s) colour"),
        (["--players", "4", "--option", "lives"], "--option takes key=value"),
    ],
)
def test_simulate_bad_arguments_exit_2_with_a_readable_message(args: list[str], words: str) -> None:
    proc = run("simulate", "--game", "fodinha", *args, "--json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert words in proc.stderr
    assert "Traceback" not in proc.stderr


def test_simulate_unknown_game_exits_2_naming_the_known_games() -> None:
    proc = run("simulate", "--game", "poker", "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "unknown game 'poker'" in proc.stderr and "fodinha" in proc.stderr


def test_simulate_without_json_prints_a_readable_table() -> None:
    proc = run("simulate", "--game", "fodinha", "--players", "3", "--matches", "3", "--seed", "2")
    assert proc.returncode == 0, proc.stderr
    assert "3 matches" in proc.stdout and "random" in proc.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(proc.stdout)


def test_simulate_is_deterministic_across_processes() -> None:
    """Same options and seed: the same matches, whatever the interpreter's hash seed."""
    outs = []
    for hash_seed in ("1", "2"):
        args = ["simulate", "--game", "fodinha", "--variant", "7letras", "--players", "5", "--matches", "5"]
        args += ["--seed", "9", "--json"]
        proc = subprocess.run(
            [sys.executable, "-m", "sefode", *args],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=120,
            check=False,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert proc.returncode == 0, proc.stderr
        out = one_json_object(proc.stdout)
        outs.append((out["decisions"], out["hands"], [(s["wins"], s["mean_place"]) for s in out["seats"]]))
    assert outs[0] == outs[1]


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "sefode", "players": 5, "decks": 2, "lives": 2},
        {"variant": "sefode", "players": 6, "teams": True, "lives": 2},
        {"variant": "7letras", "players": 4},
    ],
)
def test_replay_reproduces_an_exported_match(tmp_path: Path, options: dict[str, Any]) -> None:
    """A whole random match (with a leave, and in 7 Letras a show and a late join) exported by
    ``sefode.history.export`` replays through the command to the same record and placements."""
    import random

    from sefode.games.fodinha import JOIN, LEAVE, SHOW
    from sefode.history import export

    game = Fodinha()
    rng = random.Random(len(options["variant"]) + options["players"])
    st = game.new_match(options, 1234)
    steps = 0
    while game.awaiting(st):
        steps += 1
        if steps == 8:
            game.apply(st, 1, LEAVE)
        if st.opts.sete_letras and st.n == 4 and st.hand_no == 3 and st.nbids == 0 and not any(st.shown):
            game.apply(st, 4, JOIN)
        if st.opts.sete_letras and st.size > 1 and not any(st.shown) and st.alive[0]:
            game.apply(st, 0, SHOW)
        seat = min(game.awaiting(st))
        game.apply(st, seat, rng.choice(game.legal_actions(st, seat)))
    history = export(game, st)
    kinds = {next(k for k in a if k != "seat") for a in history["actions"]}
    assert {"bid", "play", "leave"} <= kinds
    if st.opts.sete_letras:
        assert {"show", "join"} <= kinds
    proc = run("replay", write(tmp_path, history))
    assert proc.returncode == 0, proc.stdout
    out = one_json_object(proc.stdout)
    assert out["error"] is None and out["over"] is True
    assert out["placements"] == st.placements
    assert out["hands"] == game.report(st)["hands"]


def test_replay_into_a_closed_pipe_stops_quietly(tmp_path: Path) -> None:
    """`sefode replay x.json | head -c 1`: the reader goes away; no traceback, no error exit."""
    path = write(tmp_path, ISSUE_EXAMPLE)
    proc = subprocess.Popen(
        [sys.executable, "-m", "sefode", "replay", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the child writes: its write fails with EPIPE
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert "Traceback" not in err


def test_simulate_plays_the_plugin_game_installed_as_its_own_distribution() -> None:
    """The sealed-bid plugin (plugins/sefode-lances) is found through its entry point: no edit of the project."""
    proc = run("simulate", "--game", "lances", "--seats", "hard,random", "--option", "rounds=2", "--matches", "4",
               "--think-ms", "5", "--seed", "1", "--json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = one_json_object(proc.stdout)
    assert out["matches"] == 4 and [s["player"] for s in out["seats"]] == ["hard", "random"]
    assert out["decisions"] == 4 * 2 * 2  # two seats, two rounds, one sealed card each
    listed = run("games", "--json")
    assert listed.returncode == 0
    games = {g["name"]: g for g in json.loads(listed.stdout)["games"]}
    assert games["lances"]["turns"] == "simultaneous" and "fodinha" in games


def test_new_tokens_never_begin_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """A token, room id or invite beginning with ``-`` reads as an option on a command line (``--token -Ab…``):
    1 in 32 did, and ``sefode bot`` refused to start. A dash-led draw is drawn again."""
    draws = iter(["-dashfirst", "-again", "Fine-token"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda nbytes: next(draws))
    assert db.new_token(8) == "Fine-token"


def test_sefode_bot_takes_a_dash_led_token_given_with_equals() -> None:
    """An old token beginning with ``-`` still works written ``--token=…`` (as docs/bots.md shows)."""
    args = build_parser().parse_args(["bot", "--url=http://x", "--token=-Ab_c", "--room=-Rm", "--seat=1"])
    assert (args.token, args.room, args.seat) == ("-Ab_c", "-Rm", 1)


# ======================================================================= clear failures (issue 26)
def broken_plugin(tmp_path: Path) -> dict[str, str]:
    """An installed distribution whose game fails to import: its entry point is found, loading it raises."""
    info = tmp_path / "sefode_broken-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sefode-broken\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[sefode.games]\nbroken = sefode_broken:Broken\n", encoding="utf-8")
    (tmp_path / "sefode_broken.py").write_text("import no_such_module_here\n", encoding="utf-8")
    return {**os.environ, "PYTHONPATH": str(tmp_path)}


def run_env(env: Mapping[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sefode", *args], capture_output=True, text=True, cwd=REPO, timeout=120, env=env
    )


def test_games_exits_non_zero_and_names_a_plugin_that_failed_to_load_on_stdout(tmp_path: Path) -> None:
    env = broken_plugin(tmp_path)
    proc = run_env(env, "games")
    assert proc.returncode == 1
    assert "broken: NOT LOADED: ModuleNotFoundError: No module named 'no_such_module_here'" in proc.stdout
    assert "fodinha:" in proc.stdout  # the others are still listed
    assert "did not load" in proc.stderr and "Traceback" not in proc.stderr
    listed = run_env(env, "games", "--json")
    assert listed.returncode == 1
    assert "no_such_module_here" in json.loads(listed.stdout)["load_errors"]["broken"]
    assert run("games").returncode == 0


def test_unknown_game_in_simulate_and_replay_names_the_load_error(tmp_path: Path) -> None:
    env = broken_plugin(tmp_path)
    proc = run_env(env, "simulate", "--game", "broken")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "unknown game 'broken': its plugin failed to load: ModuleNotFoundError" in proc.stderr
    history = write(tmp_path, {"format": "sefode-history/1", "game": "broken", "seed": 1, "actions": []})
    replayed = run_env(env, "replay", history)
    assert replayed.returncode == 2
    assert "its plugin failed to load: ModuleNotFoundError" in json.loads(replayed.stdout)["error"]["message"]


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("sqlite:////no/such/folder/sefode.sqlite3", "the folder /no/such/folder does not exist"),
        ("nonsense", "cannot open the database nonsense"),
        ("mysqlx://u:secret@localhost/db", "cannot open the database mysqlx://u:***@localhost/db"),
    ],
)
def test_serve_with_a_database_url_that_cannot_be_opened_says_so_in_one_line(url: str, words: str) -> None:
    proc = run_env({**os.environ, "DATABASE_URL": url}, "serve", "--port", "1")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert words in proc.stderr and "DATABASE_URL" in proc.stderr and "secret" not in proc.stderr
