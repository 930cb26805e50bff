"""Functions the tests run inside a bot worker process.

They live in a module of their own, importable by its bare name (``tests`` is on
``pythonpath``), because a worker unpickles a function by its module's name and cannot import
a test file that pytest loaded as ``tests.test_…``.
"""

from __future__ import annotations


def policy_is_loaded() -> bool:
    """Whether this process has already read the policy that ``expert`` plays."""
    from truco.bots.policy import _cached

    return _cached.cache_info().currsize > 0
