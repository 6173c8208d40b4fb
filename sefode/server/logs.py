"""Structured logs: one JSON object per line on the ``sefode`` logger."""

from __future__ import annotations

import json
import logging
import sys
import time
import traceback
from typing import Any

logger = logging.getLogger("sefode")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "event": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            out["cause"] = f"{type(exc).__name__}: {exc}"
            out["traceback"] = "".join(traceback.format_exception(exc)).strip().splitlines()[-6:]
        return json.dumps(out, ensure_ascii=False, default=str)


def setup_logging(level: int = logging.INFO) -> None:
    """Send the ``sefode`` logger to stderr as JSON lines (idempotent)."""
    if any(getattr(h, "_sefode", False) for h in logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler._sefode = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False


def event(name: str, **fields: Any) -> None:
    """Log a room, match or connection event."""
    if logger.isEnabledFor(logging.INFO):
        logger.info(name, extra={"fields": fields})


def warning(name: str, **fields: Any) -> None:
    logger.warning(name, extra={"fields": fields})


def error(name: str, exc: BaseException | None = None, **fields: Any) -> None:
    """Log an error with its cause (the exception, if any)."""
    if exc is not None:
        fields.setdefault("cause", f"{type(exc).__name__}: {exc}")
        logger.error(name, exc_info=exc, extra={"fields": fields})
    else:
        logger.error(name, extra={"fields": fields})


def now_ms() -> int:
    return int(time.time() * 1000)
