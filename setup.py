"""The one thing pyproject.toml cannot say plainly: the optional native extension (SPEC §25.13).

``protocol.crypto._ristretto_native`` is ristretto255 multi-scalar multiplication in C. It is
optional: if it fails to compile (no compiler, no Python headers) the install goes on and
``protocol.crypto.msm`` uses its pure path, which gives the same answers, slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "protocol.crypto._ristretto_native",
            sources=["protocol/crypto/_ristretto_native.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
            optional=True,
        )
    ]
)
