//! # From bytes to puzzle instances, or one clear error line
//!
//! A puzzle file may be anything: empty, binary, in another encoding, cut short. Before a
//! puzzle's parser sees it, the text is checked here for what every format shares (UTF-8, no
//! control characters, something other than blank lines and `%` comments); the parser then
//! reports its own [`ParseError`]s. Either way the user gets one line,
//! `error: FILE:LINE: what is wrong and what was expected`.
//!
//! Input is read in pieces, at most [`MAX_INPUT_BYTES`]: a larger input is refused as soon as
//! it passes the cap, and a NUL byte as soon as its piece arrives, so that `cpsolve sudoku
//! /dev/zero` ends at once instead of filling the memory.

use puzzles::{common, Input, Instance, ParseError, PuzzleKind};
use std::ffi::OsString;
use std::io::Read;
use std::path::PathBuf;

/// The largest input read: 256 MiB (a file of three million one-line Sudokus).
pub const MAX_INPUT_BYTES: usize = 256 << 20;

/// A malformed input: the name to show for the file, the line, and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl InputError {
    fn new(file: &str, line: usize, message: impl Into<String>) -> InputError {
        InputError {
            file: file.to_string(),
            // Line 0 means "the file as a whole"; editors and scripts expect lines from 1.
            line: line.max(1),
            message: message.into(),
        }
    }
}

/// Where the instance text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The seed instance built into the binary.
    Seed,
    /// Standard input (`-`).
    Stdin,
    /// A file path (not necessarily UTF-8).
    File(PathBuf),
    /// Text given on the command line (N for n-queens).
    Argument(String),
}

impl Source {
    /// The name used in error messages.
    pub fn display_name(&self, kind: &PuzzleKind) -> String {
        match self {
            Source::Seed => format!("<seed {}>", kind.name),
            Source::Stdin => "<stdin>".to_string(),
            Source::File(path) => path.to_string_lossy().into_owned(),
            Source::Argument(_) => "<command line>".to_string(),
        }
    }
}

/// Which source the operands name, for this kind of puzzle. `Err` is a usage error.
/// `operands_os` are the same words as given, for file names that are not UTF-8 (when it is
/// shorter, the text is used).
pub fn source_for(
    kind: &PuzzleKind,
    operands: &[String],
    operands_os: &[OsString],
) -> Result<Source, String> {
    let name = kind.name;
    match (kind.input, operands) {
        (_, []) => Ok(Source::Seed),
        (Input::BuiltIn, [extra, ..]) => Err(format!(
            "{name} is built in and takes no file, found {}",
            puzzles::parse::quoted(extra)
        )),
        (_, [_, extra, ..]) => Err(format!(
            "{name} takes one {} at most, found a second one: {}",
            if kind.input == Input::Number {
                "number"
            } else {
                "file"
            },
            puzzles::parse::quoted(extra)
        )),
        (_, [one]) if one == "-" => Ok(Source::Stdin),
        (Input::Number, [n]) => Ok(Source::Argument(n.clone())),
        (Input::FileOrNumber, [n])
            if n.bytes().all(|b| b.is_ascii_digit()) && !std::path::Path::new(n).exists() =>
        {
            Ok(Source::Argument(n.clone()))
        }
        (Input::File | Input::FileOrNumber, [path]) => Ok(Source::File(PathBuf::from(
            operands_os.first().cloned().unwrap_or_else(|| path.into()),
        ))),
    }
}

/// Read the text of `source` and parse every instance in it.
pub fn load(
    kind: &PuzzleKind,
    source: &Source,
    stdin: &mut dyn Read,
) -> Result<Vec<Box<dyn Instance>>, InputError> {
    let file = source.display_name(kind);
    let text: String = match source {
        Source::Seed => kind.seed.to_string(),
        Source::Argument(text) => text.clone(),
        Source::Stdin => {
            let bytes = read_capped(stdin, &file).map_err(|e| {
                e.unwrap_or_else(|e| {
                    InputError::new(&file, 1, format!("cannot read standard input: {e}"))
                })
            })?;
            decode(&file, bytes)?
        }
        Source::File(path) => {
            let cannot_read = |e: std::io::Error| {
                InputError::new(
                    &file,
                    1,
                    format!(
                        "cannot read the file ({e}): expected a readable {} puzzle file",
                        kind.name
                    ),
                )
            };
            let mut opened = std::fs::File::open(path).map_err(cannot_read)?;
            let bytes =
                read_capped(&mut opened, &file).map_err(|e| e.unwrap_or_else(cannot_read))?;
            decode(&file, bytes)?
        }
    };
    let from_user = matches!(source, Source::Stdin | Source::File(_));
    if from_user && text.trim().is_empty() {
        return Err(InputError::new(
            &file,
            1,
            format!("the input is empty: expected a {} puzzle", kind.name),
        ));
    }
    // Stops at the first content line (not a list of all of them: a batch has thousands).
    let has_content = || common::iter_content_lines(&text).next().is_some();
    if from_user && kind.input == Input::File && !has_content() {
        return Err(InputError::new(
            &file,
            1,
            format!(
                "no puzzle in the file, only blank lines and % comments: expected a {} puzzle",
                kind.name
            ),
        ));
    }
    let instances = (kind.parse)(&text)
        .map_err(|ParseError { line, message }| InputError::new(&file, line, message))?;
    if instances.is_empty() {
        return Err(InputError::new(
            &file,
            1,
            format!("no {} puzzle found in the input", kind.name),
        ));
    }
    Ok(instances)
}

/// Read everything, in pieces of 64 KiB, refusing at once an input larger than
/// [`MAX_INPUT_BYTES`] or holding a NUL byte (`Err(Ok(..))`); a read error is `Err(Err(..))`.
pub fn read_capped(
    reader: &mut dyn Read,
    file: &str,
) -> Result<Vec<u8>, Result<InputError, std::io::Error>> {
    let mut bytes = Vec::new();
    let mut piece = vec![0u8; 1 << 16];
    loop {
        let n = match reader.read(&mut piece) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Err(e)),
        };
        if let Some(at) = piece[..n].iter().position(|&b| b == 0) {
            let line = 1 + bytes
                .iter()
                .chain(&piece[..at])
                .filter(|&&b| b == b'\n')
                .count();
            return Err(Ok(InputError::new(
                file,
                line,
                "a NUL byte: this looks like a binary file, expected a puzzle in text form",
            )));
        }
        if bytes.len() + n > MAX_INPUT_BYTES {
            return Err(Ok(InputError::new(
                file,
                1 + bytes.iter().filter(|&&b| b == b'\n').count(),
                format!(
                    "the input is larger than {} MiB, the most cpsolve reads: expected a puzzle file",
                    MAX_INPUT_BYTES >> 20
                ),
            )));
        }
        bytes.extend_from_slice(&piece[..n]);
    }
}

/// Bytes to text: UTF-8 (a leading byte-order mark is dropped), without NUL or other control
/// characters, which mean the file is binary.
pub fn decode(file: &str, mut bytes: Vec<u8>) -> Result<String, InputError> {
    if bytes.is_empty() {
        return Err(InputError::new(
            file,
            1,
            "the file is empty: expected a puzzle in text form",
        ));
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    let line_of = |bytes: &[u8], at: usize| 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(InputError::new(
            file,
            line_of(&bytes, at),
            "a NUL byte: this looks like a binary file, expected a puzzle in text form",
        ));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            return Err(InputError::new(
                file,
                line_of(&bytes, at),
                format!(
                    "invalid UTF-8 (byte 0x{:02x}): expected a text file in UTF-8",
                    bytes[at]
                ),
            ));
        }
    };
    common::check_text(&text)
        .map_err(|ParseError { line, message }| InputError::new(file, line, message))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_and_broken_text_name_their_line() {
        let e = decode("f", b"ok\nok\n\xff\xfe".to_vec()).unwrap_err();
        assert_eq!((e.line, e.message.contains("UTF-8")), (3, true));
        let e = decode("f", b"1\n2\x003".to_vec()).unwrap_err();
        assert_eq!((e.line, e.message.contains("NUL")), (2, true));
        let e = decode("f", Vec::new()).unwrap_err();
        assert_eq!((e.line, e.message.contains("empty")), (1, true));
        let e = decode("f", b"a\n\x07".to_vec()).unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(decode("f", b"\xEF\xBB\xBFabc".to_vec()).unwrap(), "abc");
    }

    /// Plain ASCII is let through a byte at a time; a control character is still found and
    /// named, in ASCII text or not.
    #[test]
    fn control_characters_are_found_in_any_text() {
        assert!(decode("f", b"1.3\t4\r\n% x ~\n".to_vec()).is_ok());
        assert!(decode("f", "┼ · é\n".as_bytes().to_vec()).is_ok());
        for (text, line, shown) in [
            ("ok\nok\nab\u{7f}", 3, "'\\u{7f}'"),
            ("ok\n\u{1b}[0m\n", 2, "'\\u{1b}'"),
            ("┼\n┼\u{85}\n", 2, "'\\u{85}'"),
        ] {
            let e = decode("f", text.as_bytes().to_vec()).unwrap_err();
            assert_eq!(e.line, line, "{text:?}");
            assert!(e.message.contains(shown), "{text:?}: {}", e.message);
        }
    }
}
