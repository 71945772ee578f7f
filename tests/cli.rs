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
    // A box by pose has no center: what is missing is one of the box forms.
    assert_eq!(
        answers[1]["error"],
        "a.half_axes: missing (a box is center + half_axes, center + axes + half_extents, or half_extents + rotation + translation)"
    );
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
    let tmp = tempfile::Builder::new()
        .prefix("exact-collision-verify-")
        .tempdir()
        .unwrap();
    let file = tmp.path().join("claims.jsonl");
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
    assert!(out.contains("[cube intersection article]"), "{out}");
    assert!(!out.to_lowercase().contains("seed"), "{out}");
    let (code, out, _) = run(&["--help"], "");
    assert_eq!(code, 0);
    assert!(
        out.contains("exact rational") && out.contains("nearest double"),
        "{out}"
    );
}

mod mixed_lines;

/// `exact-collision ARGS` with `stdin`; (status, stdout bytes, stderr).
fn run_raw(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Written from a thread: the answers of a long input fill the stdout pipe
    // before the input is all written.
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `text` as the file `TAG.jsonl` in a new scratch directory; (directory, file).
fn scratch_file(tag: &str, text: &[u8]) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("exact-collision-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{tag}.jsonl"));
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

/// Asserts that `answer` is the error for line `no` (from 1) being longer than
/// `limit` bytes (docs/protocol.md, "Bounded lines").
fn assert_overlong(answer: &[u8], no: usize, limit: usize, what: &str) {
    let want = format!(r#"{{"line":{no},"error":"line longer than the limit of {limit} bytes"#);
    assert!(
        answer.starts_with(want.as_bytes()),
        "{what}line {no}: {}",
        String::from_utf8_lossy(answer)
    );
}

/// Answered on several threads, a file mixing every op and bad lines (more
/// lines than two of the program's chunks) prints the same bytes, in the same
/// order, with the same exit status, as on one thread; from a file and from
/// standard input; and `verify` summarises the same. Nothing is printed on
/// standard error when it is not a terminal (no progress bar).
#[test]
fn parallel_answers_equal_sequential_ones_byte_for_byte() {
    let mut lines = mixed_lines::mixed_lines(2, 4_500);
    // Over-long lines (longer than the default limit of 1 MiB,
    // docs/protocol.md "Bounded lines"): first, in the middle, and last
    // (without a final line break), one byte over and 2.5 MiB.
    let limit = 1usize << 20;
    let long = |len: usize| {
        let mut l = br#"{"op":"intersect","a":"#.to_vec();
        l.resize(len, b' ');
        l
    };
    let over = [(0, limit + 1), (2_000, 5 * limit / 2), (4_502, limit + 1)];
    for &(at, len) in &over {
        lines.insert(at, long(len));
    }
    assert_eq!(lines.len(), 4_503);
    let text = lines.join(&b'\n');
    let (dir, file) = scratch_file("jobs", &text);
    let f = file.to_str().unwrap();
    let (code, one, err) = run_raw(&["query", "--jobs", "1", f], b"");
    assert_eq!(code, 1, "the file has bad lines");
    assert_eq!(err, "");
    assert_eq!(one.iter().filter(|&&c| c == b'\n').count(), lines.len());
    let answers: Vec<&[u8]> = one.split(|&c| c == b'\n').collect();
    for &(at, _) in &over {
        assert_overlong(answers[at], at + 1, limit, "");
    }
    for args in [
        &["query", "--jobs", "2", f][..],
        &["query", "-j", "5", f],
        &["query", "--jobs", "16", f],
        &["query", f],
    ] {
        let (c, out, err) = run_raw(args, b"");
        assert_eq!(c, code, "{args:?}");
        assert!(out == one, "{args:?}: the answers differ from --jobs 1");
        assert_eq!(err, "", "{args:?}");
    }
    for jobs in ["3", "16"] {
        let (c, out, _) = run_raw(&["query", "--jobs", jobs, "-"], &text);
        assert_eq!(c, code);
        assert!(
            out == one,
            "standard input, --jobs {jobs}: the answers differ"
        );
    }

    let (c1, out1, err1) = run_raw(&["verify", "--jobs", "1", f], b"");
    let (c3, out3, err3) = run_raw(&["verify", "--jobs", "3", f], b"");
    assert_eq!((c1, &err1), (c3, &err3));
    assert!(out1 == out3, "verify: the answers differ");
    assert!(err1.starts_with("summary: 4503 queries"), "{err1}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The answering pipeline over a file of more chunks than it holds at once
/// (13,000 lines: 7 chunks of 2,048; at most 5 are in memory): the same bytes
/// at `--jobs` 1, 2 and 16; lines of 70,000 bytes (read across many refills of
/// the reader's 64 KiB buffer) answered as the same line unpadded, at chunk
/// ends and starts; with `--max-line-bytes` the median line length, exactly
/// the lines longer (counted here) refused and every other answer unchanged;
/// a reader that leaves after 5,000 answers (mid-stream) ends the program by
/// SIGPIPE, quietly, after printing those answers in order; a full disk fails
/// loudly once.
#[cfg(target_os = "linux")]
#[test]
fn pipeline_over_many_chunks_keeps_order_limits_and_output_errors() {
    use std::io::{BufRead, Read};
    use std::os::unix::process::ExitStatusExt;
    let mut lines = mixed_lines::mixed_lines(3, 13_000);
    // BOX_LINE with an id, then padded with JSON white space.
    let pad_line = BOX_LINE.replacen('{', r#"{"id":"pad","#, 1);
    let mut padded = pad_line.clone().into_bytes();
    padded.resize(70_000, b' ');
    // Last line of chunk 1, first of chunk 2, inside chunk 4, the last line.
    let at = [2_047, 2_048, 7_000, 12_999];
    for &i in &at {
        lines[i] = padded.clone();
    }
    let text = lines.join(&b'\n');
    let (dir, file) = scratch_file("pipeline", &text);
    let f = file.to_str().unwrap();

    let (code, one, err) = run_raw(&["query", "--jobs", "1", f], b"");
    assert_eq!((code, err.as_str()), (1, ""), "the file has bad lines");
    let answers: Vec<&[u8]> = one.split_inclusive(|&c| c == b'\n').collect();
    assert_eq!(answers.len(), lines.len());
    let (c, unpadded, _) = run_raw(&["query", "--jobs", "1", "-"], pad_line.as_bytes());
    assert_eq!(c, 0);
    let v: Value = serde_json::from_slice(&unpadded).unwrap();
    assert_eq!(v["intersect"], false, "a gap of 1e-6: {v}");
    for &i in &at {
        assert!(
            answers[i] == unpadded,
            "line {}: {}",
            i + 1,
            String::from_utf8_lossy(answers[i])
        );
    }
    for jobs in ["2", "16"] {
        let (c, out, err) = run_raw(&["query", "--jobs", jobs, f], b"");
        assert_eq!((c, err.as_str()), (code, ""), "--jobs {jobs}");
        assert!(
            out == one,
            "--jobs {jobs}: the answers differ from --jobs 1"
        );
    }

    // The median length: about half the lines are refused, in every chunk.
    let limit = {
        let mut lens: Vec<usize> = lines.iter().map(Vec::len).collect();
        lens.sort_unstable();
        lens[lens.len() / 2]
    };
    let long = lines.iter().filter(|l| l.len() > limit).count();
    assert!(
        long > 5_000,
        "about half the lines are over the limit: {long}"
    );
    let limit_arg = limit.to_string();
    let mut first = None;
    for jobs in ["1", "2", "16"] {
        let args = ["query", "--jobs", jobs, "--max-line-bytes", &limit_arg, f];
        let (_, out, _) = run_raw(&args, b"");
        let got: Vec<&[u8]> = out.split_inclusive(|&c| c == b'\n').collect();
        assert_eq!(got.len(), lines.len(), "--jobs {jobs}");
        for (i, l) in lines.iter().enumerate() {
            if l.len() > limit {
                assert_overlong(got[i], i + 1, limit, &format!("--jobs {jobs}, "));
            } else {
                assert!(
                    got[i] == answers[i],
                    "--jobs {jobs}, line {}: changed by the limit",
                    i + 1
                );
            }
        }
        let first = first.get_or_insert(out.clone());
        assert!(
            *first == out,
            "--jobs {jobs}: differs from --jobs 1 under the limit"
        );
    }

    for jobs in ["2", "16"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_exact-collision"))
            .args(["query", "--jobs", jobs, f])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut got = Vec::new();
        for _ in 0..5_000 {
            stdout.read_until(b'\n', &mut got).unwrap();
        }
        assert!(
            got[..] == one[..got.len()],
            "--jobs {jobs}: the first 5,000 answers"
        );
        drop(stdout);
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(
            status.signal(),
            Some(libc::SIGPIPE),
            "--jobs {jobs}: {status:?}"
        );
        assert_eq!(err, "", "--jobs {jobs}: quiet");

        let (status, err) = run_on_full_disk(&["query", "--jobs", jobs, f]);
        assert_eq!(status.code(), Some(2), "--jobs {jobs}: {err}");
        assert_eq!(
            err.lines().count(),
            1,
            "--jobs {jobs}: one error line: {err}"
        );
        assert!(err.contains("No space left on device"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--stats`: the lines read by each parser (counted by hand: two good box
/// lines, one with an exact string coordinate, take the lean path; a missing
/// field, malformed JSON and a blank line the general one), after the answers.
#[test]
fn query_stats_counts_the_lines_of_each_path() {
    let (code, out, err) = run(&["query", "--stats"], &lines());
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 5);
    assert!(
        err.contains("stats: lines: 2 lean parse, 3 general parse"),
        "{err}"
    );
    let (code, _, err) = run(&["query", "--jobs", "0"], "");
    assert_eq!(code, 2, "--jobs 0 is refused: {err}");
}

// A closed output pipe ends a command quietly, killed by SIGPIPE (status 141
// in a shell), as line tools end; a real write error fails loudly, status 2
// (docs/protocol.md, "Exit status").

const BOX_LINE: &str = r#"{"op":"intersect","a":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"b":{"type":"box","center":["2.000001",0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"claim":{"intersect":false}}"#;

/// A scratch directory holding the inputs every command below reads.
/// The directory is the caller's and is removed when it is dropped.
fn pipe_inputs() -> tempfile::TempDir {
    let tmp = tempfile::Builder::new()
        .prefix("exact-collision-pipes-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    // 4,000 answers of about 50 bytes: 200 kB, over a pipe's 64 kB buffer.
    let big: String = (0..4000).map(|_| format!("{BOX_LINE}\n")).collect();
    std::fs::write(dir.join("big.jsonl"), big).unwrap();
    std::fs::write(dir.join("a.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    std::fs::write(dir.join("b.obj"), "v 0 0 1\nv 1 0 1\nv 0 1 1\nf 1 2 3\n").unwrap();
    let stl = |z: u8| {
        format!(
            "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 {z}\nvertex 1 0 {z}\nvertex 0 1 {z}\nendloop\nendfacet\nendsolid t\n"
        )
    };
    std::fs::write(dir.join("a.stl"), stl(0)).unwrap();
    std::fs::write(dir.join("b.stl"), stl(1)).unwrap();
    tmp
}

/// The commands that write answers, on `dir`'s inputs.
fn output_commands(dir: &std::path::Path) -> Vec<Vec<String>> {
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let csv = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ccd-simulation/cloth-funnel/vertex-face/227vf.csv");
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["query", &p("big.jsonl")]),
        v(&["verify", &p("big.jsonl")]),
        v(&["ccd-csv", &csv.to_string_lossy()]),
        v(&["step", &p("a.obj"), &p("b.obj")]),
        v(&["audit", "--cases", "12"]),
        v(&["mesh", &p("a.stl"), &p("b.stl")]),
    ]
}

#[cfg(unix)]
#[test]
fn closed_output_pipe_ends_every_command_quietly_by_sigpipe() {
    use std::os::unix::process::ExitStatusExt;
    let tmp = pipe_inputs();
    let dir = tmp.path();
    for args in output_commands(dir) {
        // The read end is closed before the command starts, so its first
        // write meets a closed pipe whatever the timing.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_exact-collision"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(
            out.status.signal(),
            Some(libc::SIGPIPE),
            "{args:?}: {:?}",
            out.status
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}: quiet");
    }
}

#[cfg(unix)]
#[test]
fn query_piped_into_head_stops_after_the_reader_leaves() {
    use std::io::BufRead;
    use std::os::unix::process::ExitStatusExt;
    let tmp = pipe_inputs();
    let dir = tmp.path();
    for cmd in ["query", "verify"] {
        // `exact-collision query big.jsonl | head -1`.
        let mut child = Command::new(env!("CARGO_BIN_EXE_exact-collision"))
            .args([cmd, &dir.join("big.jsonl").to_string_lossy()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let v: Value = serde_json::from_str(&first).unwrap();
        // The boxes are 0.000001 apart (centres 2.000001 apart, half-widths 1).
        assert_eq!(v["intersect"], false, "{cmd}: {first}");
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.signal(),
            Some(libc::SIGPIPE),
            "{cmd}: {:?}",
            out.status
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{cmd}: quiet");
    }
}

/// The program with `args`, its standard output on `/dev/full` (every write
/// fails: no space left); (exit status, standard error).
#[cfg(target_os = "linux")]
fn run_on_full_disk<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (std::process::ExitStatus, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn full_disk_on_standard_output_fails_loudly_once() {
    let tmp = pipe_inputs();
    let dir = tmp.path();
    for args in output_commands(dir) {
        let (status, err) = run_on_full_disk(&args);
        assert_eq!(status.code(), Some(2), "{args:?}: {status:?} {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one error line: {err}");
        assert!(
            err.starts_with("exact-collision: ") && err.contains("No space left on device"),
            "{args:?}: {err}"
        );
    }
}
