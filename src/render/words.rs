//! Counted nouns in the tutor's prose: "1 case", "2 cases", never "case(s)".

/// `one` when `n` is 1, otherwise `many`.
pub fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// `n` and its noun: `count(1, "case", "cases")` is "1 case".
pub fn count(n: usize, one: &'static str, many: &'static str) -> String {
    format!("{n} {}", plural(n as u64, one, many))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_number_plural() {
        assert_eq!(count(0, "case", "cases"), "0 cases");
        assert_eq!(count(1, "case", "cases"), "1 case");
        assert_eq!(count(2, "point", "points"), "2 points");
    }
}
