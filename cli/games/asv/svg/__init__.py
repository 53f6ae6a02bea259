"""Amazing Space Venture's board picture (SPEC §31.7): the board, its pieces and the panel."""
