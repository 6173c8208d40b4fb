"""Browser protections, as one ASGI middleware (docs/security.md, "Headers and origins").

- Every HTTP answer carries a Content-Security-Policy (scripts, styles and connections from this origin only, no
  framing), ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin`` and
  ``Cross-Origin-Opener-Policy: same-origin``; over HTTPS also ``Strict-Transport-Security``.
- A state-changing request (POST, PUT, PATCH, DELETE) and a WebSocket handshake are refused when the browser says
  they come from another origin (``Origin`` not this server's own, or ``Sec-Fetch-Site: cross-site``): a page
  elsewhere cannot use a visitor's cookie. Requests without ``Origin`` (scripts, bots, ``curl``) are not browsers
  acting for someone and pass.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
ORIGIN_REFUSED = 4403
"""WebSocket close code of a handshake from another origin."""


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL, lower-cased, default ports dropped; None when it has no host."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.hostname:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        return None
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(scheme)
    return f"{scheme}://{host}" if port is None or port == default else f"{scheme}://{host}:{port}"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class Security:
    """The middleware. ``public_url`` is where browsers reach the server (``sefode serve --public-url``)."""

    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        self.app = app
        self.public_origin = origin_of(public_url) if public_url else None
        self.https = bool(self.public_origin and self.public_origin.startswith("https://"))

    def allowed_origin(self, scope: Scope) -> bool:
        origin = _header(scope, b"origin")
        site = _header(scope, b"sec-fetch-site")
        if origin is None:
            return site != "cross-site"
        own: set[str] = set()
        host = _header(scope, b"host")
        if host:
            scheme = scope.get("scheme", "http")
            http_scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
            for candidate in (http_scheme, "https" if http_scheme == "http" else "http"):
                found = origin_of(f"{candidate}://{host}")
                if found:
                    own.add(found)
        if self.public_origin:
            own.add(self.public_origin)
        return origin_of(origin) in own

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not self.allowed_origin(scope):
                await send({"type": "websocket.close", "code": ORIGIN_REFUSED, "reason": "cross-origin"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = self.https or scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in HEADERS if k not in present]
                if secure:
                    headers.append(HSTS)
                message = {**message, "headers": headers}
            await send(message)

        if scope.get("method") in UNSAFE and not self.allowed_origin(scope):
            body = json.dumps(
                {"error": {"code": "auth/bad_origin", "message": "this request comes from another site's page"}}
            ).encode()
            await send_with_headers(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send_with_headers)
