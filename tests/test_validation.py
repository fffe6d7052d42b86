"""validate(state) (issues 5 and 9): every invariant, the first broken one named."""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import pytest
from hypothesis import HealthCheck, given, settings

import shanghai_rummy as sr
from shanghai_rummy.engine.validation import event_chain_fits
from shanghai_rummy.events import chain_of
from shanghai_rummy.melds import MeldKind

from .games import dumps_checked_against_the_schema, reach, states


@pytest.fixture(autouse=True, scope="module")
def _every_dump_matches_the_schema() -> Iterator[None]:
    with dumps_checked_against_the_schema():
        yield


C = sr.Card.parse


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=states)
def test_reachable_states_are_valid(state: sr.GameState) -> None:
    sr.validate(state)


def broken(state: sr.GameState) -> sr.InvalidStateError:
    with pytest.raises(sr.InvalidStateError) as caught:
        sr.validate(state)
    assert isinstance(caught.value, sr.RummyError)
    return caught.value


@pytest.fixture
def fresh() -> sr.GameState:
    return sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)


@pytest.fixture(scope="module")
def later() -> sr.GameState:
    """A deal in play, after a finished deal, with melds of two seats on the table."""
    return reach(
        "shanghai",
        4,
        lambda state: (
            bool(state.results)
            and len({meld.owner for meld in state.table}) >= 2
            and state.to_act is not None
        ),
    )


def with_seat(state: sr.GameState, seat: int, **changes: object) -> sr.GameState:
    seats = list(state.seats)
    seats[seat] = attrs.evolve(seats[seat], **changes)
    return attrs.evolve(state, seats=tuple(seats))


# --- shape ---------------------------------------------------------------------------------


def test_shape(fresh: sr.GameState) -> None:
    error = broken(attrs.evolve(fresh, num_players=7))
    assert error.path == "num_players"
    assert broken(attrs.evolve(fresh, totals=(0, 0, 0))).path == "totals"
    assert broken(attrs.evolve(fresh, dealer=4)).path == "dealer"
    assert broken(attrs.evolve(fresh, deal_number=11)).path == "deal_number"
    assert broken(attrs.evolve(fresh, restocks=-1)).path == "restocks"
    assert broken(with_seat(fresh, 2, turns=-1)).path == "seats[2].turns"
    no_pile = attrs.evolve(fresh, discard_pile=(), stock=fresh.stock + fresh.discard_pile)
    assert broken(no_pile).path == "upcard_live"


# --- card conservation ---------------------------------------------------------------------


def test_missing_card(fresh: sr.GameState) -> None:
    error = broken(attrs.evolve(fresh, stock=fresh.stock[1:]))
    assert error.path == ""
    missing = f"missing from hands, stock, discard pile and table: 1 x {fresh.stock[0]}"
    assert error.problem == f"card conservation: {missing}"
    assert str(error).startswith("GameState (cards): card conservation")


def test_duplicated_card(fresh: sr.GameState) -> None:
    card = fresh.hand(0)[0]
    doubled = attrs.evolve(fresh, stock=fresh.stock + (card,) * 3)
    error = broken(doubled)
    assert error.path == "stock"
    held = sum(place.count(card) for place in (*fresh.hands, fresh.stock, fresh.discard_pile))
    assert error.problem.startswith(f"card conservation: the game holds {held + 3} x {card}")


def test_card_conservation_counts_the_table(later: sr.GameState) -> None:
    meld = later.table[0]
    table = (attrs.evolve(meld, cards=meld.cards + meld.cards[:1]), *later.table[1:])
    error = broken(attrs.evolve(later, table=table))
    assert "card conservation" in error.problem


# --- phase and seat to act -----------------------------------------------------------------


def test_draw_phase_seat(fresh: sr.GameState) -> None:
    error = broken(attrs.evolve(fresh, to_act=2))
    assert error.path == "to_act" and error.problem.startswith("phase and seat to act")
    assert broken(attrs.evolve(fresh, to_act=None)).path == "to_act"
    turn_state = attrs.evolve(fresh.turn_state, drawn=True)
    assert broken(attrs.evolve(fresh, turn_state=turn_state)).path == "turn_state.drawn"


def test_play_phase_needs_a_draw(fresh: sr.GameState) -> None:
    error = broken(attrs.evolve(fresh, phase=sr.Phase.PLAY))
    assert error.path == "turn_state.drawn"


def test_over_phases(fresh: sr.GameState, later: sr.GameState) -> None:
    error = broken(attrs.evolve(fresh, phase=sr.Phase.DEAL_OVER))
    assert error.path == "to_act"
    error = broken(attrs.evolve(fresh, phase=sr.Phase.DEAL_OVER, to_act=None))
    assert error.path == "results"
    over = later
    while over.phase is not sr.Phase.DEAL_OVER:
        over = sr.apply(over, sr.legal_actions(over)[0])
    sr.validate(over)
    assert broken(attrs.evolve(over, phase=sr.Phase.GAME_OVER)).path == "phase"


def test_buy_phase(fresh: sr.GameState) -> None:
    offered = sr.draw(fresh, 1, sr.Source.STOCK)
    assert offered.phase is sr.Phase.BUY
    sr.validate(offered)
    queue = offered.turn_state.buy_queue
    wrong = next(seat for seat in queue if seat != offered.to_act)
    assert broken(attrs.evolve(offered, to_act=wrong)).path == "to_act"
    dead = attrs.evolve(offered, upcard_live=False)
    assert broken(dead).path == "upcard_live"
    own = attrs.evolve(offered.turn_state, buy_queue=(queue[0], 1))
    assert broken(attrs.evolve(offered, turn_state=own)).path == "turn_state.buy_queue[1]"
    spent = with_seat(offered, queue[0], buys=3)
    assert broken(spent).path == "turn_state.buy_queue[0]"
    no_buying = sr.BuyRules(enabled=False, penalty_cards=0, limits=())
    variant = attrs.evolve(offered.variant, deals=offered.variant.deals[:4], buying=no_buying)
    assert broken(attrs.evolve(offered, variant=variant)).path == "phase"


# --- the table -----------------------------------------------------------------------------


def test_meld_stand_ins_must_match(later: sr.GameState) -> None:
    sr.validate(later)
    meld = later.table[0]
    if meld.kind is MeldKind.RUN:
        assert meld.start is not None
        forged = attrs.evolve(meld, start=meld.start + 1)
    else:
        forged = attrs.evolve(meld, rank=sr.Rank.TWO if meld.rank != sr.Rank.TWO else sr.Rank.THREE)
    error = broken(attrs.evolve(later, table=(forged, *later.table[1:])))
    assert error.path == "table[0]" and error.problem.startswith("table melds")


def test_meld_must_be_valid(later: sr.GameState) -> None:
    meld = later.table[0]
    reversed_meld = attrs.evolve(meld, cards=tuple(reversed(meld.cards)))
    if meld.kind is MeldKind.RUN:
        error = broken(attrs.evolve(later, table=(reversed_meld, *later.table[1:])))
        assert error.path == "table[0].cards" and "not valid under 'shanghai'" in error.problem


def test_meld_ids_and_owners(later: sr.GameState) -> None:
    meld = later.table[0]
    assert broken(attrs.evolve(later, next_meld_id=meld.id)).path == "table[0].id"
    if len(later.table) > 1:
        twice = (later.table[0], attrs.evolve(later.table[1], id=meld.id), *later.table[2:])
        assert broken(attrs.evolve(later, table=twice)).path == "table[1].id"
    assert broken(with_seat(later, meld.owner, down=False)).path == "table[0].owner"
    # a seat not down, and not one halfway through going down (that has other checks)
    idle = next(
        seat
        for seat in range(4)
        if not later.seats[seat].down and not (seat == later.turn and later.turn_state.going_down)
    )
    assert broken(with_seat(later, idle, down=True)).path == f"seats[{idle}].down"


# --- buys and totals -----------------------------------------------------------------------


def test_buy_limit(fresh: sr.GameState) -> None:
    error = broken(with_seat(fresh, 3, buys=4))
    assert error.path == "seats[3].buys"
    assert error.problem == "buy limit: 4 buys, but deal 1 allows 0 to 3 (variant.buying.limits)"
    late = attrs.evolve(fresh, deal_number=9, event_log=None)  # its events would say deal 1
    sr.validate(with_seat(late, 3, buys=4))  # 4 buys from deal 9


def test_totals(later: sr.GameState) -> None:
    totals = (later.totals[0] + 5, *later.totals[1:])
    error = broken(attrs.evolve(later, totals=totals))
    assert error.path == "totals" and error.problem.startswith("totals:")
    result = later.results[0]
    short = attrs.evolve(result, seats=result.seats[:-1])
    assert (
        broken(attrs.evolve(later, results=(short, *later.results[1:]))).path == "results[0].seats"
    )
    future = attrs.evolve(result, deal_number=later.deal_number + 1)
    error = broken(attrs.evolve(later, results=(future, *later.results[1:])))
    assert error.path.startswith("results")


def test_first_broken_invariant_is_named(fresh: sr.GameState) -> None:
    both = with_seat(attrs.evolve(fresh, stock=fresh.stock[1:]), 0, buys=9)
    assert broken(both).problem.startswith("card conservation")


# --- a move ---------------------------------------------------------------------------------


def in_play(fresh: sr.GameState) -> sr.GameState:
    """``fresh`` after the seat in turn drew from the stock."""
    state = sr.apply(fresh, sr.Draw(fresh.turn, sr.Source.STOCK))
    while state.phase is not sr.Phase.PLAY:  # nobody buys
        state = sr.apply(state, sr.PassBuy(state.to_act))
    return state


def test_an_obligation_the_seat_cannot_meet_is_refused(fresh: sr.GameState) -> None:
    state = in_play(fresh)
    assert sr.solve(state.hand(state.turn), sr.Contract(sets=(3, 3)), state.variant) is None
    owing = attrs.evolve(state.turn_state, must_go_down="a joker swap")
    error = broken(attrs.evolve(state, turn_state=owing))
    assert error.path == "turn_state.must_go_down"
    assert "no legal action" in error.problem and "'a joker swap'" in error.problem


def test_a_seat_to_act_without_a_legal_action_is_refused(fresh: sr.GameState) -> None:
    # one card left and no way to go down: going out by discarding is not allowed here
    state = in_play(fresh)
    assert state.variant.going_out is sr.GoOutDiscard.NEVER
    seat, hand = state.turn, state.hand(state.turn)
    hands = list(state.hands)
    hands[seat] = hand[:1]
    stuck = attrs.evolve(state, hands=tuple(hands), stock=(*hand[1:], *state.stock))
    assert sr.legal_actions(stuck) == ()
    error = broken(stuck)
    assert error.path == "to_act" and error.problem == f"a move: seat {seat} has no legal action"


# -- the event log, checked link by link from a head already found right ----------------------


def _played(steps: int) -> list[sr.GameState]:
    state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=4)
    played = [state]
    for step in range(steps):
        listed = sr.legal_actions(state)
        state = sr.apply(state, listed[(step * 7) % len(listed)])
        played.append(state)
    return played


def test_validating_each_move_checks_every_new_event() -> None:
    """A state validated after the one before it (whose event chain was found right) has
    only its new links checked: a forged link on top of a checked chain is still refused."""
    played = _played(40)
    for state in played:
        sr.validate(state)
    last = played[-1]
    assert last.event_log is not None
    head = last.event_log
    stale = attrs.evolve(last, event_log=(head, head[1], sr.PassedBuy, 1))  # number repeated
    assert "does not follow" in str(broken(stale))
    no_seat = attrs.evolve(last, event_log=(head, head[1] + 1, sr.PassedBuy, 7))
    assert "no seat 7" in str(broken(no_seat))


def test_a_checked_event_chain_is_checked_again_for_fewer_seats_and_another_deal() -> None:
    """What was found right of a chain holds only for its seat count and its deal: the same
    chain under two seats (a seat 2 in it) or in a later deal is refused."""
    last = _played(40)[-1]
    sr.validate(last)
    seats = {getattr(event, "seat", 0) for event in last.events}
    assert 2 in seats
    fewer = attrs.evolve(last, num_players=2)
    with pytest.raises(sr.InvalidStateError):
        sr.validate(fewer)
    assert not event_chain_fits(last.event_log, 2, last.deal_number)
    assert not event_chain_fits(last.event_log, 3, last.deal_number + 1)
    assert event_chain_fits(last.event_log, 3, last.deal_number)


def test_a_link_out_of_order_anywhere_in_a_checked_chain_is_refused() -> None:
    last = _played(30)[-1]
    sr.validate(last)
    events = list(last.events)
    for index in range(1, len(events)):
        forged = list(events)
        forged[index] = attrs.evolve(forged[index], number=forged[index - 1].number)
        assert "does not follow" in str(broken(attrs.evolve(last, event_log=chain_of(forged))))


def test_an_event_chain_link_that_is_not_an_event_is_refused() -> None:
    """A forged link of no event class, of the wrong size, with a number that is not an
    integer, or too short to be a link, is refused (naming the event), never a TypeError or
    an IndexError from making an event of it."""
    last = _played(10)[-1]
    head = last.event_log
    assert head is not None
    forged_chains = {
        r"events\[\d+\]: events: expected an event, got type": (head, 999, Junk, 1),
        "a PassedBuy of 3 fields, not 2": (head, 999, sr.PassedBuy, 1, 2),
        "expected an event number, got str": (head, "9", sr.PassedBuy, 1),
        r"events\[0\]: events: expected an event link": (None, 0),
        "expected an event, got list": ((None, 0, [], 1)),
    }
    for message, forged in forged_chains.items():
        with pytest.raises(sr.InvalidStateError, match=message):
            sr.validate(attrs.evolve(last, event_log=forged))
    sr.validate(attrs.evolve(last, event_log=(head, 999, sr.PassedBuy, 1)))


class Junk:
    """Not an event class."""
