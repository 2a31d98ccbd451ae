"""axe-core in the browser tests: one helper, ``assert_accessible(page)``, run once per page state.

axe-core comes with axe-playwright-python (its axe.min.js is in the package: nothing is downloaded at
test time). The helper checks the WCAG 2.0, 2.1 and 2.2 A and AA rules in light and dark mode
(prefers-color-scheme emulated) at the page's own width and at the other phone width of ``WIDTHS``,
measures the tap targets at each of those widths (44 px, none covering another), and fails naming
each rule and the elements that break it.
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
    """Fail, naming rule and element, if axe-core finds a WCAG 2.2 A/AA violation on the page, or
    a tap target is under 44 px or overlaps another (``assert_tap_targets``).

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
            report += [f"{width}px tap target: {line}" for line in page.evaluate(SMALL_TARGETS)]
            page.emulate_media(color_scheme="dark")
            report += [f"{width}px dark: {line}" for line in violations(page, COLOUR_RULES)]
    finally:
        page.emulate_media(color_scheme=None)
        if page.viewport_size != size:
            page.set_viewport_size(size)
    assert not report, f"axe-core found WCAG violations on {page.url}:\n" + "\n".join(report)


# The controls a person taps: a radio or a checkbox is tapped through the label around it; the
# skip link shows only on focus; links inside a sentence are exempt (WCAG 2.5.5's inline exception).
CONTROLS = """() => [...document.querySelectorAll(
    'button, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea, summary,'
    + ' a[href]:not(.skip), label:has(> input[type=radio], > input[type=checkbox])')]
  .filter(e => e.checkVisibility({visibilityProperty: true}) && e.getClientRects().length
               && !(e.tagName === 'A' && getComputedStyle(e).display === 'inline'))"""

SMALL_TARGETS = f"""() => {{
  const boxes = ({CONTROLS})().map(e => [e, e.getBoundingClientRect()]);
  const named = (e, box) => `${{Math.round(box.width * 10) / 10}}x${{Math.round(box.height * 10) / 10}} px: ${{e.outerHTML.slice(0, 100)}}`;
  const small = boxes.filter(([e, box]) => box.width < 44 || box.height < 44).map(([e, box]) => named(e, box));
  // Two targets that overlap (a grid whose cells are wider than its tracks): a tap near the edge
  // lands on the neighbour. Pinned answers are left to assert_zoomable.
  const inFlow = boxes.filter(([e]) => !e.closest('.answer-fresh'));
  const overlapping = inFlow.flatMap(([a, boxA], i) => inFlow.slice(i + 1)
    .filter(([b, boxB]) => !a.contains(b) && !b.contains(a)
      && Math.min(boxA.right, boxB.right) - Math.max(boxA.left, boxB.left) > 0.5
      && Math.min(boxA.bottom, boxB.bottom) - Math.max(boxA.top, boxB.top) > 0.5)
    .map(([b, boxB]) => `${{named(a, boxA)}} overlaps ${{named(b, boxB)}}`));
  return [...small, ...overlapping];
}}"""

# A control is lost when, scrolled to the middle of the screen, something else covers its centre
# (or an ancestor clips it away).
LOST_CONTROLS = f"""() => ({CONTROLS})().map(e => {{
    e.scrollIntoView({{block: 'center', inline: 'center'}});
    const box = e.getBoundingClientRect();
    const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    const label = e.closest('label');
    const found = hit && (e.contains(hit) || hit.contains(e) || (label && hit.closest('label') === label));
    return found ? null : `${{e.outerHTML.slice(0, 100)}} is under ${{hit ? hit.outerHTML.slice(0, 80) : 'nothing'}}`;
  }}).filter(lost => lost)"""

# Browser zoom at 200 % on a 390 px phone lays the page out in 195 CSS px.
ZOOMED_WIDTH = 195


def assert_tap_targets(page) -> None:
    """Fail naming each visible control smaller than 44 x 44 px (WCAG 2.5.5) or overlapping another,
    at the page's own width (``assert_accessible`` measures at each width of ``WIDTHS``)."""
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"tap targets under 44 px or overlapping on {page.url}:\n" + "\n".join(small)


def assert_zoomable(page) -> None:
    """Fail if, with text at 200 % (the page laid out in 195 CSS px), a control is lost or covered.

    A two-dimensional grid or a wide table may scroll sideways (WCAG 1.4.10's exception); the
    page is left at its own size.
    """
    size = page.viewport_size
    try:
        page.set_viewport_size({"width": ZOOMED_WIDTH, "height": size["height"] // 2})
        lost = page.evaluate(LOST_CONTROLS)
    finally:
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
    assert not lost, f"at 200 % text, controls lost on {page.url}:\n" + "\n".join(lost)
