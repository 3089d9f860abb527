"""Ray tournaments size their shards from the games and the cluster's CPUs when none is given."""

from __future__ import annotations

from twinsim import tournament
from twinsim.distributed import MAX_AUTO_SHARD, TASKS_PER_SLOT, auto_shard


def test_a_small_run_is_spread_over_every_cpu():
    # 200 games on 2 CPUs: 8 tasks of 25, not one task of 500 (which left a CPU idle).
    assert auto_shard(200, 2) == 25
    assert -(-200 // auto_shard(200, 2)) == 2 * TASKS_PER_SLOT


def test_shards_follow_the_task_slots_and_stay_bounded():
    assert auto_shard(200, 16, threads=4) == 13  # 4 slots of 4 CPUs, 16 tasks
    assert auto_shard(10**6, 2) == MAX_AUTO_SHARD  # a retried task replays at most 500 games
    assert auto_shard(3, 64) == 1
    assert auto_shard(5, 0.5) == 2  # a fractional CPU is still one slot


def test_the_command_leaves_the_shard_to_the_cluster_unless_given():
    assert tournament.parser().parse_args(["zuniq", "--bot", "a", "--bot", "b"]).shard is None
    args = ["zuniq", "--bot", "a", "--bot", "b", "--shard", "7"]
    assert tournament.parser().parse_args(args).shard == 7
