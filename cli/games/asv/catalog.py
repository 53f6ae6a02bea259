"""Amazing Space Venture's catalogue as a readable table (`asv catalog`, SPEC §5.9)."""
from __future__ import annotations

from p2p_asv.cards import CATEGORIES

_TITLES = {"planet": "Planets", "environment": "Environments", "life_form": "Life forms",
           "special_action": "Special actions", "explorer": "Explorers",
           "space_ship": "Space ship cards"}


def _flags(c: dict) -> str:
    marks = []
    if c["home_planet"]:
        marks.append("home")
    if c["base_camp"]:
        marks.append(f"base camp of {c['base_camp']}")
    if c["response"]:
        marks.append("R")
    if c["only_action"]:
        marks.append("O")
    if c["continuing"]:
        marks.append("continuing")
    if c["bonus_value"] is not None:
        cond = c["bonus_condition"]
        marks.append(f"{c['bonus_value']} if {' or '.join(cond['names'])}")
    if c["movement"] is not None:
        marks.append(f"M+{c['movement']}")
    if c["ship_extra"]:
        marks.append("extra")
    if c["blocks_life_form"]:
        marks.append("no life form")
    if c["many_per_planet"]:
        marks.append("many per planet")
    return ", ".join(marks)


def table_lines(data: dict) -> list[str]:
    """The catalogue as aligned text lines, grouped by card category."""
    lines: list[str] = []
    cards = data["cards"]
    for cat in CATEGORIES:
        group = [c for c in cards if c["category"] == cat]
        lines.append(f"{_TITLES[cat]} ({sum(c['copies'] for c in group)} cards)")
        for c in group:
            value = "" if c["value"] is None else f"{c['value']:+d}" if c["value"] else "0"
            lines.append(f"  {c['name']:<26} {value:>3} x{c['copies']:<2} {_flags(c)}".rstrip())
        lines.append("")
    lines.append(f"Special Quests ({len(data['quests'])})")
    for q in data["quests"]:
        pts = f"{q['points']} per path tile" if q["per_path_tile"] else f"{q['points']} points"
        lines.append(f"  {q['name']:<26} {pts}")
    lines.append("")
    tiles = data["tiles"]
    lines.append(f"Tiles ({sum(t['copies'] for t in tiles)} tiles, {len(tiles)} types)")
    for t in tiles:
        extra = [f"planets {t['planets']}" if t["planets"] else "",
                 t["path_shape"] or "", "galaxy" if t["galaxy"] else "",
                 "wormhole" if t["wormhole"] else "", "black hole" if t["black_hole"] else ""]
        lines.append((f"  {t['id']:<22} {t['kind']:<10} x{t['copies']:<2} {t['sides']}  "
                     + ", ".join(e for e in extra if e)).rstrip())
    return lines
