"""The ``castellan`` command: serve the app on the LAN, print sheets, and each game's own tools.

castellan serve [--host 0.0.0.0] [--port 5000] [--workers N] [--threads N]
castellan print SHEET --paper letter -o sheet.pdf   (a mat also on --paper a3 or tabloid)
castellan print --list
"""

from __future__ import annotations

import argparse
import os
import sys

import printables
from companion import games, netinfo


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    registry = games.discover()
    extra = {name: command for game in registry.ordered() for name, command in game.commands.items()}
    if argv and argv[0] in extra:
        return extra[argv[0]][1](argv[1:])
    parser = _parser(extra)
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve(args.host, args.port, args.threads, args.workers)
    if args.command == "print":
        return print_sheet(args)
    parser.print_help()
    return 2


def serve(host: str, port: int, threads: int = 8, workers: int | None = None) -> int:
    """Serve Castellan with gunicorn (see companion.server for why) and say where phones can find it."""
    from companion import create_app, server

    app = create_app()
    address = (
        os.environ.get("CASTELLAN_BASE_URL")
        or f"http://{netinfo.lan_address() if host in ('0.0.0.0', '::') else host}:{port}"
    )
    print(f"\nCastellan is serving on {address}/ — open it on any phone on this Wi-Fi:\n")
    print(netinfo.qr_terminal(f"{address}/"))
    print(f"\nThis machine: http://127.0.0.1:{port}/    Stop: Ctrl+C\n", flush=True)
    server.run(app, host=host, port=port, workers=workers or server.default_workers(), threads=threads)
    return 0


def print_sheet(args: argparse.Namespace) -> int:
    """Write one sheet as a PDF, or list the sheets."""
    sheets = printables.all_sheets()
    if args.list or not args.sheet:
        for sheet in sheets:
            print(f"{sheet.slug:24} {sheet.game:11} {sheet.title}")
        return 0 if args.list else 2
    try:
        sheet = printables.get_sheet(args.sheet)
    except KeyError:
        print(
            f"castellan print: no sheet called {args.sheet!r}; `castellan print --list` shows them.",
            file=sys.stderr,
        )
        return 2
    if args.paper not in sheet.papers:
        print(
            f"castellan print: {sheet.slug} comes on {' or '.join(sheet.papers)} paper, not {args.paper}.",
            file=sys.stderr,
        )
        return 2
    output = args.output or f"{sheet.slug}-{args.paper}.pdf"
    base_url = args.base_url or os.environ.get("CASTELLAN_BASE_URL") or netinfo.lan_base_url(args.port)
    with open(output, "wb") as out:
        printables.build(
            sheet,
            out,
            paper=args.paper,
            base_url=base_url.rstrip("/"),
            ink_saver=args.ink_saver,
            rich_backs=args.rich_backs,
            duplex=args.duplex,
        )
    print(f"Wrote {output}")
    return 0


def _parser(extra: dict) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="castellan", description="Castellan, the paper-play companion.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve_cmd = commands.add_parser("serve", help="serve the app on the LAN")
    serve_cmd.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
    serve_cmd.add_argument("--port", type=int, default=int(os.environ.get("PORT", "5000")))
    serve_cmd.add_argument("--threads", type=int, default=8, help="threads per worker process")
    serve_cmd.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: one per core)"
    )
    print_cmd = commands.add_parser("print", help="write a printable sheet as a PDF")
    print_cmd.add_argument("sheet", nargs="?", help="the sheet's name (see --list)")
    print_cmd.add_argument("--list", action="store_true", help="list every sheet")
    print_cmd.add_argument(
        "--paper", choices=printables.PAPERS + printables.LARGE_PAPERS, default="a4", help="a3 and tabloid: mats only"
    )
    print_cmd.add_argument("-o", "--output", help="the PDF file to write (default: SHEET-PAPER.pdf)")
    print_cmd.add_argument("--ink-saver", action="store_true", help="no filled backgrounds")
    print_cmd.add_argument("--rich-backs", action="store_true", help="card backs in full colour (a lot of ink)")
    print_cmd.add_argument(
        "--duplex", choices=("long", "short"), default="long", help="which edge the backs flip on"
    )
    print_cmd.add_argument(
        "--base-url", help="the server address the QR code opens (default: this machine on the LAN, on --port)"
    )
    print_cmd.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT", "5000")), help="the port `castellan serve` uses"
    )
    for name, (summary, _run) in extra.items():
        commands.add_parser(name, help=summary, add_help=False)
    return parser


if __name__ == "__main__":
    sys.exit(main())
