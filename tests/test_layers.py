"""The house's layers (docs/architecture.md): which part of companion/ may import which, checked on
the code itself, and the rules loading alone.

Every ``import`` and ``from ... import`` is read from the source with ``ast``, deferred ones inside
functions included, so that no import can cross a line unseen.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"

# What each part may import of Castellan's own code, besides itself. A part is a folder of companion/
# or one of its top-level modules; ``printables`` is the sheets' package beside it.
MAY_IMPORT = {
    "rules": set(),
    "store": {"rules"},
    "i18n": {"rules"},
    "service": {"rules", "store", "i18n"},
    "http": {"rules", "store", "i18n", "service"},
    "web": {"rules", "store", "i18n", "service", "http", "printables"},
    "api": {"rules", "store", "i18n", "service", "http"},
    "printables": {"rules", "i18n"},
    # The top: the app factory wires the layers together; the command line and the server start it.
    "app": {"rules", "store", "i18n", "service", "http", "web", "api"},
    "cli": {"rules", "store", "i18n", "service", "http", "web", "app", "server", "printables"},
    "server": {"app", "web"},
    "__init__": {"app"},
}
HEAVY = ("flask", "jinja2", "werkzeug", "sqlalchemy", "reportlab", "markupsafe", "flask_babel", "babel")


def _part(module: str) -> str | None:
    """The part a dotted module name belongs to (``companion.web.views.fort`` -> ``web``), or None."""
    head, _, rest = module.partition(".")
    if head == "printables":
        return "printables"
    if head != "companion":
        return None
    return rest.partition(".")[0] or "__init__"


def _imports(path: Path, module: str) -> list[tuple[int, str]]:
    """Every Castellan module ``path`` imports, with its line: ``import a.b``, ``from a import b``
    (``a.b`` when b is a module, else ``a``), relative imports resolved."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")[: -node.level]
                base = ".".join([*parent, base] if base else parent)
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _modules():
    for root in (PACKAGE, ROOT / "printables"):
        for path in sorted(root.rglob("*.py")):
            relative = path.relative_to(ROOT).with_suffix("")
            parts = list(relative.parts)
            if parts[-1] == "__init__" and len(parts) > 1:
                parts.pop()
            yield path, ".".join(parts)


def test_every_part_has_its_place():
    """A new folder or top-level module of companion/ is given its place in MAY_IMPORT (and the doc)."""
    parts = {_part(module) for _, module in _modules()}
    assert parts <= MAY_IMPORT.keys(), parts - MAY_IMPORT.keys()


def test_imports_go_down_the_layers_only():
    crossings = []
    for path, module in _modules():
        own = _part(module)
        if own == "store" and "migrations" in module:
            continue  # checked apart: a migration imports nothing of Castellan at all
        for line, target in _imports(path, module):
            other = _part(target)
            if other is not None and other != own and other not in MAY_IMPORT[own]:
                crossings.append(f"{path.relative_to(ROOT)}:{line}: {own} imports {target}")
    assert crossings == []


def test_migrations_are_frozen():
    """A migration copies what it needs: it imports nothing of the app, whose code goes on changing."""
    crossings = []
    for path in sorted((PACKAGE / "store" / "migrations").rglob("*.py")):
        for line, target in _imports(path, "companion.store.migrations"):
            if _part(target) is not None:
                crossings.append(f"{path.relative_to(ROOT)}:{line}: imports {target}")
    assert crossings == []


def test_the_web_pages_and_the_api_never_import_each_other():
    """Named apart from the table above, since it is the line the issue of the table policy drew."""
    assert "api" not in MAY_IMPORT["web"] and "web" not in MAY_IMPORT["api"]


RULES = sorted(
    f"companion.rules.{path.stem}" for path in (PACKAGE / "rules").glob("*.py") if path.stem != "__init__"
)


@pytest.mark.parametrize("module", ["companion", "companion.rules", *RULES])
def test_the_rules_load_alone(module):
    """Importing a rules module (in a fresh interpreter) loads none of the web's or the printer's libraries."""
    script = (
        f"import sys, {module}\n"
        f"heavy = sorted(m for m in sys.modules if m.partition('.')[0] in {HEAVY!r})\n"
        "print(' '.join(heavy))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert loaded == []
