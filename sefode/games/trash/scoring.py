"""The end of a One Man's Trash match: why it ended and the placements (a win, the last player left, or the turn
limit with no winner, docs/rulings.md §3.12)."""

from __future__ import annotations

from sefode.engine import Event
from sefode.games.trash.state import TrashState
from sefode.match import Phase


def finish(st: TrashState, reason: str, events: list[Event] | None) -> None:
    st.phase = Phase.OVER
    st.turn = -1
    st.reason = reason
    n = st.seats
    if st.winner < 0:
        placements = [n] * n  # docs/rulings.md §3.12: nobody is placed; every seat has the last place
    else:
        placements = [0] * n
        still_in = [s for s in range(n) if st.alive[s] and s != st.winner]
        placements[st.winner] = 1
        for s in still_in:
            placements[s] = 2
        place = 2 + len(still_in)
        for s in reversed(st.out):  # a later exit above an earlier one
            placements[s] = place
            place += 1
    st.placements = placements
    if events is not None:
        events.append(
            {
                "type": "match_end",
                "reason": reason,
                "winner": st.winner if st.winner >= 0 else None,
                "no_winner": st.winner < 0,
                "placements": placements[:],
            }
        )
