"""The `asv` subcommands, one module each (SPEC §34.2): `add_arguments(parser)` and `run(args)`,
registered by name in cli.main.COMMANDS."""
