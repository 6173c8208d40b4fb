"""The cluster's messaging: one Redis pub/sub channel per node (``<prefix>node:<name>``) and one to every node
(``<prefix>all``).

A message is a batch ``{"from": node, "boot": incarnation, "e": [envelope, …]}``; each envelope's ``"k"`` says what
it is (docs/cluster.md). Envelopes for one node queued in one turn of the event loop go out in one ``PUBLISH``.
The bus knows nothing of what the envelopes mean: it hands every batch to ``deliver``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as aioredis

from sefode.server import logs
from sefode.server.cluster.scripts import text

Deliver = Callable[[str, str, list[dict[str, Any]]], Awaitable[None]]
"""What receives a batch: ``(sender, sender's incarnation, envelopes)``."""


class Bus:
    def __init__(self, redis: aioredis.Redis, node: str, prefix: str, boot: str) -> None:
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.boot = boot
        """This process's incarnation, sent with every batch (see ``Cluster.boot``)."""
        self.outbox: dict[str, list[dict[str, Any]]] = {}
        self._flush_armed = False
        self._pubsub: Any = None

    async def subscribe(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(f"{self.prefix}node:{self.node}", f"{self.prefix}all")

    async def close(self) -> None:
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()

    def post(self, node: str, envelope: dict[str, Any]) -> None:
        """Queue ``envelope`` for ``node``; everything queued in this turn of the loop goes in one PUBLISH."""
        self.outbox.setdefault(node, []).append(envelope)
        if not self._flush_armed:
            self._flush_armed = True
            asyncio.get_running_loop().call_soon(self._flush_soon)

    def _flush_soon(self) -> None:
        self._flush_armed = False
        asyncio.get_running_loop().create_task(self._flush_async())

    def flush(self) -> None:
        """Send what is queued now (not at the end of this turn of the loop)."""
        self._flush_armed = False
        if self.outbox:
            asyncio.get_running_loop().create_task(self._flush_async())

    async def _flush_async(self) -> None:
        batch, self.outbox = self.outbox, {}
        for node, envelopes in batch.items():
            try:
                await self.redis.publish(
                    f"{self.prefix}node:{node}", orjson.dumps({"from": self.node, "boot": self.boot, "e": envelopes})
                )
            except Exception as err:
                logs.error("cluster.publish_failed", err, node=node)

    async def tell_all(self, envelope: dict[str, Any]) -> None:
        """Publish ``envelope`` to every other node at once (what each process keeps of the store, e.g. blocks)."""
        try:
            await self.redis.publish(
                f"{self.prefix}all", orjson.dumps({"from": self.node, "boot": self.boot, "e": [envelope]})
            )
        except Exception as err:
            logs.error("cluster.publish_failed", err, node="all")

    async def listen(self, deliver: Deliver) -> None:
        """Hand every batch that arrives to ``deliver``, for ever (our own word to every node excepted: it was
        applied here when it was said)."""
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                logs.error("cluster.listen_failed", err, node=self.node)
                await asyncio.sleep(0.2)
                continue
            if message is None:
                continue
            try:
                data = orjson.loads(message["data"])
                sender, boot = data["from"], data.get("boot", "")
                if sender == self.node and boot == self.boot and text(message["channel"]) == f"{self.prefix}all":
                    continue
                await deliver(sender, boot, data["e"])
            except asyncio.CancelledError:
                raise
            except Exception as err:
                logs.error("cluster.receive_failed", err, node=self.node)
