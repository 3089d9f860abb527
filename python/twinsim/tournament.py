"""``python -m twinsim.tournament GAME --bot CMD --bot CMD ...``: ``twinsim arena`` on Ray.

The arena's flags, plus ``--address`` (join a Ray cluster: ``auto`` or ``HOST:PORT``; default: a
Ray on this machine), ``--shard`` (games per Ray task), ``--num-cpus`` (the local Ray's workers)
and ``--max-retries``. See :func:`twinsim.distributed.tournament`.
"""

from __future__ import annotations

import argparse
import sys

from .distributed import DEFAULT_STDERR_LIMIT, tournament


def _positive(kind):
    def parse(text: str):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text}: above 0")
        return value

    return parse


def _bot_time_scale(text: str) -> tuple[int, float]:
    """``BOT=X`` of ``--bot-time-scale``, as ``twinsim arena`` reads it (the arena checks the
    index against the bots and the scale's range)."""
    bot, sep, scale = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected BOT=X, e.g. 0=3 (bot 0's limits times 3)"
        )
    try:
        index = int(bot.strip())
    except ValueError:
        index = -1
    if index < 0:
        message = f"{text!r}: BOT is the bot's index (0 for the first --bot)"
        raise argparse.ArgumentTypeError(message)
    try:
        return index, float(scale)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: X is a number, e.g. 3") from None


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m twinsim.tournament",
        description="Bots against each other, the games played as Ray tasks: the results, "
        "traces and final table of `twinsim arena`.",
    )
    p.add_argument("game", help="game (xmas-rush, photosynthesis, zuniq, olymbits, wondev-woman)")
    p.add_argument(
        "--bot",
        dest="bots",
        action="append",
        required=True,
        help="a bot: a shell command, builtin:random, builtin:greedy or a builtin search "
        "(optionally @reference|@fast, :iterations=N and :ms=N); one per seat",
    )
    p.add_argument("--games", type=_positive(int), default=100, help="games to play (100)")
    p.add_argument("--seed", type=int, default=1, help="master seed (1)")
    p.add_argument("--league", type=int, help="league (default: the top league)")
    p.add_argument(
        "--threads", type=_positive(int), default=1, help="games at once per Ray task (1)"
    )
    p.add_argument(
        "--time-scale", type=_positive(float), default=1.0, help="multiplies the time limits"
    )
    p.add_argument(
        "--bot-time-scale",
        dest="bot_time_scales",
        action="append",
        type=_bot_time_scale,
        metavar="BOT=X",
        help="one bot's own time scale: the BOT-th --bot (from 0) gets the limits times X "
        "instead of --time-scale; repeatable, once per bot",
    )
    p.add_argument("--engine", choices=["fast", "reference", "both"], default="fast")
    p.add_argument("--out", help="write traces.jsonl, results.jsonl and stderr/ here")
    p.add_argument("--stderr-limit", type=int, default=DEFAULT_STDERR_LIMIT)
    p.add_argument("--resume", action="store_true", help="continue the run recorded in --out")
    p.add_argument("--address", help="Ray cluster to join (auto or HOST:PORT)")
    p.add_argument(
        "--shard",
        type=_positive(int),
        help="games per Ray task (default: from the games and the cluster's CPUs, at most 500)",
    )
    p.add_argument("--num-cpus", type=_positive(int), help="workers of a local Ray")
    p.add_argument("--max-retries", type=int, default=5, help="retries of a failed task (5)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.resume and args.out is None:
        parser().error("--resume needs --out")
    try:
        # The flags' names are the function's keyword arguments.
        options = vars(args)
        summary = tournament(
            options.pop("game"), options.pop("bots"), options.pop("games"), **options
        )
    except ValueError as e:
        print(f"twinsim.tournament: {e}", file=sys.stderr)
        return 2
    return 130 if summary["interrupted"] else 0


if __name__ == "__main__":
    sys.exit(main())
