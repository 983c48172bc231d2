"""The browser client's files: where they are served, the headers that guard them, the
package that ships them, and the API call the page adds for every front end."""

from __future__ import annotations

import re
from pathlib import Path

from api_helpers import API, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES
from hanabi.server.api.schemas.system import StrategyListSchema
from hanabi.server.api.web_pages import WEB

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_answers_every_path_a_person_opens(client: FlaskClient) -> None:
    for path in ("/", "/games/anything", "/players/someone"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.mimetype == "text/html"
        assert b'<script type="module" src="/web/app.js">' in response.data
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_an_unknown_address_is_a_page_for_a_browser_in_its_language(client: FlaskClient) -> None:
    for language, title in (("zh-CN", "找不到页面"), ("ru", "Страница не найдена")):
        response = client.get(
            "/nothing-here", headers={"Accept": BROWSER, "Accept-Language": language}
        )
        assert response.status_code == 404
        assert response.mimetype == "text/html"
        page = response.get_data(as_text=True)
        assert f"<h1>{title}</h1>" in page and '<a href="/">' in page
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    # programs, and the API under any Accept, keep the problem
    for accept in ("application/json", "application/problem+json", "*/*"):
        assert_problem(client.get("/nothing-here", headers={"Accept": accept}), 404, "not_found")
    assert_problem(client.get("/nothing-here"), 404, "not_found")
    assert_problem(client.get(f"{API}/nothing-here", headers={"Accept": BROWSER}), 404, "not_found")


def test_modules_and_style_are_served_with_their_types(client: FlaskClient) -> None:
    for name in sorted(p.name for p in WEB.iterdir() if p.is_file()):
        response = client.get(f"/web/{name}")
        assert response.status_code == 200, name
        assert response.headers["Content-Security-Policy"]
        if name.endswith(".js"):
            assert response.mimetype == "text/javascript", name
        if name.endswith(".css"):
            assert response.mimetype == "text/css"
    for tag in ("en", "zh-Hans", "ru"):  # the catalogues (make i18n-compile; docs/i18n.md)
        assert client.get(f"/web/i18n/{tag}.json").mimetype == "application/json", tag
    assert_problem(client.get("/web/../app.py"), 404, "not_found")
    assert_problem(client.get("/web/nope.js"), 404, "not_found")


def test_the_page_has_no_inline_script_or_style_and_never_parses_markup() -> None:
    html = (WEB / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    assert "style=" not in html and "<style" not in html
    for module in WEB.glob("*.js"):
        code = module.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in code, f"{module.name} uses {sink}"


def test_every_file_the_page_loads_ships_in_the_package() -> None:
    data = (ROOT / "server" / "pyproject.toml").read_text()
    shipped = re.findall(r'"web/\*\.(\w+)"', data)
    for path in WEB.iterdir():
        if path.name == "i18n":  # the compiled catalogues: "web/i18n/*"
            assert '"web/i18n/*"' in data
            continue
        assert path.suffix[1:] in shipped, f"{path.name} would not be installed"
    imports = set()
    for module in WEB.glob("*.js"):
        imports |= set(re.findall(r'from "\./([\w.]+)"', module.read_text()))
    assert imports <= {p.name for p in WEB.glob("*.js")}


def test_strategies_say_whom_to_seat_each_with(client: FlaskClient) -> None:
    body = client.get(f"{API}/strategies").get_json()
    assert_valid(StrategyListSchema, body)
    names = [entry["name"] for entry in body["strategies"]]
    assert names == list(STRATEGIES)
    by_name = {entry["name"]: entry for entry in body["strategies"]}
    assert [n for n in names if by_name[n]["default"]] == [DEFAULT_STRATEGY]
    assert by_name["hat"]["fallback"] == "conventions"
    assert "only with other hat bots" in by_name["hat"]["description"]
    assert by_name["conventions"]["fallback"] is None


def test_an_empty_game_id_is_a_404_not_an_internal_error(client: FlaskClient) -> None:
    table = make_table(client)
    for path in (f"{API}/games//bots", f"{API}/games//start", f"{API}/games//actions"):
        response = client.post(path, json={}, headers=bearer(table.tokens[0]))
        assert_problem(response, 404, "not_found")
