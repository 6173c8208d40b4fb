"""The JSON forms of One Man's Trash actions (protocol and hand histories) and their labels.

``{"draw": true}``, ``{"trash": ["7h", "7s"], "pile": 0}`` (one card may be written ``"7h"``), ``{"collect": 1}``,
``{"litter": "2c"}``, ``{"swap": ["8c"], "pile": 0}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sefode.cards import CardError, standard_code
from sefode.engine import Action, IllegalAction
from sefode.games.trash.rules import (
    COLLECT,
    DRAW,
    JOKER_CODES,
    LITTER,
    MAX_PILES,
    card_name,
    card_names,
    cards_of,
    decode,
    rank_of,
    swap_action,
    trash_action,
)
from sefode.games.trash.state import TrashState


def _bad(message: str, code: str) -> IllegalAction:
    return IllegalAction(message, code)


def describe_action(action: Action) -> dict[str, Any] | None:
    """The label of ``action`` (``Game.describe_action``), None for a code that is no action."""
    kind, p, rank, suits = decode(action)
    if kind == "draw":
        return {"key": "trash.action.draw", "params": {}, "text": "draw"}
    if kind == "collect":
        return {"key": "trash.action.collect", "params": {"pile": p + 1}, "text": f"collect pile {p + 1}"}
    if kind == "litter":
        card = card_name(rank)
        return {"key": "trash.action.litter", "params": {"card": card}, "text": f"litter {card}"}
    if kind in ("trash", "swap"):
        cards = " ".join(card_names(cards_of(rank, suits)))
        verb = "trash" if kind == "trash" else "swap"
        text = f"{verb} {cards} on pile {p + 1}" if verb == "trash" else f"swap {cards} with pile {p + 1}"
        return {"key": f"trash.action.{verb}", "params": {"cards": cards, "pile": p + 1}, "text": text}
    return None


def parse_action(state: TrashState, message: Mapping[str, Any]) -> Action:
    """The action a JSON form means (``Trash.parse_action``); IllegalAction naming what is wrong."""
    if not isinstance(message, Mapping):
        raise _bad('an action must be a JSON object such as {"draw": true}', "action/invalid")
    keys = sorted(str(k) for k in message if k != "seat")
    kinds = [k for k in keys if k in ("draw", "trash", "collect", "litter", "swap")]
    if len(kinds) != 1:
        raise _bad(
            f"exactly one action per turn: one of draw, trash, collect, litter, swap (got {', '.join(keys) or 'none'})",
            "action/invalid",
        )
    kind = kinds[0]
    allowed = {kind, "pile"} if kind in ("trash", "swap") else {kind}
    extra = [k for k in keys if k not in allowed]
    if extra:
        raise _bad(f"'{kind}' takes no {', '.join(extra)}", "action/invalid")
    value = message[kind]
    if kind == "draw":
        if value is not True:
            raise _bad("'draw' takes the value true", "action/invalid")
        return DRAW
    if kind == "collect":
        return COLLECT + _pile_index(value, "collect")
    if kind == "litter":
        if isinstance(value, list):
            if len(value) != 1:
                raise _bad("a new Trash Pile is made of a single card (seed ¶ littercreate)", "action/litter_many")
            value = value[0]
        return LITTER + _card(value)
    pile = _pile_index(message.get("pile"), kind)
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names:
        raise _bad(f'\'{kind}\' takes a card or a list of cards, such as ["7h", "7s"]', "action/invalid")
    codes = [_card(v) for v in names]
    if len(set(codes)) != len(codes):
        raise _bad("a card is named twice", "action/invalid")
    if any(c in JOKER_CODES or (0 <= c < 4 and c in state.collectors) for c in codes):
        raise _bad(
            "Trash Collectors cannot be trashed or swapped; collect the trash with them (seed ¶ trashplaycollector)",
            "action/collector",
        )
    ranks = {rank_of(c) for c in codes}
    if len(ranks) != 1:
        raise _bad(
            "cards trashed or swapped together must all have the same rank (seed ¶ trashmultiple)",
            "action/mixed_ranks",
        )
    rank = ranks.pop()
    suits = 0
    for c in codes:
        suits |= 1 << (c & 3)
    return trash_action(pile, rank, suits) if kind == "trash" else swap_action(pile, rank, suits)


def _card(value: object) -> int:
    try:
        return standard_code(value)
    except CardError as err:
        raise _bad(str(err), "action/bad_card") from None


def _pile_index(value: object, kind: str) -> int:
    if isinstance(value, list):
        if len(value) != 1:
            which = "trash on" if kind == "trash" else f"{kind}"
            raise _bad(
                f"you may not {which} more than one Trash Pile per turn (seed ¶ trashmultiplepiles, ¶ collectsingle)",
                "action/two_piles",
            )
        value = value[0]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_PILES:
        raise _bad(
            f"'{'pile' if kind in ('trash', 'swap') else kind}' must be a pile number from 0, not {value!r}",
            "action/no_such_pile",
        )
    return value


def action_json(action: Action) -> dict[str, Any]:
    kind, p, rank, suits = decode(action)
    if kind == "draw":
        return {"draw": True}
    if kind == "collect":
        return {"collect": p}
    if kind == "litter":
        return {"litter": card_name(rank)}
    if kind in ("trash", "swap"):
        return {kind: card_names(cards_of(rank, suits)), "pile": p}
    raise _bad(f"{action} is not an action of this game", "action/invalid")
