use engine::{Control, SearchConfig};
use puzzles::{ModelOptions, Purpose};
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let t = Instant::now();
    let inst = puzzles::sudoku::parse(&text).unwrap();
    let parse = t.elapsed();
    let opts = ModelOptions {
        alldiff: engine::AllDiffLevel::Domain,
        sum: Default::default(),
        colours: None,
        purpose: Purpose::Solve,
        limits: Default::default(),
    };
    let (mut tb, mut ts, mut ta, mut tc) = (0.0, 0.0, 0.0, 0.0);
    for i in &inst {
        let t = Instant::now();
        let mut built = i.build(&opts).unwrap();
        tb += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut cfg: SearchConfig = built.search.clone();
        cfg.solution_limit = Some(1);
        let mut sol = None;
        engine::search(
            &mut built.model,
            &cfg,
            &mut engine::search::NoListener,
            &mut |s| {
                sol = Some(s.clone());
                Control::Stop
            },
        );
        ts += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let a = i.answer(&built, sol.as_ref().unwrap());
        ta += t.elapsed().as_secs_f64();
        let t = Instant::now();
        i.check(&a).unwrap();
        tc += t.elapsed().as_secs_f64();
    }
    let n = inst.len() as f64;
    println!(
        "parse {:.1} build {:.1} search {:.1} answer {:.1} check {:.1} (µs/puzzle)",
        parse.as_secs_f64() * 1e6 / n,
        tb * 1e6 / n,
        ts * 1e6 / n,
        ta * 1e6 / n,
        tc * 1e6 / n
    );
}
