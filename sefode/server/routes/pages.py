"""The rules pages, the API's 404, the browser client's page and its static files."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sefode.server.routes.common import error, static_dir

PLACEHOLDER = (
    "<!doctype html><html lang='pt-BR'><head><meta charset='utf-8'><title>Se Fode</title></head>"
    "<body><h1>Se Fode</h1><p>O cliente ainda não está instalado.</p></body></html>"
)
PAGES = (
    "/",
    "/room/{room_id}",
    "/invite/{token}",
    "/rules",
    "/rules/{page}",
    "/leaderboard",
    "/mod",
    "/account",
    "/profile",
    "/players/{player_id}",
    "/replay/{match_id}",
)
"""The client's pages: each serves ``index.html``, the client routes from the path."""


async def api_not_found(request: Request) -> Response:
    if request.url.path.startswith("/api/rules/"):
        return error(404, "rules/not_found", "there is no such rules page")
    return error(404, "api/not_found", f"no API at {request.url.path}")


async def page(request: Request) -> Response:
    index = static_dir(request) / "index.html"
    if index.is_file():
        return FileResponse(index, media_type="text/html")
    return HTMLResponse(PLACEHOLDER)


GAME_PAGE = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
"""A game's own page in the client (``/games/{name}/{page}``: a deck builder): a plain name, never a file's."""


async def game_page(request: Request) -> Response:
    """A game's own page (its browser module's ``pages``) is the client's page; any other path under a game (a file
    name, ``/games/x/game.py``) is not found."""
    if GAME_PAGE.match(request.path_params["page"]) and GAME_PAGE.match(request.path_params["name"]):
        return await page(request)
    return await unknown_page(request)


async def unknown_page(request: Request) -> Response:
    """Any other path: the client's page with status 404, so it shows its "page not found" screen in the page's
    language with a link home (a plain-text "Not Found" helps nobody)."""
    index = static_dir(request) / "index.html"
    if index.is_file():
        return FileResponse(index, media_type="text/html", status_code=404)
    return HTMLResponse(PLACEHOLDER, status_code=404)


async def no_static(request: Request) -> Response:
    return PlainTextResponse("not found", status_code=404)


def api_routes() -> list[Route]:
    """The catch-all 404 of ``/api/`` (after every other API route)."""
    return [
        Route("/api/{rest:path}", api_not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
    ]


def page_routes(static: Path) -> list[Any]:
    """The client's pages and ``/static``."""
    routes: list[Any] = [Route(path, page) for path in PAGES]
    routes.append(Route("/games/{name}/{page}", game_page))
    if static.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=str(static)), name="static"))
    else:
        routes.append(Route("/static/{path:path}", no_static))
    routes.append(Route("/{path:path}", unknown_page))
    return routes
