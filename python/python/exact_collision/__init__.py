"""Collision queries answered exactly, with certificates.

Two faces of the same library (the Rust crate ``exact-collision``):

* the JSON Lines protocol: :func:`answer` and :func:`answer_lines` take query
  lines and return the answers the program ``exact-collision query`` prints;
* NumPy batches over arrays of doubles, each row decided exactly and answered
  on all cores with the GIL released: :func:`intersect_triangles`,
  :func:`intersect_boxes`, :func:`distance_triangles`, :func:`distance_boxes`,
  :func:`distance_capsules`, :func:`distance_spheres`, :func:`intersect_capsules`,
  :func:`intersect_spheres`, :func:`ccd_vf`, :func:`ccd_ee`.

A double is taken as its exact binary value (``0.1`` is
0.1000000000000000055511151231257827...). Exact results are strings in lowest
terms (``"3/7"``); their ``*_f64`` companions are the nearest doubles.

>>> import numpy as np, exact_collision as ec
>>> t = np.array([[[0, 0, 0], [1, 0, 0], [0, 1, 0]]], dtype=float)
>>> ec.intersect_triangles(t, t + [0.5, 0.5, 0]).tolist()  # touching at (0.5, 0.5, 0)
[True]
"""

from ._native import (
    QueryError,
    answer,
    answer_lines,
    ccd_ee,
    ccd_vf,
    distance_boxes,
    distance_capsules,
    distance_spheres,
    distance_triangles,
    intersect_boxes,
    intersect_capsules,
    intersect_spheres,
    intersect_triangles,
)

__all__ = [
    "QueryError",
    "answer",
    "answer_lines",
    "ccd_ee",
    "ccd_vf",
    "distance_boxes",
    "distance_capsules",
    "distance_spheres",
    "distance_triangles",
    "intersect_boxes",
    "intersect_capsules",
    "intersect_spheres",
    "intersect_triangles",
]
