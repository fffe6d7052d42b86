"""The documentation (issue 7): its code runs, the Contract Rummy page plays a whole game from
configuration alone, the README shows the same quickstart as the docs, and the reference lists
every public name.

pytest also runs every Markdown page as a doctest (``--doctest-glob='*.md'``); these tests add
what a doctest cannot say by itself."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

import shanghai_rummy as sr
from shanghai_rummy.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
CONTRACT_RUMMY = DOCS / "variants" / "contract-rummy.md"

_FENCE_LINE = re.compile(r"^[ \t]*(?:```|~~~).*$", re.MULTILINE)
_BLOCK = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_PYTHON_INFOS = {"python", "py", "python3", "pycon", "pyi"}


def _pages() -> list[Path]:
    return [*sorted(DOCS.rglob("*.md")), README]


def _blocks(path: Path, info: str) -> list[str]:
    """The bodies of the fenced code blocks of ``path`` whose info string is ``info``."""
    text = path.read_text(encoding="utf-8")
    return [m["body"] for m in _BLOCK.finditer(text) if m["info"].strip() == info]


def _run_page(path: Path) -> dict[str, Any]:
    """Run every ``>>>`` example of a Markdown page as one doctest, as pytest does; fail with
    the report if any example fails; return the page's namespace afterwards."""
    text = _FENCE_LINE.sub("", path.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, path.name, str(path), 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    runner.run(test, out=report.append, clear_globs=False)
    if runner.failures:
        pytest.fail(f"{path.name}: {runner.failures} example(s) failed\n" + "".join(report))
    return test.globs


def test_contract_rummy_page_plays_a_whole_game() -> None:
    """A reader who knows only Python builds Contract Rummy from the page's configuration and
    plays it to the end: the page's code runs, and the game it plays is finished."""
    page = _run_page(CONTRACT_RUMMY)
    variant = page["contract_rummy"]
    state = page["state"]
    assert isinstance(variant, sr.Variant) and variant.id == "contract-rummy"
    assert [variant.deal(n).requirement.describe() for n in range(1, 8)] == [
        "2 sets of 3",
        "1 set of 3 + 1 run of 4",
        "2 runs of 4",
        "3 sets of 3",
        "2 sets of 3 + 1 run of 4",
        "1 set of 3 + 2 runs of 4",
        "3 runs of 4",
    ]
    assert isinstance(state, sr.GameState) and state.variant == variant
    assert state.is_over and state.phase is sr.Phase.GAME_OVER
    assert state.deal_number == 7 and len(state.results) == 7
    assert state.outcome is not None and state.outcome.totals == state.totals
    assert sum(result.points[0] for result in state.results) == state.totals[0]

    # Replay the game move by move: every deal was dealt 10 cards (deals 1-4) or 12 (5-7).
    replayed = sr.new_game(variant, players=state.num_players, seed=state.seed)
    dealt = {1: [len(hand) for hand in replayed.hands]}
    for action in state.history:
        if replayed.phase is sr.Phase.DEAL_OVER:
            replayed = sr.next_deal(replayed)
            dealt[replayed.deal_number] = [len(hand) for hand in replayed.hands]
        replayed = sr.apply(replayed, action)
    assert dealt == {n: [10 if n <= 4 else 12] * state.num_players for n in range(1, 8)}
    assert replayed.totals == state.totals and replayed.is_over


def test_contract_rummy_page_runs_as_a_plain_script() -> None:
    """The page's code, copied without its prompts and outputs into one script, runs."""
    text = _FENCE_LINE.sub("", CONTRACT_RUMMY.read_text(encoding="utf-8"))
    examples = doctest.DocTestParser().get_examples(text)
    script = "".join(example.source for example in examples)
    namespace: dict[str, Any] = {}
    exec(compile(script, str(CONTRACT_RUMMY), "exec"), namespace)
    assert namespace["state"].is_over and len(namespace["state"].results) == 7


def test_contract_rummy_toml_is_the_same_variant(tmp_path: Path) -> None:
    """The page's TOML file gives the variant the page builds from a dict, and so does the
    example file the repository ships."""
    (toml,) = _blocks(CONTRACT_RUMMY, "toml")
    path = tmp_path / "contract-rummy.toml"
    path.write_text(toml, encoding="utf-8")
    page = _run_page(CONTRACT_RUMMY)
    assert sr.load_variant(path) == page["contract_rummy"]
    shipped = sr.load_variant(ROOT / "examples" / "variants" / "contract-rummy.toml")
    assert attrs.evolve(shipped, source=page["contract_rummy"].source) == page["contract_rummy"]


@pytest.mark.parametrize("path", _pages(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_python_block_is_a_doctest(path: Path) -> None:
    """Every Python example in the docs and the README is a ``>>>`` doctest, so CI runs it;
    shell commands go in ``bash`` blocks, which are not run."""
    text = path.read_text(encoding="utf-8")
    for match in _BLOCK.finditer(text):
        info = match["info"].strip().split(" ")[0].lower()
        body = match["body"]
        first = next((line for line in body.splitlines() if line.strip()), "")
        if info in _PYTHON_INFOS:
            assert first.startswith(">>> "), f"{path.name}: a {info} block without >>>:\n{body}"
        else:
            assert ">>> " not in body, f"{path.name}: a ```{info} block holds doctests:\n{body}"


def _section_block(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    section = text.split(heading + "\n", 1)[1].split("\n## ", 1)[0]
    match = _BLOCK.search(section)
    assert match is not None and match["info"].strip() == "python", f"no Python block {heading}"
    return match["body"]


def test_readme_shows_the_quickstart_of_the_docs() -> None:
    readme = _section_block(README, "## Quickstart")
    docs = _section_block(DOCS / "getting-started.md", "## A first game")
    assert readme == docs
    statements = [line for line in docs.splitlines() if line.startswith(">>> ")]
    assert len(statements) <= 12, "the first game should stay about ten lines"


def test_api_reference_lists_every_public_name() -> None:
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    missing = [name for name in sr.__all__ if f"shanghai_rummy.{name}" not in text]
    assert not missing, f"not in docs/api.md: {missing}"


def test_every_preset_has_a_rules_page() -> None:
    index = (DOCS / "rules" / "index.md").read_text(encoding="utf-8")
    for variant_id, variant in sr.VARIANTS.items():
        page = DOCS / "rules" / f"{variant_id}.md"
        assert page.is_file(), f"no rules page for {variant_id}"
        assert page.read_text(encoding="utf-8").startswith(f"# `{variant_id}`: ")
        assert f"({variant_id}.md)" in index
        assert variant.name in index


@pytest.mark.parametrize("path", [README, DOCS / "bots.md"], ids=lambda path: path.name)
def test_the_verbose_game_shown_is_what_the_command_prints(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The verbose game of the README's first command, as the page shows it: every line it
    shows (between its "..." gaps) is printed, in order."""
    (shown,) = [block for block in _blocks(path, "text") if "seat 0 greedy" in block]
    main(["simulate", "--players", "4", "--games", "1", "--seed", "7", "--deals", "1", "--verbose"])
    printed = capsys.readouterr().out.splitlines()
    position = 0
    for line in shown.splitlines():
        if line.strip() == "...":
            continue
        assert line in printed[position:], f"{path.name}: {line!r} is not printed (in order)"
        position = printed.index(line, position) + 1
