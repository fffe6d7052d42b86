"""Soak run: seeded random games in every preset, with about one attempt in five illegal.

Run: python benchmarks/soak.py [--actions 1000000] [--workers 2] [--illegal 0.2]
                              [--validate-every 1] [--seed 0] [--presets shanghai,rummy51]
                              [--variant-files examples/variants/liverpool.toml]
                              [--progress 60] [--json]
     python benchmarks/soak.py --game SEED/WORKER/INDEX   (replay one game of a run, same options)

Each worker plays games one after another (a preset in turn, a random seat count, a seeded
shuffle). At each decision it either applies one of ``legal_actions(state)`` (biased towards
melding and laying off, so deals end by going out) or, with probability ``--illegal``, makes
an attempt built to break a rule: the wrong seat, the wrong phase, a card not held, an
invalid group, a lay-off that does not fit, a swap with the wrong card, a buy out of turn,
over the limit or while down, a discard that breaks the going-out rule or an open
obligation, a go-out that does not go out, or a malformed value.

It checks that:

- every listed legal action is accepted;
- every refusal is an ``IllegalMoveError`` subclass and leaves the state as it was;
- an accepted attempt is a listed move (a meld up to the order of its groups and cards, a
  go-out when each of its pieces is listed in turn);
- ``validate(state)`` passes after every accepted action (or every N with --validate-every);
  after a breach caused by an attempt, play goes on from the state before it;
- no state ever has no legal action while a seat is to act.

Prints one JSON document of counts (``--json``: only that) and exits with status 1 if any
check failed. Every problem names the game (``--game`` replays it) and the step.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import random
import signal
import subprocess
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

import shanghai_rummy as sr
from shanghai_rummy.cards import make_pack
from shanghai_rummy.solver import canonical_groups

PROBLEM_SAMPLES = 5
"""How many examples of each kind of problem a worker keeps."""

PROGRESS_BIAS = 0.85
"""How often the legal policy picks a meld, lay-off or swap when one is listed."""


# --- illegal attempts ----------------------------------------------------------------------


def _other_seat(state: sr.GameState, rng: random.Random, seat: int | None) -> int:
    seats = [s for s in range(state.num_players) if s != seat] + [-1, state.num_players]
    return rng.choice(seats)


def _cards_not_held(state: sr.GameState, seat: int) -> list[sr.Card]:
    pack = state.variant.pack_size(state.num_players)
    held = set(state.hand(seat))
    return [card for card in set(make_pack(pack.decks, pack.jokers)) if card not in held]


def _any_card(state: sr.GameState, rng: random.Random, seat: int) -> sr.Card:
    hand = state.hand(seat)
    if hand and rng.random() < 0.8:
        return rng.choice(hand)
    missing = _cards_not_held(state, seat)
    return rng.choice(missing) if missing else sr.JOKER


def _meld_id(state: sr.GameState, rng: random.Random) -> int:
    if state.table and rng.random() < 0.9:
        return rng.choice(state.table).id
    return rng.choice((0, -1, state.next_meld_id, 10_000))


def wrong_seat(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """A listed action, made by another seat (or by a seat that does not exist)."""
    listed = sr.legal_actions(state)
    if not listed:
        return None
    action = rng.choice(listed)
    return attrs.evolve(action, seat=_other_seat(state, rng, action.seat))


def wrong_phase(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """A move of another phase, by the seat to act (or by the seat in turn)."""
    seat = state.to_act if state.to_act is not None else state.turn
    card = _any_card(state, rng, seat)
    by_phase: dict[sr.Phase, list[sr.Action]] = {
        sr.Phase.DRAW: [sr.Draw(seat, sr.Source.STOCK), sr.Draw(seat, sr.Source.DISCARD)],
        sr.Phase.BUY: [sr.Buy(seat), sr.PassBuy(seat)],
        sr.Phase.PLAY: [
            sr.Discard(seat, card),
            sr.LayOff(seat, card, _meld_id(state, rng)),
            sr.SwapJoker(seat, card, _meld_id(state, rng)),
            sr.Meld(seat, [state.hand(seat)[:3]]),
            sr.GoOut(seat, discard=card),
        ],
    }
    others = [
        action for phase, moves in by_phase.items() if phase is not state.phase for action in moves
    ]
    return rng.choice(others)


def card_not_held(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """A discard, lay-off, swap or meld using a card the seat does not hold."""
    seat = state.to_act
    if seat is None:
        return None
    missing = _cards_not_held(state, seat)
    if not missing:
        return None
    card = rng.choice(missing)
    hand = state.hand(seat)
    choices: list[sr.Action] = [
        sr.Discard(seat, card),
        sr.LayOff(seat, card, _meld_id(state, rng)),
        sr.SwapJoker(seat, card, _meld_id(state, rng)),
        sr.Meld(seat, [(card, *hand[:2])]),
    ]
    if hand:
        # a card held once, used twice
        choices.append(sr.Meld(seat, [(hand[0], hand[0], hand[0])]))
    return rng.choice(choices)


def invalid_group(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """Groups of held cards that are mostly not valid sets or runs, or do not meet the deal."""
    seat = state.to_act
    if seat is None:
        return None
    hand = list(state.hand(seat))
    if not hand:
        return sr.Meld(seat, [()])
    shape = rng.random()
    if shape < 0.1:
        return sr.Meld(seat, [])
    if shape < 0.2:
        return sr.Meld(seat, [hand[:2]])
    groups: list[list[sr.Card]] = []
    rng.shuffle(hand)
    while hand and len(groups) < rng.randint(1, 4):
        size = min(len(hand), rng.randint(3, 5))
        groups.append(hand[:size])
        hand = hand[size:]
    if rng.random() < 0.3 and groups:
        groups[0].reverse()  # a run in the wrong order
    return sr.Meld(seat, groups)


def bad_lay_off(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """A held card laid off where it does not fit, on a meld that does not exist, or at the
    wrong end."""
    seat = state.to_act
    if seat is None or not state.hand(seat):
        return None
    end = rng.choice((None, None, "low", "high", "set", "middle"))
    return sr.LayOff(seat, rng.choice(state.hand(seat)), _meld_id(state, rng), end)  # type: ignore[arg-type]


def bad_swap(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """A held card (or the joker) given for a joker it does not stand for."""
    seat = state.to_act
    if seat is None or not state.hand(seat):
        return None
    card = rng.choice((*state.hand(seat), sr.JOKER))
    with_jokers = [meld for meld in state.table if any(c.is_joker for c in meld.cards)]
    meld_id = rng.choice(with_jokers).id if with_jokers and rng.random() < 0.7 else None
    return sr.SwapJoker(seat, card, meld_id if meld_id is not None else _meld_id(state, rng))


def bad_buy(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """A buy or a pass out of turn: by a seat not offered the upcard (the one that discarded
    it, one over its limit or down), or when no offer is open."""
    seat = rng.randrange(state.num_players)
    if state.phase is sr.Phase.BUY:
        unoffered = [s for s in range(state.num_players) if s != state.to_act]
        seat = rng.choice(unoffered) if unoffered else seat
    return sr.Buy(seat) if rng.random() < 0.75 else sr.PassBuy(seat)


def bad_discard(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """A held card discarded when no discard of it is listed: the last card where going out
    needs a play, or with an obligation of the turn still open."""
    seat = state.to_act
    if seat is None or state.phase is not sr.Phase.PLAY:
        return None
    listed = {action.card for action in sr.legal_actions(state) if isinstance(action, sr.Discard)}
    refused = [card for card in state.hand(seat) if card not in listed]
    return sr.Discard(seat, rng.choice(refused)) if refused else None


def bad_go_out(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """A go-out made of listed pieces and random ones, which mostly leaves cards in hand."""
    seat = state.to_act
    if seat is None:
        return None
    hand = state.hand(seat)
    listed = sr.legal_actions(state)
    groups = [a.groups for a in listed if isinstance(a, sr.Meld)]
    lay_offs = [
        sr.PlannedLayOff(a.card, a.meld_id, a.end) for a in listed if isinstance(a, sr.LayOff)
    ]
    chosen_groups = rng.choice(groups) if groups and rng.random() < 0.7 else ()
    chosen_lay_offs = rng.sample(lay_offs, min(len(lay_offs), rng.randint(0, 2)))
    discard = rng.choice(hand) if hand and rng.random() < 0.6 else None
    return sr.GoOut(seat, chosen_groups, chosen_lay_offs, discard)


def malformed(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """Values of the wrong type where a caller ignored the annotations: a card code instead of
    a card, a source that is not a Source, a meld id that is a string."""
    seat = state.to_act if state.to_act is not None else 0
    code: Any = str(_any_card(state, rng, seat))  # deliberately not a Card
    stock: Any = "stock"
    choices: list[sr.Action] = [
        sr.Draw(seat, stock),
        sr.Discard(seat, code),
        sr.LayOff(seat, code, _meld_id(state, rng)),
        sr.LayOff(seat, _any_card(state, rng, seat), code),
        sr.SwapJoker(seat, code, _meld_id(state, rng)),
        sr.Meld(seat, [code]),
        sr.Meld(seat, [[code, code, code]]),
        sr.GoOut(seat, lay_offs=[sr.PlannedLayOff(code, _meld_id(state, rng))]),
    ]
    return rng.choice(choices)


def seat_not_an_int(state: sr.GameState, rng: random.Random) -> sr.Action | None:
    """A listed action whose seat is equal to the seat to act but is not an int: True or
    False for seats 1 and 0 (a bool is an int to the type checker), else a float."""
    listed = sr.legal_actions(state)
    if not listed:
        return None
    action = rng.choice(listed)
    seat: Any = bool(action.seat) if action.seat in (0, 1) else float(action.seat)
    return attrs.evolve(action, seat=seat)


Attempt = Callable[[sr.GameState, random.Random], "sr.Action | None"]

ILLEGAL_KINDS: dict[str, tuple[Attempt, float]] = {
    "wrong_seat": (wrong_seat, 1.0),
    "wrong_phase": (wrong_phase, 1.0),
    "card_not_held": (card_not_held, 1.0),
    "invalid_group": (invalid_group, 1.0),
    "bad_lay_off": (bad_lay_off, 1.0),
    "bad_swap": (bad_swap, 1.0),
    "bad_buy": (bad_buy, 1.0),
    "bad_discard": (bad_discard, 1.0),
    "bad_go_out": (bad_go_out, 1.0),
    "malformed": (malformed, 0.3),
    "seat_not_an_int": (seat_not_an_int, 0.1),
}

SIMPLE = (sr.Draw, sr.Buy, sr.PassBuy, sr.LayOff, sr.SwapJoker, sr.Discard)
"""Kinds of action legal_actions lists exhaustively: accepted means listed."""


def _listed(action: sr.Action, listed: Sequence[sr.Action]) -> bool:
    if action in listed:
        return True
    # a lay-off naming the one end that fits is the listed lay-off without an end
    return isinstance(action, sr.LayOff) and attrs.evolve(action, end=None) in listed


def snapshot(state: sr.GameState) -> tuple[Any, ...]:
    """The state's content as plain values (card codes, ints, strings), built afresh: equal
    snapshots before and after a refusal mean the refusal changed nothing."""

    def codes(held: Sequence[sr.Card]) -> tuple[str, ...]:
        return tuple(card.code for card in held)

    return (
        state.phase.value,
        state.to_act,
        state.turn,
        state.deal_number,
        state.dealer,
        tuple(codes(hand) for hand in state.hands),
        codes(state.stock),
        codes(state.discard_pile),
        state.upcard_live,
        tuple(
            (
                meld.id,
                meld.owner,
                meld.kind.value,
                codes(meld.cards),
                meld.rank,
                meld.suit,
                meld.start,
            )
            for meld in state.table
        ),
        tuple(attrs.astuple(facts) for facts in state.seats),
        attrs.astuple(state.turn_state),
        state.next_meld_id,
        state.restocks,
        state.turns_this_deal,
        tuple(state.totals),
        len(state.results),
        None if state.cut_card is None else state.cut_card.code,
        0 if state.log is None else state.log.length,
    )


def accepted_as_listed(state: sr.GameState, action: sr.Action, listed: Sequence[sr.Action]) -> bool:
    """Whether an accepted attempt is a move legal_actions offers, up to the forms apply also
    takes: a lay-off naming the only end that fits, groups in any order, and a go-out made of
    offered moves played one after another."""
    if isinstance(action, SIMPLE):
        return _listed(action, listed)
    if isinstance(action, sr.Meld):
        canon = canonical_groups(action.groups, state.variant)
        if state.is_down(action.seat):
            return all(sr.Meld(action.seat, (group,)) in listed for group in canon)
        return sr.Meld(action.seat, canon) in listed
    current = state
    if action.groups:
        piece: sr.Action = sr.Meld(action.seat, action.groups)
        if not accepted_as_listed(current, piece, listed):
            return False
        current = sr.apply(current, piece)
    for planned in action.lay_offs:
        piece = sr.LayOff(action.seat, planned.card, planned.meld_id, planned.end)
        if not _listed(piece, sr.legal_actions(current)):
            return False
        current = sr.apply(current, piece)
    if action.discard is not None:
        return sr.Discard(action.seat, action.discard) in sr.legal_actions(current)
    return True


# --- one worker ----------------------------------------------------------------------------


@attrs.define
class Tally:
    """The counts of one worker (merged across workers at the end)."""

    counts: Counter[str] = attrs.field(factory=Counter)
    refused: Counter[str] = attrs.field(factory=Counter)
    accepted_by_action: Counter[str] = attrs.field(factory=Counter)
    illegal_by_kind: Counter[str] = attrs.field(factory=Counter)
    problem_kinds: Counter[tuple[str, str]] = attrs.field(factory=Counter)
    by_preset: dict[str, Counter[str]] = attrs.field(factory=dict)
    problems: dict[str, list[dict[str, Any]]] = attrs.field(factory=dict)

    def problem(self, problem: str, /, **details: Any) -> None:
        self.counts[problem] += 1
        self.problem_kinds[problem, str(details.get("kind", "legal"))] += 1
        samples = self.problems.setdefault(problem, [])
        if len(samples) < PROBLEM_SAMPLES:
            samples.append(details)


@attrs.frozen
class Config:
    actions: int
    illegal: float
    validate_every: int
    seed: int
    presets: tuple[str, ...]
    """Preset ids, or paths of variant files (TOML or JSON), played in turn."""
    max_players: int
    progress: float = 0.0
    """Seconds between progress lines on stderr (0: none)."""
    exclude: tuple[str, ...] = ()
    """Kinds of illegal attempt not to make."""


_LOADED: dict[str, sr.Variant] = {}


def variant_named(name: str) -> sr.Variant:
    """A preset by id, or a variant file by path (loaded once per process)."""
    if name in sr.VARIANTS:
        return sr.get_variant(name)
    if name not in _LOADED:
        _LOADED[name] = sr.load_variant(Path(name))
    return _LOADED[name]


def game_setup(
    config: Config, worker: int, index: int
) -> tuple[sr.Variant, int, int, random.Random]:
    """The preset, seat count, game seed and policy RNG of game ``index`` of ``worker``."""
    rng = random.Random(f"soak/{config.seed}/{worker}/{index}")
    variant = variant_named(config.presets[(worker + index) % len(config.presets)])
    top = min(variant.max_players, max(variant.min_players, config.max_players))
    players = rng.randint(variant.min_players, top)
    return variant, players, rng.randrange(2**31), rng


def _choose_legal(listed: Sequence[sr.Action], rng: random.Random) -> sr.Action:
    progress = [a for a in listed if isinstance(a, (sr.Meld, sr.LayOff, sr.SwapJoker))]
    if progress and rng.random() < PROGRESS_BIAS:
        return rng.choice(progress)
    return rng.choice(listed)


def _illegal_attempt(
    state: sr.GameState, rng: random.Random, exclude: tuple[str, ...]
) -> tuple[str, sr.Action] | None:
    kinds = [kind for kind in ILLEGAL_KINDS if kind not in exclude]
    weights = [ILLEGAL_KINDS[kind][1] for kind in kinds]
    for _ in range(4):
        kind = rng.choices(kinds, weights)[0]
        action = ILLEGAL_KINDS[kind][0](state, rng)
        if action is not None:
            return kind, action
    return None


def play_game(config: Config, worker: int, index: int, tally: Tally, budget: int) -> int:
    """Play game ``index`` of ``worker`` until it ends or ``budget`` actions were tried;
    returns the number tried."""
    variant, players, game_seed, rng = game_setup(config, worker, index)
    where = {"game": f"{config.seed}/{worker}/{index}", "preset": variant.id, "players": players}
    preset = tally.by_preset.setdefault(variant.id, Counter())
    state = sr.new_game(variant, players=players, seed=game_seed)
    tally.counts["games_started"] += 1
    preset["games_started"] += 1
    tried = 0
    since_check = 0

    last_kind = "none"

    def check(step: int, action: object) -> bool:
        """Validate (every ``validate_every`` actions, and whenever a deal ends); False after
        a breach (every later state would repeat it: the caller rolls back or ends the game)."""
        nonlocal since_check
        since_check += 1
        if since_check < config.validate_every and state.to_act is not None:
            return True
        since_check = 0
        tally.counts["invariant_checks"] += 1
        try:
            sr.validate(state)
        except sr.RummyError as error:
            tally.problem(
                "invariant_breaches",
                **where,
                step=step,
                after=repr(action),
                kind=last_kind,
                error=str(error),
            )
            return False
        return True

    while tried < budget:
        if state.phase is sr.Phase.GAME_OVER:
            tally.counts["games_finished"] += 1
            preset["games_finished"] += 1
            break
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
            tally.counts["next_deal_calls"] += 1
            last_kind = "next_deal"
            if not check(tried, "next_deal"):
                break
            continue
        listed = sr.legal_actions(state)
        if not listed:
            tally.problem(
                "stuck_states", **where, step=tried, kind=last_kind, phase=state.phase.value
            )
            break
        tried += 1
        preset["actions_tried"] += 1
        attempt = (
            _illegal_attempt(state, rng, config.exclude) if rng.random() < config.illegal else None
        )
        if attempt is None:
            action = _choose_legal(listed, rng)
            last_kind = "legal"
            tally.counts["legal_tried"] += 1
            try:
                after = sr.apply(state, action)
            except Exception as error:
                tally.problem(
                    "legal_refused",
                    **where,
                    step=tried,
                    action=repr(action),
                    error=f"{type(error).__name__}: {error}",
                )
                break
        else:
            kind, action = attempt
            last_kind = kind
            tally.counts["illegal_tried"] += 1
            tally.illegal_by_kind[kind] += 1
            before = snapshot(state)
            try:
                after = sr.apply(state, action)
            except sr.IllegalMoveError as error:
                tally.refused[type(error).__name__] += 1
                tally.counts["refused"] += 1
                if snapshot(state) != before:
                    tally.problem(
                        "refusals_that_changed_state",
                        **where,
                        step=tried,
                        kind=kind,
                        action=repr(action),
                    )
                continue
            except Exception as error:
                tally.refused[type(error).__name__] += 1
                tally.counts["refused"] += 1
                tally.problem(
                    "unexpected_exceptions",
                    **where,
                    step=tried,
                    kind=kind,
                    action=repr(action),
                    error=f"{type(error).__name__}: {error}",
                    where_raised=traceback.format_exc(limit=-3).splitlines()[-6:],
                )
                continue
            if not accepted_as_listed(state, action, listed):
                tally.problem(
                    "illegal_accepted", **where, step=tried, kind=kind, action=repr(action)
                )
            tally.counts["accepted_from_illegal_generator"] += 1
        tally.counts["accepted"] += 1
        tally.accepted_by_action[type(action).__name__] += 1
        previous, state = state, after
        if not check(tried, action):
            if last_kind != "legal" and config.validate_every == 1:
                state = previous  # an attempt broke the game: play on from the last valid state
                tally.counts["breaches_rolled_back"] += 1
                continue
            tally.counts["games_ended_by_a_breach"] += 1
            break
        if state.phase in (sr.Phase.DEAL_OVER, sr.Phase.GAME_OVER):
            result = state.results[-1]
            tally.counts["deals_finished"] += 1
            preset["deals_finished"] += 1
            tally.counts["deals_won" if result.winner is not None else "deals_without_winner"] += 1
            if result.one_turn_out:
                tally.counts["one_turn_outs"] += 1
    return tried


def run_worker(args: tuple[Config, int, int]) -> Tally:
    config, worker, budget = args
    tally = Tally()
    index = 0
    total = budget
    start = last = time.perf_counter()
    while budget > 0:
        budget -= play_game(config, worker, index, tally, budget)
        index += 1
        now = time.perf_counter()
        if config.progress and (now - last >= config.progress or budget <= 0):
            last = now
            done = total - budget
            problems = sum(tally.counts[kind] for kind in PROBLEM_KINDS)
            print(
                f"soak worker {worker}: {done}/{total} actions, {index} games, "
                f"{problems} problems, {done / (now - start):.0f} actions/s",
                file=sys.stderr,
                flush=True,
            )
    return tally


# --- the report ----------------------------------------------------------------------------


def merge(tallies: Sequence[Tally]) -> Tally:
    total = Tally()
    for tally in tallies:
        total.counts.update(tally.counts)
        total.refused.update(tally.refused)
        total.accepted_by_action.update(tally.accepted_by_action)
        total.illegal_by_kind.update(tally.illegal_by_kind)
        total.problem_kinds.update(tally.problem_kinds)
        for preset, counts in tally.by_preset.items():
            total.by_preset.setdefault(preset, Counter()).update(counts)
        for kind, samples in tally.problems.items():
            total.problems.setdefault(kind, []).extend(samples[:PROBLEM_SAMPLES])
    return total


PROBLEM_KINDS = (
    "unexpected_exceptions",
    "invariant_breaches",
    "legal_refused",
    "illegal_accepted",
    "refusals_that_changed_state",
    "stuck_states",
)


def report(
    config: Config, workers: int, tally: Tally, seconds: float, source: dict[str, Any]
) -> dict[str, Any]:
    counts = tally.counts
    tried = counts["legal_tried"] + counts["illegal_tried"]
    return {
        "config": {
            "actions": config.actions,
            "illegal_fraction": config.illegal,
            "validate_every": config.validate_every,
            "seed": config.seed,
            "presets": list(config.presets),
            "max_players": config.max_players,
            "excluded_kinds": list(config.exclude),
            "workers": workers,
        },
        "actions": {
            "tried": tried,
            "legal_tried": counts["legal_tried"],
            "illegal_tried": counts["illegal_tried"],
            "accepted": counts["accepted"],
            "refused": counts["refused"],
            "accepted_from_illegal_generator": counts["accepted_from_illegal_generator"],
        },
        "refused_by_error": dict(tally.refused.most_common()),
        "illegal_attempts_by_kind": dict(sorted(tally.illegal_by_kind.items())),
        "accepted_by_action": dict(tally.accepted_by_action.most_common()),
        "deals": {
            "finished": counts["deals_finished"],
            "won": counts["deals_won"],
            "without_winner": counts["deals_without_winner"],
            "one_turn_outs": counts["one_turn_outs"],
            "next_deal_calls": counts["next_deal_calls"],
        },
        "games": {
            "started": counts["games_started"],
            "finished": counts["games_finished"],
            "ended_by_a_breach": counts["games_ended_by_a_breach"],
            "breaches_rolled_back": counts["breaches_rolled_back"],
        },
        "by_preset": {
            preset: dict(sorted(preset_counts.items()))
            for preset, preset_counts in sorted(tally.by_preset.items())
        },
        "invariant_checks": counts["invariant_checks"],
        "problems_by_kind_of_action": {
            problem: {
                kind: count
                for (name, kind), count in sorted(tally.problem_kinds.items())
                if name == problem
            }
            for problem in PROBLEM_KINDS
            if tally.counts[problem]
        },
        **{kind: counts[kind] for kind in PROBLEM_KINDS},
        "problems": tally.problems,
        "seconds": round(seconds, 1),
        "actions_per_second": round(tried / seconds, 1) if seconds else None,
        "python": platform.python_version(),
        "shanghai_rummy": sr.__version__,
        "source": source,
    }


def _source() -> dict[str, Any]:
    """The commit the engine was loaded from, and the files changed since (if a git checkout),
    read when the run starts."""
    root = Path(sr.__file__).resolve().parents[2]

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
        )
        return done.stdout.rstrip("\n")

    try:
        return {
            "commit": git("rev-parse", "HEAD"),
            "changed": git("status", "--short").splitlines(),
        }
    except (OSError, subprocess.CalledProcessError):
        return {}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=100_000, help="actions to try in all")
    parser.add_argument("--workers", type=int, default=1, help="processes to play in")
    parser.add_argument("--illegal", type=float, default=0.2, help="fraction of illegal attempts")
    parser.add_argument(
        "--validate-every", type=int, default=1, help="validate after every N accepted actions"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--presets", default=",".join(sr.VARIANTS), help="comma-separated ids")
    parser.add_argument(
        "--variant-files", default="", help="comma-separated variant files to play as well"
    )
    parser.add_argument("--max-players", type=int, default=6)
    parser.add_argument(
        "--progress", type=float, default=0.0, help="seconds between progress lines on stderr"
    )
    parser.add_argument(
        "--exclude-kinds",
        default="",
        help=f"comma-separated kinds of illegal attempt to skip, of: {', '.join(ILLEGAL_KINDS)}",
    )
    parser.add_argument("--game", help="replay one game, SEED/WORKER/INDEX, to its end")
    parser.add_argument("--json", action="store_true", help="print only the JSON document")
    options = parser.parse_args(argv)
    presets = tuple(name for name in options.presets.split(",") if name)
    presets += tuple(name for name in options.variant_files.split(",") if name)
    for name in presets:
        variant_named(name)
    config = Config(
        options.actions,
        options.illegal,
        max(1, options.validate_every),
        options.seed,
        presets,
        options.max_players,
        options.progress,
        tuple(kind for kind in options.exclude_kinds.split(",") if kind),
    )
    unknown = set(config.exclude) - set(ILLEGAL_KINDS)
    if unknown:
        parser.error(f"unknown kinds of illegal attempt: {', '.join(sorted(unknown))}")
    source = _source()
    # a terminated run stops its workers too (the pool's context manager terminates them)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if options.game:
        seed, worker, index = (int(part) for part in options.game.split("/"))
        config = attrs.evolve(config, seed=seed, validate_every=1)
        tally = Tally()
        start = time.perf_counter()
        play_game(config, worker, index, tally, sys.maxsize)
        document = report(config, 1, tally, time.perf_counter() - start, source)
    else:
        workers = max(1, options.workers)
        shares = [
            options.actions // workers + (w < options.actions % workers) for w in range(workers)
        ]
        start = time.perf_counter()
        if workers == 1:
            tallies = [run_worker((config, 0, shares[0]))]
        else:
            with multiprocessing.Pool(workers) as pool:
                tallies = pool.map(run_worker, [(config, w, shares[w]) for w in range(workers)])
        document = report(config, workers, merge(tallies), time.perf_counter() - start, source)
    if not options.json:
        print(
            f"soak: {document['actions']['tried']} actions in {document['seconds']} s",
            file=sys.stderr,
        )
    print(json.dumps(document, indent=2))
    return 1 if any(document[kind] for kind in PROBLEM_KINDS) else 0


if __name__ == "__main__":
    sys.exit(main())
