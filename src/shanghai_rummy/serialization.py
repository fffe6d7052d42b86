"""JSON documents: games, actions, views, variants, deal results and game records.

Every document is a versioned envelope around the data::

    {"format": "shanghai-rummy", "version": 1, "type": "game_state", "data": {...}}

``type`` is one of ``game_state``, ``action``, ``player_view``, ``variant``,
``deal_result``, ``game_record``. Inside ``data``, cards are their codes (``"8C"``, ``"10H"``,
``"JK"``), enums their values, keys come in the classes' field order, an action carries its
kind as ``"type"`` (``"draw"``, ``"buy"``, ``"pass_buy"``, ``"meld"``, ``"lay_off"``,
``"swap_joker"``, ``"discard"``, ``"go_out"``) and a requirement as ``"kind"``
(``"contract"`` or ``"opening"``). A saved game embeds its whole variant, and its history as
the list of actions, each draw, discard, buy or pass (nine actions in ten) in its short form,
the seat and the action in the text notation (``"2 draw"``, ``"2 take"``, ``"0 discard 10H"``,
``"3 pass"``), the others as objects; a history of objects only, as earlier versions wrote,
loads too. :func:`~shanghai_rummy.json_schema` describes all of it.

Loading is validation: :func:`from_json` refuses anything malformed or forged with a
:class:`~shanghai_rummy.SerializationError` naming the path of the bad field, and a game state
must also pass :func:`~shanghai_rummy.validate`.

>>> import shanghai_rummy as sr
>>> text = sr.to_json(sr.Discard(seat=2, card=sr.Card.parse("10H")))
>>> text
'{"format":"shanghai-rummy","version":1,"type":"action","data":{"type":"discard","seat":2,"card":"10H"}}'
>>> sr.from_json(text, sr.Action)
Discard(seat=2, card=Card.parse('10H'))
>>> sr.from_json(text.replace("10H", "11H"), sr.Action)
Traceback (most recent call last):
...
shanghai_rummy.errors.SerializationError: $.data.card: unknown card code '11H' (...)
"""

from __future__ import annotations

import contextlib
import itertools
import json
import typing
from collections.abc import Callable
from typing import Any, TypeVar, overload

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from . import limits
from .actions import (
    Action,
    Buy,
    Discard,
    Draw,
    GoOut,
    LayOff,
    Meld,
    PassBuy,
    Source,
    SwapJoker,
    shared_discard,
    shared_draw,
)
from .cards import Card
from .contracts import Requirement
from .conversion import (
    CARDS_BY_CODE,
    REQUIREMENT_TAGS,
    FieldError,
    ItemErrors,
    attrs_structure_hook,
    json_kind,
    short,
    structure_with,
    value_converter,
)
from .document_bounds import field_bounds
from .engine.validation import typed_history, validate
from .errors import ArgumentTypeError, InvalidStateError, RummyError, SerializationError
from .events import (
    Bought,
    DealEnded,
    DealStarted,
    Discarded,
    Drew,
    Event,
    GameEnded,
    LaidOff,
    Melded,
    PassedBuy,
    Restocked,
    SeenEvents,
    SwappedJoker,
    TookCutCard,
    TookUpcard,
    UpcardOffered,
    chain_events,
    chain_of,
)
from .limits import MAX_DOCUMENT_BYTES, MAX_HISTORY_ACTIONS
from .records import GameRecord
from .scoring import DealResult, Outcome
from .state import GameState, History, history_of
from .variants import Variant
from .views import PlayerView

__all__ = ["FORMAT", "VERSION", "from_dict", "from_json", "to_dict", "to_json"]

_T = TypeVar("_T")

FORMAT = "shanghai-rummy"
"""The ``format`` of every document."""
VERSION = 1
"""The ``version`` of the documents this library writes and reads."""

ACTION_TAGS: dict[type, str] = {
    Draw: "draw",
    Buy: "buy",
    PassBuy: "pass_buy",
    Meld: "meld",
    LayOff: "lay_off",
    SwapJoker: "swap_joker",
    Discard: "discard",
    GoOut: "go_out",
}
EVENT_TAGS: dict[type, str] = {
    DealStarted: "deal_started",
    Drew: "drew",
    TookUpcard: "took_upcard",
    TookCutCard: "took_cut_card",
    UpcardOffered: "upcard_offered",
    Bought: "bought",
    PassedBuy: "passed_buy",
    Melded: "melded",
    LaidOff: "laid_off",
    SwappedJoker: "swapped_joker",
    Discarded: "discarded",
    Restocked: "restocked",
    DealEnded: "deal_ended",
    GameEnded: "game_ended",
}
TAGGED_UNIONS: tuple[tuple[object, str, str, dict[type, str]], ...] = (
    (Action, "Action", "type", ACTION_TAGS),
    (Requirement, "Requirement", "kind", REQUIREMENT_TAGS),
    (Event, "Event", "type", EVENT_TAGS),
)
"""Each tagged union: the union, its schema name, the tag key and each member's tag."""

DOCUMENTS: tuple[tuple[str, object], ...] = (
    ("game_state", GameState),
    ("action", Action),
    ("player_view", PlayerView),
    ("variant", Variant),
    ("deal_result", DealResult),
    ("game_record", GameRecord),
    ("event", Event),
    ("outcome", Outcome),
)
"""Each document ``type`` and the class (or union) its ``data`` holds."""


# --- the converter ----------------------------------------------------------------------------


def _structure_history(value: object, _: object) -> History | None:
    if type(value) is not list:
        raise TypeError(f"expected an array, got {json_kind(value)}")
    if len(value) > MAX_HISTORY_ACTIONS:
        raise ValueError(f"at most {MAX_HISTORY_ACTIONS} actions (limits.MAX_HISTORY_ACTIONS)")
    actions = _history_actions(value)
    log = history_of(actions)
    if log is not None:
        typed_history(log)  # every action of its fields' types, as read
    return log


# --- a history's short forms ------------------------------------------------------------------

_SHORT_SOURCES = {Source.STOCK: "draw", Source.DISCARD: "take", Source.CUT_CARD: "draw cut card"}


def _short_forms() -> dict[str, Action]:
    """Every action with a short form, by it: each seat's draws, buy, pass and discards."""
    forms: dict[str, Action] = {}
    for seat in range(limits.MAX_PLAYERS):
        for source, words in _SHORT_SOURCES.items():
            forms[f"{seat} {words}"] = shared_draw(seat, source)
        forms[f"{seat} buy"] = Buy(seat)
        forms[f"{seat} pass"] = PassBuy(seat)
        for code, card in CARDS_BY_CODE.items():
            forms[f"{seat} discard {code}"] = shared_discard(seat, card)
    return forms


SHORT_FORMS: dict[str, Action] = _short_forms()
"""Every action a history may hold in its short form, by that form (``"2 draw"``,
``"0 discard 10H"``): each seat's draws, buy, pass and discards (a table made at import)."""
_SHORT_FORM_OF: dict[Action, str] = {action: form for form, action in SHORT_FORMS.items()}

SHORT_FORM_PATTERN = (
    "^(?:"
    + "|".join(str(seat) for seat in range(limits.MAX_PLAYERS))
    + ") (?:"
    + "|".join([*_SHORT_SOURCES.values(), "buy", "pass"])
    + "|discard (?:"
    + "|".join(CARDS_BY_CODE)
    + "))$"
)
"""The regular expression of a history item's short form (for the schema): exactly the
strings :func:`from_json` reads as an action."""

_MOST_PROBLEMS = 3  # bad items reported from one history: reading stops there


def _history_actions(value: list[Any]) -> list[Action]:
    """The actions of a history's items. A history :func:`to_json` wrote is short forms,
    looked up a run at a time, with an object now and then (a meld, a lay-off...) read by
    the converter; one whose draws, discards, buys or passes are objects (an older writer)
    or holds a bad item is read item by item from there (:func:`_history_items`)."""
    actions: list[Action] = []
    lookup = SHORT_FORMS.__getitem__
    size = len(value)
    while True:
        # up to an item that is not a short form; CPython keeps what extend appended before
        # it, so reading resumes there (item by item where an implementation keeps nothing)
        with contextlib.suppress(KeyError, TypeError):
            actions.extend(map(lookup, itertools.islice(value, len(actions), None)))
        index = len(actions)
        if index == size:
            return actions
        item = value[index]
        if type(item) is not dict or _read_action(item) is not None:
            return _history_items(value, actions)
        try:
            actions.append(_CONVERTER.structure(item, typing.cast(Any, Action)))
        except Exception:  # reported with its path, item by item
            return _history_items(value, actions)


def _history_items(value: list[Any], actions: list[Action]) -> list[Action]:
    """``actions`` followed by those of ``value``'s items after them, read one by one: short
    forms looked up, objects read as actions (the draws, discards, buys and passes of an
    older document directly, each distinct one once; the rest by the converter). Raises
    ``ItemErrors`` naming the first bad items."""
    append = actions.append
    problems: list[tuple[str, Exception]] = []
    # a long history repeats a few hundred items (each seat's draws, discards, buys and
    # passes): each read once, by its keys and values
    known: _Known = {}
    start = len(actions)
    for index, item in enumerate(itertools.islice(value, start, None), start):
        action: Action | None = None
        if type(item) is str:
            action = SHORT_FORMS.get(item)
            if action is None:
                problems.append((f"[{index}]", ValueError(_not_a_short_form(item))))
        elif type(item) is dict:
            action = _quick_item(item, known)
        if action is None and type(item) is not str:
            try:
                action = _CONVERTER.structure(item, typing.cast(Any, Action))
            except Exception as error:  # collected, each with its index in the path
                problems.append((f"[{index}]", error))
        if problems:
            if len(problems) == _MOST_PROBLEMS:
                break  # enough to report: refusing costs no more than reading
            continue
        assert action is not None
        append(action)
    if problems:
        raise ItemErrors(problems)
    return actions


def _not_a_short_form(item: str) -> str:
    return (
        f"not an action: {short(item)} (an action object, or a seat and a draw, take, "
        "buy, pass or discard as the text notation writes it, such as '2 draw' or "
        "'0 discard 10H')"
    )


_Known = dict[tuple[tuple[str, object], ...], Action]


def _quick_item(item: dict[str, object], known: _Known) -> Action | None:
    """``item`` read as the draw, discard, buy or pass it spells exactly, remembered in
    ``known`` by its keys and values; else None (for the converter)."""
    try:
        key = tuple(item.items())
        action = known.get(key)
    except TypeError:  # a value that is a list or an object: not a common item
        return None
    # an equal key may hold true or 1.0 for a seat (equal to 1): its type decides
    if action is not None and type(item["seat"]) is int:
        return action
    action = _read_action(item)
    if action is not None:
        known[key] = action
    return action


_SOURCES = {source.value: source for source in Source}
_SHARED_SEATS = 16  # seats whose draws and discards come from the shared action objects


def _read_action(item: dict[str, object]) -> Action | None:
    """``item`` read as the draw, discard, buy or pass it spells exactly (most of a history),
    else None. Draws and discards of real seats are the shared action objects
    (:func:`~shanghai_rummy.actions.shared_draw`), as listings give them."""
    if len(item) not in (2, 3):
        return None
    tag = item.get("type")
    seat = item.get("seat")
    if type(seat) is not int or type(tag) is not str:
        return None
    if len(item) == 2:
        if tag == "buy":
            return Buy(seat)
        return PassBuy(seat) if tag == "pass_buy" else None
    shared = 0 <= seat < _SHARED_SEATS
    value = item.get("source" if tag == "draw" else "card")
    if type(value) is not str:
        return None
    if tag == "draw":
        source = _SOURCES.get(value)
        if source is None:
            return None
        return shared_draw(seat, source) if shared else Draw(seat, source)
    card = CARDS_BY_CODE.get(value) if tag == "discard" else None
    if card is None:
        return None
    return shared_discard(seat, card) if shared else Discard(seat, card)


def _unstructure_history(log: History | None) -> list[Any]:
    if log is None:
        return []
    form_of = _SHORT_FORM_OF.get
    return [form_of(action) or _CONVERTER.unstructure(action, Action) for action in log]


def _structure_event_log(value: object, _: object) -> Any:
    chain = _quick_chain(value)
    if chain is _NOT_QUICK:  # something is wrong: the converter says what, and where
        return chain_of(_CONVERTER.structure(value, tuple[Event, ...]))
    return chain


_NOT_QUICK: Any = object()
_EVENT_FIELDS: dict[str, tuple[type, tuple[str, ...]]] = {
    tag: (cls, tuple(field.name for field in attrs.fields(cls))) for cls, tag in EVENT_TAGS.items()
}
"""Each event's tag, with its class and the names of its fields (the chain's order)."""


def _quick_chain(value: object) -> Any:
    """The event chain (see :func:`~shanghai_rummy.events.chain_of`) of a list of events,
    the common ones (offers, passes, draws, discards) read directly and the others by the
    converter; ``_NOT_QUICK`` if any item fails (the caller then reads the whole list
    again, for the converter's errors with their paths)."""
    if type(value) is not list:
        return _NOT_QUICK
    chain: Any = None
    for item in value:
        link = _quick_event(item)
        if link is None:
            try:
                event = _CONVERTER.structure(item, typing.cast(Any, Event))
            except Exception:  # reported with its path when the whole list is read
                return _NOT_QUICK
            names = _EVENT_FIELDS[EVENT_TAGS[type(event)]][1]
            link = (event.number, type(event), *(getattr(event, name) for name in names[1:]))
        chain = (chain, *link)
    return chain


def _quick_event(item: object) -> tuple[Any, ...] | None:
    """``item`` as a link of the chain without its first member, ``(number, class, *the
    other fields)``, for the pass, draw, discard or offer it spells exactly; else None."""
    if type(item) is not dict:
        return None
    tag = item.get("type")
    number = item.get("number")
    seat = item.get("seat")
    if type(number) is not int or type(seat) is not int:
        return None
    size = len(item)
    if tag == "passed_buy":
        return (number, PassedBuy, seat) if size == 3 else None
    code = item.get("card")
    if tag == "drew" or tag == "discarded":
        if size != 4:
            return None
        if code is None and tag == "drew":
            return (number, Drew, seat, None)
        card = CARDS_BY_CODE.get(code) if type(code) is str else None
        if card is None:
            return None
        return (number, Drew if tag == "drew" else Discarded, seat, card)
    if tag == "upcard_offered" and size == 5:
        buyers = item.get("buyers")
        card = CARDS_BY_CODE.get(code) if type(code) is str else None
        if card is None or type(buyers) is not list:
            return None
        if all(type(buyer) is int for buyer in buyers):
            return (number, UpcardOffered, seat, card, tuple(buyers))
    return None


def _unstructure_event_log(chain: Any) -> list[Any]:
    return [_CONVERTER.unstructure(event, Event) for event in chain_events(chain)]


def _state_overrides() -> dict[str, Any]:
    return {
        "log": override(
            rename="history", struct_hook=_structure_history, unstruct_hook=_unstructure_history
        ),
        "event_log": override(
            rename="events",
            struct_hook=_structure_event_log,
            unstruct_hook=_unstructure_event_log,
        ),
    }


def _attrs_structure_hook(cls: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """:func:`~shanghai_rummy.conversion.attrs_structure_hook`, and for the documents' own
    classes: a game state's history and events, a view's labels, a meld's groups."""
    if cls not in (GameState, PlayerView, Meld, GoOut):
        return attrs_structure_hook(cls, converter)
    overrides = _state_overrides() if cls is GameState else {}
    inner = make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True, **overrides)

    def structure(value: object, _: object) -> Any:
        if type(value) is not dict:
            raise TypeError(f"expected an object ({cls.__name__}), got {json_kind(value)}")
        if cls is PlayerView and "labels" in value:
            return _view_with_labels(inner, value)
        loaded = inner(value, cls)
        if cls is Meld or cls is GoOut:
            _check_groups(loaded)
        return loaded

    return structure


def _check_groups(action: Meld | GoOut) -> None:
    """A meld lays at least one group, and no group is empty (as the schema says): such an
    action is a slip no state accepts."""
    if type(action) is Meld and not action.groups:
        raise FieldError(".groups", "a meld lays at least one group")
    for index, group in enumerate(action.groups):
        if not group:
            raise FieldError(f".groups[{index}]", "a group holds at least one card")
    if action.kinds and len(action.kinds) != len(action.groups):
        raise FieldError(".kinds", "one kind per group (null where it names none), or none")


def _view_with_labels(inner: Callable[[Any, Any], Any], value: dict[str, Any]) -> PlayerView:
    """A view document's ``labels`` are its legal actions in the text notation, written for
    readers in other languages: when present, they must be exactly those."""
    labels = value["labels"]
    seen: PlayerView = inner({key: item for key, item in value.items() if key != "labels"}, None)
    if labels != list(seen.labels):
        raise FieldError(".labels", "the labels must be the legal actions' notation, in order")
    return seen


def _unstructure_view(
    inner: Callable[[PlayerView], dict[str, Any]],
) -> Callable[[PlayerView], dict[str, Any]]:
    def unstructure(seen: PlayerView) -> dict[str, Any]:
        data = inner(seen)
        ordered: dict[str, Any] = {}
        for key, item in data.items():
            ordered[key] = item
            if key == "legal_actions":
                ordered["labels"] = list(seen.labels)
        return ordered

    return unstructure


def _build_converter() -> cattrs.Converter:
    unions = [(union, tag_key, tags) for union, _, tag_key, tags in TAGGED_UNIONS]
    converter = value_converter(_attrs_structure_hook, unions)
    converter.register_unstructure_hook(
        SeenEvents, lambda seen: [converter.unstructure(event, Event) for event in seen]
    )
    converter.register_structure_hook(
        SeenEvents, lambda value, _: SeenEvents(converter.structure(value, tuple[Event, ...]))
    )
    # Last: a generated function binds the hooks of its fields when it is made.
    converter.register_unstructure_hook(
        GameState, make_dict_unstructure_fn(GameState, converter, **_state_overrides())
    )
    converter.register_unstructure_hook(
        PlayerView, _unstructure_view(make_dict_unstructure_fn(PlayerView, converter))
    )
    return converter


_CONVERTER = _build_converter()


def unstructure(value: Any, cls: Any) -> Any:
    """``value`` of type ``cls`` as plain JSON data (no envelope)."""
    return _CONVERTER.unstructure(value, cls)


def structure(data: Any, cls: Any, root: str, error_type: type[RummyError]) -> Any:
    """Plain JSON data as a ``cls``; ``error_type`` naming the path from ``root`` otherwise."""
    return structure_with(_CONVERTER, data, cls, root, error_type)


# --- documents --------------------------------------------------------------------------------


def _document_type(obj: object) -> tuple[str, object]:
    if type(obj) in ACTION_TAGS:
        return "action", Action
    if type(obj) in EVENT_TAGS:
        return "event", Event
    for name, cls in DOCUMENTS:
        if isinstance(cls, type) and type(obj) is cls:
            return name, cls
    raise SerializationError(
        f"cannot serialize a {type(obj).__name__}: documents hold a GameState, an Action, a "
        "PlayerView, a Variant, a DealResult or a GameRecord"
    )


def to_dict(obj: object) -> dict[str, Any]:
    """The JSON document of ``obj`` as a dict: the envelope and its ``data``. For servers
    that put documents inside messages of their own; :func:`to_json` is this, as text.

    >>> import shanghai_rummy as sr
    >>> doc = sr.to_dict(sr.get_variant("shanghai"))
    >>> list(doc), doc["type"]
    (['format', 'version', 'type', 'data'], 'variant')
    >>> doc["data"]["deals"][1]["requirement"]
    {'kind': 'contract', 'sets': [3], 'runs': [4]}
    """
    name, cls = _document_type(obj)
    return {"format": FORMAT, "version": VERSION, "type": name, "data": unstructure(obj, cls)}


def to_json(obj: object, *, indent: int | None = None) -> str:
    """The JSON document of a GameState, any Action, a PlayerView, a Variant, a DealResult or
    a GameRecord. Keys come in a fixed order, so equal values give equal text; ``indent``
    pretty-prints.

    >>> import shanghai_rummy as sr
    >>> print(sr.to_json(sr.Buy(seat=3), indent=1))
    {
     "format": "shanghai-rummy",
     "version": 1,
     "type": "action",
     "data": {
      "type": "buy",
      "seat": 3
     }
    }
    """
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(to_dict(obj), ensure_ascii=False, indent=indent, separators=separators)


class _DuplicateKeyError(ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):  # a key twice: say which
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKeyError(f"duplicate key {key!r} in an object")
            seen.add(key)
    return result


def _constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _expected_name(cls: object) -> str:
    if cls == Action or any(cls is member for member in ACTION_TAGS):
        return "action"
    if cls == Event or any(cls is member for member in EVENT_TAGS):
        return "event"
    for name, document_cls in DOCUMENTS:
        if document_cls == cls:
            return name
    raise SerializationError(
        f"cannot load a {cls!r}: from_json reads a GameState, an Action (sr.Action or one "
        "action class), a PlayerView, a Variant, a DealResult or a GameRecord"
    )


@overload
def from_dict(document: Any, type: type[_T], *, check_history: bool = True) -> _T: ...
@overload
def from_dict(document: Any, type: object, *, check_history: bool = True) -> Any: ...
def from_dict(document: Any, type: object, *, check_history: bool = True) -> Any:
    """The value in a document already parsed from JSON (see :func:`from_json`).

    >>> import shanghai_rummy as sr
    >>> sr.from_dict(
    ...     {
    ...         "format": "shanghai-rummy",
    ...         "version": 1,
    ...         "type": "action",
    ...         "data": {"type": "pass_buy", "seat": 0},
    ...     },
    ...     sr.PassBuy,
    ... )
    PassBuy(seat=0)
    """
    name = _expected_name(type)
    if not isinstance(document, dict):
        raise SerializationError(f"$: expected a document object, got {json_kind(document)}")
    problems = []
    for key, expected in (("format", FORMAT), ("version", VERSION), ("type", name)):
        found = document.get(key)
        if key not in document:
            problems.append(f"$.{key}: required field missing (expected {expected!r})")
        elif found != expected or _builtin_type(found) is not _builtin_type(expected):
            problems.append(f"$.{key}: expected {expected!r}, got {short(found)}")
    if "data" not in document:
        problems.append("$.data: required field missing")
    problems.extend(
        f"$.{key}: unknown field" for key in sorted(map(str, document)) if key not in _ENVELOPE
    )
    if problems:
        raise SerializationError("; ".join(problems[:3]))
    cls = {"action": Action, "event": Event}.get(name, type)
    value = structure(document["data"], cls, "$.data", SerializationError)
    _check(value, type, check_history)
    return value


_builtin_type = type
_ENVELOPE = ("format", "version", "type", "data")


@overload
def from_json(
    text: str | bytes,
    type: type[_T],
    *,
    max_bytes: int | None = MAX_DOCUMENT_BYTES,
    check_history: bool = True,
) -> _T: ...
@overload
def from_json(
    text: str | bytes,
    type: object,
    *,
    max_bytes: int | None = MAX_DOCUMENT_BYTES,
    check_history: bool = True,
) -> Any: ...
def from_json(
    text: str | bytes,
    type: object,
    *,
    max_bytes: int | None = MAX_DOCUMENT_BYTES,
    check_history: bool = True,
) -> Any:
    """Load a document written by :func:`to_json`. ``type`` is the class expected:
    ``GameState``, ``PlayerView``, ``Variant``, ``DealResult``, ``GameRecord``, or
    ``sr.Action`` (any action) or one action class.

    Anything malformed or forged raises :class:`~shanghai_rummy.SerializationError` naming
    the path of the bad field, and nothing else is ever raised: not JSON, wrong envelope,
    unknown fields, wrong types, unknown card codes, and for a game state every invariant of
    :func:`~shanghai_rummy.validate` (card conservation, phase and seat to act, valid melds,
    buy limits, totals) and, with ``check_history`` (the default), its own history: the
    seed (or the stacked deal) and the actions it carries must replay to the state itself,
    so a forged state that keeps every invariant is refused too. That replay costs one
    application of each action of the history (tens of microseconds each); a program
    loading states it wrote itself may pass ``check_history=False``.

    ``max_bytes`` refuses a larger document before it is parsed (by default
    :data:`~shanghai_rummy.limits.MAX_DOCUMENT_BYTES`, 16 MiB; None: no limit); a server
    passes the size its messages need. Refusing a malformed document costs no more than
    reading a well-formed one of the same size.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=4)
    >>> sr.from_json(sr.to_json(state), sr.GameState) == state
    True
    >>> sr.from_json(sr.to_json(state).replace('"buys":0', '"buys":9', 1), sr.GameState)
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.SerializationError: $.data.seats[0].buys: buy limit: 9 buys, but ...
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise SerializationError(f"$: expected JSON text, got {json_kind(text)}")
    _check_size(text, max_bytes)
    try:
        document = json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except RecursionError:
        raise SerializationError("$: not JSON: nested too deeply") from None
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, duplicate keys, NaN
        raise SerializationError(f"$: not JSON: {error}") from None
    return from_dict(document, type, check_history=check_history)


def _check_size(text: str | bytes | bytearray, max_bytes: int | None) -> None:
    """Refuse a document over ``max_bytes`` (its UTF-8 size) before parsing it."""
    if max_bytes is None:
        return
    if _builtin_type(max_bytes) is not int or max_bytes < 0:
        raise ArgumentTypeError(
            f"from_json: max_bytes must be a non-negative integer or None, got {short(max_bytes)}"
        )
    size = len(text)
    if isinstance(text, str) and size <= max_bytes < 4 * size and not text.isascii():
        size = len(text.encode("utf-8", "surrogatepass"))  # a character is 1 to 4 bytes
    if size > max_bytes:
        raise SerializationError(
            f"$: the document is over {max_bytes} bytes (from_json's max_bytes; "
            "limits.MAX_DOCUMENT_BYTES by default)"
        )


# --- what structure alone cannot see ----------------------------------------------------------


def _check(value: object, requested: object, check_history: bool) -> None:
    if requested in ACTION_TAGS and _builtin_type(value) is not requested:
        tag = ACTION_TAGS[_builtin_type(value)]
        wanted = ACTION_TAGS[requested]
        raise SerializationError(f"$.data.type: expected a {wanted!r} action, got {tag!r}")
    if requested in EVENT_TAGS and _builtin_type(value) is not requested:
        tag = EVENT_TAGS[_builtin_type(value)]
        wanted = EVENT_TAGS[requested]
        raise SerializationError(f"$.data.type: expected a {wanted!r} event, got {tag!r}")
    if isinstance(value, GameState):
        try:
            validate(value, history=check_history is not False)
        except InvalidStateError as error:
            path = f"$.data.{error.path}" if error.path else "$.data"
            raise SerializationError(f"{path}: {error.problem}") from None
        except RummyError as error:  # pragma: no cover - validate raises InvalidStateError
            raise SerializationError(f"$.data: {error}") from None
    elif _builtin_type(value) in ACTION_TAGS:
        seat = typing.cast(Action, value).seat
        if not 0 <= seat < limits.MAX_PLAYERS:
            raise SerializationError(f"$.data.seat: no seat {seat}")
        _check_bounds(value, "$.data")
    elif isinstance(value, PlayerView):
        _check_view(value)
        _check_bounds(value, "$.data")
    elif _builtin_type(value) in EVENT_TAGS:
        _check_bounds(value, "$.data")
    elif isinstance(value, DealResult):
        _check_result(value, "$.data")
    elif isinstance(value, GameRecord):
        _check_record(value)


def _check_bounds(value: object, path: str) -> None:
    """Refuse a field of ``value`` (walked through its attrs fields and sequences) outside
    the bounds the schema gives it (:mod:`.document_bounds`), as the schema refuses it."""
    cls = _builtin_type(value)
    if cls is Card or not attrs.has(cls):
        return
    for field in attrs.fields(cls):
        item = getattr(value, field.name)
        where = f"{path}.{field.name}"
        bounds = field_bounds(cls.__name__, field.name)
        if bounds is not None:
            _check_bound(item, bounds, where)
        if isinstance(item, tuple | SeenEvents):
            for index, inner in enumerate(item):
                _check_bounds(inner, f"{where}[{index}]")
        else:
            _check_bounds(item, where)


def _check_bound(item: object, bounds: dict[str, Any], where: str) -> None:
    if _builtin_type(item) is int:
        low, high = bounds.get("minimum"), bounds.get("maximum")
        if low is not None and item < low:
            raise SerializationError(f"{where}: must be at least {low}, got {item}")
        if high is not None and item > high:
            raise SerializationError(f"{where}: must be at most {high}, got {item}")
    elif isinstance(item, tuple | SeenEvents | str):
        size = len(item)
        kind = "characters" if isinstance(item, str) else "items"
        low = bounds.get("minLength" if kind == "characters" else "minItems")
        high = bounds.get("maxLength" if kind == "characters" else "maxItems")
        if low is not None and size < low:
            raise SerializationError(f"{where}: needs at least {low} {kind}, got {size}")
        if high is not None and size > high:
            raise SerializationError(f"{where}: holds at most {high} {kind}, got {size}")
        inner = bounds.get("items")
        if inner is not None and not isinstance(item, str):
            for index, each in enumerate(item):
                _check_bound(each, inner, f"{where}[{index}]")


def _check_view(seen: PlayerView) -> None:
    players = seen.num_players
    for name in ("hand_sizes", "down", "buys_used", "buys_left", "totals"):
        if len(getattr(seen, name)) != players:
            raise SerializationError(f"$.data.{name}: needs one entry per seat ({players})")
    if seen.seat is None:
        if seen.hand or seen.legal_actions:
            raise SerializationError("$.data.hand: a spectator's view (seat null) holds no hand")
    elif not 0 <= seen.seat < players:
        raise SerializationError(f"$.data.seat: no seat {seen.seat} among {players}")
    elif seen.hand_sizes[seen.seat] != len(seen.hand):
        raise SerializationError(
            f"$.data.hand_sizes[{seen.seat}]: the seat's hand holds {len(seen.hand)} cards"
        )
    for index, result in enumerate(seen.results):
        _check_result(result, f"$.data.results[{index}]")


def _check_result(result: DealResult, path: str) -> None:
    seats = [score.seat for score in result.seats]
    if seats != list(range(len(seats))):
        raise SerializationError(f"{path}.seats: needs one score per seat, in seat order")
    if result.winner is not None and not 0 <= result.winner < len(seats):
        raise SerializationError(f"{path}.winner: no seat {result.winner}")


def _check_record(game: GameRecord) -> None:
    variant = game.variant
    if not variant.min_players <= game.players <= variant.max_players:
        raise SerializationError(
            f"$.data.players: {variant.id!r} is for {variant.min_players}-"
            f"{variant.max_players} players, not {game.players}"
        )
    total = variant.total_deals(game.players)
    if game.deal_number is not None and not 1 <= game.deal_number <= total:
        raise SerializationError(
            f"$.data.deal_number: a game of {total} deals has no deal {game.deal_number}"
        )
    if game.stacked is not None and len(game.stacked.hands) != game.players:
        raise SerializationError(
            f"$.data.stacked.hands: needs one hand per seat ({game.players}), "
            f"got {len(game.stacked.hands)}"
        )
    for index, action in enumerate(game.actions):
        if not 0 <= action.seat < game.players:
            raise SerializationError(f"$.data.actions[{index}].seat: no seat {action.seat}")
