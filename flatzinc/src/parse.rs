//! # The FlatZinc reader: a lexer and a recursive-descent parser
//!
//! FlatZinc (the MiniZinc 2.x "FlatZinc specification") is the flat language a MiniZinc
//! model is compiled to: no loops, no functions, only declarations of parameters and
//! variables, calls of predicates (`constraint int_lin_le([1, 2], [x, y], 10);`) and one
//! solve item. Its grammar is small enough for a hand-written reader:
//!
//! ```text
//! model      := { predicate ";" } { decl ";" } { "constraint" call ";" } solve ";"
//! decl       := type ":" IDENT annotations [ "=" expr ]
//! type       := [ "array" "[" "1" ".." INT "]" "of" ] [ "var" | "par" ] base
//! base       := "bool" | "int" | "float" | "set" "of" base | INT ".." INT | FLOAT ".." FLOAT
//!             | "{" INT, ... "}"
//! expr       := "true" | "false" | INT | FLOAT | INT ".." INT | "{" INT, ... "}" | STRING
//!             | IDENT [ "[" INT "]" ] | IDENT "(" expr, ... ")" | "[" expr, ... "]"
//! annotations:= { "::" expr }
//! ```
//!
//! The lexer turns bytes into tokens (skipping `%` comments) and remembers each token's
//! line; the parser is one function per rule. Any byte sequence either parses or gives one
//! [`FznError`] with a line: never a panic (the fuzz tests in `flatzinc/tests/parse.rs` and
//! `flatzinc/tests/fuzz.rs` feed random, generated and mutated files). Three rules keep it so:
//!
//! * **Items in the specification's order**: predicates, declarations, constraints, then
//!   the one solve item. A name is declared before it is used, so a file out of order (a
//!   `solve` first, a declaration after the constraints) is refused, not guessed at.
//! * **Brackets nest at most [`MAX_NESTING`] deep.** The parser is recursive (one function
//!   per rule is what a reader can follow), and so are the builder and the annotation
//!   reader that walk the tree: a file nesting `[[[...]]]` thirty thousand deep would
//!   overflow the stack. MiniZinc's output nests two or three levels; past the limit the
//!   file is refused with its line.
//! * **The clock is read while reading**: a huge file is read under the run's time limit
//!   and stop flag (`engine::Limits`), like the search (see [`parse_within`]).

use crate::ast::{BaseType, Constraint, Decl, Expr, FznError, FznModel, Goal, Solve, Type};
use crate::limits::limit_passed;
use engine::Limits;

/// The deepest nesting of brackets (`[`, `{`, `(`) a file may use.
pub const MAX_NESTING: usize = 100;

/// How many items (the parser: items of the file, elements of one array) pass between two
/// looks at the clock.
const CLOCK_EVERY: usize = 1024;

/// How many bytes the lexer reads between two looks at the clock.
const CLOCK_EVERY_BYTES: usize = 1 << 20;

/// A token, with the line it starts on.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    /// Punctuation: `:: .. : ; , ( ) [ ] { } =`.
    Punct(&'static str),
    End,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Int(i) => format!("'{i}'"),
        Tok::Float(f) => format!("'{f}'"),
        Tok::Str(_) => "a string".to_string(),
        Tok::Punct(p) => format!("'{p}'"),
        Tok::End => "the end of the file".to_string(),
    }
}

/// Split `text` into tokens.
fn lex(text: &str, limits: &Limits) -> Result<Vec<(Tok, usize)>, FznError> {
    let bytes = text.as_bytes();
    let mut toks = Vec::new();
    let mut line: usize = 1;
    let mut i = 0;
    // The clock is read at a line's end, once a mebibyte has passed since the last look
    // (and a file of one huge line is watched by the parser, item by item).
    let mut next_look = CLOCK_EVERY_BYTES;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
                if i >= next_look && limit_passed(limits) {
                    return Err(FznError::limit(line));
                }
                next_look = next_look.max(i + CLOCK_EVERY_BYTES);
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'%' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\n' {
                        return Err(FznError::new(line, "unterminated string"));
                    }
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err(FznError::new(line, "unterminated string"));
                }
                toks.push((Tok::Str(text[start..i].to_string()), line));
                i += 1;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                toks.push((Tok::Ident(text[start..i].to_string()), line));
            }
            b'0'..=b'9' | b'-' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                // A float has a '.' followed by a digit (not the '..' of a range).
                let mut float = false;
                if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
                    float = true;
                    i += 1;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
                    float = true;
                }
                if float {
                    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
                        i += 1;
                        if i < bytes.len() && (bytes[i] == b'-' || bytes[i] == b'+') {
                            i += 1;
                        }
                        while i < bytes.len() && bytes[i].is_ascii_digit() {
                            i += 1;
                        }
                    }
                    let s = &text[start..i];
                    let f: f64 = s
                        .parse()
                        .map_err(|_| FznError::new(line, format!("bad number '{s}'")))?;
                    toks.push((Tok::Float(f), line));
                } else {
                    let s = &text[start..i];
                    toks.push((Tok::Int(parse_int(s, line)?), line));
                }
            }
            _ => {
                let two = bytes.get(i..i + 2);
                let punct: Option<&'static str> = match two {
                    Some(b"::") => Some("::"),
                    Some(b"..") => Some(".."),
                    _ => None,
                };
                if let Some(p) = punct {
                    toks.push((Tok::Punct(p), line));
                    i += 2;
                    continue;
                }
                let p = match c {
                    b':' => ":",
                    b';' => ";",
                    b',' => ",",
                    b'(' => "(",
                    b')' => ")",
                    b'[' => "[",
                    b']' => "]",
                    b'{' => "{",
                    b'}' => "}",
                    b'=' => "=",
                    _ => {
                        let ch = text[i..].chars().next().unwrap_or('?');
                        return Err(FznError::new(line, format!("unexpected character '{ch}'")));
                    }
                };
                toks.push((Tok::Punct(p), line));
                i += 1;
            }
        }
    }
    toks.push((Tok::End, line));
    Ok(toks)
}

/// An integer literal: decimal, `0x` hexadecimal or `0o` octal, with an optional `-`.
fn parse_int(s: &str, line: usize) -> Result<i64, FznError> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let parsed = if let Some(h) = digits.strip_prefix("0x") {
        i64::from_str_radix(h, 16)
    } else if let Some(o) = digits.strip_prefix("0o") {
        i64::from_str_radix(o, 8)
    } else {
        digits.parse::<i64>()
    };
    match parsed {
        Ok(v) => Ok(if neg { -v } else { v }),
        Err(_) => Err(FznError::new(line, format!("bad integer '{s}'"))),
    }
}

/// A set of integers as sorted disjoint ranges.
type Ranges = Vec<(i64, i64)>;

struct Parser<'a> {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    /// Brackets open around the current token.
    depth: usize,
    limits: &'a Limits,
}

/// Where an item stands in the order FlatZinc fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Predicates,
    Declarations,
    Constraints,
    Solve,
}

impl Section {
    fn name(self) -> &'static str {
        match self {
            Section::Predicates => "a predicate",
            Section::Declarations => "a declaration",
            Section::Constraints => "a constraint",
            Section::Solve => "the solve item",
        }
    }
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }
    fn line(&self) -> usize {
        self.toks[self.pos].1
    }
    fn next(&mut self) -> Tok {
        let t = self.toks[self.pos].0.clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn error<T>(&self, what: &str) -> Result<T, FznError> {
        Err(FznError::new(
            self.line(),
            format!("expected {what}, found {}", describe(self.peek())),
        ))
    }
    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }
    fn expect(&mut self, p: &str) -> Result<(), FznError> {
        if self.is_punct(p) {
            self.next();
            Ok(())
        } else {
            self.error(&format!("'{p}'"))
        }
    }
    fn expect_word(&mut self, w: &str) -> Result<(), FznError> {
        if self.is_word(w) {
            self.next();
            Ok(())
        } else {
            self.error(&format!("'{w}'"))
        }
    }
    fn ident(&mut self) -> Result<String, FznError> {
        match self.peek() {
            Tok::Ident(_) => match self.next() {
                Tok::Ident(s) => Ok(s),
                _ => unreachable!("peeked an identifier"),
            },
            _ => self.error("a name"),
        }
    }
    fn int(&mut self) -> Result<i64, FznError> {
        match *self.peek() {
            Tok::Int(v) => {
                self.next();
                Ok(v)
            }
            _ => self.error("an integer"),
        }
    }

    /// `model := items`
    fn model(&mut self) -> Result<FznModel, FznError> {
        let mut decls = Vec::new();
        let mut constraints = Vec::new();
        let mut solve = None;
        let mut section = Section::Predicates;
        let mut items = 0usize;
        while *self.peek() != Tok::End {
            let line = self.line();
            items += 1;
            if items.is_multiple_of(CLOCK_EVERY) && limit_passed(self.limits) {
                return Err(FznError::limit(line));
            }
            let this = if self.is_word("predicate") {
                Section::Predicates
            } else if self.is_word("constraint") {
                Section::Constraints
            } else if self.is_word("solve") {
                Section::Solve
            } else {
                Section::Declarations
            };
            if solve.is_some() {
                let what = if this == Section::Solve {
                    "a second solve item".to_string()
                } else {
                    format!(
                        "{} after the solve item (the solve item comes last)",
                        this.name()
                    )
                };
                return Err(FznError::new(line, what));
            }
            if this < section {
                return Err(FznError::new(
                    line,
                    format!(
                        "{} after {}: FlatZinc lists predicates, then declarations, then constraints, then the solve item",
                        this.name(),
                        section.name()
                    ),
                ));
            }
            section = this;
            match this {
                Section::Predicates => self.skip_predicate()?,
                Section::Constraints => {
                    self.next();
                    constraints.push(self.constraint(line)?);
                }
                Section::Solve => {
                    self.next();
                    solve = Some(self.solve(line)?);
                }
                Section::Declarations => decls.push(self.decl(line)?),
            }
            self.expect(";")?;
        }
        let solve =
            solve.ok_or_else(|| FznError::new(self.line(), "the file has no solve item"))?;
        Ok(FznModel {
            decls,
            constraints,
            solve,
        })
    }

    /// `predicate name(...)`: only declares a solver builtin; skipped up to the `;`.
    fn skip_predicate(&mut self) -> Result<(), FznError> {
        self.next();
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Tok::End => return self.error("';' after the predicate"),
                Tok::Punct("(") | Tok::Punct("[") => depth += 1,
                Tok::Punct(")") | Tok::Punct("]") => depth = depth.saturating_sub(1),
                Tok::Punct(";") if depth == 0 => return Ok(()),
                _ => {}
            }
            self.next();
        }
    }

    fn constraint(&mut self, line: usize) -> Result<Constraint, FznError> {
        let name = self.ident()?;
        self.expect("(")?;
        let args = self.exprs_until(")")?;
        let annotations = self.annotations()?;
        Ok(Constraint {
            name,
            args,
            annotations,
            line,
        })
    }

    fn solve(&mut self, line: usize) -> Result<Solve, FznError> {
        let annotations = self.annotations()?;
        let goal = if self.is_word("satisfy") {
            self.next();
            Goal::Satisfy
        } else if self.is_word("minimize") {
            self.next();
            Goal::Minimize(self.expr()?)
        } else if self.is_word("maximize") {
            self.next();
            Goal::Maximize(self.expr()?)
        } else {
            return self.error("'satisfy', 'minimize' or 'maximize'");
        };
        Ok(Solve {
            goal,
            annotations,
            line,
        })
    }

    fn decl(&mut self, line: usize) -> Result<Decl, FznError> {
        let ty = self.ty()?;
        self.expect(":")?;
        let name = self.ident()?;
        let annotations = self.annotations()?;
        let value = if self.is_punct("=") {
            self.next();
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Decl {
            name,
            ty,
            annotations,
            value,
            line,
        })
    }

    fn ty(&mut self) -> Result<Type, FznError> {
        let mut array_len = None;
        if self.is_word("array") {
            self.next();
            self.expect("[")?;
            let lo = self.int()?;
            self.expect("..")?;
            let hi = self.int()?;
            self.expect("]")?;
            self.expect_word("of")?;
            if lo != 1 || hi < 0 || hi > u32::MAX as i64 {
                return Err(FznError::new(
                    self.line(),
                    format!("array index set {lo}..{hi} (FlatZinc arrays are 1..n)"),
                ));
            }
            array_len = Some(hi as usize);
        }
        let var = if self.is_word("var") {
            self.next();
            true
        } else {
            if self.is_word("par") {
                self.next();
            }
            false
        };
        let (base, domain) = self.base()?;
        Ok(Type {
            var,
            base,
            domain,
            array_len,
        })
    }

    /// The base type and its domain, if any.
    fn base(&mut self) -> Result<(BaseType, Option<Ranges>), FznError> {
        match self.peek().clone() {
            Tok::Ident(w) if w == "bool" => {
                self.next();
                Ok((BaseType::Bool, None))
            }
            Tok::Ident(w) if w == "int" => {
                self.next();
                Ok((BaseType::Int, None))
            }
            Tok::Ident(w) if w == "float" => {
                self.next();
                Ok((BaseType::Float, None))
            }
            Tok::Ident(w) if w == "set" => {
                self.next();
                self.expect_word("of")?;
                // `set of int`, `set of 1..9`, `set of {1, 3}`: one level, read here
                // without recursion (`set of set of ...` is not FlatZinc).
                if self.is_word("int") {
                    self.next();
                    return Ok((BaseType::SetOfInt, None));
                }
                match self.peek() {
                    Tok::Int(_) | Tok::Punct("{") => match self.expr()? {
                        Expr::Set(ranges) => Ok((BaseType::SetOfInt, Some(ranges))),
                        _ => self.error("a range or a set"),
                    },
                    _ => self.error("'int', a range or a set after 'set of'"),
                }
            }
            Tok::Float(_) => {
                self.next();
                self.expect("..")?;
                match self.next() {
                    Tok::Float(_) | Tok::Int(_) => Ok((BaseType::Float, None)),
                    _ => self.error("a float"),
                }
            }
            Tok::Int(_) | Tok::Punct("{") => match self.expr()? {
                Expr::Set(ranges) => Ok((BaseType::Int, Some(ranges))),
                _ => self.error("a range or a set"),
            },
            _ => self.error("a type"),
        }
    }

    fn annotations(&mut self) -> Result<Vec<Expr>, FznError> {
        let mut anns = Vec::new();
        while self.is_punct("::") {
            self.next();
            anns.push(self.expr()?);
        }
        Ok(anns)
    }

    /// Expressions separated by commas up to `close` (consumed); a trailing comma is allowed.
    /// The opening bracket has just been read: one level deeper until `close`.
    fn exprs_until(&mut self, close: &str) -> Result<Vec<Expr>, FznError> {
        if self.depth >= MAX_NESTING {
            return Err(FznError::new(
                self.line(),
                format!("brackets nested more than {MAX_NESTING} deep (FlatZinc from MiniZinc nests two or three)"),
            ));
        }
        self.depth += 1;
        let items = self.exprs_until_inner(close);
        self.depth -= 1;
        items
    }

    fn exprs_until_inner(&mut self, close: &str) -> Result<Vec<Expr>, FznError> {
        let mut items = Vec::new();
        loop {
            if (items.len() + 1).is_multiple_of(64 * CLOCK_EVERY) && limit_passed(self.limits) {
                return Err(FznError::limit(self.line()));
            }
            if self.is_punct(close) {
                self.next();
                return Ok(items);
            }
            items.push(self.expr()?);
            if self.is_punct(",") {
                self.next();
            } else if !self.is_punct(close) {
                return self.error(&format!("',' or '{close}'"));
            }
        }
    }

    fn expr(&mut self) -> Result<Expr, FznError> {
        let line = self.line();
        match self.next() {
            Tok::Int(lo) => {
                if self.is_punct("..") {
                    self.next();
                    match self.next() {
                        Tok::Int(hi) => {
                            Ok(Expr::Set(if lo <= hi { vec![(lo, hi)] } else { vec![] }))
                        }
                        Tok::Float(_) => Err(FznError::new(line, "float ranges are not supported")),
                        _ => Err(FznError::new(line, "expected an integer after '..'")),
                    }
                } else {
                    Ok(Expr::Int(lo))
                }
            }
            Tok::Float(f) => {
                if self.is_punct("..") {
                    self.next();
                    self.next();
                }
                Ok(Expr::Float(f))
            }
            Tok::Str(s) => Ok(Expr::Str(s)),
            Tok::Punct("{") => {
                let items = self.exprs_until("}")?;
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    match item {
                        Expr::Int(v) => values.push(v),
                        _ => return Err(FznError::new(line, "a set literal holds integers only")),
                    }
                }
                Ok(Expr::Set(ranges_of(values)))
            }
            Tok::Punct("[") => Ok(Expr::Array(self.exprs_until("]")?)),
            Tok::Ident(w) => match w.as_str() {
                "true" => Ok(Expr::Bool(true)),
                "false" => Ok(Expr::Bool(false)),
                _ if self.is_punct("[") => {
                    self.next();
                    let i = self.int()?;
                    self.expect("]")?;
                    Ok(Expr::Access(w, i))
                }
                _ if self.is_punct("(") => {
                    self.next();
                    let args = self.exprs_until(")")?;
                    Ok(Expr::Call(w, args))
                }
                _ => Ok(Expr::Ident(w)),
            },
            t => Err(FznError::new(
                line,
                format!("expected an expression, found {}", describe(&t)),
            )),
        }
    }
}

/// Sorted disjoint ranges covering `values`.
pub fn ranges_of(mut values: Vec<i64>) -> Vec<(i64, i64)> {
    values.sort_unstable();
    values.dedup();
    let mut ranges: Vec<(i64, i64)> = Vec::new();
    for v in values {
        match ranges.last_mut() {
            Some(r) if r.1.checked_add(1) == Some(v) => r.1 = v,
            _ => ranges.push((v, v)),
        }
    }
    ranges
}

/// Parse a whole FlatZinc text.
pub fn parse(text: &str) -> Result<FznModel, FznError> {
    parse_within(text, &Limits::default())
}

/// [`parse`] under a time limit and a stop flag (`limits.deadline`, `limits.stop`; the node
/// and failure limits mean nothing here): past either, an error with
/// [`FznError::limit_reached`] set, which the caller reports as a limit, not as bad input.
pub fn parse_within(text: &str, limits: &Limits) -> Result<FznModel, FznError> {
    let toks = lex(text, limits)?;
    let mut parser = Parser {
        toks,
        pos: 0,
        depth: 0,
        limits,
    };
    parser.model()
}
