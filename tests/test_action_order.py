"""The engine's actions order as dataclass(order=True) would order them (p2p_asv/actions.py
writes the four comparisons once for all its classes, to keep the verifier's start-up short)."""
import dataclasses as dc

import pytest

from p2p_asv import actions as A


def test_actions_order_as_dataclass_order_would():
    classes = [getattr(A, name) for name in A.__all__
               if isinstance(getattr(A, name), type) and dc.is_dataclass(getattr(A, name))]
    assert len(classes) >= 39
    for cls in classes:
        for op in ("__lt__", "__le__", "__gt__", "__ge__"):
            assert getattr(cls, op) is not getattr(object, op), (cls, op)
    a, b, c = A.Move(1, (2, 3)), A.Move(1, (2, 4)), A.Move(0, (9, 9))
    key = lambda m: tuple(getattr(m, f.name) for f in dc.fields(m))   # noqa: E731
    assert sorted([a, b, c]) == sorted([a, b, c], key=key) == [c, a, b]
    assert (a < b, a <= a, b > a, a >= b) == (True, True, True, False)
    assert A.Pass() <= A.Pass() and not A.Pass() < A.Pass()
    with pytest.raises(TypeError):
        _ = A.Move(0, (0, 0)) < A.Pass()
    assert hash(A.Move(1, (2, 3))) == hash(a) and A.Move(1, (2, 3)) == a
