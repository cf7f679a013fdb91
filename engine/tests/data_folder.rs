//! The data folder is found through one function, `engine::testing::data_dir`, and a test
//! that lacks a file of it records the skip where `.ci/run` lists it at the end of a run.
//! (One test function: it sets the environment variable the function reads.)

use engine::testing::{
    data_dir, data_path, skipped_tests_file, DATA_VARIABLE, SKIPPED_TESTS_VARIABLE,
};
use std::fs;

#[test]
fn the_data_folder_is_the_variable_and_a_missing_file_is_a_recorded_skip() {
    let folder = std::env::temp_dir().join(format!("cpsolve-data-{}", std::process::id()));
    fs::create_dir_all(folder.join("sudoku")).unwrap();
    fs::write(folder.join("sudoku/set.txt"), "1...\n").unwrap();
    std::env::set_var(DATA_VARIABLE, &folder);
    // This test's own skip goes to a file of its own, not into the run's list.
    std::env::set_var(SKIPPED_TESTS_VARIABLE, folder.join("skipped.txt"));
    assert_eq!(skipped_tests_file(), folder.join("skipped.txt"));

    assert_eq!(data_dir(), Some(folder.clone()));
    assert_eq!(
        data_path("sudoku/set.txt"),
        Some(folder.join("sudoku/set.txt"))
    );

    // A missing file: `None`, and a line naming this binary, this test and the reason.
    assert_eq!(data_path("sudoku/absent.txt"), None);
    let added = fs::read_to_string(skipped_tests_file()).unwrap();
    assert!(
        added.lines().any(
            |l| l.starts_with("data_folder::the_data_folder_is_the_variable")
                && l.contains("sudoku/absent.txt is not in the data folder")
        ),
        "skipped-tests.txt gained {added:?}"
    );

    // A variable naming no folder: no data folder at all.
    std::env::set_var(DATA_VARIABLE, folder.join("nowhere"));
    assert_eq!(data_dir(), None);
    fs::remove_dir_all(&folder).unwrap();
}
