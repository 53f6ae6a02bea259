"""The games under test (SPEC §35.1): the registry's kits, `cli.games.all_kits`."""
from cli.games import all_kits

__all__ = ["all_kits"]
