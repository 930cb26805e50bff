"""Leases in Redis (issue 16): which node owns each live table, and its fencing token.

A table's lease is the key ``truco:lease:<table>``, set with ``SET NX PX`` to
``"<node> <address>"`` and renewed (``PEXPIRE``) by its owner every third of its time to live.
Each acquisition also takes a **fencing token**, ``INCR truco:fence:<table>``: it only grows,
so the newest owner holds the highest token, and PostgreSQL refuses a commit whose token is
below the table's (:meth:`truco.web.store.Store.take_fence`). A node that lost its lease (it
paused past the expiry, or Redis lost it) can therefore never commit, whatever it believes.
Every step is one Lua script, atomic in Redis.
"""

from __future__ import annotations

from typing import Any

ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return redis.call('INCR', KEYS[2])
end
return owner
"""
RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
RAISE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1])
end
return 1
"""
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def lease_key(table_id: str) -> str:
    return f"truco:lease:{table_id}"


def fence_key(table_id: str) -> str:
    return f"truco:fence:{table_id}"


class Elsewhere(Exception):
    """Another node owns the table: ``node`` at ``address`` (``http://host:port``)."""

    def __init__(self, table_id: str, node: str, address: str) -> None:
        super().__init__(f"table {table_id} is owned by node {node} at {address}")
        self.node = node
        self.address = address


class Leases:
    """One node's side of the leases: acquire, renew, release (all async, one Redis)."""

    def __init__(self, url: str, node: str, address: str, ttl_ms: int) -> None:
        import redis.asyncio as aioredis

        if " " in node:
            raise ValueError("a node id has no spaces")
        self.redis: Any = aioredis.from_url(url, socket_timeout=max(1.0, ttl_ms / 3000))
        self.node = node
        self.value = f"{node} {address}"
        self.ttl_ms = ttl_ms
        self._acquire = self.redis.register_script(ACQUIRE)
        self._renew = self.redis.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self._raise = self.redis.register_script(RAISE)

    async def acquire(self, table_id: str) -> int:
        """This node's fencing token for ``table_id``, now its owner; or :class:`Elsewhere`."""
        got = await self._acquire(
            keys=[lease_key(table_id), fence_key(table_id)], args=[self.value, self.ttl_ms]
        )
        if isinstance(got, int):
            return got
        text = got.decode() if isinstance(got, bytes) else str(got)
        node, _, address = text.partition(" ")
        raise Elsewhere(table_id, node, address)

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Renew these leases; returns the tables whose lease is no longer this node's."""
        lost: list[str] = []
        for start in range(0, len(table_ids), 500):
            chunk = table_ids[start : start + 500]
            got = await self._renew(
                keys=[lease_key(t) for t in chunk], args=[self.value, self.ttl_ms]
            )
            lost += [t for t, ok in zip(chunk, got, strict=True) if not ok]
        return lost

    async def raise_counter(self, table_id: str, at_least: int) -> None:
        """Make the table's next token above ``at_least`` (Redis lost its counter: the
        database's fence is higher)."""
        await self._raise(keys=[fence_key(table_id)], args=[at_least])

    async def release(self, table_id: str) -> None:
        await self._release(keys=[lease_key(table_id)], args=[self.value])

    async def owner(self, table_id: str) -> str | None:
        got = await self.redis.get(lease_key(table_id))
        return None if got is None else got.decode().partition(" ")[0]

    async def close(self) -> None:
        await self.redis.aclose()
