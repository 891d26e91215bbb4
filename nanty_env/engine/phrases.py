"""Phrase books: the words for an action as one ruleset's table, read by one skeleton.

A phrase book maps an action family to its phrases, each keyed by the kind of decision the
action answers (``"summon"``), by ``"card:<symbol>"`` or ``"card"`` for a card's symbol, or
``"*"`` for any decision. A phrase is a template (``"summon {elder}"``) or several tried in
turn; its fields are worked out only when a template names them (:class:`Fields`), and a field
that does not apply raises ``LookupError``, which passes that template over. A ruleset's book
is its parent's with its own phrases laid over (:func:`extend`). The engine's descriptions
(``describe``) and the words people read (``nanty_env.presentation``) both speak through it.
A ruleset keeps its phrases and other words as data, in a TOML file beside its module
(:func:`read_words`): a table per action family, a string or an array of strings per key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, NoReturn

Phrase = str | tuple[str, ...]
Book = Mapping[str, Mapping[str, Phrase]]  # action family -> key -> phrase
Field = Callable[[Any], object]  # the context (a :class:`Fields`) -> a value


class Fields(dict[str, object]):
    """An action at a decision: ``kind`` (the decision's, ``""`` for none), ``symbol`` (the
    pending card symbol, ``""`` for none) and the values its templates name (``{arg}``: the
    action's argument), each other one computed on first use from this context by the
    ruleset's ``fields`` (a subclass adds the context's own attributes)."""

    def __init__(self, fields: Mapping[str, Field], arg: int, kind: str, symbol: str) -> None:
        super().__init__(arg=arg)
        self.fields, self.arg, self.kind, self.symbol = fields, arg, kind, symbol

    def __missing__(self, key: str) -> object:
        value = self.fields[key](self)
        self[key] = value
        return value

    def keys_tried(self) -> tuple[str, ...]:
        """The keys looked up in a family's phrases, most particular first."""
        if self.kind == "card":
            return (f"card:{self.symbol}", "card", "*")
        return (self.kind, "*")


def absent(why: str) -> NoReturn:
    """Say that a field does not apply here: the template naming it is passed over."""
    raise LookupError(why)


def say(phrases: Mapping[str, Phrase], values: Fields) -> str:
    """The first of ``phrases`` (one family's) whose fields all apply; when none does, the
    error of the last one tried (a ``LookupError``) is raised again."""
    error = LookupError(f"no phrase for a decision of kind {values.kind!r}")
    for key in values.keys_tried():
        phrase = phrases.get(key, ())
        for template in (phrase,) if isinstance(phrase, str) else phrase:
            try:
                return template.format_map(values)
            except LookupError as e:
                error = e
    raise error


def extend(book: Book, own: Book) -> dict[str, Mapping[str, Phrase]]:
    """``book`` with a ruleset's ``own`` phrases laid over it, family by family."""
    return {fam: {**book.get(fam, {}), **own.get(fam, {})} for fam in {*book, *own}}


def read_words(package: str, name: str) -> dict[str, Any]:
    """The TOML file ``name`` shipped in ``package``, its arrays as tuples (a phrase tried in
    turn): a ruleset's phrase book, or tables of its words."""

    def frozen(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: frozen(v) for k, v in x.items()}
        return tuple(x) if isinstance(x, list) else x

    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return frozen(tomllib.loads(text))
