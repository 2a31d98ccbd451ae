"""axe-core in the browser tests: one helper, ``assert_accessible(page)``, run once per page state.

axe-core comes with axe-playwright-python (its axe.min.js is in the package: nothing is downloaded at
test time). The helper checks the WCAG 2.0, 2.1 and 2.2 A and AA rules in light and dark mode
(prefers-color-scheme emulated) at the page's own width and at the other phone width of ``WIDTHS``,
and fails naming each rule and the elements that break it.
"""

from __future__ import annotations

from functools import cache

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
WIDTHS = (390, 360)
# Dark mode changes only colours (castellan.css swaps custom properties), so in dark mode only the
# colour rules run again: the whole check costs two full runs and two short ones per page state.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


@cache
def _axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return AXE_SCRIPT


def violations(page, rules: list[str] | None = None) -> list[str]:
    """One line per element axe-core finds against WCAG A/AA on the page as it is now.

    ``rules`` narrows the run to those axe rule ids; by default every WCAG A/AA rule runs.
    """
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_axe_script())
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": WCAG_TAGS}
    return page.evaluate(
        """only => axe.run(document, {runOnly: only, resultTypes: ['violations']})
            .then(results => results.violations.flatMap(rule => rule.nodes.map(node =>
                `${rule.id} (${rule.impact}): ${node.target.join(' ')}: ${node.failureSummary.replace(/\\s+/g, ' ')}`)))""",
        only,
    )


def assert_accessible(page, both_widths: bool = True) -> None:
    """Fail, naming rule and element, if axe-core finds a WCAG 2.2 A/AA violation on the page.

    The page is checked in light and dark mode at each width of ``WIDTHS`` (only at its own width
    with ``both_widths=False``, for a test already run at each width), then left as it was (same
    viewport, colour scheme back to the context's own).
    """
    size = page.viewport_size
    widths = sorted(WIDTHS, key=lambda w: w != size["width"]) if both_widths else [size["width"]]
    report: list[str] = []
    try:
        for width in widths:
            if width != page.viewport_size["width"]:
                page.set_viewport_size({"width": width, "height": size["height"]})
            page.emulate_media(color_scheme="light")
            report += [f"{width}px light: {line}" for line in violations(page)]
            page.emulate_media(color_scheme="dark")
            report += [f"{width}px dark: {line}" for line in violations(page, COLOUR_RULES)]
    finally:
        page.emulate_media(color_scheme=None)
        if page.viewport_size != size:
            page.set_viewport_size(size)
    assert not report, f"axe-core found WCAG violations on {page.url}:\n" + "\n".join(report)
