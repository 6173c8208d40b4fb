"""Read side: the leaderboard, the per-game rating tables, a player's profile and a tournament's standings, as
JSON-ready dicts. Games are listed from the engine's registry (``sefode.engine.game_names``): nothing here names
one."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from sefode.accounts import tables as a
from sefode.accounts.service import account_username
from sefode.awards import Board, Medal, RatingRow, Skill, Tally, leaderboard_page, rating_page
from sefode.awards import tables as w
from sefode.awards.recording import compute_standings, tournament_match_ids, tournament_row
from sefode.engine import game_names, get_game
from sefode.store import tables as s

HISTORY_PAGE = 20


def names(conn: sa.Connection, ids: list[str]) -> dict[str, dict[str, Any]]:
    """``{"name", "anonymous"}`` per player id; a deleted account's name is None and ``anonymous`` True."""
    if not ids:
        return {}
    rows = conn.execute(
        sa.select(s.players.c.id, s.players.c.name, a.deleted_players.c.player_id)
        .select_from(s.players.outerjoin(a.deleted_players, a.deleted_players.c.player_id == s.players.c.id))
        .where(s.players.c.id.in_(sorted(set(ids))))
    ).all()
    out = {str(r[0]): {"name": None if r[2] is not None else str(r[1]), "anonymous": r[2] is not None} for r in rows}
    for pid in ids:
        out.setdefault(pid, {"name": None, "anonymous": True})
    return out


def _tallies(conn: sa.Connection) -> list[Tally]:
    counts: dict[str, dict[str, int]] = {}
    medal_rows = conn.execute(
        sa.select(w.medals.c.player_id, w.medals.c.medal, sa.func.count()).group_by(
            w.medals.c.player_id, w.medals.c.medal
        )
    ).all()
    for pid, medal, n in medal_rows:
        counts.setdefault(str(pid), {})[str(medal)] = int(n)
    trophy_rows = conn.execute(
        sa.select(w.trophies.c.player_id, sa.func.count()).group_by(w.trophies.c.player_id)
    ).all()
    for pid, n in trophy_rows:
        counts.setdefault(str(pid), {})["trophies"] = int(n)
    who = names(conn, list(counts))
    return [
        Tally(
            player=pid,
            name=str(who[pid]["name"]),
            gold=c.get(Medal.GOLD, 0),
            silver=c.get(Medal.SILVER, 0),
            bronze=c.get(Medal.BRONZE, 0),
            trophies=c.get("trophies", 0),
        )
        for pid, c in counts.items()
        if not who[pid]["anonymous"]
    ]


def leaderboard(
    conn: sa.Connection, board: Board = Board.MEDALS, page: int = 1, per_page: int = 20, me: str | None = None
) -> dict[str, Any]:
    result, position = leaderboard_page(_tallies(conn), board, page, per_page, me)
    return {
        "board": str(result.board),
        "page": result.page,
        "pages": result.pages,
        "per_page": result.per_page,
        "total": result.total,
        "me": None if me is None else {"player_id": me, "position": position},
        "rows": [
            {
                "rank": r.rank,
                "player_id": r.tally.player,
                "name": r.tally.name,
                "gold": r.tally.gold,
                "silver": r.tally.silver,
                "bronze": r.tally.bronze,
                "trophies": r.tally.trophies,
                "you": r.tally.player == me,
            }
            for r in result.rows
        ],
    }


def game_title(game: str) -> str | None:
    """The i18n key of a registered game's display name (None for a game no longer installed)."""
    try:
        return get_game(game).spec.title
    except Exception:  # an unregistered game: EngineError; never fail a page for it
        return None


def rating_games() -> list[dict[str, Any]]:
    """Every registered game, each with its rating table: ``{"game", "title"}`` (title: an i18n key)."""
    return [{"game": name, "title": game_title(name)} for name in game_names()]


def _skill_json(skill: Skill) -> dict[str, float]:
    return {"rating": round(skill.rating, 3), "mu": round(skill.mu, 3), "sigma": round(skill.sigma, 3)}


def rating_table(
    conn: sa.Connection, game: str, page: int = 1, per_page: int = 20, me: str | None = None
) -> dict[str, Any]:
    """One game's rating table: players by rating (mu - 3 sigma), paginated like the leaderboard."""
    rows = conn.execute(
        sa.select(w.ratings.c.player_id, w.ratings.c.mu, w.ratings.c.sigma, w.ratings.c.matches).where(
            w.ratings.c.game == game
        )
    ).all()
    who = names(conn, [str(r[0]) for r in rows])
    table = [
        RatingRow(
            player=str(r[0]), name=str(who[str(r[0])]["name"]), skill=Skill(float(r[1]), float(r[2])), matches=int(r[3])
        )
        for r in rows
        if not who[str(r[0])]["anonymous"]
    ]
    result = rating_page(table, page, per_page, me)
    return {
        "board": "ratings",
        "game": game,
        "title": game_title(game),
        "page": result.page,
        "pages": result.pages,
        "per_page": result.per_page,
        "total": result.total,
        "me": None if me is None else {"player_id": me, "position": result.position},
        "rows": [
            {
                "rank": r.rank,
                "player_id": r.row.player,
                "name": r.row.name,
                **_skill_json(r.row.skill),
                "matches": r.row.matches,
                "you": r.row.player == me,
            }
            for r in result.rows
        ],
    }


def player_ratings(conn: sa.Connection, player_id: str) -> list[dict[str, Any]]:
    """A player's rating in every game they were rated in, in the registry's order of games."""
    rows = conn.execute(
        sa.select(w.ratings.c.game, w.ratings.c.mu, w.ratings.c.sigma, w.ratings.c.matches).where(
            w.ratings.c.player_id == player_id
        )
    ).all()
    order = {name: i for i, name in enumerate(game_names())}
    out = [
        {
            "game": str(r[0]),
            "title": game_title(str(r[0])),
            **_skill_json(Skill(float(r[1]), float(r[2]))),
            "matches": int(r[3]),
        }
        for r in rows
    ]
    return sorted(out, key=lambda x: (order.get(x["game"], len(order)), x["game"]))


def profile(conn: sa.Connection, player_id: str, page: int = 1, per_page: int = HISTORY_PAGE) -> dict[str, Any] | None:
    """A player's medals, trophies and finished matches (newest first, paginated). None if no such player."""
    who = names(conn, [player_id])
    exists = conn.execute(sa.select(s.players.c.id).where(s.players.c.id == player_id)).first()
    if exists is None:
        return None
    medal_counts = dict.fromkeys([str(m) for m in Medal], 0)
    for medal, n in conn.execute(
        sa.select(w.medals.c.medal, sa.func.count()).where(w.medals.c.player_id == player_id).group_by(w.medals.c.medal)
    ).all():
        medal_counts[str(medal)] = int(n)
    trophy_rows = conn.execute(
        sa.select(
            w.trophies.c.tournament_id,
            w.trophies.c.awarded_at,
            w.tournaments.c.room_id,
            w.tournaments.c.matches_declared,
        )
        .select_from(w.trophies.join(w.tournaments, w.tournaments.c.id == w.trophies.c.tournament_id))
        .where(w.trophies.c.player_id == player_id)
        .order_by(w.trophies.c.awarded_at.desc())
    ).all()
    per_page = max(1, min(100, per_page))
    total = int(
        conn.execute(
            sa.select(sa.func.count()).select_from(w.award_seats).where(w.award_seats.c.player_id == player_id)
        ).scalar_one()
    )
    pages = max(1, -(-total // per_page))
    page = max(1, min(pages, page))
    mine = (
        conn.execute(
            sa.select(w.award_matches, w.award_seats.c.seat, w.award_seats.c.place)
            .select_from(w.award_seats.join(w.award_matches, w.award_matches.c.match_id == w.award_seats.c.match_id))
            .where(w.award_seats.c.player_id == player_id)
            .order_by(w.award_matches.c.ended_at.desc(), w.award_matches.c.match_id)
            .offset((page - 1) * per_page)
            .limit(per_page)
        )
        .mappings()
        .all()
    )
    match_ids = [str(r["match_id"]) for r in mine]
    seat_rows = (
        conn.execute(
            sa.select(w.award_seats).where(w.award_seats.c.match_id.in_(match_ids)).order_by(w.award_seats.c.seat)
        )
        .mappings()
        .all()
        if match_ids
        else []
    )
    medal_of = {
        str(r[0]): str(r[1])
        for r in conn.execute(
            sa.select(w.medals.c.match_id, w.medals.c.medal).where(
                w.medals.c.player_id == player_id, w.medals.c.match_id.in_(match_ids)
            )
        ).all()
    }
    others = names(conn, [str(r["player_id"]) for r in seat_rows if r["player_id"] is not None])
    seats_by_match: dict[str, list[dict[str, Any]]] = {m: [] for m in match_ids}
    for r in seat_rows:
        pid = r["player_id"]
        seats_by_match[str(r["match_id"])].append(
            {
                "seat": r["seat"],
                "player_id": pid,
                "name": others[pid]["name"] if pid is not None else None,
                "anonymous": bool(others[pid]["anonymous"]) if pid is not None else False,
                "bot": pid is None,
                "place": r["place"],
            }
        )
    return {
        "player_id": player_id,
        "name": who[player_id]["name"],
        "anonymous": who[player_id]["anonymous"],
        "registered": account_username(conn, player_id) is not None,
        "bot": conn.execute(
            sa.select(a.bot_accounts.c.player_id).where(a.bot_accounts.c.player_id == player_id)
        ).first()
        is not None,
        "medals": medal_counts,
        "ratings": player_ratings(conn, player_id),
        "trophies": [
            {"tournament_id": r[0], "room_id": r[2], "matches": r[3], "awarded_at": r[1]} for r in trophy_rows
        ],
        "matches": {
            "page": page,
            "pages": pages,
            "per_page": per_page,
            "total": total,
            "rows": [
                {
                    "match_id": r["match_id"],
                    "room_id": r["room_id"],
                    "game": r["game"],
                    "title": game_title(str(r["game"])),
                    "ended_at": r["ended_at"],
                    "valid": bool(r["valid"]),
                    "no_winner": bool(r["no_winner"]),
                    "seat": r["seat"],
                    "place": r["place"],
                    "medal": medal_of.get(str(r["match_id"])),
                    "tournament_id": r["tournament_id"],
                    "tournament_match": r["tournament_number"],
                    "players": seats_by_match[str(r["match_id"])],
                    "history_url": f"/api/matches/{r['match_id']}/history",
                }
                for r in mine
            ],
        },
    }


def tournament_json(conn: sa.Connection, tournament_id: str) -> dict[str, Any] | None:
    row = tournament_row(conn, tournament_id)
    if row is None:
        return None
    standings = compute_standings(conn, row)
    ids = [r.player for r in standings.rows if r.human]
    who = names(conn, ids)
    return {
        "id": row["id"],
        "room_id": row["room_id"],
        "matches": standings.matches_declared,
        "played": standings.matches_played,
        "status": str(standings.status),
        "valid": standings.valid,
        "created_at": row["created_at"],
        "ended_at": row["ended_at"],
        "match_ids": tournament_match_ids(conn, tournament_id),
        "standings": [
            {
                "rank": r.rank,
                "player_id": r.player if r.human else None,
                "name": who[r.player]["name"] if r.human else None,
                "anonymous": bool(who[r.player]["anonymous"]) if r.human else False,
                "bot": not r.human,
                "points": r.points,
                "firsts": r.firsts,
                "last_place": r.last_place,
                "per_match": list(r.per_match),
            }
            for r in standings.rows
        ],
        "champions": [
            {"player_id": p, "name": who[p]["name"], "bot": False}
            if p in who
            else {"player_id": None, "name": None, "bot": True}
            for p in standings.champions
        ],
        "trophies": list(standings.trophy_winners),
    }
