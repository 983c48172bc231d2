"""The one table of refusals (hanabi.server.api.refusals) and the code that raises them
agree: every code the server raises has its HTTP status there, under the status of the
kind it is raised as, and the table lists no code that nothing raises."""

from __future__ import annotations

import ast
from pathlib import Path

import hanabi.server
from hanabi.server.api.refusals import BY_KIND, STATUS, status_of
from hanabi.server.table import refusals
from hanabi.server.table.refusals import Conflict, Invalid, Refused

SERVER = Path(hanabi.server.__file__).parent
KINDS = {kind.__name__: kind for kind in (Refused, *BY_KIND)}


def raised_codes() -> list[tuple[str, str, str]]:
    """(kind, code, where) of every refusal made with a literal code in the server."""
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in KINDS
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                where = f"{path.relative_to(SERVER)}:{node.lineno}"
                found.append((node.func.id, node.args[0].value, where))
    return found


def test_every_raised_code_has_its_kinds_status() -> None:
    found = raised_codes()
    assert len(found) > 60  # the scan sees the raises
    for kind, code, where in found:
        assert code in STATUS, f"{where}: {code!r} is missing from api/refusals.py"
        if KINDS[kind] is not Refused:
            assert STATUS[code] == BY_KIND[KINDS[kind]], f"{where}: {code!r} raised as {kind}"


def test_the_table_lists_only_raised_codes() -> None:
    raised = {code for _, code, _ in raised_codes()}
    assert set(STATUS) - raised == set()


def test_an_engine_code_takes_its_kinds_status() -> None:
    assert status_of(Conflict("not_your_turn", "It is not your turn.")) == 409
    assert status_of(Invalid("card_required", "A play action must name a card.")) == 400
    assert status_of(Refused("something_else", "?")) == 500


def test_the_service_knows_no_http() -> None:
    """The kinds carry no status: only the api's table does."""
    assert not any(hasattr(kind, "status") for kind in KINDS.values())
    assert "status" not in Refused("busy", "Try again.").facts
    assert refusals.__name__.startswith("hanabi.server.table")
