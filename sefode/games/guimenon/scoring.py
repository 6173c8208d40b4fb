"""The end of a Guimenon turn: both seats' placements revealed together, then On Reveal, End of Turn and Continuous
abilities resolved (and End of Game after the last turn), which decides who controls each Location."""

from __future__ import annotations

from sefode.games.guimenon import rules
from sefode.games.guimenon.dealing import start_turn
from sefode.games.guimenon.rules import CARDS
from sefode.games.guimenon.state import TURNS, GState, Unit
from sefode.games.guimenon.views import board_json
from sefode.match import Phase


def reveal(st: GState) -> None:
    """Both confirmed: reveal together, resolve On Reveal, End of Turn, Continuous, End of Game."""
    record = st.records[-1] if st.recording else None
    for s in (st.first, 1 - st.first):
        for card, li in st.pending[s]:
            u = Unit(st.next_uid, CARDS[card], s, li, st.next_serial, fresh=True)
            st.next_uid += 1
            st.next_serial += 1
            st.board[li][s].append(u)
            st.seen[s].add(card)
            st.played[s].append(card)
            if record is not None:
                record.plays.append((s, CARDS[card].id, li))
        for card in st.pending_discards[s]:
            st.discard[s].append(card)
            st.seen[s].add(card)
            if record is not None:
                record.discards.append((s, CARDS[card].id))
        st.pending[s] = []
        st.pending_discards[s] = []
    st.dirty = True
    rules.on_reveal_step(st)
    rules.trigger_step(st, "end_of_turn")
    rules.recompute(st)
    if st.turn == TURNS:
        rules.trigger_step(st, "end_of_game")
        rules.recompute(st)
    if record is not None:
        record.board = board_json(st)
    if st.turn == TURNS:
        st.phase = Phase.OVER
        return
    start_turn(st)
