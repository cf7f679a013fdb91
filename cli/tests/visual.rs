//! Seeing the search: the trace (`--trace`) and the drawn tree (`--tree`, `cpsolve tree`)
//! say exactly what the search did. The trace's nodes, failures and solutions are the
//! statistics' own counts; the tree is well-formed XML whose shapes add up to the nodes.

mod common;

use common::cpsolve;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

/// A file name in the temporary directory, unique to this test run.
fn temporary(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cpsolve-visual-{}-{name}", std::process::id()))
}

/// Run with `--trace` and `--json -s`; return the trace's events and the JSON answer.
fn traced(args: &[&str], name: &str) -> (Vec<Value>, Value) {
    let path = temporary(name);
    let path_text = path.to_str().unwrap();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--json", "-s", "--trace", path_text]);
    let ran = cpsolve(&all, b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let events = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (events, ran.json())
}

/// Every branch hangs from a node met before, one level below it; the counts of branches,
/// failures and solutions are those of the statistics.
fn check_tree_shape(events: &[Value], answer: &Value) {
    let mut depth_of: HashMap<u64, u64> = HashMap::new();
    let (mut branches, mut failures, mut solutions) = (0, 0, 0);
    for e in events {
        match e["event"].as_str().unwrap() {
            "root" => {
                depth_of.insert(e["node"].as_u64().unwrap(), 0);
            }
            "branch" => {
                branches += 1;
                let parent = e["parent"].as_u64().unwrap();
                let depth = e["depth"].as_u64().unwrap();
                assert_eq!(depth_of[&parent] + 1, depth, "{e}");
                let node = e["node"].as_u64().unwrap();
                assert!(
                    depth_of.insert(node, depth).is_none(),
                    "node id reused: {e}"
                );
            }
            "failure" => {
                failures += 1;
                let node = e["node"].as_u64().unwrap();
                assert_eq!(depth_of[&node], e["depth"].as_u64().unwrap(), "{e}");
            }
            "solution" => {
                solutions += 1;
                let node = e["node"].as_u64().unwrap();
                assert_eq!(depth_of[&node], e["depth"].as_u64().unwrap(), "{e}");
            }
            _ => {}
        }
    }
    let stats = &answer["stats"];
    assert_eq!(branches, stats["nodes"].as_u64().unwrap());
    assert_eq!(failures, stats["failures"].as_u64().unwrap());
    assert_eq!(solutions, stats["solutions"].as_u64().unwrap());
}

#[test]
fn the_trace_of_queens_names_columns_and_counts_rows_from_one() {
    let (events, answer) = traced(&["queens", "8"], "queens8.jsonl");
    check_tree_shape(&events, &answer);
    let solution = events.iter().find(|e| e["event"] == "solution").unwrap();
    // The JSON answer lists the row of each column, from 1: the trace says the same.
    let rows = answer["solution"].as_array().unwrap();
    for (c, row) in rows.iter().enumerate() {
        let name = format!("c{}", c + 1);
        assert_eq!(
            solution["assignment"][&name].as_str().unwrap(),
            row.to_string(),
            "{name}"
        );
    }
    let first = events.iter().find(|e| e["event"] == "branch").unwrap();
    let decision = first["decision"].as_str().unwrap();
    let value = first["value"].as_i64().unwrap();
    assert!(
        decision.ends_with(&format!("= {}", value + 1)),
        "{decision}"
    );
}

#[test]
fn the_trace_of_every_solution_and_failure_matches_the_statistics() {
    let (events, answer) = traced(&["queens", "8", "-a"], "queens8all.jsonl");
    check_tree_shape(&events, &answer);
    let (events, answer) = traced(&["pigeonhole"], "pigeonhole.jsonl");
    check_tree_shape(&events, &answer);
    let solution = events.iter().find(|e| e["event"] == "solution").unwrap();
    let cells = solution["assignment"].as_object().unwrap();
    assert_eq!(cells.len(), 36);
    assert!(cells
        .values()
        .all(|v| ["fork", "knife", "spoon"].contains(&v.as_str().unwrap())));
}

/// A small XML well-formedness check: tags nest and close, attributes are quoted.
fn assert_well_formed_xml(text: &str) {
    // Every '&' starts an entity.
    for (i, _) in text.match_indices('&') {
        let entity = &text[i..];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#"]
                .iter()
                .any(|e| entity.starts_with(e)),
            "a bare '&' at byte {i}"
        );
    }
    let mut open: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("a tag is closed by '>'") + start;
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                open.pop().as_deref(),
                Some(name.trim()),
                "mismatched </{name}>"
            );
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name = body.split_whitespace().next().expect("a tag has a name");
        // Attributes: name="value" pairs, quotes balanced.
        assert_eq!(
            body.matches('"').count() % 2,
            0,
            "unbalanced quotes in <{body}>"
        );
        if !self_closing {
            open.push(name.to_string());
        }
    }
    assert!(open.is_empty(), "unclosed tags: {open:?}");
}

/// The sum of the shapes' `data-count` attributes: the nodes the drawing stands for.
fn drawn_nodes(svg: &str) -> u64 {
    svg.split("data-count=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].parse::<u64>().unwrap())
        .sum()
}

#[test]
fn the_tree_is_xml_and_its_shapes_add_up_to_the_nodes() {
    for (args, name) in [
        (vec!["queens", "6"], "q6"),
        // 6,658 nodes: failed subtrees are collapsed into triangles.
        (vec!["queens", "10", "-a"], "q10"),
        (vec!["pigeonhole"], "pigeonhole"),
    ] {
        let svg_path = temporary(&format!("{name}.svg"));
        let mut all = args.clone();
        all.extend(["--json", "-s", "--tree", svg_path.to_str().unwrap()]);
        let ran = cpsolve(&all, b"");
        assert_eq!(ran.status, 0, "{}", ran.stderr);
        let nodes = ran.json()["stats"]["nodes"].as_u64().unwrap();
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        std::fs::remove_file(&svg_path).unwrap();
        assert_well_formed_xml(&svg);
        assert_eq!(drawn_nodes(&svg), nodes, "{name}");
        assert!(svg.contains(&format!("data-nodes=\"{nodes}\"")));
        assert!(
            svg.matches("data-count=").count() <= 4001,
            "{name}: too many shapes"
        );
    }
}

#[test]
fn cpsolve_tree_redraws_a_trace_and_reports_bad_lines() {
    let trace = temporary("redraw.jsonl");
    let first = temporary("first.svg");
    let again = temporary("again.html");
    let ran = cpsolve(
        &[
            "queens",
            "7",
            "-a",
            "--trace",
            trace.to_str().unwrap(),
            "--tree",
            first.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let ran = cpsolve(
        &[
            "tree",
            trace.to_str().unwrap(),
            "-o",
            again.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let svg = std::fs::read_to_string(&first).unwrap();
    let page = std::fs::read_to_string(&again).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains(svg.trim()));
    // A line that is not a trace event: one error line naming the file and the line.
    std::fs::write(
        &trace,
        "{\"event\":\"root\",\"node\":0,\"tree\":0}\nnot json\n",
    )
    .unwrap();
    let ran = cpsolve(
        &[
            "tree",
            trace.to_str().unwrap(),
            "-o",
            again.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(ran.status, 2);
    assert!(
        ran.stderr.starts_with("error: ") && ran.stderr.contains(":2: "),
        "{}",
        ran.stderr
    );
    assert_eq!(ran.stderr.lines().count(), 1);
    for f in [trace, first, again] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn show_domains_prints_pencil_marks_that_keep_the_solution() {
    let seed = common::seed_dir().join("sudoku.txt");
    let seed = seed.to_str().unwrap();
    let ran = cpsolve(&["sudoku", seed, "--show-domains"], b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let solved = cpsolve(&["sudoku", seed, "--json"], b"");
    let grid = solved.json()["solution"].clone();
    let marks: Vec<&str> = ran
        .stdout
        .lines()
        .filter(|l| l.starts_with("% r"))
        .collect();
    assert_eq!(marks.len(), 81);
    let mut open_cells = 0;
    for line in marks {
        // "% r3c4: 2 6 9"
        let (name, values) = line[2..].split_once(": ").unwrap();
        let (r, c) = name[1..].split_once('c').unwrap();
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        let digit = grid[r - 1][c - 1].to_string();
        let values: Vec<&str> = values.split(' ').collect();
        assert!(
            values.contains(&digit.as_str()),
            "{line}: the solution has {digit}"
        );
        if values.len() > 1 {
            open_cells += 1;
        }
    }
    // Root propagation does not solve this one alone: some cells keep several candidates.
    assert!(open_cells > 0);
    // The solution still follows, unchanged.
    assert!(ran.stdout.contains("----------"));
}

#[test]
fn the_search_order_flags_change_the_tree_not_the_solutions() {
    let nodes = |extra: &[&str]| -> (u64, u64) {
        let mut args = vec!["queens", "10", "--count", "-p", "1", "--json", "-s"];
        args.extend(extra);
        let ran = cpsolve(&args, b"");
        assert_eq!(ran.status, 0, "{extra:?}: {}", ran.stderr);
        let stats = &ran.json()["stats"];
        (
            stats["nodes"].as_u64().unwrap(),
            stats["solutions"].as_u64().unwrap(),
        )
    };
    let (default_nodes, _) = nodes(&[]);
    let (input_nodes, _) = nodes(&["--var", "input"]);
    // The puzzle's own order (first-fail, middle columns first) beats the plain input order.
    assert!(
        default_nodes < input_nodes,
        "{default_nodes} vs {input_nodes}"
    );
    for extra in [
        &["--var", "input"][..],
        &["--var", "first-fail"],
        &["--var", "dom-wdeg"],
        &["--val", "max"],
        &["--val", "split"],
        &["--val", "random", "-r", "7"],
    ] {
        assert_eq!(nodes(extra).1, 724, "{extra:?}");
    }
    let ran = cpsolve(&["queens", "4", "--val", "middle"], b"");
    assert_eq!(ran.status, 2);
    assert_eq!(ran.stderr.lines().count(), 1);
}

#[test]
fn a_restart_explores_another_tree_than_the_run_it_gave_up() {
    let (events, answer) = traced(&["queens", "100", "--restarts", "luby"], "restarts.jsonl");
    check_tree_shape(&events, &answer);
    assert!(answer["stats"]["restarts"].as_u64().unwrap() >= 1);
    // The first decisions of each tree, by tree.
    let mut first_decisions: Vec<Vec<String>> = Vec::new();
    for e in &events {
        match e["event"].as_str().unwrap() {
            "root" => first_decisions.push(Vec::new()),
            "branch" => {
                let tree = first_decisions.last_mut().unwrap();
                if tree.len() < 5 {
                    tree.push(e["decision"].as_str().unwrap().to_string());
                }
            }
            _ => {}
        }
    }
    assert!(first_decisions.len() >= 2);
    assert_ne!(
        first_decisions[0], first_decisions[1],
        "the restart replayed the tree"
    );
}

/// Headless Chromium, or `None` (with a message) when it is not installed outside CI.
fn chromium() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/bin/chromium");
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI installs chromium, but /usr/bin/chromium is missing"
    );
    engine::testing::skip("/usr/bin/chromium is not installed");
    None
}

/// The page's DOM after its script ran (and `budget_ms` of virtual time passed), and
/// Chromium's log on standard error (console messages included).
fn render(chromium: &PathBuf, url: &str, budget_ms: u32) -> (String, String) {
    // A profile of its own for each run: tests run side by side, and Chromium locks it.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let profile = temporary(&format!("chromium-profile-{budget_ms}-{run}"));
    let out = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--virtual-time-budget={budget_ms}"))
        .args(["--dump-dom", url])
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `data-values` of the cells, in the grid's order (row by row).
fn cell_values(dom: &str) -> Vec<String> {
    dom.split("data-values=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .collect()
}

fn body_attribute(dom: &str, name: &str) -> String {
    let body = &dom[dom.find("<body").unwrap()..];
    let body = &body[..body.find('>').unwrap()];
    let at = body.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
    body[at..at + body[at..].find('"').unwrap()].to_string()
}

#[test]
fn the_animation_replays_the_search_exactly() {
    let page = temporary("queens6.html");
    let ran = cpsolve(
        &[
            "queens",
            "6",
            "--json",
            "-s",
            "--animate",
            page.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let answer = ran.json();
    let html = std::fs::read_to_string(&page).unwrap();
    // One frame per node, one per failure, one per solution, and the root's.
    let stats = &answer["stats"];
    assert_eq!(
        html.matches("\"kind\":\"branch\"").count() as u64,
        stats["nodes"].as_u64().unwrap()
    );
    assert_eq!(
        html.matches("\"kind\":\"failure\"").count() as u64,
        stats["failures"].as_u64().unwrap()
    );
    assert_eq!(html.matches("\"kind\":\"solution\"").count(), 1);
    // Self-contained: no resource is fetched from anywhere.
    assert!(!html.contains("src=") && !html.contains("href=") && !html.contains("http"));

    let Some(chromium) = chromium() else { return };
    let url = format!("file://{}", page.display());
    let solution: Vec<String> = answer["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.to_string())
        .collect();
    // The last frame is the solution printed.
    let (dom, log) = render(&chromium, &format!("{url}#last"), 1000);
    assert!(
        !log.contains("Uncaught") && !log.contains(":ERROR:CONSOLE"),
        "{log}"
    );
    assert_eq!(body_attribute(&dom, "data-kind"), "solution");
    assert_eq!(cell_values(&dom), solution);
    // The first frame is the root's fixpoint: every row open in every column.
    let (dom, _) = render(&chromium, &format!("{url}#0"), 1000);
    assert_eq!(body_attribute(&dom, "data-kind"), "root");
    assert!(cell_values(&dom).iter().all(|v| v == "1 2 3 4 5 6"));
    // Playing from the start reaches the solution frame.
    let (dom, log) = render(&chromium, &format!("{url}#play"), 20000);
    assert!(!log.contains("Uncaught"), "{log}");
    assert_eq!(body_attribute(&dom, "data-kind"), "solution");
    assert_eq!(cell_values(&dom), solution);
    let _ = std::fs::remove_file(&page);
}

/// The frames of a page, as its script reads them (`const DATA=...;`).
fn page_data(html: &str) -> Value {
    let start = html.find("const DATA=").unwrap() + "const DATA=".len();
    let end = start + html[start..].find(";\nconst grid").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

/// What the cells of frame `k` must show, in the grid's order (row by row): each cell's
/// values in the puzzle's words, as the page's `data-values`.
fn frame_values(data: &Value, k: usize) -> Vec<String> {
    let domains = data["frames"][k]["domains"].as_array().unwrap();
    let places = data["places"].as_array().unwrap();
    let mut cells: Vec<((u64, u64), String)> = domains
        .iter()
        .zip(places)
        .map(|(d, p)| {
            let words: Vec<String> = d
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    let v = v.as_i64().unwrap().to_string();
                    data["labels"][&v].as_str().map_or(v, str::to_string)
                })
                .collect();
            (
                (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()),
                words.join(" "),
            )
        })
        .collect();
    cells.sort();
    cells.into_iter().map(|(_, w)| w).collect()
}

/// `cpsolve ARGS --animate PAGE --json -s`: the page's text and the JSON answer, after
/// checking that its frames count the statistics' nodes and failures.
fn animated(args: &[&str], name: &str) -> (PathBuf, String, Value) {
    let page = temporary(name);
    let mut all = args.to_vec();
    all.extend(["--json", "-s", "--animate", page.to_str().unwrap()]);
    let ran = cpsolve(&all, b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let answer = ran.json();
    let html = std::fs::read_to_string(&page).unwrap();
    let stats = &answer["stats"];
    assert_eq!(
        html.matches("\"kind\":\"branch\"").count() as u64,
        stats["nodes"].as_u64().unwrap(),
        "{name}"
    );
    assert_eq!(
        html.matches("\"kind\":\"failure\"").count() as u64,
        stats["failures"].as_u64().unwrap(),
        "{name}"
    );
    assert!(!html.contains("src=") && !html.contains("href=") && !html.contains("http"));
    (page, html, answer)
}

/// Load `page#fragment`: no console error, and the frame shown is of `kind`; the DOM.
fn shown(chromium: &PathBuf, page: &std::path::Path, fragment: &str, kind: &str) -> String {
    let url = format!("file://{}#{fragment}", page.display());
    let (dom, log) = render(chromium, &url, 20000);
    assert!(
        !log.contains("Uncaught") && !log.contains(":ERROR:CONSOLE"),
        "{url}: {log}"
    );
    assert_eq!(body_attribute(&dom, "data-kind"), kind, "{url}");
    dom
}

#[test]
fn a_failed_decision_is_shown_applied_and_named() {
    let (page, html, _) = animated(&["queens", "6"], "queens6-failures.html");
    let data = page_data(&html);
    let frames = data["frames"].as_array().unwrap();
    let mut failed_decisions = 0;
    for k in 1..frames.len() {
        let (before, frame) = (&frames[k - 1], &frames[k]);
        if frame["kind"] != "failure" || before["kind"] != "branch" {
            continue;
        }
        // "c3 = 2": the decided cell shows the decision in the decision's frame and in the
        // failure's, not the candidates it had before.
        let decision = before["text"].as_str().unwrap();
        let cell = before["cell"].as_i64().unwrap();
        assert!(cell >= 0, "{decision}: the decision names no cell");
        assert_eq!(frame["cell"], before["cell"]);
        let shown = |f: &Value| f["domains"][cell as usize].clone();
        if let Some((_, value)) = decision.split_once(" = ") {
            let value: i64 = value.split(' ').next().unwrap().parse().unwrap();
            let index = value - 1; // rows are shown from 1
            assert_eq!(shown(before), serde_json::json!([index]), "{decision}");
            assert_eq!(shown(frame), serde_json::json!([index]), "{decision}");
        }
        // The failure says which decision failed and which constraint found it.
        let text = frame["text"].as_str().unwrap();
        assert!(
            text.starts_with(&format!("failure after {decision}: the constraint ")),
            "{text}"
        );
        failed_decisions += 1;
    }
    assert!(failed_decisions > 0, "6-queens fails after some decision");
    assert!(html.contains("id=\"legend\""), "the page has no legend");
    let _ = std::fs::remove_file(&page);
}

#[test]
fn every_animated_page_explains_its_cells_in_a_legend() {
    let (page, _, _) = animated(&["pigeonhole"], "pigeonhole-legend.html");
    let Some(chromium) = chromium() else { return };
    let dom = shown(&chromium, &page, "0", "root");
    for meaning in [
        "large: the one value left",
        "small: the values still possible",
        "dark: nothing known yet",
        "dashed orange: changed at this step",
        "red outline: a decision that failed",
        "colour of fork",
    ] {
        assert!(dom.contains(meaning), "the legend does not say {meaning:?}");
    }
    let _ = std::fs::remove_file(&page);
}

#[test]
fn each_puzzle_is_animated_on_its_own_picture() {
    let beyond = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../puzzles/instances/beyond/starbattle6-1-2.txt");
    let kakuro = common::seed_dir().join("kakuro.txt");
    let (kakuro_page, kakuro_html, kakuro_answer) =
        animated(&["kakuro", kakuro.to_str().unwrap()], "kakuro.html");
    let (star_page, star_html, star_answer) =
        animated(&["starbattle", beyond.to_str().unwrap()], "starbattle.html");
    let mut pigeonhole = Vec::new();
    for viewpoint in ["rows", "columns", "both"] {
        let name = format!("pigeonhole-{viewpoint}.html");
        pigeonhole.push(animated(&["pigeonhole", "--viewpoint", viewpoint], &name));
    }
    // The viewpoints search differently: the frames differ, the shelf does not.
    assert_ne!(pigeonhole[0].1, pigeonhole[2].1);
    let shelf = &pigeonhole[2].2["solution"];
    assert!(pigeonhole.iter().all(|(_, _, a)| &a["solution"] == shelf));

    let Some(chromium) = chromium() else { return };
    // Kakuro: the white cells among its clue cells; the last frame is the solution printed
    // (its white cells, row by row).
    let dom = shown(&chromium, &kakuro_page, "last", "solution");
    let digits: Vec<String> = kakuro_answer["solution"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .filter(|v| !v.is_null())
        .map(|v| v.to_string())
        .collect();
    assert_eq!(cell_values(&dom), digits);
    assert!(dom.contains(">\\11<"), "the clue cell of row 2 (across 11)");
    assert_eq!(cell_values(&dom), frame_values(&page_data(&kakuro_html), 1));
    // Star Battle: a frame in the middle of the search shows its recorded domains in the
    // puzzle's words (★, ·), the regions are bordered, the last frame is the stars printed.
    let data = page_data(&star_html);
    let middle = data["frames"].as_array().unwrap().len() / 2;
    let kind = data["frames"][middle]["kind"].as_str().unwrap().to_string();
    let dom = shown(&chromium, &star_page, &middle.to_string(), &kind);
    assert_eq!(cell_values(&dom), frame_values(&data, middle));
    assert!(dom.contains("3px solid"), "no region border drawn");
    let dom = shown(&chromium, &star_page, "last", "solution");
    let stars: Vec<String> = star_answer["solution"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .map(|v| if v == 1 { "★" } else { "·" }.to_string())
        .collect();
    assert_eq!(cell_values(&dom), stars);
    // Pigeonhole, the seed's two models (rows, and both channelled): playing from the start
    // reaches the shelf printed, in the seed's words and colours.
    let words: Vec<String> = shelf
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_str().unwrap().chars())
        .map(|c| match c {
            'F' => "fork",
            'K' => "knife",
            _ => "spoon",
        })
        .map(str::to_string)
        .collect();
    for (page, _, _) in [&pigeonhole[0], &pigeonhole[2]] {
        let dom = shown(&chromium, page, "play", "solution");
        assert_eq!(cell_values(&dom), words, "{}", page.display());
        // Forks pink (#f8a8c8).
        assert!(dom.contains("rgb(248, 168, 200)"), "{}", page.display());
    }
    for page in [kakuro_page, star_page]
        .iter()
        .chain(pigeonhole.iter().map(|(p, _, _)| p))
    {
        let _ = std::fs::remove_file(page);
    }
}

#[test]
fn the_viewpoint_flag_is_pigeonholes_and_says_so_elsewhere() {
    let ran = cpsolve(&["pigeonhole", "--viewpoint", "rows", "--count"], b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    assert!(ran.stdout.starts_with("1 solution"), "{}", ran.stdout);
    let ran = cpsolve(&["queens", "4", "--viewpoint", "rows"], b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    assert_eq!(
        ran.stderr.trim(),
        "warning: --viewpoint applies to pigeonhole only; queens ignores it"
    );
    let ran = cpsolve(&["pigeonhole", "--viewpoint", "diagonal"], b"");
    assert_eq!(ran.status, 2);
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.stderr);
}

/// `cpsolve ARGS -s --trace FILE` (text output): the trace's events and the statistics
/// lines (`name=value`).
fn traced_text(args: &[&str], name: &str) -> (Vec<Value>, HashMap<String, String>) {
    let path = temporary(name);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["-s", "--trace", path.to_str().unwrap()]);
    let ran = cpsolve(&all, b"");
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let events = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let stats = ran
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("%%%mzn-stat: "))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    (events, stats)
}

/// Every placement of `n` queens, one per column (`rows[c]` from 0), none attacking another.
fn queens_by_brute_force(n: usize) -> Vec<Vec<i64>> {
    let mut all = Vec::new();
    let mut rows = vec![0i64; n];
    loop {
        let safe = (0..n).all(|a| {
            (a + 1..n)
                .all(|b| rows[a] != rows[b] && (rows[a] - rows[b]).abs() != (b as i64 - a as i64))
        });
        if safe {
            all.push(rows.clone());
        }
        // The next assignment, as an odometer.
        let mut c = 0;
        while c < n && rows[c] == n as i64 - 1 {
            rows[c] = 0;
            c += 1;
        }
        if c == n {
            return all;
        }
        rows[c] += 1;
    }
}

/// Does a nogood line's atom hold for `value`?
fn atom_holds(atom: &Value, value: i64) -> bool {
    let v = atom["value"].as_i64().unwrap();
    match atom["op"].as_str().unwrap() {
        ">=" => value >= v,
        "<=" => value <= v,
        "=" => value == v,
        "!=" => value != v,
        op => panic!("unknown atom operator {op}"),
    }
}

#[test]
fn a_trace_with_learning_names_its_nogoods_and_backjumps() {
    let n = 6;
    let (events, stats) = traced_text(&["queens", "6", "--learn"], "queens6-learn.jsonl");
    let solutions = queens_by_brute_force(n);
    assert_eq!(solutions.len(), 4);
    let (mut nogoods, mut backjumps) = (0, 0);
    let mut path: Vec<u64> = vec![0];
    for (k, e) in events.iter().enumerate() {
        match e["event"].as_str().unwrap() {
            "branch" => {
                let depth = e["depth"].as_u64().unwrap() as usize;
                // A branch hangs from the node of the path one level up: after a backjump,
                // from the node the search went back to.
                assert_eq!(path[depth - 1], e["parent"].as_u64().unwrap(), "{e}");
                path.truncate(depth);
                path.push(e["node"].as_u64().unwrap());
            }
            "nogood" => {
                nogoods += 1;
                let atoms = e["atoms"].as_array().unwrap();
                assert_eq!(atoms.len() as u64, e["size"].as_u64().unwrap());
                assert!(!atoms.is_empty());
                // Implied by the model: no placement of the queens satisfies all its atoms.
                for rows in &solutions {
                    let all_hold = atoms.iter().all(|a| {
                        let var = a["var"].as_u64().unwrap() as usize;
                        assert!(var < n, "an atom on a variable that is no queen: {a}");
                        assert_eq!(a["name"], format!("c{}", var + 1));
                        atom_holds(a, rows[var])
                    });
                    assert!(!all_hold, "the solution {rows:?} violates {e}");
                }
                // The backjump that follows goes where the nogood says.
                let next = &events[k + 1];
                assert_eq!(next["event"], "backjump", "{e}");
                assert_eq!(next["to"], e["backjump"]);
            }
            "backjump" => {
                backjumps += 1;
                let (from, to) = (e["from"].as_u64().unwrap(), e["to"].as_u64().unwrap());
                assert!(to < from, "{e}");
                let closed: Vec<u64> = e["closed"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_u64().unwrap())
                    .collect();
                assert_eq!(closed.len() as u64, from - to, "{e}");
                assert_eq!(closed[..], path[to as usize + 1..=from as usize], "{e}");
                assert_eq!(e["target"].as_u64().unwrap(), path[to as usize], "{e}");
                path.truncate(to as usize + 1);
            }
            _ => {}
        }
    }
    assert!(
        nogoods > 0 && backjumps > 0,
        "{nogoods} nogoods, {backjumps} backjumps"
    );
    assert_eq!(stats["nogoods"], nogoods.to_string());
    assert_eq!(stats["backjumps"], backjumps.to_string());
    // Without learning, none of them.
    let (events, _) = traced_text(&["queens", "6"], "queens6-plain.jsonl");
    assert!(events
        .iter()
        .all(|e| e["event"] != "nogood" && e["event"] != "backjump"));
}

#[test]
fn the_tree_draws_a_backjump_with_its_nogood() {
    // The seed's pigeonhole puzzle, with learning: a failure at depth 5 learns that r4c6 must
    // be a knife and jumps back to the root, undoing five decisions.
    let svg_path = temporary("pigeonhole-learn.svg");
    let ran = cpsolve(
        &[
            "pigeonhole",
            "--learn",
            "-s",
            "--tree",
            svg_path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    std::fs::remove_file(&svg_path).unwrap();
    assert_well_formed_xml(&svg);
    let stat = |name: &str| -> u64 {
        let line = ran
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("%%%mzn-stat: {name}=")))
            .unwrap();
        line.parse().unwrap()
    };
    assert_eq!(drawn_nodes(&svg), stat("nodes"));
    let backjumps = stat("backjumps");
    assert!(backjumps >= 2, "{backjumps}");
    assert_eq!(svg.matches("class=\"backjump\"").count() as u64, backjumps);
    // The five decisions undone by the long jump, and the one by the short jump before it.
    assert_eq!(svg.matches("class=\"jumped\"").count(), 6);
    // The nogood that caused the long jump, as the puzzle reads it, tagged on its arrow.
    assert!(svg.contains("nogood 2: never r4c6 != knife"), "{svg}");
    assert!(svg.contains(">nogood 2<"));
    // Where the jumps landed: node 5 failed again, and the root found the solution.
    let rings: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains("class=\"after-backjump\""))
        .collect();
    assert_eq!(rings.len(), 2, "{rings:?}");
    assert!(
        rings[0].contains("stroke=\"#2a2\""),
        "the root: {}",
        rings[0]
    );
    assert!(rings[1].contains("stroke=\"#d33\""), "node 5: {}", rings[1]);
}

#[test]
fn the_animation_shows_a_nogood_and_the_backjump_it_causes() {
    let (page, html, _) = animated(&["pigeonhole", "--learn"], "pigeonhole-learn.html");
    let data = page_data(&html);
    let frames = data["frames"].as_array().unwrap();
    let names: Vec<&str> = data["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    let marked = |f: &Value| -> Vec<&str> {
        f["marks"]
            .as_array()
            .map(|m| {
                m.iter()
                    .map(|i| names[i.as_u64().unwrap() as usize])
                    .collect()
            })
            .unwrap_or_default()
    };
    // A failure, then its nogood, then the backjump.
    let jump = frames
        .iter()
        .position(|f| f["kind"] == "backjump" && marked(f).len() == 5)
        .expect("the long backjump has a frame");
    assert_eq!(frames[jump - 1]["kind"], "nogood");
    assert_eq!(marked(&frames[jump - 1]), ["r4c6"]);
    assert!(frames[jump - 2]["kind"] == "failure" || frames[jump - 2]["kind"] == "backjump");
    assert_eq!(
        marked(&frames[jump]),
        ["r1c5", "r1c6", "r3c5", "r3c2", "r3c3"],
        "the decisions undone, in the order they were taken"
    );
    let text = frames[jump]["text"].as_str().unwrap();
    assert!(
        text.starts_with("backjump from depth 5 to depth 0"),
        "{text}"
    );
    // Back at the root, the nogood makes r4c6 a knife.
    let cell = names.iter().position(|n| *n == "r4c6").unwrap();
    assert_eq!(frames[jump]["domains"][cell], serde_json::json!([1]));

    let Some(chromium) = chromium() else { return };
    for (k, kind, cells) in [(jump - 1, "nogood", 1), (jump, "backjump", 5)] {
        let dom = shown(&chromium, &page, &k.to_string(), kind);
        // The grid's cells (the legend, after it, shows one marked cell too).
        let grid = &dom[..dom.find("id=\"legend\"").unwrap()];
        assert_eq!(grid.matches(" marked\"").count(), cells, "{kind}: {dom}");
        let step = &dom[dom.find("id=\"step\">").unwrap()..];
        assert!(
            step.starts_with(&format!(
                "id=\"step\">{}",
                if k == jump {
                    "backjump"
                } else {
                    "learned nogood"
                }
            )),
            "{step}"
        );
        assert!(
            dom.contains("purple outline"),
            "the legend says what the outline means"
        );
    }
    let _ = std::fs::remove_file(&page);
}
