"""Headless Chromium as the tests and ``.ci/docs_in_browser.py`` start it (Debian's
``chromium``; no pytest here)."""

from __future__ import annotations

import shutil

HEADLESS_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Flags for a headless Chromium that stays off the network and keeps nothing."""


def find_chromium() -> str | None:
    """The Chromium (or Chrome) on the PATH, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None
