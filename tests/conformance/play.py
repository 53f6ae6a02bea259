"""One game of a kit played to the end by bots, with the conformance checks made on the way
(SPEC §35.2). Only the kit interface is used, so every registered game is played alike."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from protocol.session import CHANCE

# Text that is no action of any game, or nearly one (SPEC §35.2, refusals).
GARBAGE = ("", " ", "pass pass", "\x00", "move", "9" * 40, "#-1", "move s999 Z-99", "draw-tile 3 4",
           "x" * 500, "play-card ", "é", "discover #0 nothing")


@dataclass
class Tally:
    """What one game checked: for the report and so that a test can say it checked something."""
    events: int = 0
    chance: int = 0
    round_trips: int = 0
    refusals: int = 0            # refused attempts, the state hash checked unchanged after each
    accepted_unoffered: int = 0  # attempts apply took although legal_actions did not offer them
    steps_checked: int = 0
    hashes: list[str] = field(default_factory=list)


def mangle(text: str, rng: random.Random) -> str:
    """An action's text with one thing wrong: a word dropped, doubled, swapped or made up,
    a number changed."""
    words = text.split(" ")
    how = rng.randrange(6)
    if how == 0 and len(words) > 1:
        del words[rng.randrange(len(words))]
    elif how == 1:
        i = rng.randrange(len(words))
        words.insert(i, words[i])
    elif how == 2 and len(words) > 1:
        i, j = rng.sample(range(len(words)), 2)
        words[i], words[j] = words[j], words[i]
    elif how == 3:
        words.append(rng.choice(["now", "#7", "A-1", "0", "-3", "s1"]))
    elif how == 4:
        digits = [i for i, w in enumerate(words) if any(c.isdigit() for c in w)]
        if digits:
            i = rng.choice(digits)
            words[i] = "".join(str(rng.choice([0, 9, 99, 12345])) if c.isdigit() else c for c in words[i])
    else:
        words[rng.randrange(len(words))] = rng.choice(["zzz", "move", "pass", "#", "-"])
    return " ".join(words)


class Game:
    """A kit's game in progress: the state, each seat's view, the dealer and the history of
    (seat, action) from which the state can be rebuilt."""

    def __init__(self, kit, players: int, config: dict, seed: int) -> None:
        self.kit, self.players, self.config, self.seed = kit, players, config, seed
        self.state = kit.new_state(players, dict(config))
        self.views = [kit.new_view(s) for s in range(players)]
        self.dealer = kit.dealer(seed)
        self.history: list[tuple[int, object]] = []

    def rebuild(self) -> None:
        """The state again from the history: after an attempt apply took (the views and the
        dealer are untouched by apply, so they stay right)."""
        self.state = self.kit.new_state(self.players, dict(self.config))
        for seat, action in self.history:
            self.kit.apply(self.state, seat, action)

    def attempt(self, seat: int, action, tally: Tally, why: str) -> None:
        """Apply an action that should be refused: if it is, the state hash must be as before;
        if apply takes it anyway, the game goes back to where it was."""
        kit = self.kit
        before = kit.state_hash(self.state)
        try:
            kit.apply(self.state, seat, action)
        except kit.engine_errors:
            after = kit.state_hash(self.state)
            assert after == before, (f"{kit.key}: refused {action.text()!r} by seat {seat} ({why}) changed "
                                     f"the state at event {len(self.history)}")
            tally.refusals += 1
            return
        tally.accepted_unoffered += 1
        self.rebuild()


def checked(event: int, first: int, every: int) -> bool:
    """Which events are checked: all of the first `first`, then every `every`-th, so a long
    game costs not much more than a short one and is still looked at all the way through."""
    return event < first or event % every == 0


def play(kit, players: int, config: dict, bot_kind: str, seed: int, *, first: int = 10**9, every: int = 1,
         hash_every: int = 0) -> tuple[Game, Tally]:
    """Play with `bot_kind` in every seat until the game is over. At each checked event (see
    `checked`): the legal actions are the same when asked again, every one's text parses back
    to it, garbage and mangled texts are refused with the kit's errors, actions legal at an
    earlier event and the due seat's actions by another seat are refused, each leaving the
    state hash as it was. `hash_every` > 0 keeps the state hash every so many events (and the
    last)."""
    game = Game(kit, players, config, seed)
    rng = random.Random(f"{kit.key}/{players}/{bot_kind}/{seed}")
    bots = [kit.bot(bot_kind, f"{seed}/{seat}") for seat in range(players)]
    tally = Tally()
    earlier: dict[str, object] = {}      # text -> an action once legal, kept in first-seen order
    while not kit.is_over(game.state):
        seat = kit.to_move(game.state)
        checking = checked(tally.events, first, every)
        if seat == CHANCE:
            action = game.dealer.outcome(game.state, game.views)
            if checking:
                for wrong in range(players):
                    game.attempt(wrong, action, tally, "a chance outcome by a player")
            tally.chance += 1
        elif checking:
            legal = kit.legal_actions(game.state, game.views[seat])
            assert legal, f"{kit.key}: seat {seat} is due at event {tally.events} and has no legal action"
            check_step(game, seat, legal, earlier, rng, tally)
            action = bots[seat].choose(game.state, game.views[seat])
            assert action in legal, f"{kit.key}: the {bot_kind} bot chose {action.text()!r}, not offered"
            for a in legal:
                earlier.setdefault(a.text(), a)
        else:   # the bot asks for the legal actions itself, and apply below checks its choice
            action = bots[seat].choose(game.state, game.views[seat])
        kit.apply(game.state, seat, action)
        game.history.append((seat, action))
        tally.events += 1
        if hash_every and tally.events % hash_every == 0:
            tally.hashes.append(kit.state_hash(game.state))
    if hash_every:
        tally.hashes.append(kit.state_hash(game.state))
    return game, tally


def check_step(game: Game, seat: int, legal: list, earlier: dict, rng: random.Random, tally: Tally) -> None:
    kit = game.kit
    tally.steps_checked += 1
    assert kit.legal_actions(game.state, game.views[seat]) == legal, f"{kit.key}: legal actions differ when asked again"
    offered = set(a.text() for a in legal)
    for a in legal:
        back = kit.parse_action(a.text())
        assert back == a, f"{kit.key}: {a.text()!r} parses to {back!r}, not {a!r}"
        tally.round_trips += 1
    texts = [rng.choice(GARBAGE)] + [mangle(rng.choice(legal).text(), rng) for _ in range(2)]
    for text in texts:
        try:
            action = kit.parse_action(text)
        except kit.engine_errors:
            tally.refusals += 1
            continue
        if action.text() not in offered:
            game.attempt(seat, action, tally, f"mangled text {text!r}")
    stale = [a for t, a in earlier.items() if t not in offered]
    for action in rng.sample(stale, min(3, len(stale))):
        game.attempt(seat, action, tally, "legal at an earlier event")
    others = [s for s in [*range(game.players), CHANCE] if s != seat]
    game.attempt(rng.choice(others), rng.choice(legal), tally, f"seat {seat}'s action by another seat")
