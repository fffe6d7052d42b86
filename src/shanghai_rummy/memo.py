"""Bounded memos: the one kind of cache the library keeps outside the solver.

A memo remembers answers of a pure function (the same arguments always give the same
answer), so it only ever saves time: no memo decides which code runs or what a function
returns. Each is bounded in size (a server sees thousands of variants and tables), and
every memo made is listed in :data:`MEMOS`, so that
:func:`shanghai_rummy.caches.clear_caches` empties them all at once.

When a memo is full it starts again empty: the cheapest bound, and a memo refills in a few
calls. Values the library makes once and never changes (the 53 cards, the shared actions of
each seat, the usual turn starts) are tables built at import, not memos.

>>> memo = Memo("squares", size=2)
>>> memo.get(3) is None
True
>>> memo.put(3, 9)
9
>>> memo.get(3), len(memo)
(9, 1)
>>> memo.clear()
>>> len(memo)
0
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

__all__ = ["MEMOS", "IdentityMemo", "Memo"]

_K = TypeVar("_K")
_V = TypeVar("_V")


class _Bounded(Generic[_K, _V]):
    """A dictionary of at most ``size`` entries, listed in :data:`MEMOS` when made."""

    __slots__ = ("_entries", "name", "size")

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._entries: dict[_K, _V] = {}
        MEMOS.append(self)

    def _keep(self, key: _K, entry: _V) -> None:
        entries = self._entries
        if len(entries) >= self.size:
            entries.clear()
        entries[key] = entry

    def clear(self) -> None:
        """Forget every answer (and whatever was kept with them)."""
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}: {len(self._entries)} of {self.size}>"


class Memo(_Bounded[_K, _V]):
    """At most ``size`` answers, keyed by a hashable value of what they depend on."""

    __slots__ = ()

    def get(self, key: _K) -> _V | None:
        """The answer kept for ``key``, or None."""
        return self._entries.get(key)

    def put(self, key: _K, value: _V) -> _V:
        """Keep ``value`` for ``key`` (emptying the memo first if it is full); ``value``."""
        self._keep(key, value)
        return value


class IdentityMemo(_Bounded[tuple[int, int], tuple[object, object, _V]]):
    """At most ``size`` answers about one object (in the context of another, such as the
    variant a meld is read under), keyed by the identity of both: for frozen values that are
    costly to hash and are passed from state to state unchanged (a table meld, a variant).
    The memo keeps the objects themselves, so an id is never mistaken for a later object's.
    """

    __slots__ = ()

    def get(self, subject: object, context: object = None) -> _V | None:
        """The answer kept for this very ``subject`` and ``context``, or None."""
        entry = self._entries.get((id(subject), id(context)))
        if entry is None or entry[0] is not subject or entry[1] is not context:
            return None
        return entry[2]

    def put(self, subject: object, context: object, value: _V) -> _V:
        """Keep ``value`` for ``subject`` and ``context`` (emptying the memo first if it is
        full); ``value``."""
        self._keep((id(subject), id(context)), (subject, context, value))
        return value


MEMOS: list[_Bounded[Any, Any]] = []
"""Every memo made, in the order made: what :func:`~shanghai_rummy.caches.clear_caches`
clears."""
