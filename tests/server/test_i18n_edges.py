"""The sentences at the service's edges speak the reader's language too (issue #40): a
refused body's per-field messages, counts with their plural, the page before its script
runs, the engine's reasons inside an import's refusal, the suits of a wrong deck, the
strategies' descriptions, and the contract saying so. Names and codes stay as they are."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import API, assert_problem
from flask.testing import FlaskClient

from hanabi.game import VARIANTS, Game, ImportFormatError, Setup
from hanabi.game.hanablive import export_game, import_game
from hanabi.server.api.language import say
from hanabi.server.api.spec import build_spec
from hanabi.server.table.refusals import Invalid, from_engine

BAD_BODY = {"name": "", "max_players": 9, "seed": 5, "colours": True}
FIELD_MESSAGES = {
    "zh-CN": {
        "name": ["请使用 1 到 24 个字符。", "名字至少要有一个可见字符，且不能含控制字符。"],
        "max_players": ["请使用 2 到 6 之间的整数。"],
        "seed": ["请使用文本（JSON 字符串）。"],
        "colours": ["这里不接受此字段。"],
    },
    "ru": {
        "name": [
            "Нужно от 1 до 24 символов.",
            "В имени нужен хотя бы один видимый символ и не должно быть управляющих символов.",
        ],
        "max_players": ["Нужно целое число от 2 до 6."],
        "seed": ["Нужен текст (строка JSON)."],
        "colours": ["Это поле здесь не принимается."],
    },
}


@pytest.mark.parametrize("header", ["zh-CN", "ru"])
def test_a_bad_body_gets_its_field_messages_in_the_reader_s_language(
    client: FlaskClient, header: str
) -> None:
    response = client.post(f"{API}/games", json=BAD_BODY, headers={"Accept-Language": header})
    body = assert_problem(response, 400, "validation_error")
    assert body["errors"] == FIELD_MESSAGES[header]
    for field, messages in FIELD_MESSAGES[header].items():
        assert f"{field}: {' '.join(messages)}" in body["detail"]
    assert "Use" not in body["detail"] and "field" not in body["detail"]


def test_a_field_message_keeps_its_values_and_english_stays_the_same(client: FlaskClient) -> None:
    english = assert_problem(client.post(f"{API}/games", json=BAD_BODY), 400, "validation_error")
    assert english["errors"]["name"][0] == "Use 1 to 24 characters."
    chat = {"text": "é" * 151}
    ru = client.post(f"{API}/games/nope/chat", json=chat, headers={"Accept-Language": "ru"})
    assert "не больше 300 байт" in assert_problem(ru, 400, "validation_error")["detail"]
    query = client.get(f"{API}/games?limit=0&x=1", headers={"Accept-Language": "ru"})
    body = assert_problem(query, 400, "invalid_query")
    assert body["errors"] == {
        "limit": ["Нужно целое число от 1 до 100."],
        "x": ["Этот параметр здесь не принимается."],
    }


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ("en", "Seed p3v0s1 is for 3 players; this table seats at most 2."),
        ("ru", "Сид p3v0s1 рассчитан на 3 игрока; за этим столом не больше 2 мест."),
        ("zh-CN", "种子 p3v0s1 适用于 3 名玩家；这张桌最多坐 2 人。"),
    ],
)
def test_a_seed_s_players_are_counted_with_the_language_s_plural(
    client: FlaskClient, header: str, words: str
) -> None:
    response = client.post(
        f"{API}/games",
        json={"name": "ann", "max_players": 2, "seed": "p3v0s1"},
        headers={"Accept-Language": header},
    )
    assert assert_problem(response, 400, "seed_players")["detail"] == words


@pytest.mark.parametrize(
    ("header", "lang", "loading", "noscript"),
    [
        ("ru-RU,ru;q=0.9", "ru", "Загрузка…", "Этой странице нужен JavaScript. API описан на "),
        ("zh-CN", "zh-Hans", "加载中…", "此页面需要 JavaScript。API 的说明见 "),
        ("fr", "en", "Loading…", "This page needs JavaScript. The API is described at "),
    ],
)
def test_the_page_speaks_before_its_script_runs(
    client: FlaskClient, header: str, lang: str, loading: str, noscript: str
) -> None:
    response = client.get("/", headers={"Accept-Language": header})
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    assert f'<p class="muted">{loading}</p>' in html
    assert f'<noscript><p>{noscript}<a href="/api/v1/docs">/api/v1/docs</a>' in html
    assert response.headers["Content-Language"] == lang
    assert "Accept-Language" in response.headers["Vary"]
    again = client.get(
        "/", headers={"Accept-Language": header, "If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304


def _illegal_import() -> ImportFormatError:
    doc = export_game(Game(Setup.create("no_variant", 2, {}, "edges")))
    doc["actions"] = [{"type": 0, "target": 49}]  # a card still in the deck
    with pytest.raises(ImportFormatError) as info:
        import_game(doc)
    return info.value


def test_an_illegal_action_in_an_import_gives_its_reason_in_the_language_too() -> None:
    exc = _illegal_import()
    reason = exc.params["reason"]
    english = str(from_engine(Invalid, exc).words)
    assert english == f"Action 0 is illegal: {reason.message}"
    ru = say(from_engine(Invalid, exc).words, "ru")
    reason_ru = say(from_engine(Invalid, reason).words, "ru")
    assert reason_ru != reason.message and ru.endswith(reason_ru), ru
    assert reason.message not in ru


def _deck_with_extra_red() -> list[dict[str, Any]]:
    variant = VARIANTS["no_variant"]
    cards = [variant.card(c) for c, copies in enumerate(variant.copies) for _ in range(copies)]
    cards[cards.index(("yellow", 1))] = ("red", 1)
    return [{"suit": suit, "rank": rank} for suit, rank in cards]


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ("en", "4 × red 1 instead of 3, 2 × yellow 1 instead of 3"),
        ("ru", "4 × красная 1 вместо 3, 2 × жёлтая 1 вместо 3"),
        ("zh-CN", "4 × 红1（应为 3）, 2 × 黄1（应为 3）"),
    ],
)
def test_a_wrong_deck_names_its_suits_as_players_do(
    client: FlaskClient, header: str, words: str
) -> None:
    response = client.post(
        f"{API}/games",
        json={"name": "ann", "deck": _deck_with_extra_red()},
        headers={"Accept-Language": header},
    )
    assert words in assert_problem(response, 400, "invalid_deck")["detail"]


def test_strategies_are_described_in_the_reader_s_language(client: FlaskClient) -> None:
    response = client.get(f"{API}/strategies", headers={"Accept-Language": "zh-CN"})
    described = {s["name"]: s["description"] for s in response.get_json()["strategies"]}
    assert described["conventions"].startswith("类人的约定打法")
    assert response.headers["Content-Language"] == "zh-Hans"
    english = client.get(f"{API}/strategies").get_json()["strategies"]
    assert english[0]["description"].startswith("human-style conventions")
    refused = client.post(
        f"{API}/games/nope/players",
        json={"name": "ann", "plays": "nobody"},
        headers={"Accept-Language": "ru"},
    )
    body = assert_problem(refused, 400, "validation_error")
    assert "конвенции как у людей" in body["detail"]


def test_the_contract_documents_the_language_headers() -> None:
    spec = build_spec()
    assert spec["components"]["parameters"]["Accept-Language"]["in"] == "header"
    assert set(spec["components"]["headers"]) >= {"Content-Language", "Vary"}
    create = spec["paths"]["/api/v1/games"]["post"]
    assert {"$ref": "#/components/parameters/Accept-Language"} in create["parameters"]
    for status in ("400", "default"):
        headers = create["responses"][status]["headers"]
        assert headers["Content-Language"] == {"$ref": "#/components/headers/Content-Language"}
        assert headers["Vary"] == {"$ref": "#/components/headers/Vary"}
