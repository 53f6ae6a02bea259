"""The conformance suite: every registered game through the same checks (SPEC §35.1)."""
