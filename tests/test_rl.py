"""shanghai_rummy.rl: the action encoding, observations and the PettingZoo and Gymnasium
environments (skipped where the [rl] extra is absent)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr

from .bot_games import PRESETS, bot_play, bot_state

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from shanghai_rummy import rl  # noqa: E402

_ENCODINGS: dict[tuple[str, int], rl.ActionEncoding] = {}


def encoding_of(state: sr.GameState) -> rl.ActionEncoding:
    key = (state.variant.id, state.num_players)
    if key not in _ENCODINGS:
        _ENCODINGS[key] = rl.ActionEncoding(state.variant, state.num_players)
    return _ENCODINGS[key]


def test_the_core_imports_none_of_the_rl_libraries() -> None:
    code = (
        "import sys, shanghai_rummy; "
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("name", PRESETS)
def test_the_pettingzoo_api_test_passes(name: str) -> None:
    players = 3 if name == "shanghai-camping" else 4
    api_test(rl.env(name, players, deals=1), num_cycles=20, verbose_progress=False)


@pytest.mark.parametrize("name", ["shanghai", "rummy51"])
def test_the_gymnasium_env_checker_passes(name: str) -> None:
    check_env(rl.GymEnv(name, players=4, deals=1), skip_render_check=False)


@settings(max_examples=20, deadline=None)
@given(
    name=st.sampled_from(PRESETS),
    players=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
    steps=st.integers(min_value=0, max_value=150),
)
def test_the_mask_is_the_encoded_legal_actions_and_each_index_applies(
    name: str, players: int, seed: int, steps: int
) -> None:
    state = bot_state(name, players, seed, steps)
    encoding = encoding_of(state)
    actions = sr.legal_actions(state)
    indices = [encoding.encode(action) for action in actions]
    assert len(set(indices)) == len(indices)  # one index per listed action
    mask = encoding.action_mask(state)
    assert mask.shape == (encoding.num_actions,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)
    for action, index in zip(actions, indices, strict=True):
        assert encoding.decode(index, state) == action
        assert isinstance(encoding.label(index), str)
        sr.apply(state, encoding.decode(index, state))  # every masked-in index applies


def test_half_laid_going_downs_are_encoded() -> None:
    seen = 0
    for state in bot_play("shanghai", 4, 2, 400):
        if state.turn_state.must_go_down is not None and state.turn_state.going_down:
            encoding = encoding_of(state)
            indices = {encoding.encode(action) for action in sr.legal_actions(state)}
            assert set(np.flatnonzero(encoding.action_mask(state)).tolist()) == indices
            seen += 1
    assert seen > 0


def test_an_index_not_in_the_mask_is_refused() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    encoding = encoding_of(state)
    with pytest.raises(sr.IllegalMoveError, match="discard"):
        encoding.decode(encoding.encode(sr.Discard(1, state.hand(1)[0])), state)
    with pytest.raises(sr.RummyError):
        encoding.decode(encoding.num_actions, state)
    with pytest.raises(sr.RummyError, match="GoOut"):
        encoding.encode(sr.GoOut(1))


@settings(max_examples=15, deadline=None)
@given(
    name=st.sampled_from(PRESETS),
    seed=st.integers(min_value=0, max_value=10_000),
    steps=st.integers(min_value=0, max_value=150),
    sample_seed=st.integers(min_value=0, max_value=1000),
)
def test_the_observation_never_depends_on_hidden_cards(
    name: str, seed: int, steps: int, sample_seed: int
) -> None:
    state = bot_state(name, 4, seed, steps)
    observation = rl.Observation(state.variant, state.num_players)
    for seat in range(state.num_players):
        seen = sr.view(state, seat)
        try:
            other = sr.sample_state(seen, seed=sample_seed)
        except sr.RummyError:  # documented: a re-stocked deal may find no placement
            continue
        assert other.hands != state.hands or other.stock != state.stock or not state.stock
        again = sr.view(other, seat)
        assert np.array_equal(observation.encode(again), observation.encode(seen))
        assert observation.info_state(again) == observation.info_state(seen)


def test_known_cards_follow_the_upcards_taken() -> None:
    for state in bot_play("shanghai", 4, 6, 300):
        event = state.events[-1] if state.events else None
        if isinstance(event, sr.TookUpcard):
            seat = (event.seat + 1) % 4
            known = rl.known_cards(sr.view(state, seat))
            assert known[event.seat][event.card] >= 1
            observation = rl.Observation(state.variant, 4)
            start, _ = observation.layout["known"]
            array = observation.encode(sr.view(state, seat))
            relative = (event.seat - seat) % 4
            assert array[start + (relative - 1) * 53 + rl.card_index(event.card)] >= 1
            return
    pytest.fail("no upcard was taken")  # pragma: no cover


def test_a_whole_game_in_the_aec_env_pays_each_deal_and_the_winner() -> None:
    env = rl.raw_env("shanghai", 3, deals=2, render_mode="ansi")
    env.reset(seed=5)
    bots = [sr.GreedyBot(env.game.variant) for _ in range(3)]
    paid = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        observation, reward, terminated, truncated, _ = env.last()
        paid[env.agent_selection] += float(reward)
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(env.agent_selection)
        index = env.game.encoding.encode(bots[seat].choose(sr.view(env.game.state, seat)))
        assert observation["action_mask"][index] == 1
        env.step(index)
    state = env.game.state
    assert state.is_over and len(state.results) == 2
    expected = [0.0] * 3
    for result in state.results:
        for seat, points in enumerate(result.points):
            expected[seat] += ((sum(result.points) - points) / 2 - points) / 100
    for winner in state.outcome.winners:  # type: ignore[union-attr]
        expected[winner] += 1
    assert [paid[agent] for agent in env.possible_agents] == pytest.approx(expected)
    assert "seat 0" in env.render()


def test_the_gym_env_plays_against_bots_and_refuses_what_is_not_legal() -> None:
    env = rl.GymEnv("shanghai", players=3, opponents=["random", "greedy"], deals=1)
    observation, info = env.reset(seed=3)
    mask = env.action_masks()
    illegal = int(np.flatnonzero(~mask)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert info["illegal_action"] and reward == -1.0 and np.array_equal(again, observation)
    rng = np.random.default_rng(1)
    total = 0.0
    terminated = truncated = False
    while not (terminated or truncated):
        legal = np.flatnonzero(env.action_masks())
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += float(reward)
    assert terminated and env.game.over
    result = env.game.state.results[-1]
    own = result.points[0]
    assert total == pytest.approx(
        ((sum(result.points) - own) / 2 - own) / 100 + (0 in env.game.state.outcome.winners)  # type: ignore[union-attr]
    )


def test_the_gym_env_refuses_a_wrong_number_of_opponents() -> None:
    with pytest.raises(sr.RummyError, match="opponents"):
        rl.GymEnv("shanghai", players=4, opponents=["greedy", "random"])


def test_the_environments_known_cards_are_those_the_events_give() -> None:
    env = rl.raw_env("shanghai", 4, deals=1)
    env.reset(seed=8)
    bots = [sr.GreedyBot(env.game.variant) for _ in range(4)]
    observation = env.game.observation
    for _ in range(120):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        seat = env.possible_agents.index(env.agent_selection)
        seen = sr.view(env.game.state, seat)
        assert np.array_equal(
            env.observe(env.agent_selection)["observation"], observation.encode(seen)
        )
        env.step(env.game.encoding.encode(bots[seat].choose(seen)))


def test_every_block_of_the_layout_has_labels_and_actions() -> None:
    encoding = rl.ActionEncoding(sr.get_variant("shanghai"), players=4)
    card = sr.Card.parse("8C")
    samples = {
        sr.Draw(0, sr.Source.CUT_CARD): "draw cut card",
        sr.Buy(0): "buy",
        sr.PassBuy(0): "pass",
        sr.Discard(0, card): "discard 8C",
        sr.LayOff(0, card, 3, "low"): "lay off 8C on #3 at low end",
        sr.LayOff(0, card, 3): "lay off 8C on #3",
        sr.SwapJoker(0, card, 2): "swap 8C for the joker of #2",
        sr.Meld(0, [sr.parse_cards("8C 8D JK")]): "set 8C 8D JK",
        sr.Meld(0, [sr.parse_cards("JK 5H 6H 7H")]): "run JK 5H 6H 7H",
    }
    for action, label in samples.items():
        index = encoding.encode(action)
        assert encoding.label(index) == label
        assert encoding.action_at(index, 0) == action
    assert encoding.label(encoding.num_actions - 1).startswith("run")
    for bad in (-1, encoding.num_actions):
        with pytest.raises(sr.RummyError, match="not in"):
            encoding.label(bad)
        with pytest.raises(sr.RummyError, match="not in"):
            encoding.action_at(bad, 0)
    state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    with pytest.raises(sr.RummyError, match="integer"):
        encoding.decode("0", state)  # type: ignore[arg-type]
    with pytest.raises(sr.RummyError, match="meld id"):
        encoding.encode(sr.LayOff(0, card, encoding.max_meld_id + 1))
    with pytest.raises(sr.RummyError, match="one group"):
        encoding.encode(sr.Meld(0, [sr.parse_cards("8C 8D 8H"), sr.parse_cards("9C 9D 9H")]))
    with pytest.raises(sr.RummyError, match="not a group"):
        encoding.encode(sr.Meld(0, [sr.parse_cards("8C 9D")]))
    assert "num_actions" in repr(encoding) and "size" in repr(rl.Observation(encoding.variant, 4))


def test_the_environments_refuse_what_they_do_not_know() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        rl.raw_env(render_mode="human")
    with pytest.raises(ValueError, match="render_mode"):
        rl.GymEnv(render_mode="human")
    with pytest.raises(sr.RummyError, match="seat"):
        rl.GymEnv(players=4, seat=4)
    env = rl.raw_env("shanghai", 3, deals=1)
    env.reset(seed=1)
    assert env.render() is None
    with pytest.raises(ValueError, match="None"):
        env.step(None)
    gym_env = rl.GymEnv("shanghai", players=3, deals=1, render_mode="ansi")
    gym_env.reset()
    assert "requirement" in gym_env.render()  # type: ignore[operator]
    assert rl.GymEnv("shanghai", players=3).render() is None
