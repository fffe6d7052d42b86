"""Progressive contracts (issue 24, build 10): ``Variant.progression``. Each seat works on its
own level (``GameState.levels``), moves up after a deal in which it went down, and the game
ends when a seat completes the last level, or after ``deal_count`` deals. One test per
setting and decision, named for it."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

import shanghai_rummy as sr
from shanghai_rummy import cli, limits
from shanghai_rummy.levels import cards_dealt, completed, contract_number, requirement_of
from shanghai_rummy.simulate import deal_footer, deal_header

from .bot_games import bot_play, bot_state
from .games import assert_schema_valid
from .helpers import C, cards, stacked
from .positions import pass_offers

SHANGHAI = sr.get_variant("shanghai")
STOCK = sr.Source.STOCK
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "variants" / "progressive.toml"

LEVELS = (
    sr.DealSpec(requirement=sr.Contract(sets=(3, 3)), cards=10),
    sr.DealSpec(requirement=sr.Contract(sets=(3,), runs=(4,)), cards=11),
    sr.DealSpec(requirement=sr.Contract(runs=(4, 4)), cards=12),
)
CLIMBING = attrs.evolve(
    SHANGHAI,
    id="climbing",
    deals=LEVELS,
    deal_count=6,
    progression=sr.Progression.PER_SEAT,
)
"""Three levels (10, 11 and 12 cards), at most six deals."""

TWO_SETS_OF_FOUR = "8C 8D 8H 9C 9D 9H 9S"
"""With an 8S drawn: two sets of four, every card laid (going out under going_out=never)."""


def _seat_0_goes_out(
    levels: list[int], deal_number: int, hand: str, groups: list[str]
) -> sr.GameState:
    """Seat 0 (dealer 3, first to play) holds ``hand``, draws 8S from the stock and goes out
    by laying ``groups``, the seats on ``levels`` in deal ``deal_number``."""
    state = stacked(
        CLIMBING,
        {0: cards(hand)},
        upcard=C("KH"),
        stock_top=cards("8S"),
        size=9,
        dealer=3,
        deal_number=deal_number,
        levels=levels,
    )
    state = pass_offers(sr.draw(state, 0, STOCK))
    return sr.go_out(state, 0, groups=[cards(group) for group in groups])


# -- progression=per_deal: the default, every preset as before -------------------------------


@pytest.mark.parametrize("variant_id", sorted(sr.VARIANTS))
def test_progression_per_deal_is_every_presets_and_keeps_no_levels(variant_id: str) -> None:
    variant = sr.get_variant(variant_id)
    assert variant.progression is sr.Progression.PER_DEAL
    state = sr.new_game(variant, players=3, seed=4)
    assert state.levels == () and sr.view(state, 1).levels == ()
    assert contract_number(state, 2) == state.deal_number == 1
    assert requirement_of(state, 2) == variant.deal(1).requirement
    assert '"levels":[]' in sr.to_json(state)


# -- progression=per_seat: each seat on its own level -----------------------------------------


def test_progression_per_seat_starts_every_seat_on_level_one() -> None:
    state = sr.new_game(CLIMBING, players=4, seed=2)
    assert state.levels == (1, 1, 1, 1)
    assert all(requirement_of(state, seat) == LEVELS[0].requirement for seat in range(4))
    assert {len(state.hand(seat)) for seat in range(4)} == {10}


def test_progression_per_seat_gives_each_seat_the_contract_of_its_level() -> None:
    state = stacked(
        CLIMBING,
        {0: cards("8C 8D 8H 9C 9D 9H 5S 6S 7S 10C JD")},
        upcard=C("KH"),
        stock_top=cards("2C"),
        size=9,
        dealer=3,
        deal_number=3,
        levels=[3, 1, 2, 1],
    )
    assert [requirement_of(state, seat) for seat in range(4)] == [
        LEVELS[2].requirement,
        LEVELS[0].requirement,
        LEVELS[1].requirement,
        LEVELS[0].requirement,
    ]
    state = pass_offers(sr.draw(state, 0, STOCK))
    # two sets meet level 1, but seat 0 is on level 3: two runs of 4
    with pytest.raises(sr.ContractNotMetError):
        sr.meld(state, 0, [cards("8C 8D 8H"), cards("9C 9D 9H")])
    assert sr.Meld(0, (cards("8C 8D 8H"),)) not in sr.legal_actions(state)
    assert sr.view(state, 0).requirement == LEVELS[2].requirement
    assert sr.view(state, 1).requirement == LEVELS[0].requirement
    assert sr.view(state, None).requirement == LEVELS[2].requirement  # the seat in turn's


def test_progression_per_seat_moves_up_only_the_seats_that_went_down() -> None:
    over = _seat_0_goes_out([1, 1, 1, 1], 1, TWO_SETS_OF_FOUR, ["8C 8D 8H 8S", "9C 9D 9H 9S"])
    assert over.phase is sr.Phase.DEAL_OVER and over.levels == (1, 1, 1, 1)
    assert completed(over) == (1, 0, 0, 0)
    after = sr.next_deal(over)
    assert after.deal_number == 2 and after.levels == (2, 1, 1, 1)
    assert requirement_of(after, 0) == LEVELS[1].requirement
    assert requirement_of(after, 1) == LEVELS[0].requirement


def test_progression_per_seat_deals_the_cards_of_the_highest_level_a_seat_is_on() -> None:
    assert cards_dealt(CLIMBING, 4, (1, 1, 1)) == 10
    assert cards_dealt(CLIMBING, 4, (1, 3, 2)) == 12
    hand = "8C 8D 8H 5S 6S 7S 9S"  # with the 8S drawn: a set of 3 and a run of 5
    over = _seat_0_goes_out([2, 1, 1, 1], 2, hand, ["8C 8D 8H", "5S 6S 7S 8S 9S"])
    after = sr.next_deal(over)
    assert after.levels == (3, 1, 1, 1)
    hands = [len(after.hand(seat)) for seat in range(4)]
    assert hands == [12, 12, 12, 12]  # level 3's twelve cards, though three seats are on level 1


def test_progression_per_seat_ends_the_game_when_a_seat_completes_the_last_level() -> None:
    # seat 0 on the last level (two runs of 4) goes out in deal 3 of at most 6
    hand = "4C 5C 6C 7C 9S 10S JS"
    over = _seat_0_goes_out([3, 1, 2, 1], 3, hand, ["4C 5C 6C 7C", "8S 9S 10S JS"])
    assert over.phase is sr.Phase.GAME_OVER and over.deal_number == 3 < CLIMBING.deal_count
    outcome = over.outcome
    assert outcome is not None
    assert outcome.completed == (3, 0, 1, 0)
    assert outcome.winners == (0,) and outcome.placings[0] == 1
    with pytest.raises(sr.WrongPhaseError, match="game is over"):
        sr.next_deal(over)
    assert "Levels completed (of 3): seat 0 3, seat 1 0, seat 2 1, seat 3 0" in deal_footer(over)


def test_progression_per_seat_places_by_levels_completed_and_breaks_ties_by_score() -> None:
    # two seats complete the last level: the lower total wins; a seat with a lower total but
    # fewer levels completed is placed below them
    outcome = sr.Outcome.from_totals((120, 80, 10, 95), completed=(3, 3, 2, 3))
    assert outcome.winners == (1,)
    assert outcome.placings == (3, 1, 4, 2)
    assert outcome.standings == ((1,), (3,), (0,), (2,))
    tied = sr.Outcome.from_totals((80, 80, 10), completed=(3, 3, 1))
    assert tied.winners == (0, 1) and tied.is_tie and tied.placings == (1, 1, 3)
    assert sr.Outcome.from_totals((35, 20)).completed == ()  # without levels: by totals alone


def test_progression_per_seat_ends_the_game_after_deal_count_deals_if_nobody_finishes() -> None:
    # the sixth and last deal: seat 0 goes out on level 1, nobody completes the last level
    over = _seat_0_goes_out([1, 1, 1, 1], 6, TWO_SETS_OF_FOUR, ["8C 8D 8H 8S", "9C 9D 9H 9S"])
    assert over.phase is sr.Phase.GAME_OVER
    assert over.outcome is not None and over.outcome.completed == (1, 0, 0, 0)
    assert over.outcome.winners == (0,)


def test_progression_per_seat_needs_deal_count_of_one_deal_per_level_at_least() -> None:
    first = r"^Variant\.deal_count: progression=per_seat.*\(3 levels\)"
    with pytest.raises(sr.VariantError, match=first):
        attrs.evolve(CLIMBING, deal_count=None)
    with pytest.raises(sr.VariantError, match=r"^Variant\.deal_count: .*not 2$"):
        attrs.evolve(CLIMBING, deal_count=2)
    with pytest.raises(sr.VariantError, match="MAX_DEALS"):
        attrs.evolve(CLIMBING, deal_count=limits.MAX_DEALS + 1)
    assert attrs.evolve(CLIMBING, deal_count=3).total_deals(4) == 3


def test_progression_per_seat_refuses_a_level_with_its_own_packs_or_going_out() -> None:
    own_pack = (sr.PackSize(min_players=2, max_players=6, decks=3, jokers=4),)
    with pytest.raises(sr.VariantError, match=r"^Variant\.deals\[1\]\.packs: progression="):
        attrs.evolve(CLIMBING, deals=(LEVELS[0], attrs.evolve(LEVELS[1], packs=own_pack)))
    with pytest.raises(sr.VariantError, match=r"^Variant\.deals\[0\]\.going_out: progression="):
        attrs.evolve(CLIMBING, deals=(attrs.evolve(LEVELS[0], going_out=sr.GoOutDiscard.REQUIRED),))


def test_progression_per_seat_loads_from_a_file_and_round_trips() -> None:
    variant = sr.load_variant(
        {"base": "shanghai", "id": "climb", "progression": "per_seat", "deal_count": 12}
    )
    assert variant.progression is sr.Progression.PER_SEAT
    assert sr.variant_from_dict(sr.variant_to_dict(variant)) == variant
    assert sr.variant_to_dict(variant)["progression"] == "per_seat"
    with pytest.raises(sr.VariantError, match="progression"):
        sr.load_variant({"base": "shanghai", "id": "climb", "progression": "per_player"})


# -- the state's levels: checked, forged ones refused, shown in views and JSON ----------------


def test_levels_of_a_stacked_deal_are_checked() -> None:
    hands = [cards("8C"), cards("9C"), cards("10C")]
    with pytest.raises(sr.RummyError, match="from 1 to 2"):
        sr.deal_from(CLIMBING, hands=hands, deal_number=2, levels=[1, 3, 1])
    with pytest.raises(sr.RummyError, match="each of the 3 seats"):
        sr.deal_from(CLIMBING, hands=hands, deal_number=3, levels=[1, 2])
    with pytest.raises(sr.RummyError, match="only a variant with progressive contracts"):
        sr.deal_from(SHANGHAI, hands=hands, levels=[1, 1, 1])
    assert sr.deal_from(CLIMBING, hands=hands).levels == (1, 1, 1)


def test_forged_levels_are_refused() -> None:
    over = _seat_0_goes_out([1, 1, 1, 1], 1, TWO_SETS_OF_FOUR, ["8C 8D 8H 8S", "9C 9D 9H 9S"])
    state = sr.next_deal(over)
    assert state.levels == (2, 1, 1, 1)
    for forged, path in (
        ((2, 1, 1), "levels"),
        ((2, 3, 1, 1), r"levels\[1\]"),
        ((2, 0, 1, 1), r"levels\[1\]"),
    ):
        with pytest.raises(sr.InvalidStateError, match=path):
            sr.validate(attrs.evolve(state, levels=forged))
    with pytest.raises(sr.InvalidStateError, match="only progressive contracts"):
        sr.validate(attrs.evolve(sr.new_game(SHANGHAI, players=4, seed=1), levels=(1, 1, 1, 1)))
    # levels that keep every invariant but that the history did not make: the replay says so
    document = json.loads(sr.to_json(state))
    document["data"]["levels"] = [2, 2, 1, 1]
    with pytest.raises(sr.SerializationError, match="levels"):
        sr.from_json(json.dumps(document), sr.GameState)
    assert sr.from_json(sr.to_json(state), sr.GameState) == state


def test_views_and_json_show_every_seats_level() -> None:
    over = _seat_0_goes_out([1, 1, 1, 1], 1, TWO_SETS_OF_FOUR, ["8C 8D 8H 8S", "9C 9D 9H 9S"])
    state = sr.next_deal(over)
    for seat in (None, 0, 2):
        seen = sr.view(state, seat)
        assert seen.levels == (2, 1, 1, 1)
        document = json.loads(sr.to_json(seen))
        assert document["data"]["levels"] == [2, 1, 1, 1]
        assert_schema_valid(document)
        assert sr.from_json(sr.to_json(seen), sr.PlayerView).levels == seen.levels
    document = json.loads(sr.to_json(state))
    assert document["data"]["levels"] == [2, 1, 1, 1]
    assert_schema_valid(document)
    outcome = json.loads(sr.to_json(sr.Outcome.from_totals((5, 9), completed=(3, 2))))
    assert outcome["data"]["completed"] == [3, 2]
    assert_schema_valid(outcome)


def test_deal_headers_and_pictures_show_each_seats_level() -> None:
    over = _seat_0_goes_out([1, 1, 1, 1], 1, TWO_SETS_OF_FOUR, ["8C 8D 8H 8S", "9C 9D 9H 9S"])
    state = sr.next_deal(over)
    header = deal_header(state, hands=False)
    assert header[0].startswith("Deal 2 of at most 6: each seat on its level")
    assert header[1:] == [
        "  seat 0 on level 2: 1 set of 3 + 1 run of 4",
        "  seat 1 on level 1: 2 sets of 3",
        "  seat 2 on level 1: 2 sets of 3",
        "  seat 3 on level 1: 2 sets of 3",
    ]
    assert "level 2: 1 set of 3 + 1 run of 4" in state._repr_svg_()
    assert "level 1" in sr.view(state, 0)._repr_svg_()


# -- the example file, played to the end ------------------------------------------------------


def test_progressive_file_plays_to_the_end_by_bots() -> None:
    variant = sr.load_variant(EXAMPLE)
    assert variant.progression is sr.Progression.PER_SEAT and len(variant.deals) == 7
    for players, seed in ((4, 1), (3, 5)):
        state = bot_state(variant, players, seed, 50_000)
        assert state.is_over and state.outcome is not None
        assert len(state.results) == state.deal_number <= variant.deal_count
        done = state.outcome.completed
        assert max(done) == len(variant.deals) or state.deal_number == variant.deal_count
        assert state.outcome.winners == tuple(
            seat for seat, place in enumerate(state.outcome.placings) if place == 1
        )
        sr.validate(state, history=True)


def test_sampled_states_keep_every_seats_level() -> None:
    variant = sr.load_variant(EXAMPLE)
    sampled = 0
    for state in bot_play(variant, 4, 1, 3_000):
        if state.to_act is None or len(set(state.levels)) < 2 or state.phase is not sr.Phase.DRAW:
            continue
        seen = sr.view(state, state.to_act)
        sample = sr.sample_state(seen, seed=sampled, variant=variant)
        assert sample.levels == state.levels and sr.view(sample, seen.seat) == seen
        sampled += 1
        if sampled == 3:
            break
    assert sampled == 3


def test_an_outcome_needs_one_completed_count_per_seat() -> None:
    with pytest.raises(sr.RummyError, match="1 levels completed for 2 seats"):
        sr.Outcome((5, 9), (0,), (3,))
    document = json.loads(sr.to_json(sr.Outcome.from_totals((5, 9), completed=(3, 2))))
    document["data"]["completed"] = [1]
    with pytest.raises(sr.SerializationError, match=r"completed: 1 levels completed for 2 seats"):
        sr.from_json(json.dumps(document), sr.Outcome)


def test_the_variants_command_shows_the_levels_of_progressive_contracts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["variants", str(EXAMPLE)]) == 0
    text = capsys.readouterr().out
    rows = dict(line.split("  ", 1) for line in text.splitlines() if "  " in line)
    rows = {key: value.strip() for key, value in rows.items()}
    assert rows["level 7"] == "12 cards; 3 runs of 4"
    assert rows["most deals in a game"] == "16"
    assert "deal 1" not in rows
