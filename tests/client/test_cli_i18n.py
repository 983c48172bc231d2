"""The terminal client speaks Chinese and Russian: chosen by --lang or the environment
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG), in its help (argparse's own words too), its errors,
the board and the moves in words; names stay as written."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from test_render import render_with_log

from hanabi.client import i18n
from hanabi.client.cli import main
from hanabi.game import Action


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use("en")


@pytest.mark.parametrize(
    ("given", "environ", "tag"),
    [
        (None, {}, "en"),
        (None, {"LANG": "zh_CN.UTF-8"}, "zh-Hans"),
        (None, {"LANG": "zh_TW.UTF-8"}, "en"),
        (None, {"LANG": "ru_RU.UTF-8"}, "ru"),
        (None, {"LANG": "en_US.UTF-8", "LC_ALL": "ru_RU.UTF-8"}, "ru"),
        (None, {"LANG": "ru_RU.UTF-8", "LC_ALL": "C"}, "en"),
        (None, {"LANGUAGE": "fr:zh_CN:en", "LANG": "ru_RU.UTF-8"}, "zh-Hans"),
        (None, {"LC_MESSAGES": "ru_RU@latin", "LANG": "zh_CN"}, "ru"),
        ("ru", {"LANG": "zh_CN.UTF-8"}, "ru"),
        ("zh-Hans", {}, "zh-Hans"),
        ("de", {"LANG": "ru_RU.UTF-8"}, "en"),
    ],
)
def test_the_language_is_chosen_like_gettext_chooses_it(
    given: str | None, environ: dict[str, str], tag: str
) -> None:
    assert i18n.choose(given, environ) == tag


def helped(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_help_in_russian_with_lang(capsys: pytest.CaptureFixture[str]) -> None:
    text = helped(capsys, "--lang", "ru", "create")
    assert text.startswith("использование: hanabi-client create")
    assert "места за столом, 2-6 (по умолчанию 2, или сколько нужно вам и --bots)" in text
    assert "разрешить подсказки, не касающиеся карт" in text
    assert "открыть новый стол и сесть за него хозяином" in helped(capsys, "--lang=ru")
    assert "показать эту справку и выйти" in text


def test_help_and_errors_in_chinese_from_the_environment() -> None:
    env = {**os.environ, "LANG": "zh_CN.UTF-8", "LC_ALL": "", "LANGUAGE": ""}
    run = [sys.executable, "-m", "hanabi.client.cli"]
    shown = subprocess.run([*run, "--help"], env=env, capture_output=True, text=True)
    assert shown.returncode == 0 and shown.stdout.startswith("用法：hanabi-client")
    assert "在终端里连接花火 REST 服务器玩花火。" in shown.stdout
    failed = subprocess.run([*run, "watch"], env=env, capture_output=True, text=True)
    assert failed.returncode == 2
    assert "hanabi-client：错误：watch 需要一个对局编号" in failed.stderr


def test_the_board_and_the_moves_in_russian_and_chinese(make_table) -> None:
    t = make_table(cards=["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"])
    t.do(Action.clue(1, color="red"))  # touches bob's r1, r3, r2 (slots 1, 4, 5)
    t.do(Action.play(t.hand(1)[0]))
    t.do(Action.play(t.hand(0)[4]))  # alice misplays: strike 1
    i18n.use("ru")
    text = render_with_log(t, 1)  # bob's turn
    assert "Подсказки 7/8" in text and "Ошибки 1/3" in text
    assert "alice подсказывает bob: красный, касаясь позиций 1, 4 и 5" in text
    assert "alice ошибочно играет R1 с позиции 5 (ошибка 1 из 3)" in text
    assert "Ваш ход." in text
    i18n.use("zh-Hans")
    text = render_with_log(t, 0)
    assert "提示 7/8" in text and "失误 1/3" in text
    assert "alice 提示 bob：红色，触及第 1、4 和 5 张" in text
    assert "轮到 bob。" in text


def test_the_final_round_counts_turns_in_russian(make_table) -> None:
    t = make_table(cards=["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"])
    while t.game.turns_left is None:
        t.do(
            Action.clue(1 - t.game.current, rank=1)
            if t.game.clue_tokens
            else Action.discard(t.hand(t.game.current)[0])
        )
    i18n.use("ru")
    text = render_with_log(t, 0)
    assert "Последний круг: осталось 2 хода" in text
    assert "Колода пуста: последний круг, осталось 2 хода" in text


def test_the_prompt_s_answers_in_chinese_and_russian() -> None:
    from hanabi.client.commands import HELP, InputError, parse

    i18n.use("ru")
    with pytest.raises(InputError) as said:
        parse("dance", None, None)
    assert str(said.value) == 'Неизвестная команда "dance". Наберите "help", чтобы увидеть команды.'
    with pytest.raises(InputError) as said:
        parse("play 1", None, None)
    assert str(said.value) == "Игра ещё не началась."
    i18n.use("zh-Hans")
    with pytest.raises(InputError) as said:
        parse("chat", None, None)
    assert str(said.value) == "说什么？例如：chat 祝好运！"
    assert i18n._(HELP).startswith("行动（轮到你时；")


def test_the_games_listing_heads_its_columns_in_the_language() -> None:
    from rich.cells import cell_len

    from hanabi.client.cli.listing import games_table

    game = {"id": "g1", "status": "playing", "variant": "No Variant", "players": [], "score": 3}
    i18n.use("zh-Hans")
    head, row = games_table([game]).splitlines()
    assert head.split() == ["ID", "状态", "变体", "座位", "玩家", "得分"]
    # Aligned in terminal cells (a Chinese character takes two): the score under its heading.
    assert cell_len(head[: head.index("得分")]) == len(row[: row.rindex("3")])
    i18n.use("ru")
    assert games_table([game]).splitlines()[0].split()[1:3] == ["СОСТОЯНИЕ", "ВАРИАНТ"]


@pytest.mark.parametrize(
    ("turns", "bots", "ru"),
    [(1, 1, "за 1 ход"), (2, 2, "за 2 хода"), (61, 5, "за 61 ход"), (25, 0, "за 25 ходов")],
)
def test_results_count_turns_and_bots_with_the_russian_plural(
    turns: int, bots: int, ru: str
) -> None:
    from hanabi.client.cli.seeds import result_line

    entry = {
        "rank": 1, "score": 25, "max_score": 25, "turns": turns, "players": ["ann"],
        "bots": bots, "date": "2026-12-06T21:03:00Z", "game_id": "g1",
    }  # fmt: skip
    i18n.use("ru")
    line = result_line(entry)
    assert f"25/25 {ru}" in line
    if bots:
        assert {1: "(+1 бот)", 2: "(+2 бота)", 5: "(+5 ботов)"}[bots] in line


def test_strategy_help_and_argument_help_are_translated(capsys: pytest.CaptureFixture[str]) -> None:
    from hanabi.client.cli.strategies import registry

    i18n.use("zh-Hans")
    described = {s["name"]: s["description"] for s in registry() or []}
    assert described["conventions"].startswith("类人的约定打法")
    with pytest.raises(SystemExit):
        main(["--lang", "ru", "seeds", "--help"])
    assert "не больше стольких (по умолчанию 20)" in capsys.readouterr().out
