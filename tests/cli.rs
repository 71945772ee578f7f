//! The program end to end: a file mixing good and bad lines.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_bytes(args, stdin.as_bytes())
}

fn run_bytes(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const A: &str = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;

fn lines() -> String {
    [
        format!(r#"{{"id":"touch","op":"intersect","a":{A},"b":{{"type":"box","center":[2,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}}}}"#),
        r#"{"id":"bad","op":"intersect","a":{"type":"box"}}"#.to_string(),
        "{ this is not json".to_string(),
        String::new(),
        format!(r#"{{"id":"gap","op":"intersect","a":{A},"b":{{"type":"box","center":["2.000001",0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}}}}"#),
    ]
    .join("\n")
}

#[test]
fn query_answers_every_line_in_order_and_fails_overall() {
    let (code, out, _) = run(&["query"], &lines());
    assert_eq!(code, 1, "a failed line makes the exit status 1");
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        answers.len(),
        5,
        "one answer per line, the blank one too: {out}"
    );
    assert_eq!(answers[0]["id"], "touch");
    assert_eq!(
        answers[0]["intersect"], true,
        "faces touching at x = 1: {}",
        answers[0]
    );
    assert_eq!(answers[1]["id"], "bad");
    assert_eq!(answers[1]["error"], "a.center: missing");
    assert_eq!(answers[2]["line"], 3);
    assert_eq!(answers[3]["line"], 4, "the blank line");
    assert_eq!(answers[4]["id"], "gap");
    assert_eq!(
        answers[4]["intersect"], false,
        "a gap of 1e-6: {}",
        answers[4]
    );
}

/// A line that is not UTF-8 gets an error of its own; the lines around it are
/// still answered.
#[test]
fn invalid_utf8_line_is_answered_and_the_stream_goes_on() {
    let good: Vec<String> = lines()
        .lines()
        .filter(|l| l.contains("touch") || l.contains("gap"))
        .map(String::from)
        .collect();
    let mut input = good[0].as_bytes().to_vec();
    input.extend_from_slice(b"\n{\"id\":\"\xff\xfe\",\"op\":\"intersect\"}\r\n");
    input.extend_from_slice(good[1].as_bytes());
    input.push(b'\n');
    let (code, out, _) = run_bytes(&["query"], &input);
    assert_eq!(code, 1);
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 3, "{out}");
    assert_eq!(answers[0]["intersect"], true);
    assert_eq!(answers[1]["line"], 2);
    assert!(answers[1]["error"].as_str().unwrap().contains("UTF-8"));
    assert_eq!(answers[2]["intersect"], false);
}

#[test]
fn query_exits_zero_when_every_line_is_answered() {
    let good: String = lines()
        .lines()
        .filter(|l| l.contains("touch") || l.contains("gap"))
        .collect::<Vec<_>>()
        .join("\n");
    let (code, out, _) = run(&["query", "-"], &good);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn verify_judges_claims_and_summarises() {
    let input = [
        // Correct claim: touching boxes intersect.
        format!(r#"{{"id":1,"op":"intersect","a":{A},"b":{{"type":"box","center":[2,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}},"claim":{{"intersect":true}}}}"#),
        // A float engine's wrong claim: a 1e-6 gap reported as a hit.
        format!(r#"{{"id":2,"op":"intersect","a":{A},"b":{{"type":"box","center":["2.000001",0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}},"claim":{{"intersect":true}}}}"#),
    ]
    .join("\n");
    let dir = std::env::temp_dir().join(format!("exact-collision-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("claims.jsonl");
    std::fs::write(&file, input).unwrap();
    let (code, out, err) = run(&["verify", file.to_str().unwrap()], "");
    assert_eq!(code, 1, "a disagreeing claim makes the exit status 1");
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers[0]["verdict"], "agree");
    assert_eq!(answers[1]["verdict"], "disagree");
    assert!(answers[1]["detail"]
        .as_str()
        .unwrap()
        .contains("claimed true, exact answer false"));
    assert!(err.contains("2 queries, 1 agree, 1 disagree"), "{err}");
}

#[test]
fn demo_runs_by_default_and_help_explains_numbers() {
    let (code, out, _) = run(&[], "");
    assert_eq!(code, 0);
    assert!(out.contains("seed 002"));
    let (code, out, _) = run(&["--help"], "");
    assert_eq!(code, 0);
    assert!(
        out.contains("exact rational") && out.contains("nearest double"),
        "{out}"
    );
}
