//! The packing global `diffn` (strict and non-strict) against brute force on small random
//! instances (engine::testing's harness), its pairwise rule, the proof that it prunes exactly
//! what MiniZinc's decomposition prunes, search counts, and the `i32` edges.

use engine::propagators::packing::diffn::Diffn;
use engine::propagators::reified::LinRel;
use engine::rng::Rng;
use engine::testing::{check_propagator, Consistency, HarnessConfig};
use engine::{Model, SearchConfig, VarId};

/// MiniZinc's `fzn_diffn` (`strict`) or `fzn_diffn_nonstrict`, read literally, on
/// `t = x ++ y ++ dx ++ dy` for `n` rectangles.
fn diffn_holds(t: &[i32], n: usize, strict: bool) -> bool {
    let t: Vec<i64> = t.iter().map(|&v| v as i64).collect();
    let (x, rest) = t.split_at(n);
    let (y, rest) = rest.split_at(n);
    let (dx, dy) = rest.split_at(n);
    (0..n).all(|i| {
        (i + 1..n).all(|j| {
            (!strict && (dx[i] == 0 || dx[j] == 0 || dy[i] == 0 || dy[j] == 0))
                || x[i] + dx[i] <= x[j]
                || y[i] + dy[i] <= y[j]
                || x[j] + dx[j] <= x[i]
                || y[j] + dy[j] <= y[i]
        })
    })
}

fn diffn_of(v: &[VarId], n: usize, strict: bool) -> Box<Diffn> {
    Box::new(Diffn::new(
        &v[..n],
        &v[n..2 * n],
        &v[2 * n..3 * n],
        &v[3 * n..],
        strict,
    ))
}

#[test]
fn diffn_is_sound_and_checking() {
    // (rectangles, values, largest domain): sizes from -1 read the formula literally.
    for (n, lo, hi, max_size) in [(2, -1, 3, 4), (2, 0, 4, 5), (3, 0, 3, 3)] {
        for strict in [true, false] {
            let mut cfg = HarnessConfig::new(4 * n, lo, hi, Consistency::Checking);
            cfg.max_size = max_size;
            cfg.trials = 150;
            cfg.seed = n as u64 + strict as u64;
            check_propagator(
                &format!("diffn n={n} {lo}..={hi} strict={strict}"),
                &cfg,
                &|t| diffn_holds(t, n, strict),
                &|v| diffn_of(v, n, strict),
            );
            check_propagator(
                &format!("diffn without the hole rule n={n} {lo}..={hi} strict={strict}"),
                &cfg,
                &|t| diffn_holds(t, n, strict),
                &|v| Box::new(diffn_of(v, n, strict).without_hole_rule()),
            );
        }
    }
}

/// `n` rectangles at the positions of `doms` (the `x`s, then the `y`s) with the constant
/// `sizes` (the widths, then the heights), under one `diffn`; the model and the positions.
fn diffn_model(doms: &[Vec<i32>], sizes: &[i32], n: usize, strict: bool) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let pos: Vec<VarId> = doms.iter().map(|d| m.new_var_from_values(d)).collect();
    let size_vars: Vec<VarId> = sizes.iter().map(|&s| m.new_var(s, s)).collect();
    let _ = m.diffn(
        &pos[..n],
        &pos[n..],
        &size_vars[..n],
        &size_vars[n..],
        strict,
    );
    (m, pos)
}

/// Random domains over `lo..=hi`, each value kept with probability 1/2 (never empty).
fn random_domains(rng: &mut Rng, count: usize, lo: i32, hi: i32) -> Vec<Vec<i32>> {
    (0..count)
        .map(|_| {
            let mut d: Vec<i32> = (lo..=hi).filter(|_| rng.below(2) == 0).collect();
            if d.is_empty() {
                d.push(lo + rng.below((hi - lo + 1) as u64) as i32);
            }
            d
        })
        .collect()
}

/// Four and five rectangles whose sizes are constants (some 0) and whose positions are free:
/// wider than the harness can enumerate with variable sizes. Propagation at the root keeps
/// every solution, and a complete search finds exactly the brute-force solutions (a
/// propagator that declared itself entailed too early would let violations through).
#[test]
fn diffn_with_constant_sizes_counts_equal_brute_force() {
    let mut rng = Rng::new(17);
    for case in 0..40 {
        let n = 4 + case % 2;
        let strict = case % 4 < 2;
        let sizes: Vec<i32> = (0..2 * n).map(|_| rng.below(3) as i32).collect();
        let doms = random_domains(&mut rng, 2 * n, 0, 4);
        let check = |t: &[i32]| {
            let mut all = t.to_vec();
            all.extend(&sizes);
            diffn_holds(&all, n, strict)
        };
        let sols = engine::testing::solutions(&doms, &check);
        let (mut m, pos) = diffn_model(&doms, &sizes, n, strict);
        let what = format!("sizes={sizes:?} strict={strict} on {doms:?}");
        match m.propagate() {
            Err(_) => assert!(sols.is_empty(), "{what}: failed with solution {sols:?}"),
            Ok(()) => {
                for s in &sols {
                    for (k, &v) in s.iter().enumerate() {
                        assert!(
                            m.contains(pos[k], v),
                            "{what}: removed {v} of {k} from {s:?}"
                        );
                    }
                }
            }
        }
        let (mut m, _) = diffn_model(&doms, &sizes, n, strict);
        let got = engine::count(&mut m, &SearchConfig::default()).solutions;
        assert_eq!(got, sols.len() as u64, "{what}");
    }
}

/// Three rectangles, everything variable: search counts equal brute-force counts.
#[test]
fn diffn_search_counts_equal_brute_force() {
    let mut rng = Rng::new(23);
    for case in 0..30 {
        let n = 3;
        let strict = case % 2 == 0;
        let mut doms = random_domains(&mut rng, 2 * n, 0, 4);
        doms.extend(random_domains(&mut rng, 2 * n, 0, 2));
        let sols = engine::testing::solutions(&doms, &|t| diffn_holds(t, n, strict));
        let mut m = Model::new();
        let v: Vec<VarId> = doms.iter().map(|d| m.new_var_from_values(d)).collect();
        let _ = m.post(diffn_of(&v, n, strict));
        let got = engine::count(&mut m, &SearchConfig::default()).solutions;
        assert_eq!(got, sols.len() as u64, "strict={strict} on {doms:?}");
    }
}

/// MiniZinc's decomposition of `diffn`, posted on `v = x ++ y ++ dx ++ dy`: per pair, one
/// reified `a + da ≤ b` per position (and `b ⇔ size = 0` per size in the non-strict form),
/// and a clause over them.
fn post_decomposition(m: &mut Model, v: &[VarId], n: usize, strict: bool) {
    let (x, y, dx, dy) = (&v[..n], &v[n..2 * n], &v[2 * n..3 * n], &v[3 * n..]);
    for i in 0..n {
        for j in i + 1..n {
            let mut ways = Vec::new();
            for (a, da, b) in [
                (x[i], dx[i], x[j]),
                (x[j], dx[j], x[i]),
                (y[i], dy[i], y[j]),
                (y[j], dy[j], y[i]),
            ] {
                let w = m.new_bool();
                let _ = m.reified_linear(w, &[(1, a), (1, da), (-1, b)], LinRel::Le, 0, false);
                ways.push(w);
            }
            if !strict {
                for size in [dx[i], dy[i], dx[j], dy[j]] {
                    let w = m.new_bool();
                    let _ = m.reify_eq(w, size, 0);
                    ways.push(w);
                }
            }
            let _ = m.clause(&ways, &[]);
        }
    }
}

/// Random narrow domains for `n` rectangles (positions in `0..=7`, sizes in `0..=5`), so that pairs
/// often have one or two ways left; holes in some sizes.
fn narrow_domains(rng: &mut Rng, n: usize) -> Vec<Vec<i32>> {
    let mut doms: Vec<Vec<i32>> = (0..4 * n)
        .map(|k| {
            let lo = rng.below(4) as i32;
            let width = if k < 2 * n { 5 } else { 3 };
            (lo..=lo + rng.below(width) as i32).collect()
        })
        .collect();
    for d in &mut doms[2 * n..] {
        if d.len() == 3 && rng.below(2) == 0 {
            let _ = d.remove(1);
        }
    }
    doms
}

/// The fixpoint of `diffn` (the hole rule on or off) or of MiniZinc's decomposition on
/// `doms`: the domains, or `None` on failure.
fn fixpoint(doms: &[Vec<i32>], n: usize, strict: bool, how: &str) -> Option<Vec<Vec<i32>>> {
    let mut m = Model::new();
    let v: Vec<VarId> = doms.iter().map(|d| m.new_var_from_values(d)).collect();
    match how {
        "decomposition" => post_decomposition(&mut m, &v, n, strict),
        "pairwise" => {
            let _ = m.post(Box::new(diffn_of(&v, n, strict).without_hole_rule()));
        }
        _ => {
            let _ = m.post(diffn_of(&v, n, strict));
        }
    }
    m.propagate().ok().map(|()| {
        v.iter()
            .map(|&x| m.domain(x).iter().collect::<Vec<i32>>())
            .collect()
    })
}

/// The pairwise rule alone prunes exactly what the decomposition prunes (the same domains,
/// or both fail); with the hole rule, `diffn` keeps a subset of those, and on some cases a
/// strict one.
#[test]
fn diffn_pairwise_rule_is_the_decomposition_and_the_hole_rule_adds() {
    let mut rng = Rng::new(29);
    let (mut pruned, mut failed, mut holes) = (0, 0, 0);
    for case in 0..1000 {
        let n = 2 + case % 3;
        let strict = case % 2 == 0;
        let doms = narrow_domains(&mut rng, n);
        let what = format!("strict={strict} n={n} on {doms:?}");
        let decomposed = fixpoint(&doms, n, strict, "decomposition");
        assert_eq!(fixpoint(&doms, n, strict, "pairwise"), decomposed, "{what}");
        let full = fixpoint(&doms, n, strict, "full");
        match (&full, &decomposed) {
            (_, None) => assert!(full.is_none(), "{what}"),
            (None, Some(_)) => holes += 1,
            (Some(f), Some(d)) => {
                assert!(f
                    .iter()
                    .zip(d)
                    .all(|(f, d)| f.iter().all(|v| d.contains(v))));
                holes += (f != d) as usize;
            }
        }
        match decomposed {
            None => failed += 1,
            Some(d) => pruned += (d != doms) as usize,
        }
    }
    // The cases exercise both rules: some prune, some fail, the holes add to some.
    assert!(
        pruned > 50 && failed > 5 && holes > 25,
        "{pruned} pruned, {failed} failed, {holes} cut further by holes, of 1000"
    );
}

/// The claimed consistency as a property of the fixpoint: for every pair and every value of
/// an origin, some way of the pair holds with that value, judged on the bounds of the other
/// variables; where one way is left, its bounds are enforced.
#[test]
fn diffn_fixpoint_has_the_claimed_consistency() {
    let mut rng = Rng::new(31);
    for case in 0..400 {
        let n = 2 + case % 3;
        let strict = case % 2 == 0;
        let doms = narrow_domains(&mut rng, n);
        let Some(after) = fixpoint(&doms, n, strict, "full") else {
            continue;
        };
        let what = format!("strict={strict} n={n} from {doms:?} to {after:?}");
        let lo = |k: usize| *after[k].first().unwrap() as i64;
        let hi = |k: usize| *after[k].last().unwrap() as i64;
        // Variable numbers of rectangle i: x, y, dx, dy.
        let (x, y, dx, dy) = (|i| i, |i| n + i, |i| 2 * n + i, |i| 3 * n + i);
        for i in 0..n {
            for j in i + 1..n {
                // (start, size, other) of the four positions, then the sizes that may be 0.
                let before = [
                    (x(i), dx(i), x(j)),
                    (x(j), dx(j), x(i)),
                    (y(i), dy(i), y(j)),
                    (y(j), dy(j), y(i)),
                ];
                let zeros: Vec<usize> = if strict {
                    Vec::new()
                } else {
                    [dx(i), dy(i), dx(j), dy(j)]
                        .into_iter()
                        .filter(|&k| after[k].contains(&0))
                        .collect()
                };
                // Way possible with variable `fixed` at `v` (None: judged on bounds only).
                let possible = |&(a, da, b): &(usize, usize, usize),
                                fixed: Option<(usize, i64)>| {
                    let at = |k: usize, bound: i64| match fixed {
                        Some((f, v)) if f == k => v,
                        _ => bound,
                    };
                    at(a, lo(a)) + at(da, lo(da)) <= at(b, hi(b))
                };
                let left: Vec<_> = before.iter().filter(|w| possible(w, None)).collect();
                assert!(!left.is_empty() || !zeros.is_empty(), "{what}");
                if left.len() == 1 && zeros.is_empty() {
                    let (a, da, b) = *left[0];
                    assert!(
                        lo(b) >= lo(a) + lo(da)
                            && hi(a) <= hi(b) - lo(da)
                            && hi(da) <= hi(b) - lo(a),
                        "one way left, pair {i} {j}: {what}"
                    );
                }
                if left.is_empty() && zeros.len() == 1 {
                    assert_eq!(after[zeros[0]], vec![0], "{what}");
                }
                if !zeros.is_empty() {
                    continue;
                }
                for origin in [x(i), y(i), x(j), y(j)] {
                    for &v in &after[origin] {
                        assert!(
                            before.iter().any(|w| possible(w, Some((origin, v as i64)))),
                            "value {v} of variable {origin} fits no way of pair {i} {j}: {what}"
                        );
                    }
                }
            }
        }
    }
}

/// The hole rule on one row (all heights 1, all at y = 0): A is fixed at x = 2 with width 3,
/// B of width 2 may be anywhere in 0..=9; B may lie left or right of A, so the pairwise rule
/// moves nothing, and the hole rule removes the starts 1..=4 that would cover part of A.
#[test]
fn diffn_hole_rule_cuts_a_hole() {
    for with_rule in [false, true] {
        let mut m = Model::new();
        let (xa, xb) = (m.new_var(2, 2), m.new_var(0, 9));
        let y = m.new_var(0, 0);
        let (wa, wb, one) = (m.new_var(3, 3), m.new_var(2, 2), m.new_var(1, 1));
        let p = Diffn::new(&[xa, xb], &[y, y], &[wa, wb], &[one, one], true);
        let _ = m.post(Box::new(if with_rule { p } else { p.without_hole_rule() }));
        m.propagate().unwrap();
        let left: Vec<i32> = m.domain(xb).iter().collect();
        if with_rule {
            assert_eq!(left, vec![0, 5, 6, 7, 8, 9]);
        } else {
            assert_eq!(left, (0..=9).collect::<Vec<_>>());
        }
    }
}

/// The pairwise rule on one row (all heights 1, all at y = 0): A (x in 0..=1, width 3)
/// leaves only "A left of B" possible, so B starts at 3 or later, and A's width shrinks
/// to what leaves room before B's latest start.
#[test]
fn diffn_pairwise_rule_pushes_and_shrinks() {
    let mut m = Model::new();
    let (xa, xb) = (m.new_var(0, 1), m.new_var(0, 5));
    let y = m.new_var(0, 0);
    let (wa, wb) = (m.new_var(3, 9), m.new_var(2, 2));
    let one = m.new_var(1, 1);
    let _ = m.diffn(&[xa, xb], &[y, y], &[wa, wb], &[one, one], true);
    m.propagate().unwrap();
    assert_eq!((m.min(xb), m.max(xb)), (3, 5));
    assert_eq!((m.min(wa), m.max(wa)), (3, 5));
    // B on a second row possible: nothing moves.
    let mut m = Model::new();
    let (xa, xb) = (m.new_var(0, 1), m.new_var(0, 5));
    let (ya, yb) = (m.new_var(0, 0), m.new_var(0, 1));
    let one = m.new_var(1, 1);
    let w = m.new_var(3, 3);
    let _ = m.diffn(&[xa, xb], &[ya, yb], &[w, w], &[one, one], true);
    m.propagate().unwrap();
    assert_eq!((m.min(xb), m.max(xb), m.min(yb)), (0, 5, 0));
}

/// Two rectangles' corners fixed at (0, 0) and (1, 1): `(xa, ya, xb, yb)`.
fn corners_0_and_1(m: &mut Model) -> (VarId, VarId, VarId, VarId) {
    (
        m.new_var(0, 0),
        m.new_var(0, 0),
        m.new_var(1, 1),
        m.new_var(1, 1),
    )
}

/// Strict and non-strict on a zero-width rectangle inside a 3×3 square: strict fails,
/// non-strict accepts; and in the non-strict form, when no position is left, a size that
/// may be 0 is fixed to 0.
#[test]
fn diffn_zero_sizes_strict_and_not() {
    for strict in [true, false] {
        let mut m = Model::new();
        let (xa, ya, xb, yb) = corners_0_and_1(&mut m);
        let (three, zero) = (m.new_var(3, 3), m.new_var(0, 0));
        let _ = m.diffn(
            &[xa, xb],
            &[ya, yb],
            &[three, zero],
            &[three, three],
            strict,
        );
        assert_eq!(m.propagate().is_err(), strict);
    }
    let mut m = Model::new();
    let (xa, ya, xb, yb) = corners_0_and_1(&mut m);
    let three = m.new_var(3, 3);
    let w = m.new_var_from_values(&[0, 2, 4]);
    let _ = m.diffn(&[xa, xb], &[ya, yb], &[three, w], &[three, three], false);
    m.propagate().unwrap();
    assert!(m.is_fixed(w) && m.value(w) == 0);
}

/// Rectangles at the ends of the `i32` range: no sum may wrap.
#[test]
fn diffn_at_the_i32_edges() {
    let mut m = Model::new();
    let xa = m.new_var(i32::MAX - 2, i32::MAX - 2);
    let xb = m.new_var(i32::MAX - 4, i32::MAX);
    let y = m.new_var(0, 0);
    let (three, one) = (m.new_var(3, 3), m.new_var(1, 1));
    let _ = m.diffn(&[xa, xb], &[y, y], &[three, three], &[one, one], true);
    assert!(m.propagate().is_err(), "B fits neither left nor right of A");

    let mut m = Model::new();
    let xa = m.new_var(i32::MIN, i32::MIN);
    let xb = m.new_var(i32::MIN, i32::MIN + 4);
    let y = m.new_var(0, 0);
    let (three, one) = (m.new_var(3, 3), m.new_var(1, 1));
    let _ = m.diffn(&[xa, xb], &[y, y], &[three, three], &[one, one], true);
    m.propagate().unwrap();
    assert_eq!((m.min(xb), m.max(xb)), (i32::MIN + 3, i32::MIN + 4));

    let mut m = Model::new();
    let xa = m.new_var(0, 0);
    let xb = m.new_var(i32::MIN, i32::MAX - 1);
    let y = m.new_var(0, 0);
    let wide = m.new_var(0, i32::MAX - 1);
    let one = m.new_var(1, 1);
    let _ = m.diffn(&[xa, xb], &[y, y], &[wide, one], &[one, one], true);
    m.propagate().unwrap();
}
