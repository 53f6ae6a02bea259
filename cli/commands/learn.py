"""Learn the game: a short guided solitaire game that walks you through a turn, a discovery and a card.

Each lesson says what to try and is checked after every line you type (SPEC §31.10); `hint`
names a command that fits, `lesson` repeats the lesson."""
from __future__ import annotations

from cli.errors import UserError
from cli.games import add_game_argument, game_of
from cli.repl.local import LocalGame
from cli.repl.loop import default_history, use_colour
from cli.repl.tutor import TutorRepl


def add_arguments(parser) -> None:
    add_game_argument(parser)
    parser.add_argument("--no-color", action="store_true", help="plain text, no colours")


def run(args, *, input=None, output=None, history=None) -> int:
    kit = game_of(args)
    tutorial = kit.tutorial()
    if tutorial is None:
        raise UserError(f"asv learn: {kit.title} has no tutorial yet; asv play --game {kit.key} starts a game")
    driver = LocalGame(tutorial.players, 0, tutorial.seed, "greedy", {}, kit=kit)
    color = use_colour(args.no_color) and output is None
    repl = TutorRepl(driver, tutorial, color=color, input=input, output=output,
                     history=history or default_history(), auto_pass=True)
    run.last_repl = repl      # for tests: the transcript
    return repl.run()
