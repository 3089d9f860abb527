"""VecEnv shared between threads, inherited by a forked child, asked for too much, and
autoreset through a seed its referee cannot replay: a result or a clear error, never a hang or
an abort. Each case that could hang runs in a child interpreter with a generous timeout."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import twinsim

# Only detects a hang: each script takes well under a second unloaded.
HANG = 120


def run_script(code: str) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter; a hang fails the test instead of blocking it."""
    try:
        return subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=HANG,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung for {HANG} s:\n{code}")


def test_two_threads_sharing_a_batch_never_deadlock():
    # The reproduction: one thread steps while the other asks for the seeds (before
    # the fix, it held the GIL waiting for the batch lock that the stepping thread held while
    # waiting for the GIL).
    result = run_script(
        """
        import threading
        import numpy as np
        import twinsim
        for threads in (1, 2):
            e = twinsim.VecEnv("olymbits", 256, threads=threads)
            e.reset()
            a = np.zeros((256, 3), np.int64)
            t = threading.Thread(target=lambda: [e.step(a) for _ in range(300)])
            t.start()
            for _ in range(3000):
                e.seeds()
            t.join()
        print("ok")
        """
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


def test_a_forked_child_steps_its_inherited_batch_on_a_pool_of_its_own():
    result = run_script(
        """
        import os
        import numpy as np
        import twinsim
        e = twinsim.VecEnv("zuniq", 64, seed=5, threads=2)
        observations, _ = e.reset()
        actions = observations["action_mask"].argmax(axis=-1)
        expected = e.step(actions)[0]["observation"].copy()
        e.reset()
        unused = twinsim.VecEnv("olymbits", 8, threads=2)
        unused.reset()
        pid = os.fork()
        if pid == 0:
            del unused  # dropped in the child: its pool's workers are the parent's
            child = e.step(actions)[0]["observation"]
            os._exit(0 if np.array_equal(child, expected) else 3)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status))
        """
    )
    assert result.returncode == 0 and result.stdout.strip() == "0", result.stderr


def test_sizes_beyond_the_documented_limits_are_refused():
    with pytest.raises(ValueError, match=r"num_envs must be 1 to 1048576"):
        twinsim.VecEnv("olymbits", 10**9)
    with pytest.raises(ValueError, match=r"threads must be 1 to 256"):
        twinsim.VecEnv("olymbits", 4, threads=5000)


def test_a_batch_too_big_for_memory_raises_memory_error_not_an_abort():
    # Under a 1.5 GB address-space limit, 2^20 X-mas Rush games' arrays cannot be made.
    result = run_script(
        """
        import resource
        import twinsim
        resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29))
        try:
            twinsim.VecEnv("xmas-rush", 1 << 20)
        except MemoryError:
            print("MemoryError")
        """
    )
    assert result.returncode == 0 and result.stdout.strip() == "MemoryError", result.stderr


def test_an_autoreset_through_olymbits_seed_zero_plays_the_pettingzoo_envs_seed_zero():
    # Game 0 plays seeds -4, 0, 4, ...: the run raised at its first reset, after the
    # other games had moved, and every later call failed.
    vec = twinsim.VecEnv("olymbits", 4, seed=-4, threads=1)
    observations, _ = vec.reset()
    rng = np.random.default_rng(1)
    reached_zero = False
    for _ in range(400):
        masks = observations["action_mask"]
        actions = (rng.random(masks.shape) + masks).argmax(-1)
        observations, *_ = vec.step(actions)
        reached_zero |= vec.seeds()[0] == 0
    assert reached_zero
    # Seed 0 is played as the PettingZoo envs play it (`_envs.py`: Olymbits' referee cannot
    # replay seed 0).
    zero, _ = twinsim.VecEnv("olymbits", 1, seed=0).reset()
    env = twinsim.parallel_env("olymbits")
    pettingzoo, _ = env.reset(seed=0)
    for p, agent in enumerate(env.agents):
        np.testing.assert_array_equal(zero["observation"][0, p], pettingzoo[agent]["observation"])
