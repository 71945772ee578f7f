"""Read the CCD benchmark's query files (the 7-column CSV of Wang, Ferguson,
Schneider, Panozzo et al.'s CCD benchmark; see shared/ccd-benchmark/FORMAT.md).

Every query is 8 rows ``x_num,x_den,y_num,y_den,z_num,z_den,truth``: the four
points at t = 0, then at t = 1 (vertex-face: v, f0, f1, f2; edge-edge: a0, a1,
b0, b1). The rationals are read exactly and turned into doubles; ``exact``
says whether every one of them was a double (then the arrays *are* the query).

>>> import io, exact_collision.ccd_csv as cc
>>> rows = ["1,2,0,1,1,1,1", "0,1,0,1,0,1,1", "1,1,0,1,0,1,1", "0,1,1,1,0,1,1",
...         "1,2,0,1,-1,1,1", "0,1,0,1,0,1,1", "1,1,0,1,0,1,1", "0,1,1,1,0,1,1"]
>>> q = cc.read(io.StringIO("\\n".join(rows)))
>>> q.t0.shape, q.truth.tolist(), q.exact
((1, 4, 3), [True], True)
"""

from fractions import Fraction
from typing import NamedTuple

import numpy as np


class Queries(NamedTuple):
    t0: np.ndarray
    """(n, 4, 3) float64: the points at t = 0."""
    t1: np.ndarray
    """(n, 4, 3) float64: the points at t = 1."""
    truth: np.ndarray
    """(n,) bool: the file's ground-truth column."""
    exact: bool
    """Whether every rational of the file is a double exactly."""


def read(path_or_file) -> Queries:
    """The queries of one CSV file (a path or an open text file)."""
    f = open(path_or_file) if not hasattr(path_or_file, "read") else path_or_file
    try:
        vals, truth, exact = [], [], True
        for k, line in enumerate(f):
            line = line.strip()
            if not line:
                continue
            c = line.split(",")
            if len(c) != 7:
                raise ValueError(f"line {k + 1}: expected 7 columns, got {len(c)}")
            for j in range(3):
                r = Fraction(int(c[2 * j]), int(c[2 * j + 1]))
                d = float(r)
                exact = exact and Fraction(d) == r
                vals.append(d)
            if len(vals) % 24 == 3:
                truth.append(c[6].strip() == "1")
    finally:
        if f is not path_or_file:
            f.close()
    if len(vals) % 24:
        raise ValueError("the number of rows is not a multiple of 8")
    v = np.array(vals, dtype=np.float64).reshape(-1, 8, 3)
    return Queries(v[:, :4].copy(), v[:, 4:].copy(), np.array(truth, dtype=bool), exact)
