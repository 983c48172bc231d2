"""Import cycles in a graph of modules (module -> the modules importing it runs first): the
engine's check (tests/game/test_import_graph.py) and the server's
(tests/server/test_modules.py) read their graphs differently and look for cycles alike."""

from __future__ import annotations


def cycle_from(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    """A path start -> ... -> start, if there is one."""
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for nxt in graph[node]:
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """A cycle through each module that is on one, modules in name order."""
    return [c for m in sorted(graph) if (c := cycle_from(m, graph))]
