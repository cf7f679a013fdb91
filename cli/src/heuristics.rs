//! # `--var` and `--val`: choosing the search order by hand
//!
//! Which variable to branch on and which value to try first change the size of the search
//! tree, never its solutions. A learner sees it best by running the same puzzle under each
//! order and comparing the nodes of `-s` (or drawing the trees with `--tree`). The puzzle's
//! own choice (often a tuned first-fail) is the default; these flags replace it.

use engine::{ValSelect, VarSelect};

/// The variable orders one can ask for by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarOrder {
    /// The first unfixed variable, in the puzzle's order.
    Input,
    /// The smallest domain first, ties in the puzzle's order.
    FirstFail,
    /// The smallest domain divided by the failures its constraints caused (dom/wdeg).
    DomWDeg,
}

impl VarOrder {
    pub fn select(self) -> VarSelect {
        match self {
            VarOrder::Input => VarSelect::InputOrder,
            VarOrder::FirstFail => VarSelect::SmallestDomain,
            VarOrder::DomWDeg => VarSelect::DomWDeg,
        }
    }
}

/// `--var input|first-fail|dom-wdeg`.
pub fn parse_var(text: &str) -> Result<VarOrder, String> {
    match text {
        "input" | "input-order" => Ok(VarOrder::Input),
        "first-fail" | "ff" | "smallest-domain" => Ok(VarOrder::FirstFail),
        "dom-wdeg" | "domwdeg" => Ok(VarOrder::DomWDeg),
        _ => Err(format!(
            "--var expects input, first-fail or dom-wdeg, found {}",
            puzzles::parse::quoted(text)
        )),
    }
}

/// `--val min|max|split|random`.
pub fn parse_val(text: &str) -> Result<ValSelect, String> {
    match text {
        "min" => Ok(ValSelect::Min),
        "max" => Ok(ValSelect::Max),
        "split" => Ok(ValSelect::Split),
        "random" => Ok(ValSelect::Random),
        _ => Err(format!(
            "--val expects min, max, split or random, found {}",
            puzzles::parse::quoted(text)
        )),
    }
}
