"""No English on any screen a Chinese or Russian player reaches (issue #40).

One browser page per language walks every screen: the lobby (logged out, then logged in:
the new-game form, the variant picker opened and searched, the turn-based option), a
table in its lobby (the host, a bot seated), the table in play (the player's turn, the
clue buttons, a card's note editor, the chat, a lost connection and a refused move), a
finished game (its result, the replay and its slider, the export button), a shared
replay room (the leader's and a follower's views, a hypothetical), the leaderboards and a
seed's page, the player's own profile (with its webhook panel) and someone else's, and
the rules. On each it reads what a person reads: the page's text (``innerText``) and the
``aria-label``, ``title`` and ``placeholder`` of every element, and fails on any English
word.

What may stay in Latin letters (docs/i18n.md, "The no-English audit") is taken from the
data, not listed by hand: the names and usernames this test chose, the strategy names
and variant names the server offers (hanab.live's proper names), the languages' own
names in the switch, ids, seeds, addresses and API paths, single capital letters (suit
letters) and the few terms of :data:`KEPT` that the translations keep on purpose.
"""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.sync_api import Page, expect
from web_support import Browsing, WebServer

from hanabi.client.api import Client
from hanabi.game import VARIANTS, catalogue
from no_english import in_short_form

PASSWORD = "correct horse battery"

#: Words that stay in Latin letters in the Chinese and Russian text, and why.
KEPT = {
    "Hanabi",  # the game's name where a sentence names the original
    "START",  # the rules quote hanab.live's keyword
    "Bearer",  # the Authorization scheme a webhook's reader types as it is
    "Webhook", "webhook",  # the term of art, kept by both translations
    "URL", "HTTP", "HTTPS", "HMAC", "SHA", "JSON", "API", "POST",  # protocol names
    "hanab",  # hanab.live, the site's name (its ".live" is cut at the dot)
    "live",
    "hanabot",  # the name of the rated games' virtual opponent (docs/ratings.md)
    # the keys the page's hints name, as printed on keyboards
    "Enter", "Escape", "Esc", "Home", "End", "Ctrl", "p", "d", "c", "a",
    "q", "w", "e", "r", "t", "y",  # hanab.live's colour clue keys
}  # fmt: skip

STATUSES = ("lobby", "playing", "finished")
#: A run of Latin letters (a word, with an inner apostrophe).
WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
#: Addresses and paths (/api/v1/..., http://...), words holding a digit (ids, seeds,
#: tokens, card codes such as R3), and ids that drew no digit.
CODE = re.compile(
    r"`[^`\n]*`|\]\([^)\s]*\)|https?://\S*|[\w./-]*/[\w./{}?=&%:-]+|[\w-]+\.md\b"
    r"|\b\w*[\d_]\w*\b"
    # a game's or a room's id (12 or 14 of letters and digits) that drew no digit
    r"|\b(?=\w*[A-Z])(?=\w*[a-z])[A-Za-z]{12,14}\b"
)

#: The page's text and its elements' labels, titles and placeholders; but what people
#: wrote (chat lines, marked ``lang=""``: a language the page does not know; other tests
#: on the same server chat in the lobby in English) and the variant search's placeholder,
#: whose examples are words of the variant names (that is what the search finds:
#: :func:`Audit.search_hint`).
READ = """() => {
  let text = document.body.innerText;
  for (const el of document.querySelectorAll('[lang=""]')) text = text.replace(el.innerText, ' ');
  const parts = [text];
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    for (const a of ['aria-label', 'title', 'placeholder']) {
      const skip = a === 'placeholder' && el.dataset.key === 'variant-search';
      if (el.hasAttribute(a) && !skip) parts.push(el.getAttribute(a));
    }
  }
  return parts.join('\\n');
}"""


class Audit:
    """The screens' English words, screen by screen."""

    def __init__(self, page: Page, names: set[str], strategies: set[str]) -> None:
        self.page = page
        languages = page.evaluate(
            "async () => Object.values((await import('/web/i18n.js')).LANGUAGES)"
        )
        # hanab.live's names, and this service's own variants' (an old game's "Rainbow")
        variants = {v.name for v in catalogue.variants()} | {v.name for v in VARIANTS.values()}
        self.variant_words = {w.lower() for name in variants for w in WORD.findall(name)}
        # hanab.live's suits that this language has no name for keep their English name
        suits = sorted({s.name for v in catalogue.variants() for s in v.suits})
        kept = page.evaluate(
            "async (names) => { const w = await import('/web/words.js');"
            " return names.filter((n) => w.suitWord(n) === n); }",
            suits,
        )
        # longest first: "Rainbow (6 Suits)" goes before any name it holds
        self.names = sorted(
            names | strategies | set(languages) | variants | set(kept), key=len, reverse=True
        )
        self.found: dict[str, dict[str, str]] = {}  # screen -> word -> where

    def seated(self, *games: dict) -> None:
        """The names at these tables (a bot's is the server's choice) are names."""
        names = {p["name"] for game in games for p in game["players"]} | set(self.names)
        self.names = sorted(names, key=len, reverse=True)

    def lobby(self, api: Client) -> None:
        """The lobby's lists name the people at every table (other tests' too)."""
        self.seated(*(g for status in STATUSES for g in api.iter_games(status, limit=100)))

    def _(self, msgid: str, **params: object) -> str:
        """``msgid`` as the page says it (its own catalogue)."""
        return self.page.evaluate(
            "async ([m, p]) => (await import('/web/i18n.js'))._(m, p)", [msgid, params]
        )

    def english(self, text: str) -> set[str]:
        for name in self.names:
            if name in text:
                # a name of letters is a whole word; one with digits or signs ("hat-bot-2")
                # may touch the next word (innerText runs adjacent cells together)
                end = r"(?![A-Za-z])" if name.isalpha() else ""
                text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(name)}{end}", " ", text)
        text = CODE.sub(" ", text)
        return {
            w for w in WORD.findall(text) if w not in KEPT and not (len(w) == 1 and w.isupper())
        }

    def search_hint(self) -> None:
        """The variant search's examples are words of variant names (READ leaves it out)."""
        hint = self.page.locator("[data-key=variant-search]").get_attribute("placeholder")
        words = {w for w in WORD.findall(hint) if w.lower() not in self.variant_words}
        if words:
            self.found["the variant search's placeholder"] = {w: hint for w in words}

    def screen(self, what: str, text: str | None = None) -> None:
        self.page.wait_for_timeout(150)  # the last redraw of what the test just did
        text = text if text is not None else self.page.evaluate(READ)
        words = self.english(text)
        if words:
            self.found[what] = {w: in_line(text, w) for w in sorted(words)}

    def report(self) -> str:
        return "\n".join(
            f"{what}: {sorted(words)}\n" + "".join(f"    {line!r}\n" for line in words.values())
            for what, words in self.found.items()
        )


def in_line(text: str, word: str) -> str:
    """The first line of ``text`` that says ``word`` (where the report shows it)."""
    found = re.search(rf"^.*(?<![A-Za-z]){re.escape(word)}(?![A-Za-z]).*$", text, re.M)
    return found.group(0)[:160] if found else word


def glossary_terms_cut(rules: str) -> str:
    """The rules without the English column of their glossary (a table headed "English",
    the terms a player meets on hanab.live and in the English documents)."""
    lines, english = [], False
    for line in rules.splitlines():
        if line.startswith("| English |"):
            english = True
        elif english and line.startswith("|"):
            line = "|" + line.split("|", 2)[2]
        else:
            english = False
        lines.append(line)
    return "\n".join(lines)


def account(url: str, username: str) -> Client:
    client = Client(url, retries=0)
    client.register(username, PASSWORD)
    client.login(username, PASSWORD)
    return client


def log_in(page: Page, username: str, token: str) -> None:
    page.evaluate(
        "([username, token]) => localStorage.setItem('hanabi.session',"
        " JSON.stringify({ username, token }))",
        [username, token],
    )


def sit(page: Page, game_id: str, seat: int, token: str) -> None:
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`hanabi.seat.${id}`,"
        " JSON.stringify({ seat, token, at: Date.now() }))",
        [game_id, seat, token],
    )


def finished_game(me: Client, other: Client, names: list[str]) -> tuple[str, str]:
    """A game of the two accounts on a seed, a few moves and ended by vote; (id, seed)."""
    seed = f"p2v0s{700_000_000 + secrets.randbelow(99_999_999)}"
    seat = me.create_game(names[0], max_players=2, seed=seed)
    other.join(seat.game_id, names[1])
    me.start(seat.game_id)
    for _ in range(4):
        client = (me, other)[me.game(seat.game_id)["current_seat"]]
        view = client.game(seat.game_id)
        clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
        client.act(seat.game_id, view["turn"], clue)
    for client in (me, other):
        client.vote(seat.game_id)
    assert me.game(seat.game_id)["status"] == "finished"
    return seat.game_id, seed


@pytest.mark.parametrize("tag", ["zh-Hans", "ru"])
def test_no_english_on_any_screen(
    web: Browsing, web_server: WebServer, tag: str, request: pytest.FixtureRequest
) -> None:
    in_short_form(request, tag, "zh-Hans")
    mine, theirs = f"me_{secrets.token_hex(3)}", f"you_{secrets.token_hex(3)}"
    host = f"h{secrets.token_hex(3)}"
    me, other = account(web_server.url, mine), account(web_server.url, theirs)
    done, seed = finished_game(me, other, [mine, theirs])
    strategies = {
        s["name"] for s in web_server.api()._request("GET", "/strategies").json()["strategies"]
    }
    api = web_server.api()
    context = web.browser.new_context(base_url=web.base, locale="en-US")
    context.set_default_timeout(15000)
    web.contexts.append(context)
    page = web.watch(context.new_page())
    page.goto("/")
    page.evaluate("(tag) => localStorage.setItem('hanabi.lang', tag)", tag)
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", tag)
    audit = Audit(page, {mine, theirs, host, "hello"}, strategies)
    _ = audit._

    # the lobby, logged out: the form, the picker opened and searched, the login form
    expect(page.get_by_role("heading", name=_("Hanabi"), exact=True)).to_be_visible()
    audit.lobby(api)
    audit.screen("lobby")
    audit.search_hint()
    page.locator("[data-key=variant-search]").fill("rainbow")
    expect(page.get_by_role("listbox").get_by_role("option").first).to_be_visible()
    audit.lobby(api)
    audit.screen("lobby, variant picker searched")
    # variants with special rules and special ranks: the picker says what they change
    search = page.locator("[data-key=variant-search]")
    for name in ("Up or Down & Rainbow (5 Suits)", "Rainbow-Ones (5 Suits)", "No Variant"):
        search.fill(name)
        page.get_by_role("option", name=re.compile(f"^{re.escape(name)}:")).click()
        expect(page.locator(".variant-chosen")).to_have_text(name)
        audit.screen(f"lobby, {name} chosen")
    page.get_by_role("button", name=_("Log in or register")).click()
    audit.lobby(api)
    audit.screen("lobby, login form")

    # logged in: the turn-based option and the player's lists
    log_in(page, mine, me.token)
    page.goto("/")
    expect(page.get_by_role("heading", name=_("Your turn"))).to_be_visible()
    page.get_by_label(_("Turn-based")).check()
    page.get_by_label(_("Timed")).check()
    audit.lobby(api)
    audit.screen("lobby, logged in, turn-based and timed")

    # a table in its lobby: the host, a bot seated
    page.goto("/")
    page.get_by_label(_("Play as a guest")).check()
    page.get_by_label(_("Name"), exact=True).fill(host)
    page.get_by_label(_("Players")).select_option("3")
    page.get_by_label(_("Bots"), exact=True).fill("1")
    page.get_by_role("button", name=_("Create game")).click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_role("heading", name=re.compile(f"^{_('Seats')}"))).to_be_visible()
    audit.seated(api.game(game_id))  # the bots' names
    audit.screen("table in its lobby")

    # in play: the turn, the clue buttons, the chat, a note's editor
    page.get_by_role("button", name=_("Start"), exact=True).click()
    expect(page.get_by_role("heading", name=_("Your move"))).to_be_visible()
    audit.screen("table in play, your turn")
    page.locator("button.clue:not([disabled])").first.click()
    audit.screen("table in play, a clue chosen")
    page.locator("[data-key=note-mode]").click()
    page.locator(".hands .player:not(.own) .card").first.click()
    expect(page.locator(".note-input")).to_be_visible()
    audit.screen("table in play, a note's editor")
    page.keyboard.press("Escape")
    page.locator("[data-key=note-mode]").click()
    page.get_by_role("textbox", name=_("Message")).fill("hello")
    page.get_by_role("button", name=_("Send")).click()
    expect(page.get_by_role("list", name=_("Chat messages"))).to_contain_text("hello")
    audit.screen("table in play, chat")

    # a lost connection and a refused move: another tab moves, this one tries at the old turn
    web.allow(r"ERR_FAILED|409")
    page.route("**/stream?**", lambda route: route.abort())
    page.reload()
    expect(page.get_by_role("heading", name=_("Your move"))).to_be_visible()
    token = page.evaluate(f"JSON.parse(localStorage.getItem('hanabi.seat.{game_id}')).token")
    view = api.game(game_id, token=token)
    clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
    api.act(game_id, view["turn"], clue, token=token)
    page.locator(".moves button, button.clue:not([disabled])").last.click()
    give = page.locator("[data-key=give-clue]")
    if give.count():
        give.click()
    expect(page.get_by_role("alert").filter(has_text=re.compile("."))).to_be_visible()
    audit.screen("table in play, connection lost, a move refused")
    page.unroute("**/stream?**")

    # a finished game: the result, the seed's results, the export, the replay
    sit(page, done, 0, me.token)
    page.goto(f"/games/{done}")
    expect(page.get_by_role("button", name=_("Watch the replay"))).to_be_visible()
    audit.screen("finished game")
    page.get_by_role("button", name=_("Watch the replay")).click()
    expect(page.get_by_role("slider")).to_be_visible()
    page.get_by_role("slider").focus()
    page.keyboard.press("Home")
    audit.screen("replay")

    # a shared replay: the leader, a hypothetical, then a follower's view
    page.get_by_role("button", name=_("Share replay")).click()
    expect(page).to_have_url(re.compile(r"/replays/[A-Za-z0-9]+$"))
    expect(page.get_by_role("heading", name=_("You lead"))).to_be_visible()
    # the room's and the game's ids are names (either may hold no digit)
    audit.names = sorted({*audit.names, page.url.rsplit("/", 1)[1], done}, key=len, reverse=True)
    audit.screen("shared replay, leader")
    page.get_by_role("slider").evaluate(  # one step: the page redraws on each change
        "(el) => { el.value = '2'; el.dispatchEvent(new Event('change')); }"
    )
    expect(page.locator(".room-status")).to_contain_text(_("turn {turn} of {last}", turn=2, last=6))
    page.get_by_role("button", name=_("Branch from here")).click()
    expect(page.locator(".moves button").first).to_be_visible()
    audit.screen("shared replay, hypothetical")
    room = page.url
    follower = web.watch(context.browser.new_context(base_url=web.base, locale="en-US").new_page())
    web.contexts.append(follower.context)
    follower.goto("/")
    follower.evaluate("(tag) => localStorage.setItem('hanabi.lang', tag)", tag)
    log_in(follower, theirs, other.token)  # who played the seed (docs/seeds.md)
    follower.goto(room)
    expect(follower.locator(".room-status")).to_be_visible()
    follower.get_by_role("button", name=_("Join to lead later")).click()
    expect(follower.get_by_text(re.compile(r"m[0-9a-f]{4,}"))).to_be_visible()
    audit.screen("shared replay, follower", follower.evaluate(READ))

    # the leaderboards, a seed's page
    page.goto("/leaderboards")
    expect(page.get_by_role("heading", name=_("Leaderboards"), exact=True)).to_be_visible()
    audit.screen("leaderboards")
    page.goto(f"/seeds/{seed}")
    expect(page.get_by_role("table")).to_be_visible()
    audit.screen("a seed's page")

    # the player's own profile (its webhook panel), someone else's
    page.goto(f"/players/{mine}")
    expect(page.get_by_role("heading", name="Webhook")).to_be_visible()
    audit.screen("own profile")
    page.goto(f"/players/{theirs}")
    expect(page.get_by_role("heading", name=theirs)).to_be_visible()
    audit.screen("someone else's profile")

    # the rules, where the footer's link leads
    href = page.get_by_role("link", name=_("Rules"), exact=True).get_attribute("href")
    rules = page.request.get(href)
    assert rules.ok
    audit.screen("the rules", glossary_terms_cut(rules.text()))

    assert not audit.found, f"English on the {tag} screens:\n{audit.report()}"
