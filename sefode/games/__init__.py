"""The built-in games. Each lives in its own package, implements ``sefode.engine.Game`` and is declared under the
``sefode.games`` entry-point group in ``pyproject.toml``, the way a game in its own distribution is."""
