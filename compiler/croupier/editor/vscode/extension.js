// Starts `croupier lsp` (or the command set in `croupier.command`) for spec files and reference-case files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("croupier").get("command");
  client = new LanguageClient("croupier", "Croupier", { command, args }, {
    documentSelector: [
      { scheme: "file", language: "croupier" },
      { scheme: "file", pattern: "**/tests/cases/*.toml" },
    ],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
