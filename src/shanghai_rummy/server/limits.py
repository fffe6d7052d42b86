"""Limits that keep one client from taking a server's time: a token bucket per connection.

>>> bucket = RateLimit(per_second=2.0, burst=2, clock=iter([0.0, 0.0, 0.0, 1.0]).__next__)
>>> [bucket.allow() for _ in range(4)]
[True, True, False, True]
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["RateLimit"]


class RateLimit:
    """At most ``burst`` messages at once, refilled at ``per_second``."""

    def __init__(
        self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last: float | None = None

    def allow(self) -> bool:
        """Take a token if there is one: True when the message may be handled."""
        now = self._clock()
        if self._last is not None:
            self._tokens = min(
                float(self.burst), self._tokens + (now - self._last) * self.per_second
            )
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
