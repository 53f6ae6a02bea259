"""Game-agnostic protocol: identities, canonical codec, signed event log, commit-reveal,
mental-poker decks, transport and the lockstep session. Knows nothing of tiles or planets.

Layers (SPEC §1.1; imports run only downwards, checked by tests/test_layers.py):

    node                                  a networked peer: joins a session to the mesh
    session   |  net (framing, handshake, mesh)      the game replica; the TCP transport
    poker     |  log (events, logfile)               mental-poker decks; the signed log
    crypto                                group, proofs, commit-reveal, identities
    errors, codec, fingerprint            the base
"""
