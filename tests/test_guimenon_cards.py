"""One scenario per card and per Location, named after it: set up a board, play the card, check its text."""

from __future__ import annotations

import sys

from guimenon_helpers import G, ids, idx, play, put, scene, stars, total, unit, units

from sefode.games.guimenon import rules
from sefode.games.guimenon.cardset import ability_text
from sefode.games.guimenon.rules import CARDSET


# ------------------------------------------------------------------------------------------- Raiz
def test_card_broto_teimoso() -> None:
    st = scene()
    play(st, [(0, "broto-teimoso", 0)])
    assert stars(st, "broto-teimoso") == 1, "End of Turn: +1★ to this card, on the turn it is played too"
    play(st, [])
    assert stars(st, "broto-teimoso") == 2


def test_card_musgo_guardiao() -> None:
    st = scene()
    put(st, 0, 0, "cogumelo-fofoqueiro")
    put(st, 0, 0, "boneco-de-lata")
    put(st, 1, 0, "espinheiro")
    play(st, [(0, "musgo-guardiao", 0)])
    assert stars(st, "cogumelo-fofoqueiro") == 2, "other Root Beings here +1"
    assert stars(st, "boneco-de-lata") == 3 and stars(st, "espinheiro") == 2 and stars(st, "musgo-guardiao") == 1


def test_card_semente_lunar() -> None:
    st = scene()
    play(st, [(0, "semente-lunar", 0)])
    assert st.turn == 4 and st.moon_total == [5, 4], "+1 Moon next turn"
    play(st, [])
    assert st.moon_total == [5, 5], "only the next turn"


def test_card_raiz_profunda() -> None:
    st = scene()
    play(st, [(0, "raiz-profunda", 1)])
    assert stars(st, "raiz-profunda") == 3


def test_card_cogumelo_fofoqueiro() -> None:
    st = scene()
    put(st, 0, 0, "boneco-de-lata")
    put(st, 0, 0, "sussurro")
    put(st, 0, 1, "automato-pesado")
    put(st, 1, 0, "caranguejo-timido")
    play(st, [(0, "cogumelo-fofoqueiro", 0)])
    assert stars(st, "boneco-de-lata") == 4 and stars(st, "cogumelo-fofoqueiro") == 1
    assert stars(st, "automato-pesado") == 7 and stars(st, "caranguejo-timido") == 2
    assert stars(st, "sussurro") == 0, "only Beings receive Stars"


def test_card_espinheiro() -> None:
    st = scene()
    put(st, 0, 0, "broto-teimoso")
    play(st, [(0, "espinheiro", 0)])
    assert stars(st, "espinheiro") == 2, "one other Root: no bonus"
    put(st, 0, 0, "musgo-guardiao")
    assert stars(st, "espinheiro") == 2 + 2 + 1, "two other Roots: +2★ (and the Moss Warden's +1)"


def test_card_tronco_ancestral() -> None:
    st = scene()
    put(st, 0, 2, "carvalho-velho")
    put(st, 0, 2, "cogumelo-fofoqueiro")
    put(st, 0, 2, "boneco-de-lata")
    play(st, [(0, "tronco-ancestral", 2)])
    assert stars(st, "tronco-ancestral") == 3 + 2, "+1★ per other Root Being here"


def test_card_florada_noturna() -> None:
    st = scene()
    put(st, 0, 1, "boneco-de-lata")
    put(st, 0, 2, "caranguejo-timido")
    put(st, 1, 0, "vulto")
    play(st, [(0, "florada-noturna", 0)])
    assert stars(st, "boneco-de-lata") == 4 and stars(st, "caranguejo-timido") == 3
    assert stars(st, "vulto") == 1 and stars(st, "florada-noturna") == 2


def test_card_regador_de_orvalho() -> None:
    st = scene()
    put(st, 0, 0, "boneco-de-lata")
    put(st, 0, 1, "caranguejo-timido")
    play(st, [(0, "regador-de-orvalho", 0)])
    assert stars(st, "boneco-de-lata") == 5 and stars(st, "caranguejo-timido") == 2
    assert stars(st, "regador-de-orvalho") == 0


def test_card_jardineira_sonambula() -> None:
    st = scene()
    put(st, 0, 0, "boneco-de-lata")
    put(st, 1, 0, "caranguejo-timido")
    play(st, [(0, "jardineira-sonambula", 0)])
    assert stars(st, "boneco-de-lata") == 4 and stars(st, "jardineira-sonambula") == 3
    assert stars(st, "caranguejo-timido") == 2


def test_card_carvalho_velho() -> None:
    st = scene()
    play(st, [(0, "carvalho-velho", 0)])
    assert stars(st, "carvalho-velho") == 7 and total(st, 0, 0) == 7


def test_card_arvore_mae() -> None:
    st = scene(turn=6)
    put(st, 0, 1, "broto-teimoso")
    put(st, 0, 2, "boneco-de-lata")
    put(st, 1, 1, "raiz-profunda")
    play(st, [(0, "arvore-mae", 0)])
    assert st.over
    assert stars(st, "broto-teimoso") == 0 + 1 + 2, "its own End of Turn, then End of Game +2"
    assert stars(st, "boneco-de-lata") == 3 and stars(st, "raiz-profunda") == 3


def test_card_semeadora() -> None:
    st = scene()
    play(st, [(0, "semeadora", 2)])
    assert ids(st, 2, 0) == ["semeadora", "broto", "broto"]
    assert total(st, 2, 0) == 4


# ------------------------------------------------------------------------------------------- Maré
def test_card_gota_curiosa() -> None:
    st = scene()
    play(st, [(0, "gota-curiosa", 1)])
    assert ids(st, 1, 0) == ["gota-curiosa", "respingo"] and total(st, 1, 0) == 3


def test_card_caranguejo_timido() -> None:
    st = scene()
    play(st, [(1, "caranguejo-timido", 0)])
    assert stars(st, "caranguejo-timido") == 2


def test_card_cardume_prateado() -> None:
    st = scene()
    play(st, [(0, "cardume-prateado", 0)])
    assert ids(st, 0, 0) == ["cardume-prateado", "respingo", "respingo"]


def test_card_medusa_lenta() -> None:
    st = scene()
    put(st, 0, 0, "caranguejo-timido")
    put(st, 0, 0, "lontra-mensageira")
    put(st, 0, 0, "boneco-de-lata")
    play(st, [(0, "medusa-lenta", 0)])
    assert stars(st, "medusa-lenta") == 3 + 2


def test_card_lontra_mensageira() -> None:
    st = scene()
    st.draw[0].append(idx("vulto"))
    play(st, [(0, "lontra-mensageira", 0)])
    assert st.hand[0] == [idx("vulto")]


def test_card_onda_alta() -> None:
    st = scene()
    play(st, [(0, "onda-alta", 0)])
    assert len(units(st, "respingo")) == 1 and units(st, "respingo")[0].owner == 0


def test_card_polvo_sabio() -> None:
    st = scene()
    put(st, 0, 0, "caranguejo-timido")
    put(st, 0, 0, "boneco-de-lata")
    put(st, 1, 0, "gota-curiosa")
    play(st, [(0, "polvo-sabio", 0)])
    assert stars(st, "caranguejo-timido") == 3 and stars(st, "boneco-de-lata") == 3
    assert stars(st, "gota-curiosa") == 2 and stars(st, "polvo-sabio") == 3


def test_card_concha_do_eco() -> None:
    st = scene()
    put(st, 0, 0, "caranguejo-timido")
    put(st, 0, 0, "automato-pesado")
    play(st, [(0, "concha-do-eco", 0)])
    copies = units(st, "automato-pesado")
    assert len(copies) == 2 and [u.created for u in copies] == [False, True], "a copy of the strongest"
    assert total(st, 0, 0) == 2 + 7 + 7


def test_card_baleia_canora() -> None:
    st = scene()
    put(st, 0, 1, "caranguejo-timido")
    put(st, 0, 2, "boneco-de-lata")
    put(st, 1, 0, "gota-curiosa")
    play(st, [(0, "baleia-canora", 0)])
    assert stars(st, "caranguejo-timido") == 3 and stars(st, "boneco-de-lata") == 3
    assert stars(st, "gota-curiosa") == 2 and stars(st, "baleia-canora") == 4


def test_card_correnteza() -> None:
    st = scene()
    put(st, 1, 0, "automato-pesado")
    put(st, 1, 0, "caranguejo-timido")
    play(st, [(0, "correnteza", 0)])
    assert ids(st, 0, 1) == ["caranguejo-timido"], "the strongest enemy card here was moved"
    assert unit(st, "automato-pesado").loc in (1, 2)


def test_card_tartaruga_ancia() -> None:
    st = scene()
    put(st, 0, 1, "caranguejo-timido")
    put(st, 0, 1, "sussurro")
    put(st, 1, 1, "boneco-de-lata")
    play(st, [(0, "tartaruga-ancia", 1)])
    assert stars(st, "tartaruga-ancia") == 5 + 2, "+1★ per other card of yours here, Items too"


def test_card_leviata_manso() -> None:
    st = scene()
    put(st, 0, 1, "caranguejo-timido")
    put(st, 0, 1, "boneco-de-lata")
    put(st, 1, 1, "gota-curiosa")
    play(st, [(0, "leviata-manso", 0)])
    assert stars(st, "caranguejo-timido") == 3 and stars(st, "boneco-de-lata") == 3
    assert stars(st, "gota-curiosa") == 2 and stars(st, "leviata-manso") == 6


def test_card_mare_de_sizigia() -> None:
    st = scene()
    st.draw[0].append(idx("vulto"))
    play(st, [(0, "mare-de-sizigia", 0)])
    assert len(units(st, "respingo")) == 2 and st.hand[0] == [idx("vulto")]


# ------------------------------------------------------------------------------------------- Brasa
def test_card_faisca_arteira() -> None:
    st = scene()
    put(st, 0, 0, "faisca-arteira")
    play(st, [(1, "lanca-de-chamas", 0)])
    assert ids(st, 0, 0) == ["brasinha"] and st.discard[0] == [idx("faisca-arteira")]


def test_card_fagulha() -> None:
    st = scene()
    put(st, 1, 0, "boneco-de-lata")
    put(st, 1, 1, "caranguejo-timido")
    play(st, [(0, "fagulha", 0)])
    assert stars(st, "boneco-de-lata") == 2 and stars(st, "caranguejo-timido") == 2


def test_card_salamandra_faminta() -> None:
    st = scene()
    put(st, 0, 0, "caranguejo-timido")
    put(st, 0, 0, "boneco-de-lata")
    play(st, [(0, "salamandra-faminta", 0)])
    assert ids(st, 0, 0) == ["boneco-de-lata", "salamandra-faminta"]
    assert st.discard[0] == [idx("caranguejo-timido")] and stars(st, "salamandra-faminta") == 6
    alone = scene()
    play(alone, [(0, "salamandra-faminta", 0)])
    assert stars(alone, "salamandra-faminta") == 3, "nothing to destroy: no bonus"


def test_card_fenix_pequena() -> None:
    st = scene()
    put(st, 0, 0, "fenix-pequena")
    play(st, [(0, "salamandra-faminta", 0)])
    assert ids(st, 0, 0) == ["salamandra-faminta", "brasinha", "brasinha"]


def test_card_carvoeiro() -> None:
    st = scene()
    put(st, 0, 0, "carvoeiro")
    put(st, 0, 0, "boneco-de-lata")
    play(st, [(0, "salamandra-faminta", 0)])
    assert stars(st, "boneco-de-lata") == 5, "On Destroyed: +2★ to your other Beings here"
    assert stars(st, "salamandra-faminta") == 3 + 2 + 3


def test_card_lanca_de_chamas() -> None:
    st = scene()
    put(st, 1, 0, "boneco-de-lata")
    put(st, 1, 0, "caranguejo-timido")
    play(st, [(0, "lanca-de-chamas", 0)])
    assert ids(st, 0, 1) == ["boneco-de-lata"] and st.discard[1] == [idx("caranguejo-timido")]
    big = scene()
    put(big, 1, 0, "boneco-de-lata")
    play(big, [(0, "lanca-de-chamas", 0)])
    assert ids(big, 0, 1) == ["boneco-de-lata"], "no enemy with 2★ or less: nothing happens"


def test_card_fornalha() -> None:
    st = scene()
    put(st, 0, 0, "caranguejo-timido")
    play(st, [(0, "fornalha", 0)])
    assert ids(st, 0, 0) == ["fornalha"] and st.moon_total == [6, 4]


def test_card_lagarto_vulcanico() -> None:
    st = scene()
    put(st, 1, 0, "boneco-de-lata")
    put(st, 1, 0, "caranguejo-timido")
    put(st, 1, 1, "vulto")
    play(st, [(0, "lagarto-vulcanico", 0)])
    assert stars(st, "boneco-de-lata") == 2 and stars(st, "caranguejo-timido") == 1 and stars(st, "vulto") == 1


def test_card_ferreiro_rubro() -> None:
    st = scene()
    put(st, 0, 1, "fagulha")
    put(st, 0, 2, "boneco-de-lata")
    play(st, [(0, "ferreiro-rubro", 0)])
    assert stars(st, "fagulha") == 3 and stars(st, "boneco-de-lata") == 3 and stars(st, "ferreiro-rubro") == 4


def test_card_incendiaria() -> None:
    st = scene()
    put(st, 1, 0, "boneco-de-lata")
    put(st, 1, 0, "automato-pesado")
    play(st, [(0, "incendiaria", 0)])
    assert ids(st, 0, 1) == ["automato-pesado"]


def test_card_colosso_de_magma() -> None:
    st = scene()
    put(st, 0, 0, "boneco-de-lata")
    put(st, 0, 0, "sussurro")
    put(st, 1, 0, "caranguejo-timido")
    play(st, [(0, "colosso-de-magma", 0)])
    assert ids(st, 0, 0) == ["colosso-de-magma"] and ids(st, 0, 1) == ["caranguejo-timido"]
    assert sorted(st.discard[0]) == sorted([idx("boneco-de-lata"), idx("sussurro")]) and total(st, 0, 0) == 9


def test_card_cometa_rubro() -> None:
    st = scene()
    put(st, 1, 0, "automato-pesado")
    put(st, 1, 0, "boneco-de-lata")
    put(st, 1, 0, "caranguejo-timido", perm=3)
    play(st, [(0, "cometa-rubro", 0)])
    assert ids(st, 0, 1) == ["automato-pesado", "boneco-de-lata"], "the strongest with 6★ or less (5★ here)"


def test_card_chama_teimosa() -> None:
    st = scene()
    put(st, 0, 0, "chama-teimosa")
    st.draw[0].append(idx("vulto"))
    play(st, [(0, "colosso-de-magma", 0)])
    assert len(units(st, "brasinha")) == 1 and st.hand[0] == [idx("vulto")]


# ------------------------------------------------------------------------------------------- Sombra
def test_card_vulto() -> None:
    st = scene(turn=5)
    play(st, [(0, "vulto", 0)])
    assert stars(st, "vulto") == 1, "nothing before the End of Game"
    play(st, [])
    assert st.over and stars(st, "vulto") == 3


def test_card_sussurro() -> None:
    st = scene()
    st.hand[1].append(idx("automato-pesado"))
    play(st, [(0, "sussurro", 0)])
    assert rules.cost(st, 1, idx("automato-pesado")) == 6 and rules.cost(st, 0, idx("automato-pesado")) == 5


def test_card_ladrao_de_sonhos() -> None:
    st = scene()
    st.hand[1] += [idx("vulto"), idx("automato-pesado")]
    play(st, [(0, "ladrao-de-sonhos", 0)])
    assert len(st.hand[1]) == 1 and len(st.discard[1]) == 1
    assert sorted(st.hand[1] + st.discard[1]) == sorted([idx("vulto"), idx("automato-pesado")])


def test_card_coruja_agourenta() -> None:
    st = scene()
    put(st, 1, 0, "automato-pesado")
    put(st, 1, 0, "boneco-de-lata")
    play(st, [(0, "coruja-agourenta", 0)])
    assert stars(st, "automato-pesado") == 6 and stars(st, "boneco-de-lata") == 3


def test_card_espelho_escuro() -> None:
    st = scene()
    put(st, 1, 1, "automato-pesado")
    put(st, 1, 1, "boneco-de-lata")
    play(st, [(0, "espelho-escuro", 1)])
    assert ids(st, 1, 0) == ["espelho-escuro", "automato-pesado"] and total(st, 1, 0) == 7


def test_card_gato_das_sombras() -> None:
    st = scene()
    put(st, 1, 0, "boneco-de-lata")
    put(st, 1, 1, "caranguejo-timido")
    play(st, [(0, "gato-das-sombras", 0)])
    assert stars(st, "boneco-de-lata") == 2 and stars(st, "caranguejo-timido") == 2


def test_card_mascara_vazia() -> None:
    st = scene()
    put(st, 1, 0, "automato-pesado")
    play(st, [(0, "mascara-vazia", 0)])
    assert stars(st, "mascara-vazia") == 6, "losing here: +4★"
    ahead = scene()
    put(ahead, 0, 0, "automato-pesado")
    play(ahead, [(0, "mascara-vazia", 0)])
    assert stars(ahead, "mascara-vazia") == 2


def test_card_eclipse() -> None:
    st = scene(turn=6)
    put(st, 1, 0, "automato-pesado")
    put(st, 1, 1, "boneco-de-lata")
    play(st, [(0, "eclipse", 0)])
    assert st.over and stars(st, "automato-pesado") == 5 and stars(st, "boneco-de-lata") == 3


def test_card_sombra_longa() -> None:
    st = scene()
    put(st, 1, 0, "automato-pesado")
    play(st, [(0, "sombra-longa", 0)])
    assert stars(st, "automato-pesado") == 6
    play(st, [])
    assert stars(st, "automato-pesado") == 5


def test_card_vigia_noturno() -> None:
    st = scene()
    put(st, 1, 0, "automato-pesado")
    put(st, 1, 0, "sussurro")
    put(st, 1, 1, "vulto")
    play(st, [(0, "vigia-noturno", 0)])
    assert stars(st, "vigia-noturno") == 3 + 2


def test_card_dama_da_meia_noite() -> None:
    st = scene()
    put(st, 1, 0, "automato-pesado")
    put(st, 1, 2, "boneco-de-lata")
    put(st, 0, 2, "caranguejo-timido")
    play(st, [(0, "dama-da-meia-noite", 1)])
    assert stars(st, "automato-pesado") == 6 and stars(st, "boneco-de-lata") == 2
    assert stars(st, "caranguejo-timido") == 2


def test_card_vazio_vivo() -> None:
    st = scene(turn=6)
    put(st, 1, 0, "automato-pesado")
    put(st, 1, 0, "boneco-de-lata")
    put(st, 1, 0, "caranguejo-timido")
    play(st, [(0, "vazio-vivo", 0)])
    assert st.over and ids(st, 0, 1) == ["automato-pesado", "caranguejo-timido"], "the strongest with 4★ or less"


def test_card_passo_furtivo() -> None:
    st = scene(turn=6)
    for card in ("automato-pesado", "boneco-de-lata", "vulto"):
        put(st, 1, 0, card)
    play(st, [(0, "passo-furtivo", 0)])
    assert stars(st, "passo-furtivo") == 5
    few = scene(turn=6)
    put(few, 1, 0, "vulto")
    play(few, [(0, "passo-furtivo", 0)])
    assert stars(few, "passo-furtivo") == 2


# ------------------------------------------------------------------------------------------- Engenho
def test_card_engrenagem_solta() -> None:
    st = scene()
    st.draw[0] += [idx("caranguejo-timido"), idx("vulto"), idx("fagulha")]
    play(st, [(0, "engrenagem-solta", 0)])
    assert st.hand[0] == [idx("fagulha"), idx("vulto")], "draws the top card, then the next turn's draw"


def test_card_boneco_de_lata() -> None:
    st = scene()
    play(st, [(0, "boneco-de-lata", 0)])
    assert stars(st, "boneco-de-lata") == 3


def test_card_relojoeiro() -> None:
    st = scene()
    st.hand[0].append(idx("automato-pesado"))
    st.hand[1].append(idx("automato-pesado"))
    play(st, [(0, "relojoeiro", 0)])
    assert rules.cost(st, 0, idx("automato-pesado")) == 4 and rules.cost(st, 1, idx("automato-pesado")) == 5


def test_card_lampiao_lunar() -> None:
    st = scene()
    put(st, 0, 0, "boneco-de-lata")
    put(st, 1, 0, "caranguejo-timido")
    play(st, [(0, "lampiao-lunar", 0)])
    assert stars(st, "boneco-de-lata") == 4 and stars(st, "caranguejo-timido") == 2
    assert stars(st, "lampiao-lunar") == 0


def test_card_automato_pesado() -> None:
    st = scene()
    play(st, [(0, "automato-pesado", 2)])
    assert stars(st, "automato-pesado") == 7


# ------------------------------------------------------------------------------------------- Locations
def at(first: str) -> tuple[str, str, str]:
    """The Location under test on the left, then two Locations that never touch Stars."""
    rest = [x for x in ("clareira-tranquila", "torre-de-vigia", "feira-noturna") if x != first]
    return (first, rest[0], rest[1])


def test_location_clareira_tranquila() -> None:
    st = scene(locations=at("clareira-tranquila"))
    play(st, [(0, "boneco-de-lata", 0), (1, "caranguejo-timido", 0)])
    assert total(st, 0, 0) == 3 and total(st, 0, 1) == 2


def test_location_bosque_antigo() -> None:
    st = scene(locations=at("bosque-antigo"))
    play(st, [(0, "boneco-de-lata", 0), (0, "sussurro", 0), (1, "caranguejo-timido", 0)])
    assert stars(st, "boneco-de-lata") == 4 and stars(st, "caranguejo-timido") == 3 and stars(st, "sussurro") == 0


def test_location_pantano_nebuloso() -> None:
    st = scene(locations=at("pantano-nebuloso"))
    play(st, [(0, "boneco-de-lata", 0), (1, "caranguejo-timido", 0), (1, "vulto", 1)])
    assert stars(st, "boneco-de-lata") == 2 and stars(st, "caranguejo-timido") == 1 and stars(st, "vulto") == 1


def test_location_forja_esquecida() -> None:
    st = scene(locations=at("forja-esquecida"))
    play(st, [(0, "boneco-de-lata", 0), (1, "caranguejo-timido", 0)])
    assert total(st, 0, 0) + total(st, 0, 1) == 3 + 2 + 1, "End of Turn: a random Being here +1★"


def test_location_torre_de_vigia() -> None:
    st = scene(turn=1, locations=("clareira-tranquila", "torre-de-vigia", "altar-da-lua"))
    st.draw[0] += [idx("vulto"), idx("fagulha")]
    st.draw[1] += [idx("vulto"), idx("fagulha")]
    play(st, [])
    assert st.turn == 2 and st.hand == [[idx("fagulha"), idx("vulto")]] * 2, "the turn's draw, then the tower's"


def test_location_ninho_estrelado() -> None:
    st = scene(locations=at("ninho-estrelado"))
    put(st, 1, 0, "automato-pesado")
    play(st, [(0, "boneco-de-lata", 0), (0, "caranguejo-timido", 1)])
    assert stars(st, "boneco-de-lata") == 4 and stars(st, "caranguejo-timido") == 2
    assert stars(st, "automato-pesado") == 7, "only cards revealed here"


def test_location_fenda_faminta() -> None:
    st = scene(locations=at("fenda-faminta"))
    play(st, [(0, "boneco-de-lata", 0), (1, "caranguejo-timido", 1)])
    assert stars(st, "boneco-de-lata") == 2 and stars(st, "caranguejo-timido") == 2


def test_location_feira_noturna() -> None:
    st = scene(turn=1, locations=("clareira-tranquila", "feira-noturna", "altar-da-lua"))
    st.hand[0].append(idx("automato-pesado"))
    st.hand[1].append(idx("vulto"))
    play(st, [])
    assert rules.cost(st, 0, idx("automato-pesado")) == 4 and rules.cost(st, 1, idx("vulto")) == 0


def test_location_ruinas_caidas() -> None:
    st = scene(turn=3, locations=("clareira-tranquila", "altar-da-lua", "ruinas-caidas"))
    assert ids(st, 2, 0) == ["pedra"] and ids(st, 2, 1) == ["pedra"] and total(st, 2, 0) == 2


def test_location_caverna_funda() -> None:
    st = scene(turn=6, locations=at("caverna-funda"))
    put(st, 0, 0, "vulto", perm=-1)
    put(st, 1, 0, "caranguejo-timido", perm=-1)
    put(st, 1, 0, "boneco-de-lata")
    play(st, [])
    assert st.over and ids(st, 0, 0) == [] and ids(st, 0, 1) == ["boneco-de-lata"]


def test_location_cratera_fumegante() -> None:
    st = scene(turn=3, locations=at("cratera-fumegante"))
    play(st, [(0, "boneco-de-lata", 0), (1, "caranguejo-timido", 0)])
    assert ids(st, 0, 1) == ["caranguejo-timido"], "not before turn 4"
    play(st, [])
    assert ids(st, 0, 1) == [] and ids(st, 0, 0) == ["boneco-de-lata"]


def test_location_portal_inquieto() -> None:
    st = scene(locations=at("portal-inquieto"))
    play(st, [(0, "boneco-de-lata", 0)])
    assert unit(st, "boneco-de-lata").loc in (1, 2)


def test_location_altar_da_lua() -> None:
    st = scene(turn=1, locations=("altar-da-lua", "clareira-tranquila", "torre-de-vigia"))
    assert st.moon_total == [1, 1] and st.moon_bonus == [1, 1]
    play(st, [])
    assert st.moon_total == [3, 3]


# ------------------------------------------------------------------------------------------- coverage
def test_every_card_and_location_has_a_scenario() -> None:
    names = set(dir(sys.modules[__name__]))
    missing = [f"test_card_{c.id.replace('-', '_')}" for c in CARDSET.cards
               if f"test_card_{c.id.replace('-', '_')}" not in names]
    missing += [f"test_location_{x.id.replace('-', '_')}" for x in CARDSET.locations
                if f"test_location_{x.id.replace('-', '_')}" not in names]
    assert not missing, f"cards or Locations without a scenario test: {', '.join(missing)}"


def test_most_cards_have_an_ability_and_text_in_both_languages() -> None:
    with_ability = [c for c in CARDSET.cards if c.ability is not None]
    assert len(CARDSET.cards) >= 48 and len(CARDSET.locations) >= 12 and len(with_ability) >= 0.8 * len(CARDSET.cards)
    for c in with_ability:
        pt, en = ability_text(c.ability, CARDSET, "pt-BR"), ability_text(c.ability, CARDSET, "en")
        assert pt and en and pt != en, c.id
    assert G.name == "guimenon"
