//! # "Did you mean ...?": the nearest known word to a misspelt one
//!
//! The edit distance (Levenshtein) between two words is the fewest insertions, deletions and
//! substitutions of one character that turn one into the other: `sudokku` → `sudoku` is 1
//! (delete a `k`), `queen` → `queens` is 1 (insert an `s`). It is computed row by row over a
//! table of prefixes, keeping one row: `row[j]` is the distance between the first `i`
//! characters of `a` and the first `j` of `b`.

/// The edit distance between `a` and `b`, in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    // The distance from the empty prefix of `a` to each prefix of `b`: insert them all.
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        // `diagonal` is the previous row's entry at j - 1 (before it was overwritten).
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            let delete = row[j + 1] + 1;
            let insert = row[j] + 1;
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(delete).min(insert);
        }
    }
    row[b.len()]
}

/// The candidate nearest to `word`, if it is near enough to be a slip of the keyboard: at
/// most 2 edits, and fewer than half the characters of the longer word (so `ab` does not
/// suggest `sum`). Ties go to the first candidate.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let distance = edit_distance(word, candidate);
        let longer = word.chars().count().max(candidate.chars().count());
        let near = distance <= 2 && 2 * distance < longer;
        if near && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_of_small_words() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("sudokku", "sudoku"), 1);
        assert_eq!(edit_distance("queen", "queens"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("flaw", "lawn"), 2);
        assert_eq!(edit_distance("héllo", "hello"), 1);
    }

    #[test]
    fn the_nearest_close_word_is_suggested() {
        let names = ["queens", "sudoku", "suko", "strimko"];
        assert_eq!(closest("sudokku", names), Some("sudoku"));
        assert_eq!(closest("queen", names), Some("queens"));
        assert_eq!(closest("suk", names), Some("suko"));
        assert_eq!(closest("chess", names), None);
        assert_eq!(closest("ab", ["sum"]), None);
    }
}
