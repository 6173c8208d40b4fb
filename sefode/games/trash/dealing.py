"""Setting up a One Man's Trash match: the seed's draws, the deal (from the seed, or a hand history's ``deal``
checked card by card) and the first state."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from sefode.cards import CardError, standard_code
from sefode.engine import InvalidOptions
from sefode.games.trash.rules import (
    ACE_CODES,
    JOKER_CODES,
    MAX_PILES,
    START_HAND,
    START_PILES,
    card_names,
    deck,
    fits_table,
)
from sefode.games.trash.state import TrashOptions, TrashState
from sefode.match import Phase


def new_state(opts: TrashOptions, seed: int, setup: Mapping[str, Any] | None) -> TrashState:
    """The first state of a match (``Trash.new_match`` has parsed the options)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptions(f"seed must be a whole number, not {seed!r}")
    setup = dict(setup or {})
    unknown = sorted(str(k) for k in setup if k not in ("first", "deal"))
    if unknown:
        raise InvalidOptions(f"unknown setup key(s) {', '.join(unknown)}; One Man's Trash takes first, deal")
    n = opts.players
    rng = random.Random(seed)
    # Chance is always drawn in the same order, whatever the setup fixes, so that an exported history
    # (which names ``first``) replays the same match from the seed.
    first = rng.randrange(n)
    aces = rng.sample(ACE_CODES, 4)
    first_raw = setup.get("first")
    if first_raw is not None:
        if isinstance(first_raw, bool) or not isinstance(first_raw, int) or not 0 <= first_raw < n:
            raise InvalidOptions(f"first must be a seat from 0 to {n - 1}, not {first_raw!r}")
        first = first_raw
    deal = setup.get("deal")
    if deal is None:
        collectors = frozenset(JOKER_CODES) if opts.jokers else frozenset(aces[:2])
        cards = deck(opts.jokers, collectors)
        rng.shuffle(cards)
        hands = [cards[START_HAND * s : START_HAND * (s + 1)] for s in range(n)]
        pos = START_HAND * n
        piles = [[c] for c in cards[pos : pos + START_PILES]]
        draw = cards[pos + START_PILES :]
        preset = None
    else:
        hands, piles, draw, collectors, preset = deal_preset(opts, deal, aces, rng)
    return TrashState(
        seed=seed,
        rng=rng,
        options=opts.to_json(),
        seats=n,
        phase=Phase.PLAYING,
        opts=opts,
        collectors=collectors,
        fits=fits_table(opts.jokers, collectors),
        first=first,
        hands=hands,
        piles=piles,
        draw=draw,
        known=[[] for _ in range(n)],
        alive=[True] * n,
        turn=first,
        turns=[0] * n,
        start_piles=tuple(tuple(p) for p in piles),
        dealt=[tuple(h) for h in hands],
        preset=preset,
    )


def deal_preset(
    opts: TrashOptions, deal: object, aces: list[int], rng: random.Random
) -> tuple[list[list[int]], list[list[int]], list[int], frozenset[int], dict[str, Any]]:
    """Hands, piles, Draw Pile (top last) and Collectors from a history's ``deal``; InvalidOptions if wrong."""
    n = opts.players
    if not isinstance(deal, Mapping):
        raise InvalidOptions('deal must be an object {"hands": [...], "piles": [...], "draw": [...]}')
    extra = sorted(str(k) for k in deal if k not in ("hands", "piles", "draw"))
    if extra:
        raise InvalidOptions(f"unknown deal key(s) {', '.join(extra)}; a deal takes hands, piles, draw")
    raw_hands, raw_piles, raw_draw = deal.get("hands"), deal.get("piles"), deal.get("draw")
    if not isinstance(raw_hands, list) or len(raw_hands) != n:
        raise InvalidOptions(f"deal.hands must list one hand for each of the {n} seats")
    if not isinstance(raw_piles, list) or not raw_piles:
        raise InvalidOptions("deal.piles must list at least one Trash Pile")
    if len(raw_piles) > MAX_PILES:
        raise InvalidOptions(f"deal.piles may list at most {MAX_PILES} piles")
    if raw_draw is not None and not isinstance(raw_draw, list):
        raise InvalidOptions("deal.draw must be a list of cards, top card first")
    seen: set[int] = set()

    def parse(where: str, items: object, allow_empty: bool) -> list[int]:
        if not isinstance(items, list) or (not items and not allow_empty):
            raise InvalidOptions(f"deal.{where} must be a non-empty list of cards")
        out = []
        for name in items:
            try:
                code = standard_code(name)
            except CardError as err:
                raise InvalidOptions(f"deal.{where}: {err}") from None
            if code in JOKER_CODES and not opts.jokers:
                raise InvalidOptions(f"deal.{where}: {name} is a joker, but this match is played without jokers")
            if code in seen:
                raise InvalidOptions(f"deal.{where}: {name} is dealt twice")
            seen.add(code)
            out.append(code)
        return out

    hands = [parse(f"hands[{s}]", h, False) for s, h in enumerate(raw_hands)]
    piles = [parse(f"piles[{i}]", p, False) for i, p in enumerate(raw_piles)]
    draw_top_first = parse("draw", raw_draw, True) if raw_draw is not None else None
    if opts.jokers:
        collectors = frozenset(JOKER_CODES)
    else:
        named = [a for a in ACE_CODES if a in seen]
        if len(named) > 2:
            raise InvalidOptions(
                "without jokers only two aces stay in the deck (they are the Trash Collectors); "
                f"the deal names {len(named)}"
            )
        collectors = frozenset(named + [a for a in aces if a not in named][: 2 - len(named)])
    for i, pile in enumerate(piles):
        if len(pile) > 1 and any(c in collectors for c in pile):
            raise InvalidOptions(f"deal.piles[{i}]: a Trash Collector can only be a pile on its own")
    full = deck(opts.jokers, collectors)
    if draw_top_first is not None:
        missing = [c for c in full if c not in seen]
        if missing:
            raise InvalidOptions(
                f"deal names {len(seen)} cards but the deck has {len(full)}: missing {' '.join(card_names(missing))} "
                "(leave 'draw' out to have the rest shuffled into the Draw Pile)"
            )
        draw = draw_top_first[::-1]
    else:
        draw = [c for c in full if c not in seen]
        rng.shuffle(draw)
    preset = {
        "hands": [card_names(h) for h in hands],
        "piles": [card_names(p) for p in piles],
        "draw": card_names(draw[::-1]),
    }
    return hands, piles, draw, collectors, preset
