"""What each seat knows about hidden cards, kept as sound subsets of the truth.

``g.known[p][q]`` lists cards that seat ``p`` knows to be in seat ``q``'s hand (``p != q``),
as nested tuples: it changes rarely, so a game's clones share it, and every change builds new
tuples (:func:`set_known`);
``g.known_unused[p]`` lists personality cards ``p`` knows to be set aside. Every card movement
that others can see (or partly see) updates these, so an observation can include exactly what
its seat has learnt, and a resampler can keep it fixed.
"""

from __future__ import annotations

from collections.abc import Iterable

from nanty_env.engine.state import GameState, Rows, empty_rows, with_row

Known = tuple[Rows, ...]


def no_knowledge(n: int) -> Known:
    """``g.known`` of a game where nobody knows any other hand."""
    return (empty_rows(n),) * n


def set_known(g: GameState, p: int, q: int, cards: Iterable[int]) -> None:
    """Seat ``p`` now knows exactly ``cards`` to be in seat ``q``'s hand."""
    known = g.known
    g.known = with_row(known, p, with_row(known[p], q, cards))


def forget(g: GameState, p: int, q: int) -> None:
    """Seat ``p`` no longer knows any card in seat ``q``'s hand."""
    if g.known[p][q]:
        set_known(g, p, q, ())


def card_revealed(g: GameState, owner: int, c: int, to_hand: bool = False) -> None:
    """Card ``c`` is shown to everyone: leaving ``owner``'s hand (played, discarded), or, with
    ``to_hand``, entering it face up (taken back from the discard pile)."""
    known = g.known
    changed = None  # the seats' new rows, built once for all of them (one new ``g.known``)
    for x in range(g.n):
        if x == owner:
            continue
        row = known[x][owner]
        if to_hand:
            if c in row:
                continue
            row = (*row, c)
        elif c in row:
            row = [y for y in row if y != c]
        else:
            continue
        if changed is None:
            changed = list(known)
        changed[x] = with_row(changed[x], owner, row)
    if changed is not None:
        g.known = tuple(changed)


def cards_drawn(g: GameState, p: int, cards: list[int]) -> None:
    """Cards drawn face down: nobody else learns anything."""


def card_given(g: GameState, giver: int, receiver: int, c: int) -> None:
    """``giver`` secretly hands ``c`` to ``receiver``: both know it; the others only know that
    some card moved, so what they knew of the giver's hand is no longer certain."""
    for x in range(g.n):
        if x == giver:
            if x != receiver:
                row = g.known[giver][receiver]
                if c not in row:
                    set_known(g, giver, receiver, (*row, c))
        elif x == receiver:
            row = g.known[receiver][giver]
            if c in row:
                set_known(g, receiver, giver, [y for y in row if y != c])
        else:
            forget(g, x, giver)


def hand_seen(g: GameState, viewer: int, owner: int) -> None:
    """``viewer`` has looked at ``owner``'s whole hand."""
    set_known(g, viewer, owner, g.hands[owner])


def hands_exchanged(g: GameState, p: int, q: int) -> None:
    """``p`` and ``q`` swapped hands: each knows the other's new hand (their own old one);
    everyone else's knowledge moves with the hands."""
    for x in range(g.n):
        if x not in (p, q):
            of_p, of_q = g.known[x][p], g.known[x][q]
            set_known(g, x, p, of_q)
            set_known(g, x, q, of_p)
    set_known(g, p, q, g.hands[q])
    set_known(g, q, p, g.hands[p])


def personalities_seen(g: GameState, p: int, seen: list[int]) -> None:
    g.known_unused = with_row(g.known_unused, p, sorted(set(g.known_unused[p]) | set(seen)))


def personality_swapped(g: GameState, p: int, old: int, new: int) -> None:
    """``p`` swapped ``old`` for ``new`` from the unused pile: ``p`` knows ``old`` is set aside;
    others no longer know which set-aside card left."""
    mine = sorted((set(g.known_unused[p]) - {new}) | {old})
    g.known_unused = with_row(empty_rows(g.n), p, mine)
