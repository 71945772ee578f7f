//! `Vec2` and `Vec3`, generic over any [`Ring`].

use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use num_rational::BigRational;

/// A 3-vector (or point) with coordinates in `T`.
///
/// ```
/// use exact_collision::Vec3;
/// let a = Vec3::new(1.0, 0.0, 0.0);
/// let b = Vec3::new(0.0, 1.0, 0.0);
/// assert_eq!(a.cross(&b), Vec3::new(0.0, 0.0, 1.0));
/// assert_eq!(a.dot(&b), 0.0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Vec3<T> {
    /// x coordinate.
    pub x: T,
    /// y coordinate.
    pub y: T,
    /// z coordinate.
    pub z: T,
}

/// A 2-vector (or point) with coordinates in `T`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Vec2<T> {
    /// x coordinate.
    pub x: T,
    /// y coordinate.
    pub y: T,
}

impl<T> Vec3<T> {
    /// A vector from its coordinates.
    pub const fn new(x: T, y: T, z: T) -> Self {
        Vec3 { x, y, z }
    }
    /// Apply `f` to each coordinate (lifting to another number type, say).
    pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> Vec3<U> {
        Vec3::new(f(&self.x), f(&self.y), f(&self.z))
    }
    /// The coordinates as an array reference-free copy.
    pub fn to_array(&self) -> [T; 3]
    where
        T: Clone,
    {
        [self.x.clone(), self.y.clone(), self.z.clone()]
    }
    /// Coordinate `i` (0, 1, 2).
    pub fn get(&self, i: usize) -> &T {
        match i {
            0 => &self.x,
            1 => &self.y,
            _ => &self.z,
        }
    }
}

impl<T: Ring> Vec3<T> {
    /// The zero vector.
    pub fn zero() -> Self {
        Vec3::new(T::zero(), T::zero(), T::zero())
    }
    /// `self + o`.
    pub fn add(&self, o: &Self) -> Self {
        Vec3::new(
            self.x.add_ref(&o.x),
            self.y.add_ref(&o.y),
            self.z.add_ref(&o.z),
        )
    }
    /// `self - o`.
    pub fn sub(&self, o: &Self) -> Self {
        Vec3::new(
            self.x.sub_ref(&o.x),
            self.y.sub_ref(&o.y),
            self.z.sub_ref(&o.z),
        )
    }
    /// `-self`.
    pub fn neg(&self) -> Self {
        Vec3::new(self.x.neg_ref(), self.y.neg_ref(), self.z.neg_ref())
    }
    /// `k · self`.
    pub fn scale(&self, k: &T) -> Self {
        Vec3::new(self.x.mul_ref(k), self.y.mul_ref(k), self.z.mul_ref(k))
    }
    /// The dot product.
    pub fn dot(&self, o: &Self) -> T {
        self.x
            .mul_ref(&o.x)
            .add_ref(&self.y.mul_ref(&o.y))
            .add_ref(&self.z.mul_ref(&o.z))
    }
    /// The cross product.
    pub fn cross(&self, o: &Self) -> Self {
        Vec3::new(
            self.y.mul_ref(&o.z).sub_ref(&self.z.mul_ref(&o.y)),
            self.z.mul_ref(&o.x).sub_ref(&self.x.mul_ref(&o.z)),
            self.x.mul_ref(&o.y).sub_ref(&self.y.mul_ref(&o.x)),
        )
    }
    /// `|self|²`.
    pub fn norm_squared(&self) -> T {
        self.dot(self)
    }
}

impl<S: Scalar> Vec3<S> {
    /// The exact value of every coordinate.
    pub fn to_rational(&self) -> Vec3<BigRational> {
        self.map(|c| c.to_rational())
    }
    /// The nearest value of `S` for every coordinate.
    pub fn from_rational(v: &Vec3<BigRational>) -> Self {
        v.map(S::from_rational)
    }
    /// `self / k` coordinate-wise (rounded for floats).
    pub fn div(&self, k: &S) -> Self {
        self.map(|c| c.div_ref(k))
    }
}

impl<T> Vec2<T> {
    /// A vector from its coordinates.
    pub const fn new(x: T, y: T) -> Self {
        Vec2 { x, y }
    }
    /// Apply `f` to each coordinate.
    pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> Vec2<U> {
        Vec2::new(f(&self.x), f(&self.y))
    }
}

impl<T: Ring> Vec2<T> {
    /// `self + o`.
    pub fn add(&self, o: &Self) -> Self {
        Vec2::new(self.x.add_ref(&o.x), self.y.add_ref(&o.y))
    }
    /// `self - o`.
    pub fn sub(&self, o: &Self) -> Self {
        Vec2::new(self.x.sub_ref(&o.x), self.y.sub_ref(&o.y))
    }
    /// The dot product.
    pub fn dot(&self, o: &Self) -> T {
        self.x.mul_ref(&o.x).add_ref(&self.y.mul_ref(&o.y))
    }
    /// The 2-D cross product `x·o.y − y·o.x`.
    pub fn cross(&self, o: &Self) -> T {
        self.x.mul_ref(&o.y).sub_ref(&self.y.mul_ref(&o.x))
    }
}

impl<S: Scalar> Vec2<S> {
    /// The exact value of every coordinate.
    pub fn to_rational(&self) -> Vec2<BigRational> {
        self.map(|c| c.to_rational())
    }
}
