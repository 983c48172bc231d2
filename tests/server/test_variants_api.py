"""GET /variants (the catalogue, searched a page at a time), GET /variants/{key}, and
creating a game of any catalogue variant with the engine's table options."""

from __future__ import annotations

from urllib.parse import quote

from api_helpers import API, assert_problem, assert_valid
from flask.testing import FlaskClient

from hanabi.game import VARIANTS, catalogue
from hanabi.server.api.schemas.variants import VariantDescriptionSchema, VariantPageSchema


def page(client: FlaskClient, query: str = "") -> dict:
    response = client.get(f"{API}/variants{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert_valid(VariantPageSchema, body)
    return body


def test_the_whole_catalogue_pages_in_hanablive_order(client: FlaskClient) -> None:
    first = page(client)
    names = catalogue.names()
    assert first["total"] == len(names) + 2  # and this service's wild_rainbow, black_powder
    assert first["offset"] == 0 and first["limit"] == 50 and len(first["variants"]) == 50
    assert [v["name"] for v in first["variants"]] == names[:50]
    assert first["next"] == f"{API}/variants?offset=50&limit=50"
    no_variant = first["variants"][0]
    assert no_variant["hanablive_id"] == 0 and no_variant["aliases"] == ["no_variant"]
    assert no_variant["max_score"] == 25 and no_variant["deck_size"] == 50
    last = page(client, f"?offset={first['total'] - 3}&limit=500")
    assert [v["id"] for v in last["variants"]][-2:] == ["wild_rainbow", "black_powder"]
    assert last["next"] is None and last["variants"][-1]["hanablive_id"] is None
    assert page(client, "?q=")["total"] == first["total"]  # an empty search box: all
    beyond = page(client, "?offset=5000")
    assert beyond["variants"] == [] and beyond["next"] is None


def test_filters_combine_and_each_item_is_the_engines_description(client: FlaskClient) -> None:
    body = page(client, "?q=PINK&suits=6&limit=500")
    assert body["total"] == len(body["variants"]) > 10
    for item in body["variants"]:
        assert "pink" in item["name"].casefold() and len(item["suits"]) == 6
        assert {k: v for k, v in item.items() if k != "aliases"} == catalogue.variant(
            item["name"]
        ).describe()
    up = page(client, "?rule=up_or_down&limit=500")
    assert up["total"] == sum(1 for _ in catalogue.variants(rule="up_or_down"))
    assert all(v["rules"]["up_or_down"] is True for v in up["variants"])
    dark = page(client, "?rule=dark&suits=5&q=rainbow")
    assert dark["total"] > 0
    for item in dark["variants"]:
        assert any(s["one_of_each"] for s in item["suits"]) and len(item["suits"]) == 5
    # an alias finds its variant; a suit kind finds every suit of that touch
    assert [v["name"] for v in page(client, "?q=single_rainbow")["variants"]] == [
        "Dark Rainbow (6 Suits)"
    ]
    second = page(client, "?rule=pink&limit=3&offset=3")
    assert second["next"] == f"{API}/variants?rule=pink&offset=6&limit=3"


def test_unknown_filters_are_refused_in_words(client: FlaskClient) -> None:
    for query in ("?rule=nope", "?suits=9", "?suits=six", "?limit=501", "?limit=0",
                  "?offset=-1", "?colour=red", "?q=" + "x" * 101):  # fmt: skip
        assert_problem(client.get(f"{API}/variants{query}"), 400, "invalid_query")


def test_one_variant_by_name_number_or_id(client: FlaskClient) -> None:
    def one(key: str) -> dict:
        response = client.get(f"{API}/variants/{quote(key, safe='')}")
        assert response.status_code == 200, (key, response.get_data(as_text=True))
        body = response.get_json()
        assert_valid(VariantDescriptionSchema, body)
        return body

    pink_brown = one("Pink & Brown (6 Suits)")
    assert pink_brown == one("pink & brown (6 SUITS)") == one(str(pink_brown["hanablive_id"]))
    assert [s["all_ranks"] for s in pink_brown["suits"]][-2:] == [True, False]
    assert one("rainbow")["id"] == "rainbow"  # the form this service's games play
    assert one("rainbow")["suits"][4]["id"] == "white"
    assert one("Rainbow (6 Suits)")["aliases"] == ["rainbow"]
    assert one("black_powder")["hanablive_id"] is None
    for key in ("Pink & Brown (7 Suits)", "99999", "-1", "No%Variant"):
        body = assert_problem(
            client.get(f"{API}/variants/{quote(key, safe='')}"), 404, "unknown_variant"
        )
        assert "hanab.live name" in body["detail"]


def test_a_game_of_any_variant_by_name_number_or_id(client: FlaskClient) -> None:
    cases = {
        "pink & brown (6 suits)": "Pink & Brown (6 Suits)",
        "1344": catalogue.variant(1344).name,
        "3": "Rainbow (6 Suits)",
        "rainbow": "rainbow",
        "Up or Down (5 Suits)": "Up or Down (5 Suits)",
    }
    for given, stored in cases.items():
        response = client.post(f"{API}/games", json={"name": "ann", "variant": given})
        assert response.status_code == 201, response.get_data(as_text=True)
        view = response.get_json()["game"]
        assert view["variant"] == stored
        assert view["max_score"] == catalogue.variant(given).max_score or stored in VARIANTS
    for wrong in ("Nope (9 Suits)", 3, "03", "", None):
        body = assert_problem(
            client.post(f"{API}/games", json={"name": "ann", "variant": wrong}),
            400,
            "validation_error",
        )
        assert "variant" in body["errors"]
