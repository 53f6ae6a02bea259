"""The REPL seat, one for every game (SPEC §31, §34.2): the line-by-line loop (`loop`), the
live loop of a networked seat (`live`) and the local driver against bots (`local`)."""
