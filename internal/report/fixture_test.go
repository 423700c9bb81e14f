package report

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"regexp"
	"testing"
	"time"

	"contractbench/internal/contract"
)

// tinyPNG returns a real 2x2 PNG, so screenshot files in tests are images a
// viewer can open.
func tinyPNG(t testing.TB, gray uint8) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 2, 2))
	for i := range img.Pix {
		img.Pix[i] = gray
	}
	img.SetGray(0, 0, color.Gray{Y: 255 - gray})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatalf("encoding test PNG: %v", err)
	}
	return b.Bytes()
}

// tinyJPEG returns a real 4x2 JPEG, as thumbnails are.
func tinyJPEG(t testing.TB, gray uint8) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 4, 2))
	for i := range img.Pix {
		img.Pix[i] = gray
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatalf("encoding test JPEG: %v", err)
	}
	return b.Bytes()
}

var webvoyagerTasks = []string{
	"task-01-example-com-title",
	"task-02-mdn-fetch-syntax",
	"task-03-wikipedia-eiffel-height",
	"task-04-rfc-9110-section-9-title",
	"task-05-w3c-html-section-definition",
	"task-06-arxiv-2401-13919-abstract",
	"task-07-rust-string-trim-method",
	"task-08-mdn-array-map-return",
	"task-09-wikipedia-speed-of-light",
	"task-10-tc39-ecma262-strict-mode",
}

func testSettings(tasks []string, repeat int) Settings {
	return Settings{
		Suite:    "webvoyager",
		Agent:    "replay",
		Server:   "builtin",
		Model:    "claude-sonnet-4-5",
		Web:      "replay",
		Caps:     Caps{MaxTokensPerTurn: 4096, MaxToolIterations: 50, MaxUSD: 0.50},
		Repeat:   repeat,
		Parallel: 2,
		Tasks:    tasks,
	}
}

// passedResult is a plain passing result whose numbers vary with i, so
// medians and sums have something to work on.
func passedResult(task string, attempt, i int, url string) TaskResult {
	return TaskResult{
		Task:          task,
		Attempt:       attempt,
		Outcome:       OutcomePassed,
		DurationMS:    int64(1500 + 250*i),
		ToolCalls:     2 + i%3,
		ResponseBytes: int64(4000 + 1000*i),
		Tokens:        Tokens{Input: int64(1200 + 100*i), Output: 80, CacheRead: 600},
		USD:           0.0051,
		Evidence: []contract.Evidence{{
			Path: "postconditions[0]", Kind: contract.KindURL, Passed: true,
			Expected: "URL matches ^" + regexp.QuoteMeta(url) + "$", Seen: url,
		}},
		Observation: &contract.Observation{URL: url, Title: task},
		Answer:      "Done.",
		Tags:        [][]string{{"smoke"}, {"search", "encyclopedia"}, {"docs"}}[i%3],
		Calls: []Call{
			{Seq: 1, Tool: "navigate", Args: []byte(`{"url":"` + url + `"}`), Reply: "navigated to " + url,
				DurationMS: 700, ResponseBytes: 310, Turn: 1,
				Tokens: &Tokens{Input: int64(600 + 100*i), Output: 40, CacheRead: 600}, USD: 0.0031},
			{Seq: 2, Tool: "read_page", Args: []byte(`{"mode":"text"}`), Reply: "# " + task + "\n\nThe page's text.",
				DurationMS: 120, ResponseBytes: int64(3690 + 1000*i), Turn: 2,
				Tokens: &Tokens{Input: 600, Output: 40}, USD: 0.002},
		},
	}
}

// testRun is a realistic ten-task replay run: seven passes, a contract
// failure with evidence from an or of acceptable strings, a replay drift and
// a harness error.
func testRun(t testing.TB) *Run {
	r := &Run{
		SchemaVersion: SchemaVersion,
		GitSHA:        "4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
		Started:       time.Date(2025, 11, 21, 11, 19, 0, 0, time.UTC),
		DurationMS:    48211,
		Settings:      testSettings(webvoyagerTasks, 1),
	}
	urls := []string{
		"https://example.com/",
		"https://developer.mozilla.org/en-US/docs/Web/API/Window/fetch",
		"https://en.wikipedia.org/wiki/Eiffel_Tower",
		"https://www.rfc-editor.org/rfc/rfc9110.html#name-methods",
		"https://html.spec.whatwg.org/multipage/sections.html#the-section-element",
		"https://arxiv.org/abs/2401.13919",
		"https://doc.rust-lang.org/std/primitive.str.html#method.trim",
		"https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/map",
		"https://en.wikipedia.org/wiki/Speed_of_light",
		"https://tc39.es/ecma262/",
	}
	r.Provenance = Provenance{Contractbench: "v0.0.0-20251121111900-4f2a9c1e8b7d"}
	for i, task := range webvoyagerTasks {
		r.Results = append(r.Results, passedResult(task, 1, i, urls[i]))
		digest := func(what string) string {
			return fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(what+task)))
		}
		r.Results[i].Provenance = &TaskProvenance{Spec: digest("spec"), Contract: digest("contract"), Transcript: digest("transcript"),
			Fixtures: digest("fixtures"), Chromium: "Chrome/156.0.8078.79"}
	}

	failed := &r.Results[2]
	failed.Outcome = OutcomeFailed
	failed.Failed = &Clause{Path: "postconditions[1]", Kind: contract.KindOr}
	failed.Evidence = []contract.Evidence{
		{Path: "postconditions[0]", Kind: contract.KindURL, Passed: true,
			Expected: `URL matches ^https://en\.wikipedia\.org/wiki/Eiffel_Tower$`, Seen: urls[2]},
		{Path: "postconditions[1].children[0]", Kind: contract.KindDOMText, Passed: false,
			Expected: `visible text of .infobox contains "330 m"`,
			Seen:     `.infobox: 1 match; longest part found is "33", in match 1: "…Height 312 m (1,024 ft) (original); 330 m (1,083 ft) is given as 33O m…"`},
		{Path: "postconditions[1].children[1]", Kind: contract.KindDOMText, Passed: false,
			Expected: `visible text of .infobox contains "330 metres"`,
			Seen:     `.infobox: 1 match; longest part found is "33", in match 1: "…33O m…"`},
	}
	failed.Observation.Elements = map[string]contract.Elements{
		".infobox": {Count: 1, Texts: []string{"Height 312 m (1,024 ft) (original); 330 m (1,083 ft) is given as 33O m"}},
		"body":     {Count: 1, Texts: []string{"Eiffel Tower …"}},
	}
	failed.Observation.Network = []contract.NetworkEntry{
		{URL: urls[2], Method: "GET", Status: 200, ResourceType: "Document", StartMS: 412},
		{URL: "https://en.wikipedia.org/w/load.php?modules=site.styles", Method: "GET", Status: 200, ResourceType: "Stylesheet", StartMS: 530, AfterLastToolCall: true},
	}
	failed.Observation.Screenshot = contract.Screenshot{PNG: tinyPNG(t, 40), PHash: "c3c3e1e1f0f07878"}
	failed.Answer = "The tower is 330 m tall."
	failed.Calls[0].Thumbnail = &Thumbnail{JPEG: tinyJPEG(t, 60), URL: urls[2]}
	failed.Calls[1].Thumbnail = &Thumbnail{URL: urls[2], Error: "thumbnail: a dialog is showing"}

	drift := &r.Results[5]
	drift.Outcome = OutcomeReplayDrift
	drift.Reason = "call 3: args digest mismatch: recorded 9b1c…e2, got 51aa…07 (click {\"ref\":\"e14\"})"
	drift.Evidence = nil
	drift.Observation.Screenshot = contract.Screenshot{PNG: tinyPNG(t, 90), PHash: "0f0f0f0f0f0f0f0f"}

	broken := &r.Results[7]
	broken.Outcome = OutcomeError
	broken.Reason = "browser: chromium exited during the task: signal: killed"
	broken.Evidence = nil
	broken.Observation = nil
	broken.Answer = ""
	broken.Calls = broken.Calls[:1]
	broken.ToolCalls = 1

	r.Results[8].Observation.Screenshot = contract.Screenshot{PNG: tinyPNG(t, 200), PHash: "ffff0000ffff0000"}
	return r
}

// testRepeatRun runs three tasks three times each: one always passes, one
// passes twice, one never passes because the agent runs out of budget or
// lands on the wrong page.
func testRepeatRun(t testing.TB) *Run {
	tasks := webvoyagerTasks[:3]
	r := &Run{
		SchemaVersion: SchemaVersion,
		GitSHA:        "4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
		Started:       time.Date(2025, 11, 21, 12, 0, 0, 0, time.UTC),
		DurationMS:    61000,
		Settings:      testSettings(tasks, 3),
	}
	r.Settings.Agent = "anthropic"
	r.Settings.Web = "live"
	for ti, task := range tasks {
		for a := 1; a <= 3; a++ {
			res := passedResult(task, a, ti*3+a, "https://example.com/")
			res.USD = 0.031
			switch {
			case ti == 1 && a == 2:
				res.Outcome = OutcomeTimeout
				res.Reason = "task timeout 2m0s reached after 14 tool calls"
				res.Evidence = nil
			case ti == 2 && a == 1:
				res.Outcome = OutcomeBudgetExceeded
				res.Reason = "max_usd 0.50 reached: spent 0.5120"
				res.Evidence = nil
			case ti == 2:
				res.Outcome = OutcomeFailed
				res.Failed = &Clause{Path: "postconditions[0]", Kind: contract.KindURL}
				res.Evidence = []contract.Evidence{{
					Path: "postconditions[0]", Kind: contract.KindURL, Passed: false,
					Expected: `URL matches ^https://en\.wikipedia\.org/wiki/Eiffel_Tower$`,
					Seen:     "https://en.wikipedia.org/wiki/Eiffel_Tower_(disambiguation)",
				}}
				res.Observation.URL = "https://en.wikipedia.org/wiki/Eiffel_Tower_(disambiguation)"
			}
			r.Results = append(r.Results, res)
		}
	}
	return r
}
