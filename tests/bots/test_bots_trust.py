"""Trust, but check: built positions where the conventions' reading of a clue must be
checked against what the bot can see and count before it acts on it."""

from __future__ import annotations

from hanabi.bots import make_bot, seat_events
from hanabi.bots.conventions import ConventionsBot
from hanabi.bots.trust import Trust
from hanabi.game import Action, Game, Setup, get_variant

SUITS = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "w": "white"}


def deck(*top: str) -> list[tuple[str, int]]:
    """A full standard deck starting with ``top`` ("r1", "b2", ...), the rest in order."""
    variant = get_variant("no_variant")
    rest = [variant.card(c) for c in variant.deck()]
    cards = []
    for name in top:
        card = (SUITS[name[0]], int(name[1]))
        rest.remove(card)
        cards.append(card)
    return cards + rest


def position(
    top: list[str],
    actions: list[Action],
    seat: int,
    players: int = 2,
    table: list[str | None] | None = None,
) -> tuple[Game, ConventionsBot]:
    """The game after ``actions`` on a deck starting with ``top``, and a conventions bot
    for ``seat`` that watched it (fed only what its seat may see), seated at ``table``."""
    setup = Setup.create("no_variant", players, seed="built", deck=deck(*top))
    game = Game(setup)
    bot = make_bot("conventions", "no_variant", players, seat, table=table)
    assert isinstance(bot, ConventionsBot)
    bot.observe(seat_events(game.deal_events(), seat))
    for action in actions:
        bot.observe(seat_events(game.apply(action), seat))
    return game, bot


# Seat 0 holds orders 0-4 (r1 b1 r2 y5 g4), seat 1 orders 5-9 (w4 b2 g3 y3 r3); the next
# cards drawn are w1, w2, w3, g1 and g2 (the other red 2 stays out of sight).
TOP = ["r1", "b1", "r2", "y5", "g4", "w4", "b2", "g3", "y3", "r3", "w1", "w2", "w3", "g1", "g2"]
BEFORE = [
    Action.play(0),  # r1
    Action.clue(0, color="blue"),
    Action.play(1),  # b1
    Action.clue(0, color="red"),  # r2
    Action.clue(1, rank=2),  # seat 1's b2 (order 6): "red 2 or blue 2, play it"
    Action.clue(0, rank=5),
    Action.play(2),  # r2: seat 1's 2 may now be the other red 2, which is trash
    Action.clue(0, rank=4),
]


def test_a_card_that_may_be_trash_is_not_played_while_a_safe_move_exists() -> None:
    # With no strike down the two-player bot takes a small risk (a third of the 2s it
    # cannot see are red)...
    game, bot = position(TOP, [*BEFORE, Action.discard(11)], seat=1)  # w2
    k = bot.knowledge(6)
    assert not k & ~bot.obs.playable  # by its reading, order 6 is the blue 2
    assert bot._dup_risk(6, k) > 0  # ... but it may be the red 2 played since
    assert bot.act() == Action.play(6)
    # ... on the last strike it does not, while it can give a clue instead ...
    last = [*BEFORE, Action.play(4), Action.clue(0, rank=1), Action.play(3)]  # g4, y5 misplayed
    game, bot = position(TOP, last, seat=1)
    assert game.strikes == 2 and game.clue_tokens > 0
    assert bot.act().type == "clue"
    # ... nor with one strike down once some clue at the table proved misleading.
    game, bot = position(TOP, [*BEFORE, Action.play(4)], seat=1)
    assert game.strikes == 1
    assert bot.act() == Action.play(6)
    bot.trust.misled[0] = 1.0
    assert bot.act().type == "clue"


def test_no_blind_play_at_two_strikes() -> None:
    _, bot = position(["r1"], [], seat=1, players=3)
    obs = bot.obs
    newest = obs.hands[1][0]
    b1 = obs.ids["blue", 1]  # no blue card in sight
    # A finesse (read from seat 0's clue on seat 2's blue 2) asks seat 1 for its newest card.
    focus = obs.hands[2][0]
    bot.trust.read_from[focus] = 0
    bot.finesses.add([[focus, obs.ids["blue", 2], [(1, newest, b1)], 0, True]])
    assert bot.act() == Action.play(newest)  # the blind play, with no strike down
    obs.strikes = 1
    assert bot.act() == Action.play(newest)  # one strike: still, seat 0 never misled
    obs.strikes = 2
    assert bot.act() != Action.play(newest)  # two strikes: never a blind play
    bot.reading.inf[newest] = obs.told[newest] = 1 << b1  # unless the card is certain
    assert bot.act() == Action.play(newest)


# Seat 1 holds (oldest first) y3 g3 b1 w4 r4; it draws w3 next.
TOP2 = ["g1", "g1", "g2", "g2", "g3", "y3", "g3", "b1", "w4", "r4", "w3"]


def test_it_fixes_its_picture_when_a_reading_proves_wrong() -> None:
    # Seat 0 clues red on seat 1's r4: by the conventions "the red 1, play it".
    _, bot = position(TOP2, [Action.clue(1, color="red")], seat=1)
    assert bot.act() == Action.play(9)  # a misplay: seat 0 did not mean what it read
    game, bot = position(
        TOP2, [Action.clue(1, color="red"), Action.play(9), Action.clue(1, color="blue")], seat=1
    )
    assert game.strikes == 1
    assert bot.trust.misled[0] == 1
    k = bot.knowledge(7)
    assert not k & ~bot.obs.playable  # read as "the blue 1, play it" ...
    assert bot.act() != Action.play(7)  # ... but seat 0's clues misled it, and a strike is down
    # A partner who saw the same misplay keeps the same public picture of the clue giver.
    _, partner = position(
        TOP2, [Action.clue(1, color="red"), Action.play(9), Action.clue(1, color="blue")], seat=0
    )
    assert partner.trust.misled == bot.trust.misled


def test_a_person_who_misled_it_earns_trust_back_more_slowly_than_a_bot() -> None:
    # Seat 0's red clue misled seat 1 (a misplay); then its blue clue on the b1 was right.
    actions = [
        Action.clue(1, color="red"),
        Action.play(9),
        Action.clue(1, color="blue"),
        Action.play(7),
    ]
    _, with_bot = position(TOP2, actions, seat=1, table=["conventions", "conventions"])
    _, with_person = position(TOP2, actions, seat=1, table=[None, "conventions"])
    assert with_bot.trust.misled[0] == 1 - Trust.CREDIT
    assert with_person.trust.misled[0] == 1 - Trust.PERSON_CREDIT
    # a misplay is made up by four good clues from a bot; by twelve from a person
    assert Trust.PERSON_CREDIT < Trust.CREDIT
    # without a known table every seat counts as a bot (self-play, old callers)
    _, unknown = position(TOP2, actions, seat=1)
    assert unknown.trust.misled == with_bot.trust.misled


# Three players. Seat 0 holds r3 g4 y4 w4 r4 (orders 0-4) and draws the blue 2 (order
# 16); seat 1 holds b1 r5 g3 y3 w3 and draws a g2; seat 2 holds r2 g5 y5 w5 b3 (its
# newest, order 14).
TOP3 = ["r3", "g4", "y4", "w4", "r4", "b1", "r5", "g3", "y3", "w3"]
TOP3 += ["r2", "g5", "y5", "w5", "b3", "g2", "b2"]
FINESSE = [
    Action.clue(1, color="blue"),  # seat 0: the b1
    Action.play(5),  # seat 1 plays it
    Action.clue(0, rank=4),  # seat 2
    Action.discard(0),  # seat 0 throws the r3 and draws the b2 on its finesse position
]


def test_no_finesse_is_read_or_given_while_blind_plays_are_forbidden() -> None:
    _, giver = position(TOP3, FINESSE, seat=1, players=3)
    blue = giver.obs.variant.color_masks["blue"]
    # Blue on seat 2's b3 is a finesse: seat 0 is to blind-play its b2 first ...
    assert giver.clue_choice.evaluate(2, blue, None) is not None
    # ... but with a strike down and a seat that misled the table, no one blind-plays:
    # the clue would read "the blue 2, play it", which is false, so it is not given.
    giver.obs.strikes = 1
    giver.trust.misled[0] = 1.0
    assert not giver.trust.blind_plays_allowed()
    assert giver.clue_choice.evaluate(2, blue, None) is None


def test_a_finessed_player_who_may_not_blind_play_does_not_disprove_the_finesse() -> None:
    actions = [*FINESSE, Action.clue(2, color="blue"), Action.clue(1, rank=5)]
    for blocked in (False, True):
        game, target = position(TOP3, actions, seat=2, players=3)
        assert (
            target.finesses.pending and 16 in target.finesses.committed
        )  # seat 0's b2, then the b3
        if blocked:
            game.strikes = target.obs.strikes = 1
            target.trust.misled[0] = 1.0
        # Seat 0 discards instead of playing its finessed card.
        target.observe(seat_events(game.apply(Action.discard(1)), 2))
        if blocked:
            # It was not allowed to blind-play: the finesse still stands, and the b3
            # (the blue 2 or 3, by the reading) waits.
            assert target.finesses.pending
            assert target.act() != Action.play(14)
        else:
            # It could have played and did not: the blue card is the blue 2, play it.
            assert not target.finesses.pending
            assert target.act() == Action.play(14)


def test_a_forced_clue_asks_no_one_to_play_a_card_that_is_not_playable() -> None:
    """With eight tokens and nothing useful to say a player must still clue. Before, the
    bot gave the first legal clue: here red on seat 1's red 3, which the conventions read
    as "play it" (a strike). Now it picks a clue whose reading asks no false play."""
    game, bot = position(TOP, [], seat=0)
    assert game.clue_tokens == 8
    obs = bot.obs
    red = [o for o in obs.hands[1] if obs.card[o] == obs.ids["red", 3]]
    reading = dict(bot.reader.interpret(1, obs.variant.color_masks["red"], None, red, 0)[0])
    assert reading[red[0]] and not reading[red[0]] & ~obs.playable  # "red 1: play it"
    clue = bot.clue_choice.stall_clue()
    assert clue is not None and clue != Action.clue(1, color="red")
    mask = obs.variant.rank_masks[clue.rank] if clue.rank else obs.variant.color_masks[clue.color]
    touched = [o for o in obs.hands[1] if mask >> obs.card[o] & 1]
    for order, m in bot.reader.interpret(1, mask, clue.rank, touched, 0)[0]:
        assert m & ~obs.playable or obs.playable >> obs.card[order] & 1


def test_good_plays_make_up_a_misplay_exactly() -> None:
    """Four plays from a bot's clues (twelve from a person's) make up one misplay, to the
    last bit: with floating point, 1 - 3 * (1/3) left 1e-16 (a third was the bot's credit
    then), and the table stayed "misled" (no finesses with a strike down) for one more
    play."""
    for table, credit in ((None, 4), ([None, "conventions"], 12)):  # seat 0: a bot, a person
        _, bot = position(TOP, [], seat=1, table=table)
        bot.trust.misled[0] += 2  # two misplays from seat 0's clues
        for k in range(2 * credit):
            order = 100 + k  # a card read from seat 0's clue, played
            bot.trust.read_from[order] = 0
            bot.trust.check_outcome({"type": "play", "card": order, "seat": 1}, None, bot.table)
            assert (bot.trust.misled[0] >= 1) == (
                k + 1 <= credit
            )  # doubted until a misplay is made up
        assert bot.trust.misled[0] == 0 and not any(bot.trust.misled)
