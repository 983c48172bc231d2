"""The web client in Chinese and in Russian: the browser's languages choose it, the switch
in the footer changes it and this browser remembers it; a person opens a table with a bot
and gives a clue in each, reading every step in their language; the server's refusals and
the rules come in it too."""

from __future__ import annotations

import json
import re
import secrets

from playwright.sync_api import Page, expect
from web_support import Browsing

from hanabi.client.api import Client

#: What each language calls the things the test clicks and reads.
WORDS = {
    "zh-Hans": {
        "title": "花火", "name": "名字", "players": "玩家人数", "bots": "机器人",
        "create": "创建对局", "seats": "座位", "start": "开始", "move": "你的行动",
        "clue_for": "给 ", "give": "给出提示", "clues": "提示", "log": "对局记录",
        "clued": "{host} 提示 ", "rules": "规则", "rules_text": "花火",
    },
    "ru": {
        "title": "Ханаби", "name": "Имя", "players": "Игроки", "bots": "Боты",
        "create": "Создать игру", "seats": "Места", "start": "Начать", "move": "Ваш ход",
        "clue_for": "Подсказка для ", "give": "Подсказать", "clues": "Подсказки",
        "log": "Журнал игры", "clued": "{host} подсказывает ", "rules": "Правила",
        "rules_text": "Ханаби",
    },
}  # fmt: skip


def person(web: Browsing, locale: str) -> Page:
    """A browser whose languages are ``locale`` (navigator.languages, Accept-Language)."""
    context = web.browser.new_context(base_url=web.base, locale=locale)
    context.set_default_timeout(15000)
    web.contexts.append(context)
    return web.watch(context.new_page())


def play_a_clue(page: Page, tag: str) -> None:
    """Open a table for two with a bot, start it and give the bot a clue, in ``tag``."""
    w = WORDS[tag]
    host = f"h{secrets.token_hex(3)}"
    page.goto("/")
    expect(page.get_by_role("heading", name=w["title"], exact=True)).to_be_visible()
    page.get_by_label(w["name"], exact=True).fill(host)
    page.get_by_label(w["players"]).select_option("2")
    page.get_by_label(w["bots"], exact=True).fill("1")
    page.get_by_role("button", name=w["create"]).click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    expect(page.get_by_role("heading", name=re.compile(f"^{w['seats']}"))).to_be_visible()
    page.get_by_role("button", name=w["start"], exact=True).click()
    expect(page.get_by_role("heading", name=w["move"])).to_be_visible()
    clues = page.get_by_role("group", name=re.compile(f"^{w['clue_for']}"))
    clues.locator("button.clue:not([disabled])").first.click()
    clues.get_by_role("button", name=w["give"]).click()
    log = page.get_by_role("list", name=w["log"])
    expect(log).to_contain_text(w["clued"].format(host=host))
    value = page.locator(".board .counter", has=page.locator("dt", has_text=w["clues"]))
    expect(value.locator("dd")).to_have_text(re.compile(r"^[67](/| из )8$"))  # the bot may clue
    link = page.get_by_role("link", name=w["rules"], exact=True)
    expect(link).to_have_attribute("href", f"/rules/{tag}")


def test_a_turn_in_chinese_chosen_by_the_browser(web: Browsing) -> None:
    page = person(web, "zh-CN")
    play_a_clue(page, "zh-Hans")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    # the server refuses in Chinese too (a move without a seat's token)
    web.allow("status of 401")
    answer = page.evaluate(
        """async () => {
          const r = await fetch(location.pathname.replace('/games/', '/api/v1/games/') + '/actions',
            {method: 'POST', headers: {'Content-Type': 'application/json', 'Accept-Language': 'zh-CN'},
             body: JSON.stringify({turn: 0, type: 'discard', card: 0})});
          return [r.status, r.headers.get('Content-Language'), (await r.json()).title];
        }"""
    )
    assert answer == [401, "zh-Hans", "未授权"]


def test_a_turn_in_russian_chosen_by_the_switch_and_remembered(web: Browsing) -> None:
    page = person(web, "en-US")
    page.goto("/")
    expect(page.get_by_role("heading", name="Hanabi", exact=True)).to_be_visible()
    page.get_by_role("combobox", name="Language").select_option("ru")
    expect(page.get_by_role("heading", name="Ханаби", exact=True)).to_be_visible()
    play_a_clue(page, "ru")
    page.reload()  # remembered by this browser
    expect(page.get_by_role("list", name="Журнал игры")).to_be_visible()
    said = page.evaluate(
        "async () => { const w = await import('/web/words.js');"
        " return [1, 2, 5, 11, 21, 22].map((n) => w.turnsText(n)); }"
    )
    assert said == ["1 ход", "2 хода", "5 ходов", "11 ходов", "21 ход", "22 хода"]
    rules = page.request.get("/rules/ru")
    assert rules.ok and rules.headers["content-language"] == "ru"
    assert WORDS["ru"]["rules_text"] in rules.text()


def test_the_turn_based_panel_and_the_leaderboards_in_chinese(web: Browsing) -> None:
    username = f"zh_{secrets.token_hex(4)}"
    client = Client(web.base, retries=0)
    client.register(username, "correct horse battery")
    token = client.login(username, "correct horse battery")["token"]
    page = person(web, "zh-CN")
    session = json.dumps({"username": username, "token": token})
    page.context.add_init_script(f"localStorage.setItem('hanabi.session', {session!r});")
    page.goto("/")
    expect(page.get_by_role("heading", name="轮到你了")).to_be_visible()
    turns = page.get_by_role("list", name="等你出手的游戏")
    expect(turns).to_contain_text("没有等你出手的游戏。")
    expect(page.get_by_label("回合制")).to_be_visible()
    expect(page.get_by_text(f"你以 {username} 的身份")).to_be_visible()
    page.goto("/leaderboards")
    expect(page.get_by_role("heading", name="排行榜", level=1)).to_be_visible()
