"""What a model value means in play, and how it reads in the spec's own terms.

`play(value)` is a model value (a bet, an expression, a shoe, …) reduced to what
decides play: spans, labels, citations, the file a rule came from and the
derived texts are left out, a number is its exact value whatever its spelling,
and a mapping is compared without its order. Two values with equal `play`
forms play alike. `whole(value)` keeps labels and citations too: where `play`
forms agree and `whole` forms do not, only the documentation changed.

`text(value)` writes a value back in the spec's notation (`pays 8 to 1`,
`total(banker) = 6`, `8 decks of standard52`), for the report.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from fractions import Fraction

from croupier.diagnostics import Span
from croupier.semantics import model
from croupier.semantics.expr import Expr, Num, expr_text
from croupier.syntax.printer import number_text

# fields that never decide play: where a thing is written, what it is called, where it comes from
DOC_FIELDS = frozenset({"labels", "cite", "cites", "value_cite"})
SKIPPED = frozenset({"span", "name_span", "cell_spans", "origin", "ident", "text", "type"})


def _reduce(value, keep_doc: bool):
    if isinstance(value, (Span, model.Game)):
        return None
    if isinstance(value, Num):
        return ("num", value.value)
    if isinstance(value, model.Labels):
        return tuple(sorted(value.texts.items())) if keep_doc else None
    if isinstance(value, model.Payout) and not keep_doc:  # `pays 1 to 1` is `pays 2 including stake`
        cut = (value.commission, value.rounding, value.unit) if value.commission else (None, None, None)
        return ("payout", value.gross_multiple()) + cut
    if is_dataclass(value) and not isinstance(value, type):
        out = [type(value).__name__]
        for f in fields(value):
            if f.name in SKIPPED or (f.name in DOC_FIELDS and not keep_doc):
                continue
            out.append((f.name, _reduce(getattr(value, f.name), keep_doc)))
        return tuple(out)
    if isinstance(value, dict):
        return ("map",) + tuple(sorted(((repr(k), _reduce(v, keep_doc)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return tuple(_reduce(v, keep_doc) for v in value)
    return value


def play(value):
    """The value as it decides play (see the module's docstring)."""
    return _reduce(value, False)


def whole(value):
    """The value with its labels and citations."""
    return _reduce(value, True)


def payout_text(p: model.Payout) -> str:
    """A payout as the spec writes it: `pays 1.95 including stake`, `pays 1 to 1 less 5% commission …`."""
    if p.style == "including":
        text = f"pays {number_text(p.ratio)} including stake"
    else:
        text = f"pays {number_text(p.ratio)} to 1"
    if p.commission:
        text += f" less {number_text(p.commission * 100)}% commission"
        if p.rounding:
            text += f" rounded {p.rounding} to {number_text(p.unit or Fraction(0))}"
    return text


def text(value) -> str:
    """A value in the spec's notation, on one line."""
    if value is None:
        return "none"
    if isinstance(value, Expr):
        return expr_text(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (Fraction, int)):
        return number_text(Fraction(value))
    if isinstance(value, str):
        return value
    if isinstance(value, model.Payout):
        return payout_text(value)
    if isinstance(value, model.Soft):
        return f"{' '.join(value.ranks)} counts {number_text(value.low)} or {number_text(value.high)}, " \
               f"best not over {number_text(value.limit)}"
    if isinstance(value, model.Shoe):
        jokers = f" + jokers {' '.join(value.jokers)}" if value.jokers else ""
        return f"{value.decks} deck{'s' if value.decks != 1 else ''} of {value.kind}{jokers}"
    if isinstance(value, model.Labels):
        return " ".join(f'{lang} "{t}"' if lang != "en" else f'"{t}"' for lang, t in value.texts.items())
    if isinstance(value, dict):
        return ", ".join(f"{text(k)} = {text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " ".join(text(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        parts = [f"{f.name} {text(getattr(value, f.name))}" for f in fields(value)
                 if f.name not in SKIPPED and f.name not in DOC_FIELDS]
        return ", ".join(parts)
    return str(value)
