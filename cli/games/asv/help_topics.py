"""Help topics of the REPL (SPEC §31.4): the rules in short, every action, every piece and
ship type. Written for a player at the prompt; the numbered rules are in SPEC §6-§9."""
from __future__ import annotations

from p2p_asv.cards import CARDS

RULES = """\
Goal: have the most points when the tile piles run out.
A turn has five phases, in order:
  1 tiles    draw your tiles (3 a turn with 1-2 players, 2 with 3-4), then place each so
             its sides match its neighbours'. A sun or a quest tile earns one more draw.
  2 pieces   at most one: a new ship, an upgrade, a probe, a station or a pirate
             (probes, stations and pirates go on a tile you placed this turn).
  3 move     move one ship. Landing on an undiscovered planet starts a discovery.
  4 discard  discard one card (optional).
  5 refill   draw cards up to 10 in hand from Refuel or the Space Port; next ends the turn.
Scoring during play: discoveries (tile value x card values), suns (1, 2, 3, 4 in the order
placed), completed galaxies (most probes), surrounded stations, special quests, explorers.
The end: when a turn ends with the piles empty. Then probes, stations and pirates score,
each planet scores a bonus (1-4 by disk size and sector), and the highest total wins.
More: help turn, help scoring, help move, help discovery, help ships, help PIECE."""

_WRITTEN: dict[str, str] = {
    "rules": RULES,
    "turn": "The five phases of a turn: tiles, pieces, move, discard, refill (help rules).\n"
            "Phases 2-5 are optional: next ends the phase you are in; in phase 5 it ends your turn.\n"
            "score-station and quest may be played in any of phases 2-5.",
    "scoring": "Points during play: a discovery scores the tile's planet value times the sum of the\n"
               "planet card, the environment and the life forms; explorers add their value. A sun\n"
               "scores 1, 2, 3 or 4 (the order suns are placed). A completed galaxy scores 2 a tile\n"
               "to whoever has most probes in it. A surrounded station scores 1 + its 8 neighbours.\n"
               "At the end: probes 1 a galaxy tile, stations their value, pirates 1+2+...+n for a\n"
               "complete path of n middle tiles, planets 1/2 in your sector (small/large disk),\n"
               "2/4 elsewhere. Every score change is printed as it happens.",
    "end": "The game ends when a turn ends and all four tile piles are empty; then pieces and\n"
           "planets score their bonuses (help scoring) and the highest score wins.",
    "draw-tile": "draw-tile N        phase 1: draw the top tile of pile N (1-4). Draw every tile you\n"
                 "                   owe before placing any.",
    "place": "place #T SQ rR     phase 1: put drawn tile #T on empty square SQ, turned R quarter\n"
             "                   turns clockwise. Every side touching a tile must match it: paths to\n"
             "                   paths, galaxies to galaxies, deep space to deep space.\n"
             "                   look #T shows its sides in each rotation; legal place #T lists spots.",
    "scrap": "scrap #T           phase 1: a drawn tile that fits nowhere leaves the game; you draw\n"
             "                   another.",
    "ship": "ship #C:name SQ    phase 2: a ship card from your hand becomes a new ship on one of\n"
            "                   your home planets. At most two ships, one of them bigger than M2.",
    "upgrade": "upgrade sN #C:name phase 2: replace ship sN's card by a ship card with a higher M.",
    "extra": "extra sN #C:name   phase 2, free: attach a ship extra (Flash-jets: +1 M) to ship sN.",
    "probe": "probe SQ/P         phase 2: a probe on galaxy part P of a tile you placed this turn.\n"
             "                   When the galaxy is completed, the most probes in it score 2 a tile;\n"
             "                   at the end, 1 a tile. Two probes at most in play.",
    "station": "station SQ         phase 2: a station on a tile you placed this turn (not a sun).\n"
               "                   Worth 1 for its tile + 1 for each of the 8 tiles around it (suns\n"
               "                   not counted); score-station SQ scores it once it is surrounded,\n"
               "                   else it scores at the end. Two stations at most.",
    "pirate": "pirate SQ/S        phase 2: a pirate on path S of a tile you placed this turn that\n"
              "                   holds no planet. Other seats' ships cannot travel its path. At\n"
              "                   the end, a complete path scores 1+2+...+n (n tiles without a\n"
              "                   planet); a ruined path sends the pirate home unscored.",
    "score-station": "score-station SQ   phases 2-5: score your surrounded station on SQ now and take it back.",
    "quest": "quest #Q:name      phases 2-5 of your turn: score a special quest you hold once it is\n"
             "                   complete (hand shows your quests).",
    "move": "move sN SQ         phase 3: move one ship. It takes up to M king steps (any of the 8\n"
            "                   neighbours, through tiles or empty space, never onto a sun); worm\n"
            "                   holes connect at no cost; or it travels a complete path from a\n"
            "                   discovered planet to the planet at the other end. It must stop on a\n"
            "                   discovered planet, your own station, an undiscovered planet you\n"
            "                   hold a planet card for, or (scouts and saucers) empty space.",
    "discovery": "A ship that lands on an undiscovered planet discovers it:\n"
                 "  discover #C:name P   play a planet card on planet P of the tile (P is 0 mostly)\n"
                 "  then each seat from you round the table may play an environment (env) or pass,\n"
                 "  then a life form (life) or pass; the planet scores for the discoverer;\n"
                 "  then the discoverer may add explorers (explorer) and pass to finish.\n"
                 "Cards other seats play count too: a negative environment lowers your score.",
    "env": "env #C:name        during a discovery: play an environment card on the planet.",
    "life": "life #C:name       during a discovery: play a life form (several Plasma Spores at once).",
    "explorer": "explorer #C:name   after a discovery is scored: the discoverer adds an explorer's value.",
    "binary": "binary #C:name SQ/P after a Binary System discovery: discover the planet at the other\n"
              "                   end of a complete path too.",
    "pass": "pass               decline what you are asked during a discovery (or leave a planet\n"
            "                   undiscovered where you could stop anyway).",
    "discard": "discard #C         phase 4: discard one card to Space Junk; this ends the phase.",
    # one command a line, its words beside it (issue 22: two commands shared one sentence)
    "draw": "draw refuel        phase 5: a card from Refuel, while your hand holds under 10.\n"
            "draw port          phase 5: a ship card from the Space Port instead.\n"
            "draw refuel 4      four draws on one line (up to 10); draw port 2 likewise.\n"
            "draw port refuel 3 one from the Space Port, then three from Refuel.",
    "next": "next               end the phase you are in (phases 2-5); in phase 5 it ends your turn.\n"
            "                   When you could still move or draw, next asks first: type next again.",
    "special": "special #C:name ARGS  a Special Action card (help #C says when it may be played):\n"
               "                   on your turn, or when a prompt asks `play a card? special / pass`.\n"
               "                   legal special lists the ways it fits now with their arguments\n"
               "                   (a seat @2, a ship s3, a square D-4, a planet D-4/0). The others may\n"
               "                   answer it (Peace Talks or Time Warp cancel it) before it takes effect.",
    "pick": "pick #C [#C ...]   after The Scavenger or a Trading Post: the cards you take (from\n"
            "                   Space Junk, or unseen from the other hand); legal pick lists them.",
    "peek": "peek               role play, Madam Maxine, phase 5: look at the top two cards of\n"
            "                   Refuel and of the Space Port; then take #H puts one in your hand.",
    "take": "take #H            after peek: the card you keep (help peek).",
    "automata": "automata           with Automata in play, when drawing: look at the top four Space\n"
                "                   Port cards; then keep #H [#H] takes one or two of them.",
    "keep": "keep #H [#H]       after automata: the one or two Space Port cards you keep.",
    "bank": "bank SEAT POS      with City of Banks in play, in your draw phase: take the unseen card\n"
            "                   at position POS (from 1) of seat SEAT's reshuffled hand; then give.",
    "give": "give #G            after bank: the card of your hand you give back for the one taken.",
    "escape": "escape sN SQ       a ship on a tile a Black Hole destroys flees to a discovered planet\n"
              "                   within its M-number (or teleport saves it).",
    "teleport": "teleport sN #C:teleport SQ  a Teleport card saves your doomed ship sN: it jumps to\n"
                "                   your home planet SQ.",
    "fire": "fire sN TARGET     a ship with a Laser Beam, instead of moving: destroy a ship (fire s1\n"
            "                   s4), a probe or pirate (fire s1 probe D-5/0) or a station (fire s1\n"
            "                   station D-5) within its M-number; nothing else that turn.",
    "torpedo": "torpedo sN SQ/S    a ship with a Photon Torpedo on a planet at the end of a space\n"
               "                   path blasts an opponent's pirate off path S of tile SQ.",
    "plunder": "plunder SEAT POS   a Pirate Crew ship that ends its move beside another seat's ship:\n"
               "                   take the unseen card at position POS (from 1) of that seat's hand.",
    "rookie": "rookie #C:captain-rookie sN  put Captain Rookie on another seat's ship sN: it moves one\n"
              "                   less. reassign sN sM moves him on later, as your only action.",
    "reassign": "reassign sN sM     move Captain Rookie from ship sN to ship sM (help rookie).",
    "ships": "Ship types (M = king steps a move):\n" + "\n".join(
        f"  {c.name:<16} M{c.movement}"
        + (", may stop in empty space" if c.deep_space_stop else "")
        + (", moves only along space paths" if c.path_only else "")
        for c in CARDS if c.is_ship),
    "sun": "A sun tile: drawing one earns another draw; placing it scores 1, 2, 3 or 4 (the\n"
           "order suns are placed in the game). Ships cannot move onto a sun; no station on it.",
    "galaxy": "Galaxy parts on tiles join across sides into galaxies. A completed galaxy scores\n"
              "2 a tile for the seat(s) with most probes in it (help probe).",
    "wormhole": "Worm holes (@ on the board): a ship on one continues from any other at no cost.",
    "squares": "Squares are a column A-M and a row 1-13: D-4, d4 and D4 all name the same square.",
    "picture": "board --svg FILE   save the position as an SVG picture to share or open in a browser:\n"
             "                   tiles, planets with their values, pieces in seat colours with the\n"
             "                   seat's letter, scores and whose turn. It shows only what the whole\n"
             "                   table sees, never your hand. asv replay LOG --to SEQ --svg FILE\n"
             "                   draws any moment of a saved game.",
}

def _logical(text: str) -> str:
    """Undo the source's line breaks: a line indented 4+ spaces continues the one before, and
    so does a line after one that stops mid-sentence. The REPL wraps to the terminal."""
    out: list[str] = []
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip())
        continues = out and line.strip() and (
            indent >= 4 or (indent == 0 and not out[-1].startswith(" ")
                            and not out[-1].rstrip().endswith((".", ":"))))
        if continues:
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


TOPICS = {name: _logical(text) for name, text in _WRITTEN.items()}

ALIASES = {
    "rule": "rules", "goal": "rules", "game": "rules", "phases": "turn", "phase": "turn",
    "score": "scoring", "points": "scoring", "draw-card": "draw", "refill": "draw", "refuel": "draw",
    "port": "draw", "discover": "discovery", "environment": "env", "life-form": "life",
    "lifeform": "life", "explorers": "explorer", "probes": "probe", "stations": "station",
    "pirates": "pirate", "suns": "sun", "galaxies": "galaxy", "worm-hole": "wormhole",
    "ship-types": "ships", "spaceship": "ships", "tiles": "draw-tile", "tile": "draw-tile",
    "moving": "move", "square": "squares", "svg": "picture", "end-game": "end", "quests": "quest",
}


def topic(word: str) -> str | None:
    key = word.strip().lower().replace(" ", "-")
    key = ALIASES.get(key, key)
    return TOPICS.get(key)


def topic_names() -> list[str]:
    return sorted(TOPICS)
