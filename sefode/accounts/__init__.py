"""Identity: accounts, passwords, sessions, bot accounts, friends and moderation (issue 5), and what a profile reads
of the awards (``queries``, ``progress``). Medals, trophies, tournaments and ratings, their rules and their storage,
are ``sefode.awards``, below this package; their JSON API is the server's (``sefode.server.routes.accounts``,
``sefode.server.routes.moderation``), above both. This package imports nothing of the server.

The server needs two calls of the awards:

* ``sefode.awards.recording.record_match_end(store.engine, match_id)`` when a match ends;
* ``sefode.awards.recording.recover(store.engine)`` at start-up, after migrating.

Importing any part of this package registers the account sessions with the store
(``sefode.store.db.register_session_resolver``): the store never imports accounts.
"""

from sefode.accounts import bots as _bots  # noqa: F401  (registers the bot tokens' resolver)
from sefode.accounts import service as _service  # noqa: F401  (registers the session resolver)
