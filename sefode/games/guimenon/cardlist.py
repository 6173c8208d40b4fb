"""The card list of the rules pages and the catalogue entries, generated from the card data.

    python -m sefode.games.guimenon.cardlist          # rewrite the generated parts of rules/ and i18n/

The rules pages keep the generated list (in player words: names, never the cards' ids; lists that read on a phone)
between ``<!-- cards:begin -->`` and ``<!-- cards:end -->``; the
catalogues hold hand-written UI strings plus ``guimenon.card.*``, ``guimenon.location.*``, ``guimenon.deck.*``
and ``guimenon.type.*`` entries generated here (every key but the game's title carries the game's name).
``tests/test_guimenon_pages.py`` fails when either is out of date.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sefode.games.guimenon.cardset import LANGS, CardSet, ability_text, load

PACKAGE = Path(__file__).parent
BEGIN, END = "<!-- cards:begin -->", "<!-- cards:end -->"

_WORDS = {
    "pt-BR": {
        "cards": "Cartas",
        "tokens": "Fichas",
        "locations": "Locais",
        "decks": "Decks prontos",
        "cost": "Lua",
        "ser": "Ser",
        "item": "Item",
        "none": "—",
        "list": "cartas",
    },
    "en": {
        "cards": "Cards",
        "tokens": "Tokens",
        "locations": "Locations",
        "decks": "Ready decks",
        "cost": "Moon",
        "ser": "Being",
        "item": "Item",
        "none": "—",
        "list": "cards",
    },
}


def card_list(cs: CardSet, lang: str) -> str:
    """The card list of the rules page: lists, not wide tables, so that it reads on a phone (one card a line: name,
    kind, Types, cost, Stars, then its ability), sorted by cost."""
    w = _WORDS[lang]
    lines = [f"### {w['cards']} ({len(cs.cards)})", ""]
    for c in sorted(cs.cards, key=lambda c: (c.cost, c.id)):
        types = ", ".join(cs.types[t].get(lang) for t in sorted(c.types))
        facts = [w["ser" if c.being else "item"], types, f"{c.cost} {w['cost']}", f"{c.stars}★" if c.being else ""]
        text = ability_text(c.ability, cs, lang)
        lines.append(f"- **{c.name.get(lang)}** ({' · '.join(f for f in facts if f)}){': ' + text if text else ''}")
    lines += ["", f"### {w['tokens']}", ""]
    for t in cs.tokens.values():
        types = ", ".join(cs.types[x].get(lang) for x in sorted(t.types))
        lines.append(f"- **{t.name.get(lang)}** ({' · '.join(f for f in (f'{t.stars}★', types) if f)})")
    lines += ["", f"### {w['locations']} ({len(cs.locations)})", ""]
    for loc in cs.locations:
        lines.append(f"- **{loc.name.get(lang)}**: {ability_text(loc.ability, cs, lang, location=True) or w['none']}")
    lines += ["", f"### {w['decks']}", ""]
    for d in cs.decks.values():
        names = ", ".join(cs.by_id[c].name.get(lang) for c in d.cards)
        lines += [
            f"**{d.name.get(lang)}**: {d.description.get(lang)}",
            "",
            f"{len(d.cards)} {w['list']}: {names}.",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def catalogue_entries(cs: CardSet, lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in cs.cards:
        out[f"guimenon.card.{c.id}"] = c.name.get(lang)
        out[f"guimenon.card.{c.id}.text"] = ability_text(c.ability, cs, lang)
    for t in cs.tokens.values():
        out[f"guimenon.card.{t.id}"] = t.name.get(lang)
        out[f"guimenon.card.{t.id}.text"] = ""
    for loc in cs.locations:
        out[f"guimenon.location.{loc.id}"] = loc.name.get(lang)
        out[f"guimenon.location.{loc.id}.text"] = ability_text(loc.ability, cs, lang, location=True)
    for d in cs.decks.values():
        out[f"guimenon.deck.{d.id}"] = d.name.get(lang)
        out[f"guimenon.deck.{d.id}.description"] = d.description.get(lang)
    for tid, name in cs.types.items():
        out[f"guimenon.type.{tid}"] = name.get(lang)
    return out


UI: dict[str, dict[str, str]] = {
    "pt-BR": {
        "game.guimenon.title": "Guimenon TCG",
        "guimenon.option.deck_0": "Deck do lugar 1",
        "guimenon.option.deck_1": "Deck do lugar 2",
        "guimenon.option.deck_help": "Um deck pronto, ou aleatório; o deck montado por cada jogador vem na preparação.",
        "guimenon.deck.random": "Aleatório",
        "guimenon.action.confirm": "Confirmar",
        "guimenon.action.place": "Jogar {card} no Local {location}",
        "guimenon.action.take_back": "Desfazer {card}",
        "guimenon.action.discard": "Descartar {card}",
        "guimenon.moon": "Lua",
        "guimenon.stars": "Estrelas",
        "guimenon.turn": "Turno {turn} de 6",
        "guimenon.not_revealed": "Ainda não revelado",
        "guimenon.waiting": "Esperando o oponente…",
        "guimenon.must_discard.one": "Descarte {count} carta para ficar com 7",
        "guimenon.must_discard.other": "Descarte {count} cartas para ficar com 7",
        "guimenon.neutral": "Neutro",
        "guimenon.controls": "Controla",
        "guimenon.hand_deck": "{hand} na mão · {deck} no deck",
        "guimenon.your_hand": "Sua mão",
        "guimenon.board": "Locais",
        "guimenon.select_card": "Escolher {card}",
        "guimenon.place_here": "Jogar aqui: Local {location}",
        "guimenon.builder.title": "Montar deck — Guimenon",
        "guimenon.builder.nickname": "Seu apelido (para guardar decks)",
        "guimenon.builder.all": "Todos",
        "guimenon.builder.cost": "Custo",
        "guimenon.builder.type": "Tipo",
        "guimenon.builder.kind": "Tipo de carta",
        "guimenon.builder.pool": "Cartas",
        "guimenon.builder.deck": "Seu deck",
        "guimenon.builder.curve": "Curva de Lua",
        "guimenon.builder.valid": "Deck válido: {count} cartas.",
        "guimenon.setup.ready_decks": "Decks prontos",
        "guimenon.setup.saved_decks": "Seus decks",
        "guimenon.setup.none_saved": "Nenhum deck guardado ainda.",
        "guimenon.setup.build": "Montar um deck",
        "guimenon.builder.short": "{count} cartas: faltam {missing} (mínimo {min}).",
        "guimenon.builder.name": "Nome do deck",
        "guimenon.builder.save": "Guardar",
        "guimenon.builder.saved": "Decks guardados",
        "guimenon.builder.load": "Abrir",
        "guimenon.builder.delete": "Apagar",
        "guimenon.builder.code": "Código para compartilhar",
        "guimenon.builder.import": "Abrir código",
        "guimenon.builder.bad_code": (
            "Esse código não abre um deck: confira se copiou o código inteiro (ele começa "
            "com G2-). Seu deck continua como estava."
        ),
        "guimenon.builder.no_code": "Cole um código de deck na caixa acima (ele começa com G2-).",
        "guimenon.builder.import_label": "Código de um deck que compartilharam com você",
        "guimenon.builder.imported": "Deck aberto: {count} cartas.",
        "guimenon.builder.copy": "Copiar código",
        "guimenon.builder.copied": "Código copiado!",
        "guimenon.builder.copy_failed": "Não deu para copiar; selecione o código e copie.",
        "guimenon.builder.saved_ok": "Deck guardado: {name} ({count} cartas).",
        "guimenon.builder.saving_as": "Seus decks ficam guardados como {name}.",
        "guimenon.builder.deleted": "Deck apagado: {name}.",
        "guimenon.builder.load_named": "Abrir {name}",
        "guimenon.builder.delete_named": "Apagar {name}",
        "guimenon.builder.add_card": "toque numa carta para pô-la no deck",
        "guimenon.builder.remove_card": "toque numa carta para tirá-la do deck",
        "guimenon.builder.empty": "Seu deck está vazio: toque nas cartas abaixo, ou comece de um deck pronto.",
        "guimenon.builder.pick_ready": "Escolher…",
        "guimenon.builder.rules": "Regras do Guimenon",
        "guimenon.builder.intro": (
            "Monte um deck de pelo menos 12 cartas, uma de cada. Guarde para escolher na mesa, "
            "ou compartilhe pelo código."
        ),
        "guimenon.builder.no_pool": "Não deu para carregar as cartas. Recarregue a página.",
        "guimenon.builder.start_from": "Começar de um deck pronto",
        "guimenon.kind.ser": "Ser",
        "guimenon.kind.item": "Item",
        "guimenon.result.stars": "{card} ({name}) {amount}★",
        "guimenon.result.destroyed": "destruída: {card} ({name})",
        "guimenon.result.moved": "{card} ({name}) vai para o Local {to}",
        "guimenon.result.created": "{name} ganha {card} no Local {at}",
        "guimenon.result.copy": "{name} ganha uma cópia de {card} no Local {at}",
        "guimenon.result.drew": "{name} compra 1 carta",
        "guimenon.result.discarded": "{name} descarta {card}",
        "guimenon.result.costs_more": "as cartas na mão de {name} custam {n} Lua a mais",
        "guimenon.result.costs_less": "as cartas na mão de {name} custam {n} Lua a menos",
        "guimenon.result.moon": "{name} ganha +{n} Lua no próximo turno",
        "guimenon.result.nothing": "sem efeito",
        "guimenon.your_turn": "Sua vez: toque numa carta e depois num Local; quando terminar, Confirmar.",
        "guimenon.your_side": "Seu lado",
        "guimenon.their_side": "Lado de {name}",
        "guimenon.why_moon": "{card} custa {cost} de Lua; você tem {moon} neste turno.",
        "guimenon.why_no_place": "{card} não tem Local livre agora.",
        "guimenon.zoom": "Ver {card} inteira",
        "guimenon.score.player": "Jogador",
        "guimenon.score.locations": "Locais controlados",
        "guimenon.score.stars": "Estrelas no total",
        "guimenon.end.board": "O tabuleiro final",
        "guimenon.end.locations": "{name} venceu controlando mais Locais: {n} dos 3.",
        "guimenon.end.stars": (
            "{name} venceu pelo total de Estrelas ({mine}★ a {theirs}★): os dois controlaram o mesmo número de Locais."
        ),
        "guimenon.end.draw": (
            "Empate: os dois controlaram o mesmo número de Locais e as Estrelas somaram {stars}★ para cada lado."
        ),
        "guimenon.leave": "Sair da mesa",
        "guimenon.leave_confirm": (
            "Sair da mesa? Um bot joga no seu lugar até o fim da partida, e você passa a "
            "assistir. Você não volta a este lugar nesta partida."
        ),
    },
    "en": {
        "game.guimenon.title": "Guimenon TCG",
        "guimenon.option.deck_0": "Seat 1's deck",
        "guimenon.option.deck_1": "Seat 2's deck",
        "guimenon.option.deck_help": "A ready deck, or random; a deck a player built comes with the setup.",
        "guimenon.deck.random": "Random",
        "guimenon.action.confirm": "Confirm",
        "guimenon.action.place": "Play {card} at Location {location}",
        "guimenon.action.take_back": "Take back {card}",
        "guimenon.action.discard": "Discard {card}",
        "guimenon.moon": "Moon",
        "guimenon.stars": "Stars",
        "guimenon.turn": "Turn {turn} of 6",
        "guimenon.not_revealed": "Not revealed yet",
        "guimenon.waiting": "Waiting for the opponent…",
        "guimenon.must_discard.one": "Discard {count} card to keep 7",
        "guimenon.must_discard.other": "Discard {count} cards to keep 7",
        "guimenon.neutral": "Neutral",
        "guimenon.controls": "Controls",
        "guimenon.hand_deck": "{hand} in hand · {deck} in deck",
        "guimenon.your_hand": "Your hand",
        "guimenon.board": "Locations",
        "guimenon.select_card": "Choose {card}",
        "guimenon.place_here": "Play here: Location {location}",
        "guimenon.builder.title": "Deck builder — Guimenon",
        "guimenon.builder.nickname": "Your nickname (to keep decks)",
        "guimenon.builder.all": "All",
        "guimenon.builder.cost": "Cost",
        "guimenon.builder.type": "Type",
        "guimenon.builder.kind": "Kind",
        "guimenon.builder.pool": "Cards",
        "guimenon.builder.deck": "Your deck",
        "guimenon.builder.curve": "Moon curve",
        "guimenon.builder.valid": "Valid deck: {count} cards.",
        "guimenon.setup.ready_decks": "Ready decks",
        "guimenon.setup.saved_decks": "Your decks",
        "guimenon.setup.none_saved": "No saved deck yet.",
        "guimenon.setup.build": "Build a deck",
        "guimenon.builder.short": "{count} cards: {missing} more needed (at least {min}).",
        "guimenon.builder.name": "Deck name",
        "guimenon.builder.save": "Save",
        "guimenon.builder.saved": "Saved decks",
        "guimenon.builder.load": "Open",
        "guimenon.builder.delete": "Delete",
        "guimenon.builder.code": "Code to share",
        "guimenon.builder.import": "Open code",
        "guimenon.builder.bad_code": (
            "That code does not open a deck: check that you copied all of it (it starts "
            "with G2-). Your deck is as it was."
        ),
        "guimenon.builder.no_code": "Paste a deck code in the box above (it starts with G2-).",
        "guimenon.builder.import_label": "Code of a deck someone shared with you",
        "guimenon.builder.imported": "Deck opened: {count} cards.",
        "guimenon.builder.copy": "Copy code",
        "guimenon.builder.copied": "Code copied!",
        "guimenon.builder.copy_failed": "Could not copy; select the code and copy it.",
        "guimenon.builder.saved_ok": "Deck saved: {name} ({count} cards).",
        "guimenon.builder.saving_as": "Your decks are kept as {name}.",
        "guimenon.builder.deleted": "Deck deleted: {name}.",
        "guimenon.builder.load_named": "Open {name}",
        "guimenon.builder.delete_named": "Delete {name}",
        "guimenon.builder.add_card": "tap a card to put it in the deck",
        "guimenon.builder.remove_card": "tap a card to take it out of the deck",
        "guimenon.builder.empty": "Your deck is empty: tap the cards below, or start from a ready deck.",
        "guimenon.builder.pick_ready": "Choose…",
        "guimenon.builder.rules": "Guimenon rules",
        "guimenon.builder.intro": (
            "Build a deck of at least 12 cards, one of each. Save it to pick it at the table, or share it by its code."
        ),
        "guimenon.builder.no_pool": "The cards could not be loaded. Reload the page.",
        "guimenon.builder.start_from": "Start from a ready deck",
        "guimenon.kind.ser": "Being",
        "guimenon.kind.item": "Item",
        "guimenon.result.stars": "{card} ({name}) {amount}★",
        "guimenon.result.destroyed": "destroyed: {card} ({name})",
        "guimenon.result.moved": "{card} ({name}) moves to Location {to}",
        "guimenon.result.created": "{name} gets {card} at Location {at}",
        "guimenon.result.copy": "{name} gets a copy of {card} at Location {at}",
        "guimenon.result.drew": "{name} draws 1 card",
        "guimenon.result.discarded": "{name} discards {card}",
        "guimenon.result.costs_more": "the cards in {name}'s hand cost {n} Moon more",
        "guimenon.result.costs_less": "the cards in {name}'s hand cost {n} Moon less",
        "guimenon.result.moon": "{name} gets +{n} Moon next turn",
        "guimenon.result.nothing": "no effect",
        "guimenon.your_turn": "Your turn: tap a card, then a Location; when you are done, Confirm.",
        "guimenon.your_side": "Your side",
        "guimenon.their_side": "{name}'s side",
        "guimenon.why_moon": "{card} costs {cost} Moon; you have {moon} this turn.",
        "guimenon.why_no_place": "{card} has no free Location now.",
        "guimenon.zoom": "See all of {card}",
        "guimenon.score.player": "Player",
        "guimenon.score.locations": "Locations controlled",
        "guimenon.score.stars": "Total Stars",
        "guimenon.end.board": "The final board",
        "guimenon.end.locations": "{name} won by controlling more Locations: {n} of the 3.",
        "guimenon.end.stars": "{name} won on total Stars ({mine}★ to {theirs}★): both controlled as many Locations.",
        "guimenon.end.draw": "A draw: both controlled as many Locations and each side's Stars came to {stars}★.",
        "guimenon.leave": "Leave the table",
        "guimenon.leave_confirm": (
            "Leave the table? A bot plays your seat until the end of the match, and you watch "
            "from then on. You cannot take this seat back in this match."
        ),
    },
}


def catalogue(cs: CardSet, lang: str) -> dict[str, Any]:
    return dict(sorted({**UI[lang], **catalogue_entries(cs, lang)}.items()))


def page_with_list(text: str, cs: CardSet, lang: str) -> str:
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{card_list(cs, lang)}{END}{tail}"


def pool_json(cs: CardSet) -> dict[str, Any]:
    """The card pool for the deck builder (``client/cards.json``): what each card is, the ready decks, the rules."""
    from sefode.games.guimenon.cardset import MIN_DECK

    return {
        "min_deck": MIN_DECK,
        "types": sorted(cs.types),
        "cards": [
            {
                "id": c.id,
                "kind": "ser" if c.being else "item",
                "cost": c.cost,
                "stars": c.stars,
                "types": sorted(c.types),
            }
            for c in cs.cards
        ],
        "decks": [{"id": d.id, "cards": list(d.cards)} for d in cs.decks.values()],
    }


def write_all() -> None:
    cs = load()
    (PACKAGE / "client" / "cards.json").write_text(
        json.dumps(pool_json(cs), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    for lang in LANGS:
        page = PACKAGE / "rules" / f"guimenon.{lang}.md"
        page.write_text(page_with_list(page.read_text(encoding="utf-8"), cs, lang), encoding="utf-8")
        cat = PACKAGE / "i18n" / f"{lang}.json"
        cat.parent.mkdir(exist_ok=True)
        cat.write_text(json.dumps(catalogue(cs, lang), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_all()
