"""`croupier lsp` end to end, as an editor uses it: pytest-lsp starts the server in a child process and talks
to it over a pipe (diagnostics as you type, hover, definitions, references, completion, formatting, symbols,
code actions). One server for the module, on a small project in a temporary folder (a base and a variant)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

COMPILER = Path(__file__).resolve().parents[1] / "compiler"
BASE = Path(__file__).parent / "errors" / "base_ok.rules"
VARIANT = '''game v extends g "V" zh-Hans "V" zh-Hant "V"
source "S1" "The house rules"
let margin "Margin" zh-Hans "M" zh-Hant "M" = total(p) - total(b)  [S1 §2]
bet big "Big" zh-Hans "B" zh-Hant "B"
    wins when outcome is pw and margin >= 5, pays 2 to 1  [S1]
'''
pytestmark = pytest.mark.asyncio(loop_scope="module")


def at(line: int, word: str, into: int = 1) -> lsp.Position:
    """The position `into` characters into the first `word` of a line of VARIANT."""
    return lsp.Position(line=line, character=VARIANT.splitlines()[line].index(word) + into)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp")
    (root / "croupier.toml").write_text('spec = "spec"\ncases = "cases"\n', encoding="utf-8")
    (root / "cases").mkdir()
    (root / "spec").mkdir()
    (root / "spec" / "g.rules").write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "spec" / "v.rules").write_text(VARIANT, encoding="utf-8")
    return root


ENV = {**os.environ, "PYTHONPATH": str(COMPILER), "CROUPIER_CACHE": "off"}


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-c", "from croupier.cli.main import run; run()", "lsp"], server_env=ENV))
async def client(lsp_client: LanguageClient, project: Path):
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=project.as_uri()))
    yield
    await lsp_client.shutdown_session()


def uri(project: Path, name: str) -> str:
    return (project / "spec" / name).as_uri()


async def open_spec(client: LanguageClient, project: Path, name: str, text: str | None = None) -> str:
    u = uri(project, name)
    text = text if text is not None else (project / "spec" / name).read_text(encoding="utf-8")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=u, language_id="croupier", version=1, text=text)))
    return u


async def diagnostics_of(client: LanguageClient, u: str, want, seconds: float = 30) -> list[lsp.Diagnostic]:
    """Wait (bounded) until the diagnostics last published for `u` satisfy `want`."""
    for _ in range(int(seconds / 0.05)):
        diags = client.diagnostics.get(u)
        if diags is not None and want(diags):
            return list(diags)
        await asyncio.sleep(0.05)
    raise AssertionError(f"no diagnostics as wanted for {u}: {client.diagnostics.get(u)}")


async def test_diagnostics_as_you_type(client: LanguageClient, project: Path):
    u = await open_spec(client, project, "v.rules")
    await diagnostics_of(client, u, lambda d: len(d) == 0)
    # half typed: an unknown name, then a broken line; each change replaces the whole text
    typed = VARIANT.replace("margin >= 5", "margn >= 5")
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=typed)]))
    diags = await diagnostics_of(client, u, lambda d: any(x.code == "E0101" for x in d))
    d = next(x for x in diags if x.code == "E0101")
    assert d.range.start == at(4, "margin", 0) and "hint:" in d.message
    assert d.severity == lsp.DiagnosticSeverity.Error and d.source == "croupier"
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=u, version=3),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=VARIANT + "bet half \"H\n    wins wh")]))
    diags = await diagnostics_of(client, u, lambda d: any(x.code == "E0001" for x in d))
    assert all(x.range.start.line >= 5 for x in diags if x.code == "E0001")
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=u, version=4),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=VARIANT)]))
    await diagnostics_of(client, u, lambda d: len(d) == 0)


async def test_hover_definition_references(client: LanguageClient, project: Path):
    u = await open_spec(client, project, "v.rules")
    await diagnostics_of(client, u, lambda d: len(d) == 0)
    # on a name declared in the base: its line there, and the card's sentence for it
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), position=at(4, "pw")))
    assert "outcome" in hover.contents.value and "when total(p) > total(b)" in hover.contents.value
    # on a bet: its payout and exact house edge
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), position=at(3, "big")))
    assert "House edge (1 decks): " in hover.contents.value and "2 to 1" in hover.contents.value
    # on a citation: the source's description
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), position=at(2, "S1")))
    assert "The house rules" in hover.contents.value
    # definition through `extends`, and of a let
    loc = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), position=at(0, " g ")))
    assert loc.uri == uri(project, "g.rules") and loc.range.start.line == 1
    loc = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), position=at(4, "margin", 2)))
    assert loc.uri == u and loc.range.start == lsp.Position(line=2, character=4)
    # references of the base's outcome `pw`: in the base and in the variant
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), position=at(4, "pw"),
        context=lsp.ReferenceContext(include_declaration=True)))
    assert {(r.uri.rsplit("/", 1)[1], r.range.start.line) for r in refs} == {("g.rules", 11), ("g.rules", 15),
                                                                            ("v.rules", 4)}


async def test_completion_symbols_formatting(client: LanguageClient, project: Path):
    u = await open_spec(client, project, "v.rules")
    items = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), position=at(4, "outcome", 0)))
    labels = {i.label for i in items.items}
    assert {"margin", "pw", "p", "total"} <= labels
    items = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), position=lsp.Position(line=1, character=0)))
    assert {"bet", "event", "override", "source"} <= {i.label for i in items.items}
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=lsp.TextDocumentIdentifier(uri=u)))
    assert [(s.name, s.detail) for s in symbols] == [("v", "game"), ("S1", "source"), ("margin", "let"),
                                                     ("big", "bet")]
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), options=lsp.FormattingOptions(tab_size=4, insert_spaces=True)))
    from croupier.syntax.formatter import format_text

    assert edits and edits[0].new_text == format_text(VARIANT, "v.rules")[0]


async def test_code_action_declares_a_missing_source(client: LanguageClient, project: Path):
    text = VARIANT.replace("[S1]", "[S2 §4]")
    u = await open_spec(client, project, "v.rules", text)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=u, version=5),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    diags = await diagnostics_of(client, u, lambda d: any("S2" in x.message for x in d))
    d = next(x for x in diags if "S2" in x.message)
    acts = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=u), range=d.range, context=lsp.CodeActionContext(diagnostics=[d])))
    assert len(acts) == 1
    edit = acts[0].edit.changes[u][0]
    assert edit.range.start.line == 2 and edit.new_text.startswith('source "S2" ')


async def test_reference_case_file_diagnostics(client: LanguageClient, project: Path):
    u = (project / "cases" / "v.toml").as_uri()
    text = '[[case]]\nid = "v-1"\nsource = "S1"\ninput = { cards = ["KS"] }\nexpect = { \n'
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=u, language_id="toml", version=1, text=text)))
    diags = await diagnostics_of(client, u, lambda d: len(d) > 0)
    assert [(d.code, d.range.start.line) for d in diags] == [("E0900", 4)]
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text='[[case]]\nid = "v-1"\n')]))
    diags = await diagnostics_of(client, u, lambda d: any(x.code == "E0902" for x in d))
    assert "lacks source, input, expect" in diags[0].message
