"""What each Special Action card may do and when (SPEC §14.4-§14.6): argument checks and effects.

`check(state, seat, action, poll)` raises IllegalAction unless the card may be played now with
those arguments and returns the seats it is played on (who may answer with Conspiracy).
`effect(state, seat, action, below)` carries the card out once its response window has closed
without a cancel; `below` is the window it answered, if any.
"""
from __future__ import annotations

from collections.abc import Callable

from .actions import PlaySpecial
from .cards import CARD_BY_NAME
from .checks import require
from .destruction import (TELEPORT, capture, destroy_planet, doom_ships, planet_refusal, ships_on,
                          teleport_ship)
from .errors import ImpossibleState, MalformedAction
from .geometry import parse_square
from .state import DISCARD, MOVE, PLACE_PIECE, TILES, GameState, Poll, Stage, Window

ACID_RAIN, CONSPIRACY, CYBER_JUMP = "Acid Rain", "Conspiracy", "Cyber Jump"
LOST_COLONY, METEOR_SHOWER, NEGOTIATIONS = "Lost Colony", "Meteor Shower", "Negotiations"
PEACE_TALKS, TIME_WARP, SHIFT_OF_FUNDS = "Peace Talks", "Time Warp", "Shift of Funds"
SNEAK_ATTACK, SPACE_VIRUS, TERRA_FORM = "Sneak Attack", "Space Virus", "Terra-Form"
TROIKA_SUMMIT, UFO, WORM_HOLE = "Troika Summit", "U.F.O.", "Worm Hole"
BLACK_HOLE, SUPERNOVA, KAMIKAZE, SABOTAGE = "Black Hole", "Supernova", "Kamikaze Attack", "Sabotage"
CANCELS = (PEACE_TALKS, TIME_WARP)
# Only Action cards that end the turn's actions only when cancelled: Shift of Funds says "then
# continue with your turn", and only a cancel leaves "place your Space tiles" (SPEC §14.4).
ONLY_IF_CANCELLED = (SHIFT_OF_FUNDS,)
# Cards aimed at one named seat (`@N` first): the only ones Conspiracy can redirect (SPEC §14.3).
AIMED_AT_A_SEAT = ("Espionage", "Science Outpost", SHIFT_OF_FUNDS, "Trading Post")
# Cards that cost no energy in the Advanced Strategy game (SPEC §14.7).
FREE_IN_ADVANCED = (SHIFT_OF_FUNDS, SNEAK_ATTACK, CYBER_JUMP)
# Cards not playable in this version of the engine (SPEC §14.8 says why).
# Teleport is played with `teleport` when a ship is doomed (SPEC §15.2), never as `special`.
NOT_YET = ("Teleport",)
# The moment windows in which each out-of-turn card fits (SPEC §14.5).
MOMENT_CARDS = {Window.MOVED: (WORM_HOLE, SABOTAGE), Window.PLANET: (LOST_COLONY, UFO), Window.ENV: (TERRA_FORM,),
                Window.LIFE: (SPACE_VIRUS,), Window.SCORED: (ACID_RAIN,)}
CYBER_MODES = ("tile", "piece", "move", "discard")


# -- argument tokens -------------------------------------------------------------------------
def _seat_arg(state: GameState, token: str) -> int:
    require(token.startswith("@"), f"expected a seat like @1, got {token!r}")
    n = int(token[1:])
    require(0 <= n < len(state.players), f"there is no seat {n}")
    return n


def _ship_arg(state: GameState, token: str):
    require(token.startswith("s") and token[1:].isdigit(), f"expected a ship like s1, got {token!r}")
    ship = state.ships.get(int(token[1:]))
    require(ship is not None, f"there is no ship {token}")
    return ship


def _square_arg(token: str):
    try:
        return parse_square(token)
    except ValueError as exc:
        raise MalformedAction(str(exc)) from None


def _planet_arg(state: GameState, token: str):
    sq_text, sep, part = token.partition("/")
    require(bool(sep) and part.isdigit(), f"expected a planet like D-4/0, got {token!r}")
    sq = _square_arg(sq_text)
    placed = state.board.tile_at(sq)
    require(placed is not None and int(part) < len(placed.tile.planets), f"no planet at {token}")
    return sq, int(part)


def _arity(action: PlaySpecial, low: int, high: int | None = None) -> None:
    high = low if high is None else high
    require(low <= len(action.args) <= high,
            f"{action.name} takes {low}{'' if high == low else f'-{high}'} argument(s)")


# -- board facts used by several cards --------------------------------------------------------
def frozen_square(state: GameState, sq) -> bool:
    """SPEC §14.6 Meteor Shower: the tile's planet and ships are out of play."""
    return any(m[0] == sq for m in state.meteor)


def landing_planets(state: GameState, webbed: bool = False) -> list:
    """Discovered planet squares a card may send a ship to: not frozen, not under a black
    disk, and not webbed unless `webbed` (Worm Hole: "any already discovered Planet")."""
    out = {sq for (sq, _), _r in state.planets.items()
           if (webbed or sq not in state.webs) and sq not in state.black_disks and not frozen_square(state, sq)}
    return sorted(out, key=lambda s: (s[1], s[0]))


def pirate_guarded(state: GameState, sq, planet: int) -> bool:
    """A pirate stands on a path that ends at this planet (Troika Summit's exception)."""
    keys = {state.board.path_key(*pr) for p in state.players for pr in p.pirates}
    return any(state.board.path_key(sq, seg) in keys for seg in state.board.planet_paths(sq, planet))


def tiles_done(state: GameState) -> bool:
    """'After drawing and placing Space tiles' (SPEC §14.4)."""
    if state.variants.advanced:
        return not state.drawn
    return state.phase != TILES


# -- checks ----------------------------------------------------------------------------------
def check(state: GameState, seat: int, action: PlaySpecial, poll: Poll | None) -> tuple[int, ...]:
    check_card(state, seat, action.name, poll)
    return check_args(state, seat, action, poll)


def check_args(state: GameState, seat: int, action: PlaySpecial, poll: Poll | None) -> tuple[int, ...]:
    """The rest of `check`, once check_card has passed (legal_actions runs check_card once a
    card and this once for each candidate argument list)."""
    name = action.name
    if poll is not None and poll.kind == Window.RESPOND:
        return _check_response(state, seat, action, poll)
    if poll is not None:
        return _MOMENT_CHECKS[name](state, seat, action, poll)
    return _OWN_CHECKS[name](state, seat, action)


def check_card(state: GameState, seat: int, name: str, poll: Poll | None) -> None:
    """The part of `check` that the card's name decides, whatever its arguments: whether it
    may be played now at all (legal_actions skips a card that fails here without listing its
    arguments, SPEC §11.2)."""
    require(name not in NOT_YET, f"{name} is not playable in this version (SPEC §14.8)")
    if poll is not None and poll.kind == Window.RESPOND:
        require(name in CANCELS or name == CONSPIRACY, f"{name} does not answer a Special Action")
        return
    require(not CARD_BY_NAME[name].response or name == SPACE_VIRUS,
            f"{name} answers another card; play it in a response window")
    if poll is not None:
        require(name in MOMENT_CARDS[poll.kind], f"{name} does not fit this moment")
        return
    require(name not in (UFO, ACID_RAIN, SPACE_VIRUS, TERRA_FORM, LOST_COLONY),
            f"{name} is played at a moment of a discovery, not on its own")
    require(seat == state.active, "Special Actions are played on your own turn or in a window")
    require(not state.only_action, "an Only Action card was played: only tiles are left this turn")
    require(not state.drawn, "place the tile you drew first")


def _check_response(state: GameState, seat: int, action: PlaySpecial, poll: Poll) -> tuple[int, ...]:
    if action.name in CANCELS:
        _arity(action, 0)
        return (poll.seat,)
    require(seat in poll.targets, "Conspiracy answers only a card played on you")
    _arity(action, 0, 1)
    if action.args:
        answered = poll.action
        require(answered.name in AIMED_AT_A_SEAT, f"{answered.name} cannot be redirected, only cancelled")
        new = _seat_arg(state, action.args[0])
        require(new != poll.seat, "a card cannot be redirected to the player who played it")
        require(new != seat, "redirect the card to a third player")
        _OWN_CHECKS[answered.name](state, poll.seat, redirected(answered, new), redirect=True)
    return (poll.seat,)


def redirected(action: PlaySpecial, seat: int) -> PlaySpecial:
    return PlaySpecial(action.card, action.name, (f"@{seat}",) + action.args[1:])


def _check_cyber_jump(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    require(bool(action.args) and action.args[0] in CYBER_MODES,
            f"Cyber Jump repeats one of: {', '.join(CYBER_MODES)}")
    mode, adv = action.args[0], state.variants.advanced
    if mode == "discard":
        _arity(action, 3)
        cards = [_handle(a) for a in action.args[1:]]
        hand = state.players[seat].hand
        require(cards[0] != cards[1] and all(h in hand and h != action.card for h in cards),
                "Cyber Jump discards two other cards from your hand")
        return ()
    _arity(action, 1)
    require(not state.drawn, "place the tile you drew first")
    if mode == "tile":
        require(state.tiles_left() > 0, "the tile piles are empty")
        require(adv or state.phase == PLACE_PIECE, "the extra tile comes right after the tile phase")
    elif mode == "piece":
        require(state.piece_placed, "you have not placed a piece this turn")
        require(adv or state.phase == PLACE_PIECE, "repeat the piece phase while in it")
    else:
        require(state.moved and state.discovery is None, "you have not moved a ship this turn")
        require(adv or state.phase == MOVE, "repeat the move while in the movement phase")
    return ()


def _handle(token: str) -> int:
    require(token.startswith("#") and token[1:].isdigit(), f"expected a card like #5, got {token!r}")
    return int(token[1:])


def _check_sneak(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 0)
    require(not state.sneak, "Sneak Attack was already played this turn")
    require(seat not in state.specials_used, "Sneak Attack comes before this turn's Special Action")
    return ()


def _check_shift(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 1)
    target = _seat_arg(state, action.args[0])
    require(target != seat, "name another player to miss a turn")
    if not redirect:
        _only_action_timing(state, seat)
    return (target,)


def _only_action_timing(state: GameState, seat: int) -> None:
    require(tiles_done(state) and not state.busy and seat not in state.specials_used,
            "an Only Action card is played right after the tiles, before anything else")


def _check_meteor(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 1)
    require(tiles_done(state), "Meteor Shower is played after the tiles")
    sq, planet = _planet_arg(state, action.args[0])
    require(not frozen_square(state, sq), "that tile is already under a Meteor Shower")
    owners = [r.owner for (s, _), r in sorted(state.planets.items()) if s == sq]
    owners += [s.owner for _, s in sorted(state.ships.items()) if s.square == sq]
    return tuple(sorted(set(o for o in owners if o != seat)))


def _check_troika(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 2, 4)
    require(not state.drawn, "place the tile you drew first")
    check_troika_planet(state, action.args[0])
    ships = [_ship_arg(state, t) for t in action.args[1:]]
    owners = [s.owner for s in ships]
    require(owners[0] == seat, "the first ship is one of yours")
    require(len(set(owners)) == len(owners), "one ship for each player")
    require(all(troika_ship_free(state, s) for s in ships), "a frozen ship cannot move")
    return tuple(owners[1:])


def check_troika_planet(state: GameState, token: str) -> None:
    """Troika Summit's planet, whatever the ships (the listing judges each planet once)."""
    sq, planet = _planet_arg(state, token)
    require((sq, planet) in state.planets, "Troika Summit meets on a discovered planet")
    require(sq not in state.webs, "not on a planet under the Electromagnetic Web")
    require(not frozen_square(state, sq), "that planet is under a Meteor Shower")
    require(not pirate_guarded(state, sq, planet), "not on a planet behind a Space Pirate")


def troika_ship_free(state: GameState, ship) -> bool:
    """A ship Troika Summit may move: not frozen by a Meteor Shower."""
    return not frozen_square(state, ship.square)


def _check_worm_hole_own(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 2)
    ship = _ship_arg(state, action.args[0])
    require(ship.owner == seat, "on your turn Worm Hole moves one of your ships")
    require(not state.moved and not state.drawn, "play Worm Hole before you move")
    require(state.variants.advanced or state.phase == MOVE, "play Worm Hole in the movement phase")
    return _worm_hole_target(state, ship, action)


def _worm_hole_target(state: GameState, ship, action: PlaySpecial) -> tuple:
    sq = _square_arg(action.args[1])
    require(not frozen_square(state, ship.square), "that ship is frozen by a Meteor Shower")
    require(sq in landing_planets(state, webbed=True) and sq != ship.square,
            "Worm Hole sends a ship to another discovered planet (not frozen or destroyed)")
    return ()


def _others_there(state: GameState, seat: int, sq) -> list[int]:
    """Other seats owning a planet or a ship on that tile: the seats a card there is played on."""
    owners = [r.owner for (s, _), r in sorted(state.planets.items()) if s == sq]
    owners += [state.ships[sid].owner for sid in ships_on(state, sq)]
    return sorted(set(o for o in owners if o != seat))


def _check_blast(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    """Black Hole and Supernova (SPEC §14.6, §15.1)."""
    _arity(action, 1)
    if action.name == SUPERNOVA:
        _only_action_timing(state, seat)
    require(tiles_done(state), f"{action.name} is played after the tiles")
    planet = _planet_arg(state, action.args[0])
    reason = planet_refusal(state, planet)
    require(reason is None, f"{action.name}: {reason}")
    return tuple(_others_there(state, seat, planet[0]))


def _check_kamikaze(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 1)
    require(tiles_done(state), "Kamikaze Attack is played after the tiles")
    ship = _ship_arg(state, action.args[0])
    require(ship.owner == seat, "Kamikaze Attack is played on one of your own ships")
    return tuple(_others_there(state, seat, ship.square))


def _check_sabotage_own(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 1)
    ship = _ship_arg(state, action.args[0])
    require(ship.owner != seat, "Sabotage destroys another player's ship")
    require(not state.moved and (state.variants.advanced or state.phase == MOVE),
            "Sabotage is played at the start of your movement phase")
    return (ship.owner,)


def _check_negotiations(state: GameState, seat: int, action: PlaySpecial, redirect=False) -> tuple:
    _arity(action, 0)
    return ()


_OWN_CHECKS = {NEGOTIATIONS: _check_negotiations, CYBER_JUMP: _check_cyber_jump, BLACK_HOLE: _check_blast, SUPERNOVA: _check_blast,
               KAMIKAZE: _check_kamikaze, SABOTAGE: _check_sabotage_own, SNEAK_ATTACK: _check_sneak,
               SHIFT_OF_FUNDS: _check_shift,
               METEOR_SHOWER: _check_meteor, TROIKA_SUMMIT: _check_troika,
               WORM_HOLE: _check_worm_hole_own}


# -- moment checks (SPEC §14.5) ----------------------------------------------------------------
def _check_worm_hole_moment(state, seat, action, poll) -> tuple:
    _arity(action, 2)
    ship = _ship_arg(state, action.args[0])
    require(ship.id == state.moved_ship and ship.owner == poll.seat, "Worm Hole catches the ship that just moved")
    _worm_hole_target(state, ship, action)
    return (ship.owner,)


def _check_sabotage_moment(state, seat, action, poll) -> tuple:
    _arity(action, 1)
    ship = _ship_arg(state, action.args[0])
    d = state.discovery
    require(ship.id == state.moved_ship and ship.owner == poll.seat,
            "Sabotage catches the ship that just moved")
    require(d is not None and d.ship == ship.id and d.stage == Stage.PLANET,
            "Sabotage strikes a ship that landed on a planet, before its planet card")
    return (ship.owner,)


def _check_lost_colony(state, seat, action, poll) -> tuple:
    _arity(action, 0)
    d = state.discovery
    require(seat == d.discoverer, "Lost Colony is played on your own discovery")
    require(not state.planets[d.planet].home, "that planet is already a Home Planet")
    return ()


def _check_ufo(state, seat, action, poll) -> tuple:
    _arity(action, 0)
    require(seat != state.discovery.discoverer, "U.F.O. steals another player's discovery")
    return (state.planets[state.discovery.planet].owner,)


def _check_terra_form(state, seat, action, poll) -> tuple:
    _arity(action, 0)
    require(seat == poll.seat, "Terra-Form is played on a planet you discovered")
    return ()


def _check_virus(state, seat, action, poll) -> tuple:
    _arity(action, 0)
    return (poll.targets[0],)


def _check_acid_rain(state, seat, action, poll) -> tuple:
    _arity(action, 0)
    return (poll.seat,)


_MOMENT_CHECKS = {WORM_HOLE: _check_worm_hole_moment, SABOTAGE: _check_sabotage_moment, LOST_COLONY: _check_lost_colony, UFO: _check_ufo,
                  TERRA_FORM: _check_terra_form, SPACE_VIRUS: _check_virus, ACID_RAIN: _check_acid_rain}


def counts_against_limit(name: str) -> bool:
    """SPEC §14.4: the R cards and Sneak Attack do not use up a seat's one Special Action."""
    return not CARD_BY_NAME[name].response and name != SNEAK_ATTACK


def may_play_another(state: GameState, seat: int) -> bool:
    """One counted card a turn. Sneak Attack is not counted and must come first, so with it
    the turn holds two red cards: Sneak Attack and the one it allows (SPEC §14.4)."""
    return seat not in state.specials_used


# -- effects (SPEC §14.6) -------------------------------------------------------------------
def junk(state: GameState, handle: int) -> None:
    state.decks["junk"].append(handle)


def _effect_cyber_jump(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    mode, adv = action.args[0], state.variants.advanced
    reopen = {"tile": TILES, "piece": PLACE_PIECE, "move": MOVE, "discard": DISCARD}[mode]
    if mode == "discard":
        for token in action.args[1:]:
            h = _handle(token)
            if h in state.players[seat].hand:
                state.players[seat].hand.remove(h)
                junk(state, h)
        return
    if mode == "tile":
        state.tiles_owed += 1
        if not adv:
            state.phase = TILES
    elif mode == "piece":
        state.piece_placed = False
    else:
        state.moved, state.moved_ship = False, 0
    if adv and reopen in state.closed_phases:
        state.closed_phases.remove(reopen)


def _effect_shift(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    state.skips.append(int(action.args[0][1:]))
    if state.tiles_left():
        state.tiles_owed += 1
        if not state.variants.advanced:
            state.phase = TILES
        elif TILES in state.closed_phases:
            state.closed_phases.remove(TILES)


def _effect_sneak(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    state.sneak = True


def _effect_meteor(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    sq, planet = _planet_arg(state, action.args[0])
    state.meteor.append((sq, planet, seat))


def _effect_troika(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    sq, _ = _planet_arg(state, action.args[0])
    for token in action.args[1:]:
        ship = state.ships.get(int(token[1:]))
        if ship is not None and not frozen_square(state, ship.square):  # gone or frozen since
            ship.square = sq


def _effect_worm_hole(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    ship = state.ships.get(int(action.args[0][1:]))
    if ship is None:
        return
    ship.square = _square_arg(action.args[1])
    d = state.discovery
    if d is not None and d.ship == ship.id and d.stage == Stage.PLANET:
        state.discovery = None         # SPEC §14.6: the ship discovers nothing
    if seat == ship.owner and seat == state.active:
        state.moved, state.moved_ship = True, ship.id
    if ship.square in state.webs:      # SPEC §8.8: the Web catches every ship that lands there
        capture(state, ship.id)


def _effect_lost_colony(state: GameState, seat: int, action: PlaySpecial, below) -> bool:
    d = state.discovery
    record = state.planets[d.planet]
    record.home = True
    record.cards.append(action.name)
    state.players[record.owner].pile.append(action.name)
    return True


def _effect_ufo(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    state.planets[state.discovery.planet].owner = seat


def _effect_terra_form(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    state.terraformed = True


def _effect_virus(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    d = state.discovery
    played = below.action               # the PlayLifeForms that opened the window
    record = state.planets[d.planet]
    owner = state.players[record.owner]
    names = [name for _, name in played.cards]
    for name in names:   # each is still there unless a second Space Virus already struck
        kept = owner.continuing if CARD_BY_NAME[name].continuing else owner.pile
        if min(d.life_forms.count(name), record.cards.count(name), kept.count(name)) < names.count(name):
            raise ImpossibleState(f"Space Virus: {name} is no longer on the planet")
    for handle, name in played.cards:
        d.life_forms.remove(name)
        record.cards.remove(name)
        (owner.continuing if CARD_BY_NAME[name].continuing else owner.pile).remove(name)
        junk(state, handle)


def _effect_acid_rain(state: GameState, seat: int, action: PlaySpecial, below) -> bool:
    d = state.discovery
    record = state.planets[d.planet]
    halved = -((-d.scored) // 2)        # half, rounding up (9 -> 5)
    state.players[record.owner].gain(halved - d.scored, "planets")
    d.scored = halved
    record.cards.append(action.name)    # it stays with the planet's cards, not in Space Junk
    state.players[record.owner].pile.append(action.name)
    return True


def _effect_teleport(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    """SPEC §15.2: the Teleport played in the doom poll was not cancelled."""
    teleport_ship(state, int(action.args[0][1:]), _square_arg(action.args[1]))


def _effect_blast(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    planet = _planet_arg(state, action.args[0])
    if planet_refusal(state, planet) is None:      # still there once the window closed
        destroy_planet(state, planet, action.name)


def _effect_kamikaze(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    ship = state.ships.get(int(action.args[0][1:]))
    if ship is not None:
        doom_ships(state, ships_on(state, ship.square), KAMIKAZE)


def _effect_sabotage(state: GameState, seat: int, action: PlaySpecial, below) -> None:
    ship = state.ships.get(int(action.args[0][1:]))
    d = state.discovery
    if d is not None and d.ship == int(action.args[0][1:]) and d.stage == Stage.PLANET:
        state.discovery = None          # SPEC §14.6: the planet is not discovered
    if ship is not None:
        doom_ships(state, [ship.id], SABOTAGE)


# an effect returns True when the card stays in play (with a planet, or until a later step)
# rather than going to Space Junk at once (specials._resolve)
EFFECTS: dict[str, Callable[..., bool | None]]
EFFECTS = {NEGOTIATIONS: lambda state, seat, action, below: None, BLACK_HOLE: _effect_blast, SUPERNOVA: _effect_blast, KAMIKAZE: _effect_kamikaze,
           SABOTAGE: _effect_sabotage, CYBER_JUMP: _effect_cyber_jump, SHIFT_OF_FUNDS: _effect_shift, SNEAK_ATTACK: _effect_sneak,
           METEOR_SHOWER: _effect_meteor, TROIKA_SUMMIT: _effect_troika, WORM_HOLE: _effect_worm_hole,
           LOST_COLONY: _effect_lost_colony, UFO: _effect_ufo, TERRA_FORM: _effect_terra_form,
           SPACE_VIRUS: _effect_virus, ACID_RAIN: _effect_acid_rain, TELEPORT: _effect_teleport}
