"""The SVG picture's document and the glyphs every game's picture shares (SPEC §31.7)."""
