"""A table's settings, as the lobby receives them and the store keeps them.

>>> settings = TableSettings.read({"variant": "rummy51", "seats": ["person", "greedy"]})
>>> settings.variant.id, settings.seats, settings.people, settings.takeover_after
('rummy51', ('person', 'greedy'), (0,), None)
>>> TableSettings.read({"variant": "rummy51", "seats": ["person", "wizard"]})
Traceback (most recent call last):
...
shanghai_rummy.server.wire.Refusal: bad_request: seat 1: 'wizard' is not a seat kind ...
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import attrs

from ..errors import RummyError
from ..limits import MAX_SEED
from ..serialization import from_dict, to_dict
from ..simulate import BOT_KINDS
from ..variants import VARIANTS, Variant, get_variant
from .wire import Refusal

__all__ = ["PERSON", "SEAT_KINDS", "TableSettings"]

PERSON = "person"
SEAT_KINDS = (PERSON, *BOT_KINDS)
"""What a seat can be: a person, or one of the bots."""

MOST_TAKEOVER_SECONDS = 24 * 3600.0
_KEYS = ("variant", "seats", "seed", "takeover_after", "takeover_bot", "name", "spectators")


@attrs.frozen(kw_only=True)
class TableSettings:
    """``variant``; ``seats`` (``"person"`` or a bot kind, one per seat); ``seed`` (kept
    secret: it orders every deck); ``takeover_after``: seconds a person may take to act, or
    None; past it (or when the player leaves) a ``takeover_bot`` plays the seat until its
    player comes back; ``name``; ``spectators``: whether connections without a seat may watch."""

    variant: Variant
    seats: tuple[str, ...]
    seed: int
    takeover_after: float | None = None
    takeover_bot: str = "greedy"
    name: str = ""
    spectators: bool = True

    @property
    def people(self) -> tuple[int, ...]:
        """The seats played by people."""
        return tuple(seat for seat, kind in enumerate(self.seats) if kind == PERSON)

    def to_json(self) -> dict[str, Any]:
        """What the store keeps."""
        return {
            "variant": to_dict(self.variant),
            "seats": list(self.seats),
            "seed": self.seed,
            "takeover_after": self.takeover_after,
            "takeover_bot": self.takeover_bot,
            "name": self.name,
            "spectators": self.spectators,
        }

    @classmethod
    def read(cls, body: object, *, default_seed: int | None = None) -> TableSettings:
        """Settings from a lobby request (or the store); :class:`Refusal` names a bad field."""
        if not isinstance(body, Mapping):
            raise Refusal("bad_request", "the body must be a JSON object", "$")
        unknown = sorted(str(key) for key in body if key not in _KEYS)
        if unknown:
            raise Refusal("bad_request", f"unknown field {unknown[0]!r}", f"$.{unknown[0]}")
        variant = _variant(body.get("variant", "shanghai"))
        seats = _seats(body.get("seats"), variant)
        seed = body.get("seed")
        if seed is None:
            seed = default_seed if default_seed is not None else secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise Refusal("bad_request", "'seed' must be a whole number from 0", "$.seed")
        takeover = body.get("takeover_after")
        if takeover is not None and (
            isinstance(takeover, bool)
            or not isinstance(takeover, (int, float))
            or not 0 < takeover <= MOST_TAKEOVER_SECONDS
        ):
            raise Refusal(
                "bad_request",
                f"'takeover_after' must be seconds, over 0 and at most {MOST_TAKEOVER_SECONDS:g}, "
                "or null",
                "$.takeover_after",
            )
        bot = body.get("takeover_bot", "greedy")
        if bot not in BOT_KINDS:
            raise Refusal(
                "bad_request",
                f"'takeover_bot' must be one of {', '.join(BOT_KINDS)}",
                "$.takeover_bot",
            )
        name = body.get("name", "")
        if not isinstance(name, str) or len(name) > 80:
            raise Refusal("bad_request", "'name' must be text of at most 80 characters", "$.name")
        spectators = body.get("spectators", True)
        if not isinstance(spectators, bool):
            raise Refusal("bad_request", "'spectators' must be true or false", "$.spectators")
        return cls(
            variant=variant,
            seats=seats,
            seed=seed,
            takeover_after=None if takeover is None else float(takeover),
            takeover_bot=str(bot),
            name=name,
            spectators=spectators,
        )


def _variant(value: object) -> Variant:
    if isinstance(value, str):
        if value not in VARIANTS:
            raise Refusal(
                "bad_request",
                f"unknown variant {value!r}; presets: {', '.join(sorted(VARIANTS))}",
                "$.variant",
            )
        return get_variant(value)
    try:
        variant: Variant = from_dict(value, Variant)
    except RummyError as error:
        refused = Refusal.of(error)
        path = refused.path.replace("$", "$.variant", 1) if refused.path else "$.variant"
        raise Refusal("bad_request", f"variant document: {error}", path) from None
    return variant


def _seats(value: object, variant: Variant) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise Refusal("bad_request", "'seats' must be a list of seat kinds", "$.seats")
    for seat, kind in enumerate(value):
        if kind not in SEAT_KINDS:
            raise Refusal(
                "bad_request",
                f"seat {seat}: {kind!r} is not a seat kind ({', '.join(SEAT_KINDS)})",
                f"$.seats[{seat}]",
            )
    if PERSON not in value:
        raise Refusal("bad_request", "a table needs at least one person's seat", "$.seats")
    try:
        variant.pack_size(len(value))
    except RummyError as error:
        raise Refusal("bad_request", str(error), "$.seats") from None
    return tuple(value)
