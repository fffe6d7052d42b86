"""The browser client in a real headless Chromium (Debian's chromium and chromium-driver,
driven by selenium): it joins from the lobby, shows a refused move's message, survives a
reload, and plays a deal against bots through the page."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("selenium")

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import shanghai_rummy as sr

from .browsers import HEADLESS_FLAGS, find_chromium
from .serving import TIMEOUT, create_table, missing, server_in_thread, short_variant, sqlite_path

CHROMIUM = find_chromium() or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        missing("chromium and chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    with tempfile.TemporaryDirectory() as profile:
        for argument in (*HEADLESS_FLAGS, "--window-size=1200,1400", f"--user-data-dir={profile}"):
            options.add_argument(argument)
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        try:
            yield driver
        finally:
            driver.quit()


def _update(driver: webdriver.Chrome) -> dict[str, Any] | None:
    update: dict[str, Any] | None = driver.execute_script("return window.srClient.lastUpdate")
    return update


def _wait(driver: webdriver.Chrome, check: Any) -> Any:
    return WebDriverWait(driver, TIMEOUT, poll_frequency=0.02).until(lambda d: check(d))


def _my_move_or_over(driver: webdriver.Chrome) -> dict[str, Any]:
    def ready(d: webdriver.Chrome) -> dict[str, Any] | None:
        update = _update(d)
        if update and (update["over"] or update["legal"]):
            return update
        return None

    result: dict[str, Any] = _wait(driver, ready)
    return result


def _click_move(driver: webdriver.Chrome, update: dict[str, Any]) -> None:
    """Click the button of the move the greedy bot would make on the page's view."""
    seen = sr.from_dict(update["view"], sr.PlayerView)
    label = sr.format_action(sr.GreedyBot().choose(seen))
    buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.action")
    [button] = [b for b in buttons if b.text == label]
    count = update["action_count"]
    button.click()
    _wait(driver, lambda d: (_update(d) or {}).get("action_count", count) > count)


def test_the_page_plays_a_deal_against_bots(browser: webdriver.Chrome, tmp_path: Path) -> None:
    with server_in_thread(store=sqlite_path(tmp_path)) as base:
        table = create_table(
            base, variant=short_variant(1), seats=["person", "greedy", "greedy"], seed=9
        )["table"]
        browser.get(base + "/")
        join = _wait(
            browser,
            lambda d: d.find_elements(By.CSS_SELECTOR, f"tr[data-table='{table}'] button.join"),
        )
        join[0].click()
        update = _my_move_or_over(browser)
        # the hand is shown sorted, with coloured suits
        cards = browser.find_elements(By.CSS_SELECTOR, "#hand .card")
        assert sorted(c.get_attribute("data-code") for c in cards) == sorted(
            update["view"]["data"]["hand"]
        )
        assert any("red" in (c.get_attribute("class") or "") for c in cards)
        assert browser.find_element(By.ID, "contract").text == "Contract: set of 3 + set of 3"

        # a refused move: one card is no group; the page shows why, nothing changes
        cards[0].click()
        browser.find_element(By.ID, "lay-group").click()
        error = _wait(browser, lambda d: d.find_element(By.ID, "error").text)
        assert error
        unchanged = _update(browser)
        assert unchanged is not None and unchanged["action_count"] == update["action_count"]

        # a few moves, then a reload: the page takes its seat back and shows the same game
        for _ in range(4):
            update = _my_move_or_over(browser)
            if update["over"]:
                break
            _click_move(browser, update)
        before = _my_move_or_over(browser)
        browser.refresh()
        after = _wait(browser, _update)
        assert after["view"]["data"]["hand"] == before["view"]["data"]["hand"]
        assert after["seat"] == 0
        log = browser.find_elements(By.CSS_SELECTOR, "#log li")
        assert len(log) == after["event_count"]

        # on to the end of the deal (the game is one deal long)
        for _ in range(400):
            update = _my_move_or_over(browser)
            if update["over"]:
                break
            _click_move(browser, update)
        assert update["over"]
        assert browser.find_element(By.ID, "actions").text == "The game is over."
        scores = browser.find_element(By.ID, "scores").text
        assert "deal 1" in scores
