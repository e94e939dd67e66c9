"""`croupier lsp`: the Language Server Protocol server, over standard input and output (pygls).

For spec files (`.rules`): diagnostics as you type (debounced; the quick ones first, then every
static check from a worker thread), hover, go to definition, find references, completion, document
formatting (`croupier fmt`'s output), document symbols and a code action per diagnostic with one fix.
For reference-case files (`.toml` in the project's cases folder): their diagnostics. No request
ever raises out of a handler on a half-typed text: what cannot be read is answered with nothing.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from croupier import __version__
from croupier.diagnostics import Diagnostic, Span, error
from croupier.editor import actions, describe, diagnose
from croupier.editor.index import SpecIndex, cite_at, dependants, read_text, spec_index, uses_in, word_at
from croupier.project import ProjectError

DEBOUNCE = 0.2  # seconds of quiet after a change before the text is compiled
SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "note": lsp.DiagnosticSeverity.Information}
SYMBOLS = {"game": lsp.SymbolKind.Module, "source": lsp.SymbolKind.File, "hand": lsp.SymbolKind.Variable,
           "event": lsp.SymbolKind.Event, "outcome": lsp.SymbolKind.EnumMember, "bet": lsp.SymbolKind.Function,
           "let": lsp.SymbolKind.Constant, "assume": lsp.SymbolKind.String, "class": lsp.SymbolKind.Class,
           "type": lsp.SymbolKind.Struct, "deck": lsp.SymbolKind.Array, "suit": lsp.SymbolKind.Enum,
           "room": lsp.SymbolKind.Object, "settle": lsp.SymbolKind.Method, "joker": lsp.SymbolKind.Key}
EXPRESSION_WORDS = ("when", "and", "or", "not", "is", "outcome", "in", "if", "else", "pays", "to", "including",
                    "stake", "unless")
log = logging.getLogger(__name__)


@dataclass
class SpecState:
    """What the server last made of one open spec: its index (of `text`), and its last game that resolved."""

    index: SpecIndex
    text: str
    resolved: diagnose.Resolved | None = None
    good: diagnose.Resolved | None = None


class CroupierServer(LanguageServer):
    """The language server: documents' states, the debounced compiles and the worker thread for the checks."""

    def __init__(self) -> None:
        super().__init__("croupier", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.states: dict[str, SpecState] = {}
        self.pending: dict[str, asyncio.Task] = {}
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="croupier-checks")

    # ---- documents --------------------------------------------------------------------------------------------
    def open_text(self, path: Path) -> str | None:
        """The text of a file the editor has open, or None."""
        uri = from_fs_path(str(path))
        doc = self.workspace.text_documents.get(uri) if uri else None
        return doc.source if doc is not None else None

    def state(self, uri: str) -> tuple[Path, str, SpecState] | None:
        """(path, text, state) of an open spec, indexing it now when no compile has yet."""
        path = to_fs_path(uri)
        if path is None or not path.endswith(".rules"):
            return None
        text = self.workspace.get_text_document(uri).source
        st = self.states.get(uri)
        if st is None or st.text != text:  # a request before the compile of the latest text: index it now
            index = spec_index(Path(path), text, self.open_text)
            st = self.states.setdefault(uri, SpecState(index, text))
            st.index, st.text = index, text
        return Path(path), text, st

    def schedule(self, uri: str) -> None:
        """Compile the document after a pause in typing (a change within the pause starts it again)."""
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self.compile(uri))

    async def compile(self, uri: str) -> None:
        await asyncio.sleep(DEBOUNCE)
        doc = self.workspace.get_text_document(uri)
        version, path = doc.version, to_fs_path(uri)
        if path is None:
            return
        if path.endswith(".toml"):
            self.publish(uri, version, self.case_diagnostics(Path(path), doc.source))
            return
        if not path.endswith(".rules"):
            return
        text = doc.source
        try:
            resolved = diagnose.resolve_text(Path(path), text)
        except ProjectError as exc:  # the project's configuration is wrong: say so where the spec starts
            self.publish(uri, version, [error("project", str(exc), Span(path, 1, 1))])
            return
        except Exception:  # noqa: BLE001 - a compiler bug on a half-typed text must not stop the server
            log.exception("resolving %s", path)
            return
        index = None
        if resolved.game is not None:
            declared = {s.ident for s in resolved.game.sources}
        else:
            index = spec_index(Path(path), text, self.open_text)
            declared = set(index.sources())
        reported = any(d.code == diagnose.UNDECLARED_CODE for d in resolved.diagnostics)
        extra = [] if reported else diagnose.undeclared_citations(text, resolved.shown, declared)
        self.publish(uri, version, resolved.diagnostics + extra, resolved)
        if index is None:
            index = spec_index(Path(path), text, self.open_text)
        st = self.states.setdefault(uri, SpecState(index, text))
        st.index, st.text, st.resolved = index, text, resolved
        if resolved.ok:
            st.good = resolved
        if not resolved.ok:
            return
        checks = await asyncio.get_running_loop().run_in_executor(self.worker, diagnose.full_checks, resolved)
        if self.workspace.get_text_document(uri).version == version:
            self.publish(uri, version, resolved.diagnostics + checks + extra, resolved)

    def case_diagnostics(self, path: Path, text: str) -> list[Diagnostic]:
        from croupier.project import project_of

        project = project_of(path)
        if project is None or project.cases_dir.resolve() != path.parent.resolve():
            return []
        return diagnose.case_file_diagnostics(path, text)

    def publish(self, uri: str, version: int | None, diags: list[Diagnostic],
                resolved: diagnose.Resolved | None = None) -> None:
        own = resolved.shown if resolved is not None else None
        root = resolved.project.root if resolved is not None and resolved.project is not None else None
        out = [to_lsp(d, own, root) for d in diags]
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=out,
                                                                            version=version))


def to_range(line: int, column: int, end_line: int, end_column: int) -> lsp.Range:
    return lsp.Range(start=lsp.Position(line=max(0, line - 1), character=max(0, column - 1)),
                     end=lsp.Position(line=max(0, end_line - 1), character=max(0, end_column - 1)))


def to_lsp(d: Diagnostic, own: str | None, root: Path | None) -> lsp.Diagnostic:
    """A compiler diagnostic as the LSP's: its range, code, message with its hint and notes; one in another file
    (a base) is shown on the first line, with its place as related information."""
    s = d.span
    rng = to_range(s.line, s.column, s.end_line, s.end_column)
    related = None
    if own is not None and s.file != own:
        where = Path(s.file) if root is None or Path(s.file).is_absolute() else root / s.file
        related = [lsp.DiagnosticRelatedInformation(
            location=lsp.Location(uri=from_fs_path(str(where)) or str(where), range=rng), message=d.message)]
        rng = to_range(1, 1, 1, 2)
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "") + "".join(f"\nnote: {n}" for n in d.notes)
    fix = actions.fix_data(d) if related is None else None
    return lsp.Diagnostic(range=rng, message=message, severity=SEVERITY.get(d.severity), code=d.code,
                          source="croupier", related_information=related, data=fix)


def make_server() -> CroupierServer:
    """The server with every feature registered."""
    server = CroupierServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CroupierServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CroupierServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: CroupierServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CroupierServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.states.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: CroupierServer, params: lsp.HoverParams) -> lsp.Hover | None:
        found = ls.state(params.text_document.uri)
        if found is None:
            return None
        path, text, st = found
        line = line_of(text, params.position.line)
        cite = cite_at(line, params.position.character)
        word = word_at(line, params.position.character) if cite is None else None
        name = cite[0] if cite is not None else word[0] if word is not None else None
        d = st.index.find(name, "source" if cite is not None else None) if name else None
        if d is None:
            return None
        good = st.good
        parts = [describe.declaration(d, shown_of(d.place.file, good))]
        if good is not None:
            lang = good.languages[0]
            parts += describe.sentences_for(good.game, d, lang)
            if d.kind == "bet":
                edge = await asyncio.get_running_loop().run_in_executor(ls.worker, describe.house_edge,
                                                                        good.game, d.name)
                parts += [edge] if edge else []
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n\n".join(parts)))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: CroupierServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        d = definition_at(ls, params.text_document.uri, params.position)
        return None if d is None else location(d.place)

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(ls: CroupierServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        d = definition_at(ls, params.text_document.uri, params.position)
        if d is None:
            return []
        out = []
        for spec in dependants(d.place.file.parent, d.place.file, ls.open_text):
            text = read_text(spec, ls.open_text) or ""
            for place in uses_in(text, spec, d.name, d.kind == "source"):
                if params.context.include_declaration or place != d.place:
                    out.append(location(place))
        return out

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["[", " "]))
    def completion(ls: CroupierServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        found = ls.state(params.text_document.uri)
        if found is None:
            return lsp.CompletionList(is_incomplete=False, items=[])
        _path, text, st = found
        before = line_of(text, params.position.line)[:params.position.character]
        return lsp.CompletionList(is_incomplete=False, items=completions(st, before))

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: CroupierServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        from croupier.syntax.formatter import FormatError, format_text

        doc = ls.workspace.get_text_document(params.text_document.uri)
        try:
            result, _diags = format_text(doc.source, doc.path)
        except FormatError:
            return []
        if result is None or result == doc.source:
            return []
        end = len(doc.lines)
        return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0),
                                             end=lsp.Position(line=end, character=0)), new_text=result)]

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: CroupierServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        found = ls.state(params.text_document.uri)
        if found is None:
            return []
        path, text, st = found
        lines = text.splitlines()
        out = []
        for d in st.index.definitions:
            if d.place.file != path:
                continue
            p = d.place
            whole = to_range(p.line, 1, p.line, len(lines[p.line - 1]) + 1 if p.line <= len(lines) else 1)
            out.append(lsp.DocumentSymbol(name=d.name, kind=SYMBOLS.get(d.kind, lsp.SymbolKind.Variable),
                                          detail=d.kind, range=whole,
                                          selection_range=to_range(p.line, p.column, p.line, p.end_column)))
        return out

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_actions(ls: CroupierServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        doc = ls.workspace.get_text_document(uri)
        out = []
        for diag in params.context.diagnostics:
            data = diag.data if isinstance(diag.data, dict) else None
            if not data or "title" not in data:
                continue
            if "insert" in data:
                at = lsp.Position(line=actions.source_line_at(doc.source), character=0)
                edit = lsp.TextEdit(range=lsp.Range(start=at, end=at), new_text=str(data["insert"]))
            elif "replace" in data:
                edit = lsp.TextEdit(range=diag.range, new_text=str(data["replace"]))
            else:
                continue
            out.append(lsp.CodeAction(title=str(data["title"]), kind=lsp.CodeActionKind.QuickFix,
                                      diagnostics=[diag], is_preferred=True,
                                      edit=lsp.WorkspaceEdit(changes={uri: [edit]})))
        return out

    return server


def line_of(text: str, line: int) -> str:
    lines = text.splitlines()
    return lines[line] if 0 <= line < len(lines) else ""


def shown_of(path: Path, resolved: diagnose.Resolved | None) -> str:
    root = resolved.project.root if resolved is not None and resolved.project is not None else None
    try:
        return str(path.relative_to(root)) if root is not None else path.name
    except ValueError:
        return str(path)


def location(place) -> lsp.Location:
    return lsp.Location(uri=from_fs_path(str(place.file)) or str(place.file),
                        range=to_range(place.line, place.column, place.line, place.end_column))


def definition_at(ls: CroupierServer, uri: str, pos: lsp.Position):
    """The declaration of the name or citation under a position, or None."""
    found = ls.state(uri)
    if found is None:
        return None
    _path, text, st = found
    line = line_of(text, pos.line)
    cite = cite_at(line, pos.character)
    if cite is not None:
        return st.index.find(cite[0], "source")
    word = word_at(line, pos.character)
    return st.index.find(word[0]) if word is not None else None


def completions(st: SpecState, before: str) -> list[lsp.CompletionItem]:
    """Keywords where a statement starts; source ids in a citation; else the names in scope, the functions and the
    words of expressions."""
    from croupier.editor.highlight import keywords

    stripped = before.strip()
    if "[" in before and "]" not in before[before.rfind("["):]:
        return [lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Reference, detail="source")
                for name in st.index.sources()]
    if not stripped or " " not in stripped and not before.startswith((" ", "\t")):
        return [lsp.CompletionItem(label=k, kind=lsp.CompletionItemKind.Keyword) for k in keywords()]
    items = [lsp.CompletionItem(label=d.name, kind=lsp.CompletionItemKind.Variable, detail=d.kind)
             for d in st.index.names() if d.kind != "game"]
    if st.good is not None:
        from croupier.semantics.game_scopes import card_funcs

        try:
            funcs = sorted(card_funcs(st.good.game))
        except Exception:  # noqa: BLE001 - a game of another kind has other functions: offer none
            funcs = []
        items += [lsp.CompletionItem(label=f, kind=lsp.CompletionItemKind.Function) for f in funcs]
    items += [lsp.CompletionItem(label=w, kind=lsp.CompletionItemKind.Keyword) for w in EXPRESSION_WORDS]
    return items


def serve_stdio() -> None:
    """Run the server on standard input and output until the client exits."""
    make_server().start_io()
