"""The ``sefode`` command: ``serve``, ``backup``, ``restore``, ``replay``, ``simulate``, ``analyse``, ``bot``,
``games``, ``new-game``, ``demo``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sefode.engine import EngineError


def _cmd_replay(args: argparse.Namespace) -> int:
    from sefode.history import replay_file

    try:
        result = replay_file(args.file).result()
        text = json.dumps(result, ensure_ascii=False)
    except Exception as err:  # never a traceback: the JSON error, exit 2
        message = f"cannot replay {args.file}: {type(err).__name__}"
        result = {
            "over": False,
            "placements": None,
            "error": {"message": message, "index": None, "code": "history/invalid"},
        }
        text = json.dumps(result, ensure_ascii=False)
    # Valid UTF-8 whatever the file held: a lone surrogate that reached the output is escaped.
    sys.stdout.buffer.write(text.encode("utf-8", "backslashreplace") + b"\n")
    sys.stdout.flush()
    return 2 if result["error"] is not None else 0


def parse_option_args(pairs: Sequence[str]) -> dict[str, Any]:
    """``["players=4", "teams=true", "variant=7letras"]`` as options: each value is read as JSON when it
    is JSON (numbers, true/false, null, quoted strings), else taken as a string.

    >>> parse_option_args(["players=4", "teams=true", "variant=7letras", "max_cards=null"])
    {'players': 4, 'teams': True, 'variant': '7letras', 'max_cards': None}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option takes key=value, not {pair!r}")
        try:
            options[key] = json.loads(raw)
        except ValueError:
            options[key] = raw
    return options


def split_seats(text: str, kinds: Sequence[str]) -> list[str]:
    """The ``--seats`` list: comma-separated player kinds; a ``cmd:`` entry runs to the next known kind or ``cmd:``,
    so a program's command line may hold commas.

    >>> split_seats("cmd:python bot.py --x 1,2,hard, normal", ["hard", "normal"])
    ['cmd:python bot.py --x 1,2', 'hard', 'normal']
    """
    seats: list[str] = []
    for piece in text.split(","):
        name = piece.strip()
        if seats and seats[-1].startswith("cmd:") and name not in kinds and not name.startswith("cmd:"):
            seats[-1] += "," + piece
        else:
            seats.append(name)
    return seats


def _cmd_simulate(args: argparse.Namespace) -> int:
    from sefode.arena import format_table, simulate
    from sefode.bots.players import is_player_kind, player_kinds
    from sefode.engine import get_game

    def fail(message: str) -> int:
        print(f"sefode simulate: {message}", file=sys.stderr)
        return 2

    try:
        game = get_game(args.game)
        options = parse_option_args(args.option)
    except (EngineError, ValueError) as err:
        return fail(str(err))
    if args.variant is not None:
        options["variant"] = args.variant
    spec = game.spec
    seats = split_seats(args.seats, player_kinds()) if args.seats else None
    players = args.players
    if players is None:
        given = options.get(spec.seats_option) if spec.seats_option else None
        option = spec.option(spec.seats_option) if spec.seats_option else None
        players = len(seats) if seats else given if isinstance(given, int) else option.default if option else None
        if not isinstance(players, int):
            players = spec.min_seats
    if seats is None:
        seats = ["random"] * players
    if len(seats) != players:
        return fail(f"--seats names {len(seats)} players but --players is {players}")
    if spec.seats_option is not None:
        options[spec.seats_option] = players
    elif not spec.min_seats <= players <= spec.max_seats:
        return fail(f"{spec.name} seats {spec.min_seats} to {spec.max_seats} players, not {players}")
    unknown = sorted(s for s in set(seats) if not is_player_kind(s))
    if unknown:
        return fail(f"unknown player kind(s) {', '.join(unknown)}; known: {', '.join(player_kinds())}")
    if args.matches < 1:
        return fail("--matches must be at least 1")
    if args.workers < 1:
        return fail("--workers must be at least 1")
    if args.think_ms <= 0:
        return fail("--think-ms must be positive")
    try:
        options = game.validate_options(options)
        result = simulate(
            game.name,
            options,
            seats,
            args.matches,
            args.seed,
            args.think_ms,
            progress=not args.json and args.matches >= 50 and sys.stderr.isatty(),
            workers=args.workers,
            rotation=args.rotation,
            export_dir=Path(args.export) if args.export else None,
        )
    except EngineError as err:
        return fail(str(err))
    except OSError as err:  # the export folder
        return fail(f"cannot write the histories to {args.export}: {err.strerror or err}")
    print(json.dumps(result.to_json()) if args.json else format_table(result))
    if args.export and not args.json:
        print(f"{len(result.exported)} match histories written to {args.export}")
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    from sefode.analysis import analyse
    from sefode.history import HistoryError, read_file
    from sefode.text import printable

    try:
        data = read_file(args.file)  # the reader ``sefode replay`` uses: no recursion, no echo of the file
        if not isinstance(data, dict):
            raise HistoryError("a history must be a JSON object")
        if args.think_ms <= 0:
            raise HistoryError("--think-ms must be positive")
        result = analyse(data, args.seat, args.think_ms, seed=args.seed, bar=not args.quiet)
    except (OSError, ValueError, TypeError, RecursionError, OverflowError, MemoryError) as err:
        # HistoryError, EngineError and JSON errors are ValueErrors; one short line whatever the file held
        reason = str(err) if isinstance(err, ValueError | OSError) else type(err).__name__
        print(f"sefode analyse: {printable(reason, 500)[1:-1]}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _cmd_bot(args: argparse.Namespace) -> int:
    import asyncio

    from sefode.client import ClientFailure
    from sefode.remote import run_bot

    try:
        end = asyncio.run(
            run_bot(
                args.url,
                args.token,
                args.room,
                seat=args.seat,
                level=args.level,
                think_ms=args.think_ms,
                seed=args.seed,
            )
        )
    except ClientFailure as err:
        print(f"sefode bot: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    print(json.dumps({"match_id": end.match_id, "placements": end.placements} if end else None))
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from sefode.arena import format_table, simulate
    from sefode.engine import games

    game = games()[0]
    options = game.validate_options({})
    seats = int(options[game.spec.seats_option]) if game.spec.seats_option else game.spec.min_seats
    result = simulate(game.name, options, ["random"] * seats, 20, 1)
    print(format_table(result))
    return 0


def _cmd_games(args: argparse.Namespace) -> int:
    from sefode.engine import LOAD_ERRORS, games

    specs = [g.spec.to_json() for g in games()]
    code = 1 if LOAD_ERRORS else 0  # a plugin that failed to load is an error, not a footnote
    if args.json:
        print(json.dumps({"games": specs, "load_errors": LOAD_ERRORS}, ensure_ascii=False))
        return code
    for spec in specs:
        options = ", ".join(f"{o['key']}={json.dumps(o['default'])}" for o in spec["options"]) or "no options"
        print(f"{spec['name']}: {spec['min_seats']}-{spec['max_seats']} seats, {spec['turns']}; options: {options}")
    for name, err in sorted(LOAD_ERRORS.items()):
        print(f"{name}: NOT LOADED: {err}")
        print(f"sefode games: the game {name!r} did not load: {err}", file=sys.stderr)
    return code


def _cmd_new_game(args: argparse.Namespace) -> int:
    from sefode.engine import game_names
    from sefode.scaffold import Names, ScaffoldError, new_game

    try:
        names = Names.of(args.name)
        if names.name in game_names():
            raise ScaffoldError(f"a game called {names.name!r} is already installed; choose another name")
        target = Path(args.dir) if args.dir else Path(names.dist)
        written = new_game(names.name, target)
    except (ScaffoldError, OSError) as err:
        print(f"sefode new-game: {err}", file=sys.stderr)
        return 2
    print(f"{len(written)} files written to {target}. Next:")
    print(f"  cd {target} && pip install -e '.[dev]' && pytest")
    print("  then read docs/writing-a-game.md (the walkthrough starts from this scaffold)")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    import importlib

    try:
        from sefode.store.db import database_problem
    except ImportError:  # no server installed: the demo below says so
        pass
    else:
        problem = database_problem(os.environ.get("DATABASE_URL"))
        if problem is not None:
            print(f"sefode serve: {problem} (DATABASE_URL)", file=sys.stderr)
            return 2

    try:
        server = importlib.import_module("sefode.server.main")
    except ImportError as err:
        print(f"sefode serve: the server is not available ({err}); showing a bot match instead", file=sys.stderr)
        return _cmd_demo(args)
    code: int = server.serve(
        args.host,
        args.port,
        open_browser=args.open,
        public_url=args.public_url,
        forwarded_allow_ips=args.forwarded_allow_ips,
        redis_url=args.redis,
    )
    return code


def _database(args: argparse.Namespace) -> str:
    from sefode.store.db import default_database_url, normalise_url

    return normalise_url(args.database) if args.database else default_database_url()


def _cmd_backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from sefode.store.backup import backup, shown

    url = _database(args)
    try:
        backup(url, Path(args.file))
    except Exception as err:  # one line, never a traceback (BackupError says what to do)
        print(f"sefode backup: {_one_line(err)}", file=sys.stderr)
        return 2
    print(f"backed up {shown(url)} to {args.file}")
    return 0


def _cmd_restore(args: argparse.Namespace) -> int:
    from pathlib import Path

    from sefode.store.backup import restore, shown

    url = _database(args)
    try:
        restore(url, Path(args.file))
    except Exception as err:  # one line, never a traceback (BackupError says what to do)
        print(f"sefode restore: {_one_line(err)}", file=sys.stderr)
        return 2
    print(f"restored {args.file} into {shown(url)}")
    return 0


def _cmd_admin(args: argparse.Namespace) -> int:
    """``sefode admin grant USER`` / ``revoke USER``: give or take the moderator role (docs/operating.md)."""
    from sefode.accounts import moderation
    from sefode.accounts.service import AccountError
    from sefode.store.backup import shown
    from sefode.store.db import Store

    url = _database(args)
    store = Store(url)
    try:
        store.migrate()
        with store.engine.begin() as conn:
            change = moderation.grant if args.action == "grant" else moderation.revoke
            _player, changed = change(conn, args.user)
    except AccountError as err:
        print(f"sefode admin: {err.message}", file=sys.stderr)
        return 2
    except Exception as err:
        print(f"sefode admin: {_one_line(err)}", file=sys.stderr)
        return 2
    finally:
        store.close()
    if args.action == "grant":
        print(f"{args.user} is a moderator" + ("" if changed else " already") + f" (in {shown(url)})")
    else:
        print(f"{args.user} is " + ("no longer" if changed else "not") + f" a moderator (in {shown(url)})")
    return 0


def _one_line(err: BaseException) -> str:
    from sefode.store.backup import BackupError

    text = str(err) if isinstance(err, BackupError) else f"{type(err).__name__}: {err}"
    return " ".join(text.split())[:500]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sefode", description="Se Fode: the online table for Fodinha and friends")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the server (page at http://127.0.0.1:8000)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--open", action="store_true", help="open the page in a browser once the server is up")
    serve.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="run a node of a cluster on this Redis (with DATABASE_URL=postgresql://...; docs/cluster.md)",
    )
    serve.add_argument(
        "--public-url",
        default=os.environ.get("SEFODE_PUBLIC_URL"),
        help="where browsers reach the server, e.g. https://cartas.example.org (an https URL makes cookies Secure "
        "and sends HSTS; its origin passes the Origin check). Default: SEFODE_PUBLIC_URL",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=os.environ.get("SEFODE_FORWARDED_ALLOW_IPS"),
        help="behind a reverse proxy: the proxy addresses whose X-Forwarded-For/-Proto are trusted (comma-separated, "
        "e.g. 127.0.0.1); the per-client limits then see the real client. Default: SEFODE_FORWARDED_ALLOW_IPS",
    )
    serve.set_defaults(func=_cmd_serve)

    database_help = "the database (default: DATABASE_URL, else SQLite under the user's data directory)"
    backup = sub.add_parser(
        "backup", help="write a consistent snapshot of the database to FILE, also while the server runs"
    )
    backup.add_argument("file", help="a new file")
    backup.add_argument("--database", default=None, metavar="URL", help=database_help)
    backup.set_defaults(func=_cmd_backup)

    restore = sub.add_parser("restore", help="restore a backup made by 'sefode backup' into an empty database")
    restore.add_argument("file")
    restore.add_argument("--database", default=None, metavar="URL", help=database_help)
    restore.set_defaults(func=_cmd_restore)

    admin = sub.add_parser("admin", help="give or take the moderator role: sefode admin grant|revoke USERNAME")
    admin.add_argument("action", choices=("grant", "revoke"))
    admin.add_argument("user", help="the account's username")
    admin.add_argument("--database", default=None, metavar="URL", help=database_help)
    admin.set_defaults(func=_cmd_admin)

    replay = sub.add_parser("replay", help="replay a sefode-history/1 file and print the result as JSON")
    replay.add_argument("file")
    replay.set_defaults(func=_cmd_replay)

    sim = sub.add_parser("simulate", help="play matches between bots and report per seat")
    sim.add_argument("--game", required=True, help="the game (see: sefode games)")
    sim.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeat for several)"
    )
    sim.add_argument("--variant", default=None, help="shorthand for --option variant=VARIANT")
    sim.add_argument("--players", type=int, default=None, help="seats (default: as many as --seats names)")
    sim.add_argument(
        "--seats",
        default=None,
        help="comma-separated player kinds, one per seat; 'cmd:COMMAND' seats a program (docs/bots.md)",
    )
    sim.add_argument("--matches", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--think-ms", type=float, default=200.0, help="search budget per decision of a hard bot")
    sim.add_argument("--workers", type=int, default=1, help="matches played in parallel processes")
    sim.add_argument(
        "--rotation",
        default="duplicate",
        choices=["none", "rotate", "duplicate"],
        help="seating: fixed; rotated every match; or each deal replayed with the seats rotated (duplicate)",
    )
    sim.add_argument(
        "--export",
        default=None,
        metavar="DIR",
        help="write each match's history to DIR (match-0001.json...), replayable with 'sefode replay'",
    )
    sim.add_argument("--json", action="store_true")
    sim.set_defaults(func=_cmd_simulate)

    analyse = sub.add_parser(
        "analyse", help="the hard bot's view of every decision of one seat in a finished match (JSON)"
    )
    analyse.add_argument("file", help="a sefode-history/1 file")
    analyse.add_argument("--seat", type=int, required=True)
    analyse.add_argument("--think-ms", type=float, default=500.0, help="search budget per decision")
    analyse.add_argument("--seed", type=int, default=1, help="the search's random seed")
    analyse.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    analyse.set_defaults(func=_cmd_analyse)

    bot = sub.add_parser("bot", help="seat a built-in bot on a remote server (through sefode.client) for one match")
    bot.add_argument("--url", required=True, help="the server, e.g. https://cartas.example")
    bot.add_argument("--token", required=True, help="a session or bot account token")
    bot.add_argument("--room", required=True)
    bot.add_argument("--seat", type=int, default=None, help="take this seat (else: already seated)")
    bot.add_argument("--level", default="hard", choices=["random", "easy", "normal", "hard"])
    bot.add_argument("--think-ms", type=float, default=300.0)
    bot.add_argument("--seed", type=int, default=None)
    bot.set_defaults(func=_cmd_bot)

    games = sub.add_parser("games", help="list the registered games, their seats and options")
    games.add_argument("--json", action="store_true")
    games.set_defaults(func=_cmd_games)

    scaffold = sub.add_parser(
        "new-game", help="write a working game distribution to start from (docs/writing-a-game.md)"
    )
    scaffold.add_argument("name", help="the game's identifier: lowercase letters, digits, underscores")
    scaffold.add_argument("--dir", default=None, help="where to write it (default: ./sefode-NAME)")
    scaffold.set_defaults(func=_cmd_new_game)

    demo = sub.add_parser("demo", help="print a short bot match summary")
    demo.set_defaults(func=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``sefode replay x.json | head``): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    raise SystemExit(main())
