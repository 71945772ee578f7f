//! The program's commands, one file each.

pub mod ccd;
pub mod ccd_csv;
pub mod demo;
pub mod limits;
pub mod mesh;
pub mod query;
pub mod verify;
