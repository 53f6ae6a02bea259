"""Game-agnostic protocol: identities, canonical codec, signed event log, commit-reveal,
mental-poker decks, transport and the lockstep session. Knows nothing of tiles or planets."""
