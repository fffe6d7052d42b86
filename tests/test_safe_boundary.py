"""Issue 21: safe to embed. One test per finding of the issue, named after it, with its input:
every input bounded, every loader fast, every forged state refused, one error hierarchy."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy import limits
from shanghai_rummy.solver._card_counts import count_cards
from shanghai_rummy.solver._general_walk import every_way
from shanghai_rummy.solver._variant_rules import rules_of

SHANGHAI = sr.get_variant("shanghai")
RUMMY51 = sr.get_variant("rummy51")


def variant_document(**changes: object) -> str:
    document = sr.to_dict(SHANGHAI)
    document["data"].update(changes)
    return json.dumps(document)


# --- finding 2: a huge max_players hung every loader --------------------------------------


@pytest.mark.parametrize("digits", [7, 9, 5000])
def test_finding_02_huge_max_players_is_refused_before_any_loop(digits: int) -> None:
    seats = 10**digits
    with pytest.raises(
        sr.VariantError, match=r"Variant.max_players: must be an integer from 2 to 10"
    ):
        attrs.evolve(SHANGHAI, max_players=seats)
    with pytest.raises(sr.VariantError, match=r"packs\[0\].max_players: .*limits.MAX_PLAYERS"):
        attrs.evolve(
            SHANGHAI, packs=(sr.PackSize(min_players=2, max_players=seats, decks=2, jokers=2),)
        )
    if digits < 4000:  # json.dumps refuses an int past 4,300 digits itself
        text = variant_document(max_players=seats)
        with pytest.raises(sr.SerializationError, match=r"\$.data.max_players: must be an"):
            sr.from_json(text, sr.Variant)


# --- finding 3: no upper bound on decks or jokers ------------------------------------------


@pytest.mark.parametrize(
    ("decks", "jokers", "field"),
    [
        (10**6, 2, "decks"),
        (10**7, 2, "decks"),
        (10**12, 2, "decks"),
        (2, 10**12, "jokers"),
        (5, 2, "decks"),
        (2, 9, "jokers"),
    ],
)
def test_finding_03_decks_and_jokers_have_a_maximum(decks: int, jokers: int, field: str) -> None:
    pack = sr.PackSize(min_players=2, max_players=6, decks=decks, jokers=jokers)
    with pytest.raises(sr.VariantError, match=rf"Variant.packs\[0\].{field}: .*limits.MAX_"):
        attrs.evolve(SHANGHAI, packs=(pack,))


def test_finding_03_a_4300_digit_deck_count_is_a_variant_error() -> None:
    pack = sr.PackSize(min_players=2, max_players=6, decks=10**4400, jokers=2)
    with pytest.raises(sr.VariantError, match=r"decks: must be an integer .* got an integer of"):
        attrs.evolve(SHANGHAI, packs=(pack,))


def test_finding_03_the_largest_pack_allowed_plays() -> None:
    pack = sr.PackSize(min_players=2, max_players=10, decks=limits.MAX_DECKS, jokers=8)
    widest = attrs.evolve(SHANGHAI, id="widest", max_players=10, packs=(pack,))
    state = sr.new_game(widest, players=limits.MAX_PLAYERS, seed=1)
    assert sum(map(len, state.hands)) + state.stock_size + 1 == 52 * 4 + 8
    sr.validate(state)


# --- finding 4: accepted variants made legal_actions take seconds ---------------------------


def test_finding_04_thirty_cards_with_extra_groups_is_refused() -> None:
    document = {
        "base": "shanghai",
        "deals": [{"cards": 30, "requirement": {"kind": "contract", "sets": [3, 3]}}],
        "going_down": {"exact_meld_count": False},
    }
    with pytest.raises(sr.VariantError, match=r"deals\[0\].cards: .*limits.MAX_CARDS_DEALT"):
        sr.load_variant(document)
    # within MAX_CARDS_DEALT, the hand a buyer can reach is still bounded where extra groups
    # may join the contract's
    document["deals"] = [{"cards": 15, "requirement": {"kind": "contract", "sets": [3, 3]}}]
    with pytest.raises(sr.VariantError, match=r"limits.MAX_OPEN_ENDED_HAND_CARDS"):
        sr.load_variant(document)


def test_finding_04_groups_of_two_are_refused() -> None:
    document = {
        "base": "shanghai",
        "melds": {"set_min": 2, "run_min": 2},
        "deals": [{"cards": 11, "requirement": {"kind": "contract", "sets": [2], "runs": [2]}}],
    }
    with pytest.raises(sr.VariantError, match=r"melds.set_min: must be an integer from 3"):
        sr.load_variant(document)


def test_finding_04_contract_groups_and_sizes_have_maxima() -> None:
    with pytest.raises(sr.VariantError, match=r"Contract: at most 6 groups"):
        sr.Contract(sets=(3, 3, 3, 3), runs=(4, 4, 4))
    with pytest.raises(sr.VariantError, match=r"Contract.runs: .*at most 14"):
        sr.Contract(runs=(100,))


# --- finding 5: a variant dealing 300 cards ----------------------------------------------


def test_finding_05_a_variant_dealing_300_cards_is_refused() -> None:
    deal = sr.DealSpec(requirement=sr.Contract(sets=(3, 3)), cards=300)
    with pytest.raises(sr.VariantError, match=r"deals\[0\].cards: must be an integer from 1 to 15"):
        attrs.evolve(SHANGHAI, deals=(deal,))


# --- finding 11: attrs.evolve did not check the policy fields -------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"melds": attrs.evolve(SHANGHAI.melds, aces="high")},
            r"Variant.melds.aces: expected Aces",
        ),
        (
            {"scoring": attrs.evolve(SHANGHAI.scoring, values=None)},
            r"Variant.scoring.values: expected CardValues, got NoneType",
        ),
        ({"packs": None}, r"Variant.packs: expected a tuple"),
        ({"packs": list(SHANGHAI.packs)}, r"Variant.packs: expected a tuple"),
        ({"deals": list(SHANGHAI.deals)}, r"Variant.deals: expected a tuple"),
        (
            {"buying": attrs.evolve(SHANGHAI.buying, limits=[[1, 3]])},
            r"Variant.buying.limits: expected a tuple",
        ),
        (
            {"buying": attrs.evolve(SHANGHAI.buying, limits=((1, 3, 4),))},
            r"Variant.buying.limits\[0\]: expected 2 items",
        ),
        ({"going_out": "never"}, r"Variant.going_out: expected GoOutDiscard"),
        ({"melds": None}, r"Variant.melds: expected MeldRules"),
        (
            {"going_down": attrs.evolve(SHANGHAI.going_down, exact_meld_count=1)},
            r"exact_meld_count: expected bool, got int 1",
        ),
        ({"min_players": True}, r"Variant.min_players: expected int, got bool"),
        ({"name": "\ud800"}, r"Variant.name: holds a lone surrogate"),
    ],
)
def test_finding_11_evolve_checks_every_policy_field(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(sr.VariantError, match=message):
        attrs.evolve(SHANGHAI, **changes)


def test_finding_11_a_checked_variant_is_hashable_and_equal_to_its_round_trip() -> None:
    house = attrs.evolve(
        SHANGHAI, id="house", buying=attrs.evolve(SHANGHAI.buying, limits=((1, 2),))
    )
    assert hash(house) == hash(sr.from_json(sr.to_json(house), sr.Variant))
    assert sr.from_json(sr.to_json(house), sr.Variant) == house


# --- finding 17: no turn limit from files -------------------------------------------------


def test_finding_17_turn_limit_none_from_a_file_is_refused() -> None:
    with pytest.raises(sr.VariantError, match=r"Variant.stock.turn_limit: expected an integer"):
        sr.load_variant({"base": "shanghai", "stock": {"turn_limit": "none"}})
    with pytest.raises(sr.VariantError, match=r"stock.turn_limit: .*limits.MAX_TURN_LIMIT"):
        sr.load_variant({"base": "shanghai", "stock": {"turn_limit": 10**6}})


# --- every maximum named in one module ------------------------------------------------------


def test_every_preset_fits_within_the_maxima_with_its_largest_hand() -> None:
    for variant in sr.VARIANTS.values():
        assert variant.max_players <= limits.MAX_PLAYERS
        for pack in variant.packs:
            assert pack.decks <= limits.MAX_DECKS and pack.jokers <= limits.MAX_JOKERS
        assert all(deal.cards <= limits.MAX_CARDS_DEALT for deal in variant.deals)


# --- finding 1: a small forged state stalled from_json (validate listed every going down) --


def counting(monkeypatch: pytest.MonkeyPatch, name: str, module: Any = None) -> list[int]:
    """The sizes of the listings the function ``name`` of the engine makes:
    ``list_actions`` (legal actions, :mod:`shanghai_rummy.engine.phases`) or
    ``group_options`` (single groups toward a going down, as the play listing calls it); or
    of ``module``'s function ``name``."""
    from shanghai_rummy.engine import phases, playing

    sizes: list[int] = []
    if module is None:
        module = phases if name == "list_actions" else playing
    listing = getattr(module, name)

    def counted(*args: Any, **named: Any) -> Any:
        listed = listing(*args, **named)
        sizes.append(len(listed))
        return listed

    monkeypatch.setattr(module, name, counted)
    return sizes


def test_finding_01_a_forged_32_card_hand_is_refused_without_listing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = sr.new_game(RUMMY51, players=2, seed=3)
    seat = state.to_act
    assert seat is not None
    jokers = [card for card in state.stock if card.is_joker]
    moved = [*jokers, *[card for card in state.stock if not card.is_joker][: 17 - len(jokers)]]
    stock = list(state.stock)
    for card in moved:
        stock.remove(card)
    hands = list(state.hands)
    hands[seat] = hands[seat] + tuple(moved)
    forged = attrs.evolve(state, hands=tuple(hands), stock=tuple(stock))
    text = sr.to_json(forged)
    assert len(hands[seat]) == 32 and len(text) < 4000
    calls = counting(monkeypatch, "list_actions")
    with pytest.raises(sr.SerializationError, match=r"hands\[1\]: shape: 32 cards, but a hand"):
        sr.from_json(text, sr.GameState)
    assert calls == []  # refused before any listing


def test_finding_01_the_largest_hand_is_checked_for_a_move_without_listing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the starter's 15 cards with all 4 jokers, runs and sets: thousands of ways to open
    hand = sr.parse_cards("JK JK JK JK 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    state = sr.deal_from(RUMMY51, hands=[sr.parse_cards("2C 2D"), hand])
    assert state.phase is sr.Phase.PLAY and len(state.hand(1)) == 15
    calls = counting(monkeypatch, "group_options")
    sr.validate(state)
    assert sr.from_json(sr.to_json(state), sr.GameState) == state
    assert calls == []  # no listing of the single groups toward a going down
    # an obligation to go down it cannot meet is still refused, by one search
    stuck = attrs.evolve(
        sr.deal_from(RUMMY51, hands=[sr.parse_cards("2C 2D"), sr.parse_cards("2H 5S 9D KC")]),
        turn_state=attrs.evolve(state.turn_state, must_go_down="took the upcard"),
    )
    with pytest.raises(sr.InvalidStateError, match=r"turn_state.must_go_down: a move: seat 1"):
        sr.validate(stuck)
    assert calls == []


def _largest_wiki_hand() -> sr.GameState:
    """Deal 10 of shanghai-wiki (three runs), 6 seats: seat 1 holds a 24-card hand
    (limits.MAX_HAND_CARDS) with all 6 jokers, as play reaches it (its 11 cards and 4 buys),
    and has drawn; it lists 6,101 single groups. Built, not played: no history."""
    wiki = sr.get_variant("shanghai-wiki")
    bought = sr.parse_cards("JK JK JK JK JK JK 3S 4S 5S 6S 7S 8S")  # 4 buys of 3 cards
    dealt = sr.parse_cards("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    state = sr.deal_from(
        wiki,
        hands=[sr.parse_cards(f"{rank}C {rank}D") for rank in "234567"],
        stock_top=(*bought, *dealt),
        deal_number=10,
    )
    hands = list(state.hands)
    hands[1] = (*dealt, *bought, sr.Card.parse("9S"))
    stock = list(state.stock[len(bought) + len(dealt) :])
    stock.remove(sr.Card.parse("9S"))
    stock.extend(state.hands[1])
    seats = list(state.seats)
    seats[1] = attrs.evolve(seats[1], buys=4)
    return attrs.evolve(
        state,
        hands=tuple(hands),
        stock=tuple(stock),
        seats=tuple(seats),
        phase=sr.Phase.PLAY,
        turn_state=attrs.evolve(state.turn_state, drawn=True),
        event_log=None,
    )


@pytest.mark.interpreted
def test_finding_01_validate_does_not_list_the_thousands_of_groups_of_six_jokers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forged = _largest_wiki_hand()
    assert len(forged.hand(1)) == limits.MAX_HAND_CARDS
    calls = counting(monkeypatch, "group_options")
    sr.validate(forged)
    assert calls == []
    assert len(sr.legal_actions(forged)) > 5000 and calls  # what validate does not list


def test_finding_01_a_forged_state_owing_a_swapped_joker_is_refused_by_its_history_unsearched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # owing a swapped joker (jokers_to_meld), the move check would search every way of the
    # 24 cards; from_json replays the history first, and a state reached by legal moves
    # always has one, so a forgery is refused by its replay and nothing is searched
    from shanghai_rummy.engine import validation

    owing = _largest_wiki_hand()
    owing = attrs.evolve(owing, turn_state=attrs.evolve(owing.turn_state, jokers_to_meld=1))
    searched: list[sr.GameState] = []
    search = validation.has_legal_action

    def recorded(state: sr.GameState) -> bool:
        searched.append(state)
        return search(state)

    monkeypatch.setattr(validation, "has_legal_action", recorded)
    with pytest.raises(
        sr.SerializationError, match=r"history: the stacked deal and the history replay to another"
    ):
        sr.from_json(sr.to_json(owing), sr.GameState)
    assert owing not in searched  # (the replay checks the stacked deal it starts from)
    played = sr.new_game(sr.get_variant("shanghai"), players=3, seed=1)
    assert sr.from_json(sr.to_json(played), sr.GameState) == played
    assert played not in searched


def test_finding_01_validate_without_its_history_of_the_forged_state_owing_swapped_jokers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # without its history the move check runs: one search for a way holding the jokers
    # owed (not a reading of every way of the 24 cards, minutes cold), asked cold
    from shanghai_rummy import solver
    from shanghai_rummy.caches import clear_caches

    base = _largest_wiki_hand()
    walks = counting(monkeypatch, "every_way", solver)
    for owed in (1, 6):  # all 6 jokers held fit in its three runs
        owing = attrs.evolve(base, turn_state=attrs.evolve(base.turn_state, jokers_to_meld=owed))
        clear_caches()
        sr.validate(owing)
        assert sr.from_json(sr.to_json(owing), sr.GameState, check_history=False) == owing
    assert len(walks) <= 8  # a few first-only walks of what the half-laid groups leave
    clear_caches()
    seventh = attrs.evolve(base, turn_state=attrs.evolve(base.turn_state, jokers_to_meld=7))
    with pytest.raises(sr.InvalidStateError, match=r"cannot meet turn_state\.jokers_to_meld=7"):
        sr.validate(seventh)
    hand, wiki = base.hand(1), base.variant
    three_runs = wiki.deal(10).requirement
    assert solver.complete(hand, three_runs, wiki, jokers_at_least=6) is not None
    assert solver.complete(hand, three_runs, wiki, jokers_at_least=7) is None


_BRUTE_VARIANTS = [
    (SHANGHAI, 7),
    (sr.get_variant("shanghai-wiki"), 3),
    (sr.get_variant("shanghai-camping"), 5),
    (RUMMY51, 1),
    (
        sr.load_variant(
            {
                "base": "shanghai",
                "jokers": {"at_most_naturals": False, "going_down_per_group": 2},
                "going_down": {"exact_sizes": True},
            }
        ),
        2,
    ),
]
_BRUTE_POOL = sr.parse_cards("8C 8D 8H 8S 9C 9D 4S 5S 6S 7S 3S 4H 5H 6H 7H JK JK JK JK")


@settings(max_examples=30, deadline=None)
@given(
    case=st.sampled_from(range(len(_BRUTE_VARIANTS))),
    seed=st.integers(min_value=0, max_value=10_000),
    size=st.integers(min_value=6, max_value=10),
    owed=st.integers(min_value=1, max_value=4),
)
def test_finding_01_the_jokers_owed_and_turn_end_searches_agree_with_every_way(
    case: int, seed: int, size: int, owed: int
) -> None:
    """A way holding the jokers owed (around a group laid, or none), and a way leaving no
    card or at least two (going_out=never), are found exactly where the listing of every
    way holds one."""
    from shanghai_rummy import solver
    from shanghai_rummy.engine import play_rules
    from shanghai_rummy.melds import check_group

    variant, deal = _BRUTE_VARIANTS[case]
    requirement = variant.deal(deal).requirement
    rng = random.Random(seed)
    hand = rng.sample(_BRUTE_POOL, size)
    ends = play_rules.going_down_turn_end(variant, deal) or (lambda left: True)
    ways = solver.arrangements(hand, requirement, variant)
    expected = any(
        sum(group.count(sr.JOKER) for group in way) >= owed and ends(size - sum(map(len, way)))
        for way in ways
    )
    assert play_rules.can_go_down_with_jokers(variant, deal, hand, owed) == expected, hand
    found = solver.complete(hand, requirement, variant, leaves=ends, jokers_at_least=owed)
    assert (found is not None) == expected
    if found is not None:
        solver.check_going_down(found, requirement, variant)
        assert sum(group.count(sr.JOKER) for group in found) >= owed
    for group in solver.possible_groups(hand, variant)[:: max(1, size // 2)][:4]:
        rest = list(hand)
        for card in group:
            rest.remove(card)
        laid = [check_group(group, variant)]
        completed = solver.complete(
            rest, requirement, variant, laid, leaves=ends, jokers_at_least=owed
        )
        with_group = any(
            group in way
            and sum(other.count(sr.JOKER) for other in way) - group.count(sr.JOKER) >= owed
            and ends(size - sum(map(len, way)))
            for way in ways
        )
        assert (completed is not None) == with_group, (group, hand)
    # the walk itself, which the quick tries before it mostly spare (see below)
    counts, jokers = count_cards(hand)
    rules = rules_of(variant)
    walked = every_way(
        counts, jokers, requirement, rules, first_only=True, leaves=ends, jokers_at_least=owed
    )
    assert bool(walked) == expected, hand
    for leaves, bounds in (
        (lambda left: left == 0, {"most_left": 0}),
        (lambda left: left >= 2, {"least_left": 2}),
    ):
        listed = any(leaves(size - sum(map(len, way))) for way in ways)
        assert solver.way_leaving(hand, requirement, variant, leaves, **bounds) == listed, hand
        counts, jokers = count_cards(hand)
        walked = every_way(
            counts, jokers, requirement, rules, first_only=True, leaves=leaves, **bounds
        )
        assert bool(walked) == listed, hand


@pytest.mark.interpreted
@pytest.mark.parametrize(
    ("case", "hand", "owed"),
    [
        (3, "8D 7S 4H 8C JK JK 5S 9D 6H JK 6S", 3),  # rummy51: a way of three groups
        (3, "JK JK 8H 7H 8S 8D JK 4S 6H 4H", 2),
        (4, "JK 7S 5S 4S JK JK 8S JK", 4),  # exact sizes: no way holds four
        (1, "6H 3S JK 6S 8S 7H 8H 5H JK", 2),  # shanghai-wiki: none holds two
    ],
)
def test_finding_01_where_the_quick_tries_fail_the_walk_answers_as_every_way(
    case: int, hand: str, owed: int
) -> None:
    from shanghai_rummy import solver
    from shanghai_rummy.caches import clear_caches
    from shanghai_rummy.engine import play_rules

    variant, deal = _BRUTE_VARIANTS[case]
    requirement = variant.deal(deal).requirement
    cards = sr.parse_cards(hand)
    ends = play_rules.going_down_turn_end(variant, deal) or (lambda left: True)
    walks: list[int] = []
    walk = solver.every_way

    def counted(*args: Any, **named: Any) -> Any:
        walks.append(named.get("jokers_at_least", 0))
        return walk(*args, **named)

    clear_caches()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "every_way", counted)
        found = solver.complete(cards, requirement, variant, leaves=ends, jokers_at_least=owed)
    assert owed in walks  # the walk for the jokers was asked
    expected = any(
        sum(group.count(sr.JOKER) for group in way) >= owed
        and ends(len(cards) - sum(map(len, way)))
        for way in solver.arrangements(cards, requirement, variant)
    )
    assert (found is not None) == expected
    if found is not None:
        solver.check_going_down(found, requirement, variant)
        assert sum(group.count(sr.JOKER) for group in found) >= owed


@pytest.mark.parametrize(
    ("deal", "hand", "owed"),
    [
        # the way found holds 4 jokers once naturals are given back; a joker at a run's end
        # makes the fifth
        (5, "JK JK JK JK JK JK QH AH 2H QH 3H 9H 9H 4H 9H 7H KH 10H 6H JH 7H KH 10H JH", 5),
        # two runs of 4 hold 2 jokers each (no more jokers than natural cards): the ways of
        # two runs of 6 hold 3 each
        (3, "JK JK JK JK JK JK 5H 8H 2H 9H 5H QH 7H 5H QH 6H 3H AH KH 3H 2H 7H 10H QH", 6),
    ],
)
def test_finding_01_the_quick_tries_for_jokers_owed_give_ways_the_checks_accept(
    deal: int, hand: str, owed: int
) -> None:
    from shanghai_rummy import solver
    from shanghai_rummy.engine import play_rules

    wiki = sr.get_variant("shanghai-wiki")
    cards = sr.parse_cards(hand)
    requirement = wiki.deal(deal).requirement
    ends = play_rules.going_down_turn_end(wiki, deal)
    found = solver.complete(cards, requirement, wiki, leaves=ends, jokers_at_least=owed)
    assert found is not None
    solver.check_going_down(found, requirement, wiki)
    assert sum(group.count(sr.JOKER) for group in found) >= owed
    assert ends is not None and ends(len(cards) - sum(map(len, found)))
    counts, jokers = count_cards(cards)
    walked = every_way(
        counts,
        jokers,
        requirement,
        rules_of(wiki),
        first_only=True,
        leaves=ends,
        jokers_at_least=owed,
    )
    assert walked and sum(candidate.jokers for candidate in walked[0]) >= owed


@pytest.mark.parametrize("variant_id", sorted(sr.VARIANTS))
def test_finding_01_the_move_check_agrees_with_the_listing(variant_id: str) -> None:
    from shanghai_rummy.engine.phases import has_legal_action

    rng = __import__("random").Random(variant_id)
    checked_states = 0
    for seed in range(3):
        state = sr.new_game(sr.get_variant(variant_id), players=3, seed=seed)
        for _ in range(150):
            if state.phase is sr.Phase.DEAL_OVER:
                state = sr.next_deal(state)
            if state.to_act is None:
                break
            actions = sr.legal_actions(state)
            assert has_legal_action(state) == bool(actions)
            for obligation in ("must_go_down", "must_go_out"):
                owing = attrs.evolve(
                    state, turn_state=attrs.evolve(state.turn_state, **{obligation: "owed"})
                )
                if state.phase is sr.Phase.PLAY:
                    assert has_legal_action(owing) == bool(sr.legal_actions(owing))
                    checked_states += 1
            melds = [a for a in actions if isinstance(a, sr.Meld)]
            state = sr.apply(state, rng.choice(melds or list(actions)))
    assert checked_states > 50


# --- finding 6: forged but self-consistent states ------------------------------------------


def _played(variant: sr.Variant, players: int, seed: int, moves: int) -> sr.GameState:
    rng = __import__("random").Random(seed)
    state = sr.new_game(variant, players=players, seed=seed)
    for _ in range(moves):
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
        if state.to_act is None:
            break
        state = sr.apply(state, rng.choice(sr.legal_actions(state)))
    return state


def _swap_with_stock(state: sr.GameState) -> sr.GameState:
    seat = state.turn
    hand = list(state.hand(seat))
    stock = list(state.stock)
    index = next(i for i, card in enumerate(hand) if card != stock[0])
    hand[index], stock[0] = stock[0], hand[index]
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    return attrs.evolve(state, hands=tuple(hands), stock=tuple(stock))


def _one_card_more(state: sr.GameState) -> sr.GameState:
    seat = (state.turn + 1) % state.num_players  # a seat not in turn: 11 of its 12
    hands = list(state.hands)
    hands[seat] = (*hands[seat], state.stock[0])
    return attrs.evolve(state, hands=tuple(hands), stock=state.stock[1:])


def _rescored(state: sr.GameState) -> sr.GameState:
    first = state.results[0]
    a, b = first.seats[0], first.seats[1]  # seat 0's score and seat 1's exchanged
    seats = (
        attrs.evolve(a, points=b.points, reason=b.reason),
        attrs.evolve(b, points=a.points, reason=a.reason),
        *first.seats[2:],
    )
    results = (attrs.evolve(first, seats=seats), *state.results[1:])
    totals = tuple(sum(result.points[seat] for result in results) for seat in range(3))
    return attrs.evolve(state, results=results, totals=totals)


FORGERIES = {
    "a sorted stock": (lambda s: attrs.evolve(s, stock=tuple(sorted(s.stock, key=str))), "stock"),
    "a hand card swapped with the next stock card": (_swap_with_stock, "hands"),
    "one card too many in a hand": (_one_card_more, "hands"),
    "an emptied history": (lambda s: attrs.evolve(s, log=None), ""),
    "a replaced history": (
        lambda s: attrs.evolve(s, log=_played(SHANGHAI, 3, 99, 40).log),
        "",
    ),
    "a changed seed": (lambda s: attrs.evolve(s, seed=s.seed + 1), ""),
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_finding_06_forged_consistent_states_are_refused_by_their_history(forgery: str) -> None:
    state = _played(SHANGHAI, 3, 6, 40)
    assert state.phase in (sr.Phase.DRAW, sr.Phase.PLAY, sr.Phase.BUY) and state.deal_number == 1
    forge, field = FORGERIES[forgery]
    forged = forge(state)
    sr.validate(forged)  # every invariant but its history holds
    assert sr.from_json(sr.to_json(forged), sr.GameState, check_history=False) == forged
    with pytest.raises(sr.SerializationError, match=rf"\$.data.{field}.*history: the seed"):
        sr.from_json(sr.to_json(forged), sr.GameState)
    with pytest.raises(sr.InvalidStateError, match=r"history: the seed and the history"):
        sr.validate(forged, history=True)
    assert sr.from_json(sr.to_json(state), sr.GameState) == state


def test_finding_06_a_rescored_finished_deal_is_refused() -> None:
    state = _played(SHANGHAI, 3, 1, 2000)
    while state.deal_number < 2:
        state = _played(SHANGHAI, 3, state.seed + 1, 2000)
    rescored = _rescored(state)
    sr.validate(rescored)
    with pytest.raises(sr.SerializationError, match=r"\$.data.totals: history: the seed"):
        sr.from_json(sr.to_json(rescored), sr.GameState)
    assert sr.from_json(sr.to_json(state), sr.GameState) == state


def test_finding_06_a_stacked_deal_replays_from_its_stacked_origin() -> None:
    hand = sr.parse_cards("8C 8D 8H 9C 9D 9H 2C 3D 4H 5S 6C")
    state = sr.deal_from(SHANGHAI, hands=[sr.parse_cards("KS 2H"), hand], seed=3)
    assert state.stacked is not None and state.stacked.hands[1] == hand
    played = sr.draw(state, 1, sr.Source.STOCK)
    played = sr.meld(played, 1, [sr.parse_cards("8C 8D 8H"), sr.parse_cards("9C 9D 9H")])
    assert sr.from_json(sr.to_json(played), sr.GameState) == played
    # a forged origin: the stacked deal and the state changed together
    stacked = attrs.evolve(played.stacked, stock=tuple(sorted(played.stacked.stock, key=str)))
    with pytest.raises(sr.SerializationError, match=r"history: the stacked deal and the"):
        sr.from_json(sr.to_json(attrs.evolve(played, stacked=stacked)), sr.GameState)
    # a stacked deal passed off as dealt from its seed
    with pytest.raises(sr.SerializationError, match=r"history: the seed and the history"):
        sr.from_json(sr.to_json(attrs.evolve(played, stacked=None)), sr.GameState)


@pytest.mark.interpreted
def test_finding_06_the_history_check_is_linear_in_the_history() -> None:
    from shanghai_rummy.engine import phases, validation

    state = _played(SHANGHAI, 4, 2, 600)
    applied = []
    apply = phases.apply_action

    def counted(current: sr.GameState, action: sr.Action) -> sr.GameState:
        applied.append(action)
        return apply(current, action)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(validation, "apply_action", counted)
        sr.validate(state, history=True)
    assert len(applied) == len(state.history) == 600


# --- finding 7: integers over 4,300 digits ------------------------------------------------


def test_finding_07_huge_seeds_and_meld_ids_are_refused() -> None:
    huge = 10**5000
    with pytest.raises(sr.RummyError, match=r"new_game: seed must be an integer from 0"):
        sr.new_game(SHANGHAI, players=4, seed=huge)
    with pytest.raises(sr.RummyError, match=r"deal_from: seed must be an integer from 0"):
        sr.deal_from(SHANGHAI, hands=[sr.parse_cards("8C"), sr.parse_cards("9C")], seed=huge)
    with pytest.raises(sr.RummyError, match=r"new_game: seed must be"):
        sr.replay(sr.GameRecord(variant=SHANGHAI, players=4, seed=huge))
    with pytest.raises(sr.RummyError, match=r"seed must be an integer from 0 to 2\*\*64 - 1"):
        sr.new_game(SHANGHAI, players=4, seed=-1)
    with pytest.raises(sr.NotationError, match=r"expected a meld id"):
        sr.parse_action("layoff 9C " + "9" * 5000, seat=0)


# --- finding 8: groups and lay-offs of the wrong kind -------------------------------------


@pytest.mark.parametrize("groups", [None, 5, sr.JOKER, [sr.JOKER], "8C 8D 8H"])
def test_finding_08_groups_of_the_wrong_kind_are_refused(groups: object) -> None:
    state = sr.draw(sr.new_game(SHANGHAI, players=4, seed=7), 1, sr.Source.STOCK)
    for call in (
        lambda: sr.meld(state, 1, groups),
        lambda: sr.go_out(state, 1, groups),
        lambda: sr.Meld(1, groups),
        lambda: sr.GoOut(1, groups),
        lambda: sr.check_going_down(groups, SHANGHAI.deals[0].requirement, SHANGHAI),
    ):
        with pytest.raises(sr.RummyError):
            call()
    with pytest.raises(sr.ArgumentTypeError, match=r"lay_offs must be"):
        sr.GoOut(1, (), 5)
    with pytest.raises(sr.RummyError):
        sr.go_out(state, 1, (), [None])
    with pytest.raises(sr.NotationError):
        sr.canonical_groups([object()], SHANGHAI)


def test_finding_08_a_wrong_type_is_also_a_type_error() -> None:
    with pytest.raises(TypeError):
        sr.Meld(1, None)
    with pytest.raises(sr.ArgumentTypeError, match=r"check_going_down: groups must be"):
        sr.check_going_down(None, SHANGHAI.deals[0].requirement, SHANGHAI)


# --- finding 9: the public solver functions -----------------------------------------------


def test_finding_09_solver_guards() -> None:
    eight = sr.Card.parse("8C")
    contract = sr.Contract(sets=(3,))
    with pytest.raises(sr.RummyError, match=r"more copies of a card than the solver takes"):
        sr.arrangements([eight] * 300, contract, SHANGHAI)
    with pytest.raises(sr.RummyError, match=r"more copies of a card than the solver takes"):
        sr.possible_groups([eight] * 100_000, SHANGHAI)
    with pytest.raises(sr.RummyError, match=r"more copies"):
        sr.possible_groups(sr.make_pack(5, 0), SHANGHAI)  # 260 cards
    with pytest.raises(sr.VariantError, match=r"Contract.runs: a size of 100; at most 14"):
        sr.solve(sr.parse_cards("8C 8D 8H"), sr.Contract(runs=(100,)), SHANGHAI)
    for requirement, variant in ((None, SHANGHAI), ("sets", SHANGHAI), (contract, None)):
        for call in (sr.solve, sr.arrangements):
            with pytest.raises(sr.ArgumentTypeError):
                call(sr.parse_cards("8C 8D 8H"), requirement, variant)
    with pytest.raises(sr.ArgumentTypeError, match=r"possible_groups: variant must be"):
        sr.possible_groups(sr.parse_cards("8C 8D 8H"), "shanghai")


# --- finding 10: packed counts at every size the maxima allow -------------------------------


def test_finding_10_the_largest_set_the_maxima_allow_is_listed_and_solved() -> None:
    pack = sr.PackSize(min_players=2, max_players=6, decks=limits.MAX_DECKS, jokers=8)
    widest = attrs.evolve(
        SHANGHAI,
        id="widest",
        packs=(pack,),
        melds=sr.MeldRules(set_min=3),
        jokers=sr.JokerRules(at_most_naturals=False),
        deals=(sr.DealSpec(requirement=sr.Contract(sets=(24,)), cards=14),),
        buying=sr.BuyRules(limits=((1, 3),)),  # a hand reaches 14 + 1 + 3 x 3 = 24
        deal_count=1,
    )
    hand = sr.parse_cards(" ".join(["8C 8D 8H 8S"] * 4) + " JK" * 8)
    assert len(hand) == limits.MAX_HAND_CARDS == limits.MAX_GROUP_CARDS
    assert max(map(len, sr.possible_groups(hand, widest))) == 24
    assert sr.solve(hand, widest.deals[0].requirement, widest) is not None
    (way,) = sr.arrangements(hand, widest.deals[0].requirement, widest)
    assert len(way[0]) == 24
    with pytest.raises(sr.RummyError, match=r"more copies"):
        sr.solve([sr.Card.parse("8C")] * 129, sr.Contract(sets=(3,)), SHANGHAI)


# --- finding 12: hand-built states of the wrong types ---------------------------------------


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"phase": "draw"}, "phase"),
        ({"phase": None}, "phase"),
        ({"seed": None}, "seed"),
        ({"hands": "lists"}, "hands"),
        ({"to_act": "1"}, "to_act"),
        ({"totals": (0, 0, 0, None)}, r"totals\[3\]"),
    ],
)
def test_finding_12_validate_refuses_mistyped_states(changes: dict[str, object], path: str) -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=7)
    if changes.get("hands") == "lists":
        changes = {"hands": [list(hand) for hand in state.hands]}
    with pytest.raises(sr.InvalidStateError, match=rf"GameState.{path}: types: expected"):
        sr.validate(attrs.evolve(state, **changes))


def test_finding_12_legal_actions_of_a_play_state_with_seat_7() -> None:
    state = sr.draw(sr.new_game(SHANGHAI, players=4, seed=7), 1, sr.Source.DISCARD)
    assert state.phase is sr.Phase.PLAY
    forged = attrs.evolve(state, to_act=7)
    with pytest.raises(sr.InvalidStateError, match=r"to_act: phase and seat to act"):
        sr.legal_actions(forged)
    with pytest.raises(sr.InvalidStateError, match=r"phase: types: expected Phase"):
        sr.legal_actions(attrs.evolve(state, phase="play"))


# --- finding 13: deal_from returned states the library refuses ------------------------------


def test_finding_13_deal_from_refuses_what_validate_refuses() -> None:
    one = sr.parse_cards("8C")
    with pytest.raises(sr.RummyError, match=r"hands\[1\]: every seat needs a card"):
        sr.deal_from(SHANGHAI, hands=[one, ()])
    with pytest.raises(sr.ArgumentTypeError, match=r"deal_from: seed must be an integer"):
        sr.deal_from(SHANGHAI, hands=[one, one], seed="1")
    with pytest.raises(sr.RummyError, match=r"deal_number must be from 1 to 10, got True"):
        sr.deal_from(SHANGHAI, hands=[one, one], deal_number=True)
    with pytest.raises(sr.InvalidStateError, match=r"hands\[0\]: shape: 13 cards"):
        sr.deal_from(
            SHANGHAI, hands=[sr.parse_cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"), one]
        )
    sr.validate(sr.deal_from(SHANGHAI, hands=[one, one]))


# --- finding 16: arguments of the wrong kind ----------------------------------------------


def test_finding_16_arguments_of_the_wrong_kind() -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=7)
    seen = sr.view(state, 1)
    draw = sr.Draw(1, sr.Source.STOCK)
    calls = [
        lambda: sr.legal_actions(None),
        lambda: sr.legal_actions(seen),
        lambda: sr.view(None, 0),
        lambda: sr.apply(seen, draw),
        lambda: sr.apply(state, None),
        lambda: sr.validate(None),
        lambda: sr.record(None),
        lambda: sr.replay(None),
        lambda: sr.new_game(None, players=4),
        lambda: sr.next_deal(None),
        lambda: sr.score(None),
        lambda: sr.GreedyBot("shanghai"),
        lambda: sr.GreedyBot(SHANGHAI, max_buys="2"),
        lambda: sr.GreedyBot(SHANGHAI).choose(state),
        lambda: sr.RandomBot(seed=None),
        lambda: sr.RandomBot().choose(None),
    ]
    for call in calls:
        with pytest.raises(sr.RummyError):
            call()
    with pytest.raises(sr.ArgumentTypeError, match=r"legal_actions: state must be a GameState"):
        sr.legal_actions(None)


# --- finding 14: lone surrogates ------------------------------------------------------------


def test_finding_14_a_lone_surrogate_in_a_text_field_is_refused() -> None:
    text = sr.to_json(SHANGHAI).replace('"name":"Shanghai Rummy (aces high)"', '"name":"\\ud800"')
    assert "\\ud800" in text
    with pytest.raises(sr.SerializationError, match=r"\$.data.name: a lone surrogate"):
        sr.from_json(text, sr.Variant)
    with pytest.raises(sr.VariantError, match=r"lone surrogate"):
        sr.load_variant({"base": "shanghai", "id": "\ud800"})


# --- finding 15: refusing malformed input costs no more than accepting ----------------------


def test_finding_15_a_megabyte_of_malformed_history_is_refused_at_the_first_items(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from shanghai_rummy import conversion

    state = sr.new_game(SHANGHAI, players=4, seed=7)
    document = sr.to_dict(state)
    document["data"]["history"] = [{"type": "draw", "seat": "x"}] * 35_000  # over 1 MB
    text = json.dumps(document)
    assert len(text) > 1_000_000
    reported: list[int] = []
    made = conversion.ItemErrors.__init__

    def counted(self: conversion.ItemErrors, problems: list[tuple[str, Exception]]) -> None:
        reported.append(len(problems))
        made(self, problems)

    monkeypatch.setattr(conversion.ItemErrors, "__init__", counted)
    with pytest.raises(sr.SerializationError, match=r"history\[0\].seat: expected an integer"):
        sr.from_json(text, sr.GameState)
    assert reported == [3]  # the first failing items, not all 35,000


@pytest.mark.parametrize("good", [0, 20_000])
def test_finding_15_megabytes_of_bad_short_forms_are_refused_reading_each_item_once(
    monkeypatch: pytest.MonkeyPatch, good: int
) -> None:
    # a history's short forms are looked up a run at a time: refusing one with a bad item
    # after ``good`` good ones looks up each item once, up to the third bad one
    from shanghai_rummy import serialization

    looked_up: list[int] = []

    class Counted(dict[str, sr.Action]):
        def __getitem__(self, key: str) -> sr.Action:
            looked_up.append(1)
            return super().__getitem__(key)

        def get(self, key: str, default: Any = None) -> Any:
            looked_up.append(1)
            return super().get(key, default)

    monkeypatch.setattr(serialization, "SHORT_FORMS", Counted(serialization.SHORT_FORMS))
    state = sr.new_game(SHANGHAI, players=4, seed=7)
    document = sr.to_dict(state)
    document["data"]["history"] = ["1 pass"] * good + ["1 drow"] * 200_000
    text = json.dumps(document)
    assert len(text) > 2_000_000
    with pytest.raises(sr.SerializationError, match=rf"history\[{good}\]: not an action: '1 drow'"):
        sr.from_json(text, sr.GameState)
    assert len(looked_up) == good + 1 + 3  # the run up to the bad item, then three bad ones


def test_finding_15_from_json_has_a_size_limit() -> None:
    text = sr.to_json(sr.new_game(SHANGHAI, players=4, seed=7))
    assert sr.from_json(text, sr.GameState, max_bytes=len(text.encode())).seed == 7
    with pytest.raises(sr.SerializationError, match=r"over 1000 bytes"):
        sr.from_json(text, sr.GameState, max_bytes=1000)
    with pytest.raises(sr.SerializationError, match=r"over 10 bytes"):
        sr.from_json("[" * 5 + "é" * 5, sr.GameState, max_bytes=10)  # 15 bytes, 10 characters
    with pytest.raises(sr.SerializationError, match=r"limits.MAX_DOCUMENT_BYTES"):
        sr.from_json(b" " * (limits.MAX_DOCUMENT_BYTES + 1), sr.GameState)
    with pytest.raises(sr.ArgumentTypeError, match=r"max_bytes must be"):
        sr.from_json(text, sr.GameState, max_bytes="big")


_QUICK_ITEMS_REFUSED = [
    (
        "history",
        {"type": "draw", "seat": True, "source": "stock"},
        r"history\[30\].seat: expected an integer, got a boolean",
    ),
    (
        "history",
        {"type": "draw", "seat": 1.0, "source": "stock"},
        r"history\[30\].seat: expected an integer, got a number",
    ),
    ("history", {"type": "pass_buy", "seat": True}, r"history\[30\].seat: expected an integer"),
    (
        "events",
        {"type": "passed_buy", "number": 99, "seat": True},
        r"events\[37\].seat: expected an integer",
    ),
    (
        "events",
        {"type": "drew", "number": 99, "seat": 0, "card": "ZZ"},
        r"events\[37\].card: unknown card code",
    ),
    (
        "events",
        {"type": "upcard_offered", "number": 99, "seat": 0, "card": "2C", "buyers": [1, True]},
        r"events\[37\].buyers\[1\]: expected an integer",
    ),
    (
        "events",
        {"type": "discarded", "number": 9.0, "seat": 0, "card": "2C"},
        r"events\[37\].number: expected an integer",
    ),
]


@pytest.mark.parametrize(("field", "item", "error"), _QUICK_ITEMS_REFUSED)
def test_finding_15_long_lists_read_directly_refuse_what_the_converter_refuses(
    field: str, item: dict[str, object], error: str
) -> None:
    # a long history's items and its events are read directly (each distinct item once), the
    # rest by the converter: an item equal to one read before but of another type (true
    # and 1.0 equal 1) is still refused, with the converter's message and path
    state = sr.new_game(SHANGHAI, players=3, seed=1)
    for _ in range(30):
        state = sr.apply(state, sr.legal_actions(state)[0])
    document = sr.to_dict(state)
    assert sr.from_dict(document, sr.GameState) == state
    assert len(document["data"]["history"]) == 30 and len(document["data"]["events"]) == 37
    document["data"][field].append(item)
    with pytest.raises(sr.SerializationError, match=error):
        sr.from_dict(document, sr.GameState, check_history=False)


def test_finding_15_a_history_read_is_not_kept_once_its_state_is_gone() -> None:
    # validate remembers the histories it checked, so that a game in play checks one new
    # action a step; it holds them weakly: a server loading many long documents keeps none
    import gc
    import weakref

    from shanghai_rummy.engine import validation

    state = sr.new_game(SHANGHAI, players=3, seed=2)
    for _ in range(40):
        state = sr.apply(state, sr.legal_actions(state)[0])
    loaded = sr.from_json(sr.to_json(state), sr.GameState)
    assert loaded.log is not None and validation._checked(loaded.log)
    gone = weakref.ref(loaded.log)
    del loaded
    gc.collect()
    assert gone() is None
