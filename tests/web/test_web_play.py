"""People play in the browser: two people to the end of a game, one person with two
server bots, spectators, replays, refusals, chat, reloads and a phone-sized screen."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect
from web_support import (
    Browsing,
    WebServer,
    counter,
    counter_value,
    create_game,
    game_over,
    my_turn,
    pick_variant,
    take_turn,
    wait_until,
)


def test_two_people_play_a_game_to_its_end(web: Browsing) -> None:
    """3 Suits: a deck of 30 cards, played out in about 22 turns (No Variant's 50 take 42;
    the turns are the same, and the browser's time is the suite's)."""
    ann = web.person()
    host = f"ann-{secrets.token_hex(3)}"  # a name no other table in the lobby has
    game_id = create_game(ann, host, players=2, variant="3 Suits")
    bob = web.person()
    bob.goto("/")
    # the open table shows up in bob's lobby, which follows the listing live
    row = bob.get_by_role("listitem", name=f"3 Suits: {host}")
    expect(row).to_be_visible()
    bob.get_by_label("Name", exact=True).fill("bob")
    row.get_by_role("button", name="Join").click()
    bob.wait_for_url(f"**/games/{game_id}")
    expect(ann.get_by_role("list", name="Seats")).to_contain_text("bob")
    ann.get_by_role("button", name="Start", exact=True).click()

    pages = [ann, bob]
    for page in pages:
        expect(page.get_by_role("heading", name="Your move")).to_be_visible()
    # each page shows its own hand as knowledge only, the partner's with faces
    mine = ann.get_by_role("group", name=f"Your hand ({host})").get_by_role("button")
    expect(mine).to_have_count(5)
    for i in range(5):
        expect(mine.nth(i)).to_have_accessible_name(
            re.compile(rf"^Slot {i + 1}: unknown, could be ")
        )
    theirs = ann.get_by_role("group", name="bob's hand").get_by_role(
        "button", name=re.compile(r"^Slot \d")
    )
    for i in range(5):
        expect(theirs.nth(i)).to_have_accessible_name(
            re.compile(rf"^Slot {i + 1}: (red|green|blue) [1-5]")
        )

    turns = 0
    final_round = []  # what the board of the seat to move says in the final round
    while not game_over(ann):
        wait_until(lambda: game_over(ann) or my_turn(ann) or my_turn(bob), what="someone's turn")
        if game_over(ann):
            break
        mover = ann if my_turn(ann) else bob
        if mover.locator(".board dt", has_text="Final round").count():
            final_round.append(counter(mover, "Final round"))
        take_turn(mover, turns)
        turns += 1
        assert turns < 60, "the game does not end"
    assert final_round == ["2 turns left", "1 turn left"]
    for page in pages:
        expect(
            page.get_by_role("heading", name=re.compile(r"^Game over: score \d+ of 15$"))
        ).to_be_visible()
        expect(page.get_by_text("The game ended: the deck ran out.")).to_be_visible()
        # a button: the export of a game dealt a seed needs the seat's token
        expect(page.get_by_role("button", name="hanab.live export (JSON)")).to_be_visible()
    log = ann.get_by_role("list", name="Game log")
    expect(log).to_contain_text(f"{host} clued bob")
    expect(log).to_contain_text("bob discarded")
    expect(log).to_contain_text("The deck is empty: final round, 2 turns left")


def test_a_person_plays_with_two_server_bots(web: Browsing) -> None:
    ann = web.person()
    create_game(ann, "ann", players=3, bots=2)
    seats = ann.get_by_role("list", name="Seats")
    expect(seats.get_by_role("listitem")).to_have_count(3)
    expect(seats).to_contain_text("conventions bot")
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(ann).to_have_title("Your turn · Hanabi")  # seat 1 moves first; a background tab says so
    for turn in range(4):
        wait_until(lambda: my_turn(ann), what="ann's turn")
        # only the clues the rules allow are enabled: those that touch a card
        group = ann.get_by_role("group", name=re.compile(r"^Clue for "))
        if group.count():
            target = group.get_attribute("aria-label").removeprefix("Clue for ")
            hand = ann.get_by_role("group", name=f"{target}'s hand").get_by_role(
                "button", name=re.compile("^Slot")
            )
            names = " ".join(hand.nth(i).get_attribute("aria-label") for i in range(hand.count()))
            for colour in ("red", "yellow", "green", "blue", "white"):
                button = group.get_by_role("button", name=f"{colour} clue")
                assert button.is_enabled() == (f": {colour} " in names), (colour, names)
        take_turn(ann, turn)
        # the bots answer on their own: it comes back to ann after two bot moves
        wait_until(lambda: my_turn(ann) or game_over(ann), what="the bots' moves")
    assert int(counter(ann, "Turn")) >= 13
    log = ann.get_by_role("list", name="Game log")
    expect(log).to_contain_text("conventions-bot-2")
    ann.get_by_role("button", name="Vote to end").click()
    expect(ann.get_by_role("heading", name=re.compile(r"^Game over"))).to_be_visible()
    expect(ann.get_by_text("The game ended: ended by vote.")).to_be_visible()


def test_spectator_and_replay_of_a_bots_game(web: Browsing, web_server: WebServer) -> None:
    host = web.person()
    game_id = create_game(host, "host", players=3, bots=2)
    watcher = web.person()
    watcher.goto(f"/games/{game_id}")
    expect(watcher.get_by_text("You are watching.", exact=False)).to_be_visible()
    host.get_by_role("button", name="Start and watch").click()
    # the host gave up the seat: both follow the bots' game as spectators, to its end; the
    # tab and the status say they watch (nothing reads like a table waiting for players)
    for page in (host, watcher):
        expect(page.get_by_text(re.compile("You are watching"))).to_be_visible()
        expect(page).to_have_title(re.compile(r"^Watching: (In play|Finished) \("))
        expect(page.get_by_role("heading", name=re.compile(r"^Game over"))).to_be_visible(
            timeout=60000
        )
        assert page.get_by_role("heading", name="Your move").count() == 0
        # a finished game is everyone's to replay, its deal named or not (docs/seeds.md)
        expect(page.get_by_role("button", name="Watch the replay")).to_be_visible()
    # A table of bots on a deal with no name (a custom seed): its replay, turn by turn.
    api = web_server.api()
    seat = api.create_game("host", max_players=3, seed="bots-replay")
    for _ in range(2):
        api.add_bot(seat.game_id, "hat", token=seat.token)
    api.start(seat.game_id, watch=True, token=seat.token)
    game_id = seat.game_id
    watcher.goto(f"/games/{game_id}")
    expect(watcher.get_by_role("heading", name=re.compile(r"^Game over"))).to_be_visible(
        timeout=60000
    )
    last = api.game(game_id)["turn"] + 1  # the board's number for the end
    watcher.get_by_role("button", name="Watch the replay").click()
    slider = watcher.get_by_role("slider", name="Turn")
    expect(slider).to_have_attribute("max", str(last))
    expect(watcher.locator("output")).to_have_text(f"{last} of {last} (the end)")
    slider.focus()
    watcher.keyboard.press("Home")
    expect(watcher.locator("output")).to_have_text(f"1 of {last} (the deal)")
    log = watcher.get_by_role("list", name="Game log")
    expect(log.locator("li[aria-current=step]")).to_have_attribute("data-turn", "1")
    # every card is shown in a replay, the deal's first hand included
    cards = watcher.get_by_role("group", name=re.compile("'s hand$")).get_by_role(
        "button", name=re.compile(r"^Slot")
    )
    expect(cards).to_have_count(10)
    for i in range(10):
        expect(cards.nth(i)).to_have_accessible_name(
            re.compile(r"^Slot \d: (red|yellow|green|blue|white) [1-5]")
        )
    watcher.get_by_role("button", name="Next turn").click()
    expect(watcher.locator("output")).to_have_text(f"2 of {last}")
    watcher.locator("body").click(position={"x": 5, "y": 5})
    watcher.keyboard.press("ArrowRight")
    expect(watcher.locator("output")).to_have_text(f"3 of {last}")
    expect(counter_value(watcher, "Turn")).to_have_text("3")
    # the log marks turn 3's move (the one made from this board); those after it are to come
    expect(log.locator("li[aria-current=step]")).to_have_attribute("data-turn", "3")
    expect(log.locator("li[aria-current=step]")).to_contain_text(
        re.compile(r" (clued|played|misplayed|discarded) ")
    )
    expect(log.locator("li.later")).to_have_count(last - 3)


def test_a_refused_move_shows_the_servers_sentence_and_a_lost_stream_recovers(
    web: Browsing,
) -> None:
    ann = web.person()
    game_id = create_game(ann, "ann", players=2, bots=1)
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    # a second tab of the same seat whose stream is cut: its view stays at this turn
    web.allow(r"ERR_FAILED|409")
    stale = web.watch(ann.context.new_page())
    stale.route("**/stream?**", lambda route: route.abort())
    stale.goto(f"/games/{game_id}")
    expect(stale.get_by_text("Your turn:")).to_be_visible()
    expect(stale.get_by_role("status")).to_have_text(re.compile("Connection lost"))
    ann.get_by_role("button", name=re.compile(r" clue$")).and_(
        ann.locator(":enabled")
    ).first.click()
    ann.get_by_role("button", name="Give clue").click()
    expect(counter_value(ann, "Turn")).not_to_have_text("1")
    # the stale tab tries another move at that turn: the server refuses it, in words (the
    # same move again would be a retry, answered with what was done)
    stale.get_by_role("button", name=re.compile(r" clue$")).and_(
        stale.locator(":enabled")
    ).last.click()
    stale.get_by_role("button", name="Give clue").click()
    expect(stale.get_by_role("alert")).to_have_text(re.compile(r"turn", re.I))
    # the connection comes back: the banner goes and the page catches up
    stale.unroute("**/stream?**")
    expect(stale.get_by_role("status")).to_be_hidden(timeout=20000)
    wait_until(
        lambda: counter(stale, "Turn") == counter(ann, "Turn"), what="the stale tab to catch up"
    )


def test_chat_shows_markup_as_text(web: Browsing) -> None:
    ann = web.person()
    create_game(ann, "ann", players=2, bots=1)
    ann.get_by_role("button", name="Start", exact=True).click()
    line = '<img src=x onerror="alert(1)"><b>bold</b> & <script>alert(2)</script>'
    ann.get_by_role("textbox", name="Message").fill(line)
    ann.get_by_role("button", name="Send").click()
    chat = ann.get_by_role("list", name="Chat messages")
    expect(chat.get_by_role("listitem").last).to_have_text(f"ann: {line}")
    assert chat.locator("img, b, script").count() == 0
    expect(ann.get_by_role("textbox", name="Message")).to_have_value("")


def test_a_reload_keeps_the_seat_and_the_token_stays_out_of_the_address(web: Browsing) -> None:
    ann = web.person()
    game_id = create_game(ann, "ann", players=2, bots=1)
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(ann.get_by_role("heading", name="Your move")).to_be_visible()
    token = ann.evaluate(f"JSON.parse(localStorage.getItem('hanabi.seat.{game_id}')).token")
    ann.reload()
    expect(ann.get_by_role("group", name="Your hand (ann)")).to_be_visible()
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    assert token not in ann.url
    # a new tab of the same browser opens the game at the same seat
    other = web.watch(ann.context.new_page())
    other.goto(f"/games/{game_id}")
    expect(other.get_by_role("group", name="Your hand (ann)")).to_be_visible()
    # the lobby lists the games this browser holds a seat at, to go back to
    other.goto("/")
    mine = other.get_by_role("list", name="Your games")
    mine.get_by_role("link", name="Open").click()
    other.wait_for_url(f"**/games/{game_id}")
    expect(other.get_by_role("group", name="Your hand (ann)")).to_be_visible()
    # another browser only watches
    stranger = web.person()
    stranger.goto(f"/games/{game_id}")
    expect(stranger.get_by_text(re.compile("You are watching"))).to_be_visible()
    expect(stranger.get_by_role("group", name="ann's hand")).to_be_visible()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_phone_sized_screen_needs_no_sideways_scrolling(web: Browsing) -> None:
    ann = web.person(width=360, height=740)
    ann.goto("/")
    expect(ann.get_by_role("button", name="Create game")).to_be_visible()
    no_sideways_scroll(ann)
    create_game(ann, "ann", players=5, bots=4)
    no_sideways_scroll(ann)
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(ann.get_by_role("heading", name="Your move")).to_be_visible()
    no_sideways_scroll(ann)
    ann.get_by_role("button", name="Vote to end").click()
    expect(ann.get_by_role("heading", name=re.compile(r"^Game over"))).to_be_visible()
    no_sideways_scroll(ann)


def test_the_host_frees_seats_and_a_guest_leaves(web: Browsing, web_server: WebServer) -> None:
    ann = web.person()
    host = f"ann-{secrets.token_hex(3)}"
    game_id = create_game(ann, host, players=4, bots=2, strategy="hat")
    seats = ann.get_by_role("list", name="Seats")
    expect(seats.get_by_role("listitem").filter(has_text="hat bot")).to_have_count(2)
    # next to a person hat plays conventions, and the seats say so before the deal
    expect(seats.get_by_role("listitem").filter(has_text="hat-bot-2")).to_contain_text(
        "hat bot, plays conventions here"
    )
    # the title counts the table's seats, not those taken
    expect(ann.get_by_role("heading", name="No Variant, 4 players")).to_be_visible()
    ann.get_by_role("button", name="Remove hat-bot-3").click()
    expect(seats.get_by_role("listitem").filter(has_text="hat bot")).to_have_count(1)
    bob = web.person()
    bob.goto(f"/games/{game_id}")
    bob_seats = bob.get_by_role("list", name="Seats")
    expect(bob_seats.get_by_role("listitem").filter(has_text="hat bot")).to_have_count(1)
    bob.get_by_label("Name", exact=True).fill("bob")
    # the table redraws on every change: what bob typed and what ann chose outlive it
    ann.get_by_label("Bot strategy").select_option("conventions")
    ann.get_by_role("button", name="Add bot").click()
    expect(bob_seats).to_contain_text("conventions-bot-3")
    expect(bob.get_by_label("Name", exact=True)).to_have_value("bob")
    expect(bob.get_by_label("Name", exact=True)).to_be_focused()
    expect(ann.get_by_label("Bot strategy")).to_have_value("conventions")
    ann.get_by_role("button", name="Remove conventions-bot-3").click()
    expect(bob_seats).not_to_contain_text("conventions-bot-3")
    expect(bob.get_by_label("Name", exact=True)).to_have_value("bob")
    bob.get_by_role("button", name="Join").click()
    expect(bob.get_by_role("button", name="Leave")).to_be_visible()
    expect(seats).to_contain_text("bob")
    bob.get_by_role("button", name="Leave").click()
    bob.wait_for_url(re.compile(r"/$"))
    expect(seats).not_to_contain_text("bob")
    # bob's lobby lists the table again, with its free seats
    listed = f"No Variant: {host}, hat-bot-2 (hat bot, plays conventions here)"
    expect(bob.get_by_role("listitem", name=listed)).to_contain_text("2 of 4 seats")
    # a program takes a seat through the API and says which strategy it plays
    web_server.api().join(game_id, "robo", plays="hat")
    expect(seats.get_by_role("listitem").filter(has_text="robo")).to_contain_text(
        "hat program, plays conventions here"
    )
    expect(ann.get_by_role("list", name="Game log")).to_contain_text("robo joined (a hat program)")


def test_a_wild_card_is_played_on_the_firework_you_name(web: Browsing) -> None:
    ann = web.person()
    ann.goto("/")
    pick_variant(ann, "Wild Rainbow", typed="wild")
    expect(ann.get_by_text(re.compile(r"may be played on any firework"))).to_be_visible()
    create_game(ann, "ann", players=2, bots=1, variant="Wild Rainbow")
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    ann.keyboard.press("1")
    # an unknown card might be wild: the play names its firework
    expect(ann.get_by_role("list", name="Fireworks").get_by_role("listitem")).to_have_count(5)
    firework = ann.get_by_role("combobox", name="Firework")
    expect(firework.locator("option")).to_have_count(5)
    firework.select_option("green")
    ann.get_by_role("button", name="Play").click()
    expect(ann.get_by_role("list", name="Game log")).to_contain_text(
        re.compile(r"ann (misplayed|played) ")
    )


def test_the_lobby_opens_a_two_player_table_by_default(web: Browsing) -> None:
    # the terminal client's default too: one table size whichever client opens it
    ann = web.person()
    ann.goto("/")
    expect(ann.get_by_label("Players")).to_have_value("2")
    ann.get_by_label("Name", exact=True).fill("ann")
    ann.get_by_role("button", name="Create game").click()
    expect(ann.get_by_role("heading", name="Seats (1 of 2)")).to_be_visible()
    expect(ann.get_by_role("heading", name="No Variant, 2 players")).to_be_visible()
