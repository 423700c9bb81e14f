package runner

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Field names a setting of a Spec that NewPlan's checks can find wrong,
// or the total of a SpendLimit, or the prices PaidAgent finds lacking. The runner knows its settings, not how a
// command sets them: the command that fills the Spec names each field its
// own way (FieldError.Render).
type Field string

const (
	FieldIsolate     Field = "isolate"
	FieldParallel    Field = "parallel"
	FieldBrowsers    Field = "browsers"
	FieldBrowserURLs Field = "browser_urls"
	FieldWeb         Field = "web"
	FieldPace        Field = "pace"
	FieldResume      Field = "resume"
	FieldAgentCDP    Field = "agent_cdp"
	FieldAgent       Field = "agent"
	FieldAgentCmd    Field = "agent_cmd"
	FieldPaceJitter  Field = "pace_jitter"
	FieldRecordTo    Field = "record_to"
	FieldMaxTotalUSD Field = "max_total_usd"
	FieldTrace       Field = "trace"
	FieldPrices      Field = "prices"
)

// Fields lists every Field, for a command to check it names them all.
var Fields = []Field{FieldIsolate, FieldParallel, FieldBrowsers, FieldBrowserURLs, FieldWeb, FieldPace, FieldResume, FieldAgentCDP,
	FieldAgent, FieldAgentCmd, FieldPaceJitter, FieldRecordTo, FieldMaxTotalUSD, FieldTrace, FieldPrices}

// FieldError is a check of a Spec that failed. Its text says what is
// wrong and names the fields it concerns where it holds {field}: Error
// writes them as the Field, Render as the caller names them.
type FieldError struct {
	// Fields are the fields the text names, in the order it names them.
	Fields []Field
	text   string
	err    error
}

// fieldErrorf formats a FieldError; the text names fields as {field},
// and a %w in format is the error Unwrap returns.
func fieldErrorf(format string, args ...any) *FieldError {
	wrapped := fmt.Errorf(format, args...)
	e := &FieldError{text: wrapped.Error(), err: errors.Unwrap(wrapped)}
	for _, f := range Fields {
		if strings.Contains(e.text, "{"+string(f)+"}") {
			e.Fields = append(e.Fields, f)
		}
	}
	at := func(f Field) int { return strings.Index(e.text, "{"+string(f)+"}") }
	slices.SortFunc(e.Fields, func(a, b Field) int { return at(a) - at(b) })
	return e
}

func (e *FieldError) Error() string { return e.Render(func(f Field) string { return string(f) }) }

// Render writes the error naming each field by name(field).
func (e *FieldError) Render(name func(Field) string) string {
	s := e.text
	for _, f := range e.Fields {
		s = strings.ReplaceAll(s, "{"+string(f)+"}", name(f))
	}
	return s
}

func (e *FieldError) Unwrap() error { return e.err }
