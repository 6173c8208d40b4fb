"""The game server: HTTP API, WebSocket protocol (docs/protocol.md), rooms, lobby, clocks and bots."""

PROTOCOL = 5
