// Package transcript owns the JSONL transcript format that records what an
// agent did during one task, and the canonical JSON digests used to compare
// tool arguments and task specs across runs.
//
// A transcript file is one JSON object per line:
//
//	{"type":"header","schema":"contractbench.transcript/v1","task":"task-01-example-com-title","task_digest":"sha256:…","server":"builtin","recorded_by":"anthropic:claude-sonnet-4-6","model":"claude-sonnet-4-6","created":"2026-11-21T10:00:00Z"}
//	{"type":"call","seq":1,"tool":"navigate","args":{"url":"https://example.com/"},"args_digest_sha256":"…","response_kind":"ok","response_bytes":1234}
//	{"type":"final","answer":"Example Domain"}
//
// The header comes first and only once; calls follow with seq counting 1, 2,
// 3, …; the final line, when present, is last. A transcript recorded from a
// model's run also gives each call line and the final line a think_ms: the
// time from the request of the turn to the model's reply (on a turn's
// first call; its other calls say 0), which a paced replay can wait
// (run --pace recorded). Reference transcripts, outside agents' and those
// recorded before think times were kept have none; think_ms never enters
// a digest. A transcript without a final
// line is well formed (the recorded run ended on a budget cap or a timeout);
// replaying it is drift, which the replay provider reports.
//
// Two kinds of failure are kept apart on purpose. [Read] rejects a file that
// is not a transcript at all (bad JSON, an unknown line type or field, seq
// out of order, a missing header, content after the final line) with a
// [*ParseError] naming file and line: that is bad input. A call line that is
// well formed but whose args_digest_sha256 does not match its args is
// accepted by Read and reported by [VerifyDigests] as a [*DigestMismatchError]
// with its seq: the file was edited by hand after recording, and a replay run
// reports that as replay drift (the recording no longer says what was
// recorded) rather than as a usage error.
//
// Digests are SHA-256 over [CanonicalJSON]: object keys sorted, no
// insignificant white space, numbers kept exactly as written.
//
// This package imports only the standard library. It knows nothing about
// providers, tool servers or contracts.
package transcript
