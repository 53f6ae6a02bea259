"""Amazing Space Venture's kit (SPEC §34)."""
