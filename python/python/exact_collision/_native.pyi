"""Type stubs of the native module (re-exported by ``exact_collision``)."""

from typing import Iterable, Literal, Optional, TypedDict, Union, overload

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.floating]
"""float64 (or float32, widened exactly); other dtypes raise TypeError."""

Exact3 = tuple[str, str, str]

class QueryError(ValueError):
    """A batch row the library cannot answer; the message names the row and field."""

def answer(line: str, line_no: int = 1) -> str:
    """One protocol line answered, as ``exact-collision query`` prints it."""

def answer_lines(
    lines: Iterable[Union[str, bytes]],
    *,
    first_line: int = 1,
    threads: Optional[int] = None,
) -> list[str]:
    """Many protocol lines answered on all cores, in order, one answer each."""

@overload
def intersect_triangles(
    a: FloatArray, b: FloatArray, *, certificates: Literal[False] = False, threads: Optional[int] = None
) -> npt.NDArray[np.bool_]: ...
@overload
def intersect_triangles(
    a: FloatArray, b: FloatArray, *, certificates: Literal[True], threads: Optional[int] = None
) -> tuple[npt.NDArray[np.bool_], list[Exact3]]: ...
@overload
def intersect_boxes(
    a: FloatArray, b: FloatArray, *, certificates: Literal[False] = False, threads: Optional[int] = None
) -> npt.NDArray[np.bool_]: ...
@overload
def intersect_boxes(
    a: FloatArray, b: FloatArray, *, certificates: Literal[True], threads: Optional[int] = None
) -> tuple[npt.NDArray[np.bool_], list[Exact3]]: ...

class Distances(TypedDict):
    distance_squared: list[str]
    """Exact squared distances, lowest-terms strings."""
    distance_squared_f64: npt.NDArray[np.float64]
    distance_f64: npt.NDArray[np.float64]
    closest_a: npt.NDArray[np.float64]
    """(n, 3): the closest point of a, rounded to nearest."""
    closest_b: npt.NDArray[np.float64]

def distance_triangles(a: FloatArray, b: FloatArray, *, threads: Optional[int] = None) -> Distances: ...
def distance_boxes(a: FloatArray, b: FloatArray, *, threads: Optional[int] = None) -> Distances: ...

class RoundedDistances(TypedDict):
    intersect: npt.NDArray[np.bool_]
    distance_f64: npt.NDArray[np.float64]
    distance_sqrt: list[str]
    """q: the distance is max(0, sqrt(q) - R), exactly."""
    distance_minus: list[str]
    """R, the sum of the radii."""
    core_closest_a: npt.NDArray[np.float64]
    core_closest_b: npt.NDArray[np.float64]

def distance_capsules(
    a: FloatArray, ra: FloatArray, b: FloatArray, rb: FloatArray, *, threads: Optional[int] = None
) -> RoundedDistances: ...
def distance_spheres(
    ca: FloatArray, ra: FloatArray, cb: FloatArray, rb: FloatArray, *, threads: Optional[int] = None
) -> RoundedDistances: ...

class RoundedCertificate(TypedDict, total=False):
    """One row's certificate, as the protocol's intersect answer has it."""

    witness: Exact3
    """A point in both shapes (the row meets)."""
    core_closest: tuple[Exact3, Exact3]
    """The cores' closest pair (the row is apart: q > R^2)."""
    core_distance_squared: str
    """q, the cores' exact squared distance."""
    radius: str
    """R, the exact sum of the radii."""

@overload
def intersect_capsules(
    a: FloatArray,
    ra: FloatArray,
    b: FloatArray,
    rb: FloatArray,
    *,
    certificates: Literal[False] = False,
    threads: Optional[int] = None,
) -> npt.NDArray[np.bool_]: ...
@overload
def intersect_capsules(
    a: FloatArray,
    ra: FloatArray,
    b: FloatArray,
    rb: FloatArray,
    *,
    certificates: Literal[True],
    threads: Optional[int] = None,
) -> tuple[npt.NDArray[np.bool_], list[RoundedCertificate]]: ...
@overload
def intersect_spheres(
    ca: FloatArray,
    ra: FloatArray,
    cb: FloatArray,
    rb: FloatArray,
    *,
    certificates: Literal[False] = False,
    threads: Optional[int] = None,
) -> npt.NDArray[np.bool_]: ...
@overload
def intersect_spheres(
    ca: FloatArray,
    ra: FloatArray,
    cb: FloatArray,
    rb: FloatArray,
    *,
    certificates: Literal[True],
    threads: Optional[int] = None,
) -> tuple[npt.NDArray[np.bool_], list[RoundedCertificate]]: ...

class Times(TypedDict, total=False):
    hit: npt.NDArray[np.bool_]
    start: npt.NDArray[np.bool_]
    toi: npt.NDArray[np.float64]
    toi_lo: npt.NDArray[np.float64]
    """Rounded down: toi_lo <= the exact first time of contact (NaN on a miss)."""
    toi_hi: npt.NDArray[np.float64]
    """Rounded up: the exact first time <= toi_hi (NaN on a miss)."""
    toi_lo_exact: list[Optional[str]]
    toi_hi_exact: list[Optional[str]]

def ccd_vf(
    t0: FloatArray,
    t1: FloatArray,
    *,
    exact: bool = False,
    tolerance: Optional[str] = None,
    threads: Optional[int] = None,
    min_distance: Optional[Union[float, str]] = None,
) -> Times: ...
def ccd_ee(
    t0: FloatArray,
    t1: FloatArray,
    *,
    exact: bool = False,
    tolerance: Optional[str] = None,
    threads: Optional[int] = None,
    min_distance: Optional[Union[float, str]] = None,
) -> Times: ...
