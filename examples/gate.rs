//! The usual job of a Bloom filter: a gate in front of an expensive lookup.
//! Run it with `cargo run --example gate`.
#![allow(clippy::print_stdout)]

use std::collections::HashMap;

use bloom_tutor::{Answer, Bloom, FilterSpec};

/// Stands in for a disk read or a network call: slow, so we count how often it runs.
struct SlowStore {
    rows: HashMap<&'static str, &'static str>,
    lookups: usize,
}

impl SlowStore {
    fn get(&mut self, key: &str) -> Option<&'static str> {
        self.lookups += 1;
        self.rows.get(key).copied()
    }
}

fn main() {
    let mut store = SlowStore {
        rows: HashMap::from([
            ("fig", "a soft fruit"),
            ("lime", "a green citrus"),
            ("date", "a sweet palm fruit"),
        ]),
        lookups: 0,
    };
    let mut gate = Bloom::new(FilterSpec::lesson());
    for key in store.rows.keys() {
        gate.add(key.as_bytes());
    }

    for key in ["fig", "plum", "sun", "kiwi", "lime"] {
        let answer = match gate.check(key.as_bytes()) {
            // NO is certain: the slow store is never asked.
            Answer::No => "not found (the filter said NO, no lookup needed)".to_string(),
            // MAYBE must be confirmed; a false positive costs one wasted lookup.
            Answer::Maybe => match store.get(key) {
                Some(row) => format!("found: {row}"),
                None => "not found (a false positive: the lookup was wasted)".to_string(),
            },
        };
        println!("{key:>5}: {answer}");
    }
    println!("slow lookups: {} of 5 queries", store.lookups);
}
