"""Abandoned tables are swept (at start-up and by `castellan db --clean`); finished ones are kept as plays."""

from __future__ import annotations

import sqlalchemy as sa

from companion import cli, create_app, db
from companion.db import links, remembered, tables
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
        assert conn.execute(sa.select(sa.func.count()).select_from(remembered)).scalar_one() == 2


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
