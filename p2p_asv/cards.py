"""The 138 playing cards as data (SPEC §5).

Every card type appears once in CARDS with its number of copies; the two draw decks
(REFUEL_DECK, SPACE_PORT_DECK) list card names with copies expanded, in a fixed order,
so every peer builds identical decks before any shuffle. Names are spelled as printed,
with ASCII apostrophes (SPEC §5.1 Decision).
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, fields

PLANET, ENVIRONMENT, LIFE_FORM = "planet", "environment", "life_form"
SPECIAL_ACTION, EXPLORER, SPACE_SHIP = "special_action", "explorer", "space_ship"
CATEGORIES = (PLANET, ENVIRONMENT, LIFE_FORM, SPECIAL_ACTION, EXPLORER, SPACE_SHIP)
# Space Ship Extras whose cards say "at any time": attached in any phase after the tiles, like
# Captain Rookie (SPEC §5.7, §15.6); the other extras in phase 2 (SPEC §6.2).
ANY_TIME_EXTRAS = ("Flash-jets", "Fleet Admiral", "Nano-computer")

# Explorer bonus conditions (SPEC §5.6): what the bonus depends on.
BONUS_PLANET_CARD = "planet_card"   # the Planet card played for the discovery
BONUS_LIFE_FORM = "life_form"       # the Life Form card on the discovered Planet

# Where an explorer may be played (SPEC §5.6).
ON_OWN_DISCOVERY = "own_discovery"
ON_OPPONENT_PLANET = "opponent_planet"

MAX_MOVEMENT = 4  # no ship may ever move further than M+4 (SPEC §5.7)


class UnknownCard(KeyError):
    """A card name that is not one of the 138 cards."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else "unknown card"


@dataclass(frozen=True)
class BonusCondition:
    """When an explorer scores its bonus_value instead of its value (SPEC §5.6)."""
    kind: str                 # BONUS_PLANET_CARD or BONUS_LIFE_FORM
    names: tuple[str, ...]    # any one of these card names satisfies it

    def to_dict(self) -> dict:
        return {"kind": self.kind, "names": list(self.names)}


@dataclass(frozen=True)
class Card:
    """One card type. Fields that do not apply to a category keep their defaults (SPEC §5.1)."""
    name: str
    category: str
    value: int | None
    copies: int = 1
    effect: str = ""
    # planets
    home_planet: bool = False
    base_camp: str | None = None            # the explorer whose Base Camp this Planet is
    # environments and life forms
    blocks_life_form: bool = False          # no Life Form may be played on the Planet
    many_per_planet: bool = False           # several copies may go on one Planet
    # any category
    continuing: bool = False                # stays face up with its owner after use
    response: bool = False                  # "R": may be played out of turn in answer
    only_action: bool = False               # "O": the only action of the turn
    # explorers
    bonus_value: int | None = None
    bonus_condition: BonusCondition | None = None
    played_on: str | None = None            # ON_OWN_DISCOVERY or ON_OPPONENT_PLANET
    role_play: str = ""                     # Variant #3 attribute
    # space ship cards
    movement: int | None = None             # M-number of a ship; None for extras
    ship_extra: bool = False
    movement_delta: int = 0                 # change of M an extra makes to its ship
    fits: tuple[str, ...] = ()              # ships an extra may be attached to
    deep_space_stop: bool = False           # may begin and end a move in Deep Space
    path_only: bool = False                 # may move only along Space Paths

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise ValueError(f"bad card {self.name!r}: " + "; ".join(problems))

    @property
    def is_ship(self) -> bool:
        """A Space Ship card that is a ship (not a Space Ship Extra)."""
        return self.category == SPACE_SHIP and not self.ship_extra

    def to_dict(self) -> dict:
        """JSON-ready fields of this card, in a fixed key order."""
        out: dict = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, BonusCondition):
                v = v.to_dict()
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


def _problems(c: Card) -> list[str]:
    """Why a Card's fields do not fit its category (empty when they do)."""
    p = []
    if c.category not in CATEGORIES:
        p.append(f"category {c.category!r} not in {CATEGORIES}")
    if not c.name or c.copies < 1:
        p.append("needs a name and at least one copy")
    valued = c.category in (PLANET, ENVIRONMENT, LIFE_FORM, EXPLORER)
    if valued != isinstance(c.value, int):
        p.append("value must be an int exactly for planets, environments, life forms, explorers")
    if c.category != PLANET and (c.home_planet or c.base_camp):
        p.append("only planets are home planets or base camps")
    if c.category != EXPLORER and (c.bonus_value is not None or c.bonus_condition or c.played_on):
        p.append("only explorers have bonuses")
    if c.category == EXPLORER and c.played_on not in (ON_OWN_DISCOVERY, ON_OPPONENT_PLANET):
        p.append("an explorer needs played_on")
    if (c.bonus_value is None) != (c.bonus_condition is None):
        p.append("bonus_value and bonus_condition go together")
    if c.category != SPACE_SHIP and (c.movement is not None or c.ship_extra or c.fits):
        p.append("only space ship cards have movement or extras")
    if c.category == SPACE_SHIP and (c.movement is None) != c.ship_extra:
        p.append("a space ship card is either a ship with movement or an extra without")
    if c.ship_extra and not c.fits:
        p.append("an extra must list the ships it fits")
    if c.blocks_life_form and c.category != ENVIRONMENT:
        p.append("only environments block life forms")
    return p


def _sa(name: str, effect: str, copies: int = 1, **kw) -> Card:
    return Card(name, SPECIAL_ACTION, None, copies, effect, **kw)


# --- SPEC §5.2 Planets (30) -------------------------------------------------------------
_PLANETS = (
    Card("Alystron", PLANET, 2, home_planet=True),
    Card("Badzhanyan", PLANET, 1),
    Card("Cephei", PLANET, 2),
    Card("Danielle", PLANET, 2),
    Card("Eden One", PLANET, 3),
    Card("Eridani", PLANET, 2, home_planet=True),
    Card("Farqhani", PLANET, 1),
    Card("Galileo", PLANET, 3),
    Card("Geo-Gaia", PLANET, 4),
    Card("Hypnosium", PLANET, 2),
    Card("Ibn Sinae", PLANET, 2),
    Card("Janus", PLANET, 2),
    Card("KC's Star", PLANET, 2, home_planet=True),
    Card("Klystron", PLANET, 2),
    Card("Llemmer", PLANET, 1),
    Card("Magellan", PLANET, 3),
    Card("Mattaimee", PLANET, 2, home_planet=True),
    Card("Noraster", PLANET, 2, home_planet=True),
    Card("Otto", PLANET, 2, home_planet=True),
    Card("Pyrrhis", PLANET, 3),
    Card("Qian", PLANET, 2),
    Card("Rho", PLANET, 2),
    Card("Sherco", PLANET, 2, home_planet=True, base_camp="Dr. Nevets Yahsel"),
    Card("Triconion", PLANET, 2),
    Card("Ulurulu", PLANET, 2, home_planet=True),
    Card("Valkriegon", PLANET, 2, home_planet=True, base_camp="Lord DeWar"),
    Card("Woden", PLANET, 2, home_planet=True),
    Card("X'am", PLANET, 2, home_planet=True, base_camp="Madam Maxine"),
    Card("Yasonuri", PLANET, 2),
    Card("Zyam", PLANET, 2),
)

# --- SPEC §5.3 Environments (16) --------------------------------------------------------
_ENVIRONMENTS = (
    Card("Abundant Land and Water", ENVIRONMENT, 2),
    Card("Binary System", ENVIRONMENT, 0, effect=(
        "Also discovers one undiscovered Planet joined to this one by the same Space Path; "
        "the second Planet is scored with the same Environment and Life Form.")),
    Card("Bio-etheric Bubbles", ENVIRONMENT, 0),
    Card("Electromagnetic Web", ENVIRONMENT, 0, effect=(
        "Played by an opponent when the discoverer plays no Environment. The discoverer's "
        "ship (with its extras) is caught for good: it never moves or teleports again and its "
        "cards leave play. Any ship that later lands on the tile is caught too. The "
        "discoverer still plays a Life Form and scores.")),
    Card("Gamma Rays", ENVIRONMENT, -2, blocks_life_form=True,
         effect="No Life Form may be played on this Planet."),
    Card("High Gravity", ENVIRONMENT, -1),
    Card("Ice Age", ENVIRONMENT, -1),
    Card("Methane Mix", ENVIRONMENT, -1),
    Card("99% Pure Atmosphere", ENVIRONMENT, 2),
    Card("Poisonous Atmosphere", ENVIRONMENT, -2, blocks_life_form=True,
         effect="No Life Form may be played on this Planet."),
    Card("Vast Land", ENVIRONMENT, 1),
    Card("Very Cold!", ENVIRONMENT, 0),
    Card("Very Hot!", ENVIRONMENT, 0),
    Card("Volcanic Ash", ENVIRONMENT, -1),
    Card("Water", ENVIRONMENT, 1),
    Card("Zero Gravity", ENVIRONMENT, -1),
)

# --- SPEC §5.4 Life forms (30) ----------------------------------------------------------
_LIFE_FORMS = (
    Card("Alien Artifact", LIFE_FORM, 0, continuing=True, effect=(
        "For the rest of the game its owner may discard any number of cards (at least one) "
        "in the Discard phase.")),
    Card("Alien Ruins", LIFE_FORM, 0, continuing=True, effect=(
        "For the rest of the game its owner refills the hand to 12 cards instead of 10.")),
    Card("Automata", LIFE_FORM, 0, continuing=True, effect=(
        "When drawing, its owner may look at the top four Space Port cards, keep one or two, "
        "and put the rest under the Space Port deck without shuffling.")),
    Card("Bureaucracy", LIFE_FORM, -1),
    Card("City of Banks", LIFE_FORM, 0, continuing=True, effect=(
        "Each Draw phase its owner takes one unseen card from any player's hand and gives "
        "that player a card of the owner's choice back.")),
    Card("Domed Cities", LIFE_FORM, 1),
    Card("Embassy", LIFE_FORM, 0),
    Card("Evil Dictatorship", LIFE_FORM, -1),
    Card("Geo Traders", LIFE_FORM, 1),
    Card("Giant Sand Worms", LIFE_FORM, -1),
    Card("Hypersonic Parasites", LIFE_FORM, -1),
    Card("Monarchy", LIFE_FORM, 1),
    Card("Mutant Insects", LIFE_FORM, -1),
    Card("Öorts", LIFE_FORM, -1),
    Card("Penal-Pest Colony", LIFE_FORM, -1),
    Card("Plasma Spores", LIFE_FORM, 0, copies=8, many_per_planet=True, effect=(
        "Any number of Plasma Spores may be played together on one Planet.")),
    Card("Prehistoric World", LIFE_FORM, -1),
    Card("Republic", LIFE_FORM, 1),
    Card("Society of Robots", LIFE_FORM, 0),
    Card("Space Monster", LIFE_FORM, -2),
    Card("Space Capital", LIFE_FORM, 2),
    Card("Super Big Metropolis", LIFE_FORM, 1),
    Card("Yottas", LIFE_FORM, -1),
)

# --- SPEC §5.5 Special actions (26) -----------------------------------------------------
_SPECIAL_ACTIONS = (
    _sa("Acid Rain", "Right after an opponent scores a discovery, halve that Planet's score "
        "(rounding up); explorers are added afterwards."),
    _sa("Black Hole", "After placing tiles, destroy any Planet. Ships on its tile may flee to a "
        "discovered Planet within their M-number or teleport. A player's only Home Planet "
        "cannot be destroyed."),
    _sa("Conspiracy", "Response: cancel a Special Action played on you, or send it on to a "
        "third player, who may answer it in turn.", response=True),
    _sa("Cyber Jump", "On your turn, repeat one phase: one more tile, one more placement, one "
        "more move, or discard two cards."),
    _sa("Espionage", "After placing tiles, a player of your choice discards half the hand "
        "(rounding up), choosing which."),
    _sa("Kamikaze Attack", "After placing tiles, destroy one of your ships together with every "
        "other ship on its tile."),
    _sa("Lost Colony", "Played after your Planet card: the Planet you discovered becomes a "
        "Home Planet."),
    _sa("Meteor Shower", "After placing tiles, freeze one Planet and every ship on its tile for "
        "one turn."),
    _sa("Negotiations", "No effect: useful only to trade or discard."),
    _sa("Peace Talks", "Response: cancel any Special Action an opponent plays. Does not use up "
        "your own Special Action for your turn.", response=True),
    _sa("Sabotage", "When another player moves a ship onto a Planet, before the Planet card, or "
        "at the start of your own Movement phase: destroy that ship unless it teleports. The "
        "Planet stays undiscovered; the ship's cards leave the game."),
    _sa("Science Outpost", "After placing tiles, look at another player's whole hand."),
    _sa("Shift of Funds", "Right after placing tiles, place one extra tile, and name a player "
        "who misses the next turn.", only_action=True),
    _sa("Sneak Attack", "Play another Special Action this turn as well; nobody may respond to "
        "any of your actions this turn."),
    _sa("Space Virus", "Response: remove a Life Form another player has just played.",
        response=True),
    _sa("Supernova", "Right after placing tiles, destroy a Planet and every ship on its tile; "
        "nothing may land there again. A player's only Home Planet cannot be destroyed.",
        only_action=True),
    _sa("Teleport", "Response: when a card would destroy one of your ships, move it to one of "
        "your Home Planets instead.", copies=2, response=True),
    _sa("Terra-Form", "When a negative Environment is played on a Planet you discovered, make "
        "it positive (minus becomes plus) before scoring."),
    _sa("The Scavenger", "After placing tiles, swap this card for any card in Space Junk, "
        "unseen by others."),
    _sa("Time Warp", "Response: cancel any Special Action an opponent plays (same as Peace "
        "Talks).", copies=2, response=True),
    _sa("Trading Post", "After your other phases, give any number of cards to one player and "
        "draw as many unseen from that player's hand."),
    _sa("Troika Summit", "Any time: you and up to two chosen players each move one ship to a "
        "discovered Planet you choose (not one under the Web or behind a Space Pirate)."),
    _sa("U.F.O.", "During another player's discovery, after the Planet card and before the "
        "Environment: the Planet and all its points become yours; the discoverer still plays "
        "Environment and Life Form."),
    _sa("Worm Hole", "Before you move, or when an opponent moves a ship: send that ship to a "
        "discovered Planet of your choice; it discovers nothing."),
)

# --- SPEC §5.6 Explorers (6) ------------------------------------------------------------
_EXPLORERS = (
    Card("Dr. Nevets Yahsel", EXPLORER, 3, bonus_value=6, played_on=ON_OWN_DISCOVERY,
         bonus_condition=BonusCondition(BONUS_PLANET_CARD, ("Sherco",)),
         effect="Adds 3 after scoring a discovery; 6 when the Planet card is Sherco.",
         role_play="Free Planet cards (advanced); +1 per Planet card played (basic)."),
    Card("Gavin's Raiders", EXPLORER, 5, played_on=ON_OWN_DISCOVERY,
         effect="Adds 5 after scoring any discovery; no Base Camp.",
         role_play="May move a ship twice, and do nothing else that turn (advanced)."),
    Card("Giant Meema", EXPLORER, 3, bonus_value=9, played_on=ON_OWN_DISCOVERY,
         bonus_condition=BonusCondition(BONUS_LIFE_FORM, ("Automata", "Society of Robots")),
         effect="Adds 3 after scoring a discovery; 9 when its Life Form is Automata or "
                "Society of Robots.",
         role_play="Free Life Form cards (advanced); +1 per Life Form card played (basic)."),
    Card("Lord DeWar", EXPLORER, 4, bonus_value=8, played_on=ON_OWN_DISCOVERY,
         bonus_condition=BonusCondition(BONUS_PLANET_CARD, ("Valkriegon",)),
         effect="Adds 4 after scoring a discovery; 8 when the Planet card is Valkriegon.",
         role_play="Free Special Action cards (advanced); +1 per Special Action, Only Action "
                   "or Response card played (basic)."),
    Card("Madam Maxine", EXPLORER, 5, bonus_value=10, played_on=ON_OWN_DISCOVERY,
         bonus_condition=BonusCondition(BONUS_PLANET_CARD, ("X'am",)),
         effect="Adds 5 after scoring a discovery; 10 when the Planet card is X'am.",
         role_play="Once per turn, see the top two cards of both draw decks and take any one."),
    Card("The Kaygus", EXPLORER, 6, played_on=ON_OPPONENT_PLANET,
         effect="Landing on an opponent's Planet: take it as your Home Planet Cambanes and "
                "score 6. No Environment or Life Form is played and no card can stop the score.",
         role_play="Free Environment cards (advanced); +1 per Environment card played (basic)."),
)

# --- SPEC §5.7 Space ship cards (30) ----------------------------------------------------
SHIP_NAMES = ("Colony Ship", "Fighter Ship", "Flying Saucer", "Scout Ship", "Space Shuttle",
              "Star Cruiser", "Star-T Ship")
_ARMED = ("Fighter Ship", "Star Cruiser")  # ships that carry Laser Beam / Photon Torpedo

_SHIPS = (
    Card("Captain Rookie", SPACE_SHIP, None, ship_extra=True, continuing=True, movement_delta=-1,
         fits=tuple(n for n in SHIP_NAMES if n != "Space Shuttle"), effect=(
             "Played at any time on another player's ship (not a Shuttle): that ship moves one "
             "less. Can later be moved to any player's ship as its owner's only action of the "
             "turn. Lost with the ship if it is destroyed or caught in the Web.")),
    Card("Colony Ship", SPACE_SHIP, None, movement=4),
    Card("Fighter Ship", SPACE_SHIP, None, copies=8, movement=2),
    Card("Flash-jets", SPACE_SHIP, None, ship_extra=True, continuing=True, movement_delta=1,
         fits=tuple(n for n in SHIP_NAMES if n != "Colony Ship"), effect=(
             "Played at any time on one of your ships (not a Colony Ship), wherever it is: it "
             "moves one more.")),
    Card("Fleet Admiral", SPACE_SHIP, None, ship_extra=True, continuing=True, fits=SHIP_NAMES,
         effect="Played at any time on one of your ships: Captain Rookie cannot be put on it. "
                "Evicts a Captain Rookie already there, who is reassigned to another player's "
                "ship or shuffled into the Space Port deck."),
    Card("Flying Saucer", SPACE_SHIP, None, copies=2, movement=2, deep_space_stop=True),
    Card("Laser Beam", SPACE_SHIP, None, ship_extra=True, continuing=True, only_action=True,
         fits=_ARMED, effect=(
             "Played right after placing tiles on a Star Cruiser or Fighter. On a later turn the "
             "ship may, instead of moving, destroy an opponent's Probe, Pirate, Station or ship "
             "within its M-number; firing is the only action of that turn.")),
    Card("Nano-computer", SPACE_SHIP, None, ship_extra=True, continuing=True, fits=SHIP_NAMES,
         effect="Played at any time on one of your ships: Captain Rookie cannot be put on it; "
                "one already there goes back into the Space Port deck, which is reshuffled."),
    Card("Photon Torpedo", SPACE_SHIP, None, ship_extra=True, continuing=True, fits=_ARMED,
         effect="On a Star Cruiser or Fighter standing on a Planet at one end of a Space Path: "
                "remove an opponent's Pirate on that path; the ship then stays or moves along "
                "that path to the next Planet, and makes no other move that turn."),
    Card("Pirate Crew", SPACE_SHIP, None, ship_extra=True, continuing=True, fits=SHIP_NAMES,
         effect="When this ship ends its move on a tile with an opponent's ship, take one "
                "unseen card from that player's hand."),
    Card("Scout Ship", SPACE_SHIP, None, copies=4, movement=1, deep_space_stop=True),
    Card("Space Shuttle", SPACE_SHIP, None, copies=2, movement=0, path_only=True),
    Card("Star Cruiser", SPACE_SHIP, None, copies=2, movement=3),
    Card("Star-T Ship", SPACE_SHIP, None, copies=4, movement=1,
         effect="Every player starts with one (SPEC §5.7)."),
)

CARDS: tuple[Card, ...] = (_PLANETS + _ENVIRONMENTS + _LIFE_FORMS + _SPECIAL_ACTIONS
                           + _EXPLORERS + _SHIPS)
CARD_BY_NAME: dict[str, Card] = {c.name: c for c in CARDS}
if len(CARD_BY_NAME) != len(CARDS):  # a duplicated name would silently shadow a card
    raise ValueError("duplicate card name in CARDS")

STARTING_SHIP = "Star-T Ship"


def _expand(cards) -> tuple[str, ...]:
    return tuple(c.name for c in cards for _ in range(c.copies))


# SPEC §5.1: the Refuel deck holds every non-ship card (108); the Space Port the 30 ship cards.
REFUEL_DECK: tuple[str, ...] = _expand(c for c in CARDS if c.category != SPACE_SHIP)
SPACE_PORT_DECK: tuple[str, ...] = _expand(c for c in CARDS if c.category == SPACE_SHIP)


def card(name: str) -> Card:
    """The card with this exact name; UnknownCard (a KeyError) says which names come close."""
    try:
        return CARD_BY_NAME[name]
    except KeyError:
        pass
    hint = _folded_matches(name)
    extra = f"; did you mean {', '.join(repr(n) for n in hint)}?" if hint else ""
    raise UnknownCard(f"no card named {name!r}{extra}")


def _fold(text: str) -> str:
    """Case, accents, curly quotes and spacing ignored: 'oorts' folds like 'Öorts'."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.casefold().split())


_BY_FOLDED: dict[str, str] = {_fold(c.name): c.name for c in CARDS}


def _folded_matches(text: str) -> list[str]:
    key = _fold(text)
    if key in _BY_FOLDED:
        return [_BY_FOLDED[key]]
    return [c.name for c in CARDS if key and key in _fold(c.name)]


def lookup(text: str) -> Card:
    """Forgiving lookup for typed input: exact name, else folded name, else a unique prefix
    or substring. Raises UnknownCard when nothing or more than one card fits."""
    if text in CARD_BY_NAME:
        return CARD_BY_NAME[text]
    matches = _folded_matches(text)
    if len(matches) == 1:
        return CARD_BY_NAME[matches[0]]
    if not matches:
        raise UnknownCard(f"no card named {text!r}")
    raise UnknownCard(f"{text!r} is ambiguous: {', '.join(matches)}")


def cards_of(category: str) -> tuple[Card, ...]:
    """The card types of one category, in CARDS order."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; expected one of {CATEGORIES}")
    return tuple(c for c in CARDS if c.category == category)


def effective_movement(ship: str, extras: tuple[str, ...] = ()) -> int:
    """M-number of a ship card with the given extras attached, kept in 0..MAX_MOVEMENT."""
    base = card(ship)
    if not base.is_ship:
        raise ValueError(f"{ship!r} is not a ship card")
    for e in extras:
        extra = card(e)
        if not extra.ship_extra or ship not in extra.fits:
            raise ValueError(f"{e!r} cannot be attached to a {ship}")
    m = base.movement + sum(card(e).movement_delta for e in extras)
    return max(0, min(MAX_MOVEMENT, m))
