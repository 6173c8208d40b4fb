"""``GET /api/openapi.json``: the HTTP API's OpenAPI document (``sefode.server.openapi``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sefode.server.openapi import spec


async def openapi(request: Request) -> Response:
    return JSONResponse(spec())


def routes() -> list[Route]:
    return [Route("/api/openapi.json", openapi)]
