"""Draw the installable app's icons (companion/web/static/icons/*.png) from castellan.svg.

Run with ``make icons`` after changing the SVG; the PNGs are committed, so serving Castellan
needs none of this. Headless Chromium (the tests' browser) draws them: the castle in the
brand's brown on the page's light background, full bleed, and the castle inside the middle
56% of the square, the part a "maskable" icon keeps whatever shape a phone cuts it to
(a circle of 80% of the side).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "companion" / "web" / "static"
SIZES = (192, 512)
BACKGROUND = "#faf8f3"  # castellan.css's --bg
CHROMIUM = "/usr/bin/chromium"


def page_for(size: int) -> str:
    """A page of ``size`` px square showing the SVG centred, its castle within the safe zone."""
    svg = (STATIC / "castellan.svg").read_text(encoding="utf-8")
    # The castle spans x 4..32 and y 8..30 of its 32-unit box: a box of 28 units around it, centred.
    svg = svg.replace('viewBox="0 0 32 32"', 'viewBox="4 5 28 28"')
    side = round(size * 0.56)
    return (
        f"<!doctype html><html><body style='margin:0;width:{size}px;height:{size}px;"
        f"background:{BACKGROUND};display:grid;place-items:center'>"
        f"<div style='width:{side}px;height:{side}px'>{svg.replace('<svg ', '<svg width=100% height=100% ')}"
        "</div></body></html>"
    )


def main() -> None:
    """Write icons/castellan-<size>.png for each size."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(size))
            target = STATIC / "icons" / f"castellan-{size}.png"
            page.screenshot(path=str(target), omit_background=False)
            print(target, target.stat().st_size, "bytes", file=sys.stderr)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
