//! The seed documents' algorithms **as published**: float arithmetic and ε tests,
//! transcribed faithfully so that their failures can be measured against the
//! exact paths. Nothing here is used by any exact query.

pub mod seed004;
