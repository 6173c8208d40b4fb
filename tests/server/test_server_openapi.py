"""The HTTP API's OpenAPI document: served at ``/api/openapi.json``, kept in ``docs/openapi.json``, covering every
API route with a type for every JSON answer, and schemathesis finds no 5xx against the real server with it and no
answer that its schema refuses (a few examples per operation)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import response_schema_conformance
from server_helpers import LOOSE, LiveServer, running_server
from starlette.routing import Route

from sefode.server.limits import Limits
from sefode.server.openapi import DOC, Op, dumps, operations, spec

SCHEMA = schemathesis.openapi.from_dict(spec())


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, str]]:
    path = tmp_path_factory.mktemp("openapi") / "db.sqlite3"
    limits = Limits(**{**LOOSE.__dict__, "open_rooms_per_player": 2})
    with running_server(f"sqlite:///{path}", limits=limits) as srv:
        yield srv, srv.player("Schema").token


def test_the_served_document_is_the_one_in_docs(live: tuple[LiveServer, str]) -> None:
    srv, _ = live
    served = srv.http.get("/api/openapi.json")
    assert served.status_code == 200
    assert served.json() == json.loads(DOC.read_text(encoding="utf-8"))
    assert DOC.read_text(encoding="utf-8") == dumps(), "run: python -m sefode.server.openapi"


def test_every_api_route_is_in_the_document(live: tuple[LiveServer, str]) -> None:
    srv, _ = live
    documented = {(path, method.upper()) for path, ops in spec()["paths"].items() for method in ops}
    for route in srv.app.routes:
        if not isinstance(route, Route) or not route.path.startswith("/api/") or "{rest:path}" in route.path:
            continue
        for method in sorted((route.methods or set()) - {"HEAD"}):
            assert (route.path, method) in documented, (route.path, method)


@SCHEMA.parametrize()
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
def test_schemathesis_finds_no_server_error(case: schemathesis.Case[Any], live: tuple[LiveServer, str]) -> None:
    srv, token = live
    if case.path in ("/api/account/logout", "/api/account/logout-all", "/api/account/delete"):
        token = srv.player("Leaving").token  # these may end the session: never the shared one
    response = case.call(base_url=srv.url, headers={"authorization": f"Bearer {token}"})
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
    case.validate_response(response, checks=[response_schema_conformance])  # the answer is what its type says
    if response.status_code >= 400 and "json" in response.headers.get("content-type", ""):
        error = response.json()["error"]
        assert isinstance(error["code"], str) and isinstance(error["message"], str)


def untyped(ops: dict[str, dict[str, Op]]) -> list[str]:
    """The JSON operations whose answer has no type (``Op.returns``)."""
    return [
        f"{method.upper()} {path}"
        for path, methods in ops.items()
        for method, op in methods.items()
        if op.media == "application/json" and op.returns is None
    ]


def test_every_json_operation_says_the_type_of_its_answer() -> None:
    ops = operations()
    assert sum(len(methods) for methods in ops.values()) >= 60
    assert untyped(ops) == []
    loose = {"/api/x": {"get": Op("x", "x")}, "/api/qr": {"get": Op("qr", "qr", returns=str, media="image/svg+xml")}}
    assert untyped(loose) == ["GET /api/x"]  # the check finds an operation without one


def test_every_answer_type_refuses_a_key_it_does_not_know() -> None:
    """An answer whose data has drifted from its type fails, rather than being sent unlike its document."""
    from sefode.accounts.bodies import BlockStatus
    from sefode.wire import answer_of

    assert answer_of({"player_id": "p", "blocked": True}, BlockStatus) == BlockStatus(player_id="p", blocked=True)
    with pytest.raises(msgspec.ValidationError):
        answer_of({"player_id": "p", "blocked": True, "since": 1}, BlockStatus)
    with pytest.raises(msgspec.ValidationError):
        answer_of({"player_id": "p"}, BlockStatus)


def test_docs_openapi_is_valid_json_in_the_repository() -> None:
    assert Path(DOC).is_file() and json.loads(DOC.read_text(encoding="utf-8"))["openapi"].startswith("3.")
