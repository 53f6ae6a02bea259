"""Space Trading Race's kit (SPEC §34, Part IV): the engine space_trading_race behind the kit interface."""
