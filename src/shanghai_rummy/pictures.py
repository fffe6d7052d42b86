"""Pictures of a game: SVG drawings of a seat's view (its hand, the melds on the table, the
upcard, the stock and the other hands' sizes) and of a whole state (every hand). Pure text: no
I/O and no dependency. Jupyter and IPython show a :class:`~shanghai_rummy.PlayerView` or a
:class:`~shanghai_rummy.GameState` as its picture (their ``_repr_svg_`` and ``_repr_html_``).

>>> import shanghai_rummy as sr
>>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=7)
>>> svg = view_svg(sr.view(state, 1))
>>> svg.startswith("<svg") and svg.count('class="card"') == 11 + 1  # hand and upcard
True
>>> state_svg(state).count('class="card"') == 3 * 11 + 1
True
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from html import escape
from typing import Protocol

from .cards import Card, Suit, sort_cards
from .contracts import Requirement
from .levels import level_name, requirement_of
from .melds import TableMeld
from .variants import Variant

__all__ = ["SeatPicture", "StatePicture", "TablePicture", "as_html", "state_svg", "view_svg"]


class TablePicture(Protocol):
    """What both pictures read: the deal's progress, the table, the piles."""

    @property
    def num_players(self) -> int: ...
    @property
    def deal_number(self) -> int: ...
    @property
    def phase(self) -> enum.Enum: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def totals(self) -> Sequence[int]: ...
    @property
    def table(self) -> Sequence[TableMeld]: ...
    @property
    def upcard(self) -> Card | None: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def levels(self) -> tuple[int, ...]: ...


class SeatPicture(TablePicture, Protocol):
    """What :func:`view_svg` reads of a seat's view (a :class:`~shanghai_rummy.PlayerView`)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def variant_id(self) -> str: ...
    @property
    def deal_count(self) -> int: ...
    @property
    def requirement(self) -> Requirement: ...
    @property
    def down(self) -> Sequence[bool]: ...
    @property
    def hand_sizes(self) -> Sequence[int]: ...
    @property
    def hand(self) -> Sequence[Card]: ...


class StatePicture(TablePicture, Protocol):
    """What :func:`state_svg` reads of a whole state (a :class:`~shanghai_rummy.GameState`)."""

    @property
    def variant(self) -> Variant: ...
    @property
    def dealer(self) -> int: ...
    def is_down(self, seat: int) -> bool: ...
    def hand(self, seat: int) -> Sequence[Card]: ...


_CARD_W, _CARD_H = 38, 54
_STEP = 24  # how far apart overlapping cards sit
_MARGIN = 14
_WIDTH = 820
_RED = "#c0262d"
_INK = "#1b1b1f"
_JOKER = "#7a2ca8"
_FELT = "#1d6b45"
_STYLE = (
    "<style>text{font-family:'DejaVu Sans',Arial,sans-serif}"
    ".label{fill:#f4f1e8;font-size:13px}.small{fill:#d8e8dc;font-size:11px}"
    ".rank{font-size:13px;font-weight:bold}.corner{font-size:12px}.pip{font-size:19px}</style>"
)


def _card(card: Card, x: float, y: float) -> str:
    if card.is_joker:
        colour, rank, pip = _JOKER, "JK", "★"
    else:
        assert card.rank is not None and card.suit is not None
        red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
        colour, rank, pip = (_RED if red else _INK), card.rank.code, card.suit.symbol
    return (
        f'<g class="card" transform="translate({x:g},{y:g})">'
        f"<title>{escape(card.code)}</title>"
        f'<rect width="{_CARD_W}" height="{_CARD_H}" rx="4" fill="#fffdf7" stroke="#55575c"/>'
        f'<text class="rank" x="4" y="15" fill="{colour}">{escape(rank)}</text>'
        f'<text class="corner" x="5" y="30" fill="{colour}">{pip}</text>'
        f'<text class="pip" x="{_CARD_W - 5}" y="{_CARD_H - 7}" text-anchor="end" '
        f'fill="{colour}">{pip}</text></g>'
    )


def _back(x: float, y: float) -> str:
    return (
        f'<rect class="back" x="{x:g}" y="{y:g}" width="{_CARD_W}" height="{_CARD_H}" rx="4" '
        'fill="#2a4d8f" stroke="#f4f1e8" stroke-width="2"/>'
    )


def _text(x: float, y: float, text: str, css: str = "label") -> str:
    return f'<text class="{css}" x="{x:g}" y="{y:g}">{escape(text)}</text>'


class _Canvas:
    """Rows of labelled cards, top to bottom."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.y = _MARGIN

    def line(self, text: str, css: str = "label") -> None:
        self.parts.append(_text(_MARGIN, self.y + 13, text, css))
        self.y += 22

    def cards(self, x: float, cards: Sequence[Card], step: float = _STEP) -> float:
        """Cards from ``x`` on the current row, wrapping at the edge; the x after them."""
        for card in cards:
            if x + _CARD_W > _WIDTH - _MARGIN:
                x = _MARGIN + 150
                self.y += _CARD_H + 8
            self.parts.append(_card(card, x, self.y))
            x += step
        return x + _CARD_W - step

    def row(self, label: str, cards: Sequence[Card], note: str = "") -> None:
        self.parts.append(_text(_MARGIN, self.y + 31, label))
        end = self.cards(_MARGIN + 150, cards)
        if note:
            self.parts.append(_text(end + 10, self.y + 31, note, "small"))
        self.y += _CARD_H + 10

    def backs(self, label: str, count: int, note: str = "") -> None:
        self.parts.append(_text(_MARGIN, self.y + 31, label))
        x = _MARGIN + 150
        for _ in range(min(count, 3)):
            self.parts.append(_back(x, self.y))
            x += 8
        summary = f"{count} card{'s' if count != 1 else ''}" + (f" · {note}" if note else "")
        self.parts.append(_text(x + _CARD_W + 10, self.y + 31, summary, "small"))
        self.y += _CARD_H + 10

    def melds(self, melds: Sequence[TableMeld], names: Sequence[str]) -> None:
        if not melds:
            self.line("Table: no melds yet")
            return
        self.line("Table")
        x = _MARGIN
        for meld in melds:
            width = _CARD_W + _STEP * (len(meld.cards) - 1) + 14
            if x + width > _WIDTH - _MARGIN and x > _MARGIN:
                x = _MARGIN
                self.y += _CARD_H + 24
            self.parts.append(
                _text(
                    x, self.y + 11, f"#{meld.id} {meld.kind.value} ({names[meld.owner]})", "small"
                )
            )
            for index, card in enumerate(meld.cards):
                self.parts.append(_card(card, x + index * _STEP, self.y + 16))
            x += width
        self.y += _CARD_H + 26

    def svg(self, title: str) -> str:
        height = self.y + _MARGIN
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
            f'viewBox="0 0 {_WIDTH} {height}" role="img" aria-label="{escape(title)}">'
            f"<title>{escape(title)}</title>{_STYLE}"
            f'<rect width="{_WIDTH}" height="{height}" rx="10" fill="{_FELT}"/>'
            + "".join(self.parts)
            + "</svg>"
        )


def _heading(
    canvas: _Canvas, deal: str, phase: str, to_act: int | None, names: Sequence[str]
) -> None:
    waiting = "" if to_act is None else f" · {names[to_act]} to {phase}"
    canvas.line(f"{deal}{waiting}")


def _piles(canvas: _Canvas, upcard: Card | None, stock_size: int) -> None:
    label = "Upcard"
    if upcard is None:
        canvas.line(f"Upcard: none · stock {stock_size} cards")
        return
    canvas.row(label, [upcard], f"stock {stock_size} cards")


def view_svg(view: SeatPicture) -> str:
    """An SVG picture of what seat ``view.seat`` sees: its hand face up, the other hands as
    card backs with their sizes, the melds on the table with their ids and owners, the upcard
    and the stock's size."""
    seat = view.seat
    names = ["you" if other == seat else f"seat {other}" for other in range(view.num_players)]
    canvas = _Canvas()
    deal = (
        f"{view.variant_id} · deal {view.deal_number} of {view.deal_count}: "
        f"{view.requirement.describe()}"
    )
    _heading(canvas, deal, view.phase.value, view.to_act, names)
    for other in range(view.num_players):
        if other != seat:
            note = f"total {view.totals[other]}" + _level(view, other)
            note += " · down" if view.down[other] else ""
            canvas.backs(names[other], view.hand_sizes[other], note)
    canvas.melds(view.table, names)
    _piles(canvas, view.upcard, view.stock_size)
    if seat is None:  # a spectator's view: every hand is a back
        return canvas.svg(f"{deal}: a spectator's view")
    status = _level(view, seat) + (" · down" if view.down[seat] else "")
    canvas.row(
        f"Your hand (seat {seat})", sort_cards(view.hand), f"total {view.totals[seat]}{status}"
    )
    return canvas.svg(f"{deal}: seat {seat}'s view")


def state_svg(state: StatePicture) -> str:
    """An SVG picture of the whole state: every hand face up, the table, the upcard and the
    stock's size."""
    names = [f"seat {seat}" for seat in range(state.num_players)]
    canvas = _Canvas()
    contract = "each seat on its level"
    if not state.levels:
        contract = requirement_of(state, 0).describe()
    deal = (
        f"{state.variant.id} · deal {state.deal_number} of "
        f"{state.variant.total_deals(state.num_players)}: {contract}"
    )
    _heading(canvas, deal, state.phase.value, state.to_act, names)
    for seat in range(state.num_players):
        note = f"total {state.totals[seat]}"
        if state.levels:
            note += f"{_level(state, seat)}: {requirement_of(state, seat).describe()}"
        note += " · down" if state.is_down(seat) else ""
        if seat == state.dealer:
            note += " · dealer"
        canvas.row(names[seat], sort_cards(state.hand(seat)), note)
    canvas.melds(state.table, names)
    _piles(canvas, state.upcard, state.stock_size)
    return canvas.svg(f"{deal}: the whole state")


def _level(picture: TablePicture, seat: int) -> str:
    """`` · level 3`` where the seats are on levels (progressive contracts), else empty."""
    return f" · {level_name(picture, seat)}" if picture.levels else ""


def as_html(svg: str) -> str:
    """The picture for an HTML page or a notebook cell."""
    return f'<div class="shanghai-rummy-picture">{svg}</div>'
