//! # Quoting a bad token in an error message
//!
//! A parse error names the token it did not understand, in quotes. A token can be anything the
//! user's file holds: a megabyte without a space, or control characters. The error is still
//! one short line: [`quoted`] keeps the first [`MAX_QUOTED_CHARS`] characters, says how long
//! the whole token was, and writes characters that are not printable as Rust escapes.

/// The most characters of a token shown in an error message.
pub const MAX_QUOTED_CHARS: usize = 40;

/// `token` in single quotes, cut to [`MAX_QUOTED_CHARS`] characters (`'abc…' (1048576
/// bytes)`), control characters escaped.
pub fn quoted(token: &str) -> String {
    let mut shown = String::from("'");
    for (i, c) in token.chars().enumerate() {
        if i == MAX_QUOTED_CHARS {
            shown.push_str(&format!("…' ({} bytes)", token.len()));
            return shown;
        }
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown.push('\'');
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_tokens_are_quoted_whole_and_long_ones_cut() {
        assert_eq!(quoted("12\\x"), "'12\\x'");
        assert_eq!(quoted(""), "''");
        assert_eq!(quoted("a\tb"), "'a\\tb'");
        let long = "é".repeat(500_000);
        let q = quoted(&long);
        assert!(q.starts_with(&format!("'{}…'", "é".repeat(40))), "{q}");
        assert!(q.ends_with("(1000000 bytes)"), "{q}");
        assert!(q.chars().count() < 80);
    }
}
