"""The installable app's icons (static/icons/castellan-<size>.png), drawn from static/castellan.svg.

Run ``castellan draw-icons`` (or ``make icons``) after changing the SVG; the PNGs are committed, so
serving Castellan needs none of this, and tests/browser/test_app_icons.py fails when they are not
what this module draws now. Headless Chromium (Debian's, the tests' browser, driven by Playwright
from the test extra) draws them: the castle in the brand's brown on the page's light background,
full bleed, and the castle inside the middle 56% of the square, the part a "maskable" icon keeps
whatever shape a phone cuts it to (a circle of 80% of the side).
"""

from __future__ import annotations

import sys
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
SIZES = (192, 512)
BACKGROUND = "#faf8f3"  # castellan.css's --bg
CHROMIUM = "/usr/bin/chromium"


def icon_path(size: int) -> Path:
    """Where the committed icon of ``size`` px lives."""
    return STATIC / "icons" / f"castellan-{size}.png"


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


def drawn(browser, size: int) -> bytes:
    """The PNG of the icon of ``size`` px, drawn by ``browser`` (a Playwright Chromium)."""
    page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
    try:
        page.set_content(page_for(size))
        return page.screenshot(omit_background=False)
    finally:
        page.close()


def main() -> int:
    """Write icons/castellan-<size>.png for each size; say where, or why it cannot."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("castellan draw-icons: Playwright is missing: pip install -e '.[test]'", file=sys.stderr)
        return 1
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for size in SIZES:
            target = icon_path(size)
            target.write_bytes(drawn(browser, size))
            print(target, target.stat().st_size, "bytes", file=sys.stderr)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
