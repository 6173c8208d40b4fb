"""One Man's Trash knowledge for the bots: the easy and normal policies and the search hooks.

Everything here reads a *determinized* state (``Seen.determinize``) and only what the acting seat may see:
its own hand, the piles, every hand's size, the cards each seat took from the table (``known``) and the
size of the Draw Pile. The other hands and the Draw Pile of a determinized state were dealt again at
random, so the policies never look at them (the search does, in its simulations, which is its job).

The heart is :func:`score_actions`: the value of the hand an action leaves (how close it is to a
four-of-a-kind of its best rank, how much other "junk" is left to shed, the Collectors held), plus what the
action does to the piles: keeping a pile that fits the bot's rank, and taking away the piles an opponent
close to four of a kind needs (a Collector put on a pile, or its top card changed).

* **easy**: a random kind of action (draw, trash, collect, litter, swap), then a random one of that kind;
  it takes a win when it sees one.
* **normal**: the best-scored action. It builds toward four of a kind, keeps its Collectors for a pile
  worth collecting, never empties its hand without a win while anything else is legal, and blocks.
* **hard**: the generic ISMCTS with :class:`TrashHooks`. The tree branches on the searching seat's own turns
  (the 4 best-scored actions, one per set that differs only by suits); at the other seats' turns the tree follows
  the normal policy on their resampled hands. Rollouts play the normal scoring (threats and the exact value of a
  draw included) for every seat. Simulations stop after 2 rounds and are scored by a softmax of each seat's hand value.
  Determinizations are weighted by what the others' draws say about their hands (:meth:`TrashHooks.plausibility`).
  Before searching it takes a win in hand, and blocks another seat's shown or inferred four of a kind when a pile
  they fit is open (:func:`block_known_win`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from sefode.bots.knowledge import BotKnowledge
from sefode.bots.policies import GamePolicies
from sefode.bots.search import SearchHooks
from sefode.engine import Action
from sefode.games.trash.rules import COLLECT, DRAW, LITTER, SWAP, TRASH, TURN_LIMIT, adjacency, rank_of
from sefode.games.trash.state import TrashState

OUT = -1000.0
WIN = 10000.0
_ADJ = {True: adjacency(True), False: adjacency(False)}


# ------------------------------------------------------------------ what a seat can see
class Sight:
    """The public facts one decision of ``seat`` needs, computed once per decision."""

    __slots__ = ("adj", "collectors", "draw_left", "rank_bias", "seat", "threats", "unseen_ranks", "unseen_total")

    def __init__(self, st: TrashState, seat: int, full: bool = True) -> None:
        self.seat = seat
        self.adj = _ADJ[st.opts.jokers]
        self.collectors = st.collectors
        self.draw_left = len(st.draw)
        # Ranks the seat may still hope to collect: those not held by the others as far as anyone knows.
        taken = [0] * 13
        for o in range(st.seats):
            if o != seat:
                for c in st.known[o]:
                    if c not in st.collectors:
                        taken[c >> 2] += 1
        on_piles = [0] * 13
        for pile in st.piles:
            for c in pile:
                if c not in st.collectors:
                    on_piles[c >> 2] += 1
        self.rank_bias = [0.3 * on_piles[r] - 1.5 * taken[r] for r in range(13)]
        self.threats: list[tuple[int, float]] = []
        self.unseen_ranks = [0.0] * 13
        self.unseen_total = 0.0
        if not full:
            return
        # Opponents close to four of a kind, from what they took from the table and their hand sizes.
        for o in range(st.seats):
            if o == seat or not st.alive[o]:
                continue
            size = len(st.hands[o])
            if size > 6:
                continue
            counts = [0] * 13
            for c in st.known[o]:
                if c not in st.collectors:
                    counts[c >> 2] += 1
            for r in range(13):
                k = counts[r]
                if k >= 2 or (k >= 1 and size <= 4):
                    weight = (k / 4.0) * (1.0 if size <= 4 else 0.6 if size == 5 else 0.3)
                    self.threats.append((r, weight))
        # What a draw may bring: every card the seat has not seen.
        seen = set(st.hands[seat])
        for pile in st.piles:
            seen.update(pile)
        for o in range(st.seats):
            seen.update(st.known[o])
        full_deck = range(54) if st.opts.jokers else [*sorted(st.collectors), *range(4, 52)]
        for c in full_deck:
            if c in seen:
                continue
            self.unseen_total += 1
            if c not in st.collectors:
                self.unseen_ranks[c >> 2] += 1


def hand_value(hand: Sequence[int], sight: Sight, tops: Sequence[int] | None = None) -> tuple[float, int]:
    """How good a hand is (higher is better) and its best rank, for the seat of ``sight``.

    The best rank is the one held most (public hopes break ties); the other cards are junk to shed,
    cheaper in groups of one rank (they go together). A Collector is a tool while building and a burden
    once the four are in hand (collecting brings cards back). Four of a kind and nothing else is worth 10 more
    when ``tops`` has a pile to win on."""
    value, best, pure = _hand_parts(hand, sight)
    if pure and tops is not None and _lands(tops, sight, best):
        value += 10.0
    return value, best


def _lands(tops: Sequence[int], sight: Sight, rank: int) -> bool:
    """Is there a pile whose top card (not a Collector) four cards of ``rank`` may be trashed on?"""
    coll = sight.collectors
    near = sight.adj[rank]
    return any(t not in coll and (t >> 2) in near for t in tops)


def _hand_parts(hand: Sequence[int], sight: Sight) -> tuple[float, int, bool]:
    """``hand_value`` without the piles: the value, the best rank, and whether the hand is four of a kind alone."""
    if not hand:
        return OUT, -1, False
    counts = [0] * 13
    collectors = 0
    coll = sight.collectors
    for c in hand:
        if c in coll:
            collectors += 1
        else:
            counts[c >> 2] += 1
    bias = sight.rank_bias
    best = 0
    best_key = -1e9
    have = second = junk_ranks = 0
    for r in range(13):
        k = counts[r]
        if k:
            junk_ranks += 1
            key = k * 10 + bias[r]
            if key > best_key:
                if have > second:
                    second = have
                best, best_key, have = r, key, k
            elif k > second:
                second = k
    if have:
        junk_ranks -= 1
    junk = len(hand) - collectors - have
    value = 12.0 * have - 3.0 * junk - 1.5 * junk_ranks + 1.5 * second
    pure = False
    if have == 4:
        value -= 8.0 * collectors
        if junk == 0 and collectors == 0:
            value += 25.0
            pure = True
    else:
        value += 4.0 if collectors == 1 else 5.0 if collectors >= 2 else 0.0
    if len(hand) == 1 and sight.draw_left == 0:
        value -= 6.0  # one card and nothing to draw: going out is near
    return value, best, pure


def _pile_threat(tops: Sequence[int], sight: Sight) -> float:
    """Penalty for leaving some opponent close to four of a kind a pile to win on."""
    if not sight.threats:
        return 0.0
    coll = sight.collectors
    penalty = 0.0
    for rank, weight in sight.threats:
        near = sight.adj[rank]
        if any(t not in coll and (t >> 2) in near for t in tops):
            penalty += 40.0 * weight
    return penalty


def _winning(st: TrashState, seat: int, action: Action) -> bool:
    """Does ``action`` trash a four-of-a-kind that empties the hand on a pile that is not a Collector?"""
    if not TRASH <= action < SWAP:
        return False
    rest = action - TRASH
    if rest & 15 != 15 or len(st.hands[seat]) != 4:
        return False
    pile = (rest >> 4) // 13
    return st.piles[pile][-1] not in st.collectors


def score_actions(
    st: TrashState, seat: int, legal: Sequence[Action], sight: Sight | None = None, full: bool = True
) -> list[tuple[float, Action]]:
    """Each legal action with its score for ``seat`` (higher is better); ``full`` adds the threat and the
    exact value of a draw (the normal bot), without it the scoring is cheap (rollouts)."""
    if sight is None:
        sight = Sight(st, seat, full)
    hand = st.hands[seat]
    piles = st.piles
    tops = [p[-1] for p in piles]
    coll = sight.collectors
    out: list[tuple[float, Action]] = []
    cache: dict[tuple[int, int, int, int], float] = {}
    trashed: dict[tuple[int, int, bool], tuple[float, int, bool]] = {}
    threats: dict[tuple[int, int], float] = {}
    for action in legal:
        if action == DRAW:
            if full and sight.unseen_total:
                total = sight.unseen_total
                value = 0.0
                p_coll = max(0.0, total - sum(sight.unseen_ranks)) / total
                for r in range(13):
                    if sight.unseen_ranks[r]:
                        value += sight.unseen_ranks[r] / total * hand_value([*hand, r * 4], sight, tops)[0]
                if p_coll:
                    value += p_coll * hand_value([*hand, min(coll)], sight, tops)[0]
            else:
                value = hand_value(hand, sight, tops)[0] - 2.5
            value -= _pile_threat(tops, sight) if full else 0.0
            out.append((value - 0.5, action))
            continue
        if action < LITTER:
            p = action - COLLECT
            one = min(c for c in hand if c in coll)
            new_hand = [c for c in hand if c != one] + piles[p]
            new_tops = tops[:]
            new_tops[p] = one
        elif action < TRASH:
            card = action - LITTER
            new_hand = [c for c in hand if c != card]
            new_tops = [*tops, card]
        else:
            swap = action >= SWAP
            rest = action - (SWAP if swap else TRASH)
            suits = rest & 15
            p, r = divmod(rest >> 4, 13)
            k = bin(suits).count("1")
            key = (1 if swap else 0, p, r, k)
            if key in cache:  # the same number of cards of one rank: suits do not matter
                out.append((cache[key], action))
                continue
            if not swap and _winning(st, seat, action):
                cache[key] = WIN
                out.append((WIN, action))
                continue
            given = [c for c in hand if c >> 2 == r and c not in coll and suits >> (c & 3) & 1]
            new_tops = tops[:]
            new_tops[p] = given[-1]
            if swap:
                value = hand_value([c for c in hand if c not in given] + piles[p][-k:], sight, new_tops)[0]
            else:
                # The hand a trash leaves depends on the rank, the count and whether a Collector comes back, not on
                # the pile: scored once for all the piles it fits.
                pickup = tops[p] in coll
                parts = trashed.get((r, k, pickup))
                if parts is None:
                    new_hand = [c for c in hand if c not in given]
                    if pickup:
                        new_hand.append(tops[p])
                    parts = trashed[(r, k, pickup)] = _hand_parts(new_hand, sight)
                value, best, pure = parts
                if pure and _lands(new_tops, sight, best):
                    value += 10.0
            if full:
                # The threat looks at the ranks of the tops only: one figure per pile and rank put on it.
                penalty = threats.get((p, r))
                if penalty is None:
                    penalty = threats[(p, r)] = _pile_threat(new_tops, sight)
                value -= penalty
            cache[key] = value
            out.append((value, action))
            continue
        value = hand_value(new_hand, sight, new_tops)[0]
        if full:
            value -= _pile_threat(new_tops, sight)
        out.append((value, action))
    return out


def best_action(scored: Sequence[tuple[float, Action]], rng: random.Random) -> Action:
    top = max(s for s, _ in scored)
    choices = [a for s, a in scored if s >= top - 1e-9]
    return choices[0] if len(choices) == 1 else rng.choice(choices)


# ------------------------------------------------------------------ the levels
def _kind(action: Action) -> int:
    if action == DRAW:
        return 0
    if action < LITTER:
        return 1
    if action < TRASH:
        return 2
    return 3 if action < SWAP else 4


def action_class(action: Action) -> tuple[int, ...]:
    """Actions that differ only by the suits of the cards they trash or swap share a class."""
    if action < TRASH:
        return (action,)
    swap = action >= SWAP
    rest = action - (SWAP if swap else TRASH)
    return (int(swap), rest >> 4, bin(rest & 15).count("1"))


def easy_action(st: TrashState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """A beginner: takes a win it sees, else a random kind of action and a random action of that kind."""
    for action in legal:
        if _winning(st, seat, action):
            return action
    kinds: dict[int, list[Action]] = {}
    for action in legal:
        kinds.setdefault(_kind(action), []).append(action)
    group = kinds[rng.choice(sorted(kinds))]
    return rng.choice(group)


def normal_action(st: TrashState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    return best_action(score_actions(st, seat, legal), rng)


class TrashPolicies(GamePolicies):
    def easy(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return easy_action(state, seat, legal, rng)

    def normal(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return normal_action(state, seat, legal, rng)


def progress(st: TrashState, seat: int) -> float:
    """How close ``seat`` is to winning, 0 (out) .. 1 (four of a kind and nothing else, a pile to win on)."""
    if st.winner == seat:
        return 1.0
    if not st.alive[seat] or st.winner >= 0:
        return 0.0
    hand = st.hands[seat]
    coll = st.collectors
    counts = [0] * 13
    collectors = 0
    for c in hand:
        if c in coll:
            collectors += 1
        else:
            counts[c >> 2] += 1
    best = max(counts)
    junk = len(hand) - collectors - best
    value = (best / 4.0) ** 2 * 0.75**junk * (0.8 if collectors and best == 4 else 1.0)
    if best == 4 and junk == 0 and not collectors:
        rank = counts.index(4)
        near = _ADJ[st.opts.jokers][rank]
        value = 2.0 if any(p[-1] not in coll and rank_of(p[-1]) in near for p in st.piles) else 1.3
    return 0.04 + value


def win_chances(st: TrashState, temperature: float, nobody: float | None = None) -> list[float]:
    """A guess at each seat's chance to win from here: a softmax of the hands' values over the seats still
    in (a seat out has none). The sum stays below 1: some matches end with no winner. Without ``nobody`` that
    share is a fixed tenth; with it, "no one wins" is one more choice of the softmax, as a hand of that value."""
    values: list[float] = []
    for s in range(st.seats):
        if not st.alive[s]:
            values.append(-1.0)
            continue
        values.append(hand_value(st.hands[s], Sight(st, s, full=False), [p[-1] for p in st.piles])[0])
    top = max(values)
    weights = [math.exp((v - top) / temperature) if st.alive[s] else 0.0 for s, v in enumerate(values)]
    if nobody is None:
        total = sum(weights) * 1.1
    else:
        top_all = max(top, nobody)
        weights = [w * math.exp((top - top_all) / temperature) for w in weights]
        total = sum(weights) + math.exp((nobody - top_all) / temperature)
    return [w / total for w in weights]


def searcher(st: TrashState) -> int:
    """The seat a determinized state was drawn for: the one whose hand as dealt it still knows
    (``Trash.resample`` forgets the others'); -1 in a state that is not a determinization."""
    mine = [s for s in range(st.seats) if st.dealt[s] and st.dealt[s][0] >= 0]
    return mine[0] if len(mine) == 1 else -1


def last_draw_tops(st: TrashState) -> dict[int, list[int]]:
    """For each seat whose latest turn was a draw, the top cards of the piles when it drew.

    Piles are public and only trashes, swaps, litters and collects change them, so they are replayed from the
    piles as dealt and the public log. (Which Collector a collect leaves is not needed: both fit alike.)"""
    piles = [list(p) for p in st.start_piles]
    coll = st.collectors
    marker = min(coll)
    last: dict[int, list[int]] = {}
    for seat, action in st.log:
        if action == DRAW:
            last[seat] = [p[-1] for p in piles]
            continue
        last.pop(seat, None)
        if action < LITTER:
            piles[action - COLLECT] = [marker]
        elif action < TRASH:
            piles.append([action - LITTER])
        else:
            swap = action >= SWAP
            rest = action - (SWAP if swap else TRASH)
            pile_index, rank = divmod(rest >> 4, 13)
            cards = [rank * 4 + s for s in range(4) if rest >> s & 1]
            pile = piles[pile_index]
            if swap:
                del pile[-len(cards) :]
            elif pile[-1] in coll:
                pile.pop()
            pile.extend(cards)
    return last


# ------------------------------------------------------------------ a known near-win
def known_near_wins(st: TrashState, seat: int) -> list[tuple[int, int]]:
    """(other seat, rank) for each other seat that ``seat`` knows, or can infer, holds four of a kind of that rank and
    nothing else, from the public record alone: a hand of 4 cards whose known cards (taken from the table) are all of
    one rank, with the missing ones unseen by ``seat``, and either all 4 known (shown), or at least 2 known and its
    latest turn a trash or a litter that left it at those 4 (it shed its last junk: inferred)."""
    coll = st.collectors
    seen = set(st.hands[seat])
    for pile in st.piles:
        seen.update(pile)
    for o in range(st.seats):
        if o != seat:
            seen.update(st.known[o])
    latest: dict[int, Action] = {}
    for s, action in st.log:
        latest[s] = action
    out: list[tuple[int, int]] = []
    for o in range(st.seats):
        if o == seat or not st.alive[o] or len(st.hands[o]) != 4:
            continue
        known = st.known[o]
        ranks = {c >> 2 for c in known if c not in coll}
        if len(ranks) != 1 or any(c in coll for c in known):
            continue
        rank = next(iter(ranks))
        k = len(known)
        missing = [rank * 4 + suit for suit in range(4) if rank * 4 + suit not in known]
        if any(c in seen or c in coll for c in missing):
            continue  # a missing card is where ``seat`` can see it: not four of a kind
        shed = o in latest and LITTER <= latest[o] < SWAP
        if k == 4 or (k >= 2 and shed):
            out.append((o, rank))
    return out


def _tops_after(st: TrashState, seat: int, action: Action) -> list[int]:
    """The pile tops after ``seat`` plays ``action`` (a collect leaves a Collector on top)."""
    tops = [p[-1] for p in st.piles]
    if action == DRAW:
        return tops
    if action < LITTER:
        tops[action - COLLECT] = min(c for c in st.hands[seat] if c in st.collectors)
        return tops
    if action < TRASH:
        return [*tops, action - LITTER]
    rest = action - (SWAP if action >= SWAP else TRASH)
    p, r = divmod(rest >> 4, 13)
    suits = rest & 15
    tops[p] = r * 4 + max(i for i in range(4) if suits >> i & 1)
    return tops


def block_known_win(st: TrashState, seat: int, legal: Sequence[Action]) -> Action | None:
    """When another seat is known (or inferred, :func:`known_near_wins`) to hold four of a kind with a pile to win
    on, the best-scored legal action that leaves no such pile (collecting it, or covering its top with a rank the
    four do not fit), if there is one; None when no win is open or nothing blocks it."""
    threats = known_near_wins(st, seat)
    if not threats:
        return None
    sight = Sight(st, seat, full=False)

    def open_win(tops: Sequence[int]) -> bool:
        return any(_lands(tops, sight, rank) for _, rank in threats)

    if not open_win([p[-1] for p in st.piles]):
        return None
    blocking = [a for a in legal if not open_win(_tops_after(st, seat, a))]
    if not blocking:
        return None
    scored = score_actions(st, seat, blocking)
    top = max(score for score, _ in scored)
    return min(a for score, a in scored if score >= top - 1e-9)


class TrashHooks(SearchHooks):
    """Search advice for the hard bot.

    * ``candidates``: at the searching seat's turns, the ``width`` best-scored actions; at the other seats'
      turns (``model_others``), the normal policy's one action on their resampled hand, so the tree is spent on
      the seat's own choices and the others are expected to play sensibly rather than at random;
    * ``rollout``: the normal bot's full scoring for every seat (``full_rollouts``; the cheap one without threats
      and the exact value of a draw costs half as much an iteration and did no better), with a share ``noise``
      of easy moves;
    * ``horizon`` of ``rounds`` rounds, ``rewards`` a softmax of the hands' values (1 to the winner of a match
      that ended); in the last ``late`` turns before the turn limit, "no one wins" is a choice of that softmax,
      as a hand whose value grows from ``nobody[0]`` (``late`` turns left) to ``nobody[1]`` (at the limit), so
      the search no longer counts on a stalemate costing it nothing;
    * ``plausibility``: ``infer`` weighs deals by what the others' draws say (see the method);
    * ``shortcut``: a win in hand, and (``block``) the block of another seat's known or inferred four of a kind
      (:func:`block_known_win`, issue 27): the deals the search draws almost never hold those four, so it would not
      see the win coming.

    Measured in ``docs/benchmarks.md`` (One Man's Trash): the defaults are the best of what was tried."""

    def __init__(
        self,
        rounds: int = 2,
        noise: float = 0.0,
        temperature: float = 8.0,
        width: int = 4,
        extra: int = 0,
        margin: float = 1e9,
        full_rollouts: bool = True,
        scale: float = 1.0,
        model_others: bool = True,
        infer: float = 0.3,
        late: int = 40,
        nobody: tuple[float, float] = (30.0, 90.0),
        block: bool = True,
    ) -> None:
        self.block = block
        self.late = late
        self.nobody = nobody
        self.infer = infer
        self._draws: tuple[tuple[Any, ...], dict[int, list[int]]] | None = None
        self.model_others = model_others
        self.scale = scale
        self.margin = margin
        self.full_rollouts = full_rollouts
        self.rounds = rounds
        self.extra = extra
        self.noise = noise
        self.temperature = temperature
        self.width = width
        self._memo: dict[tuple[Any, ...], list[Action]] = {}

    def horizon(self, root: Any, state: Any) -> bool:
        played: int = len(state.log) - len(root.log)
        limit: int = self.rounds * max(2, sum(root.alive)) + self.extra
        return played >= limit

    def rewards(self, root: Any, state: Any) -> list[float]:
        st: TrashState = state
        n = st.seats
        k = self.scale
        if st.over:
            return [k if s == st.winner else 0.0 for s in range(n)]
        left = TURN_LIMIT - max(st.turns)
        if left >= self.late:
            return [k * v for v in win_chances(st, self.temperature)]
        low, high = self.nobody
        nobody = high - (high - low) * left / self.late
        return [k * v for v in win_chances(st, self.temperature, nobody)]

    def rollout(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.noise:
            return easy_action(state, seat, legal, rng)
        scored = score_actions(state, seat, legal, full=self.full_rollouts)
        return best_action(scored, rng)

    def candidates(self, state: Any, seat: int, legal: Sequence[Action]) -> Sequence[Action]:
        """The ``width`` best-scored actions, one of each set that differs only by suits.

        The scoring reads only what ``seat`` sees, so the answer is remembered by that (the root decision, and
        every node of the searching seat's own turns that the same draws reach, are scored once)."""
        st: TrashState = state
        if self.model_others and seat != searcher(st):
            if len(legal) == 1:
                return legal
            return [normal_action(st, seat, legal, random.Random(len(st.log)))]
        if len(legal) <= 2:
            return legal
        key = (
            seat,
            st.collectors,
            tuple(sorted(st.hands[seat])),
            tuple(tuple(p) for p in st.piles),
            tuple(len(h) for h in st.hands),
            tuple(tuple(k) for k in st.known),
            tuple(st.alive),
            len(st.draw),
            tuple(legal),
        )
        memo = self._memo
        found = memo.get(key)
        if found is not None:
            return found
        if len(memo) >= 4096:
            memo.clear()
        found = memo[key] = self._rank(st, seat, legal)
        return found

    def _rank(self, state: TrashState, seat: int, legal: Sequence[Action]) -> list[Action]:
        for action in legal:
            if _winning(state, seat, action):
                return [action]
        best: dict[tuple[int, ...], tuple[float, Action]] = {}
        for score, action in score_actions(state, seat, legal):
            key = action_class(action)
            if key not in best:
                best[key] = (score, action)
        ranked = sorted(best.values(), key=lambda sa: -sa[0])
        floor = ranked[0][0] - self.margin
        return [a for score, a in ranked[: self.width] if score >= floor]

    def plausibility(self, state: Any, seat: int) -> float:
        """What a draw says about a hand: a player who drew had, as a rule, no junk card that fitted a pile
        (shedding it was better). For each other seat whose latest turn was a draw, the cards it holds that no
        one has seen, outside its most held rank, that fitted a pile top of that moment: one may be the card it
        drew; each further one makes this deal ``infer`` times as likely. (A Collector on the table, on which
        anything fits, says nothing.)"""
        if self.infer <= 0.0:
            return 1.0
        st: TrashState = state
        key = (st.start_piles, tuple(st.log))
        draws = self._draws  # one read: bots may search in several threads at once
        if draws is None or draws[0] != key:
            draws = self._draws = (key, last_draw_tops(st))
        tops_at = draws[1]
        coll = st.collectors
        fits = st.fits
        weight = 1.0
        for o, tops in tops_at.items():
            if o == seat or not st.alive[o] or any(t in coll for t in tops):
                continue
            hidden = st.hands[o][:]
            for c in st.known[o]:
                hidden.remove(c)
            if len(hidden) < 2:
                continue
            counts = [0] * 13
            for c in st.hands[o]:
                if c not in coll:
                    counts[c >> 2] += 1
            main = counts.index(max(counts))
            fitting = sum(1 for c in hidden if c not in coll and c >> 2 != main and any(fits[t][c] for t in tops))
            if fitting > 1:
                weight *= self.infer ** (fitting - 1)
        return weight

    def shortcut(self, state: Any, seat: int, legal: Sequence[Action]) -> Action | None:
        """A win in hand is taken; else, when another seat is known to hold four of a kind with a pile to win on,
        the best-scored action that takes that pile away (:func:`block_known_win`); else the search decides."""
        for action in legal:
            if _winning(state, seat, action):
                return action
        if self.block:
            return block_known_win(state, seat, legal)
        return None


KNOWLEDGE = BotKnowledge(policies=TrashPolicies(), hooks=TrashHooks())
"""What the generic bots know of Trash: ``Trash.bot_knowledge`` hands it to them."""
