"""Engine back end, the runtime's files: the text a generated module copies from each, and the
bytecode of the modules it copies whole.

A runtime module's text below its marker line is copied into generated modules between two
marker lines (`framed`; `parts.copy_module` leaves out the parts whose conditions do not hold).
A module without parts is always copied whole, so a piece of a generated module that is such a
copy, character for character (`whole_copies`), is the module's own code less its header: the
module docstring, comments and the imports above the marker. Compiling a generated module is
most of loading it (an analysis companion is nine tenths copied runtime: about 9 ms of compiling for
a dealt-round game's). `RuntimeCode` runs such a piece from the module's bytecode instead, Python's own
(compiled when the package was installed, read as an import reads it) rather than compiling the
copy again: the module's code runs in the generated module's namespace, its header first. That
header binds only what the namespace binds already (checked each time, by running the header
alone: its imports bind the same objects) and the namespace's docstring is put back after, so
the namespace ends as running the copy leaves it: the same names, the copy's own functions and
classes (their code compiled from the same text, only their line numbers and file those of the
runtime file). When the header would bind anything else, the copy is compiled after all.

This module imports nothing of the compiler's: loading an engine from the disk cache (`play`)
needs it, and reads no runtime file for an engine without such a piece.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

RUNTIME = Path(__file__).resolve().parent / "runtime"
SOURCE = "croupier/backends/engine/runtime"  # the runtime's place inside the installed package
PACKAGE = "croupier.backends.engine.runtime"
ENGINE_MARKER = "# ---- engine ----\n"
COMPANION_MARKER = "# ---- companion ----\n"
BEGIN = re.compile(r"^( *)# ---- part (\w+) if (.+?) ----$")  # a part's first line (see `parts`)
END = re.compile(r"^( *)# ---- end (\w+) ----$")  # and its last
PIECE_BEGIN = re.compile(r"^# ---- runtime: (\w+) \(begin\) ---- ", re.MULTILINE)


@cache
def module_text(module: str) -> str:
    """The whole text of one runtime module's file, read once per process."""
    return (RUNTIME / f"{module}.py").read_text(encoding="utf-8")


@cache
def runtime_text(module: str, marker: str) -> str:
    """The copied text of one runtime module: everything below its marker line."""
    text = module_text(module)
    if marker not in text:
        raise ValueError(f"runtime/{module}.py has no {marker.strip()!r} line")
    return text.split(marker, 1)[1].strip("\n") + "\n"


def framed(module: str, lines: list[str]) -> str:
    """A copied runtime module's lines as a generated module holds them: between its begin line (naming its
    source file) and its end line, with no wider gap than two blank lines."""
    text = "\n".join([f"# ---- runtime: {module} (begin) ---- {SOURCE}/{module}.py", "", *lines]).rstrip("\n")
    return narrowed(text) + f"\n\n\n# ---- runtime: {module} (end) ----\n"


def narrowed(text: str) -> str:
    """`text` with every run of four or more line ends shrunk to three, as `re.sub(r"\\n{4,}", "\\n\\n\\n", text)`
    gives it: a left-out part leaves no wider gap than two blank lines. Each pass shrinks every such run and
    leaves shorter ones alone. `str`'s own search finds the runs; the regular expression tried a match at
    every character (about 2 % of a cold `analyze`'s instructions)."""
    while "\n\n\n\n" in text:
        text = text.replace("\n\n\n\n", "\n\n\n")
    return text


@cache
def whole_copy(module: str) -> str | None:
    """The copy of a runtime module without parts, as every generated module that carries it holds it; None
    for a module with parts, or with no marker line, or none of that name."""
    if not re.fullmatch(r"\w+", module) or not (RUNTIME / f"{module}.py").is_file():
        return None
    for marker in (ENGINE_MARKER, COMPANION_MARKER):
        try:
            text = runtime_text(module, marker)
        except (ValueError, OSError, UnicodeDecodeError):
            continue
        lines = text.splitlines()
        marked = ("# ---- part " in text or "# ---- end " in text) and \
            any(BEGIN.match(line) or END.match(line) for line in lines)  # (no line can match without those words)
        return None if marked else framed(module, lines)
    return None


def whole_copies(source: str) -> list[tuple[int, int, str]]:
    """(start, end, module) of each piece of a generated module's source that is a whole copy of a runtime
    module without parts, in order."""
    out = []
    for m in _piece_begins(source):
        module = m.group(1)
        copy = whole_copy(module)
        if copy is not None and source.startswith(copy, m.start()):
            out.append((m.start(), m.start() + len(copy), module))
    return out


def _piece_begins(source: str):
    """`PIECE_BEGIN.finditer(source)`: the lines it can match are found by `str`'s own search (a line that
    begins with the marker's fixed words), many times faster on a long text than the expression's attempt
    at every character."""
    fixed = "# ---- runtime: "
    at = 0 if source.startswith(fixed) else source.find("\n" + fixed) + 1 or -1  # -1: no such line (left)
    while at >= 0:
        m = PIECE_BEGIN.match(source, at)
        if m is not None:
            yield m
        at = source.find("\n" + fixed, at) + 1 or -1


class RuntimeCode:
    """A piece of a generated module that is a whole copy of a runtime module without parts, run from the
    module's bytecode (see the module's docstring). `line`: the number of lines before it in the
    generated module, for the copy compiled after all."""

    __slots__ = ("module", "text", "line", "filename", "_copy")

    def __init__(self, module: str, text: str, line: int, filename: str) -> None:
        self.module, self.text, self.line, self.filename = module, text, line, filename
        self._copy = None

    def run(self, namespace: dict) -> None:
        """Do in `namespace` what running the copied text does."""
        found = _module_code(self.module)
        if found is not None:
            code, header = found
            if all(namespace.get(name, namespace) is value for name, value in header.items()):
                doc = namespace.get("__doc__")
                exec(code, namespace)  # noqa: S102 - the package's own module, as an import runs it
                namespace["__doc__"] = doc
                return
        if self._copy is None:  # the copy compiled where it stands, its lines numbered as in the module
            self._copy = compile("\n" * self.line + self.text, self.filename, "exec", dont_inherit=True)
        exec(self._copy, namespace)  # noqa: S102 - our own generated code


@cache
def _module_code(module: str) -> tuple[object, dict[str, object]] | None:
    """(the runtime module's code, as Python's import reads or compiles it; the names its header binds, with
    what they bind), or None when the module cannot be read or runs under a `from __future__` feature."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(f"{PACKAGE}.{module}")
        code = spec.loader.get_code(spec.name) if spec is not None and spec.loader is not None else None
        path = Path(spec.origin) if spec is not None and spec.origin else None
        if code is None or path is None or path.resolve() != (RUNTIME / f"{module}.py").resolve():
            return None
        text = path.read_text(encoding="utf-8")  # read again, not `module_text`: a file edited since the copy
        # was read (in a long-lived process) has bytecode for the new text, which the comparison below refuses
    except (ImportError, OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    marker = next((m for m in (ENGINE_MARKER, COMPANION_MARKER) if m in text), None)
    if marker is None:
        return None
    head, body = text.split(marker, 1)
    if body.strip("\n") + "\n" != runtime_text(module, marker) or code.co_flags & _future_flags():
        return None  # not the text copied (the file changed since), or compiled under another feature
    header: dict = {"__builtins__": __builtins__}
    try:
        exec(compile(head, str(path), "exec", dont_inherit=True), header)  # noqa: S102 - its docstring and imports
    except Exception:  # noqa: BLE001 - a header that does not run alone: the copy is compiled instead
        return None
    return code, {name: value for name, value in header.items() if name not in ("__builtins__", "__doc__")}


def _future_flags() -> int:
    """The compiler flags of every `from __future__` feature."""
    import __future__

    flags = 0
    for name in __future__.all_feature_names:
        flags |= getattr(__future__, name).compiler_flag
    return flags
