"""Forteresse's pages through the test client: resolver, tables on phones and on paper,
secrets, turns, a full two-round game, score sheet, help and junk."""

from __future__ import annotations

import json
import random
import re
from urllib.parse import urlencode

import pytest

from companion.rules import forteresse
from tests.conftest import everything_seen, table_state, text, with_state_changed

OLA = {
    "walls": ["B2", "B3", "B4", "B5", "B6", "C2", "C3", "C4", "C5", "C6"],
    "besieged": ["D2", "D3", "D4", "D5", "D6"],
}
KUBA = {
    "walls": ["F2", "F3", "F4", "F5", "F6", "E2", "E3", "E4", "E5", "E6"],
    "besieged": ["B2", "C3", "D4", "B5", "C6"],
}
OTHER = {
    "walls": ["D2", "D3", "D4", "D5", "D6", "E2", "E3", "E4", "E5", "E6"],
    "besieged": ["B2", "B3", "B4", "B5", "B6"],
}


def _words(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def _marks(fortress: dict) -> dict:
    return {
        **{f"c_{c}": "wall" for c in fortress["walls"]},
        **{f"c_{c}": "besieged" for c in fortress["besieged"]},
    }


def _links(browser, token) -> dict:
    page = browser.get(f"/t/{token}/links").data.decode()
    return dict(re.findall(r"<strong>([^<]+)</strong>.*?href=\"https?://[^/]+/t/([\w-]+)\"", page, re.S))


def _version(browser, token) -> int:
    return int(re.search(r'data-version="(\d+)"', browser.get(f"/t/{token}").data.decode()).group(1))


def _act(browser, token, data, htmx=False):
    return browser.post(f"/t/{token}/act", {"version": str(_version(browser, token)), **data}, htmx=htmx)


def _table(browser, **options):
    data = {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba", **options}
    token = browser.create_table("forteresse", data)
    return token, _links(browser, token)


def _drawn(browser, other_browser, links, ola=OLA, kuba=KUBA):
    assert _act(browser, links["Ola"], {"type": "setup", **_marks(ola)}).status_code == 303
    assert _act(other_browser, links["Kuba"], {"type": "setup", **_marks(kuba)}).status_code == 303


def _resolver(browser, htmx=False, **args) -> str:
    response = browser.get(
        "/forteresse/resolver?" + urlencode(args), headers={"HX-Request": "true"} if htmx else {}
    )
    assert response.status_code == 200
    return text(response)


def _errors(page: str) -> list[str]:
    return re.findall(r'notice-error"[^>]*>([^<]*)<', page)


# --- The shot resolver ----------------------------------------------------------------


def test_the_resolver_starts_from_a_drawn_fortress_and_answers_a_shot(browser):
    page = _resolver(browser, do="start", **_marks(OLA))
    assert not _errors(page)
    assert '<input type="hidden" name="walls" value="B2 B3 B4 B5 B6 C2 C3 C4 C5 C6">' in page
    aimed = _resolver(
        browser, walls=" ".join(OLA["walls"]), besieged=" ".join(OLA["besieged"]), **{"from": "A2"}
    )
    assert re.findall(r'name="direction" value="(\w+)"', aimed) == ["E", "SE"]  # only the legal ones
    fired = _resolver(
        browser,
        walls=" ".join(OLA["walls"]),
        besieged=" ".join(OLA["besieged"]),
        do="fire",
        weapon="cannon",
        direction="E",
        **{"from": "A2"},
    )
    assert "Wall destroyed at B2." in re.search(r'id="announcement".*?</p>', fired, re.S).group(0)
    assert '<input type="hidden" name="shots" value="A2-E-cannon">' in fired
    assert re.search(r'class="fc inner destroyed[^"]*" data-cell="B2"', fired)
    assert re.search(r'class="fc firing used[^"]*" data-cell="A2">.*?C→', fired, re.S)  # the used firing cell
    assert 'value="A2"' not in re.search(r'id="resolver-board".*?</div>', fired, re.S).group(
        0
    )  # not offered again


def test_the_resolver_replays_shots_and_a_rifle_leaves_the_wall(browser):
    base = {"walls": " ".join(OLA["walls"]), "besieged": " ".join(OLA["besieged"])}
    page = _resolver(
        browser, **base, shots="A2-E-cannon", do="fire", weapon="rifle", direction="E", **{"from": "A3"}
    )
    assert "Wall." in re.search(r'id="announcement".*?</p>', page, re.S).group(0)
    assert 'value="A2-E-cannon A3-E-rifle"' in page
    assert re.search(r'class="fc inner wall[^"]*" data-cell="B3"', page)


def test_the_resolver_stops_taking_shots_after_the_fifth_kill(browser):
    fortress = {"walls": OTHER["walls"], "besieged": OTHER["besieged"]}
    shots = " ".join(f"A{row}-E-rifle" for row in (2, 3, 4, 5, 6))
    page = _resolver(
        browser, walls=" ".join(fortress["walls"]), besieged=" ".join(fortress["besieged"]), shots=shots
    )
    assert "all 5 besieged are dead" in page
    assert 'name="from"' not in page
    more = _resolver(
        browser,
        walls=" ".join(fortress["walls"]),
        besieged=" ".join(fortress["besieged"]),
        shots=shots,
        do="fire",
        weapon="rifle",
        direction="SE",
        **{"from": "A1"},
    )
    assert "This shooter has stopped" in _errors(more)[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            {"do": "start", **_marks({"walls": OLA["walls"][:9], "besieged": OLA["besieged"]})},
            "exactly 10 walls at set-up; this one has 9",
        ),
        ({"do": "start", **_marks(OLA), "c_B2": "tower"}, "not “tower”"),
        ({"walls": "B2", "besieged": "D4"}, "address is damaged"),
        (
            {
                "walls": " ".join(OLA["walls"]),
                "besieged": " ".join(OLA["besieged"]),
                "shots": "A2-E-cannon A2-E-rifle",
            },
            "already been fired from",
        ),
        (
            {
                "walls": " ".join(OLA["walls"]),
                "besieged": " ".join(OLA["besieged"]),
                "do": "fire",
                "from": "A2",
                "direction": "N",
                "weapon": "cannon",
            },
            "does not enter the fortress: from A2 fire E or SE",
        ),
        (
            {
                "walls": " ".join(OLA["walls"]),
                "besieged": " ".join(OLA["besieged"]),
                "do": "fire",
                "from": "A2",
                "direction": "E",
                "weapon": "bow",
            },
            "The weapon is a cannon or a rifle.",
        ),
        (
            {"walls": " ".join(OLA["walls"]), "besieged": " ".join(OLA["besieged"]), "from": "C3"},
            "inside the fortress",
        ),
        (
            {"walls": " ".join(OLA["walls"]), "besieged": " ".join(OLA["besieged"]), "from": "Z" * 500},
            "is not a cell of the grid",
        ),
    ],
)
def test_bad_resolver_input_gets_a_clear_message(browser, args, message):
    page = _resolver(browser, **args)
    assert any(message in error for error in _errors(page)), _errors(page)


def test_the_resolver_fragment_is_only_the_fragment(browser):
    page = _resolver(browser, htmx=True)
    assert page.lstrip().startswith('<div id="resolver"') and "<html" not in page


# --- Tables ---------------------------------------------------------------------------


def test_a_phones_table_has_a_private_link_per_player_and_paper_has_none(browser):
    _token, links = _table(browser)
    assert set(links) == {"Referee", "Viewer", "Ola", "Kuba"}
    _token, paper = _table(browser, mode="paper")
    assert set(paper) == {"Referee", "Viewer"}


def test_bad_table_options_create_nothing_and_say_why(browser):
    response = browser.post("/tables/new/forteresse", {"mode": "carrier pigeon"}, follow_redirects=True)
    assert "The mode is “phones”" in text(response)
    response = browser.post("/tables/new/forteresse", {"name_a": "x" * 41}, follow_redirects=True)
    assert "1 to 40 characters" in text(response)


def test_each_player_draws_on_their_phone_and_nobody_else_sees_it(browser, other_browser):
    token, links = _table(browser)
    response = _act(browser, links["Ola"], {"type": "setup", **_marks(OLA)}, htmx=True)
    page = text(response)
    assert "Your fortress is drawn" in page
    assert re.search(
        r'value="wall"[^>]*class="m-wall" checked', page
    )  # the drawing comes back, ready to redraw
    referee = text(browser.get(f"/t/{token}"))
    assert "Ola has drawn, Kuba is drawing" in referee
    assert "m-wall" not in referee and 'id="own-fortress"' not in referee
    refused = _act(browser, token, {"type": "setup", **_marks(OLA)}, htmx=True)
    assert refused.status_code == 422 and "the referee never sees it" in text(refused)


def _standing(page: str) -> set[str]:
    return {
        cell
        for _kind, cell in re.findall(r'class="fc inner (wall|besieged)[^"]*" data-cell="([A-G][1-7])"', page)
    }


def test_a_fortress_never_reaches_another_link_page_fragment_history_or_export(app, browser, other_browser):
    token, links = _table(browser)
    _drawn(browser, other_browser, links)
    _act(browser, links["Ola"], {"type": "shot", "from": "A4", "direction": "E", "weapon": "rifle"})
    kuba_cells = set(KUBA["walls"]) | set(KUBA["besieged"])
    for link, allowed in ((token, set()), (links["Viewer"], set()), (links["Kuba"], kuba_cells)):
        for url in (f"/t/{link}", f"/t/{link}/live", f"/t/{link}/history"):
            page = text(other_browser.get(url))
            assert _standing(page) <= allowed, (url, _standing(page) - allowed)
        export = other_browser.get(f"/t/{link}/export.json").get_json()
        assert all("action" not in entry for entry in export["history"])
        own = export["view"]["fortress"]
        assert own is None or set(own["walls"]) | set(own["besieged"]) <= kuba_cells
        assert "B3" not in json.dumps(export)  # Ola's wall at B3 is in no export but hers


def test_the_other_players_page_does_not_depend_on_my_fortress(app, browser, other_browser):
    """Kuba's screen is the same, byte for byte, whatever Ola drew (tokens aside)."""
    pages = []
    for ola in (OLA, OTHER):
        token, links = _table(browser, first="b")
        _drawn(browser, other_browser, links, ola=ola)
        page = other_browser.get(f"/t/{links['Kuba']}").data.decode()
        for secret in (*links.values(), other_browser.csrf):
            page = page.replace(secret, "TOKEN")
        pages.append(re.sub(r"<svg class=\"qr\".*?</svg>", "", page, flags=re.S))
    assert pages[0] == pages[1]


def test_shots_are_called_from_the_shooters_phone_in_turn(browser, other_browser):
    token, links = _table(browser)
    _drawn(browser, other_browser, links)
    early = _act(
        other_browser,
        links["Kuba"],
        {"type": "shot", "from": "G2", "direction": "W", "weapon": "cannon"},
        htmx=True,
    )
    assert early.status_code == 422 and "It is Ola's turn to shoot." in text(early)
    aimed = text(browser.get(f"/t/{links['Ola']}?from=A4", headers={"HX-Request": "true"}))
    assert re.findall(r'name="direction" value="(\w+)"', aimed) == ["NE", "E", "SE"]
    shot = _act(
        browser, links["Ola"], {"type": "shot", "from": "A4", "direction": "E", "weapon": "rifle"}, htmx=True
    )
    page = text(shot)
    assert page.lstrip().startswith('<section id="live"')
    assert "Ola: rifle from A4 → E — <strong>Besieged killed at D4.</strong>" in page
    kuba = text(other_browser.get(f"/t/{links['Kuba']}"))
    assert "Your turn to shoot." in kuba
    assert re.search(
        r'class="fc inner killed[^"]*" data-cell="D4"',
        re.search(r'id="own-fortress".*?</section>', kuba, re.S).group(0),
    )
    again = _act(
        other_browser, links["Kuba"], {"type": "shot", "from": "G2", "direction": "W", "weapon": "cannon"}
    )
    assert again.status_code == 303
    used = text(browser.get(f"/t/{links['Ola']}?from=A4", headers={"HX-Request": "true"}))
    assert "A4 has already been fired from this round" in used


def test_the_viewer_watches_only(browser, other_browser):
    token, links = _table(browser)
    _drawn(browser, other_browser, links)
    response = _act(
        other_browser,
        links["Viewer"],
        {"type": "shot", "from": "A4", "direction": "E", "weapon": "rifle"},
        htmx=True,
    )
    assert response.status_code == 403
    page = text(other_browser.get(f"/t/{links['Viewer']}"))
    assert "Ola's turn to shoot." in page and 'name="from"' not in page


@pytest.mark.parametrize(
    "form",
    [
        {},
        {"type": "castle"},
        {"type": "setup", "c_B2": "dragon"},
        {"type": "setup", "c_B2": ["wall", "besieged"]},
        {"type": "setup", **_marks(OLA), "c_B2": "empty"},
        {"type": "shot"},
        {"type": "shot", "from": ["A1", "A2"], "direction": "SE", "weapon": "cannon"},
        {"type": "shot", "from": "A1" * 300, "direction": "SE", "weapon": "cannon"},
        {"type": "shot", "from": "A1", "direction": "SE", "weapon": "cannon", "outcome": "miss"},
    ],
)
def test_junk_posts_get_a_message_and_change_nothing(browser, other_browser, form):
    token, links = _table(browser)
    assert _act(browser, links["Ola"], {"type": "setup", **_marks(OLA)}).status_code == 303
    response = _act(other_browser, links["Kuba"], form, htmx=True)
    assert response.status_code == 422
    assert re.search(r'notice-error" role="alert">[^<]+\.<', text(response))
    assert _version(browser, token) == 1


def test_two_players_may_send_their_drawings_at_the_same_moment(browser, other_browser):
    """A drawing does not depend on the other's, so one sent from an older screen still counts."""
    token, links = _table(browser)
    other_browser.get(f"/t/{links['Kuba']}")
    assert _act(browser, links["Ola"], {"type": "setup", **_marks(OLA)}).status_code == 303
    late = other_browser.post(
        f"/t/{links['Kuba']}/act", {"version": "0", "type": "setup", **_marks(KUBA)}, htmx=True
    )
    assert late.status_code == 200 and "Your turn to shoot." not in text(late)
    assert "Ola's turn to shoot." in text(late)
    stale_shot = other_browser.post(
        f"/t/{links['Kuba']}/act",
        {"version": "0", "type": "shot", "from": "G2", "direction": "W", "weapon": "cannon"},
        htmx=True,
    )
    assert stale_shot.status_code == 409  # a shot still needs the screen it was aimed on
    assert _version(browser, token) == 2


def test_a_full_two_round_game_through_the_pages_scores_like_the_rules(browser, other_browser):
    token, links = _table(browser)
    state = forteresse.new_table({"mode": "phones", "first": "a", "names": {"a": "Ola", "b": "Kuba"}}, 0)
    phones = {"a": (browser, links["Ola"]), "b": (other_browser, links["Kuba"])}
    for fortresses in ((OLA, KUBA), (OTHER, OLA)):
        for seat, fortress in zip(forteresse.SEATS, fortresses, strict=True):
            action = {"type": "setup", **fortress}
            state = forteresse.apply(state, action, seat)
            assert _act(*phones[seat], {"type": "setup", **_marks(fortress)}).status_code == 303
        while state["phase"] == "shooting":
            seat = state["turn"]
            free = forteresse.view(state, seat)["free_firing_cells"][seat]
            cell = free[0]
            action = {
                "type": "shot",
                "from": cell,
                "direction": forteresse.legal_directions(cell)[-1],
                "weapon": "cannon" if len(free) % 3 else "rifle",
            }
            state = forteresse.apply(state, action, seat)
            response = _act(*phones[seat], {k: v for k, v in action.items()})
            assert response.status_code == 303, text(browser.get(f"/t/{token}"))[:300]
    sheet = forteresse.view(state, "viewer")["sheet"]
    page = text(browser.get(f"/t/{links['Viewer']}"))
    assert state["phase"] == "finished" and "The game is over" in page
    totals = re.findall(r'class="total" data-seat="([ab])">(\d+)<', page)
    assert {seat: int(points) for seat, points in totals} == sheet["totals"]
    winner = {"a": "Ola", "b": "Kuba"}.get(sheet["winner"])
    assert (f"{winner} wins" if winner else "A draw") in _words(page)
    assert page.count("'s fortress in round") == 4  # every fortress revealed at the end
    revealed = re.search(r'aria-label="Ola\'s fortress in round 2">.*?</div>', page, re.S).group(0)
    marked = re.findall(r'class="fc inner (besieged|killed)[^"]*" data-cell="([A-G][1-7])"', revealed)
    assert sorted(cell for _mark, cell in marked) == OTHER["besieged"]


def test_paper_table_checks_the_shot_and_the_answer(browser):
    token, _links = _table(browser, mode="paper", first="b")
    step1 = text(browser.get(f"/t/{token}?from=G4", headers={"HX-Request": "true"}))
    assert re.findall(r'name="direction" value="(\w+)"', step1) == ["SW", "W", "NW"]
    step2 = text(browser.get(f"/t/{token}?from=G4&direction=W", headers={"HX-Request": "true"}))
    assert re.findall(r'name="cell" value="(\w+)"', step2) == ["F4", "E4", "D4", "C4", "B4"]
    wrong = _act(
        browser,
        token,
        {
            "type": "shot",
            "from": "G4",
            "direction": "W",
            "weapon": "rifle",
            "outcome": "wall_destroyed",
            "cell": "E4",
        },
        htmx=True,
    )
    assert wrong.status_code == 422 and "A rifle cannot destroy a wall" in text(wrong)
    untapped = _act(
        browser,
        token,
        {"type": "shot", "from": "G4", "direction": "W", "weapon": "cannon", "outcome": "besieged_killed"},
        htmx=True,
    )
    assert untapped.status_code == 422 and "Tap the cell of the path where it hit, in the row At." in text(
        untapped
    )
    off = _act(
        browser,
        token,
        {
            "type": "shot",
            "from": "G4",
            "direction": "W",
            "weapon": "cannon",
            "outcome": "besieged_killed",
            "cell": "E5",
        },
        htmx=True,
    )
    assert off.status_code == 422 and "E5 is not on the path" in text(off)
    done = _act(
        browser,
        token,
        {
            "type": "shot",
            "from": "G4",
            "direction": "W",
            "weapon": "cannon",
            "outcome": "wall_destroyed",
            "cell": "E4",
        },
        htmx=True,
    )
    page = text(done)
    assert "Kuba: cannon from G4 ← W — <strong>Wall destroyed at E4.</strong>" in page
    assert "Ola's turn to shoot." in page
    tally = re.search(
        r"<th scope=\"row\">Kuba</th><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td class=\"total\">(\d+)<",
        page,
    )
    assert tally.groups() == ("0", "1", "0", "0")
    assert re.search(r'<th scope="row">Ola</th><td>0</td><td>0</td><td>0</td><td class="total">3<', page)
    # Each count beside its word, whatever the number (no "1 walls", no "0 cannons").
    assert "killed: 0 · walls destroyed: 1 · cannons: 1 · rifles: 0" in page


# --- Score sheet and help -------------------------------------------------------------


def _score(browser, **args) -> str:
    return text(browser.get("/forteresse/score?" + urlencode(args)))


def test_the_score_sheet_gives_the_rules_page_example(browser):
    page = _score(
        browser,
        name_a="Ada",
        name_b="Jan",
        r1_a_killed=5,
        r1_a_cannons=6,
        r1_a_rifles=2,
        r1_b_killed=3,
        r1_b_cannons=14,
        r1_b_rifles=10,
    )
    assert "Total: Ada 87 · Jan 41" in page and "Ada wins." in page


def test_the_score_sheet_adds_two_rounds_and_names_a_draw(browser):
    page = _score(
        browser,
        r1_a_killed=5,
        r1_a_cannons=6,
        r1_a_rifles=2,
        r1_b_killed=3,
        r1_b_cannons=14,
        r1_b_rifles=10,
        r2_a_killed=3,
        r2_a_cannons=14,
        r2_a_rifles=10,
        r2_b_killed=5,
        r2_b_cannons=6,
        r2_b_rifles=2,
    )
    assert "Round 2: Player A 41 · Player B 87" in page and "Total: Player A 128 · Player B 128" in page
    assert "A draw." in page


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            {"r1_a_killed": "lots"},
            "Round 1, Player A's killed: “lots” is not a count: type a whole number from 0 up, in digits.",
        ),
        ({"r1_a_killed": "6", "r1_a_cannons": "6"}, "Round 1, Player A: A fortress holds 5 besieged"),
        ({"r1_b_cannons": "20", "r1_b_rifles": "5"}, "Round 1, Player B: A player fires at most 24 shots"),
        ({"r1_a_killed": "-1"}, "“-1” is not a count"),
        ({"r2_a_killed": "2", "r2_a_rifles": "1"}, "Round 2, Player A: Each shot kills at most one besieged"),
    ],
)
def test_the_score_sheet_refuses_impossible_counts_clearly(browser, args, message):
    page = _score(browser, **args)
    assert message in page
    assert 'id="score-result"' not in page


def test_the_help_page_draws_the_grid_and_the_legal_directions(browser):
    page = text(browser.get("/forteresse/help"))
    assert "<svg viewBox=" in page and page.count('class="dia-ray"') == 1 + 2 + 3
    assert page.count('class="dia-from"') == 3
    for cell in ("A1", "G2", "D7"):
        assert f'class="dia-label">{cell}<' in page
    assert "56 possible shots" in page
    assert "“Besieged killed at B4.”" in page
    assert "style=" not in page and "<script>" not in page


def test_the_game_page_offers_the_tools_and_the_table(browser):
    page = text(browser.get("/forteresse/"))
    for words in ("Shot resolver", "Score sheet", "How to play", "Start a Forteresse table", "On paper"):
        assert words in page


# --- Secrets over a whole game, and junk found by fuzzing ------------------------------


def _observed(client_browser, token, free_cell) -> list:
    """Everything one link can fetch, aiming steps included."""
    return everything_seen(
        client_browser,
        token,
        {"type": "shot", "from": "D4"},
        (f"?from={free_cell}", f"?from={free_cell}&direction=E"),
    )


def _other_fortresses(owner):
    """A state change: every fortress ``owner`` drew replaced by another one."""

    def change(state):
        for number, played in enumerate(state["rounds"]):
            if played["setups"][owner] is not None:
                other = forteresse.random_fortress(random.Random(f"other{number}"))
                assert other != played["setups"][owner]
                played["setups"][owner] = other
        return state

    return change


@pytest.mark.parametrize("owner", ["a", "b"])
def test_no_link_but_the_owners_ever_depends_on_a_hidden_fortress_over_a_whole_game(
    app, browser, other_browser, owner
):
    """At every stage of two full rounds, every page, fragment, aiming step, history, links page,
    export and refusal of the referee, the viewer and the opponent is the same, byte for byte,
    whatever fortresses ``owner`` drew; once the game is over, everyone sees them all."""
    from tests.conftest import Browser

    token, links = _table(browser)
    seats = {"a": links["Ola"], "b": links["Kuba"]}
    phones = {"a": browser, "b": other_browser}
    for seat, phone in phones.items():  # both players join first: the referee's page marks each link opened
        phone.get(f"/t/{seats[seat]}")
    watcher = Browser(app.test_client())
    observers = [
        (watcher, token),
        (watcher, links["Viewer"]),
        (phones[forteresse._other(owner)], seats[forteresse._other(owner)]),
    ]
    rng = random.Random(7)
    checked_phases = set()
    for step in range(200):
        state = table_state(app, token)
        current = state["rounds"][-1]
        drawn = current["setups"][owner] is not None or len(state["rounds"]) > 1
        phase = (len(state["rounds"]), state["phase"], current["setups"][owner] is not None)
        if drawn and state["phase"] != "finished" and (phase not in checked_phases or step % 11 == 0):
            checked_phases.add(phase)
            shooter = state["turn"] or "a"
            free = forteresse._free_firing_cells(current, shooter)[0]

            def everything(free=free):
                return [_observed(who, where, free) for who, where in observers]

            before = everything()
            after = with_state_changed(app, token, _other_fortresses(owner), everything)
            assert before == after, f"a view depends on {owner}'s fortress at {phase}"
        move = forteresse.random_legal_action(state, rng)
        if move is None:
            break
        actor, action = move
        if action["type"] == "setup":
            actor = owner if current["setups"][owner] is None else actor  # the owner draws first
            form = {"type": "setup", **_marks(action)}
        else:
            form = {key: value for key, value in action.items() if value is not None}
        who, where = (watcher, token) if actor == "referee" else (phones[actor], seats[actor])
        response = who.post(f"/t/{where}/act", {"version": str(_version(who, token)), **form})
        assert response.status_code == 303, form
    assert table_state(app, token)["phase"] == "finished"
    assert {
        (1, "setup", True),
        (1, "shooting", True),
        (2, "setup", True),
        (2, "shooting", True),
    } <= checked_phases
    finished = text(watcher.get(f"/t/{links['Viewer']}"))
    assert "Round 1: the fortresses" in finished and "Round 2: the fortresses" in finished


def test_a_referee_naming_the_player_who_is_not_to_shoot_is_refused(browser, other_browser):
    token, links = _table(browser)
    _drawn(browser, other_browser, links)
    response = _act(
        browser,
        token,
        {"type": "shot", "shooter": "b", "from": "G2", "direction": "W", "weapon": "cannon"},
        htmx=True,
    )
    assert response.status_code == 422 and "It is Ola's turn to shoot." in text(response)
    assert _version(browser, token) == 2
    named = _act(
        browser, token, {"type": "shot", "shooter": "a", "from": "A4", "direction": "E", "weapon": "rifle"}
    )
    assert named.status_code == 303
    assert "Ola fired a rifle from A4 toward E: Besieged killed at D4." in text(
        browser.get(f"/t/{token}/history")
    )


@pytest.mark.parametrize("typed", ["²", "٣", "-1", "1.5", "1000000", "x"])
def test_the_score_sheet_refuses_a_count_that_is_not_digits_without_crashing(browser, typed):
    response = browser.get("/forteresse/score?" + urlencode({"r1_a_killed": typed}))
    assert response.status_code == 200
    assert (
        f"Round 1, Player A's killed: “{typed}” is not a count: type a whole number from 0 up, in digits."
        in text(response)
    )


def test_the_score_sheet_says_a_large_count_breaks_the_rules_not_that_it_is_no_number(browser):
    page = text(
        browser.get("/forteresse/score?" + urlencode({"r1_a_killed": "1000", "r1_a_cannons": "1000"}))
    )
    assert (
        "Round 1, Player A: A fortress holds 5 besieged, so “killed” is 0 to 5, not 1,000." in page
    )  # the reader's digit grouping
