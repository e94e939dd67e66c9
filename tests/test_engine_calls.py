"""The public calls of a generated module's pieces, read from the headers alone, are those the whole syntax
tree gives: on every committed engine and runtime module, and on code written to be awkward."""

from __future__ import annotations

import textwrap

import pytest
from conftest import ROOT

from croupier.backends.engine import api, code_reading

SOURCES = sorted((ROOT / "generated" / "engines").glob("*.py")) + sorted(
    p for p in (ROOT / "compiler" / "croupier" / "backends" / "engine" / "runtime").glob("*.py") if p.name != "__init__.py")

AWKWARD = {
    "decorated, multi-line header, annotations with colons": '''
        @decorator(key=lambda x: x)
        def first(a: dict[str, int] = {"k:": 1},
                  *rest: "str)", b=(1, 2), **kw) -> dict[str, "a:b"]:
            """  Summary line.

            More text.
            """
            return a
        ''',
    "class with __init__ after a nested one and one in a block": '''
        class Box(Base, metaclass=Meta):
            r"""A box \\ with a raw docstring."""
            if FLAG:
                def __init__(self, wrong): pass
            class Inner:
                def __init__(self, inner_only): pass
            def __init__(self, x, *, y=2):
                self.x = x
            def __init__(self, later): pass
        ''',
    "no docstrings, one-liners, a string that is not a docstring": '''
        def plain(x): return x
        class Empty: pass
        def joined(): "a" "b"
        def called():
            "a".join([])
        def fstring():
            f"{1}"
        def parenthesised():
            ("a docstring all the same")
        def commented():  # a comment
            # another
            """Doc."""  # after
        ''',
    "definitions in blocks, private, asynchronous, lambdas and comprehensions": '''
        if True:
            def hidden(): """No."""
        async def later(): """No."""
        def _private(): """No."""
        square = lambda v: v * v
        listcomp = [i for i in range(3)]
        def listcomp(): """A function named like a comprehension."""
        class genexpr:
            """A class so named."""
        ''',
    "docstrings with escapes": r'''
        def escaped():
            """Quotes \"""inside\""" and a \\ backslash, a \t tab."""
        def continued():
            """A line \
            joined."""  # a comment
        ''',
    "plain headers, and headers near plain ones": '''
        def plain(a, b=None, c=EngineError):
            """Plain."""
        def empty():
            """Empty."""
        def number(a=1_0, b=0x1):
            """A number `ast.unparse` writes otherwise."""
        def spaced( a ,b = None ):
            """Spaced."""
        def ｕｎｉ(ｘ):
            """Names `ast` normalises."""
        class Plain(Base, Other):
            """Plain too."""
            def __init__(self, a, b=True):
                pass
        class Bare:
            def __init__(self):
                pass
        class Spaced :
            def __init__( self, a=None ):
                pass
        ''',
    "a string holding lines that look like definitions": '''
        TEXT = """
        def fake(): pass
        class Fake: pass
        """
        def real(a=\'\'\'
        def (\'\'\'): """Real."""
        ''',
}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_headers_give_the_calls_of_the_tree(path):
    text = path.read_text(encoding="utf-8")
    fast = code_reading._calls_from_headers(text)
    assert fast is not None  # the fast reading serves every module the compiler writes
    assert fast == code_reading._calls_from_tree(text)
    assert fast  # each of these modules has public calls


@pytest.mark.parametrize("name", list(AWKWARD))
def test_awkward_code_gives_the_same_calls(name):
    text = textwrap.dedent(AWKWARD[name])
    assert code_reading._calls(text) == code_reading._calls_from_tree(text)
    fast = code_reading._calls_from_headers(text)
    assert fast is None or fast == code_reading._calls_from_tree(text)


def test_awkward_calls_read_by_hand():
    text = textwrap.dedent(AWKWARD["class with __init__ after a nested one and one in a block"])
    assert code_reading._calls(text) == (code_reading.Call("Box", "Box(x, *, y=2)", "A box \\ with a raw docstring."),)
    text = textwrap.dedent(AWKWARD["definitions in blocks, private, asynchronous, lambdas and comprehensions"])
    assert [c.name for c in code_reading._calls(text)] == ["listcomp", "genexpr"]
    text = textwrap.dedent(AWKWARD["plain headers, and headers near plain ones"])
    assert [c.signature for c in code_reading._calls(text)] == [
        "plain(a, b=None, c=EngineError)", "empty()", "number(a=10, b=1)", "spaced(a, b=None)", "uni(x)",
        "Plain(a, b=True)", "Bare()", "Spaced(a=None)"]
    text = textwrap.dedent(AWKWARD["a string holding lines that look like definitions"])
    assert [(c.name, c.summary) for c in code_reading._calls(text)] == [("real", "Real.")]


def symbols_by_symtable(text: str):
    """What `code_reading._scan` answers, read through the public `symtable` module's objects."""
    import symtable

    read, bound, stored, top = set(), set(), set(), []
    module = symtable.symtable(text, "<piece>", "exec")
    for child in module.get_children():
        kind = {"function": "def", "class": "class"}.get(child.get_type(), "")
        inits = tuple(sorted(c.get_lineno() for c in child.get_children()
                             if c.get_name() == "__init__" and c.get_type() == "function")) if kind == "class" else ()
        top.append((kind, child.get_name(), child.get_lineno(), inits))
    tables = [module]
    while tables:
        table = tables.pop()
        if table.get_type() == "class":
            bound.add("__class__")
        for symbol in table.get_symbols():
            name = symbol.get_name()
            if name.startswith("."):
                continue
            if symbol.is_referenced():
                read.add(name)
            if symbol.is_assigned() or symbol.is_imported() or symbol.is_parameter():
                bound.add(name)
            if symbol.is_assigned() and not (symbol.is_parameter() or symbol.is_imported() or symbol.is_namespace()):
                stored.add(name)
        tables.extend(table.get_children())
    return read, bound, read | stored, sorted(top, key=lambda item: item[2])


@pytest.mark.parametrize("text", [p.read_text(encoding="utf-8") for p in SOURCES] + [
    textwrap.dedent(t) for t in AWKWARD.values()], ids=[p.name for p in SOURCES] + list(AWKWARD))
def test_the_symbol_scan_reads_what_symtable_reads(text):
    read, bound, used, top = code_reading._scan(text)
    assert (set(read), set(bound), set(used), list(top)) == symbols_by_symtable(text)
    assert "__class__" in bound or "class" not in {kind for kind, *_ in top}


def test_a_line_that_fits_is_what_textwrap_gives():
    import random

    rng = random.Random(16)
    alphabet = "ab c-\t\n.,\u00e9\u00a0\u2003 xy"
    fitting = 0
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 14)))
        width = rng.randrange(1, 16)
        if api._fits(text, width):
            fitting += 1
            assert textwrap.wrap(text, width + 4, initial_indent="  s ", subsequent_indent="    ") == ["  s " + text]
            assert textwrap.wrap(text, width, break_on_hyphens=False) == [text]
    assert fitting > 1000
