package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"time"

	"contractbench/internal/inputs"
	"contractbench/internal/llm"
	"contractbench/internal/servers"
	"contractbench/internal/suite"
	"contractbench/internal/transcript"
)

// ReferenceAgent plays each task's reference solution on server, after
// checking that server can play every one of tasks.
func ReferenceAgent(tasks []*suite.Task, server *servers.Profile) (ProviderFunc, error) {
	for _, t := range tasks {
		if err := server.CheckReference(t.Reference); err != nil {
			return nil, fmt.Errorf("%s: reference on server %s: %w", t.File, server.Name(), err)
		}
	}
	return func(t *suite.Task) (llm.Provider, error) { return server.Reference(t.Reference), nil }, nil
}

// ReplayAgent replays each task's transcript of records, by task ID (the
// agent's Replays), against what the task asks of the agent now: one
// recorded for another version of the task drifts at once.
func ReplayAgent(records map[string]*transcript.Transcript) ProviderFunc {
	return func(t *suite.Task) (llm.Provider, error) {
		digest, err := inputs.TaskDigest(t)
		if err != nil {
			return nil, err
		}
		return llm.NewReplay(records[t.ID], digest), nil
	}
}

// PaidAgent builds each task's provider of a paid model with newProvider.
// One is built at once, so that a bad key, URL or unpriced model stops the
// run before it starts: without a price in prices the max_usd cap could
// not be enforced, and finding out after the first response would already
// have cost money.
func PaidAgent(newProvider func() (llm.Provider, error), prices *llm.Prices) (ProviderFunc, error) {
	p, err := newProvider()
	if err != nil {
		return nil, err
	}
	if _, err := prices.Lookup(p.Model()); err != nil {
		return nil, fieldErrorf("%s: %w (pass {prices} %s=IN,OUT[,CACHE_READ,CACHE_WRITE])", p.Name(), err, p.Model())
	}
	return func(*suite.Task) (llm.Provider, error) { return newProvider() }, nil
}

// ProbeNetwork makes sure, once before a run on the live web, that the
// network is there: without it every task would end as an error (one
// with a start page) or a failure blamed on the agent (one without). It
// dials, with dial (nil for net.Dialer's), the host of the first task's
// start URL, or of its reference's first navigation, and returns that
// address and the dial's error; nothing is dialled when no task names a
// host.
func ProbeNetwork(dial func(ctx context.Context, network, addr string) (net.Conn, error), tasks []*suite.Task) (string, error) {
	target := firstHost(tasks)
	if target == nil {
		return "", nil // nothing to check against
	}
	port := cmp.Or(target.Port(), map[string]string{"http": "80"}[target.Scheme], "443")
	addr := net.JoinHostPort(target.Hostname(), port)
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := dial(ctx, "tcp", addr)
	if err != nil {
		return addr, err
	}
	conn.Close()
	return addr, nil
}

// firstHost is the first URL with a host that tasks open: a start URL, or
// a reference's first navigation; nil when none does.
func firstHost(tasks []*suite.Task) *url.URL {
	for _, t := range tasks {
		raw := t.StartURL
		for _, step := range t.Reference {
			if raw != "" {
				break
			}
			var args struct {
				URL string `json:"url"`
			}
			if step.Tool == "navigate" && json.Unmarshal(step.Args, &args) == nil {
				raw = args.URL
			}
		}
		if u, err := url.Parse(raw); err == nil && u.Host != "" {
			return u
		}
	}
	return nil
}
