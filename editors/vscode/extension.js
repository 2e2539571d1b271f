// Starts `rulesdsl lsp` (stdio) for .terrain files and YAML rulesets.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulesdsl").get("command");
  const server = { command, args: [...args, "lsp"] };
  client = new LanguageClient(
    "rulesdsl",
    "rulesdsl language server",
    { run: server, debug: server },
    {
      documentSelector: [
        { scheme: "file", language: "terrain" },
        { scheme: "file", language: "yaml", pattern: "**/rulesets/*.{yaml,yml}" },
        { scheme: "file", language: "yaml", pattern: "**/*.ruleset.{yaml,yml}" },
      ],
      // A base changed on the disk (saved elsewhere, a git checkout): open variants recheck.
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{terrain,yaml,yml}"),
      },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
