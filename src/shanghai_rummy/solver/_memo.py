"""The solver's remembered answers: bounded dictionaries, each of a named kind, owned by the
compiled rules of one variant (:class:`._variant_rules.VariantRules`), so that clearing the
compiled rules clears them all (:func:`shanghai_rummy.solver.clear_caches`).

A memo only ever answers a question the solver would answer the same way again: no memo
decides which checks run. Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar, cast

Key = TypeVar("Key")
Value = TypeVar("Value")
Owner = TypeVar("Owner")
Maker = TypeVar("Maker")
Built = TypeVar("Built")


class Memo(dict[Key, Value]):
    """A dictionary of at most ``size`` entries: full, it is emptied before the next new key
    goes in (the hands a game asks about change a card at a time, so the entries that count
    are made again at once). Reads are a dictionary's; every write goes through
    ``memo[key] = value``."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: Key, value: Value) -> None:
        if len(self) >= self.size and key not in self:
            self.clear()
        super().__setitem__(key, value)


class MemoKind(Generic[Key, Value]):
    """A kind of memo (what it remembers, and at most how many entries), declared once by the
    module that reads it; :meth:`Memos.of` gives one variant's memo of the kind."""

    __slots__ = ("name", "size")

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size

    def __repr__(self) -> str:
        return f"MemoKind({self.name!r}, {self.size})"


class Memos:
    """The memos of one variant's compiled rules, one of each kind, made when first asked."""

    __slots__ = ("_by_kind",)

    def __init__(self) -> None:
        self._by_kind: dict[object, Memo[object, object]] = {}

    def of(self, kind: MemoKind[Key, Value]) -> Memo[Key, Value]:
        """The memo of ``kind``."""
        memo = self._by_kind.get(kind)
        if memo is None:
            memo = self._by_kind[kind] = Memo(kind.size)
        return cast("Memo[Key, Value]", memo)

    def built_for(
        self,
        kind: MemoKind[int, tuple[Owner, Built]],
        owner: Owner,
        build: Callable[[Maker, Owner], Built],
        maker: Maker,
    ) -> Built:
        """``build(maker, owner)``, remembered in the memo of ``kind`` by ``owner``'s
        identity (and kept with it, so a new object at a reused address is built anew):
        for values such as a contract, whose hash costs more than the lookup saves."""
        memo = self.of(kind)
        known = memo.get(id(owner))
        if known is not None and known[0] is owner:
            return known[1]
        built = build(maker, owner)
        memo[id(owner)] = (owner, built)
        return built

    def clear(self) -> None:
        """Forget every answer."""
        self._by_kind.clear()

    def sizes(self) -> dict[str, int]:
        """How many entries each memo holds, by its kind's name (for tests and tuning)."""
        return {
            cast("MemoKind[object, object]", kind).name: len(memo)
            for kind, memo in self._by_kind.items()
        }
