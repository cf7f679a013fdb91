//! `lex_lesseq` and `lex_less` against brute force with the harness of `engine::testing`:
//! sound, checking, domain consistent, incremental = from scratch, restored on backtracking;
//! equal and unequal lengths.

use engine::propagators::lex::Lex;
use engine::testing::{check_propagator, Consistency, HarnessConfig};

#[test]
fn lex_is_domain_consistent() {
    for (nx, ny) in [
        (1, 1),
        (2, 2),
        (3, 3),
        (2, 3),
        (3, 2),
        (0, 2),
        (2, 0),
        (5, 5),
        (4, 5),
    ] {
        for strict in [false, true] {
            let mut cfg = HarnessConfig::new(nx + ny, -1, 3, Consistency::Domain);
            cfg.max_size = 4;
            cfg.trials = 200;
            let check = move |t: &[i32]| {
                let (x, y) = t.split_at(nx);
                if strict {
                    x < y
                } else {
                    x <= y
                }
            };
            check_propagator(
                if strict { "lex_less" } else { "lex_lesseq" },
                &cfg,
                &check,
                &|xs| Box::new(Lex::new(&xs[..nx], &xs[nx..], strict)),
            );
        }
    }
}
