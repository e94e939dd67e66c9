"""`runtime_files` and the loader: a generated module's whole copies of runtime modules run from the modules'
own bytecode, and the module they make is the one the whole source makes."""

from __future__ import annotations

import dis
import re
import types
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.backends.engine import loader, runtime_files
from croupier.backends.engine.parts import COMPANION_MARKER, copy_module
from croupier.backends.engine.runtime_files import PIECE_BEGIN, RuntimeCode, narrowed, whole_copies, whole_copy

ROOT = Path(__file__).resolve().parent.parent
GENERATED = sorted((ROOT / "generated" / "engines").glob("*.py"))


def _whole(source: str) -> dict:
    """The namespace the whole source makes, compiled as one."""
    module = types.ModuleType("whole")
    exec(compile(source, "<whole>", "exec", dont_inherit=True), module.__dict__)  # noqa: S102 - the test's subject
    return module.__dict__


def _functions(namespace: dict):
    """(qualified name, code) of every function of the namespace, classes' methods included."""
    for name, value in namespace.items():
        if isinstance(value, types.FunctionType):
            yield name, value.__code__
        elif isinstance(value, type) and value.__module__ == namespace["__name__"]:
            for attr, member in vars(value).items():
                if isinstance(member, types.FunctionType):
                    yield f"{name}.{attr}", member.__code__


def _shape(value):
    """A value as data to compare across two modules: a function or class by its kind and name, a module by its
    name, containers by their items; an object of another kind by its class and (when it has one) equality."""
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type)):
        return (type(value).__name__, value.__qualname__)
    if isinstance(value, types.ModuleType):
        return ("module", value.__name__)
    if isinstance(value, dict):
        return ("dict", [(_shape(k), _shape(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_shape(v) for v in value]
        return (type(value).__name__, items if isinstance(value, (list, tuple)) else sorted(map(repr, items)))
    if type(value).__eq__ is object.__eq__:
        return (type(value).__name__,)
    return (type(value).__name__, value)


_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)


def _code_shape(code: types.CodeType) -> tuple:
    """What a code object does, without where it was compiled: its instructions (a jump by the index of its
    target; nested code the same way), constants, names and variables.

    One difference is made none: a call of an attribute of a module (`random.Random(seed)`) compiles to
    LOAD_ATTR where the compiler sees the module imported in the same text and to LOAD_METHOD elsewhere
    (CPython 3.11's `is_import_originated`), the same call on the same object; text compiled apart from the
    module's imports (`loader.compile_engine`) takes the second."""
    instructions = list(dis.get_instructions(code))
    index = {i.offset: n for n, i in enumerate(instructions)}
    steps = []
    for i in instructions:
        arg = i.argval
        if i.opcode in _JUMPS:
            arg = index.get(arg, arg)
        elif isinstance(arg, types.CodeType):
            arg = _code_shape(arg)
        steps.append(("LOAD_ATTR" if i.opname == "LOAD_METHOD" else i.opname, arg))
    consts = tuple(_code_shape(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return tuple(steps), consts, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars


def _loaded(source: str, name: str) -> dict:
    loader._CODE.pop(source, None)
    return loader.module_from_code(loader.compile_engine(source, name), name, "digest").__dict__


@pytest.mark.parametrize("path", GENERATED, ids=lambda p: p.stem)
def test_the_loaded_module_is_what_the_whole_source_makes(path: Path):
    """Every generated engine and companion: the same names; the same values, docstring and `__all__`; every
    function and method of the same bytecode, constants and names. The generated text keeps its line
    numbers; a runtime module's functions have the runtime file's (a companion's copies all run from
    bytecode: none was compiled)."""
    source = path.read_text(encoding="utf-8")
    whole, loaded = _whole(source), _loaded(source, f"t_{path.stem}")
    skip = {"__builtins__", "__name__", "__file__", "SOURCE_DIGEST", "__spec__", "__loader__", "__package__"}
    assert whole.keys() - skip == loaded.keys() - skip
    assert whole["__doc__"] == loaded["__doc__"] and whole.get("__all__") == loaded.get("__all__")
    for name in whole.keys() - skip:
        assert _shape(whole[name]) == _shape(loaded[name]), name
    theirs, ours = dict(_functions(whole)), dict(_functions(loaded))
    assert theirs.keys() == ours.keys() and theirs
    runtime = str(runtime_files.RUNTIME)
    for name, code in theirs.items():
        mine = ours[name]
        assert _code_shape(mine) == _code_shape(code), name
        if mine.co_filename.startswith(runtime):
            assert Path(mine.co_filename).stem in {module for _s, _e, module in whole_copies(source)}, name
        else:
            assert mine.co_firstlineno == code.co_firstlineno, name
    pieces = [p for p in loader.compile_engine(source, path.stem) if type(p) is RuntimeCode]
    assert len(pieces) == len(whole_copies(source))
    if path.stem.endswith("_analysis"):
        assert len(pieces) >= 2 and all(p._copy is None for p in pieces)  # run from bytecode, nothing compiled


def test_only_whole_copies_of_modules_without_parts_run_from_bytecode():
    assert whole_copy("analysis_summary") == copy_module("analysis_summary", frozenset(), COMPANION_MARKER).text
    assert whole_copy("dealt_parts") is None and whole_copy("dealt_round") is not None  # with parts, without
    assert whole_copy("no_such_module") is None and whole_copy("../parts") is None
    source = (ROOT / "generated" / "engines" / "baccarat_analysis.py").read_text(encoding="utf-8")
    edited = source.replace("def falling(n, k):", "def falling(n, k):  # edited", 1)
    assert len(whole_copies(source)) == 2 and len(whole_copies(edited)) == 1
    assert _loaded(edited, "t_edited")["falling"](5, 2) == 20


def test_a_header_that_would_bind_otherwise_compiles_the_copy():
    """The namespace binds a name the runtime module's header imports to something else: the copy is compiled
    where it stands and the namespace ends as the whole source leaves it."""
    source = (ROOT / "generated" / "engines" / "baccarat_analysis.py").read_text(encoding="utf-8")
    shadowed = source.replace("\nimport weakref\n", "\nimport weakref\nweakref = weakref  # the same\n", 1)
    other = source.replace("\nimport weakref\n", "\nimport weakref as _weakref\n\n\nclass weakref:\n"
                           "    WeakKeyDictionary = _weakref.WeakKeyDictionary\n", 1)
    assert other != source and shadowed != source
    loaded = _loaded(other, "t_other")
    assert isinstance(loaded["weakref"], type) and isinstance(_whole(other)["weakref"], type)  # the class kept
    pieces = [p for p in loader.compile_engine(other, "t_other") if type(p) is RuntimeCode]
    assert pieces and all(p._copy is not None for p in pieces)  # compiled after all
    assert [p._copy for p in loader.compile_engine(shadowed, "t_same") if type(p) is RuntimeCode] == [None, None]


def test_a_source_that_does_not_compile_raises_its_own_error():
    source = (ROOT / "generated" / "engines" / "baccarat_analysis.py").read_text(encoding="utf-8")
    broken = source.replace("GAME = ", "GAME == = ", 1)
    with pytest.raises(SyntaxError) as raised:
        compile(broken, "<engine x>", "exec")
    with pytest.raises(SyntaxError) as ours:
        loader.compile_engine(broken, "x")
    assert (ours.value.lineno, ours.value.msg) == (raised.value.lineno, raised.value.msg)


# texts made of the pieces that decide where a copy begins and how wide a gap is: marker lines (whole, cut short,
# indented, not at a line's start), line ends alone and in runs, other text in Chinese and in ASCII
_BITS = st.sampled_from(["# ---- runtime: common (begin) ---- x.py", "# ---- runtime: b (begin) ---- ", "# ---- runtime: ",
                         "# ---- runtime: c (begin) ----", " # ---- runtime: d (begin) ---- ", "\n", "\n\n\n", "\n\n\n\n\n",
                         "x", "莊家", "\r\n"])


@given(st.lists(_BITS, max_size=14).map("".join))
def test_copies_are_found_as_the_marker_expression_finds_them(text: str):
    found = [(m.start(), m.end(), m.group(1)) for m in runtime_files._piece_begins(text)]
    assert found == [(m.start(), m.end(), m.group(1)) for m in PIECE_BEGIN.finditer(text)]


@given(st.lists(_BITS, max_size=14).map("".join))
def test_gaps_are_narrowed_as_the_expression_narrows_them(text: str):
    assert narrowed(text) == re.sub(r"\n{4,}", "\n\n\n", text)


def test_a_runtime_file_edited_after_its_copy_was_read_is_not_run_from_bytecode(monkeypatch):
    """The copy a generated module holds was read when the module was emitted; when the file says otherwise
    now (edited in a long-lived process), its bytecode is the new text's, and the copy is compiled instead."""
    copied = runtime_files.runtime_text("analysis_summary", COMPANION_MARKER)
    runtime_files._module_code.cache_clear()
    try:
        assert runtime_files._module_code("analysis_summary") is not None
        runtime_files._module_code.cache_clear()
        monkeypatch.setattr(runtime_files, "runtime_text", lambda module, marker: copied + "\n# an older copy\n")
        assert runtime_files._module_code("analysis_summary") is None
    finally:
        runtime_files._module_code.cache_clear()
