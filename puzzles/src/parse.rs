//! # Parsing helpers shared by the puzzles' text formats
//!
//! Content lines (comments and blank lines dropped, line numbers kept), the sanity check of a
//! whole text, keyword sections, rectangles of characters, bounded numbers, and the quoting
//! of a bad token, so that every parser reports `LINE: message` on one short line.

use crate::instance::ParseError;

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

/// The lines of a file that carry content: `(1-based line number, trimmed text)`, skipping
/// blank lines and `%` comments (docs/formats.md, "Common rules").
pub fn content_lines(text: &str) -> Vec<(usize, &str)> {
    iter_content_lines(text).collect()
}

/// [`content_lines`] one at a time, for a caller that may stop early (is there any
/// content at all, in a batch of thousands of lines?).
pub fn iter_content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('%'))
}

/// Reject binary input: a NUL byte or invalid UTF-8 is reported by the command line before
/// parsing; this catches control characters other than tab, CR and LF.
pub fn check_text(text: &str) -> Result<(), ParseError> {
    // The common case first, a byte at a time: printable ASCII, tab and line ends only (a
    // file of 10,000 Sudokus is 820,000 bytes). Anything else is looked at character by
    // character below.
    if text
        .bytes()
        .all(|b| matches!(b, b' '..=b'~' | b'\t' | b'\r' | b'\n'))
    {
        return Ok(());
    }
    for (i, line) in text.lines().enumerate() {
        if let Some(c) = line
            .chars()
            .find(|&c| c.is_control() && c != '\t' && c != '\r')
        {
            return Err(ParseError::new(
                i + 1,
                format!(
                    "unexpected control character {:?}: not a text puzzle file",
                    c
                ),
            ));
        }
    }
    Ok(())
}

/// A cell token of a number grid: `.` or `0` is a blank (`Some(None)`), `1..=max` a given
/// (`Some(Some(v))`); anything else is not a cell (`None`).
pub fn parse_cell(token: &str, max: u32) -> Option<Option<u32>> {
    match token {
        "." | "0" => Some(None),
        _ if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) => token
            .parse::<u32>()
            .ok()
            .filter(|&v| v >= 1 && v <= max)
            .map(Some),
        _ => None,
    }
}

/// A section of a keyword file (Strimko's `streams`/`givens`, Suko's `groups`/`inner`/`totals`,
/// V3ck's `colours`/`edges`/`tallies`): the header line, the text after the keyword on that
/// line, and the content lines up to the next header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section<'a> {
    pub line: usize,
    pub name: &'a str,
    pub args: &'a str,
    pub body: Vec<(usize, &'a str)>,
}

/// Split content lines into sections whose first word is one of `names`. Content before the
/// first header and a section given twice are errors.
pub fn sections<'a>(
    lines: &[(usize, &'a str)],
    names: &[&'a str],
) -> Result<Vec<Section<'a>>, ParseError> {
    let mut out: Vec<Section<'a>> = Vec::new();
    for &(line, text) in lines {
        let word = text.split_whitespace().next().unwrap_or("");
        if let Some(&name) = names.iter().find(|&&n| n == word) {
            if let Some(earlier) = out.iter().find(|s| s.name == name) {
                return Err(ParseError::new(
                    line,
                    format!(
                        "a second '{name}' section (the first is on line {})",
                        earlier.line
                    ),
                ));
            }
            out.push(Section {
                line,
                name,
                args: text[word.len()..].trim(),
                body: Vec::new(),
            });
        } else {
            match out.last_mut() {
                Some(section) => section.body.push((line, text)),
                None => {
                    return Err(ParseError::new(
                        line,
                        format!(
                            "unexpected '{}': expected a section header ({})",
                            word,
                            names.join(", ")
                        ),
                    ))
                }
            }
        }
    }
    Ok(out)
}

/// A rectangle of one-character cells (Slider, Infinity Loop): every content line is a row,
/// whitespace inside a line is ignored, and every row must have the same length. Returns
/// `(1-based line number, cells)` per row.
pub fn char_rows(text: &str) -> Result<Vec<(usize, Vec<char>)>, ParseError> {
    check_text(text)?;
    let rows: Vec<(usize, Vec<char>)> = content_lines(text)
        .into_iter()
        .map(|(line, l)| (line, l.chars().filter(|c| !c.is_whitespace()).collect()))
        .collect();
    let Some((first_line, first)) = rows.first() else {
        return Err(ParseError::new(0, "empty file: expected rows of cells"));
    };
    for (line, cells) in &rows {
        if cells.len() != first.len() {
            return Err(ParseError::new(
                *line,
                format!(
                    "row has {} cells, expected {} like the first row (line {first_line})",
                    cells.len(),
                    first.len()
                ),
            ));
        }
    }
    Ok(rows)
}

/// A whole number `token` on line `line`, between `lo` and `hi`, described as `what` in the
/// error message.
pub fn parse_number(
    line: usize,
    token: &str,
    what: &str,
    lo: usize,
    hi: usize,
) -> Result<usize, ParseError> {
    match token.parse::<usize>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        Ok(n) => Err(ParseError::new(
            line,
            format!("{what} must be between {lo} and {hi}, found {n}"),
        )),
        Err(_) => Err(ParseError::new(
            line,
            format!("expected {what}, a whole number, found '{token}'"),
        )),
    }
}

#[cfg(test)]
mod quoting_tests {
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
