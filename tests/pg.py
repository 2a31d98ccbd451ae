"""A throwaway PostgreSQL server for the tests, from Debian's ``postgresql`` package.

A cluster in a temporary folder (``initdb``, then ``pg_ctl`` on a unix socket in that folder,
no TCP port), run as the ``postgres`` system user when the tests run as root (``initdb``
refuses root). Each test gets a fresh database copied from one migrated once (a template).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import psycopg

from companion import store
from companion.store import db

USER = "castellan"
TEMPLATE = "castellan_template"


def binaries() -> Path:
    """The newest installed PostgreSQL's programs (``make debs`` installs the package)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parent.parent.name)
    )
    if not found:
        raise RuntimeError("PostgreSQL is not installed: `make debs` installs Debian's postgresql package.")
    return Path(found[-1]).parent


class Server:
    """One PostgreSQL cluster, started on creation; ``stop()`` ends it and deletes its folder."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="castellan-pg-"))
        self.data = self.folder / "data"
        self._names = itertools.count()
        as_postgres = os.getuid() == 0
        if as_postgres:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        self.folder.chmod(0o755)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            "-A",
            "trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--no-instructions",
        )
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )
        self._admin(f"CREATE DATABASE {TEMPLATE}")
        store.migrate(self.url(TEMPLATE))
        db.engine(self.url(TEMPLATE)).dispose()

    def url(self, name: str) -> str:
        """The ``CASTELLAN_DATABASE`` of one database on this server."""
        return f"postgresql://{USER}@/{name}?host={self.folder}"

    def new_database(self, empty: bool = False) -> str:
        """A fresh, migrated database (``empty``: with no table at all, not even Alembic's); its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self._admin(f"CREATE DATABASE {name}" + ("" if empty else f" TEMPLATE {TEMPLATE}"))
        return self.url(name)

    def drop(self, url: str) -> None:
        """Close this process's connections to a test's database and delete it."""
        db.engine(url).dispose()
        self._admin(f"DROP DATABASE IF EXISTS {url.split('@/', 1)[1].split('?')[0]} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server at once and delete its folder."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def _admin(self, sql: str) -> None:
        with psycopg.connect(dbname="postgres", user=USER, host=str(self.folder), autocommit=True) as conn:
            conn.execute(sql)

    def _run(self, program: str, *args: str) -> None:
        command = [str(binaries() / program), *args]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.folder)


def on_a_throwaway_server(run: Callable[[str], None]) -> None:
    """``run(url)`` on a fresh database of a throwaway server, for the benchmarks; when PostgreSQL
    is not installed, a line says it was skipped."""
    try:
        binaries()
    except RuntimeError as missing:
        print(f"\nPostgreSQL skipped: {missing}")
        return
    server = Server()
    try:
        run(server.new_database())
    finally:
        server.stop()
