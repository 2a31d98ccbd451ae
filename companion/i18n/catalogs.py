"""The translation catalogs: extract, update and compile them (``make translations``).

English is the source language; ``translations/<lang>/LC_MESSAGES/messages.po`` holds each
other language. The ``.po`` files are written to merge well when several people translate at
once: no source locations, messages sorted, no line wrapping, a header that does not change
with each extraction. The compiled ``.mo`` files are not committed: the wheel build compiles
them (setup.py), and the app compiles a missing or stale one when it starts (a source
checkout). Only Babel is used here, so setup.py can load this file on its own.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]  # the repository: babel.cfg, the code and the templates
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
LANGUAGES = ("en", "fr", "pl")  # English first: the source and the default
DOMAIN = "messages"
# The marker functions rules modules use (companion/rules/sentences.py), besides gettext's own.
KEYWORDS = (
    "N_",
    "NP_:1,2",
    "_l",
    "gettext",
    "ngettext:1,2",
    "_",
    "lazy_gettext",
    "lazy_ngettext:1,2",
    "pgettext:1c,2",
)  # pgettext: a word whose sense needs a context ("Game" of a match)


def po_path(lang: str, directory: Path = TRANSLATIONS) -> Path:
    """The catalog of ``lang``."""
    return directory / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_catalog(po: Path, mo: Path) -> None:
    """Write ``mo`` from ``po`` (atomically: several workers may start at once); fuzzy entries are left out."""
    with po.open("rb") as file:
        catalog = read_po(file)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    mo.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=mo.parent, suffix=".mo.tmp")
    with os.fdopen(handle, "wb") as file:
        file.write(buffer.getvalue())
    os.replace(temporary, mo)


def compile_stale(directory: Path = TRANSLATIONS) -> list[Path]:
    """Compile every catalog under ``directory`` whose ``.mo`` is missing or older than its ``.po``."""
    compiled = []
    for po in sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            compile_catalog(po, mo)
            compiled.append(mo)
    return compiled


def extract(pot: Path) -> None:
    """Every marked sentence of the Python code and the templates (babel.cfg) into ``pot``."""
    from babel.messages.frontend import CommandLineInterface  # the tooling: not loaded by a running app

    keywords = [arg for keyword in KEYWORDS for arg in ("-k", keyword)]
    CommandLineInterface().run(
        [
            "pybabel",
            "-q",
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "--no-default-keywords",
            *keywords,
            "--no-location",
            "--sort-output",
            "--no-wrap",
            "-o",
            str(pot),
            str(ROOT),
        ]
    )


def update(pot: Path, directory: Path = TRANSLATIONS) -> None:
    """Bring each language's catalog in line with ``pot``: new sentences empty, gone ones dropped.

    No fuzzy matching (a guessed translation is worse than an empty one, and the completeness
    test fails on both), and the header's dates kept, so two translators' files merge.
    """
    with pot.open("rb") as file:
        template = read_po(file)
    for lang in LANGUAGES[1:]:
        path = po_path(lang, directory)
        with path.open("rb") as file:
            catalog = read_po(file, locale=lang)
        created, revised = catalog.creation_date, catalog.revision_date
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.creation_date, catalog.revision_date = created, revised
        catalog.project, catalog.version, catalog.msgid_bugs_address = "Castellan", "1", "docs/translating.md"
        catalog.obsolete.clear()
        buffer = io.BytesIO()
        write_po(buffer, catalog, width=0, no_location=True, sort_output=True, ignore_obsolete=True)
        path.write_bytes(buffer.getvalue())


def main() -> int:
    """``python companion/i18n/catalogs.py``: extract, update and compile (what ``make translations`` runs)."""
    with tempfile.TemporaryDirectory() as workdir:
        pot = Path(workdir) / f"{DOMAIN}.pot"
        extract(pot)
        update(pot)
    for mo in compile_stale():
        print(f"compiled {mo.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
