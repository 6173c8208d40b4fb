"""Accounts, awarding medals and trophies, and their JSON API (issue 5). The pure rules are in ``sefode.awards``.

The server needs three calls:

* ``sefode.accounts.awarding.record_match_end(store.engine, match_id)`` when a match ends;
* ``sefode.accounts.awarding.recover(store.engine)`` at start-up, after migrating;
* ``sefode.accounts.routes.routes()``: the HTTP routes to mount.
"""
