"""Network play for every game (SPEC §29, §32, §34.2): the host and join flows, the REPL seat's
driver over a Node, invites, progress lines, the LAN, the peer book and coming back."""
