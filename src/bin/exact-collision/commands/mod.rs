//! The program's commands, one file each.

pub mod audit;
pub mod ccd;
pub mod ccd_csv;
#[cfg(feature = "parry")]
pub mod check_parry;
pub mod demo;
pub mod limits;
pub mod mesh;
pub mod pipeline;
pub mod query;
pub mod shrink;
pub mod step;
pub mod verify;
