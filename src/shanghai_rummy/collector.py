"""The cyclic garbage collector held off while a listing builds what it returns.

The listing of going down of a huge hand builds tens of thousands of objects (groups,
candidates, shapes, actions) that all live until the call returns: none of them is garbage,
so every pass the collector makes over them during the call is lost work, a fifth of the
largest listing the limits allow. :class:`CollectorPaused` turns automatic collection off
for the length of a ``with`` block and back on after it, only where it was on: a program
that turned it off itself keeps it off. Nothing is lost: the objects allocated meanwhile are
still counted, so the collector's next pass, after the block, looks at them once.

The switch is the interpreter's, shared by every thread: while a listing runs, other threads
of the process are not collected either (for the tens of milliseconds it takes, at most).

>>> import gc
>>> with CollectorPaused():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""

from __future__ import annotations

import gc
from types import TracebackType

__all__ = ["CollectorPaused"]


class CollectorPaused:
    """A context manager: automatic garbage collection off inside, restored after (also
    when the block raises). Nested blocks leave it to the outermost."""

    __slots__ = ("was_enabled",)

    def __init__(self) -> None:
        self.was_enabled = False

    def __enter__(self) -> None:
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.was_enabled:
            gc.enable()
