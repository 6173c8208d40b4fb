"""Dealing a King hand: from the match's generator (shuffled every hand, so later hands do not depend on presets) or
from a hand history's preset deal, checked card by card."""

from __future__ import annotations

from collections.abc import Mapping

from sefode.engine import Event, InvalidOptions
from sefode.games.king.rules import (
    BITS,
    CONTRACTS,
    FIXED_ORDER,
    HAND_SIZE,
    HANDS_PER_MATCH,
    SEATS,
    TRUNFO,
    KingCardError,
    card_code,
)
from sefode.games.king.state import KingState, Phase
from sefode.match import shuffle


def parse_presets(deals: object) -> dict[int, list[int]]:
    if deals is None:
        return {}
    if not isinstance(deals, list):
        raise InvalidOptions('deals must be a list of {"hands": [[13 cards] × 4]} objects')
    if len(deals) > HANDS_PER_MATCH:
        raise InvalidOptions(f"deals lists {len(deals)} hands but a King match has {HANDS_PER_MATCH}")
    presets: dict[int, list[int]] = {}
    for i, deal in enumerate(deals):
        if deal is None:
            continue
        where = f"deals[{i}]"
        if not isinstance(deal, Mapping) or not isinstance(deal.get("hands"), list) or set(deal) != {"hands"}:
            raise InvalidOptions(f"{where} must be an object with just a 'hands' list")
        hands = deal["hands"]
        if len(hands) != SEATS:
            raise InvalidOptions(f"{where}: 'hands' lists {len(hands)} seats but King has {SEATS}")
        masks: list[int] = []
        seen = 0
        for seat, cards in enumerate(hands):
            if not isinstance(cards, list) or len(cards) != HAND_SIZE:
                got = len(cards) if isinstance(cards, list) else cards
                raise InvalidOptions(f"{where}: seat {seat} must get {HAND_SIZE} cards, got {got!r}")
            mask = 0
            for name in cards:
                try:
                    b = 1 << card_code(name)
                except KingCardError as err:
                    raise InvalidOptions(f"{where}: {err}") from None
                if (mask | seen) & b:
                    raise InvalidOptions(f"{where}: {name} is dealt twice")
                mask |= b
            seen |= mask
            masks.append(mask)
        presets[i + 1] = masks
    return presets


def start_hand(st: KingState, events: list[Event] | None) -> None:
    st.hand_no += 1
    number = st.hand_no
    st.dealer = dealer = (st.first_dealer + number - 1) % SEATS
    st.chooser = chooser = (dealer + 1) % SEATS
    # The deck is shuffled as the card codes ``range(DECK_SIZE)`` would be (a shuffle depends on the length alone), but
    # it holds each card's bit, so that a hand's mask is the sum of its 13 bits (distinct bits: their sum is their or).
    deck = list(BITS)
    shuffle(st.rng, deck)  # always (as ``st.rng.shuffle`` would), so that later hands do not depend on presets
    preset = st.presets.get(number)
    if preset is not None:
        hands = preset[:]
    else:
        hands = [0] * SEATS
        for i in range(SEATS):
            hands[(chooser + i) % SEATS] = sum(deck[HAND_SIZE * i : HAND_SIZE * (i + 1)])
    st.hands = hands
    st.dealt = hands[:]
    st.turn = chooser
    st.leader = chooser
    st.trick = []
    st.led = st.top_led = st.top_trump = -1
    st.broken = False
    st.chain = None
    st.played = 0
    st.excluded = [0] * SEATS
    st.tricks = []
    st.points = [0] * SEATS
    st.trump = -1
    if st.fixed:
        st.contract = FIXED_ORDER[number - 1]
        st.phase = Phase.TRUMP if st.contract == TRUNFO else Phase.PLAYING
    else:
        st.contract = -1
        st.phase = Phase.CHOOSING
    if events is not None:
        events.append(
            {
                "type": "deal",
                "hand": number,
                "dealer": dealer,
                "chooser": chooser,
                "contract": CONTRACTS[st.contract].name if st.contract >= 0 else None,
            }
        )
