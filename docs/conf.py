"""Sphinx configuration for shanghai-rummy."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sphinx.application import Sphinx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

# imported after the path is set, so that a checkout documents its own code
import shanghai_rummy

project = "shanghai-rummy"
author = "The shanghai-rummy developers"
copyright = "2026, The shanghai-rummy developers"
# The version lives in one place, the package's __version__ (pyproject.toml reads it too).
release = shanghai_rummy.__version__
version = release

# The docstrings are plain reStructuredText and prose, with no Google- or NumPy-style
# sections, so sphinx.ext.napoleon is not loaded: it would read the first words of an
# attribute or property docstring ("Above the king only: Q-K-A, ...") as a type.
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "myst_parser",
    "sphinx_copybutton",
]

# The copy button copies what a reader types: the lines after ">>> " and "... " in the doctests
# (without the prompts and without the printed results), and every line of a shell block.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

autodoc_typehints = "description"
autodoc_member_order = "bysource"
nitpicky = False

# Intersphinx fetches its inventories over the network when the docs are built. CI has no
# network to docs.python.org or attrs.org, and Sphinx reports a failed fetch as a warning that
# cannot be suppressed, so `-W` would fail. The links are therefore opt-in: set
# DOCS_INTERSPHINX=1 (Read the Docs builds get them automatically). Without them, references to
# Python and attrs objects render as plain text; nothing else changes.
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}
if os.environ.get("DOCS_INTERSPHINX") == "1" or os.environ.get("READTHEDOCS") == "True":
    intersphinx_mapping = {
        "python": ("https://docs.python.org/3", None),
        "attrs": ("https://www.attrs.org/en/stable", None),
    }
intersphinx_timeout = 10

html_theme = "furo"
html_title = f"shanghai-rummy {release}"


def _draw_pictures(app: Sphinx) -> None:
    """Draw the pictures the docs show (docs/_generated/*.svg) with the package itself: the
    first deal of a Shanghai game after forty moves of greedy bots."""
    import shanghai_rummy as sr
    from shanghai_rummy.pictures import state_svg, view_svg

    state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    bots = [sr.GreedyBot(state.variant) for _ in range(4)]
    for _ in range(40):
        assert state.to_act is not None
        state = sr.apply(state, bots[state.to_act].choose(sr.view(state, state.to_act)))
    folder = Path(__file__).resolve().parent / "_generated"
    folder.mkdir(exist_ok=True)
    (folder / "seat-view.svg").write_text(view_svg(sr.view(state, 0)), encoding="utf-8")
    (folder / "whole-state.svg").write_text(state_svg(state), encoding="utf-8")


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _draw_pictures)
