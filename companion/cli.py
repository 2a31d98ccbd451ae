"""The ``castellan`` command: serve the app on the LAN, print sheets, and each game's own tools.

castellan serve [--host 0.0.0.0] [--port 5000] [--workers N] [--threads N]
castellan print SHEET --paper letter --lang pl -o sheet.pdf   (a mat also on --paper a3 or tabloid)
castellan print --list
castellan print zamek-deck --fold --paper a3   (fold-over cards: front beside back, for a printer without duplex)
castellan print tactics-own --deck my-faction.json   (or zamek-own: a deck of your own, as a table takes it)
castellan print zamek-kit --deck my-deck.json        (the game's kit, with that deck of your own in it)
castellan print castle-deck --back-offset 1.5,-0.5   (backs read 1.5 mm right, 0.5 mm up: moved to cancel it)
castellan db [--clean] [--days 90]
castellan plays export -o plays.json    (every play, to import on another server)
castellan plays import plays.json
castellan plays delete PLAY-ID [--yes]   (take one play out of the history, after asking)
castellan draw-icons   (the installable app's PNG icons, drawn again from castellan.svg)
"""

from __future__ import annotations

import argparse
import io
import ipaddress
import json
import os
import re
import socket
import sqlite3
import sys

from sqlalchemy.exc import SQLAlchemyError

import printables
from companion.app import default_database, setting
from companion.http import netinfo
from companion.i18n import LANGUAGES, say
from companion.rules.errors import RuleError
from companion.service import games
from companion.web import app_icons, views
from printables import kit, layout
from printables import own as own_deck
from printables.draw import QRTooLarge

OWN_SHEETS = {"tactics-own": "tactics", "zamek-own": "zamek"}  # a deck of one's own, from --deck FILE


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    registry = games.discover(views)
    extra = {name: command for game in registry.ordered() for name, command in game.commands.items()}
    if argv and argv[0] in extra:
        return extra[argv[0]][1](argv[1:])
    parser = _parser(extra)
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve(args.host, args.port, args.threads, args.workers)
    if args.command == "print":
        return print_sheet(args)
    if args.command == "db":
        return database(args.clean, args.days)
    if args.command == "draw-icons":
        return app_icons.main()
    if args.command == "plays" and args.action == "delete":
        if not args.file:
            parser.error("name the play, for example: castellan plays delete 3f2a9c1e0b7d4e5f6a7b8c9d")
        return delete_play(args.file, args.yes)
    if args.command == "plays":
        file = args.output if args.action == "export" else args.file
        if not file:
            example = (
                "castellan plays export -o plays.json"
                if args.action == "export"
                else "castellan plays import plays.json"
            )
            parser.error(f"name the file, for example: {example}")
        return plays(args.action, file, registry)
    parser.print_help()
    return 2


class _Parser(argparse.ArgumentParser):
    """argparse that says what is wrong in one line (no usage block), and exits with 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message}\n")


def _port(text: str) -> int:
    """A TCP port: a whole number from 1 to 65535."""
    if not re.fullmatch(r"\d{1,5}", text.strip()) or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, not {text[:20]!r}")
    return int(text)


def _at_least_one(text: str) -> int:
    """A count of threads or processes: a whole number, 1 or more."""
    if not re.fullmatch(r"\d{1,4}", text.strip()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"give a whole number, 1 or more, not {text[:20]!r}")
    return int(text)


def _host(text: str) -> str:
    """An address to listen on: an IPv4 or IPv6 address, or a host name."""
    try:
        return str(ipaddress.ip_address(text.strip("[]")))
    except ValueError:
        if not re.fullmatch(r"[\d.]+", text) and netinfo.valid_host(text) and ":" not in text:
            return text
    raise argparse.ArgumentTypeError(f"{text[:40]!r} is not an IP address or a host name")


def _base_url(text: str) -> str:
    try:
        return netinfo.check_base_url(text)
    except ValueError as wrong:
        raise argparse.ArgumentTypeError(str(wrong)) from None


def _back_offset(text: str) -> tuple[float, float]:
    try:
        return layout.back_offset(text)
    except ValueError as wrong:
        raise argparse.ArgumentTypeError(str(wrong)) from None


def _fail(command: str, message: str) -> int:
    print(f"castellan {command}: {message}", file=sys.stderr)
    return 1


def serve(host: str, port: int, threads: int = 8, workers: int | None = None) -> int:
    """Serve Castellan with gunicorn (see companion.server for why) and say where phones can find it.

    What can stop it before it serves (a bad base address or database, a port in use) is said
    in one line, with exit status 1.
    """
    from companion import server
    from companion.app import create_app

    try:
        with socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET):
            pass  # gunicorn would retry a taken port five times, then fail in several lines
    except OSError as refused:
        return _fail("serve", f"cannot listen on {host} port {port}: {refused.strerror or refused}.")
    try:
        app = create_app()
    except ValueError as wrong:
        return _fail("serve", str(wrong))
    except (sqlite3.Error, SQLAlchemyError, OSError, RuntimeError) as broken:
        reason = str(getattr(broken, "orig", None) or broken).splitlines()[0]
        return _fail("serve", f"cannot open {default_database()} as Castellan's database: {reason}.")
    address = (
        os.environ.get("CASTELLAN_BASE_URL")
        or f"http://{netinfo.lan_address() if host in ('0.0.0.0', '::') else host}:{port}"
    )
    print(f"\nCastellan is serving on {address}/ — open it on any phone on this Wi-Fi:\n")
    print(netinfo.qr_terminal(f"{address}/"))
    print(f"\nThis machine: http://127.0.0.1:{port}/    Stop: Ctrl+C\n", flush=True)
    server.run(app, host=host, port=port, workers=workers or server.default_workers(), threads=threads)
    return 0


def database(clean: bool, days: int | None) -> int:
    """Say how big the database is and what it holds; with ``clean``, sweep abandoned tables (untouched
    for ``days``, by default ``sweep_days()``) and compact it."""
    from datetime import timedelta

    from companion import store
    from companion.store import db

    path = _existing_database("db")
    if path is None:
        return 1
    try:
        days = sweep_days() if days is None else days
    except ValueError as wrong:
        return _fail("db", str(wrong))
    try:
        store.migrate(path)
        with db.connect(path) as conn:
            print(f"{path}: {_size(conn, path)}, {_counts(conn)}")
            if clean:
                swept = store.sweep(conn, timedelta(days=days), games.discover(views).game_over)
                store.forget_untouched(conn, timedelta(days=days))
                conn.commit()
                db.compact(conn)
                print(
                    f"Swept {swept} tables untouched for {days} days and never finished; now {_size(conn, path)}."
                )
    except (sqlite3.Error, SQLAlchemyError, OSError, RuntimeError) as broken:
        reason = str(getattr(broken, "orig", None) or broken).splitlines()[0]
        return _fail("db", f"cannot open {path} as Castellan's database: {reason}.")
    return 0


def plays(action: str, file: str, registry: games.Registry) -> int:
    """Export every play of this server's database to ``file`` (``-`` for standard output), or
    import such a file: a club moving its server. What goes wrong is said in one line, exit 1."""
    from companion import store
    from companion.rules.errors import RuleError
    from companion.service import plays_export, ratings
    from companion.store import db

    path = default_database() if action == "import" else _existing_database("plays")
    if path is None:
        return 1
    try:
        if action == "import":
            with sys.stdin if file == "-" else open(file, encoding="utf-8-sig") as source:
                document = json.loads(source.read())
            if not db.is_postgresql(path):  # a new server's first import makes its database
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        store.migrate(path)
        with db.connect(path) as conn:
            if action == "export":
                document = plays_export.castellan_document(plays_export.every_play(conn), conn)
                ratings.with_ratings(conn, document["plays"])
                text = json.dumps(document, ensure_ascii=False, indent=1)
                if file == "-":
                    print(text)
                else:
                    with open(file, "w", encoding="utf-8") as out:
                        out.write(text + "\n")
                    print(f"Wrote {len(document['plays'])} plays to {file}.")
                return 0
            found = plays_export.plays_to_import(document, registry.games)
            added = store.import_plays(conn, found)
    except (ValueError, UnicodeDecodeError, RecursionError) as wrong:
        if isinstance(wrong, RuleError):
            return _fail("plays", wrong.message)
        return _fail("plays", f"{file} is not a Castellan export of plays: it is not JSON.")
    except OSError as refused:
        return _fail("plays", f"cannot use {file}: {refused.strerror or refused}.")
    except (sqlite3.Error, SQLAlchemyError, RuntimeError) as broken:
        reason = str(getattr(broken, "orig", None) or broken).splitlines()[0]
        return _fail("plays", f"cannot open {path} as Castellan's database: {reason}.")
    print(f"Plays added: {added}. Plays of the file already here, left as they were: {len(found) - added}.")
    return 0


def delete_play(play_id: str, yes: bool) -> int:
    """Take one play out of the history for good, once the server's owner said yes (``yes``, or at
    the prompt); say so, in the output and in the log. What goes wrong is said in one line, exit 1."""
    import logging

    from companion import store
    from companion.store import db

    path = _existing_database("plays")
    if path is None:
        return 1
    try:
        store.migrate(path)
        with db.connect(path) as conn:
            found = store.play(conn, play_id)
            if found is None:
                return _fail("plays", f"there is no play {play_id[:64]!r} in {path}.")
            players = ", ".join(
                seat.name if seat.score is None else f"{seat.name} {seat.score}" for seat in found.players
            )
            summary = f"{found.game} play {found.id}, ended {found.finished} ({players})"
            if not yes and not _confirmed(f"Delete the {summary} from the history for good? [y/N] "):
                print("Nothing was deleted.")
                return 1
            store.delete_play(conn, found.id)
    except (sqlite3.Error, SQLAlchemyError, RuntimeError) as broken:
        reason = str(getattr(broken, "orig", None) or broken).splitlines()[0]
        return _fail("plays", f"cannot open {path} as Castellan's database: {reason}.")
    logging.getLogger("castellan").warning(
        "Play %s deleted by the server's owner (castellan plays delete).", found.id
    )
    print(f"Deleted the {summary}.")
    return 0


def _confirmed(question: str) -> bool:
    """Whether the person at the terminal answers yes; no for anything else, or no terminal at all."""
    try:
        return input(question).strip().casefold() in ("y", "yes")
    except EOFError:
        print()
        return False


def _existing_database(command: str) -> str | None:
    """The server's database (``default_database``), or None once it is said that there is none:
    reporting on or exporting from a database made for the occasion would only ever say "nothing"."""
    from companion.store import db

    path = default_database()
    if db.is_postgresql(path) or os.path.exists(path):
        return path
    _fail(
        command,
        f"there is no database at {path}: castellan serve makes it there, and CASTELLAN_DATABASE names another.",
    )
    return None


def sweep_days() -> int:
    """How long a table untouched and never finished is kept: ``CASTELLAN_SWEEP_DAYS`` when it is 1 or
    more, else 90 (``0`` turns the sweep at start off, which does not make ``castellan db --clean`` sweep
    everything); ``ValueError`` for a value it may not be."""
    return setting("SWEEP_DAYS") or 90


def _size(conn, path: str) -> str:
    from companion.store import db

    size = db.size_bytes(conn, path)
    return f"{size / 1_000_000:.1f} MB"


def _counts(conn) -> str:
    from sqlalchemy import func, select

    from companion.store.db import tables

    total = conn.execute(select(func.count()).select_from(tables)).scalar_one()
    finished = conn.execute(select(func.count()).where(tables.c.finished_at.is_not(None))).scalar_one()
    return f"{total} tables ({finished} finished by their referee)"


def print_sheet(args: argparse.Namespace) -> int:
    """Write one sheet as a PDF, or list the sheets."""
    sheets = printables.all_sheets()
    if args.list or not args.sheet:
        for sheet in sheets:
            print(f"{sheet.slug:24} {sheet.game:11} {say(sheet.title, args.lang)}")
        for slug, game in OWN_SHEETS.items():
            print(f"{slug:24} {game:11} {say(own_deck.GAMES[game], args.lang)} (--deck FILE.json)")
        return 0 if args.list else 2
    try:
        sheet = _own_sheet(args) if args.sheet in OWN_SHEETS else printables.get_sheet(args.sheet)
        if args.deck and sheet.kind == "kit" and sheet.game in own_deck.GAMES:  # the kit with one's own deck
            sheet = kit.kit_sheet(sheet.game, _own_sheet(args, sheet.game))
    except KeyError:
        print(
            f"castellan print: no sheet called {args.sheet!r}; `castellan print --list` shows them.",
            file=sys.stderr,
        )
        return 2
    except (OSError, RuleError) as refused:
        print(f"castellan print: {refused}", file=sys.stderr)
        return 2
    if args.fold and not sheet.foldable:
        print(f"castellan print: {sheet.slug} is not a deck, so it has no fold-over cards.", file=sys.stderr)
        return 2
    papers = sheet.papers_for(args.fold)
    if args.paper not in papers:
        print(
            f"castellan print: {sheet.slug} comes on {' or '.join(papers)} paper, not {args.paper}.",
            file=sys.stderr,
        )
        return 2
    output = args.output or f"{sheet.slug}-{'fold-' if args.fold else ''}{args.paper}.pdf"
    try:
        base_url = args.base_url or netinfo.check_base_url(
            os.environ.get("CASTELLAN_BASE_URL") or netinfo.lan_base_url(args.port)
        )
    except ValueError as wrong:
        return _fail("print", str(wrong))
    pdf = io.BytesIO()  # built first, so that a refusal leaves no half-written file
    try:
        printables.build(
            sheet,
            pdf,
            paper=args.paper,
            base_url=base_url,
            ink_saver=args.ink_saver,
            rich_backs=args.rich_backs,
            duplex=args.duplex,
            lang=args.lang,
            back_offset=args.back_offset,
            fold=args.fold,
        )
    except QRTooLarge:
        return _fail(
            "print",
            f"the address {base_url[:60]} is too long for the sheet's QR code; give a shorter --base-url.",
        )
    try:
        with open(output, "wb") as out:
            out.write(pdf.getvalue())
    except OSError as refused:
        return _fail("print", f"cannot write {output}: {refused.strerror or refused}.")
    print(f"Wrote {output}")
    return 0


def _own_sheet(args: argparse.Namespace, game: str | None = None) -> printables.Sheet:
    """The sheet of the deck of one's own that ``--deck FILE`` holds (for ``game``, else the sheet
    named); RuleError naming the wrong field."""
    if not args.deck:
        raise RuleError(
            "bad_deck", f"{args.sheet} prints the deck of your own that --deck FILE.json holds", "deck"
        )
    with open(args.deck, encoding="utf-8") as file:
        text = file.read()
    try:
        return own_deck.own_sheet(game or OWN_SHEETS[args.sheet], own_deck.read_deck(text))
    except RuleError as refused:
        raise RuleError(refused.code, f"{args.deck}: {refused.field}: {refused}", refused.field) from None


def _parser(extra: dict) -> argparse.ArgumentParser:
    parser = _Parser(prog="castellan", description="Castellan, the paper-play companion.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve_cmd = commands.add_parser("serve", help="serve the app on the LAN")
    serve_cmd.add_argument("--host", type=_host, default=os.environ.get("HOST", "0.0.0.0"))
    serve_cmd.add_argument("--port", type=_port, default=os.environ.get("PORT", "5000"))
    serve_cmd.add_argument("--threads", type=_at_least_one, default=8, help="threads per worker process")
    serve_cmd.add_argument(
        "--workers", type=_at_least_one, default=None, help="worker processes (default: one per core)"
    )
    print_cmd = commands.add_parser("print", help="write a printable sheet as a PDF")
    print_cmd.add_argument("sheet", nargs="?", help="the sheet's name (see --list)")
    print_cmd.add_argument("--list", action="store_true", help="list every sheet")
    print_cmd.add_argument(
        "--paper",
        choices=printables.PAPERS + printables.LARGE_PAPERS,
        default="a4",
        help="a3 and tabloid: mats, and decks with --fold",
    )
    print_cmd.add_argument("-o", "--output", help="the PDF file to write (default: SHEET-PAPER.pdf)")
    print_cmd.add_argument("--ink-saver", action="store_true", help="no filled backgrounds")
    print_cmd.add_argument(
        "--rich-backs", action="store_true", help="card backs in full colour (a lot of ink)"
    )
    print_cmd.add_argument(
        "--duplex", choices=("long", "short"), default="long", help="which edge the backs flip on"
    )
    print_cmd.add_argument(
        "--deck",
        metavar="FILE.json",
        help="with tactics-own or zamek-own: the deck of your own to print, as a table takes it; "
        "with tactics-kit or zamek-kit: the kit with that deck in it",
    )
    print_cmd.add_argument(
        "--fold",
        action="store_true",
        help="a deck as fold-over cards, front beside back on one side, for a printer without duplex",
    )
    print_cmd.add_argument(
        "--back-offset",
        type=_back_offset,
        default=(0.0, 0.0),
        metavar="X,Y",
        help="mm the duplex check reads the backs right and down of their fronts (negative: left, up); "
        "the backs are moved to cancel it",
    )
    print_cmd.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="the language of the sheet's words"
    )
    print_cmd.add_argument(
        "--base-url",
        type=_base_url,
        help="the server address the QR code opens (default: this machine on the LAN, on --port)",
    )
    print_cmd.add_argument(
        "--port", type=_port, default=os.environ.get("PORT", "5000"), help="the port `castellan serve` uses"
    )
    db_cmd = commands.add_parser("db", help="say how big the database is; --clean sweeps abandoned tables")
    db_cmd.add_argument("--clean", action="store_true", help="delete abandoned tables, then compact the file")
    db_cmd.add_argument(
        "--days",
        type=_at_least_one,
        help="a table untouched this long and never finished is abandoned (default: CASTELLAN_SWEEP_DAYS, else 90)",
    )
    plays_cmd = commands.add_parser(
        "plays", help="export every play to a file, import such a file, or delete one play"
    )
    plays_cmd.add_argument("action", choices=("export", "import", "delete"))
    plays_cmd.add_argument(
        "file", nargs="?", help="the file to import (- reads standard input); the play's id to delete"
    )
    plays_cmd.add_argument("--yes", action="store_true", help="delete without asking first")
    plays_cmd.add_argument("-o", "--output", help="the file to export to (- writes standard output)")
    commands.add_parser(
        "draw-icons",
        help="draw the installable app's PNG icons again from castellan.svg (needs the test extra)",
    )
    for name, (summary, _run) in extra.items():
        commands.add_parser(name, help=summary, add_help=False)
    return parser


if __name__ == "__main__":
    sys.exit(main())
