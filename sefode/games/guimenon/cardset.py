"""The Guimenon card set as data: schema, loading, validation and ability text.

Cards, tokens, Locations and ready decks live in ``cards/*.toml``. Each file may hold ``[[card]]``,
``[[token]]``, ``[[location]]`` and ``[[deck]]`` tables. They are decoded with msgspec into the
structs below (unknown keys are refused) and then cross-checked (unknown Types, tokens or cards,
effects that make no sense for their trigger); any problem raises :class:`CardDataError` naming
the file and the entry.

An ability is one trigger (the seed's five: ``on_reveal``, ``continuous``, ``end_of_turn``,
``on_destroyed``, ``end_of_game``; Locations also have ``on_card_revealed``) with optional
conditions and a list of effects from a closed vocabulary (the ``op`` tag):

``add_stars`` (negative subtracts), ``destroy``, ``move``, ``draw``, ``discard``, ``create_token``,
``copy``, ``change_cost``, ``gain_moon``.

Targets name who is affected (``who``: ``self``, ``allies_here``, ``enemies_here``, ``all_here``,
``allies``, ``enemies``, ``all``), how many (``pick``: ``all``, ``random``, ``strongest``,
``weakest``) and an optional filter (``types``, ``kind``, ``max_stars``, ``min_stars``).

Nothing in the rules engine is written per card: this data is all a card is. The text a player
reads is generated from it (:func:`ability_text`) in pt-BR and English.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

import msgspec

LANGS = ("pt-BR", "en")
DATA_DIR = Path(__file__).with_name("cards")
MIN_DECK = 12
MAX_PER_LOCATION = 4
_ID = re.compile(r"[a-z0-9-]+")

Trigger = Literal["on_reveal", "continuous", "end_of_turn", "on_destroyed", "end_of_game", "on_card_revealed"]
CARD_TRIGGERS = ("on_reveal", "continuous", "end_of_turn", "on_destroyed", "end_of_game")
Who = Literal["self", "allies_here", "enemies_here", "all_here", "allies", "enemies", "all"]
Pick = Literal["all", "random", "strongest", "weakest"]
Kind = Literal["ser", "item"]
Side = Literal["owner", "opponent", "each"]


class CardDataError(ValueError):
    """A card data file that does not load; the message names the file and the entry."""


class Names(msgspec.Struct, forbid_unknown_fields=True, rename={"pt": "pt-BR"}):
    pt: str
    en: str

    def get(self, lang: str) -> str:
        return self.pt if lang == "pt-BR" else self.en


class Target(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    who: Who
    pick: Pick = "all"
    types: tuple[str, ...] = ()
    kind: Kind | None = None
    max_stars: int | None = None
    min_stars: int | None = None


class Condition(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """All the fields given must hold. ``count`` counts the cards ``count`` names (``min``/``max``)."""

    count: Target | None = None
    min: int | None = None
    max: int | None = None
    turn_min: int | None = None
    losing_here: bool | None = None
    winning_here: bool | None = None


class AddStars(msgspec.Struct, tag="add_stars", tag_field="op", forbid_unknown_fields=True, frozen=True):
    amount: int
    target: Target
    per: Target | None = None
    """Multiply ``amount`` by how many cards ``per`` names."""


class Destroy(msgspec.Struct, tag="destroy", tag_field="op", forbid_unknown_fields=True, frozen=True):
    target: Target


class Move(msgspec.Struct, tag="move", tag_field="op", forbid_unknown_fields=True, frozen=True):
    """Move each target to another revealed Location, chosen at random among those with room."""

    target: Target


class Draw(msgspec.Struct, tag="draw", tag_field="op", forbid_unknown_fields=True, frozen=True):
    amount: int = 1
    side: Side = "owner"


class Discard(msgspec.Struct, tag="discard", tag_field="op", forbid_unknown_fields=True, frozen=True):
    """``side`` discards ``amount`` random cards from hand."""

    amount: int = 1
    side: Side = "opponent"


class CreateToken(msgspec.Struct, tag="create_token", tag_field="op", forbid_unknown_fields=True, frozen=True):
    token: str
    count: int = 1
    side: Side = "owner"
    where: Literal["here", "random"] = "here"


class Copy(msgspec.Struct, tag="copy", tag_field="op", forbid_unknown_fields=True, frozen=True):
    """A copy of each target (its printed Stars) for the ability's owner, at the target's Location."""

    target: Target


class ChangeCost(msgspec.Struct, tag="change_cost", tag_field="op", forbid_unknown_fields=True, frozen=True):
    """Cards in ``side``'s hand (matching ``types``/``kind``) cost ``amount`` more (negative: less), never below 0."""

    amount: int
    side: Side = "owner"
    types: tuple[str, ...] = ()
    kind: Kind | None = None


class GainMoon(msgspec.Struct, tag="gain_moon", tag_field="op", forbid_unknown_fields=True, frozen=True):
    """``side`` has ``amount`` more Moon next turn."""

    amount: int = 1
    side: Side = "owner"


Effect = AddStars | Destroy | Move | Draw | Discard | CreateToken | Copy | ChangeCost | GainMoon


class Ability(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    trigger: Trigger
    effects: tuple[Effect, ...]
    conditions: tuple[Condition, ...] = ()


class CardEntry(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: Names
    kind: Kind
    cost: int
    types: tuple[str, ...] = ()
    stars: int = 0
    ability: Ability | None = None


class TokenEntry(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: Names
    stars: int
    types: tuple[str, ...] = ()
    ability: Ability | None = None


class LocationEntry(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: Names
    ability: Ability | None = None


class DeckEntry(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: Names
    description: Names
    cards: tuple[str, ...]


class TypeEntry(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: Names


class DataFile(msgspec.Struct, forbid_unknown_fields=True):
    type: list[TypeEntry] = []
    card: list[CardEntry] = []
    token: list[TokenEntry] = []
    location: list[LocationEntry] = []
    deck: list[DeckEntry] = []


# ------------------------------------------------------------------------------------------- compiled
@dataclass(frozen=True, slots=True)
class CardDef:
    """A card, token or copy's printed face. ``index`` is the card's number in :attr:`CardSet.cards`
    (``-1`` for tokens)."""

    index: int
    id: str
    name: Names
    being: bool
    cost: int
    stars: int
    types: frozenset[str]
    ability: Ability | None
    token: bool = False

    @property
    def trigger(self) -> str | None:
        return self.ability.trigger if self.ability else None


@dataclass(frozen=True, slots=True)
class LocationDef:
    index: int
    id: str
    name: Names
    ability: Ability | None


@dataclass(frozen=True, slots=True)
class DeckDef:
    id: str
    name: Names
    description: Names
    cards: tuple[str, ...]


@dataclass(frozen=True)
class CardSet:
    cards: tuple[CardDef, ...]
    tokens: dict[str, CardDef]
    locations: tuple[LocationDef, ...]
    decks: dict[str, DeckDef]
    types: dict[str, Names]
    by_id: dict[str, CardDef]
    location_by_id: dict[str, LocationDef]

    def card(self, card_id: str) -> CardDef:
        return self.by_id[card_id]

    def check_deck(self, cards: object) -> list[str]:
        """The deck as a list of card ids if it follows the deck rules, else DeckError saying why."""
        if isinstance(cards, str):
            if cards not in self.decks:
                raise DeckError(f"unknown ready deck {cards!r}; ready decks: {', '.join(sorted(self.decks))}")
            return list(self.decks[cards].cards)
        if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
            raise DeckError("a deck is a ready deck's id or a list of card ids")
        unknown = [c for c in cards if c not in self.by_id]
        if unknown:
            raise DeckError(f"unknown card(s) {', '.join(map(repr, unknown[:5]))}")
        seen: set[str] = set()
        doubles = sorted({c for c in cards if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        if doubles:
            raise DeckError(f"a deck holds at most 1 copy of each card; twice: {', '.join(doubles)}")
        if len(cards) < MIN_DECK:
            raise DeckError(f"a deck has at least {MIN_DECK} cards, not {len(cards)}")
        return list(cards)


class DeckError(ValueError):
    """A deck that breaks the deck rules (12+ cards, 1 copy each, Beings and Items only)."""


def _check_target(where: str, t: Target, types: set[str], *, location: bool, trigger: str) -> None:
    for ty in t.types:
        if ty not in types:
            raise CardDataError(f"{where}: unknown Type {ty!r}")
    if (
        location
        and trigger != "on_card_revealed"
        and t.who in ("self", "allies_here", "enemies_here", "allies", "enemies")
    ):
        raise CardDataError(f"{where}: a Location's ability has no owner, so it cannot target {t.who!r}")
    if t.who == "self" and (t.pick != "all" or t.types or t.kind):
        raise CardDataError(f"{where}: target 'self' takes no pick or filter")
    if trigger == "continuous" and (t.pick != "all" or t.max_stars is not None or t.min_stars is not None):
        raise CardDataError(
            f"{where}: a Continuous ability is recomputed from scratch, so its targets take no pick and no Star filter"
        )


def _check_ability(where: str, ab: Ability, types: set[str], tokens: set[str], *, location: bool) -> None:
    if not location and ab.trigger == "on_card_revealed":
        raise CardDataError(f"{where}: 'on_card_revealed' is a Location trigger; cards use the seed's five")
    if not ab.effects:
        raise CardDataError(f"{where}: an ability needs at least one effect")
    for i, cond in enumerate(ab.conditions):
        cw = f"{where} condition {i}"
        if (cond.min is not None or cond.max is not None) and cond.count is None:
            raise CardDataError(f"{cw}: 'min'/'max' need a 'count'")
        if cond.count is None and cond.turn_min is None and cond.losing_here is None and cond.winning_here is None:
            raise CardDataError(f"{cw}: empty condition")
        if cond.count is not None:
            if cond.min is None and cond.max is None:
                raise CardDataError(f"{cw}: a 'count' needs 'min' or 'max'")
            _check_target(cw, cond.count, types, location=location, trigger=ab.trigger)
        if ab.trigger == "continuous" and (cond.losing_here is not None or cond.winning_here is not None):
            raise CardDataError(f"{cw}: a Continuous ability cannot depend on who is winning (it changes the Stars)")
    for i, eff in enumerate(ab.effects):
        ew = f"{where} effect {i} ({type(eff).__name__})"
        if ab.trigger == "continuous" and not isinstance(eff, AddStars):
            raise CardDataError(f"{ew}: a Continuous ability may only add or subtract Stars")
        if (
            location
            and isinstance(eff, Draw | Discard | CreateToken | ChangeCost | GainMoon)
            and eff.side != "each"
            and ab.trigger != "on_card_revealed"
        ):
            raise CardDataError(f"{ew}: a Location's effect has no owner; use side = 'each'")
        if isinstance(eff, AddStars | Destroy | Move | Copy):
            _check_target(ew, eff.target, types, location=location, trigger=ab.trigger)
        if isinstance(eff, AddStars):
            if eff.amount == 0:
                raise CardDataError(f"{ew}: amount 0 does nothing")
            if eff.per is not None:
                _check_target(ew, eff.per, types, location=location, trigger=ab.trigger)
        if isinstance(eff, Draw | Discard | GainMoon) and eff.amount < 1:
            raise CardDataError(f"{ew}: amount must be at least 1")
        if isinstance(eff, ChangeCost):
            if eff.amount == 0:
                raise CardDataError(f"{ew}: amount 0 does nothing")
            for ty in eff.types:
                if ty not in types:
                    raise CardDataError(f"{ew}: unknown Type {ty!r}")
        if isinstance(eff, CreateToken):
            if eff.token not in tokens:
                raise CardDataError(f"{ew}: unknown token {eff.token!r}")
            if not 1 <= eff.count <= MAX_PER_LOCATION:
                raise CardDataError(f"{ew}: count must be from 1 to {MAX_PER_LOCATION}")


def _check_names(where: str, name: Names) -> None:
    for lang in LANGS:
        if not name.get(lang).strip():
            raise CardDataError(f"{where}: the {lang} name is empty")


def build(files: dict[str, bytes]) -> CardSet:
    """Decode and check the data files (name -> TOML bytes); CardDataError names what is wrong."""
    parsed: dict[str, DataFile] = {}
    for name, raw in sorted(files.items()):
        try:
            table = tomllib.loads(raw.decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise CardDataError(f"{name}: not valid TOML: {err}") from err
        try:
            parsed[name] = msgspec.convert(table, DataFile)
        except msgspec.ValidationError as err:
            raise CardDataError(f"{name}: {_entry_of(table, str(err))}{err}") from err
    types: dict[str, Names] = {}
    for f in parsed.values():
        for t in f.type:
            if t.id in types:
                raise CardDataError(f"{name}: type {t.id!r}: Type id already used")
            types[t.id] = t.name
    type_ids = set(types)
    token_ids = {t.id for f in parsed.values() for t in f.token}
    seen: dict[str, str] = {}

    def claim(name: str, kind: str, entry_id: str) -> str:
        where = f"{name}: {kind} {entry_id!r}"
        if entry_id in seen:
            raise CardDataError(f"{where}: id already used in {seen[entry_id]}")
        if not _ID.fullmatch(entry_id):
            raise CardDataError(f"{where}: an id is lower-case letters, digits and '-'")
        seen[entry_id] = name
        return where

    cards: list[CardDef] = []
    tokens: dict[str, CardDef] = {}
    locations: list[LocationDef] = []
    decks: dict[str, DeckDef] = {}
    for name, f in parsed.items():
        for c in f.card:
            where = claim(name, "card", c.id)
            _check_names(where, c.name)
            if c.cost < 0 or c.cost > 6:
                raise CardDataError(f"{where}: cost must be from 0 to 6 (the most Moon a turn gives), not {c.cost}")
            if c.kind == "item" and c.stars:
                raise CardDataError(f"{where}: an Item has no Stars")
            if c.stars < 0:
                raise CardDataError(f"{where}: printed Stars must be 0 or more, not {c.stars}")
            for ty in c.types:
                if ty not in type_ids:
                    raise CardDataError(f"{where}: unknown Type {ty!r}")
            if c.ability is not None:
                _check_ability(where, c.ability, type_ids, token_ids, location=False)
            cards.append(
                CardDef(len(cards), c.id, c.name, c.kind == "ser", c.cost, c.stars, frozenset(c.types), c.ability)
            )
        for tok in f.token:
            where = claim(name, "token", tok.id)
            _check_names(where, tok.name)
            if tok.stars < 0:
                raise CardDataError(f"{where}: printed Stars must be 0 or more, not {tok.stars}")
            for ty in tok.types:
                if ty not in type_ids:
                    raise CardDataError(f"{where}: unknown Type {ty!r}")
            if tok.ability is not None:
                if tok.ability.trigger == "on_reveal":
                    raise CardDataError(f"{where}: a token is created, never revealed: no 'on_reveal'")
                _check_ability(where, tok.ability, type_ids, token_ids, location=False)
            tokens[tok.id] = CardDef(
                -1, tok.id, tok.name, True, 0, tok.stars, frozenset(tok.types), tok.ability, token=True
            )
        for loc in f.location:
            where = claim(name, "location", loc.id)
            _check_names(where, loc.name)
            if loc.ability is not None:
                _check_ability(where, loc.ability, type_ids, token_ids, location=True)
            locations.append(LocationDef(len(locations), loc.id, loc.name, loc.ability))
    by_id = {c.id: c for c in cards}
    partial = CardSet(tuple(cards), tokens, tuple(locations), {}, types, by_id, {x.id: x for x in locations})
    for name, f in parsed.items():
        for d in f.deck:
            where = claim(name, "deck", d.id)
            try:
                partial.check_deck(list(d.cards))
            except DeckError as err:
                raise CardDataError(f"{where}: {err}") from err
            decks[d.id] = DeckDef(d.id, d.name, d.description, d.cards)
    if len(locations) < 3:
        raise CardDataError(f"the Location deck needs at least 3 Locations, not {len(locations)}")
    return CardSet(tuple(cards), tokens, tuple(locations), decks, types, by_id, partial.location_by_id)


def _entry_of(table: dict[str, object], message: str) -> str:
    """'card 7 ("brasa") ' from a msgspec path such as ``$.card[7].cost``."""
    found = re.search(r"\$\.(\w+)\[(\d+)\]", message)
    if not found:
        return ""
    group, index = found.group(1), int(found.group(2))
    entries = table.get(group)
    entry_id = None
    if isinstance(entries, list) and index < len(entries) and isinstance(entries[index], dict):
        entry_id = entries[index].get("id")
    return f"{group} {index} ({entry_id!r}): "


@cache
def load() -> CardSet:
    """The shipped set, loaded once."""
    return build({p.name: p.read_bytes() for p in sorted(DATA_DIR.glob("*.toml"))})


# ------------------------------------------------------------------------------------------- ability text
_TRIGGER = {
    "on_reveal": ("Ao Revelar", "On Reveal"),
    "continuous": ("Contínuo", "Continuous"),
    "end_of_turn": ("Fim do Turno", "End of Turn"),
    "on_destroyed": ("Ao ser Destruído", "On Destroyed"),
    "end_of_game": ("Fim do Jogo", "End of Game"),
    "on_card_revealed": ("Quando uma carta é revelada aqui", "When a card is revealed here"),
}


def trigger_name(trigger: str, lang: str, *, location: bool = False) -> str:
    pt, en = _TRIGGER[trigger]
    if location and trigger == "on_reveal":
        pt, en = "Ao ser revelado", "When revealed"
    return pt if lang == "pt-BR" else en


def _noun(t: Target, cs: CardSet, lang: str) -> tuple[str, bool, str]:
    """Plural noun with its Types, whether it is masculine (pt), and the Star filter's words."""
    tys = [cs.types[x].get(lang) for x in t.types]
    if lang == "pt-BR":
        base, masc = {"ser": ("Seres", True), "item": ("Itens", True), None: ("cartas", False)}[t.kind]
        noun = base + (" " + "/".join(tys) if tys else "")
    else:
        base = {"ser": "Beings", "item": "Items", None: "cards"}[t.kind]
        noun = ("/".join(tys) + " " if tys else "") + base
        masc = False
    extra = ""
    if t.max_stars is not None:
        extra += f" com até {t.max_stars}★" if lang == "pt-BR" else f" with {t.max_stars}★ or less"
    if t.min_stars is not None:
        extra += f" com {t.min_stars}★ ou mais" if lang == "pt-BR" else f" with {t.min_stars}★ or more"
    return noun, masc, extra


def target_text(t: Target, cs: CardSet, lang: str, *, location: bool = False) -> str:
    pt = lang == "pt-BR"
    if t.who == "self":
        return "esta carta" if pt else "this card"
    noun, masc, extra = _noun(t, cs, lang)
    if pt:
        other = "" if location else ("outros " if masc else "outras ")
        every = ("todos os " if masc else "todas as ") + other
        enemy = "inimigos" if masc else "inimigas"
        art = "os" if masc else "as"
        plural = {
            "allies_here": f"seus {other}{noun}{extra} aqui" if masc else f"suas {other}{noun}{extra} aqui",
            "enemies_here": f"{art} {noun} {enemy}{extra} aqui",
            "all_here": f"{every}{noun}{extra} aqui",
            "allies": f"seus {other}{noun}{extra}" if masc else f"suas {other}{noun}{extra}",
            "enemies": f"{art} {noun} {enemy}{extra}",
            "all": f"{every}{noun}{extra}",
        }[t.who]
        return {
            "all": plural,
            "random": f"uma carta aleatória entre {plural}",
            "strongest": f"a carta mais forte entre {plural}",
            "weakest": f"a carta mais fraca entre {plural}",
        }[t.pick]
    other = "" if location else "other "
    plural = {
        "allies_here": f"your {other}{noun}{extra} here",
        "enemies_here": f"enemy {noun}{extra} here",
        "all_here": f"all {other}{noun}{extra} here",
        "allies": f"your {other}{noun}{extra}",
        "enemies": f"enemy {noun}{extra}",
        "all": f"all {other}{noun}{extra}",
    }[t.who]
    return {
        "all": plural,
        "random": f"a random one of {plural}",
        "strongest": f"the strongest of {plural}",
        "weakest": f"the weakest of {plural}",
    }[t.pick]


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def _side(side: str, lang: str, verb_pt: tuple[str, str, str], verb_en: tuple[str, str, str]) -> str:
    i = ("owner", "opponent", "each").index(side)
    return verb_pt[i] if lang == "pt-BR" else verb_en[i]


def _de(phrase: str) -> str:
    """Portuguese "de" + article, contracted: "de a carta" -> "da carta"."""
    for art, joined in (("a ", "da "), ("as ", "das "), ("o ", "do "), ("os ", "dos "), ("esta ", "desta ")):
        if phrase.startswith(art):
            return joined + phrase[len(art) :]
    return "de " + phrase


def effect_text(e: Effect, cs: CardSet, lang: str, *, location: bool = False) -> str:
    pt = lang == "pt-BR"

    def tt(t: Target) -> str:
        return target_text(t, cs, lang, location=location)

    if isinstance(e, AddStars):
        sign = f"+{e.amount}★" if e.amount > 0 else f"−{-e.amount}★"
        text = f"{sign} para {tt(e.target)}" if pt else f"{sign} to {tt(e.target)}"
        if e.per is not None:
            text += f" por cada uma entre {tt(e.per)}" if pt else f" for each of {tt(e.per)}"
        return text
    if isinstance(e, Destroy):
        return f"destrua {tt(e.target)}" if pt else f"destroy {tt(e.target)}"
    if isinstance(e, Move):
        return (
            f"mova {tt(e.target)} para outro Local aleatório"
            if pt
            else f"move {tt(e.target)} to another random Location"
        )
    if isinstance(e, Draw):
        n = e.amount
        cards_pt, cards_en = _plural(n, "carta", "cartas"), _plural(n, "card", "cards")
        return _side(
            e.side,
            lang,
            (f"compre {n} {cards_pt}", f"o oponente compra {n} {cards_pt}", f"cada jogador compra {n} {cards_pt}"),
            (f"draw {n} {cards_en}", f"your opponent draws {n} {cards_en}", f"each player draws {n} {cards_en}"),
        )
    if isinstance(e, Discard):
        n = e.amount
        cards_pt = _plural(n, "carta aleatória", "cartas aleatórias")
        cards_en = _plural(n, "random card", "random cards")
        return _side(
            e.side,
            lang,
            (
                f"descarte {n} {cards_pt} da sua mão",
                f"o oponente descarta {n} {cards_pt} da mão",
                f"cada jogador descarta {n} {cards_pt} da mão",
            ),
            (
                f"discard {n} {cards_en} from your hand",
                f"your opponent discards {n} {cards_en}",
                f"each player discards {n} {cards_en}",
            ),
        )
    if isinstance(e, CreateToken):
        tok = cs.tokens[e.token]
        what = f"{e.count}× {tok.name.get(lang)} ({tok.stars}★)"
        if pt:
            where = "aqui" if e.where == "here" else "em um Local aleatório"
            return _side(
                e.side,
                lang,
                (f"crie {what} {where}", f"o oponente recebe {what} {where}", f"cada jogador recebe {what} {where}"),
                ("", "", ""),
            )
        where = "here" if e.where == "here" else "at a random Location"
        return _side(
            e.side,
            lang,
            ("", "", ""),
            (f"create {what} {where}", f"your opponent gets {what} {where}", f"each player gets {what} {where}"),
        )
    if isinstance(e, Copy):
        return (
            f"crie uma cópia {_de(tt(e.target))} no mesmo Local"
            if pt
            else f"create a copy of {tt(e.target)} at its Location"
        )
    if isinstance(e, ChangeCost):
        n = abs(e.amount)
        tys = [cs.types[x].get(lang) for x in e.types]
        if pt:
            noun = {"ser": "os Seres", "item": "os Itens", None: "as cartas"}[e.kind] + (
                "" if not tys else " " + "/".join(tys)
            )
            whose = _side(e.side, lang, ("na sua mão", "na mão do oponente", "na mão de cada jogador"), ("", "", ""))
            more = "a mais" if e.amount > 0 else "a menos"
            return f"{noun} {whose} custam {n} Lua {more}"
        noun = ("/".join(tys) + " " if tys else "") + {"ser": "Beings", "item": "Items", None: "cards"}[e.kind]
        whose = _side(e.side, lang, ("", "", ""), ("in your hand", "in your opponent's hand", "in each hand"))
        more = "more" if e.amount > 0 else "less"
        return f"{noun} {whose} cost {n} Moon {more}"
    n = e.amount
    return _side(
        e.side,
        lang,
        (
            f"ganhe +{n} Lua no próximo turno",
            f"o oponente ganha +{n} Lua no próximo turno",
            f"cada jogador ganha +{n} Lua no próximo turno",
        ),
        (
            f"gain +{n} Moon next turn",
            f"your opponent gains +{n} Moon next turn",
            f"each player gains +{n} Moon next turn",
        ),
    )


def condition_text(c: Condition, cs: CardSet, lang: str, *, location: bool = False) -> str:
    pt = lang == "pt-BR"
    parts = []
    if c.count is not None:
        what = target_text(c.count, cs, lang, location=location)
        if c.max == 0 and c.min is None:
            parts.append(f"não houver nenhuma entre {what}" if pt else f"there are none of {what}")
        else:
            if c.min is not None:
                parts.append(
                    f"houver pelo menos {c.min} entre {what}" if pt else f"there are at least {c.min} of {what}"
                )
            if c.max is not None:
                parts.append(f"houver no máximo {c.max} entre {what}" if pt else f"there are at most {c.max} of {what}")
    if c.turn_min is not None:
        parts.append(f"for o turno {c.turn_min} ou depois" if pt else f"it is turn {c.turn_min} or later")
    if c.losing_here:
        parts.append("você estiver perdendo aqui" if pt else "you are losing here")
    if c.winning_here:
        parts.append("você estiver vencendo aqui" if pt else "you are winning here")
    return (" e " if pt else " and ").join(parts)


def ability_text(ab: Ability | None, cs: CardSet, lang: str, *, location: bool = False) -> str:
    """The text a player reads, generated from the data."""
    if ab is None:
        return ""
    pt = lang == "pt-BR"
    body = "; ".join(effect_text(e, cs, lang, location=location) for e in ab.effects)
    if ab.conditions:
        cond = (" e " if pt else " and ").join(condition_text(c, cs, lang, location=location) for c in ab.conditions)
        body = (f"se {cond}: " if pt else f"if {cond}: ") + body
    body = body[0].upper() + body[1:]
    return f"{trigger_name(ab.trigger, lang, location=location)}: {body}."
