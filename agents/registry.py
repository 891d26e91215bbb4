"""Build bots from short text specs, as used by the CLI and tournaments.

A spec is ``BOT[:key=value...]``. ``BOT`` is either

* a registered name: a built-in (``random``, ``heuristic``, ``ismcts``, ``learned``,
  ``policy``, ``distilled``) or a bot that an installed package declares in the
  ``nanty.bots`` entry-point group, or
* an import path ``package.module:Name``: any importable class or factory (called with the
  options as keyword arguments) that returns a bot.

The two cannot be confused: an option always has ``=``, an attribute name never does, so
``mypkg.bots:Greedy:depth=2`` is the class ``Greedy`` with ``depth=2`` and ``heuristic:depth=0``
is the built-in with ``depth=0``. Values are read as int, else float, else text; a value
written as a JSON string (``policy:path="runs/a:b"``) is text and may hold colons and equals
signs (:func:`spec_value` writes one so).

Specs typed by the user (the command line, a training config) may name any bot. Specs read
from a file or a request (a checkpoint's hint bot, the web) go through :func:`untrusted_spec`:
shipped bots only, with allow-listed options within bounds (``agents.spec_limits``).

Examples: ``random``, ``heuristic:depth=0``, ``ismcts:iters=300``, ``policy:path=model.zip``,
``mypkg.bots:Greedy``. Tournaments pass specs (not bot objects) to their worker processes,
which build the bots themselves; :func:`check_spec` builds one in the parent first so that a
mistake is reported once, in one line, before any worker starts.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import inspect
import json
import re
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from agents.base import Bot
from agents.spec_limits import FILE_LIMITS, WEB_LIMITS, SpecLimits

__all__ = [
    "FILE_LIMITS",
    "WEB_LIMITS",
    "BotSpecError",
    "SpecLimits",
    "check_spec",
    "make_bot",
    "make_untrusted_bot",
    "parse_spec",
    "untrusted_spec",
]

ENTRY_POINT_GROUP = "nanty.bots"
_IMPORT_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


class BotSpecError(ValueError):
    """A bot spec that names no bot or that the bot refuses; the message says what to fix."""


# The classes behind the built-in factories, by import path: the registry imports no bot module
# and loads a built-in when it is asked for one, as it loads a plug-in, so that a bot may build
# others from their specs (a policy's hint bot, ``agents.shipped.check_shipped``) by importing
# the registry, one way. Also used for listing and checking a built-in's options without
# building it.
_BUILTIN_CLASSES = {
    "random": "agents.random_bot:RandomBot",
    "heuristic": "agents.heuristic:HeuristicBot",
    "ismcts": "agents.ismcts:ISMCTSBot",
    "learned": "agents.learned_bot:LearnedBot",
    "policy": "agents.policy:PolicyBot",
    "distilled": "agents.distilled:DistilledBot",
    "ppo": "agents.ppo_bot:PPOBot",
}


def _builtin(name: str) -> Callable[..., Bot]:
    """The class of the built-in bot ``name``, imported on first use."""
    module, _, attr = _BUILTIN_CLASSES[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def _plain(name: str) -> Callable[..., Bot]:
    """The factory of a built-in that takes its options as they are."""

    def make(**kw: Any) -> Bot:
        return _builtin(name)(**kw)

    return make


def _heuristic(**kw: Any) -> Bot:
    if kw.get("roles") in ("none", "prior"):
        kw.pop("roles")
        kw["role_model"] = None
    return _builtin("heuristic")(**kw)


def _ismcts(**kw: Any) -> Bot:
    from agents.evaluation import Weights

    # ``w_<name>=x`` sets one evaluation weight (e.g. ``ismcts:w_points=0.5``).
    weights = {k[2:]: float(kw.pop(k)) for k in list(kw) if k.startswith("w_")}
    if weights:
        kw["weights"] = Weights(**weights)
    return _builtin("ismcts")(**kw)


BOTS: dict[str, Callable[..., Bot]] = {
    "random": _plain("random"),
    "heuristic": _heuristic,
    "ismcts": _ismcts,
    "learned": _plain("learned"),
    "policy": _plain("policy"),
    "distilled": _plain("distilled"),
    "ppo": _plain("ppo"),
}
"""The built-in bots (installed plug-ins: :func:`plugin_bots`)."""

# the options the built-in factories add to their classes' own
_EXTRA_OPTIONS = {"heuristic": ("roles",), "ismcts": ("w_<weight>",)}


def plugin_bots() -> dict[str, EntryPoint]:
    """Bots declared by installed packages (entry points of group ``nanty.bots``; not yet
    imported). A plug-in may not take a built-in's name: such entries are left out."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in BOTS}


def known_bots() -> list[str]:
    """The names a spec may start with: built-ins and installed plug-ins."""
    return sorted({*BOTS, *plugin_bots()})


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iters=300:c=0.7"`` -> ``("ismcts", {"iters": 300, "c": 0.7})``;
    ``"pkg.mod:Bot:k=1"`` -> ``("pkg.mod:Bot", {"k": 1})``. Checks the syntax and that a
    name is registered (an import path is only imported by :func:`resolve`)."""
    text = spec.strip()
    if not text:
        raise BotSpecError("empty bot spec; give a name from `nanty bots` or package.module:Class")
    fields = split_spec(text, spec)
    registered = fields[0] in BOTS or fields[0] in plugin_bots()
    if len(fields) > 1 and "=" not in fields[1] and not registered:  # module:attribute
        name, opts = f"{fields[0]}:{fields[1]}", fields[2:]
        if not _IMPORT_PATH.match(name):
            raise BotSpecError(
                f"bad bot spec {spec!r}: {fields[1]!r} is neither an option (key=value) nor "
                "an attribute of an import path package.module:Class"
            )
    else:
        name, opts = fields[0], fields[1:]
        if not registered:
            known = known_bots()
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise BotSpecError(
                f"unknown bot {name!r} in spec {spec!r}; {hint}known: {', '.join(known)} "
                "(or an importable package.module:Class)"
            )
    kwargs: dict[str, Any] = {}
    for opt in opts:
        if "=" not in opt:
            raise BotSpecError(f"bad option {opt!r} in bot spec {spec!r} (want key=value)")
        k, v = opt.split("=", 1)
        kwargs[k.strip()] = _quoted(v, spec) if v.startswith('"') else _value(v.strip())
    return name, kwargs


def split_spec(text: str, spec: str | None = None) -> list[str]:
    """``text`` cut at its colons, except inside a value written as a JSON string
    (``policy:path="runs/a:b"``), which keeps any character."""
    fields, rest = [], text
    while True:
        key, eq, tail = rest.partition("=")
        if eq and tail.startswith('"') and ":" not in key:
            try:
                value, end = json.JSONDecoder().raw_decode(tail)
            except ValueError:
                raise BotSpecError(f"bad quoted value in bot spec {spec or text!r}") from None
            after = tail[end:]
            if after and not after.startswith(":"):
                raise BotSpecError(f"bad bot spec {spec or text!r}: text after a quoted value")
            fields.append(f"{key}={json.dumps(value)}")
            if not after:
                return fields
            rest = after[1:]
            continue
        head, colon, rest = rest.partition(":")
        fields.append(head)
        if not colon:
            return fields


def spec_value(value: Any) -> str:
    """``value`` written for a spec: as it is if it reads back the same, else quoted as a
    JSON string (a path with a colon or an equals sign cannot add options)."""
    text = str(value)
    plain = re.fullmatch(r"[\w./~+@-]*", text) is not None and not text.startswith('"')
    return text if plain and _value(text) == value else json.dumps(text)


def _quoted(v: str, spec: str) -> str:
    try:
        return json.loads(v)
    except ValueError:
        raise BotSpecError(f"bad quoted value {v!r} in bot spec {spec!r}") from None


def _value(v: str) -> Any:
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def _import(path: str, spec: str) -> Any:
    module, _, attr = path.partition(":")
    try:
        obj = importlib.import_module(module)
    except ImportError as e:
        raise BotSpecError(
            f"bot spec {spec!r}: cannot import {module!r} ({e}); is it installed or on PYTHONPATH?"
        ) from e
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise BotSpecError(f"bot spec {spec!r}: {module!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def resolve(name: str, spec: str | None = None) -> Callable[..., Bot]:
    """The factory (class or function) that ``name`` (from :func:`parse_spec`) stands for."""
    spec = name if spec is None else spec
    if name in BOTS:
        return BOTS[name]
    if ":" in name:
        factory = _import(name, spec)
    else:
        plugins = plugin_bots()
        if name not in plugins:
            raise BotSpecError(f"unknown bot {name!r}; known: {', '.join(known_bots())}")
        try:
            factory = plugins[name].load()
        except Exception as e:
            raise BotSpecError(
                f"bot {name!r} (plug-in {plugins[name].value}) failed to load: {e}"
            ) from e
    if not callable(factory):
        raise BotSpecError(f"bot spec {spec!r}: {name} is not a class or function")
    return factory


def bot_options(name: str) -> list[str] | None:
    """The options (keyword arguments) a bot takes, or ``None`` if it takes any."""
    target = _builtin(name) if name in BOTS else resolve(name)
    try:
        params = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):  # a builtin or C callable: nothing to check
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    names = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return [*names, *_EXTRA_OPTIONS.get(name, ())]


def _check_options(name: str, kwargs: dict[str, Any], spec: str) -> None:
    allowed = bot_options(name)
    if allowed is None:
        return
    for key in kwargs:
        if key in allowed or ("w_<weight>" in allowed and key.startswith("w_")):
            continue
        takes = ", ".join(allowed) if allowed else "no options"
        raise BotSpecError(f"unknown option {key!r} in bot spec {spec!r}; {name} takes: {takes}")


def make_bot(spec: str) -> Bot:
    """A fresh bot from its spec; its ``name`` becomes the spec.

    Raises:
        BotSpecError: the spec names no bot, or an option the bot does not take.
    """
    name, kwargs = parse_spec(spec)
    factory = resolve(name, spec)
    _check_options(name, kwargs, spec)
    bot = factory(**kwargs)
    if not callable(getattr(bot, "act", None)):
        raise BotSpecError(
            f"bot spec {spec!r}: {name} returned {type(bot).__name__}, which has no "
            "act(view, legal_actions, rng) method"
        )
    with contextlib.suppress(AttributeError):  # a bot whose name is read-only keeps its own
        bot.name = spec.strip()
    return bot


def check_spec(spec: str) -> None:
    """Build the bot once, turning any failure into a one-line :class:`BotSpecError` (for a
    command line, before worker processes start)."""
    try:
        make_bot(spec)
    except BotSpecError:
        raise
    except Exception as e:
        detail = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise BotSpecError(f"bot spec {spec!r} failed: {detail}") from e


def untrusted_spec(spec: Any, limits: SpecLimits = FILE_LIMITS) -> str:
    """``spec``, from a file or a request, checked against ``limits`` and written in one
    canonical form: a shipped bot that ``limits`` allows, options it allows, each of the
    right type and within its bounds. Nothing is imported, built or opened.

    Raises:
        BotSpecError: one line saying what is refused.
    """
    where = f"bot spec {str(spec)[:80]!r} from {limits.source}"
    if not isinstance(spec, str) or len(spec) > 400:
        raise BotSpecError(f"{where}: not a bot spec (text of at most 400 characters)")
    name = spec.split(":", 1)[0].strip()
    if name not in limits.bots:
        raise BotSpecError(
            f"{where}: names {name!r}; only these shipped bots are allowed: "
            f"{', '.join(sorted(limits.bots))}"
        )
    _, options = parse_spec(spec)
    allowed = limits.bots[name]
    for key, value in options.items():
        bound = allowed.get(key)
        if bound is None:
            takes = ", ".join(allowed) if allowed else "no options"
            raise BotSpecError(f"{where}: option {key!r} is not allowed ({name} may set: {takes})")
        why = bound.check(value)
        if why is not None:
            raise BotSpecError(f"{where}: {key}={value!r} {why}")
    return ":".join([name, *(f"{k}={spec_value(v)}" for k, v in options.items())])


def make_untrusted_bot(spec: Any, limits: SpecLimits = FILE_LIMITS) -> Bot:
    """A bot from a spec read from a file or a request (:func:`untrusted_spec` first)."""
    return make_bot(untrusted_spec(spec, limits))
