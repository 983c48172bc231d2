"""The end of the game: when it ends, why, and with what score.

The standard rules end a game on the third strike, a perfect score, or one round after the
deck ran out. Two table options add hanab.live's own ends: ``end_at_max_possible`` (the
score reached the best still possible, or no firework can grow any more) and
``all_or_nothing`` (no final round; score 0 once a perfect score is impossible or the
player to move has neither a card nor a clue token).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .fireworks import max_score, max_score_with_wilds, next_ranks
from .kinds import EndReason
from .setup import MAX_STRIKES

if TYPE_CHECKING:
    from .game import Game

PERFECT = EndReason.PERFECT
DECK_OUT = EndReason.DECK_OUT
STRIKEOUT = EndReason.STRIKEOUT
MAX_POSSIBLE = EndReason.MAX_POSSIBLE
ALL_OR_NOTHING_FAILED = EndReason.ALL_OR_NOTHING_FAILED
ALL_OR_NOTHING_STUCK = EndReason.ALL_OR_NOTHING_STUCK
TERMINATED = EndReason.TERMINATED
TIMEOUT = EndReason.TIMEOUT
IDLE = EndReason.IDLE
END_REASONS = (TERMINATED, TIMEOUT, IDLE)  # the reasons a terminate action may give
RULE_REASONS = (PERFECT, DECK_OUT, STRIKEOUT, MAX_POSSIBLE, ALL_OR_NOTHING_FAILED,
                ALL_OR_NOTHING_STUCK)  # fmt: skip


def max_score_now(game: Game) -> int:
    """The best score reachable from the cards not yet discarded (hanab.live's count)."""
    variant = game.variant
    left = [c - d for c, d in zip(variant.copies, game.discarded, strict=True)]
    if variant.wild_mask:
        return max_score_with_wilds(variant, game.fireworks, left, game.stacks, game.deck)
    return max_score(variant, left, game.fireworks, game.directions, game.starts)


def any_playable(game: Game) -> bool:
    """Whether some firework's next card is still somewhere it can be played from: the
    deck, or the hand of a player with a turn left (hanab.live's "all dead" check)."""
    variant = game.variant
    stride = variant.stride
    live = game.live
    if game.plain:  # each firework takes the rank after its height, up to 5
        fireworks = game.fireworks
        for s in variant.firework_suits:
            height = fireworks[s]
            if height < 5 and live[s * stride + height]:
                return True
        return False
    fireworks, tops, directions, starts = game.fireworks, game.tops, game.directions, game.starts
    for s in variant.firework_suits:
        for rank in next_ranks(variant, s, fireworks[s], tops[s], directions[s], starts):
            if live[s * stride + (5 if rank == 7 else rank - 1)]:
                return True
    return False


def _wild_playable(game: Game) -> bool:
    """Legacy wild variants: the max-score count already knows what can still be played."""
    return game.max_possible > game.score


def end_turn(
    game: Game, events: list[dict[str, Any]], turn: int, actor: int, final_round: bool
) -> None:
    """After a clue, play or discard: mark the end of the actor's last turn, decide whether
    the game is over, start the final round, and pass the turn."""
    if final_round and not game.done[actor]:
        # hanab.live: once a player has taken their last turn, their cards cannot be played
        game.done[actor] = True
        for order in game.hands[actor]:
            game.live[game.deck[order]] -= 1
    next_seat = game.current + 1
    if next_seat == game.num_players:
        next_seat = 0
    all_or_nothing = game.all_or_nothing
    max_score = game.plan.max_score
    if game.strikes >= MAX_STRIKES:
        keep = game.setup.options.strikeout_keeps_score
        finish(game, events, turn, STRIKEOUT, game.score if keep else 0)
    elif all_or_nothing and game.max_possible < max_score:
        finish(game, events, turn, ALL_OR_NOTHING_FAILED, 0)
    elif game.score == max_score:
        finish(game, events, turn, PERFECT, game.score)
    else:
        if game.turns_left is not None:
            game.turns_left -= 1
            if game.turns_left == 0:
                finish(game, events, turn, DECK_OUT, game.score)
        elif (
            game.next_draw == len(game.deck)
            and not all_or_nothing
            and any(e["type"] == "draw" for e in events)
        ):
            game.turns_left = game.num_players
            events.append({"type": "final_round", "turn": turn, "turns_left": game.turns_left})
        if game.early_ends:
            _early_ends(game, events, turn, next_seat)
    game.current = next_seat


def _early_ends(game: Game, events: list[dict[str, Any]], turn: int, next_seat: int) -> None:
    """hanab.live's own ends (the table options end_at_max_possible, all_or_nothing)."""
    options = game.setup.options
    variant = game.variant
    if game.result is None:
        playable = _wild_playable(game) if variant.wild_mask else any_playable(game)
        if game.score >= game.max_possible or not playable:
            finish(game, events, turn, MAX_POSSIBLE, game.score)
    if (
        game.result is None
        and options.all_or_nothing
        and not game.hands[next_seat]
        and game.clue_tokens < variant.clue_unit
    ):
        finish(game, events, turn, ALL_OR_NOTHING_STUCK, 0)


def finish(game: Game, events: list[dict[str, Any]], turn: int, reason: str, score: int) -> None:
    # Results and events are plain data (JSON, repr and equality alike): the enum's value.
    reason = str(reason)
    game.result = {"reason": reason, "score": score}
    events.append({"type": "game_over", "turn": turn, "reason": reason, "score": score})
