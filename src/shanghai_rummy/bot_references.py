"""Bots named by reference, ``"package.module:ClassName"``, as ``--bots`` takes them: your own
bot class (see "Writing your own bot" in the docs) played by :func:`~shanghai_rummy.simulate.
simulate` and the command beside the built-in ``greedy`` and ``random``.

The class (or any callable) is called with the variant, and with ``seed=`` as well when it
takes a ``seed`` parameter (each seat of each game gets its own, derived from the game's
seed); what it returns must have a ``choose(view)`` method.

>>> import shanghai_rummy as sr
>>> bot = make_referenced_bot("shanghai_rummy.bots:GreedyBot", sr.get_variant("shanghai"), 7)
>>> type(bot).__name__
'GreedyBot'
>>> make_referenced_bot("shanghai_rummy.bots:CleverBot", sr.get_variant("shanghai"), 7)
Traceback (most recent call last):
...
shanghai_rummy.errors.RummyError: bot 'shanghai_rummy.bots:CleverBot': module ... has no 'CleverBot'
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from typing import Any, cast

from .bots import Bot
from .errors import RummyError
from .variants import Variant

__all__ = ["bot_factory", "is_bot_reference", "make_referenced_bot"]

_REFERENCE = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


def is_bot_reference(kind: str) -> bool:
    """Whether ``kind`` has the shape ``"module:Name"``."""
    return _REFERENCE.match(kind) is not None


def bot_factory(reference: str) -> Callable[..., Any]:
    """The class (or callable) ``"module:Name"`` names, imported; :class:`RummyError` saying
    what is wrong otherwise."""
    if not is_bot_reference(reference):
        raise RummyError(f"bot {reference!r}: a bot of your own is named 'module:ClassName'")
    module_name, _, name = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise RummyError(f"bot {reference!r}: cannot import {module_name!r}: {error}") from None
    target: Any = module
    for part in name.split("."):
        if not hasattr(target, part):
            raise RummyError(f"bot {reference!r}: module {module_name!r} has no {name!r}")
        target = getattr(target, part)
    if not callable(target):
        raise RummyError(f"bot {reference!r}: {name!r} is not a class or a function")
    return cast("Callable[..., Any]", target)


def _takes_seed(factory: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return False
    return "seed" in parameters


def make_referenced_bot(reference: str, variant: Variant, seed: int) -> Bot:
    """The bot ``reference`` names, built for ``variant`` (and ``seed``, when it takes one)."""
    factory = bot_factory(reference)
    try:
        bot = factory(variant, seed=seed) if _takes_seed(factory) else factory(variant)
    except RummyError:
        raise
    except Exception as error:
        raise RummyError(
            f"bot {reference!r}: building it with the variant failed: "
            f"{type(error).__name__}: {error}"
        ) from error
    if not callable(getattr(bot, "choose", None)):
        raise RummyError(f"bot {reference!r}: what it builds has no choose(view) method")
    return cast(Bot, bot)
