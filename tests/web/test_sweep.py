"""Abandoned tables are swept (at start-up and by `castellan db --clean`); finished ones are kept as plays."""

from __future__ import annotations

import os

import sqlalchemy as sa
from flask import Flask

from companion import cli
from companion.app import create_app, default_database
from companion.store import db
from companion.store.db import links, remembered, tables
from tests.conftest import Browser

LONG_AGO = "2020-01-01T00:00:00.000+00:00"


def _titles(database) -> set[str]:
    with db.connect(database) as conn:
        return set(conn.execute(sa.select(tables.c.title)).scalars())


def _age(database, titles) -> None:
    with db.connect(database) as conn:
        conn.execute(tables.update().where(tables.c.title.in_(titles)).values(updated_at=LONG_AGO))
        conn.commit()


def _tables(tmp_path) -> str:
    """Four score pads: abandoned, finished long ago, touched today, and abandoned but remembered."""
    database = str(tmp_path / "c.sqlite3")
    phone = Browser(create_app({"DATABASE": database, "SECRET_KEY": "t", "TESTING": True}).test_client())
    for name in ("Abandoned", "Finished", "Today", "Remembered"):
        token = phone.create_table("scorepad", {"players": name})
        if name == "Finished":
            finished = phone.client.post(f"/api/v1/tables/{token}/finish", json={"version": 0})
            assert finished.status_code == 200, finished.data
    _age(database, ["Abandoned", "Finished", "Remembered"])
    return database


def test_start_up_sweeps_tables_untouched_for_90_days_and_never_finished(tmp_path):
    database = _tables(tmp_path)
    create_app({"DATABASE": database, "SECRET_KEY": "t", "TESTING": True})
    assert _titles(database) == {"Finished", "Today"}
    with db.connect(database) as conn:
        kept = set(conn.execute(sa.select(tables.c.id)).scalars())
        assert set(conn.execute(sa.select(links.c.table_id)).scalars()) == kept
        # The finished table untouched as long stays as a play, off the home page (tests/web/test_remembered.py).
        today = (
            sa.select(links.c.token)
            .join(tables, tables.c.id == links.c.table_id)
            .where(tables.c.title == "Today")
        )
        kept_rows = set(conn.execute(sa.select(remembered.c.token)).scalars())
        assert kept_rows and kept_rows <= set(conn.execute(today).scalars())


def test_the_sweep_can_be_turned_off(tmp_path):
    database = _tables(tmp_path)
    create_app({"DATABASE": database, "SECRET_KEY": "t", "TESTING": True, "SWEEP_DAYS": 0})
    assert len(_titles(database)) == 4


def test_castellan_db_reports_the_size_and_cleans(tmp_path, monkeypatch, capsys):
    database = _tables(tmp_path)
    monkeypatch.setenv("CASTELLAN_DATABASE", database)
    assert cli.main(["db"]) == 0
    assert f"{database}: " in capsys.readouterr().out
    assert cli.main(["db", "--clean", "--days", "30"]) == 0
    said = capsys.readouterr().out
    assert "4 tables (1 finished by their referee)" in said
    assert "Swept 2 tables untouched for 30 days and never finished; now " in said
    assert _titles(database) == {"Finished", "Today"}


def test_castellan_db_with_the_sweep_at_start_turned_off_still_reports_and_cleans_after_90_days(
    tmp_path, monkeypatch, capsys
):
    database = _tables(tmp_path)
    monkeypatch.setenv("CASTELLAN_DATABASE", database)
    monkeypatch.setenv("CASTELLAN_SWEEP_DAYS", "0")  # README: 0 turns the sweep at start off
    assert cli.main(["db"]) == 0
    assert f"{database}: " in capsys.readouterr().out
    assert cli.main(["db", "--clean"]) == 0
    assert "Swept 2 tables untouched for 90 days and never finished" in capsys.readouterr().out
    assert _titles(database) == {"Finished", "Today"}
    monkeypatch.setenv("CASTELLAN_SWEEP_DAYS", "30")  # the default of --days follows the setting
    assert cli.main(["db", "--clean"]) == 0
    assert "Swept 0 tables untouched for 30 days and never finished" in capsys.readouterr().out


def test_castellan_db_and_plays_export_say_there_is_no_database_rather_than_make_an_empty_one(
    tmp_path, monkeypatch, capsys
):
    missing = tmp_path / "moved" / "castellan.sqlite3"
    monkeypatch.setenv("CASTELLAN_DATABASE", str(missing))
    assert cli.main(["db"]) == 1
    assert f"castellan db: there is no database at {missing}" in capsys.readouterr().err
    assert cli.main(["plays", "export", "-o", str(tmp_path / "plays.json")]) == 1
    assert f"castellan plays: there is no database at {missing}" in capsys.readouterr().err
    assert not missing.exists() and not (tmp_path / "plays.json").exists()


def test_the_commands_find_the_servers_database_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("CASTELLAN_DATABASE", raising=False)
    here = default_database()
    monkeypatch.chdir(tmp_path)
    assert default_database() == here  # not ./instance of wherever the command is run
    assert here == os.path.join(
        Flask("companion", instance_relative_config=True).instance_path, "castellan.sqlite3"
    )
    monkeypatch.setenv("CASTELLAN_DATABASE", str(tmp_path / "club.sqlite3"))
    assert default_database() == str(tmp_path / "club.sqlite3")


def test_castellan_plays_moves_a_clubs_plays_to_a_new_servers_database(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CASTELLAN_DATABASE", _tables(tmp_path))  # one play: the finished score pad
    assert cli.main(["plays", "export", "-o", str(tmp_path / "plays.json")]) == 0
    assert "Wrote 1 plays to" in capsys.readouterr().out
    new = tmp_path / "new server" / "instance" / "castellan.sqlite3"  # its folder made by the import
    monkeypatch.setenv("CASTELLAN_DATABASE", str(new))
    assert cli.main(["plays", "import", str(tmp_path / "plays.json")]) == 0
    assert "Plays added: 1." in capsys.readouterr().out
    with db.connect(str(new)) as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(db.plays)).scalar_one() == 1
