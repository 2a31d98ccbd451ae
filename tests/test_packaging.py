"""The wheel's package list names every folder the app ships files from: templates/ as
``companion.templates``, data folders (static files, translations, fonts, decks) as packages of
their own. setuptools warns about a folder it is not told of, and says a later release may leave
its files out of the wheel: a new game's templates or a new vendor file would then be missing
from ``pip install .`` while the editable install of `make` still worked."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where each top folder ships as (pyproject's package-dir): templates/ is companion.templates.
SHIPPED = {"companion": "companion", "printables": "printables", "templates": "companion.templates"}


def _folders_with_files() -> set[str]:
    found = set()
    for top, package in SHIPPED.items():
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]:
            if not folder.is_dir() or folder.name == "__pycache__":
                continue
            if any(item.is_file() and item.suffix not in (".pyc", ".mo") for item in folder.iterdir()):
                inner = folder.relative_to(ROOT / top).parts
                found.add(".".join((package, *inner)))
    return found


def test_every_folder_the_app_ships_is_a_listed_package():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    assert _folders_with_files() - listed == set()
    assert {"companion.web.static.vendor", "companion.templates.tactics", "printables.fonts"} <= listed
