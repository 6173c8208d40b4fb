"""The card data's checks (sefode/games/guimenon/cardset.py ``build``): each mistake a card author can make in
``cards/*.toml`` is refused with a message naming the file, the entry and what is wrong."""

from __future__ import annotations

import pytest

from sefode.games.guimenon.cardset import DATA_DIR, CardDataError, build

TYPES = """
[[type]]
id = "raiz"
name = { pt-BR = "Raiz", en = "Root" }
"""
TOKEN = """
[[token]]
id = "broto"
name = { pt-BR = "Broto", en = "Shoot" }
stars = 1
types = ["raiz"]
"""
LOCATIONS = "".join(
    f'\n[[location]]\nid = "local-{i}"\nname = {{ pt-BR = "Local {i}", en = "Place {i}" }}\n' for i in range(3)
)
CARD = """
[[card]]
id = "{id}"
name = {{ pt-BR = "Carta {id}", en = "Card {id}" }}
kind = "ser"
cost = 1
stars = 1
"""
DECK_CARDS = "".join(CARD.format(id=f"carta-{i}") for i in range(12))


def files(extra: str = "", locations: str = LOCATIONS, **more: str) -> dict[str, bytes]:
    return {"base.toml": (TYPES + TOKEN + locations).encode(), "set.toml": (DECK_CARDS + extra).encode(),
            **{k: v.encode() for k, v in more.items()}}


def refused(data: dict[str, bytes]) -> str:
    with pytest.raises(CardDataError) as err:
        build(data)
    return str(err.value)


def card(**fields: str) -> str:
    """One card entry; each keyword replaces (or adds) a line ``key = value``."""
    lines = {"id": '"nova"', "name": '{ pt-BR = "Nova", en = "New" }', "kind": '"ser"', "cost": "1", "stars": "1"}
    lines.update(fields)
    return "\n[[card]]\n" + "".join(f"{k} = {v}\n" for k, v in lines.items() if v)


def test_the_shipped_data_and_a_minimal_set_load() -> None:
    shipped = build({p.name: p.read_bytes() for p in sorted(DATA_DIR.glob("*.toml"))})
    assert len(shipped.cards) >= 48 and len(shipped.locations) >= 12
    small = build(files(card()))
    assert [c.id for c in small.cards][-1] == "nova" and len(small.locations) == 3


@pytest.mark.parametrize("cost", ["-1", "7"])
def test_card_data_bad_cost_is_refused(cost: str) -> None:
    message = refused(files(card(cost=cost)))
    assert message.startswith("set.toml: card 'nova'") and "cost must be from 0 to 6" in message and cost in message


def test_card_data_cost_that_is_not_a_number_is_refused() -> None:
    message = refused(files(card(cost='"two"')))
    assert message.startswith("set.toml: card 12 ('nova'): ") and "$.card[12].cost" in message


def test_card_data_negative_stars_are_refused() -> None:
    assert "printed Stars must be 0 or more, not -2" in refused(files(card(stars="-2")))


def test_card_data_item_with_stars_is_refused() -> None:
    assert "set.toml: card 'nova': an Item has no Stars" in refused(files(card(kind='"item"', stars="2")))


@pytest.mark.parametrize(("field", "value", "words"), [
    ("kind", '"dragon"', "$.card[12].kind"),
    ("colour", '"red"', "unknown field `colour`"),
    ("ability", '{ trigger = "on_attack", effects = [{ op = "draw" }] }', "$.card[12].ability.trigger"),
    ("ability", '{ trigger = "on_reveal", effects = [{ op = "heal", amount = 1 }] }', "'heal'"),
    ("ability", '{ trigger = "on_reveal", effects = [{ op = "draw", side = "both" }] }', "$.card[12].ability.effects"),
])
def test_card_data_unknown_keyword_is_refused(field: str, value: str, words: str) -> None:
    message = refused(files(card(**{field: value})))
    assert message.startswith("set.toml: card 12 ('nova'): ") and words in message


def test_card_data_location_trigger_on_a_card_is_refused() -> None:
    ability = '{ trigger = "on_card_revealed", effects = [{ op = "draw" }] }'
    assert "'on_card_revealed' is a Location trigger" in refused(files(card(ability=ability)))


def test_card_data_duplicate_id_is_refused() -> None:
    assert "set.toml: card 'carta-3': id already used in set.toml" in refused(files(card(id='"carta-3"')))
    message = refused(files() | {"zz.toml": card(id='"carta-3"').encode()})
    assert "zz.toml: card 'carta-3': id already used in set.toml" in message, "across files too"
    assert "location 'broto': id already used in base.toml" in refused(
        files(locations=LOCATIONS + '\n[[location]]\nid = "broto"\nname = { pt-BR = "B", en = "B" }\n'))
    assert "type 'raiz': Type id already used" in refused(files() | {"zz.toml": TYPES.encode()})


@pytest.mark.parametrize("bad", ['"Nova"', '"nova carta"', '""', '"nóva"'])
def test_card_data_id_spelling_is_checked(bad: str) -> None:
    assert "an id is lower-case letters, digits and '-'" in refused(files(card(id=bad)))


def test_card_data_empty_name_is_refused() -> None:
    assert "card 'nova': the en name is empty" in refused(files(card(name='{ pt-BR = "Nova", en = " " }')))


def test_card_data_unknown_type_and_token_are_refused() -> None:
    assert "card 'nova': unknown Type 'fogo'" in refused(files(card(types='["fogo"]')))
    ability = '{ trigger = "on_reveal", effects = [{ op = "create_token", token = "dragao" }] }'
    assert "effect 0 (CreateToken): unknown token 'dragao'" in refused(files(card(ability=ability)))
    target = '{ who = "enemies_here", types = ["fogo"] }'
    ability = f'{{ trigger = "on_reveal", effects = [{{ op = "destroy", target = {target} }}] }}'
    assert "effect 0 (Destroy): unknown Type 'fogo'" in refused(files(card(ability=ability)))


@pytest.mark.parametrize(("ability", "words"), [
    ('{ trigger = "on_reveal", effects = [] }', "an ability needs at least one effect"),
    ('{ trigger = "on_reveal", effects = [{ op = "draw", amount = 0 }] }', "amount must be at least 1"),
    ('{ trigger = "on_reveal", effects = [{ op = "add_stars", amount = 0, target = { who = "self" } }] }',
     "amount 0 does nothing"),
    ('{ trigger = "continuous", effects = [{ op = "draw" }] }', "a Continuous ability may only add or subtract Stars"),
    ('{ trigger = "on_reveal", effects = [{ op = "create_token", token = "broto", count = 5 }] }',
     "count must be from 1 to 4"),
    ('{ trigger = "on_reveal", conditions = [{}], effects = [{ op = "draw" }] }', "empty condition"),
    ('{ trigger = "on_reveal", conditions = [{ min = 1 }], effects = [{ op = "draw" }] }',
     "'min'/'max' need a 'count'"),
])
def test_card_data_ability_that_makes_no_sense_is_refused(ability: str, words: str) -> None:
    message = refused(files(card(ability=ability)))
    assert message.startswith("set.toml: card 'nova'") and words in message


def test_card_data_location_ability_without_an_owner_is_refused() -> None:
    bad = '\n[[location]]\nid = "local-x"\nname = { pt-BR = "X", en = "X" }\n' \
          'ability = { trigger = "on_reveal", effects = [{ op = "draw" }] }\n'
    assert "location 'local-x'" in (message := refused(files(locations=LOCATIONS + bad)))
    assert "use side = 'each'" in message


def test_card_data_location_deck_minimum_of_3() -> None:
    """Seed 003: the Location deck has at least 3 Locations."""
    two = LOCATIONS.split("\n[[location]]")
    message = refused(files(locations="\n[[location]]".join(two[:3])))
    assert message == "the Location deck needs at least 3 Locations, not 2"


def test_card_data_bad_ready_deck_is_refused() -> None:
    short = '\n[[deck]]\nid = "curto"\nname = { pt-BR = "C", en = "S" }\ndescription = { pt-BR = "C", en = "S" }\n' \
            'cards = ["carta-0", "carta-1"]\n'
    assert "set.toml: deck 'curto': a deck has at least 12 cards, not 2" in refused(files(short))
    unknown = short.replace('"carta-1"]', '"carta-1", "fantasma"]')
    assert "deck 'curto': unknown card(s) 'fantasma'" in refused(files(unknown))


def test_card_data_that_is_not_toml_is_refused() -> None:
    assert refused({"broken.toml": b"[[card]\nid = "}).startswith("broken.toml: not valid TOML:")
