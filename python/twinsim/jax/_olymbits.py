"""Olymbits in pure JAX: the top league's four mini-games (``rules/olymbits.md`` sections 4 to
8) with the features of the PettingZoo env (``python/src/codec/olymbits.rs``,
``python/src/lanes/olymbits.rs``), three seats acting at once.

Randomness: the referee draws from SHA1PRNG; here every random outcome (a hurdle track, an
archery start and its winds, the skating risk order, a diving goal) comes from ``jax.random``
with the referee's distributions (:func:`draw`), and ``step_with(state, actions, draws)`` plays a
turn given the outcomes, so that the rules can be checked against the Rust twin fed the same
ones (the tests take them from the Rust state). The referee's SHA1PRNG itself is not ported: a
seed does not replay the referee's game S.

Through ``twinsim.VecEnv`` every seat answers one of the four actions every turn, so no player
is ever deactivated; this engine has no deactivation either (every seat active, every run's
``dead`` flags false) and ends after turn 100.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from ._env import Env, PgxState, pytree, unless_finished

PLAYERS = 3
GAMES = 4
HURDLES, ARCHERY, SKATING, DIVING = range(GAMES)
TRACK = 30
SEQUENCE = 15  # the longest archery wind list and diving goal
MAX_TURNS = 100
GPU = 30
REGISTERS = 7
OBSERVATION = 3 + 13 * PLAYERS + GAMES * (GPU + REGISTERS)
#: Archery's wind weights for strengths 0..9 (section 5.1).
WIND_WEIGHTS = np.array([0, 2, 2, 2, 0.5, 0.5, 0.25, 0.25, 0.25, 0.2])


@pytree
@dataclasses.dataclass(frozen=True)
class Draws:
    """The random outcomes of one turn (or of the setup), used where a mini-game resets (and
    skating's order every turn): ``track`` (bool ``[30]``, hurdles), ``cursor`` (``[2]``, the
    archery start), ``wind`` and ``winds`` (int32 ``[15]`` and its length), ``order`` (the
    skating risk order, a permutation of the actions), ``goal`` and ``goals`` (the diving
    letters as action indices, and their count)."""

    track: jax.Array
    cursor: jax.Array
    wind: jax.Array
    winds: jax.Array
    order: jax.Array
    goal: jax.Array
    goals: jax.Array


def _below(u: jax.Array, n: int | jax.Array) -> jax.Array:
    """A uniform integer in ``0..n-1`` from a uniform float in [0, 1)."""
    return jnp.minimum(jnp.floor(u * n).astype(jnp.int32), n - 1)


def _shuffle(u: jax.Array, order: jax.Array) -> jax.Array:
    """``Collections.shuffle`` of four: swap(i - 1, nextInt(i)) for i = 4, 3, 2 (``u``: three
    uniform floats)."""
    for i, v in zip((4, 3, 2), u):
        j = _below(v, i)
        a, b = order[i - 1], order[j]
        order = order.at[i - 1].set(b).at[j].set(a)
    return order


def draw(key: jax.Array, order: jax.Array) -> Draws:
    """A turn's outcomes with the referee's distributions (sections 4.1, 5.1, 6.1, 7.1);
    ``order`` is the skating order the shuffle continues from. One batch of uniform floats
    feeds every draw (one counter-based hash to compile, not one per draw)."""
    u = jax.random.uniform(key, (48,))
    start, hurdles = 3 + _below(u[0], 5), 3 + _below(u[1], 4)
    gaps = jnp.where(u[2:8] < 0.5, 5, 4)
    at = start + jnp.concatenate([jnp.zeros(1, jnp.int32), jnp.cumsum(gaps)[:5]])
    cells = jnp.arange(TRACK)
    track = jnp.any((cells[:, None] == at[None, :]) & (jnp.arange(6) < hurdles)[None, :], axis=1)
    track = track & (cells < TRACK - 1)  # cut at 29 characters, the last cell '.'
    size = 5 + _below(u[8:10], 5)
    sign = jnp.where(u[10:12] < 0.5, 1, -1)
    cumulative = jnp.asarray(np.cumsum(WIND_WEIGHTS) / WIND_WEIGHTS.sum(), dtype=jnp.float32)
    # The smallest strength whose cumulative weight reaches the draw (strength 0 weighs 0).
    wind = jnp.minimum(jnp.searchsorted(cumulative, u[12:27], side="left"), 9)
    return Draws(
        track=track,
        cursor=(size * sign).astype(jnp.int32),
        wind=jnp.maximum(wind, 1).astype(jnp.int32),
        winds=12 + _below(u[27], 4),
        order=_shuffle(u[28:31], order),
        goal=_below(u[31:46], 4),
        goals=12 + _below(u[46], 4),
    )


@pytree
@dataclasses.dataclass(frozen=True)
class State(PgxState):
    """An Olymbits position. pgx's fields first (``current_player`` is 0: every seat acts each
    turn; ``observation`` is seat 0's; ``legal_action_mask`` the four actions, allowed to every
    seat); then ``medals`` (``[player, game, gold/silver/bronze]``), ``should_reset`` (per
    mini-game: its run ended, the next turn is its reset turn), ``track``, ``pos`` (hurdles),
    ``stun``, ``cursors`` (archery, ``[player, x/y]``), ``wind``, ``winds``, ``head`` (per
    mini-game: the current wind or goal letter), ``skate``, ``risk``, ``order``, ``timer``,
    ``goal``, ``goals``, ``points``, ``combo`` (diving)."""

    medals: jax.Array
    should_reset: jax.Array
    track: jax.Array
    pos: jax.Array
    stun: jax.Array
    cursors: jax.Array
    wind: jax.Array
    winds: jax.Array
    head: jax.Array
    skate: jax.Array
    risk: jax.Array
    order: jax.Array
    timer: jax.Array
    goal: jax.Array
    goals: jax.Array
    points: jax.Array
    combo: jax.Array


def _ranks(score: jax.Array) -> jax.Array:
    """Competition ranks (section 8.3): the number of players with a strictly higher score."""
    return jnp.sum(score[None, :] > score[:, None], axis=1)


def _points(medals: jax.Array) -> jax.Array:
    """Each player's ``prod over games of (3·gold + silver)`` (section 8.4)."""
    return jnp.prod(3 * medals[:, :, 0] + medals[:, :, 1], axis=1)


def _hurdles(state: State, actions: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """A hurdles tick (section 4.3): positions, stun timers, whether someone finished."""
    steps = jnp.array([2, 2, 1, 3])[actions]
    pos, stun = state.pos, state.stun
    stunned = stun > 0
    moving = ~stunned
    finished = jnp.zeros(PLAYERS, dtype=bool)
    for step in range(3):
        going = moving & (step < steps)
        ahead = jnp.minimum(TRACK - 1, pos + 1)
        pos = jnp.where(going, ahead, pos)
        jump = (actions == 0) & (step == 0)
        hit = going & state.track[pos] & ~jump
        stun = jnp.where(hit, 2, stun)
        done = going & ~hit & (pos == TRACK - 1)
        finished = finished | done
        moving = going & ~hit & ~done
    stun = jnp.where(stunned, stun - 1, stun)
    return pos, stun, jnp.any(finished)


def _skating(state: State, actions: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A skating tick (section 6.2): positions and risks."""
    stunned = state.risk < 0
    k = jnp.argmax(state.order[None, :] == actions[:, None], axis=1)
    skate = jnp.where(stunned, state.skate, state.skate + jnp.array([1, 2, 2, 3])[k])
    risk = jnp.where(stunned, state.risk + 1, jnp.maximum(0, state.risk + k - 1))
    lane = skate % 10
    others = (lane[None, :] == lane[:, None]) & ~jnp.eye(PLAYERS, dtype=bool)
    checked = risk >= 0
    risk = jnp.where(checked & jnp.any(others, axis=1), risk + 2, risk)
    risk = jnp.where(checked & (risk >= 5), -2, risk)
    return skate, risk


def _setup(draws: Draws) -> State:
    zeros = jnp.zeros(PLAYERS, dtype=jnp.int32)
    return State(
        current_player=jnp.int32(0),
        observation=jnp.zeros(OBSERVATION, dtype=jnp.int32),
        rewards=jnp.zeros(PLAYERS, dtype=jnp.float32),
        terminated=jnp.bool_(False),
        truncated=jnp.bool_(False),
        legal_action_mask=jnp.ones(4, dtype=bool),
        step_count=jnp.int32(0),
        medals=jnp.zeros((PLAYERS, GAMES, 3), dtype=jnp.int32),
        should_reset=jnp.zeros(GAMES, dtype=bool),
        track=draws.track,
        pos=zeros,
        stun=zeros,
        cursors=jnp.broadcast_to(draws.cursor, (PLAYERS, 2)),
        wind=draws.wind,
        winds=draws.winds,
        head=jnp.zeros(GAMES, dtype=jnp.int32),
        skate=zeros,
        risk=zeros,
        order=draws.order,
        timer=jnp.int32(15),
        goal=draws.goal,
        goals=draws.goals,
        points=zeros,
        combo=zeros,
    )


def _observe(state: State, player: jax.Array) -> jax.Array:
    me = (jnp.arange(PLAYERS) == player).astype(jnp.int32)
    lines = jnp.concatenate([_points(state.medals)[:, None], state.medals.reshape(PLAYERS, 12)], 1)
    cells = jnp.arange(GPU)
    remaining = cells + state.head[:, None]  # [game, cell] index into the wind / goal
    wind = jnp.where(
        remaining[ARCHERY] < state.winds, state.wind[jnp.minimum(remaining[ARCHERY], 14)], -1
    )
    goal = jnp.where(
        remaining[DIVING] < state.goals, state.goal[jnp.minimum(remaining[DIVING], 14)] + 1, -1
    )
    order = jnp.where(cells < 4, state.order[jnp.minimum(cells, 3)] + 1, -1)
    gpus = jnp.stack([state.track.astype(jnp.int32), wind, order, goal])
    gpus = jnp.where(state.should_reset[:, None], -1, gpus)
    x, y = state.cursors[:, 0], state.cursors[:, 1]
    registers = jnp.stack(
        [
            jnp.concatenate([state.pos, state.stun, jnp.zeros(1, jnp.int32)]),
            jnp.stack([x[0], y[0], x[1], y[1], x[2], y[2], 0]),
            jnp.concatenate([state.skate, state.risk, state.timer[None]]),
            jnp.concatenate([state.points, state.combo, jnp.zeros(1, jnp.int32)]),
        ]
    )
    games = jnp.concatenate([gpus, registers], axis=1).reshape(-1)
    return jnp.concatenate([me, lines.reshape(-1), games]).astype(jnp.int32)


class Olymbits(Env):
    """Olymbits (CodinGame Summer Challenge 2024), the top league: three seats acting at once.
    ``step(state, actions, key)`` takes one action per seat (shape ``(3,)``: 0 ``UP``, 1
    ``DOWN``, 2 ``LEFT``, 3 ``RIGHT``) and draws the turn's random outcomes from ``key``;
    ``step_with(state, actions, draws)`` takes them given. Observation ``(190,)`` int32."""

    id = "olymbits"
    num_players = PLAYERS
    num_actions = 4
    simultaneous = True

    def init(self, key: jax.Array) -> State:
        """A new game, its four runs drawn with ``key``."""
        return self.init_with(draw(key, jnp.arange(4)))

    def init_with(self, draws: Draws) -> State:
        """A new game whose four runs are ``draws``."""
        state = _setup(draws)
        return state.replace(observation=_observe(state, jnp.int32(0)))

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        if key is None:
            raise ValueError("Olymbits draws its runs: step needs a key")
        return self.step_with(state, action, draw(key, state.order))

    def step_with(self, state: State, action: jax.Array, draws: Draws) -> State:
        """The turn of ``action`` (one per seat) with the random outcomes ``draws`` (section
        8.2, step 4: each mini-game in order resets or ticks, and awards medals when its run
        ends)."""
        actions = jnp.clip(jnp.asarray(action, dtype=jnp.int32), 0, 3)
        resets = state.should_reset
        fresh = _setup(draws)
        head = state.head
        # Hurdles.
        pos, stun, finished = _hurdles(state, actions)
        hurdles_over = ~resets[HURDLES] & finished
        # Archery.
        w = state.wind[jnp.minimum(head[ARCHERY], SEQUENCE - 1)]
        delta = jnp.array([[0, -1], [0, 1], [-1, 0], [1, 0]])[actions] * w
        cursors = jnp.clip(state.cursors + delta, -20, 20)
        archery_head = head[ARCHERY] + 1
        archery_over = ~resets[ARCHERY] & (archery_head >= state.winds)
        # Skating.
        skate, risk = _skating(state, actions)
        timer = state.timer - 1
        skating_over = ~resets[SKATING] & (timer <= 0)
        # Diving.
        match = actions == state.goal[jnp.minimum(head[DIVING], SEQUENCE - 1)]
        combo = jnp.where(match, state.combo + 1, 0)
        points = state.points + jnp.where(match, combo, 0)
        diving_head = head[DIVING] + 1
        diving_over = ~resets[DIVING] & (diving_head >= state.goals)

        def pick(game: int, new: jax.Array, ticked: jax.Array) -> jax.Array:
            return jnp.where(resets[game], new, ticked)

        after = state.replace(
            track=pick(HURDLES, draws.track, state.track),
            pos=pick(HURDLES, fresh.pos, pos),
            stun=pick(HURDLES, fresh.stun, stun),
            cursors=pick(ARCHERY, fresh.cursors, cursors),
            wind=pick(ARCHERY, draws.wind, state.wind),
            winds=pick(ARCHERY, draws.winds, state.winds),
            head=jnp.stack(
                [
                    jnp.int32(0),
                    pick(ARCHERY, 0, archery_head),
                    jnp.int32(0),
                    pick(DIVING, 0, diving_head),
                ]
            ),
            skate=pick(SKATING, fresh.skate, skate),
            risk=pick(SKATING, fresh.risk, risk),
            timer=pick(SKATING, fresh.timer, timer),
            order=draws.order,  # skating shuffles after every tick and at its reset
            goal=pick(DIVING, draws.goal, state.goal),
            goals=pick(DIVING, draws.goals, state.goals),
            points=pick(DIVING, fresh.points, points),
            combo=pick(DIVING, fresh.combo, combo),
        )
        over = jnp.stack([hurdles_over, archery_over, skating_over, diving_over])
        # Medals of the runs that ended (section 8.3): ranks by each mini-game's score.
        x, y = after.cursors[:, 0], after.cursors[:, 1]
        scores = jnp.stack([after.pos, -(x * x + y * y), after.skate, after.points])
        ranks = jax.vmap(_ranks)(scores)  # [game, player]
        won = over[:, None, None] & (ranks[:, :, None] == jnp.arange(3)[None, None, :])
        medals = state.medals + jnp.transpose(won, (1, 0, 2)).astype(jnp.int32)
        turn = state.step_count + 1
        ends = turn >= MAX_TURNS
        ranks = _ranks(_points(medals))
        below = jnp.sum(ranks[None, :] > ranks[:, None], axis=1)
        above = jnp.sum(ranks[None, :] < ranks[:, None], axis=1)
        rewards = jnp.where(ends, (below - above) / (PLAYERS - 1), 0.0).astype(jnp.float32)
        after = after.replace(
            medals=medals,
            should_reset=over,
            step_count=turn,
            terminated=ends,
            rewards=rewards,
            legal_action_mask=jnp.broadcast_to(~ends, (4,)),
        )
        after = after.replace(observation=_observe(after, jnp.int32(0)))
        return unless_finished(state, after)

    def observe(self, state: State, player_id: jax.Array) -> jax.Array:
        return _observe(state, jnp.asarray(player_id, dtype=jnp.int32))
