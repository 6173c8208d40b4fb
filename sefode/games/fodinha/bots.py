"""Fodinha-family knowledge for the bots: bid estimates, the easy and normal policies, and the search hooks.

Everything here reads a *determinized* state (``Seen.determinize``) and only the parts of it that the
acting seat may see: its own hand (in hands of 2+ cards), the other hands in the one-card hand, the
cards played, bids, tricks won, scores and the vira once it is face up. In a determinized state every
hidden card was dealt again at random, so even a slip could not reveal the real deal; the fairness
tests check the decisions anyway.

The generic search (``sefode.bots.search``) gets from this module only a :class:`SearchHooks` object:
where to stop a simulation (the end of the hand), how to score it (lives or points each unit lost),
a fast rollout policy, the other seats' moves inside the tree (the normal policy) and the exact answer for the
one-card hand.
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
from sefode.games.fodinha.cards import TRUCO_DECK_SIZE
from sefode.games.fodinha.rules import BID, sete_letras_strength, trick_winner_all, trick_winner_pairs
from sefode.games.fodinha.state import BIDDING, OVER, FodinhaState

# ------------------------------------------------------------------ what a seat knows


def _winner(st: FodinhaState, plays: Sequence[tuple[int, int]], strength: Sequence[int] | None = None) -> int:
    """Index in ``plays`` of the winning play (-1: every card melted), by the variant's melada rule."""
    table = st.strength if strength is None else strength
    if st.opts.sete_letras:
        return trick_winner_all(plays, table)
    return trick_winner_pairs(plays, table)


def played_cards(st: FodinhaState) -> list[int]:
    """Cards played so far in this hand (public)."""
    out = [c for t in st.tricks for _, c in t.plays]
    out.extend(c for _, c in st.trick)
    return out


def unseen_for(st: FodinhaState, seat: int) -> list[int]:
    """Cards ``seat`` has not seen in a hand of 2+ cards: neither in its hand, nor played, nor the vira."""
    known = set(st.hands[seat])
    known.update(played_cards(st))
    if st.vira >= 0:
        known.add(st.vira)
    return [c for c in range(TRUCO_DECK_SIZE * st.opts.decks) if c not in known]


def unit_need(st: FodinhaState, seat: int) -> int:
    """Tricks the seat's unit (itself, or its pair) still needs to make its bid exactly (negative: over)."""
    unit = st.unit[seat]
    need = 0
    for s in st.order:
        if st.unit[s] == unit:
            need += st.bids[s] - st.won[s]
    return need


def seat_need(st: FodinhaState, seat: int) -> int:
    return st.bids[seat] - st.won[seat]


def p_none_of(k: int, m: int, pool: int) -> float:
    """Probability that ``m`` cards drawn from ``pool`` miss all ``k`` marked ones (hypergeometric)."""
    if k <= 0 or m <= 0:
        return 1.0
    if m > pool - k:
        return 0.0
    p = 1.0
    for i in range(m):
        p *= (pool - k - i) / (pool - i)
    return p


# ------------------------------------------------------------------ the one-card hand


_SL_TABLES: list[list[int]] = []


def _sl_table_for_manilha(rank: int) -> list[int]:
    if not _SL_TABLES:
        # The vira one rank below the manilha (wrapping): its suit does not matter.
        for r in range(10):
            vira_rank = (r - 1) % 10
            _SL_TABLES.append(sete_letras_strength(vira_rank * 4))
    return _SL_TABLES[rank]


def one_card_win_chances(st: FodinhaState, seat: int) -> dict[int, float]:
    """For each card ``seat`` might have on its forehead: the chance it wins the trick, given the cards it
    sees on the others (and, in 7 Letras, averaging over the hidden vira).

    Returns candidate own card -> probability that the seat's card wins the one-card trick.
    """
    visible = {s: st.hands[s][0] for s in st.order if s != seat and st.hands[s]}
    known = set(visible.values())
    pool = [c for c in range(TRUCO_DECK_SIZE * st.opts.decks) if c not in known]
    chances: dict[int, float] = {}
    if not st.opts.sete_letras:
        cache: dict[int, float] = {}
        for c in pool:
            s = st.strength[c]
            if s not in cache:
                plays = [(o, c if o == seat else visible[o]) for o in st.order]
                w = _winner(st, plays)
                cache[s] = 1.0 if w >= 0 and plays[w][0] == seat else 0.0
            chances[c] = cache[s]
        return chances
    # 7 Letras: the vira is hidden too; it is one of the pool cards other than the seat's own.
    rank_count = [0] * 10
    for c in pool:
        rank_count[c >> 2] += 1
    for c in pool:
        total = 0
        wins = 0.0
        for vira_rank in range(10):
            count = rank_count[vira_rank] - (1 if c >> 2 == vira_rank else 0)
            if count <= 0:
                continue
            table = _sl_table_for_manilha((vira_rank + 1) % 10)
            plays = [(o, c if o == seat else visible[o]) for o in st.order]
            w = trick_winner_all(plays, table)
            if w >= 0 and plays[w][0] == seat:
                wins += count
            total += count
        chances[c] = wins / total if total else 0.0
    return chances


def _one_card_predicted_bid(st: FodinhaState, seat: int, own: int, bidder: int) -> float:
    """Chance that ``bidder`` (a normal player) bids 1, if ``seat``'s hidden card is ``own``."""
    saved = st.hands[seat]
    st.hands[seat] = [own]
    try:
        chances = one_card_win_chances(st, bidder)
    finally:
        st.hands[seat] = saved
    p = sum(chances.values()) / len(chances) if chances else 0.0
    return 0.85 if p > 0.5 else 0.15


def one_card_win_probability(st: FodinhaState, seat: int, infer: bool) -> float:
    """Chance the seat's unseen card wins the one-card trick. With ``infer`` the bids already made weigh
    the candidates: each earlier bidder saw the seat's card, so a bid is a hint about it."""
    chances = one_card_win_chances(st, seat)
    if not chances:
        return 0.0
    if not infer:
        return sum(chances.values()) / len(chances)
    bidders = [s for s in st.order if s != seat and st.bids[s] >= 0]
    if not bidders:
        return sum(chances.values()) / len(chances)
    # Group candidates by what they do to the trick (same strength -> same hints).
    weight_sum = 0.0
    win_sum = 0.0
    groups: dict[tuple[int, float], list[int]] = {}
    for c, p in chances.items():
        groups.setdefault((st.strength[c] if not st.opts.sete_letras else c, p), []).append(c)
    for (_, p), cards in groups.items():
        w = 1.0
        for b in bidders:
            p1 = _one_card_predicted_bid(st, seat, cards[0], b)
            w *= p1 if st.bids[b] == 1 else 1.0 - p1
        weight_sum += w * len(cards)
        win_sum += w * len(cards) * p
    return win_sum / weight_sum if weight_sum > 0 else 0.0


def best_bid(legal: Sequence[Action], estimate: float) -> Action:
    """The legal bid closest to ``estimate`` (on a tie, the lower one): how a dealer handles the pé."""
    return min(legal, key=lambda a: (abs(a - BID - estimate), a))


# ------------------------------------------------------------------ bidding (hands of 2+ cards)


def card_win_chance(st: FodinhaState, card: int, unseen: Sequence[int], opponents: int) -> float:
    """Rough chance that ``card`` takes a trick: it beats the card each other player puts on it, taken
    at random from the cards the seat has not seen; an equal card may melt it (it counts 0.4 of a weaker one)."""
    s = st.strength[card]
    weaker = 0.0
    for c in unseen:
        t = st.strength[c]
        if t < s:
            weaker += 1.0
        elif t == s:
            weaker += 0.4
    if not unseen:
        return 1.0
    return float((weaker / len(unseen)) ** opponents)


def estimate_tricks(st: FodinhaState, seat: int) -> float:
    """Expected tricks from the seat's cards, given the manilhas, how many play, and melada risk."""
    hand = st.hands[seat]
    unseen = unseen_for(st, seat)
    opponents = len(st.order) - 1
    return sum(card_win_chance(st, c, unseen, opponents) for c in hand)


_ROUGH: dict[tuple[int, ...], list[float]] = {}


def _rough_chances(st: FodinhaState) -> list[float]:
    """Per card code: the chance it takes a trick against one random card from each other player, from
    the deck alone (cached per strength table and number of players)."""
    key = (len(st.order), *st.strength)
    table = _ROUGH.get(key)
    if table is None:
        values = list(st.strength)
        opponents = len(st.order) - 1
        table = []
        for s in values:
            weaker = sum(1.0 if t < s else 0.4 if t == s else 0.0 for t in values) - 0.4
            table.append((weaker / (len(values) - 1)) ** opponents)
        if len(_ROUGH) > 256:
            _ROUGH.clear()
        _ROUGH[key] = table
    return table


def normal_bid(st: FodinhaState, seat: int, legal: Sequence[Action]) -> Action:
    if st.size == 1:
        p = one_card_win_probability(st, seat, infer=False)
        return best_bid(legal, 1.0 if p > 0.5 else 0.0)
    est = estimate_tricks(st, seat)
    # What the earlier bids say: if the others already claim most tricks, ours are contested.
    others = sum(st.bids[s] for s in st.order if s != seat and st.bids[s] >= 0)
    bidders_left = sum(1 for s in st.order if st.bids[s] < 0) - 1
    room = st.size - others
    if bidders_left == 0 and est > room:
        est = 0.5 * (est + max(room, 0.0))
    elif others > 0 and est > room:
        est = 0.7 * est + 0.3 * max(room, 0.0)
    # The first to lead gets a slight edge to cash a top card.
    if st.order and st.order[0] == seat:
        est += 0.1
    return best_bid(legal, est)


def easy_bid(st: FodinhaState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """A beginner: counts its manilhas and threes, sometimes one off; never more than it holds."""
    if st.size == 1:
        # Looks at the others' cards: bids to win when they look weak.
        visible = [st.strength[st.hands[s][0]] for s in st.order if s != seat and st.hands[s]]
        weak = not visible or max(visible) < 6
        return best_bid(legal, 1.0 if (weak and rng.random() < 0.7) else 0.0)
    strong = sum(1 for c in st.hands[seat] if st.strength[c] >= 8)
    if rng.random() < 0.35:
        strong += rng.choice((-1, 1))
    strong = max(0, min(strong, st.size))
    return best_bid(legal, float(strong))


# ------------------------------------------------------------------ playing


def _p_hold(st: FodinhaState, seat: int, top_strength: int, unseen: Sequence[int], later_hold: int) -> float:
    """Chance that no one after the seat beats or melts a card of ``top_strength``."""
    if later_hold <= 0:
        return 1.0
    k = sum(1 for c in unseen if st.strength[c] >= top_strength)
    return p_none_of(k, later_hold, len(unseen))


def trick_chances(st: FodinhaState, seat: int, hand: Sequence[int]) -> list[tuple[int, float, int]]:
    """For each card: (card, chance the seat's unit takes this trick, who wins it if nobody else plays)."""
    unseen = unseen_for(st, seat)
    played_now = len(st.trick)
    later = st.order[(st.order.index(seat) + 1) :] + st.order[: st.order.index(seat)]
    later = later[: len(st.order) - played_now - 1]
    later_opp = [s for s in later if st.unit[s] != st.unit[seat]]
    later_hold = sum(len(st.hands[s]) for s in later_opp)
    out: list[tuple[int, float, int]] = []
    unit = st.unit[seat]
    for c in hand:
        plays = [*st.trick, (seat, c)]
        w = _winner(st, plays)
        if w < 0:
            out.append((c, 0.0, -1))
            continue
        who = plays[w][0]
        if st.unit[who] != unit:
            out.append((c, 0.0, who))
            continue
        out.append((c, _p_hold(st, seat, st.strength[plays[w][1]], unseen, later_hold), who))
    return out


def normal_play(st: FodinhaState, seat: int, hand: Sequence[int]) -> Action:
    """Plays to make the bid exactly: takes tricks while the unit needs them, ducks when it does not,
    melts a card on purpose to kill a trick, and weighs the bolo (a trick worth more than one)."""
    if len(hand) == 1:
        return hand[0]
    need = unit_need(st, seat)
    value = 1 + st.acc
    strength = st.strength
    want = need > 0 and value < 2 * need + (1 if need >= len(hand) else 0)
    chances = trick_chances(st, seat, hand)
    # Secondary aim: hand an unwanted trick to an opponent, or kill the trick of one who needs it.
    harm: dict[int, float] = {}
    for c, _, who in chances:
        h = 0.0
        if who >= 0 and st.unit[who] != st.unit[seat] and unit_need(st, who) <= 0:
            h = 1.0
        elif who < 0 and st.trick:
            current = _winner(st, st.trick)
            if current >= 0:
                owner = st.trick[current][0]
                if st.unit[owner] != st.unit[seat] and unit_need(st, owner) > 0:
                    h = 0.5
        harm[c] = h
    if want:
        if need >= len(hand):
            # Every remaining trick is needed: take this one with the best card.
            top = max(p for _, p, _ in chances)
            good = [x for x in chances if x[1] >= top - 1e-9]
            return min(good, key=lambda x: strength[x[0]])[0]
        top = max(p for _, p, _ in chances)
        if top < 0.3:
            # Cannot take it reliably: keep the good cards, throw the weakest (melting an opponent if we can).
            return min(chances, key=lambda x: (-harm[x[0]], strength[x[0]]))[0]
        good = [x for x in chances if x[1] >= top - 0.05]
        return min(good, key=lambda x: (strength[x[0]], -harm[x[0]]))[0]
    low = min(p for _, p, _ in chances)
    safe = [x for x in chances if x[1] <= low + 0.05]
    # Duck with the strongest card that still loses: it is the one that could win a trick later.
    return max(safe, key=lambda x: (harm[x[0]], strength[x[0]]))[0]


def quick_play(st: FodinhaState, seat: int, hand: Sequence[int]) -> Action:
    """A cheap version of :func:`normal_play` for rollouts: looks only at the trick on the table."""
    if len(hand) == 1:
        return hand[0]
    need = unit_need(st, seat)
    value = 1 + st.acc
    strength = st.strength
    unit = st.unit[seat]
    want = need > 0 and (value < 2 * need or need >= len(hand))
    if not st.trick:
        top = max(hand, key=lambda c: strength[c])
        if want and (need >= len(hand) or strength[top] >= 100):
            return top
        return min(hand, key=lambda c: strength[c])
    best_win = -1
    best_lose = -1
    for c in hand:
        plays = [*st.trick, (seat, c)]
        w = _winner(st, plays)
        ours = w >= 0 and st.unit[plays[w][0]] == unit
        if ours:
            if best_win < 0 or (strength[c] < strength[best_win]) == want:
                best_win = c
        elif best_lose < 0 or (strength[c] > strength[best_lose]) != want:
            best_lose = c
    if want:
        return best_win if best_win >= 0 else best_lose
    return best_lose if best_lose >= 0 else best_win


def easy_play(st: FodinhaState, seat: int, hand: Sequence[int], rng: random.Random) -> Action:
    """A beginner: highest card while it wants tricks, lowest otherwise; sometimes a random card."""
    if rng.random() < 0.2:
        return rng.choice(list(hand))
    need = seat_need(st, seat)
    if need > 0:
        return max(hand, key=lambda c: st.strength[c])
    return min(hand, key=lambda c: st.strength[c])


# ------------------------------------------------------------------ the policies the arena and search use


class FodinhaPolicies(GamePolicies):
    """Easy and normal decisions for the Fodinha family, from a determinized state."""

    def easy(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        st: FodinhaState = state
        if st.phase is BIDDING:
            return easy_bid(st, seat, legal, rng)
        return easy_play(st, seat, legal, rng)

    def normal(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        st: FodinhaState = state
        if st.phase is BIDDING:
            return normal_bid(st, seat, legal)
        return normal_play(st, seat, legal)


class FodinhaHooks(SearchHooks):
    """Search a hand to its end and score it by what each unit lost there."""

    def __init__(self) -> None:
        self.policies = FodinhaPolicies()

    def horizon(self, root: Any, state: Any) -> bool:
        r: FodinhaState = root
        st: FodinhaState = state
        return st.phase is OVER or st.hand_no != r.hand_no

    def rewards(self, root: Any, state: Any) -> list[float]:
        r: FodinhaState = root
        st: FodinhaState = state
        scale = float(max(1, r.size))
        record = st.records[-1] if st.records and st.records[-1].number == r.hand_no else None
        out: list[float] = []
        for s in range(r.seats):
            u = r.unit[s]
            if r.opts.sete_letras:
                loss = float(st.score[u] - r.score[u])
                if record is not None:
                    bid, won = record.bids[s], record.won[s]
                    if bid is not None and won is not None:
                        # A miss costs one point however large; still, a near miss looks (and is) saner.
                        loss += 0.03 * abs(bid - won) / scale
            else:
                loss = float(r.score[u] - st.score[u]) / scale
            if r.alive[s] and not st.alive[s]:
                loss += 0.5
            out.append(-loss)
        # Others' losses help a little (placements are relative).
        total = sum(out)
        n = len(out)
        return [v - 0.2 * (total - v) / max(1, n - 1) for v in out]

    def measures(self, root: Any, state: Any, seat: int) -> dict[str, float]:
        """For the move analysis: whether ``seat`` made its bid in the hand searched (``made_bid``, 0 or 1), and the
        lives (Se Fode) or points (7 Letras) its unit lost there (``lost``)."""
        r: FodinhaState = root
        st: FodinhaState = state
        record = st.records[-1] if st.records and st.records[-1].number == r.hand_no else None
        out: dict[str, float] = {}
        if record is not None and record.bids[seat] is not None and record.won[seat] is not None:
            out["made_bid"] = 1.0 if record.bids[seat] == record.won[seat] else 0.0
        u = r.unit[seat]
        out["lost"] = float(st.score[u] - r.score[u]) if r.opts.sete_letras else float(r.score[u] - st.score[u])
        return out

    def headline(self, state: Any, seat: int) -> bool:
        """The bid: what the solo coach always names."""
        st: FodinhaState = state
        return st.phase is BIDDING

    def rollout(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        st: FodinhaState = state
        if rng.random() < 0.1:
            return rng.choice(list(legal))
        if st.phase is BIDDING:
            if st.size == 1:
                return easy_bid(st, seat, legal, rng)
            return normal_bid(st, seat, legal)
        return quick_play(st, seat, legal)

    def others_move(self, state: Any, seat: int, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """The other seats bid and play in the tree as a normal player would (``normal_bid``, ``normal_play``),
        from what that seat sees of the simulated deal: its own hand (the others' cards in the one-card hand), the
        bids, the cards played. Searched by UCB1 instead, each of them would answer as if it saw the deal the
        search drew, so the search would fear replies no player at the table can make (against three normal bots
        at 200 ms, 160 matches of seed 500: 72.5% won with this model, 65.6% on the same deals without it;
        docs/benchmarks.md)."""
        if len(legal) == 1:
            return legal[0]
        return self.policies.normal(state, seat, legal, rng)

    def plausibility(self, state: Any, seat: int) -> float:
        """Bids reveal hands: in this deal, would each other seat have bid about what it did? Each bid is
        compared with a quick estimate of the tricks in that seat's hand as dealt (a normal bidder's
        view), with a tolerance of about one trick. The one-card hand is handled exactly elsewhere."""
        st: FodinhaState = state
        if st.size < 2:
            return 1.0
        table = _rough_chances(st)
        weight = 1.0
        for o in st.order:
            if o == seat or st.bids[o] < 0:
                continue
            estimate = sum(table[c] for c in st.dealt[o])
            gap = st.bids[o] - estimate
            weight *= math.exp(-0.5 * gap * gap)
        return weight

    def shortcut(self, state: Any, seat: int, legal: Sequence[Action]) -> Action | None:
        """The one-card hand has an exact answer: bid on the chance of the unseen card, read from the
        visible cards and from what the earlier bids say about it."""
        st: FodinhaState = state
        if st.phase is not BIDDING or st.size != 1:
            return None
        p = one_card_win_probability(st, seat, infer=True)
        return best_bid(legal, 1.0 if p > 0.5 else 0.0)


KNOWLEDGE = BotKnowledge(policies=FodinhaPolicies(), hooks=FodinhaHooks())
"""What the generic bots know of Fodinha: ``Fodinha.bot_knowledge`` hands it to them."""
