"""Bot tests run the search (on conventions, and on hat among search bots) on a small,
clock-free budget: fast, and every decision reproducible (the clock cap is tested on
its own)."""

from __future__ import annotations

import pytest

from hanabi.bots.hat_search import HatSearch
from hanabi.bots.search import Search


@pytest.fixture(autouse=True)
def small_search_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Search, "SAMPLES", 2)
    monkeypatch.setattr(Search, "SECONDS", None)
    monkeypatch.setattr(HatSearch, "DECK_AT", 20)  # fewer moves: the same code, faster
