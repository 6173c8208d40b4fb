"""What a Fodinha seat or spectator sees: the public part of the view (built once for every viewer), which hands a
viewer may see, and the JSON of tricks and finished hands."""

from __future__ import annotations

from typing import Any

from sefode.games.fodinha.cards import truco_name
from sefode.games.fodinha.dealing import visible_vira
from sefode.games.fodinha.rules import FIXED_MANILHAS, manilha_rank
from sefode.games.fodinha.state import OVER, FodinhaState, HandRecord, Trick


def sees(st: FodinhaState, viewer: int | None, owner: int) -> bool:
    """May ``viewer`` (None: spectator) see the hand ``owner`` holds now?"""
    if st.shown[owner] and st.size > 1:
        return True
    if viewer is None:
        return False
    if st.size == 1:
        return viewer != owner and viewer < st.seats and st.alive[viewer] and viewer in st.order
    return viewer == owner


def public_view(st: FodinhaState, game: str, forbidden: int | None) -> dict[str, Any]:
    """The part of the view every seat and spectator sees alike (``hands`` and ``seat`` are placeholders that
    ``Fodinha.view`` fills; ``forbidden`` is the pé rule's bid, ``Fodinha.forbidden_bid``). The seat's legal actions
    are not in the view, nor whose turn it is: the ``state`` message carries them (``legal``, with their labels, and
    ``awaiting``)."""
    vira = visible_vira(st)
    seat = None
    hands = None
    return {
        "game": game,
        "variant": st.opts.variant,
        "options": st.opts.to_json(),
        "seat": seat,
        "seats": st.seats,
        "teams": [st.unit[s] for s in range(st.seats)] if st.opts.teams else None,
        "phase": str(st.phase),
        "hand_number": st.hand_no,
        "cards": st.size,
        "dealer": st.dealer,
        "vira": vira,
        "vira_hidden": st.opts.sete_letras and vira is None and st.phase is not OVER,
        "manilhas": manilhas(st, vira),
        "hands": hands,
        "hand_counts": [len(h) for h in st.hands],
        "bids": [b if b >= 0 else None for b in st.bids],
        "forbidden_bid": forbidden,
        "won": list(st.won),
        "trick": [[s, truco_name(c)] for s, c in st.trick],
        "leader": st.leader,
        "trick_value": 1 + st.acc,
        "tricks": [trick_json(t) for t in st.tricks],
        "scores": [st.score[st.unit[s]] for s in range(st.seats)],
        "alive": list(st.alive),
        "left": list(st.leaving),
        "shown": list(st.shown),
        "last_hand": last_hand_json(st.records[-1]) if st.records else None,
        "placements": st.placements,
    }


def past(st: FodinhaState) -> dict[str, Any]:
    """The match's past, the same for every seat and spectator (every trick is public once played): the tricks of the
    match grouped under whoever took them (``Fodinha.past``; the view carries only the hand in progress)."""
    return {"match_tricks": grouped(st)}


def manilhas(st: FodinhaState, vira: str | None) -> list[str] | None:
    if not st.opts.sete_letras:
        return list(FIXED_MANILHAS)
    if vira is None:
        return None
    rank = "4567QJKA23"[manilha_rank(st.vira)]
    return [rank + suit for suit in "chsd"]


def trick_json(t: Trick) -> dict[str, Any]:
    return {
        "leader": t.leader,
        "plays": [[s, truco_name(c)] for s, c in t.plays],
        "winner": t.winner,
        "value": t.value,
    }


def grouped(st: FodinhaState) -> dict[str, list[dict[str, Any]]]:
    """The match's tricks grouped under whoever took them (seed 000's audit right). Tricks of finished hands come
    from ``st.grouped_past``, built once per hand; only the hand in progress is turned into JSON each time."""
    past = len(st.match_tricks) - len(st.tricks)
    cached = st.grouped_past
    if cached is None or cached[0] != past:
        start, base = cached if cached is not None and cached[0] < past else (0, {})
        built = {key: list(entries) for key, entries in base.items()}
        for t in st.match_tricks[start:past]:
            built.setdefault(taker_key(t), []).append(hand_trick_json(t))
        cached = st.grouped_past = (past, built)
    groups = {key: list(entries) for key, entries in cached[1].items()}
    for t in st.match_tricks[past:]:
        if t.hand == st.hand_no and st.phase is not OVER and t.taken_by is None and t.winner is None:
            key = "pending"
        else:
            key = taker_key(t)
        groups.setdefault(key, []).append(hand_trick_json(t))
    return groups


def taker_key(t: Trick) -> str:
    return "none" if t.taken_by is None else str(t.taken_by)


def hand_trick_json(t: Trick) -> dict[str, Any]:
    entry = trick_json(t)
    entry["hand"] = t.hand
    return entry


def last_hand_json(r: HandRecord) -> dict[str, Any]:
    """The finished hand the table recalls (its summary, and the last trick for the peek until this hand has one):
    its record with its last trick alone. Its other tricks are in the match's past (``past``), asked for on demand. The
    scores after it are the view's ``scores`` (and its ``hand_end`` event's), its dealer its ``deal`` event's: neither
    is repeated here."""
    entry = record_json(r)
    entry["tricks"] = entry["tricks"][-1:]
    del entry["score"], entry["dealer"]
    return entry


def record_json(r: HandRecord) -> dict[str, Any]:
    return {
        "number": r.number,
        "dealer": r.dealer,
        "cards": r.cards,
        "vira": truco_name(r.vira) if r.vira >= 0 else None,
        "bids": r.bids,
        "tricks": [trick_json(t) for t in r.tricks],
        "won": r.won,
        "score": r.score,
        "out": r.out,
        "void": r.void,
        "bolo": r.bolo,
    }
