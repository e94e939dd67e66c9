"""Engine back end, a generated module's public face: its docstring, its import of the runtime, `__all__`.

`assemble` puts a generated module (an engine, or its analysis companion) together: the
`# @generated` line, a docstring of the intro and of the module's own functions (each with its
signature and the first line of its docstring, read from the generated code with `ast`), the
standard-library imports, the import of `croupier_runtime` from beside the module (refusing a
runtime of another version), `__all__`, then the code. `checked_module` proves the result
compiles and reads no name it does not bind.
"""

from __future__ import annotations

import ast
import builtins
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from croupier.backends.engine.loader import compile_engine
from croupier.backends.engine.runtime_bundle import VERSION, bundle_digest
from croupier.backends.pywriter import literal, safe_text
from croupier.diagnostics import SpecError, error
from croupier.semantics.model import Game

WIDTH = 118  # the docstring's lines
IMPORTS = ("import importlib.util", "import os", "import sys", "from fractions import Fraction")
# The import of croupier_runtime: the one this process imported already (croupier's own, when croupier runs this
# module), else the file beside this one, registered once; another version or digest is refused.
RUNTIME_IMPORT = '''RUNTIME = ({version}, {digest})  # the croupier_runtime this module was generated with: VERSION, DIGEST


def _import_runtime():
    """Let `import croupier_runtime` give RUNTIME's: the one imported already, else croupier_runtime.py beside this file."""
    found = sys.modules.get("croupier_runtime")
    if (getattr(found, "VERSION", None), getattr(found, "DIGEST", None)) == RUNTIME:
        return
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "croupier_runtime.py")
    spec = importlib.util.spec_from_file_location("croupier_runtime", path)
    found = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(found)  # a missing file: FileNotFoundError, naming it
    got = (getattr(found, "VERSION", None), getattr(found, "DIGEST", None))
    if got != RUNTIME:
        raise ImportError(f"{{__name__}} needs croupier_runtime {{RUNTIME}}, but {{path}} is {{got}}: copy the engines' folder whole")
    sys.modules["croupier_runtime"] = found


_import_runtime()'''


@dataclass(frozen=True)
class Call:
    """One public function or class of a generated module: its name, signature and one-line summary."""

    name: str
    signature: str
    summary: str


def public_calls(code: str) -> list[Call]:
    """The module-level functions and classes of generated code whose names do not start with `_`."""
    out = []
    for node in ast.parse(code).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
            signature = f"{node.name}({ast.unparse(node.args)})" if isinstance(node, ast.FunctionDef) else node.name
            doc = (ast.get_docstring(node) or "").strip().split("\n")[0]
            out.append(Call(node.name, signature, doc))
    return out


def wrapped(lines: list[str]) -> list[str]:
    """Prose lines wrapped to the docstring's width (each made inert by `safe_text`)."""
    out = []
    for line in lines:
        out.extend(textwrap.wrap(safe_text(line), WIDTH, break_on_hyphens=False) if line else [""])
    return out


def assemble(first_line: str, intro: list[str], code: str, api: str = "", trailer: str = "") -> str:
    """A generated module: the `# @generated` line, a docstring of `intro` and of the module's own public
    functions, the imports, the import of the runtime, then `code`: its first paragraph (what it imports of
    the runtime), `__all__` (the API of the runtime's class `api`, then the module's own functions), the rest,
    then `trailer`."""
    calls = public_calls(code)
    own = ", ".join(c.signature for c in calls)
    doc = ['"""' + safe_text(intro[0]), *wrapped([*intro[1:], "", f"Its own functions: {own}."]), '"""']
    names = [literal(n) for n in (c.name for c in calls)]
    # a long name stays whole on its line: a literal broken in two would not compile
    all_lines = textwrap.wrap(", ".join(names), WIDTH - 4, break_on_hyphens=False, break_long_words=False)
    runtime = RUNTIME_IMPORT.format(version=literal(VERSION), digest=literal(bundle_digest()))
    head = [f"# {safe_text(first_line)}", *doc, "", *IMPORTS, "", runtime]
    listed = ["__all__ = [" + (f"*{api}.API, " if api else ""), *("    " + x for x in all_lines), "]"]
    start, rest = code.split("\n\n\n", 1)  # the import of the runtime, then the rest
    return "\n".join(head) + "\n" + start + "\n\n" + "\n".join(listed) + "\n\n\n" + rest.rstrip("\n") + "\n" + (
        f"\n\n{trailer}" if trailer else "")


def undefined_names(source: str) -> set[str]:
    """Names the code reads that nothing in it binds, nor Python's builtins (loosely: a name bound
    anywhere counts as bound everywhere). An engine calling a runtime name it never imports shows here."""
    bound = set(dir(builtins)) | {"__file__", "__name__"}
    read: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Lambda):
            if not isinstance(node, ast.Lambda):
                bound.add(node.name)
            if not isinstance(node, ast.ClassDef):
                a = node.args
                bound.update(x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if x)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return read - bound


def checked_module(build: Callable[[], str], game: Game, what: str) -> str:
    """The source `build()` writes, proven to compile and to read only names it binds. A failure
    anywhere on the way is a compiler bug, reported as internal error E0998 against the spec (never
    the spec's fault), not as a traceback."""
    try:
        source = build()
        compile_engine(source, game.name)
        missing = undefined_names(source)
        if missing:
            raise ValueError(f"it reads names it never defines: {', '.join(sorted(missing))}")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise SpecError([error(
            "E0998", f"internal error: the {what} generated for this spec does not compile ({type(exc).__name__}: "
            f"{getattr(exc, 'msg', exc)})", game.span,
            "this is a bug of croupier, not of the spec; please report it with the spec")],
            {game.path: game.source_text}) from None
    return source
