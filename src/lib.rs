pub mod poly;
