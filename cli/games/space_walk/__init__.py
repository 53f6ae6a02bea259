"""Space Walk's kit (SPEC §34)."""
