//! The float guess of the closest features: the Gilbert–Johnson–Keerthi
//! distance algorithm on the vertex sets (E. G. Gilbert, D. W. Johnson, S. S.
//! Keerthi, *A fast procedure for computing the distance between complex
//! objects in three-dimensional space*, IEEE J. Robotics and Automation 4(2),
//! 1988), with the sub-simplex search by Voronoi regions (C. Ericson,
//! *Real-Time Collision Detection*, Morgan Kaufmann 2004, §5.1 and §9.5).
//!
//! Nothing here decides anything: the result is a guess of which vertices of
//! each shape span the closest features, and the exact proof that follows
//! accepts it or hands the query to the exhaustive path.

type P = [f64; 3];

#[inline(always)]
fn sub(a: &P, b: &P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline(always)]
fn dot(a: &P, b: &P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline(always)]
fn cross(a: &P, b: &P) -> P {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
#[inline(always)]
fn axpy(a: &P, t: f64, d: &P) -> P {
    [a[0] + t * d[0], a[1] + t * d[1], a[2] + t * d[2]]
}

/// The outcome of the guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guess {
    /// Apart: bit masks of the vertices of a and of b that span the closest
    /// features (the final simplex's support points with positive weight).
    Apart(u8, u8),
    /// The shapes (nearly) touch or overlap.
    Near,
}

/// A simplex point: the vertex numbers in a and b and `a_i − b_j`.
#[derive(Clone, Copy)]
struct Pt {
    i: u32,
    j: u32,
    w: P,
}

/// The closest point to the origin of the simplex `s` (1 to 4 points),
/// reducing `s` to the points with positive weight; `None` when the origin
/// is inside a tetrahedron.
fn closest(s: &mut [Pt; 4], n: &mut usize) -> Option<P> {
    match *n {
        1 => Some(s[0].w),
        2 => {
            let (a, b) = (s[0].w, s[1].w);
            let ab = sub(&b, &a);
            let t = -dot(&a, &ab);
            if t <= 0.0 {
                *n = 1;
                return Some(a);
            }
            let den = dot(&ab, &ab);
            if t >= den {
                s[0] = s[1];
                *n = 1;
                return Some(b);
            }
            Some(axpy(&a, t / den, &ab))
        }
        3 => Some(triangle(s, n)),
        _ => {
            // Faces (0,1,2), (0,2,3), (0,3,1), (1,3,2): test those the origin
            // is outside of, keep the nearest.
            let faces = [[0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2], [1, 3, 2, 0]];
            let mut best: Option<(f64, [Pt; 4], usize, P)> = None;
            for f in faces {
                let (a, b, c, d) = (s[f[0]].w, s[f[1]].w, s[f[2]].w, s[f[3]].w);
                let nrm = cross(&sub(&b, &a), &sub(&c, &a));
                let so = -dot(&a, &nrm);
                let sd = dot(&sub(&d, &a), &nrm);
                if so * sd < 0.0 || sd == 0.0 {
                    let mut t = [s[f[0]], s[f[1]], s[f[2]], s[f[2]]];
                    let mut m = 3;
                    let p = triangle(&mut t, &mut m);
                    let d2 = dot(&p, &p);
                    if best.as_ref().is_none_or(|b| d2 < b.0) {
                        best = Some((d2, t, m, p));
                    }
                }
            }
            let (_, t, m, p) = best?;
            *s = t;
            *n = m;
            Some(p)
        }
    }
}

/// Ericson's `ClosestPtPointTriangle` for the origin, reducing the simplex.
fn triangle(s: &mut [Pt; 4], n: &mut usize) -> P {
    let (pa, pb, pc) = (s[0], s[1], s[2]);
    let (a, b, c) = (pa.w, pb.w, pc.w);
    let ab = sub(&b, &a);
    let ac = sub(&c, &a);
    let ap = [-a[0], -a[1], -a[2]];
    let d1 = dot(&ab, &ap);
    let d2 = dot(&ac, &ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        *n = 1;
        return a;
    }
    let bp = [-b[0], -b[1], -b[2]];
    let d3 = dot(&ab, &bp);
    let d4 = dot(&ac, &bp);
    if d3 >= 0.0 && d4 <= d3 {
        s[0] = pb;
        *n = 1;
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        *n = 2;
        return axpy(&a, v, &ab);
    }
    let cp = [-c[0], -c[1], -c[2]];
    let d5 = dot(&ab, &cp);
    let d6 = dot(&ac, &cp);
    if d6 >= 0.0 && d5 <= d6 {
        s[0] = pc;
        *n = 1;
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        s[1] = pc;
        *n = 2;
        return axpy(&a, w, &ac);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        s[0] = pb;
        s[1] = pc;
        *n = 2;
        return axpy(&b, w, &sub(&c, &b));
    }
    let den = 1.0 / (va + vb + vc);
    let (v, w) = (vb * den, vc * den);
    *n = 3;
    [
        a[0] + ab[0] * v + ac[0] * w,
        a[1] + ab[1] * v + ac[1] * w,
        a[2] + ab[2] * v + ac[2] * w,
    ]
}

/// A shape for GJK: its vertices and, for a box, its half-axes, so that a
/// support point comes from three signs (vertex `i` is `c + Σₖ ±hₖ`, `+`
/// when bit `k` of `i` is set) instead of a scan of the eight vertices.
#[derive(Clone, Copy)]
pub(crate) struct Hull<'a> {
    pub v: &'a [[f64; 3]],
    pub h: Option<[[f64; 3]; 3]>,
}

impl Hull<'_> {
    /// The vertex minimizing `d·p` (`max`: maximizing).
    #[inline(always)]
    fn support(&self, d: &P, max: bool) -> usize {
        if let Some(h) = &self.h {
            let mut i = 0;
            for (k, hk) in h.iter().enumerate() {
                let x = dot(d, hk);
                if (x > 0.0) == max && x != 0.0 {
                    i |= 1 << k;
                }
            }
            return i;
        }
        let (mut i, mut best) = (0, dot(d, &self.v[0]));
        for (k, p) in self.v.iter().enumerate().skip(1) {
            let x = dot(d, p);
            if (x > best) == max && x != best {
                (i, best) = (k, x);
            }
        }
        i
    }
}

/// GJK on the hulls `a`, `b` (coordinates below 1 in magnitude; at most 8
/// vertices each).
pub(crate) fn gjk(ha: Hull, hb: Hull) -> Guess {
    match simplex(ha, hb) {
        None => Guess::Near,
        Some((s, n)) => {
            let (mut ma, mut mb) = (0u8, 0u8);
            for p in &s[..n] {
                ma |= 1 << p.0;
                mb |= 1 << p.1;
            }
            Guess::Apart(ma, mb)
        }
    }
}

/// GJK on the hulls `a`, `b` (coordinates below 1 in magnitude, any number
/// of vertices): the final simplex's support points with positive weight,
/// as pairs (vertex of a, vertex of b), 1 to 3 of them; `None` when the
/// shapes (nearly) touch or overlap.
pub(crate) fn simplex(ha: Hull, hb: Hull) -> Option<([(u32, u32); 3], usize)> {
    match run(ha, hb) {
        Found::Apart(s, n) => Some((s, n)),
        Found::Tetrahedron(_) | Found::Near => None,
    }
}

/// What [`run`] found, all of it a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// Apart: the final simplex's support points with positive weight, as
    /// pairs (vertex of a, vertex of b), 1 to 3 of them.
    Apart([(u32, u32); 3], usize),
    /// Overlapping: four support points `a_i − b_j` whose tetrahedron holds
    /// the origin in floats, as pairs (vertex of a, vertex of b).
    Tetrahedron([(u32, u32); 4]),
    /// Touching or nearly (the origin within about 10⁻¹⁴ of the simplex).
    Near,
}

/// GJK on the hulls `a`, `b` (coordinates below 1 in magnitude, any number
/// of vertices), with the final simplex ([`Found`]).
pub(crate) fn run(ha: Hull, hb: Hull) -> Found {
    let (a, b) = (ha.v, hb.v);
    let mut s = [Pt {
        i: 0,
        j: 0,
        w: sub(&a[0], &b[0]),
    }; 4];
    let mut n = 1;
    let mut v = s[0].w;
    for _ in 0..64 {
        let d2 = dot(&v, &v);
        if d2 < 1e-28 {
            return Found::Near;
        }
        // Support of a − b in direction −v.
        let (i, j) = (ha.support(&v, false), hb.support(&v, true));
        let w = sub(&a[i], &b[j]);
        // v·w is a lower bound on |v|·distance: converged when it meets |v|².
        if d2 - dot(&v, &w) <= 1e-12 * d2 {
            break;
        }
        if s[..n]
            .iter()
            .any(|p| p.i as usize == i && p.j as usize == j)
        {
            break;
        }
        s[n] = Pt {
            i: i as u32,
            j: j as u32,
            w,
        };
        n += 1;
        match closest(&mut s, &mut n) {
            None => return Found::Tetrahedron([0, 1, 2, 3].map(|k| (s[k].i, s[k].j))),
            Some(nv) => {
                if dot(&nv, &nv) >= d2 {
                    break; // no progress
                }
                v = nv;
            }
        }
    }
    if dot(&v, &v) < 1e-28 || n > 3 {
        return Found::Near;
    }
    let mut out = [(0u32, 0u32); 3];
    for (o, p) in out.iter_mut().zip(&s[..n]) {
        *o = (p.i, p.j);
    }
    Found::Apart(out, n)
}
