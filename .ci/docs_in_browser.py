"""Open every page of the built docs in a real headless Chromium and check what a reader sees.

For each page: the theme's stylesheet applied, the article rendered with text and a height, every
image loaded, and no theme error banner (Furo writes some, such as the one about a `contents`
directive, with CSS ``content``, so the HTML build cannot see them). Also saves a screenshot of
the index page and prints its path.

Usage: python .ci/docs_in_browser.py HTML_DIR SCREENSHOT_DIR [--shot PAGE ...]
Exit status 1 with the pages and their faults when a page fails; 2 when no Chromium is found.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.browsers import HEADLESS_FLAGS, find_chromium

FLAGS = [*HEADLESS_FLAGS, "--hide-scrollbars"]

# Runs in the page once it is laid out; leaves its findings on <html data-browser-check="...">.
PROBE = """<script>
window.addEventListener("load", function () {
  var faults = [];
  var all = document.querySelectorAll("*");
  for (var i = 0; i < all.length; i++) {
    ["::before", "::after"].forEach(function (where) {
      var content = getComputedStyle(all[i], where).content || "";
      if (content.indexOf("ERROR") !== -1) {
        faults.push("theme error banner: " + content.slice(0, 120));
      }
    });
  }
  var article = document.querySelector("article");
  if (!article) {
    faults.push("no <article>");
  } else {
    var box = article.getBoundingClientRect();
    if (box.height < 50 || article.innerText.trim().length < 20) {
      faults.push("the article is empty (" + Math.round(box.height) + " px high)");
    }
  }
  var themed = getComputedStyle(document.body).getPropertyValue("--color-foreground-primary");
  if (!themed.trim()) {
    faults.push("the theme's stylesheet is not applied");
  }
  document.querySelectorAll("img").forEach(function (img) {
    if (!img.complete || img.naturalWidth === 0) {
      faults.push("image not loaded: " + img.getAttribute("src"));
    }
  });
  document.documentElement.setAttribute("data-browser-check", JSON.stringify({
    title: document.title, faults: faults
  }));
});
</script>"""

MARK = re.compile(r'data-browser-check="([^"]*)"')


def run_chromium(chromium: str, profile: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def check_page(chromium: str, work: Path, page: Path) -> tuple[str, list[str]]:
    with tempfile.TemporaryDirectory(dir=work) as profile:
        done = run_chromium(
            chromium, Path(profile), "--virtual-time-budget=5000", "--dump-dom", page.as_uri()
        )
    found = MARK.search(done.stdout)
    if found is None:
        return page.name, [f"the page did not finish loading (chromium status {done.returncode})"]
    report = json.loads(html.unescape(found.group(1)))
    return report["title"], list(report["faults"])


def screenshot(chromium: str, work: Path, page: Path, target: Path) -> None:
    with tempfile.TemporaryDirectory(dir=work) as profile:
        run_chromium(
            chromium,
            Path(profile),
            "--window-size=1280,1400",
            f"--screenshot={target}",
            page.as_uri(),
        )
    if not target.is_file() or target.stat().st_size == 0:
        raise SystemExit(f"no screenshot written to {target}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", type=Path, help="the built HTML docs (docs/_build/html)")
    parser.add_argument("screens", type=Path, help="where to write the screenshots")
    parser.add_argument(
        "--shot",
        action="append",
        default=[],
        metavar="PAGE",
        help="also screenshot this page (path inside HTML, e.g. api.html); the index always",
    )
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        print("no chromium found", file=sys.stderr)
        return 2
    args.screens.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work_name:
        work = Path(work_name)
        site = work / "site"
        shutil.copytree(args.html, site)
        pages = sorted(
            path
            for path in site.rglob("*.html")
            if not path.relative_to(site).parts[0].startswith("_")
            and path.name not in ("genindex.html", "search.html", "py-modindex.html")
        )
        for page in pages:
            text = page.read_text(encoding="utf-8")
            page.write_text(text.replace("</body>", PROBE + "</body>", 1), encoding="utf-8")
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda page: check_page(chromium, work, page), pages))
        failed = 0
        for page, (title, faults) in zip(pages, results, strict=True):
            name = page.relative_to(site).as_posix()
            if faults:
                failed += 1
                print(f"FAIL {name} ({title})")
                for fault in faults:
                    print(f"     {fault}")
            else:
                print(f"ok   {name} ({title})")
        for name in ["index.html", *args.shot]:
            stem = Path(name).with_suffix("").as_posix().replace("/", "-")
            target = args.screens / f"{stem}.png"
            screenshot(chromium, work, args.html.resolve() / name, target.resolve())
            print(f"screenshot of {name}: {target.resolve()}")
    print(f"{len(pages)} pages opened in {Path(chromium).name}, {failed} with faults")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
