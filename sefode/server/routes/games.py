"""The game catalogue: every registered game's spec, and the resources its package brings along.

A game's package (``GameSpec.package``) holds its rules pages (``rules/<page>.<lang>.md``), its catalogues
(``i18n/<lang>.json``) and, optionally, its browser module (``client/``). They are served from the package itself,
so a game installed as its own distribution needs no file in this project. Nothing here names a game.
"""

from __future__ import annotations

import mimetypes
import re
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from sefode import text
from sefode.engine import Capability, EngineError, Game, games, get_game
from sefode.server.bodies import Deleted, GameInfo, Games, Kept, KeptItem, KeptItems, KeptValue
from sefode.server.messages import ClientError
from sefode.server.routes.common import api, body, error, hub_of, me, send, typed
from sefode.wire import answer_of

LANGUAGES = ("pt-BR", "en")
DEFAULT_LANGUAGE = "pt-BR"
_SEGMENT = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")
_PAGE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_DATA_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
DATA_KEYS_MOST = 50
"""How many keys (saved decks) a player may keep per game."""
_ALIGN = re.compile(r"text-align:(left|right|center)")


def _align_classes(state: StateCore) -> None:
    """A table column's alignment as a class (``align-right``), never an inline ``style``: the page's
    Content-Security-Policy refuses inline styles, and the browser would report each one."""
    for token in state.tokens:
        if token.type in ("th_open", "td_open") and "style" in token.attrs:
            found = _ALIGN.fullmatch(str(token.attrs.pop("style")))
            if found:
                token.attrSet("class", f"align-{found.group(1)}")


_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
_MARKDOWN.core.ruler.push("align_classes", _align_classes)
"""Rules pages are rendered on the server by markdown-it-py; raw HTML in a page is escaped, never passed through."""


def render_markdown(text: str) -> str:
    """A rules page as an HTML fragment (raw HTML escaped; a column's alignment as a class, no inline style).

    >>> render_markdown("# Regras\\n\\n<script>x</script> *já*")
    '<h1>Regras</h1>\\n<p>&lt;script&gt;x&lt;/script&gt; <em>já</em></p>\\n'
    >>> html = render_markdown("| a | b |\\n| :-: | --: |\\n| 1 | 2 |")
    >>> "style" in html, html.count("align-right"), html.count("align-center")
    (False, 2, 2)
    """
    return str(_MARKDOWN.render(text))


def package_dir(game: Game[Any], folder: str) -> Traversable | None:
    """``folder`` of the game's package, or None when the package has none."""
    try:
        base = resources.files(game.spec.package) / folder
    except (ModuleNotFoundError, TypeError):
        return None
    return base if base.is_dir() else None


def _resource(game: Game[Any], folder: str, path: str) -> Traversable | None:
    base = package_dir(game, folder)
    if base is None:
        return None
    parts = path.split("/")
    if not parts or any(not _SEGMENT.match(p) or p.startswith("..") for p in parts):
        return None
    target = base
    for part in parts:
        target = target / part
    return target if target.is_file() else None


def rules_page(page: str, lang: str) -> str | None:
    """The Markdown of a rules page in ``lang`` (falling back to pt-BR), from the game that declares it."""
    if not _PAGE.match(page):
        return None
    for game in games():
        if page not in game.spec.rules_pages():
            continue
        for language in dict.fromkeys((lang, DEFAULT_LANGUAGE, *LANGUAGES)):
            found = _resource(game, "rules", f"{page}.{language}.md")
            if found is not None:
                return found.read_text(encoding="utf-8")
    return None


def game_json(game: Game[Any]) -> GameInfo:
    name = game.name
    client = _resource(game, "client", "index.js")
    catalogues = {
        lang: f"/games/{name}/i18n/{lang}.json" for lang in LANGUAGES if _resource(game, "i18n", f"{lang}.json")
    }
    return answer_of(
        {
            **game.spec.to_json(),
            "client": f"/games/{name}/client/index.js" if client is not None else None,
            "i18n": catalogues or None,
        },
        GameInfo,
    )


async def list_games(request: Request) -> Response:
    return send(Games(games=[game_json(g) for g in games()]))


def _game(request: Request) -> Game[Any]:
    try:
        return get_game(request.path_params["name"])
    except EngineError:
        raise ClientError("game/unknown", "there is no such game") from None


async def client_file(request: Request) -> Response:
    try:
        game = _game(request)
    except ClientError:
        return PlainTextResponse("not found", status_code=404)
    found = _resource(game, "client", request.path_params["path"])
    if found is None:
        return PlainTextResponse("not found", status_code=404)
    media = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
    if found.name.endswith(".js"):
        media = "text/javascript"
    return Response(found.read_bytes(), media_type=media, headers={"cache-control": "no-cache"})


async def catalogue(request: Request) -> Response:
    try:
        game = _game(request)
    except ClientError:
        return error(404, "game/unknown", "there is no such game")
    lang = request.path_params["lang"]
    found = _resource(game, "i18n", f"{lang}.json") if lang in LANGUAGES else None
    if found is None:
        return error(404, "i18n/not_found", "this game has no catalogue in that language")
    return Response(found.read_bytes(), media_type="application/json", headers={"cache-control": "no-cache"})


@api
async def rules(request: Request) -> Response:
    page = request.path_params["page"]
    lang = request.query_params.get("lang", DEFAULT_LANGUAGE)
    text = rules_page(page, lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    if text is None:
        raise ClientError("rules/not_found", f"there is no rules page for {page[:64]!r}")
    if request.query_params.get("format") == "html":
        return HTMLResponse(render_markdown(text), headers={"cache-control": "no-cache"})
    return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")


def _data_game(request: Request) -> Game[Any]:
    game = _game(request)
    if Capability.PLAYER_DATA not in game.spec.capabilities:
        raise ClientError("data/not_offered", "this game keeps no player data")
    return game


def _data_key(request: Request) -> str:
    key = request.path_params["key"]
    if not _DATA_KEY.match(key):
        raise ClientError("message/invalid", "a key is 1 to 40 characters: lower-case letters, digits, - and _")
    return str(key)


@api
async def list_player_data(request: Request) -> Response:
    """What the caller keeps of a game (saved decks): ``{"items": [{"key", "value", "updated_at"}]}``."""
    player_id, _ = await me(request)
    game = _data_game(request)
    hub = hub_of(request)
    items = await hub.db(hub.store.player_data, player_id, game.name)
    return send(KeptItems(items=[KeptItem(key=k, value=v, updated_at=at) for k, v, at in items]))


@api
async def put_player_data(request: Request) -> Response:
    """Keep ``{"value": ...}`` under a key, as the game checks it (``Game.check_player_data``)."""
    player_id, _ = await me(request)
    game = _data_game(request)
    key = _data_key(request)
    data = await body(request)
    if set(data) != {"value"}:
        raise ClientError("message/invalid", 'the body is {"value": ...}')
    kept = typed(data, KeptValue).value
    try:
        # The one text rule (sefode.text) for every string kept, whichever game keeps it: a deck's name too.
        value = game.check_player_data(key, text.kept_strings(kept, "value"))
    except text.TextError as err:
        raise ClientError(err.code, err.message) from None
    except EngineError as err:
        raise ClientError(err.code, str(err)) from None
    hub = hub_of(request)
    if not await hub.db(hub.store.put_player_data, player_id, game.name, key, value, DATA_KEYS_MOST):
        raise ClientError("data/full", f"a player keeps at most {DATA_KEYS_MOST} items of a game; delete one first")
    return send(Kept(key=key, value=value))


@api
async def delete_player_data(request: Request) -> Response:
    player_id, _ = await me(request)
    game = _data_game(request)
    key = _data_key(request)
    hub = hub_of(request)
    if not await hub.db(hub.store.delete_player_data, player_id, game.name, key):
        raise ClientError("data/not_found", "there is nothing kept under that key")
    return send(Deleted(deleted=key))


def routes() -> list[Route]:
    return [
        Route("/api/games", list_games),
        Route("/api/me/games/{name}/data", list_player_data),
        Route("/api/me/games/{name}/data/{key}", put_player_data, methods=["PUT"]),
        Route("/api/me/games/{name}/data/{key}", delete_player_data, methods=["DELETE"]),
        Route("/api/rules/{page}", rules),
        Route("/games/{name}/client/{path:path}", client_file),
        Route("/games/{name}/i18n/{lang}.json", catalogue),
    ]
