"""A text notation for moves, for people and logs: ``format_action`` writes one, and
``parse_action`` reads one back for a given seat.

=====================================================  ======================================
notation                                               action
=====================================================  ======================================
``draw`` (or ``draw stock``)                           :class:`~shanghai_rummy.Draw` from the
                                                       stock
``take`` (or ``draw discard``, ``draw upcard``)        :class:`~shanghai_rummy.Draw` of the
                                                       upcard
``draw cut card`` (or ``take cut``)                    :class:`~shanghai_rummy.Draw` of the
                                                       cut card, where the variant has one
``buy`` / ``pass``                                     :class:`~shanghai_rummy.Buy` /
                                                       :class:`~shanghai_rummy.PassBuy`
``meld 8C 8D JK / JK 5H 6H 7H``                        :class:`~shanghai_rummy.Meld`: groups
                                                       separated by ``/``, a run in rank order;
``meld run JK JK 9C``                                  ``set`` or ``run`` before a group names
                                                       how it is read (``Meld.kinds``)
``layoff 9C 3`` (or ``layoff 9C #3 high``)             :class:`~shanghai_rummy.LayOff` of a
                                                       card on meld 3, at an end if needed
``swap 8H 1``                                          :class:`~shanghai_rummy.SwapJoker`
``discard KH``                                         :class:`~shanghai_rummy.Discard`
``out meld 8C 8D 8H layoff 9C 3, JK 2 discard KH``     :class:`~shanghai_rummy.GoOut`: any of
                                                       its parts, lay-offs separated by ``,``
=====================================================  ======================================

Words are case-insensitive and cards use the card codes of :meth:`~shanghai_rummy.Card.parse`
(``8C``, ``10H`` or ``TH``, ``AS``, ``JK`` or ``*``). ``lay off`` and ``go out`` may be written
as two words. Text that does not read as a move raises :class:`~shanghai_rummy.NotationError`
quoting it; whether the move is legal is for :func:`~shanghai_rummy.apply` to say.

>>> import shanghai_rummy as sr
>>> sr.parse_action("meld 8c 8d jk / 4S 5S 6S 7S", seat=2)
Meld(seat=2, groups=((Card.parse('8C'), Card.parse('8D'), Card.parse('JK')), (...)))
>>> sr.format_action(sr.parse_action("layoff 9C #3 high", seat=0))
'layoff 9C 3 high'
>>> sr.parse_action("discard 11H", seat=0)
Traceback (most recent call last):
...
shanghai_rummy.errors.NotationError: 'discard 11H': not a card: '11H' (expected a rank ...)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .actions import (
    Action,
    Buy,
    Discard,
    Draw,
    End,
    GoOut,
    LayOff,
    Meld,
    PassBuy,
    PlannedLayOff,
    Source,
    SwapJoker,
)
from .cards import Card
from .errors import NotationError
from .melds import MeldKind

__all__ = ["format_action", "parse_action"]

_TOKEN = re.compile(r"[/,]|[^\s/,]+")
_MELD_ID = re.compile(r"#?(-?\d{1,18})")  # no meld id comes near 18 digits
_ENDS: tuple[End, ...] = ("low", "high")
_SECTIONS = ("meld", "layoff", "discard")
_KINDS = {kind.value: kind for kind in MeldKind}

_SOURCES: dict[tuple[str, str], Source] = {
    ("draw", ""): Source.STOCK,
    ("draw", "stock"): Source.STOCK,
    ("draw", "upcard"): Source.DISCARD,
    ("take", ""): Source.DISCARD,
}
"""What ``draw``/``take`` and the words after them mean; every other source is written
``draw`` and its value with spaces (``draw discard``, ``draw cut card``)."""
for _source in Source:
    _SOURCES["draw", _source.value.replace("_", " ")] = _source
    _SOURCES["draw", _source.value] = _source
    if _source not in (Source.STOCK, Source.DISCARD):
        _SOURCES["take", _source.value.replace("_", " ")] = _source
        _SOURCES["take", _source.value.split("_")[0]] = _source

_FORMS = {
    "draw": "'draw' (or 'draw stock'), 'draw discard'"
    + "".join(
        f", 'draw {source.value.replace('_', ' ')}'"
        for source in Source
        if source not in (Source.STOCK, Source.DISCARD)
    ),
    "take": "'take' (the upcard)",
    "buy": "'buy'",
    "pass": "'pass'",
    "meld": "'meld [set|run] CARDS / [set|run] CARDS ...', such as 'meld 8C 8D JK / 4S 5S 6S 7S'",
    "layoff": "'layoff CARD MELD [low|high]', such as 'layoff 9C 3'",
    "swap": "'swap CARD MELD', such as 'swap 8H 1'",
    "discard": "'discard CARD', such as 'discard KH'",
    "out": "'out [meld CARDS / ...] [layoff CARD MELD [low|high], ...] [discard CARD]'",
}


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards)


def _groups(groups: Sequence[Sequence[Card]], kinds: Sequence[MeldKind | None] = ()) -> str:
    if not groups or any(not group for group in groups):
        raise NotationError(
            f"cannot write groups {[_cards(group) for group in groups]!r}: a meld needs at "
            "least one group, and every group at least one card"
        )
    if kinds and len(kinds) != len(groups):
        raise NotationError(
            f"cannot write {len(groups)} group(s) with {len(kinds)} kind(s): name one kind per "
            "group, or none"
        )
    named = kinds or (None,) * len(groups)
    return " / ".join(
        _cards(group) if kind is None else f"{kind.value} {_cards(group)}"
        for group, kind in zip(groups, named, strict=True)
    )


def _lay_off(card: Card, meld_id: int, end: End | None) -> str:
    return f"{card.code} {meld_id}" + ("" if end is None else f" {end}")


def format_action(action: Action) -> str:
    """The action in the text notation (without its seat).

    >>> import shanghai_rummy as sr
    >>> C = sr.Card.parse
    >>> sr.format_action(sr.Draw(seat=1, source=sr.Source.DISCARD))
    'take'
    >>> sr.format_action(sr.LayOff(seat=0, card=C("3C"), meld_id=4, end="low"))
    'layoff 3C 4 low'
    >>> out = sr.GoOut(
    ...     seat=0,
    ...     groups=[sr.parse_cards("8C 8D 8H")],
    ...     lay_offs=[sr.PlannedLayOff(C("9C"), 3), sr.PlannedLayOff(C("JK"), 2, "low")],
    ...     discard=C("KH"),
    ... )
    >>> sr.format_action(out)
    'out meld 8C 8D 8H layoff 9C 3, JK 2 low discard KH'
    """
    if isinstance(action, Draw):
        if action.source is Source.STOCK:
            return "draw"
        if action.source is Source.DISCARD:
            return "take"
        return f"draw {action.source.value.replace('_', ' ')}"
    if isinstance(action, Buy):
        return "buy"
    if isinstance(action, PassBuy):
        return "pass"
    if isinstance(action, Meld):
        return f"meld {_groups(action.groups, action.kinds)}"
    if isinstance(action, LayOff):
        return f"layoff {_lay_off(action.card, action.meld_id, action.end)}"
    if isinstance(action, SwapJoker):
        return f"swap {action.card.code} {action.meld_id}"
    if isinstance(action, Discard):
        return f"discard {action.card.code}"
    if isinstance(action, GoOut):
        parts = ["out"]
        if action.groups:
            parts.append(f"meld {_groups(action.groups, action.kinds)}")
        if action.lay_offs:
            planned = (_lay_off(item.card, item.meld_id, item.end) for item in action.lay_offs)
            parts.append("layoff " + ", ".join(planned))
        if action.discard is not None:
            parts.append(f"discard {action.discard.code}")
        return " ".join(parts)
    raise NotationError(f"not an action: {action!r}")


class _Reader:
    """Reads the tokens of one move, raising NotationError that quotes the whole text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = _TOKEN.findall(text)
        self.position = 0

    def fail(self, problem: str) -> NotationError:
        return NotationError(f"{self.text.strip()!r}: {problem}")

    def peek(self) -> str | None:
        if self.position < len(self.tokens):
            return self.tokens[self.position].lower()
        return None

    def next(self, wanted: str) -> str:
        """The next token as written."""
        if self.position >= len(self.tokens):
            raise self.fail(f"expected {wanted}, found the end of the text")
        self.position += 1
        return self.tokens[self.position - 1]

    def accept(self, *words: str) -> str | None:
        token = self.peek()
        if token in words:
            self.position += 1
            return token
        return None

    def card(self) -> Card:
        token = self.next("a card")
        try:
            return Card.parse(token)
        except NotationError as error:
            raise self.fail(str(error)) from None

    def meld_id(self) -> int:
        token = self.next("a meld id")
        match = _MELD_ID.fullmatch(token)
        if match is None:
            raise self.fail(f"expected a meld id (a number, such as 3 or #3), not {token!r}")
        return int(match.group(1))

    def end(self) -> End | None:
        token = self.accept(*_ENDS)
        if token == "low":
            return "low"
        if token == "high":
            return "high"
        return None

    def groups(
        self, stop: Sequence[str]
    ) -> tuple[tuple[tuple[Card, ...], ...], tuple[MeldKind | None, ...]]:
        """Groups separated by ``/``, each optionally after ``set`` or ``run``: the groups
        and the kinds named (None where a group names none)."""
        groups: list[tuple[Card, ...]] = []
        kinds: list[MeldKind | None] = []
        group: list[Card] = []
        kind: MeldKind | None = None
        while self.peek() is not None and self.peek() not in stop:
            if self.accept("/"):
                if not group:
                    raise self.fail("an empty group: write cards between the '/'")
                groups.append(tuple(group))
                kinds.append(kind)
                group, kind = [], None
            elif not group and kind is None and self.peek() in _KINDS:
                kind = _KINDS[self.next("a kind")]
            else:
                group.append(self.card())
        if not group:
            raise self.fail("a group with no cards: write meld CARDS / CARDS ...")
        groups.append(tuple(group))
        kinds.append(kind)
        return tuple(groups), tuple(kinds)

    def lay_offs(self, stop: Sequence[str]) -> list[PlannedLayOff]:
        planned = [PlannedLayOff(self.card(), self.meld_id(), self.end())]
        while self.accept(","):
            planned.append(PlannedLayOff(self.card(), self.meld_id(), self.end()))
        if self.peek() is not None and self.peek() not in stop:
            raise self.fail(f"expected ',' between lay-offs, not {self.tokens[self.position]!r}")
        return planned

    def done(self, verb: str) -> None:
        if self.peek() is not None:
            extra = " ".join(self.tokens[self.position :])
            raise self.fail(f"unexpected {extra!r} after the move; {verb} is {_FORMS[verb]}")


def _verb(reader: _Reader) -> str:
    word = reader.next("a move").lower()
    if word in ("lay", "lay-off"):
        reader.accept("off")
        return "layoff"
    if word == "go":
        if reader.accept("out") is None:
            raise reader.fail("expected 'go out'")
        return "out"
    if word not in _FORMS:
        raise reader.fail(f"unknown move {word!r}; moves are {', '.join(_FORMS)}")
    return word


def _go_out(reader: _Reader, seat: int) -> GoOut:
    groups: list[tuple[Card, ...]] = []
    kinds: list[MeldKind | None] = []
    planned: list[PlannedLayOff] = []
    discard: Card | None = None
    while (word := reader.peek()) is not None:
        reader.position += 1
        if word in ("lay", "lay-off"):
            reader.accept("off")
            word = "layoff"
        if word == "meld":
            more, named = reader.groups((*_SECTIONS, "lay", "lay-off"))
            groups.extend(more)
            kinds.extend(named)
        elif word == "layoff":
            planned.extend(reader.lay_offs((*_SECTIONS, "lay", "lay-off")))
        elif word == "discard" and discard is None:
            discard = reader.card()
        else:
            raise reader.fail(f"unexpected {word!r}; going out is {_FORMS['out']}")
    return GoOut(seat, groups, planned, discard, kinds)


def parse_action(text: str, seat: int) -> Action:
    """Read one move in the text notation (see the module notes) as an action of ``seat``.

    >>> import shanghai_rummy as sr
    >>> sr.parse_action("draw", seat=1)
    Draw(seat=1, source=<Source.STOCK: 'stock'>)
    >>> sr.parse_action("Lay off 10c 2", seat=3)
    LayOff(seat=3, card=Card.parse('10C'), meld_id=2, end=None)
    >>> sr.parse_action("go out layoff 9C 3, JK 1 high", seat=0).lay_offs[1]
    PlannedLayOff(card=Card.parse('JK'), meld_id=1, end='high')
    >>> sr.parse_action("layoff 9C", seat=0)
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.NotationError: 'layoff 9C': expected a meld id, found the end of the text
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise NotationError(f"seat must be a non-negative integer, got {seat!r}")
    if not isinstance(text, str):
        raise NotationError(f"not a move: {text!r} (parse_action reads text such as 'discard 8C')")
    reader = _Reader(text)
    verb = _verb(reader)
    action: Action
    if verb in ("draw", "take"):
        words = " ".join(reader.tokens[reader.position :])
        reader.position = len(reader.tokens)
        source = _SOURCES.get((verb, words.lower()))
        if source is None:
            raise reader.fail(f"unexpected {words!r}; {verb} is {_FORMS[verb]}")
        action = Draw(seat, source)
    elif verb == "buy":
        action = Buy(seat)
    elif verb == "pass":
        action = PassBuy(seat)
    elif verb == "meld":
        action = Meld(seat, *reader.groups(()))
    elif verb == "layoff":
        action = LayOff(seat, reader.card(), reader.meld_id(), reader.end())
    elif verb == "swap":
        action = SwapJoker(seat, reader.card(), reader.meld_id())
    elif verb == "discard":
        action = Discard(seat, reader.card())
    else:
        action = _go_out(reader, seat)
    reader.done(verb)
    return action
