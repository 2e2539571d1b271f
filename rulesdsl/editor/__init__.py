"""The editor's side: the language server and the live sheet preview (`rulesdsl watch`)."""
