"""Space Trading Race's help (SPEC §59.3): the commands, the notation and the rules in short,
in the project's own words (the numbers are SPEC Part IV's)."""
from __future__ import annotations

COMMANDS = {
    "help": "help                commands and notation; help rules: the rules; help missions, help deeds,\n"
            "                    help MISSION or help DEED: one card",
    "board": "board               draw the flight path, the owners and the ships\n"
             "board --svg FILE    save it as an SVG picture to share",
    "legal": "legal [PREFIX]      the actions you may take now, numbered; type a number to play one",
    "look": "look SPACE          what is on a space (0..84): its deed and owner, its ships",
    "quit": "quit                leave the game (also Ctrl-D)",
}

NOTATION = """\
Actions (Tab completes the legal ones; spaces are numbered 0..84 from Earth):
  roll | end                         roll the dice; end your turn
  land | bypass | drift              after doubles (land or wait beside), on Amalthea (drift on)
  buy | decline                      the deed you landed on
  exchange | keep                    your mission, when you land on Earth
  pick io                            the free deed of blue dot 64
  fire 31                            a laser at space 31 (yours or next to yours)
  offer 2 io+$50 for ganymede        a trade offer to seat 2; "nothing" for an empty side
  accept | reject                    an offer made to you
  cede io                            turn a deed over to pay a debt
  claim #4:red-planet                show your mission and win
  pass                               not the force field, when a double six hits you"""

RULES = """\
Space Trading Race: race round the solar system buying planets, moons and Fuel Docks.
- Everyone starts on Earth (space 0) with $1660, one laser token and a secret mission card.
- Your turn: roll two dice and move. Systems with moons are rings: a roll too short to clear
  the black dots after a ring sends you round the ring again. Moving onto Earth pays $500.
- Doubles pay $100 and give another roll; first choose to land on the space or bypass it.
- Land on an unowned deed: buy it or not. Someone else's: pay rent, which grows with how many
  of that group the owner holds (a Fuel Dock: roll again, pay the total x 10/25/50/100).
- Federation Stations pay money and laser tokens; blue dots give orders (pay, collect, fire,
  advance). Landing on Amalthea keeps you there until you roll 5 or more.
- Lasers: before or after your roll, spend a token to shoot your own space (2 shots) or a
  neighbouring one (1 shot). Doubles damage: the target pays you 100 x the total. A double
  six totally disables: the target is out and you take all it had.
- Trade in your turn: offer deeds and money to another player; it takes effect only when they
  accept. Owing more than you hold: hand over deeds; when even they fall short you are bankrupt.
- You win by claiming your mission (in your turn, when its condition holds), by being the last
  ship in the game, or by the most assets (money and deeds at face value) at the time limit."""
