"""Phase 3: moving a ship and discovering a planet (SPEC §7, §8.1-8.2).

The Environment and Life Form offers are windows on the one poll stack of SPEC §14.2
(`state.polls`): the discoverer is asked first, then every other seat from its left, and the
first card played closes the offer. The discoverer's own steps (the planet card, Binary
System, explorers) ask it alone and are not windows.
"""
from __future__ import annotations

from .actions import BinaryDiscover, Discover, Move, Pass, PlayEnvironment, PlayExplorer, PlayLifeForms
from .cards import CARD_BY_NAME, ENVIRONMENT, EXPLORER, LIFE_FORM, PLANET, ON_OPPONENT_PLANET
from .checks import card_claim, play_from_hand, require
from .destruction import capture
from .movement import destinations, undiscovered_planets
from .endgame import check_nine_planets
from .extras import after_move, gavin_second_move
from .energy import can_afford_discovery
from .specials import RESUME, close_offer, offer_open, open_moment, open_offer, others_from_left, settle
from .state import MOVE, Discovery, GameState, PlanetRecord, Stage, Window

# Role-play (SPEC §13.3): the roles that earn a point for each card of a category they play.
ROLE_BONUS = {"Dr. Nevets Yahsel": PLANET, "Giant Meema": LIFE_FORM, "The Kaygus": ENVIRONMENT}


def role_bonus(state: GameState, seat: int, category: str) -> None:
    """Basic game only: in the Advanced Strategy game the same roles make the card free instead."""
    role = state.players[seat].role
    if role is not None and ROLE_BONUS.get(role) == category and not state.variants.advanced:
        state.players[seat].gain(1, "role")


def holds_planet_card(state: GameState, seat: int, view) -> bool:
    """Whether the mover may end on an undiscovered planet. With no view (the protocol's
    replay) the claim is taken on trust and proven by the Discover that must follow."""
    if view is None:
        return True
    return any(CARD_BY_NAME.get(view.name_of(h, state.names) or "") is not None
               and CARD_BY_NAME[view.name_of(h, state.names)].category == PLANET
               for h in state.players[seat].hand)


def do_move(state: GameState, seat: int, action: Move) -> None:
    require(state.phase == MOVE, "ships move in phase 3")
    ship = state.ships.get(action.ship)
    require(ship is not None and ship.owner == seat, f"s{action.ship} is not one of your ships")
    if state.torpedo_ship:  # SPEC §15.5: after a Photon Torpedo, only along that path
        require(action.ship == state.torpedo_ship and action.square in state.torpedo_to,
                "after its Photon Torpedo the ship stays or follows that path to its next planet")
    elif gavin_second_move(state, seat):  # SPEC §15.8: Gavin's Raiders move the same ship again
        require(action.ship == state.moved_ship, "Gavin's Raiders move the same ship twice")
        require(action.square in destinations(state, ship, may_discover=True),
                "that square is out of reach or not a place a ship may stop")
    else:
        require(not state.moved, "only one ship moves per turn")
        require(action.square in destinations(state, ship, may_discover=True),
                "that square is out of reach or not a place a ship may stop")
    require(not undiscovered_planets(state, action.square) or can_afford_discovery(state, seat)
            or _discovered_here(state, action.square) or action.square in state.players[seat].stations,
            "not enough energy to move there and play the planet card (SPEC §13.5)")
    # Every check is above: from here on the move happens (a refusal changes nothing).
    if state.torpedo_ship:
        state.torpedo_ship, state.torpedo_to = 0, []
    elif gavin_second_move(state, seat):
        state.only_action = "move"
    ship.square = action.square
    state.moved = True
    state.moved_ship = ship.id
    if action.square in state.webs:  # SPEC §8.8: the Web catches every ship that lands there
        capture(state, ship.id)
        return
    after_move(state, ship)
    if undiscovered_planets(state, action.square):
        # SPEC §7.1: landing on an undiscovered planet commits the mover to discovering it
        # (optional where the mover could stop anyway, may_decline_discovery).
        state.discovery = Discovery((action.square, -1), seat, ship.id, 0, "", stage=Stage.PLANET)
    open_moment(state, Window.MOVED, seat, others_from_left(state, seat))  # SPEC §14.5: Worm Hole


def _discovered_here(state: GameState, sq) -> bool:
    placed = state.board.tile_at(sq)
    return any((sq, i) in state.planets for i in range(len(placed.tile.planets)))


def do_discover(state: GameState, seat: int, action: Discover) -> None:
    d = state.discovery
    require(d is not None and d.stage == Stage.PLANET, "there is no planet to discover now")
    sq = d.planet[0]
    require(action.planet in undiscovered_planets(state, sq), "no such undiscovered planet on this tile")
    card = card_claim(state, seat, action.card, action.name, PLANET)
    play_from_hand(state, seat, action.card, action.name)
    role_bonus(state, seat, PLANET)
    placed = state.board.tile_at(sq)
    state.planets[(sq, action.planet)] = PlanetRecord(seat, card.home_planet, [action.name])
    state.discovery = Discovery((sq, action.planet), seat, d.ship,
                                placed.tile.planets[action.planet], action.name)
    state.terraformed = False
    # SPEC §8.2: the environment offer waits under the planet moment of SPEC §14.5 (Lost Colony
    # for the discoverer, then U.F.O. for the others), which is asked first.
    open_offer(state, Window.ENVIRONMENT, seat, resume="stage")
    open_moment(state, Window.PLANET, seat, (seat,) + others_from_left(state, seat))


def _next_stage(state: GameState) -> None:
    """An offer has closed: open the life form offer, or score the planet."""
    d = state.discovery
    if d.stage == Stage.ENVIRONMENT:
        blocked = d.environment is not None and CARD_BY_NAME[d.environment].blocks_life_form
        d.stage = Stage.EXPLORER if blocked else Stage.LIFE_FORM
        if not blocked:
            open_offer(state, Window.LIFE_FORM, d.discoverer, resume="stage")
    elif d.stage == Stage.LIFE_FORM:
        d.stage = Stage.EXPLORER
    if d.stage == Stage.EXPLORER and not d.scored:
        _score_planet(state)
        if d.environment == BINARY and binary_targets(state):
            d.stage = Stage.BINARY
        owner = owner_of(state)
        open_moment(state, Window.SCORED, owner, others_from_left(state, owner))  # SPEC §14.5: Acid Rain


RESUME["stage"] = _next_stage


def owner_of(state: GameState) -> int:
    """Whose the planet under discovery is: the discoverer's, or a U.F.O. player's (SPEC §14.6)."""
    return state.planets[state.discovery.planet].owner


BINARY = "Binary System"


def binary_targets(state: GameState) -> list:
    """SPEC §8.9: undiscovered planets at the other end of a complete path from the planet
    just discovered, not under a Web."""
    d = state.discovery
    sq, planet = d.planet
    out = set()
    for seg in state.board.planet_paths(sq, planet):
        if state.board.path_state(sq, seg) != "complete":
            continue
        for end in state.board.path_planets(sq, seg):
            if end != d.planet and end not in state.planets and end[0] not in state.webs:
                out.add(end)
    return sorted(out, key=lambda n: (n[0][1], n[0][0], n[1]))


def do_binary(state: GameState, seat: int, action: BinaryDiscover) -> None:
    d = state.discovery
    require(d is not None and d.stage == Stage.BINARY and seat == d.discoverer,
            "Binary System's second discovery is the discoverer's, right after scoring")
    target = (action.square, action.planet)
    require(target in binary_targets(state), "that planet is not joined to this one by a complete path")
    card = card_claim(state, seat, action.card, action.name, PLANET)
    play_from_hand(state, seat, action.card, action.name)
    role_bonus(state, seat, PLANET)
    shared = [d.environment] + list(d.life_forms)
    state.planets[target] = PlanetRecord(seat, card.home_planet, [action.name] + shared)
    total = card.value + sum(CARD_BY_NAME[n].value for n in shared)
    tile_value = state.board.tile_at(action.square).tile.planets[action.planet]
    state.players[seat].gain(tile_value * total, "planets")
    state.players[seat].pile.append(action.name)
    d.stage = Stage.EXPLORER


def _score_planet(state: GameState) -> None:
    """SPEC §8.1: tile value times the sum of the planet, environment and life form cards."""
    d = state.discovery
    total = CARD_BY_NAME[d.planet_card].value
    if d.environment:
        value = CARD_BY_NAME[d.environment].value
        total += abs(value) if state.terraformed else value   # SPEC §14.6 Terra-Form
    total += sum(CARD_BY_NAME[n].value for n in d.life_forms)
    d.scored = d.tile_value * total
    state.players[owner_of(state)].gain(d.scored, "planets")


def _keep_card(state: GameState, name: str) -> None:
    """SPEC §8.1: cards scored on a planet go to the discoverer's personal pile; a
    continuing-effect card stays face up in front of the discoverer instead."""
    d = state.discovery
    owner = state.players[owner_of(state)]
    (owner.continuing if CARD_BY_NAME[name].continuing else owner.pile).append(name)
    state.planets[d.planet].cards.append(name)


WEB = "Electromagnetic Web"


def do_environment(state: GameState, seat: int, action: PlayEnvironment) -> None:
    d = state.discovery
    require(d is not None and offer_open(state, Window.ENVIRONMENT), "no environment is being offered")
    card_claim(state, seat, action.card, action.name, ENVIRONMENT)
    require(action.name != WEB or seat != d.discoverer,
            "the Electromagnetic Web is played against the discoverer, not by it")
    play_from_hand(state, seat, action.card, action.name)
    role_bonus(state, seat, ENVIRONMENT)
    d.environment = action.name
    _keep_card(state, action.name)
    if action.name == WEB:
        state.webs.append(d.planet[0])
        if d.ship in state.ships:
            capture(state, d.ship)
    close_offer(state)
    if CARD_BY_NAME[action.name].value < 0:  # SPEC §14.5: the planet's owner may Terra-Form it
        owner = owner_of(state)
        open_moment(state, Window.ENV, owner, (owner,))
    settle(state)   # with no window open on top, the closed offer goes and the discovery goes on


def do_life_forms(state: GameState, seat: int, action: PlayLifeForms) -> None:
    d = state.discovery
    require(d is not None and offer_open(state, Window.LIFE_FORM), "no life form is being offered")
    require(len({h for h, _ in action.cards}) == len(action.cards), "a card is named twice")
    for handle, name in action.cards:
        card = card_claim(state, seat, handle, name, LIFE_FORM)
        require(len(action.cards) == 1 or card.many_per_planet,
                "only Plasma Spores may be played several at once")
    for handle, name in action.cards:
        play_from_hand(state, seat, handle, name)
        role_bonus(state, seat, LIFE_FORM)
        d.life_forms.append(name)
        _keep_card(state, name)
    close_offer(state)
    # SPEC §14.5: the other seats may answer with Space Virus before the planet scores
    open_moment(state, Window.LIFE, seat, others_from_left(state, seat), action=action, targets=(seat,))
    settle(state)


def explorer_points(name: str, discovery: Discovery) -> int:
    """SPEC §8.1: an explorer's value, or its bonus value on its base camp / with its followers."""
    card = CARD_BY_NAME[name]
    cond = card.bonus_condition
    if cond is not None:
        played = [discovery.planet_card] if cond.kind == "planet_card" else discovery.life_forms
        if any(n in cond.names for n in played):
            return card.bonus_value
    return card.value


def do_explorer(state: GameState, seat: int, action: PlayExplorer) -> None:
    card = CARD_BY_NAME.get(action.name)
    if card is not None and card.played_on == ON_OPPONENT_PLANET:
        return _do_kaygus(state, seat, action)
    d = state.discovery
    require(d is not None and d.stage == Stage.EXPLORER and seat == d.discoverer,
            "explorers are played by the discoverer right after scoring a planet")
    require(owner_of(state) == seat, "the planet was stolen by a U.F.O.: no explorers (SPEC §14.6)")
    card_claim(state, seat, action.card, action.name, EXPLORER)
    play_from_hand(state, seat, action.card, action.name)
    state.players[seat].gain(explorer_points(action.name, d), "explorers")
    _keep_card(state, action.name)


def kaygus_target(state: GameState, seat: int):
    """SPEC §8.4: the opponent planet under the ship that moved this turn, if any."""
    if state.phase != MOVE or not state.moved or state.discovery is not None:
        return None
    ship = state.ships.get(state.moved_ship)
    if ship is None or ship.owner != seat:
        return None
    placed = state.board.tile_at(ship.square)
    if placed is None:
        return None
    for i in range(len(placed.tile.planets)):
        record = state.planets.get((ship.square, i))
        if record is not None and record.owner != seat:
            return (ship.square, i)
    return None


def _do_kaygus(state: GameState, seat: int, action: PlayExplorer) -> None:
    target = kaygus_target(state, seat)
    require(target is not None, "The Kaygus land only where your ship just moved onto an opponent's planet")
    card_claim(state, seat, action.card, action.name, EXPLORER)
    play_from_hand(state, seat, action.card, action.name)
    record = state.planets[target]
    record.owner, record.home = seat, True
    record.cards.append(action.name)
    state.players[seat].gain(CARD_BY_NAME[action.name].value, "explorers")
    state.players[seat].pile.append(action.name)
    check_nine_planets(state, seat)


def may_decline_discovery(state: GameState) -> bool:
    """SPEC §7.1: a ship that could stop on the tile anyway (a discovered planet or its owner's
    station is there) may leave the undiscovered planet alone."""
    d = state.discovery
    return d.stage == Stage.PLANET and (d.planet[0] in state.players[d.discoverer].stations
                                    or _discovered_here(state, d.planet[0]))


def do_pass(state: GameState, seat: int, action: Pass) -> None:
    """The discoverer's own steps; a pass in an offer is a window's pass (specials.do_poll_pass)."""
    d = state.discovery
    require(d is not None and (d.stage in (Stage.BINARY, Stage.EXPLORER) or may_decline_discovery(state)),
            "there is nothing to pass on")
    require(seat == d.discoverer, "it is not your turn to answer")
    if d.stage == Stage.BINARY:
        d.stage = Stage.EXPLORER
        return
    if d.stage in (Stage.EXPLORER, Stage.PLANET):
        owner = state.planets[d.planet].owner if d.planet in state.planets else d.discoverer
        state.discovery = None
        check_nine_planets(state, d.discoverer)
        check_nine_planets(state, owner)


DISCOVERY_ACTIONS = {Move: do_move, Discover: do_discover, BinaryDiscover: do_binary,
                     PlayEnvironment: do_environment,
                     PlayLifeForms: do_life_forms, PlayExplorer: do_explorer, Pass: do_pass}
