//! The result type of every exact predicate.

use std::cmp::Ordering;

/// The exact sign of a quantity: the result of every predicate in this crate.
///
/// ```
/// use exact_collision::Sign;
/// assert_eq!(Sign::from_i32(-3), Sign::Negative);
/// assert_eq!(Sign::Positive.flip(), Sign::Negative);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sign {
    /// Strictly below zero.
    Negative,
    /// Exactly zero.
    Zero,
    /// Strictly above zero.
    Positive,
}

impl Sign {
    /// The sign of an integer.
    pub fn from_i32(v: i32) -> Sign {
        Sign::from_ordering(v.cmp(&0))
    }

    /// `Less` → `Negative`, `Equal` → `Zero`, `Greater` → `Positive`.
    pub fn from_ordering(o: Ordering) -> Sign {
        match o {
            Ordering::Less => Sign::Negative,
            Ordering::Equal => Sign::Zero,
            Ordering::Greater => Sign::Positive,
        }
    }

    /// The ordering of the quantity against zero.
    pub fn to_ordering(self) -> Ordering {
        match self {
            Sign::Negative => Ordering::Less,
            Sign::Zero => Ordering::Equal,
            Sign::Positive => Ordering::Greater,
        }
    }

    /// The sign of the negated quantity.
    pub fn flip(self) -> Sign {
        match self {
            Sign::Negative => Sign::Positive,
            Sign::Zero => Sign::Zero,
            Sign::Positive => Sign::Negative,
        }
    }

    /// The sign of a product of quantities with signs `self` and `other`.
    pub fn times(self, other: Sign) -> Sign {
        match (self, other) {
            (Sign::Zero, _) | (_, Sign::Zero) => Sign::Zero,
            (a, b) if a == b => Sign::Positive,
            _ => Sign::Negative,
        }
    }

    /// -1, 0 or 1.
    pub fn to_i32(self) -> i32 {
        match self {
            Sign::Negative => -1,
            Sign::Zero => 0,
            Sign::Positive => 1,
        }
    }
}
