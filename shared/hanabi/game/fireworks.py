"""Play rules: which card a firework takes next, and the best score still reachable.

A firework is described by four per-suit lists the game keeps: ``fireworks`` (cards played
on it: its share of the score), ``tops`` (rank of its last card, 0 when empty), its
direction and, in Sudoku, its ``starts`` (first rank, 0 when empty). The rules follow
hanab.live's server: stacks go up; reversed suits go 5 down to 1; in Up or Down an empty
stack takes a 1, a 5 or START (then a 2 or a 4) and its first card sets the direction; in
Sudoku a stack starts at any rank no other stack started at and wraps round to 1.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from enum import IntEnum

from .variants import RANKS, START_RANK, Variant


class Direction(IntEnum):
    """The way a firework is built (hanab.live's numbers)."""

    UNDECIDED = 0
    UP = 1
    DOWN = 2
    FINISHED = 3


def initial_directions(variant: Variant) -> list[int]:
    if variant.rules.up_or_down:
        return [Direction.UNDECIDED] * len(variant.suits)
    return [Direction.DOWN if s.reversed else Direction.UP for s in variant.suits]


def next_ranks(
    variant: Variant,
    suit: int,
    count: int,
    top: int,
    direction: int,
    starts: Sequence[int],
) -> tuple[int, ...]:
    """The ranks the firework of ``suit`` takes now (empty once it is complete)."""
    size = variant.rules.stack_size
    if count >= size or direction == Direction.FINISHED:
        return ()
    if variant.rules.sudoku:
        if top:
            return (top % size + 1,)
        return tuple(r for r in range(1, size + 1) if r not in starts)
    if direction == Direction.UP:
        return (top + 1,)
    if direction == Direction.DOWN:
        if top == 0 and not variant.rules.up_or_down:
            return (5,)
        return (top - 1,)
    return (2, 4) if top == START_RANK else (1, 5, START_RANK)


def direction_after(variant: Variant, rank: int, count: int, direction: int) -> int:
    """The direction of a firework after a card of ``rank`` was played on it and it now
    holds ``count`` cards."""
    if count >= variant.rules.stack_size:
        return Direction.FINISHED
    if direction == Direction.UNDECIDED:
        if rank in (1, 2):
            return Direction.UP
        if rank in (4, 5):
            return Direction.DOWN
    return direction


def max_score(
    variant: Variant,
    left: Sequence[int],
    fireworks: Sequence[int],
    directions: Sequence[int],
    starts: Sequence[int],
) -> int:
    """The best score still reachable given the copies ``left`` of each card (not
    discarded), for a variant without wild cards."""
    if variant.rules.sudoku:
        return _sudoku_max(variant, left, directions, starts)
    return sum(suit_max(variant, left, s, directions[s]) for s in variant.firework_suits)


def suit_max(variant: Variant, left: Sequence[int], suit: int, direction: int) -> int:
    """One firework's best (not for Sudoku, whose fireworks depend on each other)."""
    if variant.reversible:
        return _reversible_max(variant, left, suit, direction)
    size = variant.rules.stack_size
    base = suit * variant.stride
    height = 0
    while height < size and left[base + height]:
        height += 1
    return height


def _reversible_max(variant: Variant, left: Sequence[int], suit: int, direction: int) -> int:
    """One firework's best in a variant with reversed suits or Up or Down (hanab.live's
    walk: the longest run of ranks not all discarded, from the start of its direction)."""
    if direction == Direction.FINISHED:
        return variant.rules.stack_size
    base = suit * variant.stride
    start_gone = not left[base + 5] if variant.rules.up_or_down else True
    up = down = 0
    if direction != Direction.DOWN and (left[base] or not start_gone):
        up = 1
        while up < 5 and left[base + up]:
            up += 1
    if direction != Direction.UP and (left[base + 4] or not start_gone):
        down = 1
        while down < 5 and left[base + 4 - down]:
            down += 1
    return max(up, down)


def _sudoku_max(
    variant: Variant, left: Sequence[int], directions: Sequence[int], starts: Sequence[int]
) -> int:
    """Sudoku: a started stack has its own best; the others are matched to the free start
    ranks so that their total is largest (the best assignment, as hanab.live)."""
    size = variant.rules.stack_size
    stride = variant.stride
    table = _runs_table(size)
    full = (1 << size) - 1
    total = 0
    open_suits: list[tuple[int, ...]] = []
    for s, start in enumerate(starts):
        base = s * stride
        alive = 0  # bit r: rank r + 1 still has a copy
        for r in range(size):
            if left[base + r]:
                alive |= 1 << r
        if alive == full:
            total += size
        elif start:
            total += table[alive][start - 1]
        else:
            open_suits.append(table[alive])
    if not open_suits:
        return total
    free = [r for r in range(1, size + 1) if r not in starts]
    # best total over ways to give each open firework its own free start: a dynamic
    # programme over the set of starts used so far (at most 2^5 sets)
    best = {0: 0}
    for runs in open_suits:
        nxt: dict[int, int] = {}
        for used, score in best.items():
            for i, r in enumerate(free):
                if not used >> i & 1:
                    key = used | 1 << i
                    value = score + runs[r - 1]
                    if nxt.get(key, -1) < value:
                        nxt[key] = value
        best = nxt
    return total + max(best.values(), default=0)


def _cyclic_runs(alive: int, size: int) -> tuple[int, ...]:
    """For each start rank, how many ranks in a row (wrapping, at most ``size``) still have
    a copy left; bit r of ``alive`` says rank r + 1 has one."""
    runs = []
    for start in range(size):
        n = 0
        while n < size and alive >> (start + n) % size & 1:
            n += 1
        runs.append(n)
    return tuple(runs)


@functools.cache
def _runs_table(size: int) -> tuple[tuple[int, ...], ...]:
    """_cyclic_runs of every set of live ranks of a stack of ``size`` (built once)."""
    return tuple(_cyclic_runs(alive, size) for alive in range(1 << size))


def max_score_with_wilds(
    variant: Variant,
    fireworks: list[int],
    left: list[int],
    stacks: list[list[int]],
    deck: list[int],
) -> int:
    """Exact best reachable score when wild cards can stand in for any suit.

    Goes rank by rank over the set of fireworks still growing: a firework continues on its
    own card if one is left, otherwise it needs one of the wild cards of that rank. A
    dynamic programme over (rank, growing set) finds the best assignment exactly.
    """
    wild_left = [0] * 6
    for c, n in enumerate(left):
        if n and variant.suits[variant.suit_of[c]].wild:
            wild_left[variant.rank_of[c]] += n
    fws = variant.firework_suits
    # A wild card already on a firework is no longer available (left counts it still).
    for f in fws:
        for order in stacks[f]:
            c = deck[order]
            if variant.suits[variant.suit_of[c]].wild:
                wild_left[variant.rank_of[c]] -= 1
    # A copy of a suit's own card stranded under its firework's height still counts in
    # ``left``, but it can only be used at its own rank, which is already done.
    best = sum(fireworks[f] for f in fws)
    states: dict[int, int] = {0: best}  # bitmask of growing fireworks -> score so far
    for rank in RANKS:
        starting = 0
        for i, f in enumerate(fws):
            if fireworks[f] == rank - 1:
                starting |= 1 << i
        nxt: dict[int, int] = {}
        for growing, score in states.items():
            candidates = growing | starting
            own = [i for i, f in enumerate(fws) if candidates >> i & 1 and left[f * 5 + rank - 1]]
            needy = [i for i, f in enumerate(fws) if candidates >> i & 1 and i not in own]
            base = sum(1 << i for i in own)
            for pick in _subsets(needy, wild_left[rank]):
                state = base | pick
                gained = score + bin(state).count("1")
                if nxt.get(state, -1) < gained:
                    nxt[state] = gained
        states = nxt
        best = max(best, *states.values())
    return best


def _subsets(items: list[int], limit: int) -> list[int]:
    """Bitmasks of the subsets of ``items`` with at most ``limit`` members."""
    out = [0]
    for i in items:
        out += [s | 1 << i for s in out if bin(s).count("1") < limit]
    return out
