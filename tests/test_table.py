"""sr.Table (issue 25): seats of people and bots, whole games, events per seat, undo, resume."""

from __future__ import annotations

import random

import pytest

import shanghai_rummy as sr


def _person_move(table: sr.Table, rng: random.Random) -> tuple[int, sr.Action]:
    seat = table.to_act
    assert seat is not None and table.seats[seat] is None  # only people wait
    return seat, rng.choice(table.legal_actions(seat))


def _play_out(table: sr.Table, seed: int, limit: int = 20_000) -> list[sr.Event]:
    """Play the people's moves at random to the end; every seat's events, checked."""
    rng = random.Random(seed)
    seen: dict[int | None, list[sr.Event]] = {
        seat: list(table.events_since(seat, 0)) for seat in [*range(table.num_players), None]
    }
    for _ in range(limit):
        if table.is_over:
            break
        if table.to_act is None:  # the deal is over and the table waits
            table.next_deal()
            continue
        seat, action = _person_move(table, rng)
        before = table.event_count
        events = table.act(seat, action)
        assert events == table.events_since(seat, before)
        assert events[0].number == before and table.event_count == events[-1].number + 1
        for viewer, known in seen.items():
            known.extend(table.events_since(viewer, len(known)))
    assert table.is_over
    everything = list(table.events_since(None, 0))
    for viewer, known in seen.items():
        assert [event.number for event in known] == list(range(table.event_count))
        assert known == list(table.events_since(viewer, 0))  # step by step = all at once
        assert known == [sr.seen_by(event, viewer) for event in known]
        hidden = [e for e in known if isinstance(e, sr.Drew) and e.seat != viewer]
        assert hidden and all(event.card is None for event in hidden)
        own = [e for e in known if isinstance(e, sr.Drew) and e.seat == viewer]
        assert all(event.card is not None for event in own) and (viewer is None or own)
    return everything


@pytest.mark.parametrize(
    ("variant_id", "seats"),
    [
        ("shanghai", [None, "greedy", "greedy", None]),
        ("rummy51", [None, "random", "greedy"]),
        ("shanghai-wiki", [None, None]),
    ],
)
def test_whole_games_with_people_and_bots(variant_id: str, seats: list[str | None]) -> None:
    variant = sr.get_variant(variant_id)
    players: list[sr.Bot | None] = [
        None
        if kind is None
        else (sr.GreedyBot(variant) if kind == "greedy" else sr.RandomBot(seed=5))
        for kind in seats
    ]
    table = sr.Table(variant, players, seed=3, auto_next_deal=variant_id != "rummy51")
    events = _play_out(table, seed=1)
    assert isinstance(events[-1], sr.GameEnded)
    assert events[-1].outcome == table.state.outcome
    deals = [event for event in events if isinstance(event, sr.DealStarted)]
    assert len(deals) == variant.total_deals(len(seats))
    assert sr.replay(table.record()) == table.state


def test_a_table_of_bots_plays_itself_out() -> None:
    table = sr.Table("rummy51", [sr.GreedyBot(), sr.RandomBot(seed=2)], seed=8)
    assert table.is_over and table.to_act is None and table.legal_actions(0) == ()
    assert isinstance(table.events_since(0, table.event_count - 1)[0], sr.GameEnded)


def test_bot_moves_per_call_are_bounded() -> None:
    table = sr.Table("rummy51", [sr.GreedyBot(), sr.GreedyBot()], seed=8, max_bot_moves=5)
    assert not table.is_over and table.to_act is not None
    count = table.event_count
    table.play_bots()
    assert table.event_count > count


def test_moves_from_the_wrong_seat_are_refused_and_change_nothing() -> None:
    table = sr.Table("shanghai", [None, None, None], seed=2)
    state, count = table.state, table.event_count
    assert table.to_act == 1
    with pytest.raises(sr.NotYourTurnError, match="seat 1 is to act"):
        table.act(0, "draw")
    with pytest.raises(sr.NotYourTurnError, match="seat 0's, sent by seat 1"):
        table.act(1, sr.Draw(0, sr.Source.STOCK))
    with pytest.raises(sr.NotationError):
        table.act(1, "fly away")
    with pytest.raises(sr.IllegalMoveError):
        table.act(1, "discard KH")
    with pytest.raises(sr.RummyError, match="no seat 7"):
        table.act(7, "draw")
    assert table.state is state and table.event_count == count
    assert table.legal_actions(0) == () and table.legal_actions(1) == sr.legal_actions(state)


def test_each_seat_sees_its_own_stock_card_only() -> None:
    table = sr.Table("rummy51", [None, None], seed=4)
    seat = table.to_act
    assert seat == 1
    table.act(1, table.legal_actions(1)[-1])  # rummy51's starter discards first
    drew = table.act(0, "draw")[0]
    assert isinstance(drew, sr.Drew) and drew.card == table.state.hand(0)[-1]
    assert table.events_since(1, drew.number)[0] == sr.Drew(drew.number, 0, None)
    assert table.events_since(None, drew.number)[0].card is None  # type: ignore[union-attr]
    assert table.view(None).hand == () and table.view(None).seat is None


def test_waiting_for_the_next_deal() -> None:
    table = sr.Table("rummy51", [None, sr.GreedyBot()], seed=3, auto_next_deal=False)
    rng = random.Random(0)
    while table.to_act is not None:
        table.act(*_person_move(table, rng))
    assert table.state.phase is sr.Phase.DEAL_OVER
    with pytest.raises(sr.WrongPhaseError, match="deal is over"):
        table.act(0, "draw")
    events = table.next_deal()
    assert isinstance(events[0], sr.DealStarted) and events[0].deal_number == 2
    with pytest.raises(sr.WrongPhaseError):
        table.next_deal()


def test_undo_takes_back_a_seats_last_decision() -> None:
    table = sr.Table("shanghai", [sr.GreedyBot(), None, sr.GreedyBot()], seed=2, allow_undo=True)
    state, count = table.state, table.event_count
    table.act(1, "draw")
    table.undo(1)
    assert table.state == state and table.event_count == count
    with pytest.raises(sr.RummyError, match="no decision to take back"):
        table.undo(1)
    no_undo = sr.Table("shanghai", [None, None], seed=2)
    with pytest.raises(sr.RummyError, match="does not allow undo"):
        no_undo.undo(0)


def test_undo_is_refused_once_another_person_decided() -> None:
    table = sr.Table("shanghai", [None, None, None], seed=2, allow_undo=True)
    table.act(1, "take")
    table.act(1, table.legal_actions(1)[-1])
    seat = table.to_act
    assert seat is not None and seat != 1
    table.act(seat, table.legal_actions(seat)[0])
    with pytest.raises(sr.RummyError, match=f"seat {seat} has decided since"):
        table.undo(1)


def test_a_bot_takes_a_seat_and_gives_it_back() -> None:
    table = sr.Table("shanghai", [None, None], seed=5)
    seat = table.to_act
    assert seat is not None
    events = table.set_seat(seat, sr.GreedyBot())
    assert events and table.to_act != seat
    table.set_seat(seat, None)
    assert table.seats[seat] is None
    with pytest.raises(sr.RummyError, match="a person\\) or a bot"):
        table.set_seat(0, "greedy")  # type: ignore[arg-type]


def test_save_and_resume_through_a_record() -> None:
    table = sr.Table("rummy51", [None, sr.GreedyBot()], seed=6)
    rng = random.Random(3)
    for _ in range(40):
        if table.to_act is None:
            break
        table.act(*_person_move(table, rng))
    game = sr.from_json(sr.to_json(table.record()), sr.GameRecord)
    resumed = sr.Table.from_record(game, [None, sr.GreedyBot()])
    assert resumed.state == table.state
    assert resumed.events_since(0, 0) == table.events_since(0, 0)
    with pytest.raises(sr.RummyError, match="the record has 2 seats"):
        sr.Table.from_record(game, [None])


def test_a_table_from_a_stacked_state() -> None:
    variant = sr.get_variant("shanghai")
    state = sr.deal_from(variant, hands=[sr.parse_cards("8C 8D 8H"), sr.parse_cards("9H 9C 9D")])
    table = sr.Table(variant, [None, None], state=state)
    assert table.state is state and table.event_count == 1
    with pytest.raises(sr.RummyError, match="has 2 seats, not 3"):
        sr.Table(variant, [None, None, None], state=state)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(sr.RummyError, match="seats must be"):
        sr.Table("shanghai", "ab")  # type: ignore[arg-type]
    with pytest.raises(sr.RummyError, match="max_bot_moves"):
        sr.Table("shanghai", [None, None], max_bot_moves=-1)
    with pytest.raises(sr.RummyError, match="event number"):
        sr.Table("shanghai", [None, None]).events_since(0, -1)
