"""The test suite as a package, so every helper is imported one way, `from tests.x import ...`
(SPEC §35.5), as one module object, from the repo root or any clone."""
