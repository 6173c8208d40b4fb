"""The login limit in memory, taken before any work (docs/security.md, "Limits").

Every attempt counts, whether its username can exist or not: one that cannot (``"bad name!"``) counts against that
name and against the client like any other. An attempt is counted when it *starts* (``enter``, on the event loop,
with no await between the check and the count), and counts as a failure until it ends, so that 50 concurrent wrong
passwords for one username get exactly ``MAX_FAILURES_PER_USERNAME`` password checks, not as many as happen to start
before the first failure is written. The store's ``login_failures`` keep the same count across restarts
(``service.login_attempt`` reads them).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum

from sefode.accounts import service
from sefode.accounts.service import AccountError
from sefode.server.limits import Attempts


class Outcome(Enum):
    FAILED = "failed"
    """A wrong username or password, or a refused body: it counts."""
    OK = "ok"
    """The right password: the username's failures from this client are forgotten."""
    VOID = "void"
    """No password was checked (the server was busy, the store refused): it does not count."""


@dataclass(frozen=True, slots=True)
class Ticket:
    user: str
    client: str


class LoginGate:
    def __init__(self) -> None:
        window_s = service.LOGIN_WINDOW_MS / 1000
        self.users = Attempts(service.MAX_FAILURES_PER_USERNAME, window_s)
        self.clients = Attempts(service.MAX_FAILURES_PER_CLIENT, window_s)

    def enter(self, username: object, client: str) -> Ticket:
        """Count the attempt, or refuse it (``auth/rate_limited``, 429) before it does any work."""
        name = username if isinstance(username, str) else "\x00not-a-string"
        ticket = Ticket(user=client[:100] + "|" + service.username_key(name[:64]), client=client[:150])
        now = time.monotonic()
        if self.users.full(ticket.user, now) or self.clients.full(ticket.client, now):
            raise AccountError("auth/rate_limited", "too many failed logins; wait a few minutes and try again", 429)
        self.users.enter(ticket.user)
        self.clients.enter(ticket.client)
        return ticket

    def leave(self, ticket: Ticket, outcome: Outcome) -> None:
        now = time.monotonic()
        failed = outcome is Outcome.FAILED
        self.users.leave(ticket.user, failed, now)
        self.clients.leave(ticket.client, failed, now)
        if outcome is Outcome.OK:
            self.users.clear(ticket.user)
