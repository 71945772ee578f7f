"""Bad arrays raise a clear exception and answer nothing."""

import threading
import time

import numpy as np
import pytest

import exact_collision as ec

T = np.array([[[0.0, 0, 0], [1, 0, 0], [0, 1, 0]]] * 3)
B = np.array([[[0.0, 0, 0], [0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5]]] * 3)
ALL = [
    (ec.intersect_triangles, T),
    (ec.distance_triangles, T),
    (ec.intersect_boxes, B),
    (ec.distance_boxes, B),
    (ec.ccd_vf, B),
    (ec.ccd_ee, B),
]


@pytest.mark.parametrize("fn,x", ALL)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_names_row_and_field(fn, x, bad):
    y = x.copy()
    y[2, 1, 0] = bad
    first = "t0" if fn in (ec.ccd_vf, ec.ccd_ee) else "a"
    second = "t1" if fn in (ec.ccd_vf, ec.ccd_ee) else "b"
    with pytest.raises(ValueError, match=rf"row 2: {second}\[2, 1, 0\] is (NaN|inf|-inf)"):
        fn(x, y)
    with pytest.raises(ValueError, match=rf"row 2: {first}\[2, 1, 0\]"):
        fn(y, x)


@pytest.mark.parametrize("fn,x", ALL)
def test_wrong_shape(fn, x):
    with pytest.raises(ValueError, match=r"expected shape \(n, \d, 3\), got \[3, \d, 2\]"):
        fn(x[:, :, :2], x)
    with pytest.raises(ValueError, match="expected shape"):
        fn(x[0], x[0])
    with pytest.raises(ValueError, match="has 3 rows but .* has 2"):
        fn(x, x[:2])


@pytest.mark.parametrize("fn,x", ALL)
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.longdouble, np.complex128, object])
def test_wrong_dtype(fn, x, dtype):
    with pytest.raises(TypeError, match="dtype .* is not supported"):
        fn(x.astype(dtype), x)


@pytest.mark.parametrize("fn,x", ALL)
def test_not_an_array(fn, x):
    with pytest.raises(TypeError, match="expected a numpy.ndarray"):
        fn(x.tolist(), x)


def test_degenerate_box_raises_naming_row():
    b = B.copy()
    b[1, 3] = [0.0, 0.0, 0.0]  # h2 = 0: no volume
    with pytest.raises(ec.QueryError, match=r"row 1: b\.half_axes\[2\]: zero half-axis"):
        ec.intersect_boxes(B, b)
    b = B.copy()
    b[2, 3] = b[2, 1] + b[2, 2]  # dependent half-axes
    with pytest.raises(ec.QueryError, match=r"row 2: a\.half_axes: linearly dependent"):
        ec.distance_boxes(b, B)


def test_bad_options():
    with pytest.raises(ValueError, match="tolerance: must be positive"):
        ec.ccd_vf(B, B, tolerance="0")
    with pytest.raises(ValueError, match="tolerance"):
        ec.ccd_vf(B, B, tolerance="abc")
    with pytest.raises(ValueError, match="threads"):
        ec.intersect_triangles(T, T, threads=0)
    with pytest.raises(TypeError, match=r"lines\[1\]: expected str or bytes"):
        ec.answer_lines(["{}", 5])


def test_gil_released_during_batch():
    """Another Python thread runs while a batch is answered."""
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (20000, 3, 3))
    b = rng.uniform(-1, 1, (20000, 3, 3))
    started, done = threading.Event(), threading.Event()
    spans = {}

    def work():
        started.set()
        t = time.perf_counter()
        ec.distance_triangles(a, b, threads=1)
        spans["batch"] = (t, time.perf_counter())
        done.set()

    th = threading.Thread(target=work)
    th.start()
    started.wait()
    ticks = []
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    th.join()
    t0, t1 = spans["batch"]
    inside = [t for t in ticks if t0 + 0.02 < t < t1 - 0.02]
    assert t1 - t0 > 0.1  # long enough to tell
    assert len(inside) > 10
