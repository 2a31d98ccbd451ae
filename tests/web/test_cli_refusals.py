"""Every bad argument or condition of the command line: one clear line, a non-zero exit, no traceback."""

from __future__ import annotations

import socket

import pytest

from companion import cli


def _one_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err + captured.out
    return lines[0]


def _refused(argv, capsys) -> str:
    try:
        status = cli.main(argv)
    except SystemExit as stopped:
        status = stopped.code
    assert status not in (0, None)
    return _one_line(capsys)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["serve", "--port", "-1"], "a port is a whole number from 1 to 65535"),
        (["serve", "--port", "99999"], "a port is a whole number from 1 to 65535, not '99999'"),
        (["serve", "--port", "http"], "a port is a whole number"),
        (["serve", "--threads", "0"], "1 or more, not '0'"),
        (["serve", "--workers", "-3"], "1 or more"),
        (["serve", "--host", "256.1.1.1"], "'256.1.1.1' is not an IP address or a host name"),
        (["serve", "--host", "bad host"], "is not an IP address or a host name"),
        (
            ["print", "score-pad", "--base-url", "javascript:alert(1)"],
            "must be an http:// or https:// address",
        ),
        (["print", "score-pad", "--base-url", "http://" + "a.b" * 1700], "has no host name a phone can open"),
        (["print", "score-pad", "--base-url", "http://" + "a" * 5000], "has no host name a phone can open"),
        (
            ["print", "score-pad", "--base-url", "http://" + "ab." * 40 + "org"],
            "a QR code has room for at most",
        ),
        (["print", "score-pad", "--paper", "a5"], "invalid choice: 'a5'"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(capsys, argv, words):
    assert words in _refused(argv, capsys)


@pytest.mark.parametrize("output", ["/nonexistent/dir/x.pdf", "/", "{tmp}/notes.txt/x.pdf"])
def test_an_unwritable_output_is_refused_in_one_line_and_writes_nothing(tmp_path, capsys, output):
    (tmp_path / "notes.txt").write_text("a file, not a folder")  # (the tests may run as root: no chmod)
    output = output.format(tmp=tmp_path)
    line = _refused(["print", "score-pad", "-o", output, "--base-url", "http://192.168.1.2:5000"], capsys)
    assert line.startswith(f"castellan print: cannot write {output}: ")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt"]


def test_serve_on_a_port_in_use_says_so_in_one_line(capsys):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        line = _refused(["serve", "--host", "127.0.0.1", "--port", str(port)], capsys)
    assert line.startswith(f"castellan serve: cannot listen on 127.0.0.1 port {port}: ")


@pytest.mark.parametrize("kind", ["not sqlite", "a folder"])
def test_serve_with_a_database_that_cannot_be_opened_says_so_in_one_line(tmp_path, monkeypatch, capsys, kind):
    database = tmp_path / "castellan.sqlite3"
    if kind == "a folder":
        database.mkdir()
    else:
        database.write_text("these are my notes, not a database\n" * 100)
    monkeypatch.setenv("CASTELLAN_DATABASE", str(database))
    with socket.create_server(("127.0.0.1", 0)) as free:
        port = free.getsockname()[1]
    line = _refused(["serve", "--host", "127.0.0.1", "--port", str(port)], capsys)
    assert line.startswith(f"castellan serve: cannot open {database} as Castellan's database: ")


def test_serve_with_a_bad_base_url_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CASTELLAN_DATABASE", str(tmp_path / "c.sqlite3"))
    monkeypatch.setenv("CASTELLAN_BASE_URL", "ftp://castellan.local")
    with socket.create_server(("127.0.0.1", 0)) as free:
        port = free.getsockname()[1]
    assert "must be an http:// or https:// address" in _refused(
        ["serve", "--host", "127.0.0.1", "--port", str(port)], capsys
    )


@pytest.mark.parametrize(
    "name, value, words",
    [
        ("SWEEP_DAYS", "-1", "CASTELLAN_SWEEP_DAYS is a whole number from 0 to 36,500"),
        ("SWEEP_DAYS", "99999999999", "not '99999999999'"),
        ("TABLES_PER_MINUTE", "0", "CASTELLAN_TABLES_PER_MINUTE is a whole number from 1 to 1,000,000"),
        ("PDFS_PER_MINUTE", "ten", "CASTELLAN_PDFS_PER_MINUTE is a whole number from 1"),
        ("IMPORTS_PER_MINUTE", "²", "CASTELLAN_IMPORTS_PER_MINUTE is a whole number from 1"),
        ("TRUSTED_PROXIES", "-2", "CASTELLAN_TRUSTED_PROXIES is a whole number from 0 to 10"),
    ],
)
def test_serve_refuses_a_bad_setting_in_one_line_before_it_touches_a_table(
    tmp_path, monkeypatch, capsys, name, value, words
):
    from companion.app import create_app
    from companion.store import db
    from tests.conftest import Browser

    database = str(tmp_path / "c.sqlite3")
    monkeypatch.setenv("CASTELLAN_DATABASE", database)
    Browser(create_app({"SECRET_KEY": "t", "TESTING": True}).test_client()).create_table(
        "scorepad", {"players": "Ola"}
    )  # changed a second ago: a sweep of -1 days deleted it
    monkeypatch.setenv(f"CASTELLAN_{name}", value)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    line = _refused(["serve", "--host", "127.0.0.1", "--port", str(port)], capsys)
    assert line.startswith("castellan serve: ") and words in line
    with db.connect(database) as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM tables").scalar() == 1
    if name == "SWEEP_DAYS":
        assert words in _refused(["db", "--clean"], capsys)
