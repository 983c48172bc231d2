"""Bot tests run the search strategy on a small, clock-free budget: fast, and every
decision reproducible (the clock cap is tested on its own)."""

from __future__ import annotations

import pytest

from hanabi.bots.search import SearchBot


@pytest.fixture(autouse=True)
def small_search_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SearchBot, "SAMPLES", 2)
    monkeypatch.setattr(SearchBot, "SECONDS", None)
