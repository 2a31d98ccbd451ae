"""The address printed QR codes carry: the server's real port, its lasting .local name, or CASTELLAN_BASE_URL."""

from __future__ import annotations

import socket

import pytest

import printables
from companion import cli
from companion.app import create_app
from companion.http import netinfo
from tests.conftest import Browser

LAN = "192.168.1.20"


@pytest.fixture
def no_local_name(monkeypatch):
    """A machine whose .local name does not resolve (no mDNS)."""
    monkeypatch.setattr(netinfo, "local_name", lambda: None)


@pytest.fixture
def local_name(monkeypatch):
    """A machine that answers to castle.local."""
    monkeypatch.setattr(netinfo, "local_name", lambda: "castle.local")


def first_page_codes(data: bytes, render, scan) -> list[str]:
    return scan(render(data, 1))


def test_a_pdf_carries_the_port_the_page_was_served_on(no_local_name, browser, render, scan):
    pdf = browser.get("/print/castle-mat.pdf", base_url=f"http://{LAN}:8123").data
    assert first_page_codes(pdf, render, scan) == [f"http://{LAN}:8123/castle/"]


def test_a_pdf_carries_the_machine_s_local_name_when_it_resolves(local_name, browser, render, scan):
    pdf = browser.get("/print/blank-cards.pdf", base_url=f"http://{LAN}:8123").data
    assert first_page_codes(pdf, render, scan) == ["http://castle.local:8123/"]
    page = browser.get("/print", base_url=f"http://{LAN}:8123").data.decode()
    assert "The QR codes on these sheets open <strong>http://castle.local:8123/</strong>." in page
    assert "stays right when the router hands out new addresses" in page


def test_a_name_the_page_was_reached_by_is_kept(local_name, browser, render, scan):
    pdf = browser.get("/print/score-pad.pdf", base_url="http://games.lan:8000").data
    assert first_page_codes(pdf, render, scan) == ["http://games.lan:8000/"]


def test_castellan_base_url_wins(local_name, tmp_path, render, scan):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db.sqlite3"),
            "SECRET_KEY": "test",
            "TESTING": True,
            "BASE_URL": "https://castle.example.org/",
        }
    )
    phone = Browser(app.test_client())
    pdf = phone.get("/print/zamek-score-pad.pdf", base_url=f"http://{LAN}:8123").data
    assert first_page_codes(pdf, render, scan) == ["https://castle.example.org/zamek/"]
    assert "open <strong>https://castle.example.org/</strong>." in phone.get("/print").data.decode()


def test_the_print_page_shows_the_address_without_a_local_name(no_local_name, browser):
    page = browser.get("/print", base_url=f"http://{LAN}:8123").data.decode()
    assert f"The QR codes on these sheets open <strong>http://{LAN}:8123/</strong>." in page
    assert "router" not in page


def test_the_print_page_gives_each_sheet_its_paper_and_the_rich_backs_option(browser):
    page = browser.get("/print?duplex=short&back=rich").data.decode()
    kinds = [sheet.kind for sheet in printables.all_sheets()]
    for kind, advice in printables.ADVICE.items():
        assert page.count(advice.paper) == kinds.count(kind), kind
    assert "card stock of 200 g/m² or more" in page
    assert "Printer: actual size (100 %), two-sided, flip on the short edge, best quality." in page
    assert "Paper: plain 80 g/m² paper." in page
    assert 'name="back" value="rich" checked' in page
    assert "back=rich" in page


def test_rich_backs_are_an_option_of_the_pdf(browser, render, dark_fraction):
    light = dark_fraction(render(browser.get("/print/castle-deck.pdf").data, 4, dpi=30))
    rich = dark_fraction(render(browser.get("/print/castle-deck.pdf?back=rich").data, 4, dpi=30))
    assert light < 0.1 < 0.5 < rich


def test_castellan_print_uses_the_port_it_is_told(no_local_name, monkeypatch, tmp_path, render, scan):
    monkeypatch.setattr(netinfo, "lan_address", lambda: "10.0.0.7")
    monkeypatch.delenv("CASTELLAN_BASE_URL", raising=False)
    out = tmp_path / "pad.pdf"
    assert cli.main(["print", "score-pad", "--port", "8123", "-o", str(out)]) == 0
    assert first_page_codes(out.read_bytes(), render, scan) == ["http://10.0.0.7:8123/"]


def test_castellan_print_follows_port_and_prefers_the_local_name(
    local_name, monkeypatch, tmp_path, render, scan
):
    monkeypatch.setenv("PORT", "8124")
    monkeypatch.delenv("CASTELLAN_BASE_URL", raising=False)
    out = tmp_path / "pad.pdf"
    assert cli.main(["print", "score-pad", "-o", str(out)]) == 0
    assert first_page_codes(out.read_bytes(), render, scan) == ["http://castle.local:8124/"]


def test_local_name_is_the_hostname_dot_local_only_when_it_resolves_to_this_machine(monkeypatch):
    here = netinfo.lan_address()
    monkeypatch.setattr(socket, "gethostname", lambda: "Castle.home")

    def answer(addresses):
        monkeypatch.setattr(netinfo, "_local_name", {})

        def getaddrinfo(name, *_args):
            assert name == "castle.local"
            if addresses is None:
                raise socket.gaierror("no mDNS")
            return [(socket.AF_INET, socket.SOCK_DGRAM, 0, "", (a, 0)) for a in addresses]

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
        return netinfo.local_name()

    assert answer(None) is None
    assert answer(["203.0.113.9"]) is None  # another machine's address
    assert answer(["127.0.1.1"]) is None  # phones cannot reach this machine's loopback
    if here != "127.0.0.1":
        assert answer([here]) == "castle.local"


@pytest.mark.parametrize(
    ("host", "parts"),
    [
        ("192.168.1.20:8123", ("192.168.1.20", "8123")),
        ("castle.local", ("castle.local", "")),
        ("[fe80::1]:5000", ("fe80::1", "5000")),
        ("[::1]", ("::1", "")),
    ],
)
def test_a_host_header_splits_into_name_and_port(host, parts):
    assert netinfo.host_and_port(host) == parts
