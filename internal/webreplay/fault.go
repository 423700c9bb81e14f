package webreplay

import (
	"net/http"
	"os"
	"strings"
	"time"
)

// Fault is a failure a web layer makes on purpose.
type Fault string

const (
	// FaultNone serves as usual.
	FaultNone Fault = ""
	// FaultStatus answers 500 Internal Server Error.
	FaultStatus Fault = "500"
	// FaultReset drops the connection without an answer (a reset stream
	// under HTTP/2).
	FaultReset Fault = "reset"
)

// Faults makes a web layer fail on purpose while a switch says so, and
// keeps every request it broke: how a chaos test makes the fixture web
// fail for a moment while the harness can still tell that failure from a
// site's own, so that none is counted against the agent. It is safe for
// concurrent use.
type Faults struct {
	now  func() Fault
	hits missLog
}

// NewFaults returns the faults now asks for, request by request.
func NewFaults(now func() Fault) *Faults { return &Faults{now: now} }

// FaultFile is the switch a file makes, read at each request: the fault
// it holds (500 or reset), anything else or no file serving as usual. A
// chaos test writes it and empties it while a run goes on.
func FaultFile(file string) func() Fault {
	return func() Fault {
		b, _ := os.ReadFile(file)
		return Fault(strings.TrimSpace(string(b)))
	}
}

// Wrap returns h, failing each request as the switch says at the moment
// the request arrives.
func (f *Faults) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fault := f.now()
		if fault != FaultStatus && fault != FaultReset {
			h.ServeHTTP(w, r)
			return
		}
		f.hits.add(Miss{Method: r.Method, URL: requestURL(r), Time: time.Now(), Reason: "fault injected: " + string(fault)})
		if fault == FaultReset {
			// net/http closes the connection (or resets the stream) and
			// logs nothing.
			panic(http.ErrAbortHandler)
		}
		http.Error(w, "webreplay: a fault injected on purpose", http.StatusInternalServerError)
	})
}

// Hits returns the requests failed on purpose so far, in order; Reason
// says how.
func (f *Faults) Hits() []Miss { return f.hits.list() }
