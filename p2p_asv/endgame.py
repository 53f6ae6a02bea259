"""End of game (SPEC §9): probes, stations, pirates, planet bonuses, the winner and the title."""
from __future__ import annotations

from .geometry import sector_of
from .state import OVER, GameState
from .variants import TEAMS

TITLES = ((20, "Space Hero"), (40, "Space Warrior"), (60, "Space Emperor or Space Empress"))
TOP_TITLE = "Lord of the Universe"


def pirate_points(middle_tiles: int) -> int:
    """SPEC §9.1: 1 + 2 + ... for each path-only tile between the two planets."""
    return middle_tiles * (middle_tiles + 1) // 2


def score_probes(state: GameState) -> None:
    """SPEC §9.1: each seat with a probe in a galaxy still unfinished scores 1 a tile of it,
    once per galaxy however many probes it has there."""
    for p in state.players:
        seen = []
        for sq, part in p.probes:
            key = state.board.galaxy_key(sq, part)
            if key not in seen:
                seen.append(key)
                p.gain(len(state.board.galaxy_squares(sq, part)), "probes at end")
    for p in state.players:
        p.probes = []


def score_stations(state: GameState) -> None:
    for p in state.players:
        for sq in p.stations:
            p.gain(state.board.station_value(sq), "stations")
        p.stations = []


def score_pirates(state: GameState) -> None:
    for p in state.players:
        for sq, seg in p.pirates:
            if state.board.path_state(sq, seg) == "complete":
                p.gain(pirate_points(len(state.board.path_middle_squares(sq, seg))), "pirates")
        p.pirates = []


def score_planet_bonuses(state: GameState) -> None:
    """SPEC §9.2: 1 (regular) or 2 (home) per planet inside your own sector, 2 or 4 elsewhere."""
    for (sq, _), record in sorted(state.planets.items()):
        player = state.players[record.owner]
        inside = sector_of(sq) == player.colour
        player.gain((2 if record.home else 1) * (1 if inside else 2), "planet bonus")


def title_for(margin: int) -> str | None:
    if margin <= 0:
        return None
    for limit, title in TITLES:
        if margin <= limit:
            return title
    return TOP_TITLE


def scoring_cards(score: int) -> list[int]:
    """SPEC §9.3: the Special Scoring cards a score earns (50, then 100, both from 150)."""
    if score >= 150:
        return [50, 100]
    if score >= 100:
        return [100]
    if score >= 50:
        return [50]
    return []


def finish_game(state: GameState) -> None:
    score_probes(state)
    score_stations(state)
    score_pirates(state)
    score_planet_bonuses(state)
    best = max(p.score for p in state.players)
    state.winners = [p.seat for p in state.players if p.score == best]
    if state.variants.partnership:
        state.winners = team_result(state)["winners"]
    state.phase = OVER
    state.discovery = None


NINE_PLANETS = 9


def check_nine_planets(state: GameState, seat: int) -> None:
    """SPEC §13.2: with the variant on, owning nine planets wins at once, whatever the scores."""
    if not state.variants.nine_planets or state.phase == OVER:
        return
    owned = sum(1 for r in state.planets.values() if r.owner == seat)
    if owned >= NINE_PLANETS:
        state.winners = [seat]
        state.victory = "nine planets"
        state.phase = OVER
        state.discovery = None


def team_result(state: GameState) -> dict:
    """SPEC §13.4: partners' scores are added; the higher team wins, both partners."""
    totals = [sum(state.players[s].score for s in team) for team in TEAMS]
    best = max(totals)
    winners = sorted(s for team, t in zip(TEAMS, totals) if t == best for s in team)
    margin = abs(totals[0] - totals[1])
    return {"teams": [list(t) for t in TEAMS], "team_scores": totals, "winners": winners,
            "title": title_for(margin) if margin else None, "margin": margin}


def result(state: GameState) -> dict:
    scores = [p.score for p in state.players]
    ordered = sorted(scores, reverse=True)
    margin = ordered[0] - ordered[1] if len(ordered) > 1 else 0
    out = {"scores": scores, "winners": list(state.winners),
           "title": title_for(margin) if len(state.winners) == 1 and len(scores) > 1 else None,
           "margin": margin, "scoring_cards": [scoring_cards(s) for s in scores],
           "breakdown": [dict(sorted(p.breakdown.items())) for p in state.players],
           "victory": state.victory or "points"}
    if state.variants.partnership:
        out.update(team_result(state))
        if state.victory:  # the whole team of the seat that won outright
            out["winners"] = sorted(next(t for t in TEAMS if state.winners[0] in t))
    if state.victory:
        out["title"] = None
    return out
