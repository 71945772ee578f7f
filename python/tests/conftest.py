import json
from fractions import Fraction

import numpy as np
import pytest

import exact_collision as ec


def tri_shape(t):
    return {"type": "triangle", "v": [[float(c) for c in p] for p in t]}


def box_shape(b):
    return {
        "type": "box",
        "center": [float(c) for c in b[0]],
        "half_axes": [[float(c) for c in p] for p in b[1:]],
    }


def protocol(op, a, b, shape):
    """The protocol's answers for the same rows (json writes a float as its repr,
    which reads back as the same double)."""
    lines = [
        json.dumps({"id": i, "op": op, "a": shape(x), "b": shape(y)})
        for i, (x, y) in enumerate(zip(a, b))
    ]
    return [json.loads(s) for s in ec.answer_lines(lines)]


def protocol_ccd(op, t0, t1):
    lines = [
        json.dumps(
            {"id": i, "op": op, "t0": [[float(c) for c in p] for p in x], "t1": [[float(c) for c in p] for p in y]}
        )
        for i, (x, y) in enumerate(zip(t0, t1))
    ]
    return [json.loads(s) for s in ec.answer_lines(lines)]


def nearest(s):
    """The double nearest to an exact string (Python rounds Fraction correctly)."""
    return float(Fraction(s))


@pytest.fixture
def rng():
    return np.random.default_rng(20261124)
