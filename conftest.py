"""Root pytest configuration, shared by the tests and the doctests in src/, docs/ and README.md."""

from __future__ import annotations

import doctest
import re

import pytest

collect_ignore = [
    "docs/conf.py",  # Sphinx configuration, not a test module
    "src/shanghai_rummy/__main__.py",  # importing it would run the command-line program
]
try:
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError:  # without the [server] extra, the server's modules cannot be imported
    collect_ignore.append("src/shanghai_rummy/server")

try:
    import matplotlib  # noqa: F401
except ImportError:  # without the [plot] extra, the plotting module cannot be imported
    collect_ignore.append("src/shanghai_rummy/plot")

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError:  # without the [rl] extra, the environments cannot be imported
    collect_ignore.append("src/shanghai_rummy/rl")
    collect_ignore.append("docs/ai.md")  # its examples drive the environments

try:
    from hypothesis import settings
except ImportError:  # the doctests alone run without the [test] extra's hypothesis
    pass
else:
    # No timing assertions in the tests: hypothesis's per-example deadline would fail a
    # property on a loaded machine (speed is measured in benchmarks/, not asserted here).
    settings.register_profile("shanghai-rummy", deadline=None)
    settings.load_profile("shanghai-rummy")


def _compiled_build() -> bool:
    """Whether the shanghai_rummy imported is the compiled build (its solver an extension
    module, see pyproject.toml's mypyc hook)."""
    import shanghai_rummy.solver

    return not (shanghai_rummy.solver.__file__ or "").endswith(".py")


COMPILED_BUILD = _compiled_build()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "interpreted: the test patches or spies on the engine's or the solver's internals, or "
        "reads the message of a refusal the compiled build makes on entry (a wrong type: its "
        "ArgumentTypeError says it its own way); skipped on the compiled build",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not COMPILED_BUILD:
        return
    skip = pytest.mark.skip(reason="reads the interpreted modules (compiled build)")
    for item in items:
        if item.get_closest_marker("interpreted") is not None:
            item.add_marker(skip)


_FENCE_LINE = re.compile(r"^[ \t]*(?:```|~~~).*$", re.MULTILINE)


class _MarkdownDocTestParser(doctest.DocTestParser):
    """Reads doctests in Markdown files (``--doctest-glob='*.md'``) as a reader sees them.

    Plain doctest takes the closing ```` ``` ```` of a code block for part of the expected output
    of the example just above it. Fence lines are blanked out (keeping line numbers) so that a
    fenced ``>>>`` example in the README or the docs ends where its code block ends.
    """

    def parse(self, string: str, name: str = "<string>") -> list[str | doctest.Example]:
        return super().parse(_FENCE_LINE.sub("", string), name)


# pytest builds a fresh `doctest.DocTestParser()` for each text file it collects through
# --doctest-glob; module docstrings use the parser that doctest.DocTestFinder was built with.
doctest.DocTestParser = _MarkdownDocTestParser  # type: ignore[misc]
