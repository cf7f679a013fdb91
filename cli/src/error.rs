//! # Why a run ended without a verdict, and the one line that says so
//!
//! Every way a run can fail is a [`Failure`], and each kind has its exit status: bad usage or
//! bad input 2, a bug or a failed write 1 (a closed pipe 0, silently). The command writes it
//! as one line on standard error, `error: FILE:LINE: what is wrong` for an input, never a
//! backtrace: a panic is caught and becomes an internal error too.

use crate::input::InputError;
use std::io;

/// Why a run ended without a verdict.
#[derive(Debug)]
pub enum Failure {
    /// Bad flags or an option the instance cannot take: exit 2.
    Usage(String),
    /// A malformed input: exit 2, `error: FILE:LINE: message`.
    Input(InputError),
    /// A bug: an answer that fails its checker, a panic: exit 1.
    Internal(String),
    /// Writing the output failed: exit 1 (a closed pipe: exit 0, silently).
    Io(io::Error),
}

impl Failure {
    /// The exit status and the error line (none for a closed pipe).
    pub(crate) fn report(&self) -> (i32, Option<String>) {
        if let Failure::Internal(m) = self {
            if m.starts_with("panic: ") {
                return (
                    1,
                    Some(format!(
                        "error: internal error: {} (a bug in cpsolve: please report it with the input)",
                        one_line(m)
                    )),
                );
            }
        }
        match self {
            Failure::Usage(m) => (2, Some(format!("error: {m}"))),
            Failure::Input(e) => (
                2,
                Some(format!("error: {}:{}: {}", e.file, e.line, e.message)),
            ),
            Failure::Internal(m) => (1, Some(format!("error: internal error: {m}"))),
            Failure::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => (0, None),
            Failure::Io(e) => (1, Some(format!("error: cannot write the output: {e}"))),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

impl From<crate::tree::TreeError> for Failure {
    fn from(e: crate::tree::TreeError) -> Failure {
        match e {
            crate::tree::TreeError::Usage(m) => Failure::Usage(m),
            crate::tree::TreeError::Write(e) => Failure::Io(e),
            crate::tree::TreeError::Input(file, line, message) => Failure::Input(InputError {
                file,
                line,
                message,
            }),
        }
    }
}

/// What a caught panic said, as the message of an internal error.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    format!("panic: {what}")
}

/// The longest error line written, in characters. Parsers quote bad tokens cut short
/// (`puzzles::quote`); this is the last defence for a message that still carries a huge one.
const MAX_ERROR_LINE_CHARS: usize = 500;

/// Messages are one short line, whatever a puzzle's parser wrote.
pub(crate) fn one_line(s: &str) -> String {
    let line = cut_long_quotes(&s.split_whitespace().collect::<Vec<_>>().join(" "));
    match line.char_indices().nth(MAX_ERROR_LINE_CHARS) {
        Some((cut, _)) => format!(
            "{}… (cut: the message had {} bytes)",
            &line[..cut],
            line.len()
        ),
        None => line,
    }
}

/// Every quoted word of an error line (`'...'`: a token, a flag, a value, a name, a path)
/// longer than `puzzles::parse::MAX_QUOTED_CHARS` characters, cut as
/// `puzzles::parse::quoted` cuts a token: its first 40 characters, or for a path (it holds a
/// `/`) its last 40, with its length in bytes. A quote opens after a space or `(`, `:`, `=`
/// and closes before a space, the end or `:`, `,`, `)`, `;`, `.`: an apostrophe inside a
/// word (`puzzle's`) opens nothing.
fn cut_long_quotes(line: &str) -> String {
    const LIMIT: usize = puzzles::parse::MAX_QUOTED_CHARS;
    let chars: Vec<char> = line.chars().collect();
    let mut cut = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        let opens =
            chars[i] == '\'' && (i == 0 || matches!(chars[i - 1], ' ' | '(' | ':' | '=' | '['));
        let close = opens
            .then(|| {
                (i + 1..chars.len()).find(|&j| {
                    chars[j] == '\''
                        && chars
                            .get(j + 1)
                            .is_none_or(|c| matches!(c, ' ' | ':' | ',' | ')' | ';' | '.'))
                })
            })
            .flatten();
        let Some(j) = close else {
            cut.push(chars[i]);
            i += 1;
            continue;
        };
        let word = &chars[i + 1..j];
        if word.len() > LIMIT && word.last() != Some(&'…') {
            let bytes: usize = word.iter().map(|c| c.len_utf8()).sum();
            let shown: String = if word.contains(&'/') {
                std::iter::once('…')
                    .chain(word[word.len() - LIMIT..].iter().copied())
                    .collect()
            } else {
                word[..LIMIT]
                    .iter()
                    .copied()
                    .chain(std::iter::once('…'))
                    .collect()
            };
            cut.push_str(&format!("'{shown}' ({bytes} bytes)"));
        } else {
            cut.extend(&chars[i..=j]);
        }
        i = j + 1;
    }
    cut
}
