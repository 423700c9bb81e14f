package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// The JUnit XML shape CI systems (GitHub, GitLab, Jenkins) read: a
// testsuites root holding one testsuite per run and one testcase per task
// result. A failure is a result the agent is to blame for; an error is a
// result nobody could judge (error, timeout); a skipped case is an attempt
// an interrupted run never reached.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       string          `xml:"time,attr"`
		Timestamp  string          `xml:"timestamp,attr"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
		SystemErr  string          `xml:"system-err,omitempty"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure"`
		Error     *junitProblem `xml:"error"`
		Skipped   *junitProblem `xml:"skipped"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr,omitempty"`
		Text    string `xml:",cdata"`
	}
)

// writeJUnit writes r as JUnit XML: one testsuite for the run, one testcase
// per result, named by task (and attempt when tasks were repeated). The
// suite's properties carry the run's settings and the numbers of its
// Summary beside the score: pass@k and pass^k, the smallest detectable
// difference, or a labelled run's contract_held line. A
// failed, drifted, over-budget or tainted result carries a failure element
// whose message is the outcome and failing clause and whose text is the
// evidence; error and timeout carry an error element. Attempts an
// incomplete run never reached, and interrupted ones, are skipped test
// cases.
func writeJUnit(w io.Writer, r *Run) error {
	return WriteJUnitRuns(w, []*Run{r})
}

// WriteJUnitRuns writes several runs (compare's run per tool server) as one
// JUnit document with a testsuite per run, so that one junit.xml holds
// them all. With more than one run, each testsuite is named after its
// suite and server.
func WriteJUnitRuns(w io.Writer, runs []*Run) error {
	doc := junitSuites{Name: "contractbench"}
	var ms int64
	for _, r := range runs {
		suite := junitSuiteOf(r, len(runs) > 1)
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Errors += suite.Errors
		doc.Skipped += suite.Skipped
		ms += r.DurationMS
		doc.Suites = append(doc.Suites, suite)
	}
	doc.Time = junitSeconds(ms)
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("report junit: %w", err)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("report junit: %w", err)
	}
	if _, err := w.Write(append(out, '\n')); err != nil {
		return fmt.Errorf("report junit: %w", err)
	}
	return nil
}

// junitSuiteOf is the testsuite of one run; byServer names it after the
// run's tool server as well.
func junitSuiteOf(r *Run, byServer bool) junitSuite {
	rep := Repeated(r)
	classname := r.Settings.Suite
	if classname == "" {
		classname = "contractbench"
	}
	name := classname
	if byServer {
		name += " [" + r.Settings.Server + "]"
	}
	suite := junitSuite{
		Name:      name,
		Time:      junitSeconds(r.DurationMS),
		Timestamp: r.Started.Format(time.RFC3339),
		Properties: []junitProperty{
			{"git_sha", r.GitSHA},
			{"agent", r.Settings.Agent},
			{"server", r.Settings.Server},
			{"web", r.Settings.Web},
			{"model", r.Settings.Model},
			{"schema_version", strconv.Itoa(r.SchemaVersion)},
			{"incomplete", strconv.FormatBool(r.Incomplete)},
		},
	}
	if r.Regraded != nil {
		suite.Properties = append(suite.Properties, junitProperty{"regraded_from", r.Regraded.From})
	}
	if r.Settings.Trust != "" {
		suite.Properties = append(suite.Properties, junitProperty{"trust", r.Settings.Trust})
	}
	s := Summarize(r)
	if h := s.Held; h != nil {
		suite.Properties = append(suite.Properties, junitProperty{"contract_held", h.String()})
	}
	suite.Properties = append(suite.Properties, junitProperty{"denominator", s.Denominator.String()})
	if c := s.CannotBeDone; c != nil {
		suite.Properties = append(suite.Properties, junitProperty{"cannot_be_done", strings.Join(c.Lines(), "; ")})
	}
	if pk := s.PassK; pk != nil {
		k := strconv.Itoa(pk.K)
		suite.Properties = append(suite.Properties, junitProperty{"pass@" + k, Percent(pk.At().PassAtK)},
			junitProperty{"pass^" + k, Percent(pk.At().PassHatK)}, junitProperty{"flip_rate", Percent(pk.FlipRate)})
	}
	if d := s.Detectable; d != nil {
		suite.Properties = append(suite.Properties, junitProperty{"smallest_detectable_difference", d.String()})
	}
	for i := range r.Results {
		res := &r.Results[i]
		c := junitCase{Name: ResultName(res, rep), Classname: name, Time: junitSeconds(res.DurationMS)}
		switch res.Outcome {
		case OutcomePassed:
			if drift := res.Drift(); drift != "" {
				c.Failure = &junitProblem{Message: "passed with replay drift: " + bound(drift), Type: "replay_drift", Text: junitDetail(res)}
			}
		case OutcomeInterrupted:
			c.Skipped = &junitProblem{Message: "interrupted: " + bound(res.Reason)}
		case OutcomeError, OutcomeTimeout:
			c.Error = &junitProblem{Message: junitMessage(res), Type: string(res.Outcome), Text: junitDetail(res)}
		default:
			c.Failure = &junitProblem{Message: junitMessage(res), Type: string(res.Outcome), Text: junitDetail(res)}
		}
		suite.add(c)
	}
	for _, m := range notRun(r) {
		suite.add(junitCase{
			Name:      ResultName(&TaskResult{Task: m.Task, Attempt: m.Attempt}, rep),
			Classname: name,
			Time:      junitSeconds(0),
			Skipped:   &junitProblem{Message: "not run: the run stopped early"},
		})
	}
	if r.Incomplete {
		suite.SystemErr = incompleteBanner
	}
	return suite
}

// add appends c and counts it.
func (s *junitSuite) add(c junitCase) {
	s.Tests++
	switch {
	case c.Failure != nil:
		s.Failures++
	case c.Error != nil:
		s.Errors++
	case c.Skipped != nil:
		s.Skipped++
	}
	s.Cases = append(s.Cases, c)
}

// junitMessage is the one line a CI system shows for a failed case: the
// outcome, and the failing clause or the reason.
func junitMessage(res *TaskResult) string {
	msg := string(res.Outcome)
	if res.Trust != "" {
		msg += " | trust: " + res.Trust
	}
	if res.Failed != nil {
		msg += " | failed_postcondition: " + res.Failed.String()
	}
	if res.Reason != "" {
		msg += " | " + bound(res.Reason)
	}
	return msg
}

// junitDetail is the body of a failure or error: reason, drift, the failing
// clause's evidence, the final URL, each bounded.
func junitDetail(res *TaskResult) string {
	var b strings.Builder
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	line("reason", bound(res.Reason))
	line("replay drift", bound(res.Drift()))
	line("failed_postcondition", res.Failed.String())
	for i, ev := range failingEvidence(res) {
		if i == maxEvidenceItems {
			fmt.Fprintf(&b, "(more evidence in the JSON report)\n")
			break
		}
		fmt.Fprintf(&b, "evidence %s (%s): expected %s, saw %s\n", ev.Path, ev.Kind, bound(ev.Expected), bound(ev.Seen))
	}
	if res.Observation != nil {
		line("final url", bound(res.Observation.URL))
	}
	return xmlText(b.String())
}

// xmlText replaces the characters XML 1.0 cannot carry (most control
// characters, which page text and error output do contain) with U+FFFD.
// encoding/xml does this for attributes but writes CDATA as it is.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t', r == '\n', r == '\r',
			r >= 0x20 && r <= 0xD7FF,
			r >= 0xE000 && r <= 0xFFFD,
			r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

// junitSeconds formats milliseconds as the seconds JUnit's time attribute
// holds.
func junitSeconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64)
}
