"""Ready for PyPI (issue 29): one version, the project's links, a README whose links work on
PyPI, a test extra apart from the release tools, the changelog's release section and the
release workflow."""

from __future__ import annotations

import re
import sys
from importlib.metadata import metadata
from pathlib import Path
from typing import Any

import shanghai_rummy as sr

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
_LINK = re.compile(r"\]\(([^)\s]+)\)|<(https?://[^>\s]+)>")


def _pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def test_the_version_is_written_once_and_the_package_reports_it() -> None:
    project = _pyproject()["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert _pyproject()["tool"]["hatch"]["version"]["path"] == "src/shanghai_rummy/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", sr.__version__)
    assert metadata("shanghai-rummy")["Version"] == sr.__version__


def test_the_project_links_name_homepage_documentation_source_changelog_and_issues() -> None:
    urls = _pyproject()["project"]["urls"]
    assert set(urls) == {"Homepage", "Documentation", "Source", "Changelog", "Issues"}
    assert all(url.startswith("https://") for url in urls.values())


def test_every_readme_link_is_absolute_and_a_docs_link_names_a_real_page() -> None:
    """PyPI shows the README without the repository: a relative link there is dead."""
    documentation = _pyproject()["project"]["urls"]["Documentation"]
    source = _pyproject()["project"]["urls"]["Source"]
    links = [a or b for a, b in _LINK.findall(README.read_text(encoding="utf-8"))]
    assert len(links) >= 8
    for link in links:
        assert link.startswith("https://"), f"relative link in the README: {link}"
        if link.startswith(documentation):
            page = link[len(documentation) :].removesuffix(".html") or "index"
            assert (ROOT / "docs" / f"{page}.md").is_file(), f"no docs page for {link}"
        elif link.startswith(source):
            path = link[len(source) :].removeprefix("/blob/main/")
            assert (ROOT / path).is_file(), f"no file for {link}"


def test_the_readme_says_python3_venv_and_tests_with_the_test_extra() -> None:
    text = README.read_text(encoding="utf-8")
    commands = re.findall(r"```bash\n(.*?)\n```", text, re.DOTALL)
    assert len(commands) == 2
    assert all(command.startswith("python3 -m venv ") for command in commands)
    assert "--deals 1" in commands[0]
    assert "pip install -e '.[test]' && python -m pytest" in commands[1]


def test_the_test_extra_holds_no_release_tool() -> None:
    extras = _pyproject()["project"]["optional-dependencies"]
    names = {re.split(r"[<>=;\[ ]", item)[0] for item in extras["test"]}
    assert {"pytest", "hypothesis", "jsonschema"} <= names
    assert not names & {"twine", "build", "mypy", "ruff"}
    assert "shanghai-rummy[test]" in extras["dev"]
    assert any(item.startswith("matplotlib") for item in extras["plot"])
    assert any(item.startswith("sphinx-copybutton") for item in extras["docs"])


def test_the_changelog_keeps_unreleased_above_the_release_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", text, re.MULTILINE)
    assert headings[:2] == ["Unreleased", sr.__version__]


def test_the_release_workflow_builds_tests_the_wheel_on_every_python_and_publishes() -> None:
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    for version in ("3.10", "3.11", "3.12", "3.13"):
        assert f'"{version}"' in workflow
    assert "python -m build" in workflow
    assert "pypa/gh-action-pypi-publish" in workflow
    assert "id-token: write" in workflow  # trusted publishing: no token stored


def test_contributing_has_a_release_section() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert re.search(r"^## Release$", text, re.MULTILINE)
    assert "bash .ci/run" in text
