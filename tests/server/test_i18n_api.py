"""The API answers a refusal in the reader's language (Accept-Language: English, Simplified
Chinese, Russian; anything else English), says so (Content-Language, Vary), and never
changes the stable ``code``; names in a sentence stay as the player wrote them."""

from __future__ import annotations

import pytest
from api_helpers import API, Table, assert_problem, bearer
from flask.testing import FlaskClient

from hanabi.server.api.language import negotiate
from hanabi.server.table.refusals import Conflict
from hanabi.server.table.wording import Plural, Words

NOT_YOUR_TURN = {
    "en": ("Conflict", "It is not your turn."),
    "zh-Hans": ("冲突", "还没轮到你。"),
    "ru": ("Конфликт", "Сейчас не ваш ход."),
}


@pytest.mark.parametrize(
    ("header", "tag"),
    [
        (None, "en"),
        ("en-GB", "en"),
        ("zh", "zh-Hans"),
        ("zh-CN", "zh-Hans"),
        ("zh-Hans", "zh-Hans"),
        ("zh-Hans-CN", "zh-Hans"),
        ("zh-SG", "zh-Hans"),
        ("zh_CN", "zh-Hans"),
        ("zh-TW", "en"),
        ("zh-Hant, ru;q=0.5", "ru"),
        ("ru-RU,ru;q=0.9,en-US;q=0.8", "ru"),
        ("fr-FR, de", "en"),
        ("fr, ru;q=0.7, zh;q=0.9", "zh-Hans"),
        ("ru;q=0, zh-CN", "zh-Hans"),
        ("*", "en"),
        ("ru;q=oops", "en"),
    ],
)
def test_the_language_of_an_accept_language_header(header: str | None, tag: str) -> None:
    assert negotiate(header) == tag


@pytest.mark.parametrize("header", ["en", "zh-CN", "zh-Hans", "ru", "fr"])
def test_a_refused_move_in_each_language(client: FlaskClient, table: Table, header: str) -> None:
    tag = negotiate(header)
    turn = table.view(0)["turn"]
    waiting = 1 if table.view(0)["current_seat"] == 0 else 0
    response = client.post(
        f"{table.url}/actions",
        json={"turn": turn, "type": "discard", "card": 0},
        headers={**bearer(table.tokens[waiting]), "Accept-Language": header},
    )
    body = assert_problem(response, 409, "not_your_turn")
    assert (body["title"], body["detail"]) == NOT_YOUR_TURN[tag]
    assert response.headers["Content-Language"] == tag
    assert "Accept-Language" in response.headers["Vary"]


def test_values_and_names_are_filled_in_not_translated(client: FlaskClient, table: Table) -> None:
    response = client.post(
        f"{API}/games/{table.id}/players",
        json={"name": "late"},
        headers={"Accept-Language": "ru"},
    )
    body = assert_problem(response, 409, "game_started")
    assert (
        body["detail"] == "Игра уже началась, и места с именем 'late' в ней нет: её можно смотреть."
    )
    wrong = client.get(f"{API}/games/nope-{table.id}", headers={"Accept-Language": "zh-CN"})
    body = assert_problem(wrong, 404, "game_not_found")
    assert body["detail"] == f"没有对局 'nope-{table.id}'（或已过期）。"


def test_an_unknown_path_speaks_the_language_too(client: FlaskClient) -> None:
    response = client.get(f"{API}/nowhere", headers={"Accept-Language": "ru"})
    body = assert_problem(response, 404, "not_found")
    assert (body["title"], body["detail"]) == ("Не найдено", "Такого ресурса нет.")
    assert response.headers["Content-Language"] == "ru"


def test_a_refusal_is_english_for_programs_and_logs() -> None:
    refused = Conflict("stale_turn", "It is turn {now}, not turn {turn}.", now=4, turn=3)
    assert refused.detail == str(refused) == "It is turn 4, not turn 3."
    assert refused.words == Words("It is turn {now}, not turn {turn}.", now=4, turn=3)


@pytest.mark.parametrize(
    ("n", "ru", "zh"),
    [(1, "1 секунду", "1 秒"), (3, "3 секунды", "3 秒"), (25, "25 секунд", "25 秒")],
)
def test_counts_in_a_sentence_take_the_language_s_plural(n: int, ru: str, zh: str) -> None:
    from hanabi.server.api.language import say

    words = Words(
        "timer.base must be at least {time}.", time=Plural(n, "{n} second", "{n} seconds")
    )
    assert say(words, "ru") == f"timer.base нельзя задать меньше чем на {ru}."
    assert say(words, "zh-Hans") == f"timer.base 至少为 {zh}。"
    assert say(words, "en") == f"timer.base must be at least {n} second{'s' * (n != 1)}."
