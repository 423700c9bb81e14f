package servers

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"contractbench/internal/mcpclient"
)

// WritePage navigates the server of sess, a session of p's server, to
// url and writes on w what an agent reads there: the reply of p's read
// action, the built-in find tool's reply to each of finds (p must then
// be the built-in server), and every element a reference step can name,
// one a line, written as the step's target. find gives a link's URL,
// which the built-in read_page text does not: a link find met is written
// with it.
func (p *Profile) WritePage(ctx context.Context, w io.Writer, sess *mcpclient.Session, url string, finds []string) error {
	if _, err := p.callAction(ctx, sess, ActNavigate, map[string]any{"{url}": url}); err != nil {
		return err
	}
	page, err := p.callAction(ctx, sess, ActRead, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "## %s (%s)\n%s\n", p.Tool(ActRead), p.Name(), strings.TrimRight(page, "\n"))
	targets, err := p.Targets(page)
	if err != nil {
		return fmt.Errorf("reading the %s reply: %w", p.Tool(ActRead), err)
	}
	for _, q := range finds {
		if err := p.writeFind(ctx, w, sess, q, targets); err != nil {
			return err
		}
	}
	writeTargets(w, targets)
	return nil
}

// callAction plays action a as the profile maps it. A tool error is an
// error here: there is no page to write when the server did not reach it.
func (p *Profile) callAction(ctx context.Context, sess *mcpclient.Session, a Action, values map[string]any) (string, error) {
	c, err := p.Call(a, values)
	if err != nil {
		return "", err
	}
	res, err := sess.Call(ctx, c.Name, c.Args)
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.Name, err)
	}
	if res.IsError {
		return "", fmt.Errorf("%s: %s", c.Name, res.Text)
	}
	return res.Text, nil
}

// writeFind writes the built-in find tool's reply to query q, and puts
// the links it finds again, now with their URLs, in place of the ones
// without in targets.
func (p *Profile) writeFind(ctx context.Context, w io.Writer, sess *mcpclient.Session, q string, targets []Target) error {
	res, err := sess.Call(ctx, "find", []byte(fmt.Sprintf(`{"query":%s}`, strconv.Quote(q))))
	if err != nil {
		return fmt.Errorf("find: %w", err)
	}
	fmt.Fprintf(w, "\n## find %q\n%s\n", q, strings.TrimRight(res.Text, "\n"))
	found, err := p.Targets(res.Text)
	if err != nil {
		return err
	}
	for _, f := range found {
		for i := range targets {
			if targets[i].Ref == f.Ref {
				targets[i] = f
			}
		}
	}
	return nil
}

// writeTargets writes each target as a reference step writes it, warning
// where a role and name alone do not single one out.
func writeTargets(w io.Writer, targets []Target) {
	fmt.Fprintf(w, "\n## targets (%d)\n", len(targets))
	same := map[string]int{}
	for _, t := range targets {
		same[t.Role+"\x00"+t.Name]++
	}
	for _, t := range targets {
		fmt.Fprintf(w, "target: {role: %s, name: %s", t.Role, strconv.Quote(t.Name))
		if t.Href != "" {
			fmt.Fprintf(w, ", href: %s", strconv.Quote(t.Href))
		}
		fmt.Fprintf(w, "}  # %s", t.Ref)
		if n := same[t.Role+"\x00"+t.Name]; n > 1 {
			fmt.Fprintf(w, "; %d %ss have this name: add href, or the reference stops as ambiguous", n, t.Role)
		}
		fmt.Fprintln(w)
	}
}
