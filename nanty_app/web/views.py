"""What a seat and a spectator are shown: the person's game, a watched game's views, moves."""

from __future__ import annotations

from typing import Any

from nanty_app.table import Move, Table
from nanty_app.web.guard import ApiError, is_int
from nanty_env.engine import HIDDEN_CARD, Game
from nanty_env.presentation.board_svg import SEAT_COLOURS, board_svg, revealed_view
from nanty_env.presentation.render_panel import panel
from nanty_env.presentation.words import decision_words, outcome_words

MAX_STEP_DIGITS = 7  # a count of moves or actions in a request


def move_json(move: Move, over: bool) -> dict[str, Any]:
    """One move of the log as the person (seat 0) may read it. ``forced`` (the seat had one
    legal action) is told for the person's own moves, for others' only once the game is over
    (``None``: not told)."""
    return {
        "seat": move.seat,
        "text": move.text_for([0]),
        "lines": list(move.log),
        "forced": move.forced if over or move.seat == 0 else None,
    }


def game_state(gid: str, table: Table) -> dict[str, Any]:
    """The game as the person at seat 0 sees it: what ``GET /api/games/{id}`` answers."""
    over = table.over
    view = table.view(0)
    question, _ = decision_words(view, table.config.theme, table.config)
    outcome = None
    if over:
        o = table.game.outcome
        outcome = {
            "winners": list(o.winners),
            "text": outcome_words(
                o.winners, o.reason, table.config.theme, table.config, list(table.game.persona)
            ),
            "points": None if o.points is None else list(o.points),
            "you_won": 0 in o.winners,
        }
    record = table.record_path.name if over and table.record_path is not None else None
    return {
        "id": gid,
        "seat": 0,
        "names": list(table.names),
        "colours": list(SEAT_COLOURS[: len(table.seats)]),
        "seed": table.seed if over else None,
        "expansion": table.config.expansion,
        "over": over,
        "to_move": table.to_move,
        "your_turn": table.human_to_move(),
        "question": question,
        "choices": [{"action": a, "text": t, "hint": table.hint(a)} for a, t in table.choices(0)],
        "svg": board_svg(view, table.config, table.names, with_panel=False),
        "panel": panel(view, table.config, table.names).to_json(),
        "log": [move_json(m, over) for m in table.moves],
        "outcome": outcome,
        "record": record,
    }


def public_view(game: Game) -> dict[str, Any]:
    """What every seat knows (and no seat more): a seat's view without its hand, its own role,
    what it alone knows of others' cards and its pending choices. Its ``seat`` is -1."""
    view = game.view(0)
    n = game.n
    view.update(
        seat=-1,
        hand=[],
        known_cards=[[] for _ in range(n)],
        known_unused_personalities=[],
        personality=None,
        decision="",
        context={},
        legal_actions=[],
    )
    if "objective" in view:
        view["objective"] = None
    for frame in view["stack"]:
        if frame.get("k") == "keep_one" and "cards" in frame:
            frame["cards"] = [HIDDEN_CARD] * len(frame["cards"])
    return view


def parse_who(value: Any, players: int) -> str | int:
    """A spectator's choice of what to see: ``"all"`` (everything revealed), ``"public"``
    (what every seat knows) or a seat number (that seat's view). 400 for anything else."""
    if isinstance(value, str) and value.isdigit() and len(value) < 3:
        value = int(value)
    if value in ("all", "public") or (is_int(value) and 0 <= value < players):
        return value
    raise ApiError(400, f"'view' must be 'all', 'public' or a seat from 0 to {players - 1}")


def parse_since(value: Any) -> int:
    """How many moves the page has already shown (400 unless a whole number)."""
    if isinstance(value, str) and value.isdigit() and len(value) <= MAX_STEP_DIGITS:
        value = int(value)
    if not is_int(value) or value < 0:
        raise ApiError(400, "'since' must be a number of moves already shown")
    return value


def picture(game: Game, names: list[str], who: str | int = "all") -> dict[str, Any]:
    """The board and the pending question as ``who`` (:func:`parse_who`) sees them: the same
    drawing for a replay's step and a game being watched."""
    cfg = game.cfg
    if who == "all":
        view = revealed_view(game)
    elif who == "public":
        view = public_view(game)
    else:
        view = game.view(int(who))
    question, _ = decision_words(view, cfg.theme, cfg)
    svg = board_svg(view, cfg, names, with_panel=False)
    if who == "public":  # the drawing knows seats' views and everything; name this one
        svg = svg.replace(" · seen by player -1<", " · public view: no hand shown<")
    outcome = None
    if game.is_terminal:
        o = game.outcome
        outcome = {
            "winners": list(o.winners),
            "text": outcome_words(o.winners, o.reason, cfg.theme, cfg, list(game.persona)),
            "points": None if o.points is None else list(o.points),
        }
    return {
        "svg": svg,
        "panel": panel(view, cfg, names).to_json(),
        "question": question,
        "over": game.is_terminal,
        "outcome": outcome,
    }


def watched_move(move: Move, who: str | int, players: int, over: bool) -> dict[str, Any]:
    """One move as a spectator who sees ``who`` may read it: every word when everything is
    revealed, else the words every seat (``"public"``) or that seat may read; ``forced`` as
    that seat would be told it (``None``: not told)."""
    if who == "all":
        text, told = move.text, True
    else:
        seats = list(range(players)) if who == "public" else [int(who)]
        text, told = move.text_for(seats), over or move.seat == who
    return {
        "seat": move.seat,
        "text": text,
        "lines": list(move.log),
        "forced": move.forced if told else None,
    }
