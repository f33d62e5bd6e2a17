//! Counted nouns in the tutor's prose: "1 case", "2 cases", never "case(s)".

use std::fmt;

/// `one` when `n` is 1, otherwise `many`.
pub fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// `n` and its noun: `count(1, "case", "cases")` is "1 case".
pub fn count(n: impl TryInto<u64> + fmt::Display + Copy, one: &str, many: &str) -> String {
    let one_of = n.try_into().is_ok_and(|n: u64| n == 1);
    format!("{n} {}", if one_of { one } else { many })
}

/// Items as the subject of a sentence, with its verb: `30 is`, `30 and 31 are`.
pub fn listed<T: fmt::Display>(items: &[T]) -> String {
    let verb = if items.len() == 1 { "is" } else { "are" };
    format!("{} {verb}", crate::units::and_list(items))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_number_plural() {
        assert_eq!(count(0, "case", "cases"), "0 cases");
        assert_eq!(count(1, "case", "cases"), "1 case");
        assert_eq!(count(2, "point", "points"), "2 points");
        assert_eq!(count(1u64, "bit", "bits"), "1 bit");
        assert_eq!(listed(&[30]), "30 is");
        assert_eq!(listed(&[30, 31, 40]), "30, 31 and 40 are");
    }
}
