"""The `asv` command and the REPL: text in, actions out; no rules live here."""
