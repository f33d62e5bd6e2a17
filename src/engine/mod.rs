//! The Bloom filter itself: bit storage, the hash schemes, the filter as a whole, what the
//! tutor remembers about the keys, and the formulas. No I/O and no text: everything here
//! returns numbers, and the renderers turn them into words.

pub mod bloom;
pub mod counters;
pub mod filter;
pub(crate) mod memory;
pub(crate) mod saved;
pub mod scheme;
pub(crate) mod theory;
