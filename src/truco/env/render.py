"""The table as text, laid out as the terminal game's table (``render_mode="ansi"``).

The terminal game draws its table with Textual widgets; this is the same layout in plain
text, for environments: one row per seat with its cards (the viewer's face up, the others'
as ``#`` per card still held) and the card it played in each baza, the winner of each baza,
then the bets, the statements, the score and, for the seat to act, its legal actions.

It reads one seat's :class:`~truco.observation.Observation` and nothing else (docs/rules.md §10),
so it shows exactly what that seat may know.

>>> from truco import Match
>>> print(table_text(Match("argentino", seed=1).observation(0)))  # doctest: +ELLIPSIS
argentino, 2 players, to 30 | score: us 0, them 0 | redondo, mano p0
seat          held         1st    2nd    3rd
> p0 (you)    ...
  p1          # # #
won by
bets: no truco, no envido
p0 to act: ...
"""

from __future__ import annotations

from truco.actions import ENVIDO_BY_NAME, token
from truco.cards import NAMES, STRENGTH
from truco.observation import Observation

_TRUCO_LEVELS = ("no truco", "truco", "retruco", "vale-cuatro", "joc-fora")
_ENVIDO_WORDS = {v: k for k, v in ENVIDO_BY_NAME.items()}
_SEAT_W = 14  # "> (p1 (you)) ": the marker, the longest name and a space
_HELD_W = 13  # three cards and a space
_BAZA_W = 7


def table_text(obs: Observation) -> str:
    """The table as ``obs.seat`` sees it, several lines (see the module docstring)."""
    rules = obs.rules
    me = obs.seat
    team = me & 1
    title = f"{rules.name}, {rules.players} players, to {rules.target}"
    score = f"score: us {obs.score[team]}, them {obs.score[1 - team]}"
    if rules.camas_to_win > 1:
        score += f" (camas: us {obs.camas[team]}, them {obs.camas[1 - team]})"
    lines = [f"{title} | {score} | {obs.kind}, mano p{obs.mano}"]
    lines.append(f"{'seat':<{_SEAT_W}}{'held':<{_HELD_W}}{'1st':<{_BAZA_W}}{'2nd':<{_BAZA_W}}3rd")
    played = dict.fromkeys(range(rules.players), 0)
    for move in obs.moves:
        if move.action < 40:
            played[move.seat] += 1
    for seat in range(rules.players):
        name = f"p{seat} (you)" if seat == me else f"p{seat}"
        if seat not in obs.seats:
            name = f"({name})"
        if seat in obs.folded:
            held = "mazo"
        elif seat == me:
            held = " ".join(NAMES[c] for c in obs.hand)
        else:
            held = " ".join("#" * max(0, 3 - played[seat]))
        cells = []
        for baza in obs.bazas:
            cells.append(next((NAMES[c] for s, c in baza if s == seat), ""))
        marker = "> " if obs.turn == seat else "  "
        row = f"{marker}{name:<{_SEAT_W - 3}} {held:<{_HELD_W - 1}} "
        row += "".join(f"{c:<{_BAZA_W}}" for c in cells)
        lines.append(row.rstrip())
    won = []
    for i, result in enumerate(obs.baza_results):
        if result < 0:
            won.append("parda")
            continue
        baza = obs.bazas[i] if i < len(obs.bazas) else ()
        best = max((STRENGTH[c] for _, c in baza), default=-1)
        seat = next((s for s, c in baza if STRENGTH[c] == best and s & 1 == result), -1)
        won.append(f"p{seat}" if seat >= 0 else ("us" if result == team else "them"))
    lines.append(f"{'won by':<{_SEAT_W + _HELD_W}}" + "".join(f"{w:<{_BAZA_W}}" for w in won))
    lines[-1] = lines[-1].rstrip()
    lines.append(f"bets: {_truco(obs)}, {_envido(obs)}")
    if obs.statements:
        said = ", ".join(f"p{s} {'son buenas' if v is None else v}" for s, v in obs.statements)
        lines.append(f"said: {said}")
    if obs.shown:
        lines.append("shown: " + ", ".join(f"p{s} {NAMES[c]}" for s, c in obs.shown))
    if obs.match_over:
        lines.append("match over: " + ("we won" if obs.winner == team else "they won"))
    elif obs.turn >= 0:
        legal = " ".join(token(a) for a in obs.legal_actions)
        lines.append(f"p{obs.turn} to act" + (f": {legal}" if legal else ""))
    return "\n".join(lines)


def _truco(obs: Observation) -> str:
    if obs.truco_pending:
        return f"{_TRUCO_LEVELS[obs.truco_pending]} called, waiting for an answer"
    if not obs.truco_level:
        return "no truco"
    owner = "us" if obs.truco_owner == obs.seat & 1 else "them"
    return f"{_TRUCO_LEVELS[obs.truco_level]} accepted ({owner} may raise)"


def _envido(obs: Observation) -> str:
    if not obs.envido_chain:
        return "no envido"
    chain = " ".join(_ENVIDO_WORDS[c] for c in obs.envido_chain)
    if obs.envido_pending:
        return f"{chain} waiting for an answer"
    return chain
