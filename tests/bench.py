"""Benchmarks to rerun (`make bench`): what a phone downloads, and what an action costs.

Not a test: it prints numbers. Timings are medians of repeated runs on this machine;
compare runs on the same machine, not across machines.
"""

from __future__ import annotations

import gzip
import io
import statistics
import tempfile
import time
from pathlib import Path

import printables
from companion import create_app, db, store
from companion.rules import scorepad
from tests import bench_server, bench_tactics
from tests.conftest import Browser


def main() -> None:
    """Print page weights, action costs by table length, and PDF build times."""
    folder = Path(tempfile.mkdtemp())
    app = create_app({"DATABASE": str(folder / "bench.sqlite3"), "SECRET_KEY": "bench"})
    _page_weights(app)
    _action_costs(folder / "actions.sqlite3")
    _pdf_builds()
    bench_server.main()
    bench_tactics.main()


def _page_weights(app) -> None:
    phone = Browser(app.test_client())
    token = phone.create_table("scorepad", {"players": "Ola\nKuba\nAda"})
    live = phone.get(f"/t/{token}/live")
    pages = {
        "home /": phone.get("/").data,
        "table page": phone.get(f"/t/{token}").data,
        "live fragment": live.data,
        "live poll, unchanged (304)": phone.get(
            f"/t/{token}/live", headers={"If-None-Match": live.headers["ETag"]}
        ).data,
        "castellan.css": phone.get("/static/castellan.css").data,
        "castellan.js": phone.get("/static/castellan.js").data,
        "htmx": phone.get("/static/vendor/htmx-2.0.11.min.js").data,
    }
    print("\nWhat a phone downloads (bytes; gzip as a proxy would serve it)")
    for name, body in pages.items():
        print(f"  {name:32} {len(body):8,}  {len(gzip.compress(body)):8,} gz")
    for game in ("", "castle/", "fort/", "forteresse/", "zamek/", "tactics/"):
        body = phone.get(f"/{game}").data
        print(f"  /{game:31} {len(body):8,}  {len(gzip.compress(body)):8,} gz")


def _action_costs(path: Path) -> None:
    conn = db.connect(path)
    db.migrate(conn)
    table, _ = store.create_table(conn, scorepad, "scorepad", {"players": ["Ola", "Kuba"]})
    print("\nCost of one action and of one undo as the table grows (ms, median of 20)")
    for length in (10, 100, 1000):
        while table.head_seq < length:
            table = store.act(
                conn, scorepad, table.id, "referee", {"type": "round", "points": [1, 2]}, table.version
            )
        acts, undos = [], []
        for _ in range(20):
            start = time.perf_counter()
            table = store.act(
                conn, scorepad, table.id, "referee", {"type": "round", "points": [3, 4]}, table.version
            )
            acts.append(time.perf_counter() - start)
            start = time.perf_counter()
            table = store.undo(conn, scorepad, table.id, table.version)
            undos.append(time.perf_counter() - start)
        print(
            f"  after {length:5} actions: act {statistics.median(acts) * 1000:6.2f}   undo {statistics.median(undos) * 1000:6.2f}"
        )


def _pdf_builds() -> None:
    print("\nPrintable sheets (A4): size and build time")
    for sheet in printables.all_sheets():
        out = io.BytesIO()
        start = time.perf_counter()
        printables.build(sheet, out, paper="a4", base_url="http://192.168.1.20:5000")
        took = time.perf_counter() - start
        print(f"  {sheet.slug:28} {len(out.getvalue()):9,} bytes  {took * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
