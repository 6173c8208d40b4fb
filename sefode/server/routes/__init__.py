"""The server's routes, one module per area; ``sefode.server.app.create_app`` assembles them.

Handlers are module-level functions that reach the server through ``request.app.state`` (``hub``,
``static_dir``); the shared helpers (the ``api`` wrapper, ``me``, body reading, errors) are in ``common``.
"""
