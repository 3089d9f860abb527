"""``bot_time_scales``: one bot's own time scale (``twinsim arena --bot-time-scale BOT=X``) in
``twinsim.arena``, with the arena's refusals.

The bots sleep 0.5 s before each answer, on Zuniq's per-game budget of 30 s scaled to 150 ms
(``time_scale=0.005``): a bot on the run's scale always times out (a sleep does not end early),
and a bot given its own scale of 1 (30 s, 60 times its sleep) is always on time, however busy
the machine. Its answer (``X``) is refused, which ends the game: on time, and invalid.
"""

from __future__ import annotations

import pytest

import twinsim

GAME = "zuniq"
SLOW = "sh -c 'while read l; do sleep 0.5; echo X; done'"
RUN_SCALE = 0.005


def totals(bot_time_scales=None) -> list[tuple[int, int]]:
    """Each bot's ``(timeouts, invalid)`` over 2 games (each bot moves first once), two slow
    bots."""
    run = twinsim.arena(
        GAME,
        [SLOW, SLOW],
        games=2,
        threads=1,
        time_scale=RUN_SCALE,
        bot_time_scales=bot_time_scales,
    )
    return [(b["timeouts"], b["invalid"]) for b in run["bots"]]


def test_a_bot_time_scale_is_that_bots_alone():
    # The first mover's answer ends each game: a timeout, or an invalid answer on time.
    assert totals() == [(1, 0), (1, 0)]
    assert totals({0: 1}) == [(0, 1), (1, 0)]
    assert totals({1: 1.0}) == [(1, 0), (0, 1)]
    assert totals([(0, 1), (1, 1)]) == [(0, 1), (0, 1)]


@pytest.mark.parametrize(
    "scales, error, message",
    [
        ({2: 1}, ValueError, "there are 2 bots"),
        ({0: 0}, ValueError, "time scale 0 of bot 0"),
        ({0: 1001}, ValueError, "at most 1000"),
        ({0: float("nan")}, ValueError, "time scale NaN of bot 0"),
        ({-1: 1}, ValueError, "counts from 0"),
        ({10**30: 1}, ValueError, "not a bot's index"),
        ([(0, 1), (0, 2)], ValueError, "bot 0 twice"),
        ({"0": 1}, TypeError, "the bot's index"),
        ({0: "3"}, TypeError, "a number"),
        ("0=3", TypeError, "not a string"),
    ],
)
def test_bad_bot_time_scales_are_refused(scales, error, message):
    with pytest.raises(error, match=message):
        twinsim.arena(GAME, ["builtin:random"] * 2, games=1, bot_time_scales=scales)
