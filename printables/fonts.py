"""The embedded fonts of every printable: DejaVu Sans, regular and bold.

ReportLab's built-in Helvetica has no glyph for Polish letters such as ł, so every sheet
embeds (a subset of) DejaVu Sans, which covers French and Polish. The TTF files and their
licence live in ``printables/fonts/``.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}


def register() -> None:
    """Register the regular and bold faces with ReportLab (idempotent)."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, filename in _FILES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))


def font_name(bold: bool = False) -> str:
    """The registered name of the regular or the bold face."""
    return BOLD if bold else REGULAR
