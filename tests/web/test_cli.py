"""The castellan command and the installed package: serve, print, and a wheel that works alone."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from pypdf import PdfReader

from companion import cli

ROOT = Path(__file__).resolve().parents[2]


def test_print_writes_the_named_sheet_on_letter(tmp_path, capsys):
    out = tmp_path / "pad.pdf"
    assert (
        cli.main(
            ["print", "score-pad", "--paper", "letter", "-o", str(out), "--base-url", "http://10.0.0.9:5000"]
        )
        == 0
    )
    page = PdfReader(out).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    assert f"Wrote {out}" in capsys.readouterr().out


def test_print_list_names_every_sheet(capsys):
    assert cli.main(["print", "--list"]) == 0
    listed = capsys.readouterr().out
    assert "score-pad" in listed and "blank-cards" in listed


def test_print_refuses_an_unknown_sheet_clearly(tmp_path, capsys):
    assert cli.main(["print", "no-such-sheet", "-o", str(tmp_path / "x.pdf")]) == 2
    assert "no sheet called 'no-such-sheet'" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_runs_a_real_server_and_prints_where_to_find_it(tmp_path):
    port = _free_port()
    env = {**os.environ, "CASTELLAN_DATABASE": str(tmp_path / "db.sqlite3"), "SECRET_KEY": "cli-test"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "2",
        ],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        body = _get_when_up(f"http://127.0.0.1:{port}/")
        assert "Forteresse" in body and "Square Tactics" in body
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0]
    assert f"Castellan is serving on http://127.0.0.1:{port}/" in output
    assert "█" in output  # the QR code drawn in the terminal


def _get_when_up(url: str) -> str:
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                assert response.headers["Server"].startswith("gunicorn")  # the production server
                return response.read().decode()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_the_wheel_carries_templates_static_files_and_migrations(tmp_path):
    """pip install . gives a working app: build the wheel, unpack it alone, serve a page from it."""
    # setuptools builds in the checkout's build/ and never deletes from it: a migration renamed
    # since the last build would ship twice.
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("castellan-*.whl"))
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
    )
    probe = (
        "import companion, sys; from companion import create_app; "
        "assert companion.__file__.startswith(sys.argv[1]), companion.__file__; "
        "app = create_app({'DATABASE': sys.argv[2], 'SECRET_KEY': 'w'}); c = app.test_client(); "
        "page = c.get('/'); css = c.get('/static/castellan.css'); pdf = c.get('/print/score-pad.pdf'); "
        "assert page.status_code == 200 and b'Square Tactics' in page.data, page.status_code; "
        "assert css.status_code == 200 and pdf.data.startswith(b'%PDF'); print('wheel ok')"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe, str(target), str(tmp_path / "db.sqlite3")],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(target)},
        capture_output=True,
        text=True,
    )
    assert result.stdout.strip() == "wheel ok", result.stderr[-2000:]
