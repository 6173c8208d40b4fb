"""Accounts, awarding medals and trophies, and their JSON API (issue 5). The pure rules are in ``sefode.awards``.

The server needs three calls:

* ``sefode.accounts.awarding.record_match_end(store.engine, match_id)`` when a match ends;
* ``sefode.accounts.awarding.recover(store.engine)`` at start-up, after migrating;
* ``sefode.accounts.routes.routes()``: the HTTP routes to mount.

Importing any part of this package registers the account sessions with the store
(``sefode.store.db.register_session_resolver``): the store never imports accounts.
"""

from sefode.accounts import bots as _bots  # noqa: F401  (registers the bot tokens' resolver)
from sefode.accounts import service as _service  # noqa: F401  (registers the session resolver)
