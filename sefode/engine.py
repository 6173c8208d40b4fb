"""The one interface every game implements.

Everything outside ``sefode/games`` (server, bots, histories, the CLI) talks to games through
:class:`Game` alone. The design follows OpenSpiel and PokerKit:

* A match is a mutable *state* object owned by one writer. All chance (shuffles, draws) comes from a
  ``random.Random`` kept inside the state, so the same options, seed and actions give the same match.
* An *action* is a small integer whose meaning the game defines (OpenSpiel style), cheap to list and
  to compare. ``parse_action`` turns the JSON form used by the protocol and by hand histories into
  an action, with a clear :class:`IllegalAction` when it is wrong; ``action_json`` goes back.
* Turns are *awaited seats*: one seat for sequential games, several for simultaneous secret turns
  (each seat submits, nothing is revealed until all have).
* ``apply`` is the checked path for input from outside and returns public *events*; ``apply_fast``
  is the unchecked path for search and simulation, with no events.
* ``view`` builds what one seat (or a spectator, ``None``) may see. The server only ever sends views
  and events; events are public by contract: they never carry a card some seat may not see.
* Search bots get ``clone``, ``infoset_key`` and ``resample`` (deal the unseen cards again,
  consistently with what a seat knows).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

if TYPE_CHECKING:  # for the type checker alone: the engine imports nothing of the platform
    from sefode.bots.knowledge import BotKnowledge

Seat = int
Action = int
JSON = Any
"""A value that ``json.dumps`` accepts."""
Event = dict[str, JSON]
"""A public event: a small JSON object with a ``type`` key."""
View = dict[str, JSON]


class EngineError(ValueError):
    """Base class of every error a game raises on bad input. ``code`` is stable, ``str()`` is readable."""

    code: str = "engine/error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class InvalidOptions(EngineError):
    """Options that the game does not accept; the message says why."""

    code = "options/invalid"


class IllegalAction(EngineError):
    """An action that may not be applied now; the message names what was wrong."""

    code = "action/illegal"


class NotYourTurn(IllegalAction):
    code = "action/not_your_turn"


class MatchOver(IllegalAction):
    code = "action/match_over"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended.

    ``placements[seat]`` is 1 for first; equal places are shared (competition ranking, 1 2 2 4).
    ``units`` groups the seats that share a place as a pair or team (every seat alone when empty); awards
    and ratings read units from here and never re-derive them. ``no_winner`` marks a match that ended with
    nobody placed (docs/rulings.md §3.12): every seat then has the last place, and no medal or rating changes.
    ``scores`` are the final figures to show (lives, points...), one per seat, or None.
    """

    placements: tuple[int, ...]
    units: tuple[tuple[Seat, ...], ...] = ()
    no_winner: bool = False
    scores: tuple[JSON, ...] | None = None

    def unit_list(self) -> list[tuple[Seat, ...]]:
        """The units, every seat in exactly one (seats alone when the game has no units)."""
        if self.units:
            return [tuple(u) for u in self.units]
        return [(s,) for s in range(len(self.placements))]

    def to_json(self) -> dict[str, JSON]:
        return {
            "placements": list(self.placements),
            "units": [list(u) for u in self.unit_list()],
            "no_winner": self.no_winner,
            "scores": None if self.scores is None else list(self.scores),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Outcome:
        scores = data.get("scores")
        return cls(
            tuple(data["placements"]),
            tuple(tuple(u) for u in data.get("units") or ()),
            bool(data.get("no_winner", False)),
            None if scores is None else tuple(scores),
        )


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a match stands, in public facts only (``Game.standing``): the round it is in (a hand, a deal; any number
    that changes when one ends) and each seat's score so far, one per seat, higher is better (lives left, points won;
    a game that counts against a seat gives the figure negated)."""

    round: int
    scores: tuple[float, ...]


class SeatStatus(StrEnum):
    """A seat's standing in a match, as the platform needs it (``Game.seat_status``): who may vote a pause, who is
    offered to leave, what the shell shows. Sent in every ``state`` message (docs/protocol.md)."""

    PLAYING = "playing"
    """In the match."""
    OUT = "out"
    """Eliminated by the rules: the match goes on without the seat."""
    LEFT = "left"
    """Its player left for good (forfeit); its turns, if any are left, are played by a bot."""


# --------------------------------------------------------------------------------------------- the spec
class Turns(StrEnum):
    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


class Information(StrEnum):
    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Capability(StrEnum):
    """What the platform offers at a table when the game has it."""

    JOIN = "join"
    """A late player may join a match in progress at a boundary (``Game.join``)."""
    FORFEIT = "forfeit"
    """A player may leave the match for good, forfeiting (``Game.forfeit``)."""
    SHOW_HAND = "show_hand"
    """A player may show their hand to the table (``Game.show_hand``)."""
    UNITS = "units"
    """Seats may play as pairs or teams (``Game.units``); the room offers team names and seating."""
    SEAT_SETUP = "seat_setup"
    """Each seat makes a secret choice before the match (a deck): ``Game.check_seat_setup``, ``default_seat_setup``
    and ``seat_setup_choices``; the values reach ``new_match`` as ``setup["seat_setup"]``, one per seat."""
    PLAYER_DATA = "player_data"
    """Players keep data of this game on the server (saved decks): ``Game.check_player_data``."""


class OptionKind(StrEnum):
    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game: its type, range, default and label (an i18n key).

    ``when`` limits the option to matches whose other options have the given values (for example
    ``{"variant": "sefode"}``); elsewhere it keeps its default (``None`` when ``nullable``) and a
    value given for it is refused. Rules between options that this cannot say go in
    :meth:`Game.check_options`.
    """

    key: str
    kind: OptionKind
    default: JSON
    label: str
    choices: tuple[JSON, ...] = ()
    choice_labels: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    when: Mapping[str, tuple[JSON, ...]] | None = None
    help: str | None = None

    def applies(self, values: Mapping[str, JSON]) -> bool:
        if not self.when:
            return True
        return all(values.get(key) in allowed for key, allowed in self.when.items())

    def check(self, value: JSON) -> JSON:
        """``value`` if it fits this option; InvalidOptions saying why otherwise."""
        if value is None and self.nullable:
            return None
        if self.kind is OptionKind.BOOL:
            if not isinstance(value, bool):
                raise InvalidOptions(f"option {self.key!r} must be true or false, not {value!r}")
            return value
        if self.kind is OptionKind.INT:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(f"option {self.key!r} must be a whole number, not {value!r}")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise InvalidOptions(f"option {self.key!r} must be from {self.minimum} to {self.maximum}, not {value}")
            return value
        if value not in self.choices or isinstance(value, bool) != any(isinstance(c, bool) for c in self.choices):
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(f"option {self.key!r} must be one of {allowed}, not {value!r}")
        return value

    def to_json(self) -> dict[str, JSON]:
        return {
            "key": self.key,
            "kind": str(self.kind),
            "default": self.default,
            "label": self.label,
            "choices": list(self.choices),
            "choice_labels": list(self.choice_labels),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "nullable": self.nullable,
            "when": {k: list(v) for k, v in self.when.items()} if self.when else None,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant of a game: the value of its ``variant`` option, a title (i18n key), its rules page."""

    id: str
    title: str
    rules: str
    """The rules page's name: ``<package>/rules/<rules>.<lang>.md`` (``pt-BR`` and ``en``)."""


@dataclass(frozen=True, slots=True)
class ViewSchema:
    """What the keys of a game's view hold, for the browser's generic renderer (a game without its own module):
    ``seats`` keys hold a seat number or a list of them (drawn as the players' names), ``suits`` keys a suit letter
    (``c h s d``, drawn as its symbol), ``cards`` keys card names (drawn as cards, one row per seat when the list has
    one entry per seat), and ``scores`` names the key of a list with one score per seat (drawn in the score pane)."""

    seats: tuple[str, ...] = ()
    suits: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    scores: str | None = None

    def to_json(self) -> dict[str, JSON]:
        return {"seats": list(self.seats), "suits": list(self.suits), "cards": list(self.cards), "scores": self.scores}


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What the platform needs to know about a game (after OpenSpiel's ``GameType``).

    Resources live in the game's Python package (``package``): rules pages in ``rules/<page>.<lang>.md``,
    translation catalogues in ``i18n/<lang>.json`` and, optionally, a browser module in
    ``client/index.js``. The server serves them from there, so a game installed as its own distribution
    brings its pages and its module along.
    """

    name: str
    title: str
    """Display name, an i18n key (``game.<name>.title``)."""
    package: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...] = ()
    variants: tuple[Variant, ...] = ()
    """Empty: one variant, whose rules page is ``name``. Else the ``variant`` option picks one."""
    seats_option: str | None = "players"
    """The option that carries the number of seats (the room fills it in), or None for a fixed count."""
    turns: Turns = Turns.SEQUENTIAL
    information: Information = Information.IMPERFECT
    capabilities: frozenset[Capability] = frozenset()
    bot_levels: tuple[str, ...] = ("easy", "normal", "hard")
    summary: tuple[str, ...] = ()
    """Option keys the lobby's one-line summary of a room shows (besides the game and its variant)."""
    view_schema: ViewSchema | None = None
    """Optional: which view keys are seats, suits, cards and scores, for the generic renderer."""

    def option(self, key: str) -> OptionSpec | None:
        for spec in self.options:
            if spec.key == key:
                return spec
        return None

    def rules_pages(self) -> list[str]:
        return [v.rules for v in self.variants] if self.variants else [self.name]

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "title": self.title,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "seats_option": self.seats_option,
            "turns": str(self.turns),
            "information": str(self.information),
            "capabilities": sorted(str(c) for c in self.capabilities),
            "bot_levels": list(self.bot_levels),
            "options": [o.to_json() for o in self.options],
            "variants": [{"id": v.id, "title": v.title, "rules": v.rules} for v in self.variants],
            "rules": self.rules_pages(),
            "summary": list(self.summary),
            "view_schema": self.view_schema.to_json() if self.view_schema else None,
        }


def validate_options(spec: GameSpec, raw: object) -> dict[str, JSON]:
    """Check raw options against a spec: unknown keys, types, ranges and ``when``; defaults filled in.

    >>> players = OptionSpec("players", OptionKind.INT, 2, "p", minimum=2, maximum=4)
    >>> s = GameSpec("g", "game.g.title", "g", 2, 4, (players,))
    >>> validate_options(s, {})
    {'players': 2}
    >>> validate_options(s, {"colour": 1})
    Traceback (most recent call last):
    ...
    sefode.engine.InvalidOptions: unknown option(s) colour; this game takes players
    """
    if not isinstance(raw, Mapping):
        raise InvalidOptions(f"options must be a JSON object, not {type(raw).__name__}")
    known = {o.key for o in spec.options}
    unknown = sorted(str(k) for k in raw if k not in known and k != "game")
    if unknown:
        takes = ", ".join(o.key for o in spec.options) or "no options"
        raise InvalidOptions(f"unknown option(s) {', '.join(unknown)}; this game takes {takes}")
    values: dict[str, JSON] = {}
    for option in spec.options:  # in declaration order: ``when`` looks at options declared before
        if not option.applies(values):
            if raw.get(option.key) is not None and raw.get(option.key) != option.default:
                needs = ", ".join(f"{k} = {'/'.join(map(str, v))}" for k, v in (option.when or {}).items())
                raise InvalidOptions(f"option {option.key!r} applies only when {needs}")
            values[option.key] = None if option.nullable else option.default
            continue
        value = raw.get(option.key, option.default)
        values[option.key] = option.check(value)
    return values


S = TypeVar("S")

DEFAULT_MAX_DECISIONS = 50_000
"""The platform's guard against endless matches when a game declares none (``Game.max_decisions``)."""


class Game(ABC, Generic[S]):
    """A game's rules. Stateless: every method takes the match state it works on."""

    name: ClassVar[str]
    """Identifier used in options, histories and the protocol, e.g. ``"whist"``."""
    spec: ClassVar[GameSpec]
    """What the platform needs to know: seats, turns, options schema, variants, capabilities, bots."""

    # ----------------------------------------------------------------- options
    def validate_options(self, raw: object) -> dict[str, JSON]:
        """Normalised options (every default filled in) or InvalidOptions saying why; no match is built."""
        values = validate_options(self.spec, raw)
        self.check_options(values)
        return values

    def check_options(self, values: dict[str, JSON]) -> None:
        """Rules between options that the schema cannot say; raise InvalidOptions. ``values`` may be
        completed in place (a bound that depends on another option, say)."""

    # ----------------------------------------------------------------- setting up
    @abstractmethod
    def new_match(self, options: Mapping[str, JSON], seed: int, setup: Mapping[str, JSON] | None = None) -> S:
        """A fresh match. ``options`` are validated here (InvalidOptions). ``setup`` carries what a
        hand history may fix beyond the seed (for card games: first dealer, preset deals)."""

    @abstractmethod
    def options(self, state: S) -> dict[str, JSON]:
        """The match's options, normalised (every default filled in)."""

    @abstractmethod
    def match_seed(self, state: S) -> int:
        """The seed every chance event of the match comes from (secret until the match is over)."""

    @abstractmethod
    def seats(self, state: S) -> int:
        """How many seats the match has now."""

    # ----------------------------------------------------------------- playing
    @abstractmethod
    def awaiting(self, state: S) -> frozenset[Seat]:
        """Seats whose decision the match waits for; empty when the match is over.

        In a simultaneous secret turn every seat that still has to submit is awaited; a seat that has
        submitted is not (``apply`` from it raises NotYourTurn) and its submission shows in no other
        seat's view and in no event until the turn resolves (see ``tests/toygame.py``)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[Action]:
        """The decisions ``seat`` may take now (empty when it is not awaited). Free actions that
        are not turns (leaving, showing a hand) are not listed; ``apply`` accepts them."""

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: Action) -> list[Event]:
        """Checked path: raise IllegalAction (naming what is wrong) and change nothing, or apply
        the action, run whatever follows automatically, and return the public events."""

    @abstractmethod
    def apply_fast(self, state: S, seat: Seat, action: Action) -> None:
        """Unchecked path for search and simulation: ``action`` must be one of ``legal_actions``."""

    @abstractmethod
    def parse_action(self, state: S, seat: Seat, message: Mapping[str, JSON]) -> Action:
        """The action meant by a JSON object such as ``{"bid": 1}``; IllegalAction if malformed."""

    @abstractmethod
    def action_json(self, state: S, action: Action) -> dict[str, JSON]:
        """The JSON form of an action (the inverse of ``parse_action``)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Placements once the match is over, else None."""

    def max_decisions(self, options: Mapping[str, JSON]) -> int:
        """The guard against endless play: the most decisions a match with these options may take. The platform stops
        a match there (ending it with :meth:`unfinished_outcome`) and a search cuts its rollouts there. By default the
        platform's ``DEFAULT_MAX_DECISIONS``; a game whose play can cycle declares a bound of its own."""
        return DEFAULT_MAX_DECISIONS

    def unfinished_outcome(self, state: S) -> Outcome:
        """How a match the guard stopped ends: by default with no winner (every seat last, docs/rulings.md §3.12)."""
        n = self.seats(state)
        return Outcome((n,) * n, self.units(state), no_winner=True)

    def standing(self, state: S) -> Standing | None:
        """Where the match stands: its round and each seat's score (:class:`Standing`), the same in every state a seat
        cannot tell apart. Optional: the hard bot of a game without search hooks then ends each simulation where the
        round ends and values it by how each seat's score moved against the others', instead of playing every
        simulation to the end of the match. The default, None: no rounds or no scores."""
        return None

    def stand_in_seats(self, state: S) -> frozenset[Seat]:
        """Seats whose player has left for good but whose turns must still be played (by a bot)."""
        return frozenset()

    def is_over(self, state: S) -> bool:
        """Is the match over? By default, once it has an outcome; the platform asks this, never a view's keys."""
        return self.outcome(state) is not None

    def seat_status(self, state: S) -> list[SeatStatus]:
        """Each seat's standing (one per seat of ``seats(state)``), for the platform: the server and the shell read
        this, never a view's keys. By default ``LEFT`` for the ``stand_in_seats`` and ``PLAYING`` for the others; a
        game that eliminates seats, or whose players leave otherwise, says so."""
        gone = self.stand_in_seats(state)
        return [SeatStatus.LEFT if s in gone else SeatStatus.PLAYING for s in range(self.seats(state))]

    def describe_action(self, state: S, seat: Seat, action: Action) -> dict[str, JSON]:
        """A human-readable label for ``action``: ``{"key": i18n key, "params": {...}, "text": English}``.

        Logs use ``text``; the browser translates ``key`` with ``params`` (falling back to ``text``)."""
        data = self.action_json(state, action)
        text = ", ".join(f"{k} {v}" for k, v in data.items())
        return {"key": "action.generic", "params": {"text": text}, "text": text}

    def units(self, state: S) -> tuple[tuple[Seat, ...], ...]:
        """Seats that play as one pair or team (empty: every seat alone). Capability ``units``."""
        return ()

    def planned_units(self, options: Mapping[str, JSON]) -> tuple[tuple[Seat, ...], ...]:
        """The units a match with these (normalised) options will have, before it starts: the room
        offers team names and seating for them. Empty: every seat alone."""
        return ()

    # ----------------------------------------------------------------- platform actions (capabilities)
    def forfeit(self, state: S, seat: Seat) -> list[Event]:
        """``seat`` leaves the match for good (capability ``forfeit``); public events."""
        raise IllegalAction("this game has no leaving with a forfeit", "action/no_forfeit")

    def join(self, state: S, seat: Seat) -> list[Event]:
        """A late player takes ``seat``, which must be the next one, ``seats(state)`` (capability ``join``);
        public events."""
        raise IllegalAction("this game takes no late players", "action/no_join")

    def show_hand(self, state: S, seat: Seat) -> list[Event]:
        """``seat`` shows its hand to the table (capability ``show_hand``); public events."""
        raise IllegalAction("this game has no showing of hands", "action/no_show")

    # ----------------------------------------------------------------- before the match (capabilities)
    def seat_setup_choices(self, options: Mapping[str, JSON]) -> list[dict[str, JSON]]:
        """The ready-made secret choices a seat may make before a match with these options (capability
        ``seat_setup``): ``[{"value": ..., "label": i18n key, "description": i18n key}]``. A seat may also send
        a value of its own (a deck it built), checked by :meth:`check_seat_setup`."""
        return []

    def check_seat_setup(self, options: Mapping[str, JSON], value: JSON) -> JSON:
        """``value`` normalised if a seat may bring it to a match with these options; InvalidOptions saying why."""
        raise InvalidOptions("this game takes no choice before the match", "setup/not_offered")

    def default_seat_setup(self, options: Mapping[str, JSON], seat: Seat, rng: random.Random) -> JSON:
        """The choice of a seat that made none (a bot, or a player who did not choose)."""
        raise InvalidOptions("this game takes no choice before the match", "setup/not_offered")

    def check_player_data(self, key: str, value: JSON) -> JSON:
        """``value`` normalised if a player may keep it under ``key`` (capability ``player_data``: a saved deck);
        InvalidOptions saying why."""
        raise InvalidOptions("this game keeps no player data", "data/not_offered")

    # ----------------------------------------------------------------- seeing
    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> View:
        """What ``seat`` may see (``None``: a spectator, who sees only what every seat sees)."""

    def views(self, state: S, seats: Sequence[Seat | None]) -> list[View]:
        """``[view(state, seat) for seat in seats]``. The server asks for every seat's view (and the spectators')
        after each action, so a game may build what they share once; the views may then share nested values,
        which the caller only reads."""
        return [self.view(state, seat) for seat in seats]

    def past(self, state: S, seat: Seat | None) -> dict[str, JSON] | None:
        """The match's past as ``seat`` (None: a spectator) may see it now: what a view leaves out because it grows
        with the match (Fodinha's tricks of every hand), served on demand (the ``past`` message, docs/protocol.md).
        Only what the seat has seen: finished tricks and other public events, never a hidden card nor the seed, so it
        may be given while the match runs (the conformance suite checks that it equals the past of every state the
        seat cannot tell from this one). None: the game keeps nothing of its past out of its views."""
        return None

    @abstractmethod
    def report(self, state: S) -> dict[str, JSON]:
        """The full record of the match so far (for ``sefode replay`` and the exported history's
        result). It may show everything, so it is only given out once the match is over."""

    @abstractmethod
    def history_actions(self, state: S) -> list[dict[str, JSON]]:
        """The decisions applied so far, as hand-history entries ``{"seat": s, ...}``."""

    @abstractmethod
    def history_setup(self, state: S) -> dict[str, JSON]:
        """What ``new_match`` needs besides options and seed to start the same match."""

    # ----------------------------------------------------------------- searching
    @abstractmethod
    def clone(self, state: S) -> S:
        """An independent copy, cheap enough for search."""

    @abstractmethod
    def infoset_key(self, state: S, seat: Seat) -> Hashable:
        """Equal for two states exactly when ``seat`` cannot tell them apart."""

    def from_view(self, view: View, seat: Seat) -> S:
        """A state consistent with what ``seat`` sees in ``view`` (its own view, as the server sends it), for a bot
        that plays on a remote server (``sefode bot``): whatever the seat cannot see may be anything, since a bot
        sees the state only through a ``Seen``, which deals it again. Optional: games without it raise
        NotImplementedError, and remote built-in bots play random legal moves there."""
        raise NotImplementedError(f"{self.name} cannot rebuild a state from a view")

    @abstractmethod
    def resample(self, state: S, seat: Seat, rng: random.Random) -> S:
        """A copy in which everything ``seat`` cannot see is dealt again at random, consistently with
        what it has seen; its own future chance comes from ``rng``."""

    def bot_knowledge(self) -> BotKnowledge | None:
        """What the generic bots (``sefode.bots``) should know of this game: its easy and normal policies and its
        advice to the hard level's search, as a ``sefode.bots.knowledge.BotKnowledge`` (a game imports the bots'
        interfaces; the bots never import a game). The bots ask the game they play for it at each decision, so a
        game returns the same object every time (one it keeps, if its knowledge holds anything of its own). The
        default, None: random legal play at the easy and normal levels, the plain search at the hard level."""
        return None


def guard_reason(game: Game[S], state: S, decisions: int) -> str | None:
    """Why the guard stops a match that is not over after ``decisions`` decisions (None: it goes on)."""
    limit = game.max_decisions(game.options(state))
    if decisions < limit or game.outcome(state) is not None:
        return None
    return f"stopped after {decisions} decisions without an end: the longest match of {game.name} is {limit}"


PLATFORM_ACTIONS = ("leave", "join", "show")
"""JSON keys of the platform's own actions (``{"leave": true}``...), routed to the capability hooks."""


def apply_entry(game: Game[S], state: S, seat: object, entry: Mapping[str, JSON]) -> list[Event]:
    """Apply one action in its JSON form (protocol message or hand-history entry), checked.

    The one path every replay takes (``sefode replay``, a room rebuilt after a restart, the exported
    history's replay): platform actions go to ``forfeit``/``join``/``show_hand``, anything else to
    ``parse_action`` and ``apply``. ``entry`` may carry ``seat``; it is ignored here.
    """
    if not isinstance(entry, Mapping):
        raise IllegalAction('an action must be a JSON object such as {"play": "Ks"}', "action/invalid")
    keys = [k for k in entry if k != "seat"]
    if len(keys) == 1 and keys[0] in PLATFORM_ACTIONS:
        if entry[keys[0]] is not True:
            raise IllegalAction(f"'{keys[0]}' takes the value true", "action/invalid")
        if keys[0] == "join":
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise IllegalAction(f"seat must be a whole number, not {seat!r}", "action/bad_seat")
            return game.join(state, seat)
        if game.outcome(state) is not None:
            raise MatchOver("the match is over", "action/match_over")
        seat = check_seat(seat, game.seats(state))
        if keys[0] == "leave":
            return game.forfeit(state, seat)
        return game.show_hand(state, seat)
    seat = check_seat(seat, game.seats(state))
    action = game.parse_action(state, seat, entry)
    return game.apply(state, seat, action)


_REGISTRY: dict[str, Game[Any]] = {}
ENTRY_POINT_GROUP = "sefode.games"
"""Games are found through this entry-point group, the built-in ones included (``pyproject.toml``)."""


def register(game: Game[Any]) -> Game[Any]:
    """Make ``game`` known by its name (to histories, the CLI, the server); returns it."""
    _load_games()
    _REGISTRY[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget a registered game (for tests and plugins); unknown names are ignored."""
    _REGISTRY.pop(name, None)


def get_game(name: object) -> Game[Any]:
    """The registered game called ``name``; InvalidOptions naming the known games otherwise."""
    _load_games()
    if not isinstance(name, str) or name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        shown = name if not isinstance(name, str) else name[:40]
        if isinstance(name, str) and name in LOAD_ERRORS:  # installed, but its plugin failed: say why
            why = f"its plugin failed to load: {LOAD_ERRORS[name]}"
            raise InvalidOptions(f"unknown game {shown!r}: {why}", "game/unknown")
        raise InvalidOptions(f"unknown game {shown!r}; known games: {known}", "game/unknown")
    return _REGISTRY[name]


def game_names() -> list[str]:
    _load_games()
    return sorted(_REGISTRY)


def games() -> list[Game[Any]]:
    _load_games()
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


_LOADED: list[bool] = []
LOAD_ERRORS: dict[str, str] = {}
"""Entry points that failed to load, by name, with the reason (logged by the server at start-up)."""


def _load_games() -> None:
    # A flag, not "is the registry empty": a game registered first (a test game) must not hide the others.
    if _LOADED:
        return
    _LOADED.append(True)
    from importlib.metadata import entry_points

    # Entry points alone, the built-in games too: a source tree is installed (editable) to be used.
    found = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    for name, ep in sorted(found.items()):
        try:
            loaded = ep.load()
            game = loaded() if isinstance(loaded, type) else loaded
            if not isinstance(game, Game):
                raise TypeError(f"{ep.value} is not a sefode.engine.Game")
            if game.name != name:
                raise TypeError(f"entry point {name!r} names a game called {game.name!r}")
        except Exception as err:  # one broken plugin must not take the platform down
            LOAD_ERRORS[name] = f"{type(err).__name__}: {err}"
            continue
        _REGISTRY.setdefault(game.name, game)


def check_seat(seat: object, seats: int) -> Seat:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise IllegalAction(f"seat must be a whole number from 0 to {seats - 1}, not {seat!r}", "action/bad_seat")
    return seat


def rank_places(values: Sequence[float]) -> list[int]:
    """Competition ranking of ``values`` (higher is better): ties share, the next place skips.

    >>> rank_places([5, 3, 3, 1])
    [1, 2, 2, 4]
    """
    return [1 + sum(1 for other in values if other > v) for v in values]
