"""The rules of Guimenon that act on the board: targets, conditions, effects, the steps of a turn, scoring.

Everything a card does comes from its data (``cardset``); this module interprets the closed vocabulary
and knows no card by name. Randomness comes from the match's seeded generator (``state.rng``).

Orders (seed 003 and docs/rulings.md §4):

* a step (On Reveal, End of Turn, End of Game) goes Location by Location, left to right; at each
  Location that Location's own ability resolves first, then the cards: the seat with fewer Stars there
  first (a tie is broken by a seeded draw), and each seat's cards in the order they were played;
* a destroyed card's On Destroyed resolves at once, where it was;
* Continuous abilities are recomputed from scratch whenever Stars are read after a change;
* "strongest"/"weakest" ties go to the card played earliest; "random" draws from the seeded generator;
* an effect with no legal target does nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from sefode.games.guimenon.cardset import (
    MAX_PER_LOCATION,
    Ability,
    AddStars,
    CardDef,
    ChangeCost,
    Condition,
    Copy,
    CreateToken,
    Destroy,
    Discard,
    Draw,
    Effect,
    GainMoon,
    Move,
    Target,
    load,
)
from sefode.games.guimenon.state import LOCATIONS, TURNS, GState, Resolution, Unit

CARDSET = load()
CARDS = CARDSET.cards
LOCATION_DEFS = CARDSET.locations

# The action codes (``sefode.games.guimenon.game`` says what each does): here, where the game and its bots read them.
N = len(CARDS)
CONFIRM = 0
PLACE = 1
TAKE_BACK = PLACE + 3 * N
DISCARD = TAKE_BACK + N
ACTIONS = DISCARD + N


# ------------------------------------------------------------------------------------------- stars
def recompute(st: GState) -> None:
    """Continuous abilities, from scratch: Locations' first, then cards', Location by Location."""
    board = st.board
    for loc in board:
        for side in loc:
            for u in side:
                u.cont = 0
    st.dirty = False
    for li in range(st.revealed):
        ab = LOCATION_DEFS[st.locations[li]].ability
        if ab is not None and ab.trigger == "continuous":
            _continuous(st, ab, None, None, li)
    for li in range(LOCATIONS):
        for side in board[li]:
            for u in side:
                ab = u.card.ability
                if ab is not None and ab.trigger == "continuous":
                    _continuous(st, ab, u, u.owner, li)
    st.dirty = False


def _continuous(st: GState, ab: Ability, src: Unit | None, owner: int | None, loc: int) -> None:
    for cond in ab.conditions:
        if not _holds(st, cond, src, owner, loc):
            return
    for eff in ab.effects:
        assert isinstance(eff, AddStars)
        amount = eff.amount
        if eff.per is not None:
            amount *= len(_candidates(st, eff.per, src, owner, loc))
        if amount:
            for u in _candidates(st, eff.target, src, owner, loc):
                if u.card.being:
                    u.cont += amount


def location_stars(st: GState, loc: int, seat: int) -> int:
    if st.dirty:
        recompute(st)
    return sum(u.stars() for u in st.board[loc][seat])


def cost(st: GState, seat: int, card: int) -> int:
    return max(0, CARDS[card].cost + st.cost_mod[seat].get(card, 0))


# ------------------------------------------------------------------------------------------- targets
def _candidates(st: GState, t: Target, src: Unit | None, owner: int | None, loc: int) -> list[Unit]:
    who = t.who
    if who == "self":
        return [src] if src is not None and src.alive else []
    board = st.board
    if who == "allies_here":
        assert owner is not None
        pool = board[loc][owner]
    elif who == "enemies_here":
        assert owner is not None
        pool = board[loc][1 - owner]
    elif who == "all_here":
        pool = board[loc][0] + board[loc][1]
    elif who == "allies":
        assert owner is not None
        pool = [u for li in range(LOCATIONS) for u in board[li][owner]]
    elif who == "enemies":
        assert owner is not None
        pool = [u for li in range(LOCATIONS) for u in board[li][1 - owner]]
    else:
        pool = [u for li in range(LOCATIONS) for side in board[li] for u in side]
    kind, types, lo, hi = t.kind, t.types, t.min_stars, t.max_stars
    out = []
    for u in pool:
        if u is src:
            continue
        card = u.card
        if kind is not None and card.being != (kind == "ser"):
            continue
        if types and card.types.isdisjoint(types):
            continue
        if lo is not None or hi is not None:
            stars = u.stars()
            if (lo is not None and stars < lo) or (hi is not None and stars > hi):
                continue
        out.append(u)
    return out


def select(st: GState, t: Target, src: Unit | None, owner: int | None, loc: int) -> list[Unit]:
    """The cards a target names now (Stars up to date), after its ``pick``."""
    if st.dirty:
        recompute(st)
    found = _candidates(st, t, src, owner, loc)
    if not found or t.pick == "all":
        return found
    if t.pick == "random":
        return [found[st.rng.randrange(len(found))]] if len(found) > 1 else found
    key = [u.stars() for u in found]
    best = max(key) if t.pick == "strongest" else min(key)
    ties = [u for u, k in zip(found, key, strict=True) if k == best]
    return [min(ties, key=lambda u: u.serial)]


def _holds(st: GState, c: Condition, src: Unit | None, owner: int | None, loc: int) -> bool:
    if c.count is not None:
        n = len(_candidates(st, c.count, src, owner, loc))
        if (c.min is not None and n < c.min) or (c.max is not None and n > c.max):
            return False
    if c.turn_min is not None and st.turn < c.turn_min:
        return False
    if (c.losing_here is not None or c.winning_here is not None) and owner is not None:
        mine, theirs = location_stars(st, loc, owner), location_stars(st, loc, 1 - owner)
        if c.losing_here is not None and (mine < theirs) != c.losing_here:
            return False
        if c.winning_here is not None and (mine > theirs) != c.winning_here:
            return False
    return True


def _sides(st: GState, side: str, owner: int | None) -> Sequence[int]:
    if side == "each" or owner is None:
        return (st.first, 1 - st.first)
    return (owner,) if side == "owner" else (1 - owner,)


# ------------------------------------------------------------------------------------------- effects
def resolve(st: GState, ab: Ability, src: Unit | None, owner: int | None, loc: int, step: str, source: str) -> None:
    """Resolve one ability (conditions, then its effects in order)."""
    for cond in ab.conditions:
        if not _holds(st, cond, src, owner, loc):
            return
    results: list[str] | None = [] if st.recording else None
    if results is not None:
        st.records[-1].resolved.append(Resolution(step, loc, owner, source, results))
    for eff in ab.effects:
        apply_effect(st, eff, src, owner, loc, results)


def _room(st: GState, loc: int, seat: int) -> bool:
    return len(st.board[loc][seat]) < MAX_PER_LOCATION


def _name(u: Unit) -> str:
    return u.card.id


def apply_effect(
    st: GState, eff: Effect, src: Unit | None, owner: int | None, loc: int, results: list[str] | None
) -> None:
    if isinstance(eff, AddStars):
        amount = eff.amount
        if eff.per is not None:
            if st.dirty:
                recompute(st)
            amount *= len(_candidates(st, eff.per, src, owner, loc))
        if not amount:
            return
        for u in select(st, eff.target, src, owner, loc):
            if u.card.being:  # only Beings receive Star bonuses
                u.perm += amount
                st.dirty = True
                if results is not None:
                    results.append(f"{_name(u)}@{u.owner} {amount:+d}")
    elif isinstance(eff, Destroy):
        for u in select(st, eff.target, src, owner, loc):
            destroy(st, u, results)
    elif isinstance(eff, Move):
        for u in select(st, eff.target, src, owner, loc):
            options = [li for li in range(st.revealed) if li != u.loc and _room(st, li, u.owner)]
            if not options:
                continue
            to = options[st.rng.randrange(len(options))] if len(options) > 1 else options[0]
            st.board[u.loc][u.owner].remove(u)
            side = st.board[to][u.owner]
            side.append(u)
            side.sort(key=lambda x: x.serial)
            if results is not None:
                results.append(f"{_name(u)}@{u.owner} moved {u.loc}->{to}")
            u.loc = to
            st.dirty = True
    elif isinstance(eff, Draw):
        for seat in _sides(st, eff.side, owner):
            for _ in range(eff.amount):
                if draw_card(st, seat) and results is not None:
                    results.append(f"seat {seat} drew")
    elif isinstance(eff, Discard):
        for seat in _sides(st, eff.side, owner):
            hand = st.hand[seat]
            for _ in range(eff.amount):
                if not hand:
                    break
                card = hand.pop(st.rng.randrange(len(hand)))
                st.discard[seat].append(card)
                st.seen[seat].add(card)
                if results is not None:
                    results.append(f"seat {seat} discarded {CARDS[card].id}")
    elif isinstance(eff, CreateToken):
        token = CARDSET.tokens[eff.token]
        for seat in _sides(st, eff.side, owner):
            for _ in range(eff.count):
                if eff.where == "here":
                    at = loc
                    if not _room(st, at, seat):
                        break
                else:
                    options = [li for li in range(st.revealed) if _room(st, li, seat)]
                    if not options:
                        break
                    at = options[st.rng.randrange(len(options))] if len(options) > 1 else options[0]
                u = create(st, token, seat, at)
                if results is not None:
                    results.append(f"{_name(u)}@{seat} created at {at}")
    elif isinstance(eff, Copy):
        assert owner is not None
        for target in select(st, eff.target, src, owner, loc):
            if _room(st, target.loc, owner):
                u = create(st, target.card, owner, target.loc)
                if results is not None:
                    results.append(f"copy of {_name(target)}@{owner} created at {target.loc}")
    elif isinstance(eff, ChangeCost):
        for seat in _sides(st, eff.side, owner):
            mods = st.cost_mod[seat]
            for card in st.hand[seat]:
                cd = CARDS[card]
                if eff.kind is not None and cd.being != (eff.kind == "ser"):
                    continue
                if eff.types and cd.types.isdisjoint(eff.types):
                    continue
                mods[card] = mods.get(card, 0) + eff.amount
            if results is not None:
                results.append(f"seat {seat} hand costs {eff.amount:+d}")
    elif isinstance(eff, GainMoon):
        for seat in _sides(st, eff.side, owner):
            st.moon_bonus[seat] += eff.amount
            if results is not None:
                results.append(f"seat {seat} +{eff.amount} moon next turn")


def create(st: GState, card: CardDef, seat: int, loc: int) -> Unit:
    """A token or a copy, put into play (it counts toward the 4 per Location)."""
    u = Unit(st.next_uid, card, seat, loc, st.next_serial, created=True)
    st.next_uid += 1
    st.next_serial += 1
    st.board[loc][seat].append(u)
    st.dirty = True
    return u


def destroy(st: GState, u: Unit, results: list[str] | None) -> None:
    if not u.alive:
        return
    u.alive = False
    st.board[u.loc][u.owner].remove(u)
    st.dirty = True
    if not u.created:  # tokens and copies do not go to the discard pile
        st.discard[u.owner].append(u.card.index)
    if results is not None:
        results.append(f"{_name(u)}@{u.owner} destroyed")
    ab = u.card.ability
    if ab is not None and ab.trigger == "on_destroyed":
        resolve(st, ab, u, u.owner, u.loc, "on_destroyed", u.card.id)


def draw_card(st: GState, seat: int) -> bool:
    """Draw the top card; an empty deck means no draw (no penalty)."""
    pile = st.draw[seat]
    if not pile:
        return False
    card = pile.pop()
    st.hand[seat].append(card)
    st.drawn[seat].append(card)
    return True


# ------------------------------------------------------------------------------------------- steps
def side_order(st: GState, loc: int, step: str) -> tuple[int, int]:
    """Who resolves first at ``loc``: fewer Stars there first; a tie is broken by a seeded draw."""
    a, b = location_stars(st, loc, 0), location_stars(st, loc, 1)
    tie = a == b
    first = (0 if a < b else 1) if not tie else st.rng.randrange(2)
    if st.recording:
        st.records[-1].order.append({"step": step, "location": loc, "first": first, "stars": [a, b], "tie": tie})
    return first, 1 - first


def on_reveal_step(st: GState) -> None:
    """The cards revealed this turn resolve their On Reveal (and the Location's "when a card is revealed here").

    docs/rulings.md §4.10: a card destroyed before its own On Reveal resolves never resolves it; a card moved first,
    whatever moved it (a card's ability or a Location's), resolves it at its new Location, and that Location's "when
    a card is revealed here" applies to it (at most once per card and Location in a turn, so nothing loops).
    """
    greeted: set[tuple[int, int]] = set()
    while True:
        progress = False
        for li in range(LOCATIONS):
            if not any(u.fresh for side in st.board[li] for u in side):
                continue
            order = side_order(st, li, "on_reveal")
            loc_ab = LOCATION_DEFS[st.locations[li]].ability
            for seat in order:
                for u in list(st.board[li][seat]):
                    if not u.fresh or not u.alive or u.loc != li:
                        continue
                    progress = True
                    if loc_ab is not None and loc_ab.trigger == "on_card_revealed" and (u.uid, li) not in greeted:
                        greeted.add((u.uid, li))
                        resolve(st, loc_ab, u, u.owner, u.loc, "on_card_revealed", LOCATION_DEFS[st.locations[li]].id)
                        if u.alive and u.loc != li:
                            # moved by the Location itself before its On Reveal: like a card moved by any other
                            # ability, it resolves at its new Location, whose "when a card is revealed here" applies
                            continue
                    u.fresh = False
                    ab = u.card.ability
                    if u.alive and ab is not None and ab.trigger == "on_reveal":
                        resolve(st, ab, u, u.owner, u.loc, "on_reveal", u.card.id)
        if not progress:
            return


def trigger_step(st: GState, trigger: str) -> None:
    """End of Turn or End of Game: each Location's own ability, then the cards, in resolution order."""
    done: set[int] = set()
    for li in range(LOCATIONS):
        if li < st.revealed:
            loc_def = LOCATION_DEFS[st.locations[li]]
            if loc_def.ability is not None and loc_def.ability.trigger == trigger:
                resolve(st, loc_def.ability, None, None, li, trigger, loc_def.id)
        if not any(
            u.card.ability is not None and u.card.ability.trigger == trigger for side in st.board[li] for u in side
        ):
            continue
        for seat in side_order(st, li, trigger):
            for u in list(st.board[li][seat]):
                ab = u.card.ability
                if ab is None or ab.trigger != trigger or u.uid in done or not u.alive or u.loc != li:
                    continue
                done.add(u.uid)
                resolve(st, ab, u, u.owner, li, trigger, u.card.id)


def reveal_location(st: GState) -> None:
    """Turns 1-3: turn the next Location face up and resolve its "when revealed"."""
    li = st.revealed
    st.revealed += 1
    st.dirty = True
    if st.recording:
        st.records[-1].revealed = li
    loc_def = LOCATION_DEFS[st.locations[li]]
    if loc_def.ability is not None and loc_def.ability.trigger == "on_reveal":
        resolve(st, loc_def.ability, None, None, li, "on_reveal", loc_def.id)


# ------------------------------------------------------------------------------------------- scoring
def control(st: GState) -> list[int | None]:
    """Who controls each Location: more Stars, then fewer cards, else neutral (None)."""
    out: list[int | None] = []
    for li in range(LOCATIONS):
        a, b = location_stars(st, li, 0), location_stars(st, li, 1)
        if a != b:
            out.append(0 if a > b else 1)
            continue
        ca, cb = len(st.board[li][0]), len(st.board[li][1])
        out.append(None if ca == cb else 0 if ca < cb else 1)
    return out


def winner(st: GState) -> int | None:
    """Seed 003 and docs/rulings.md §4.9: more Locations controlled wins (1 against none with two neutral is a win,
    whatever the Stars); with as many each, the higher Star total over the three Locations; else a draw."""
    ctrl = control(st)
    held = [sum(1 for c in ctrl if c == seat) for seat in (0, 1)]
    if held[0] != held[1]:
        return 0 if held[0] > held[1] else 1
    totals = [sum(location_stars(st, li, s) for li in range(LOCATIONS)) for s in (0, 1)]
    if totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    return None


__all__ = ["CARDS", "CARDSET", "LOCATION_DEFS", "TURNS"]
