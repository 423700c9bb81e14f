package webreplay

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// A Link is a reference from an archived HTML page to another URL: a link,
// a form's action, a stylesheet, a script or an image.
type Link struct {
	// Page is the URL of the page the reference is on.
	Page string
	// Attr is the attribute that holds it (href, src or action).
	Attr string
	// URL is the reference as written in the page.
	URL string
	// Problem says why the reference leads nowhere.
	Problem string
}

func (l Link) String() string {
	return fmt.Sprintf("%s: %s=%q: %s", l.Page, l.Attr, l.URL, l.Problem)
}

// startTag and refAttr find the attributes of a page's tags that reference
// another URL (markup shown as text, &lt;a href=...&gt;, is not a tag). The
// archive's pages are plain HTML written with double-quoted attributes; a
// value built by a script at run time is not seen.
var (
	startTag = regexp.MustCompile(`<[a-zA-Z][^>]*>`)
	refAttr  = regexp.MustCompile(`\s(href|src|action)="([^"]*)"`)
)

// maxRedirects bounds how many redirect entries a reference may go through.
const maxRedirects = 3

// DanglingLinks returns every reference of an HTML page of the archive that
// leads nowhere: to a host, path or query the archive does not answer, to
// an entry answering 4xx or 5xx, or to a fragment no element of the target
// page has as its id or name. A reference to another scheme (mailto:,
// data:) or to a page's own top (#) is not checked. Pages are those GET
// entries answering 200 with an HTML content type; a page answering any
// query is read as its path without a query.
func (a *Archive) DanglingLinks() []Link {
	var out []Link
	for _, host := range a.Hosts() {
		for _, e := range a.Entries(host) {
			if e.Method != http.MethodGet || e.Status != http.StatusOK || !strings.HasPrefix(e.Header["content-type"], "text/html") {
				continue
			}
			query := e.Query
			if query == wildcardQuery {
				query = ""
			}
			page := &url.URL{Scheme: "https", Host: host, Path: e.Path, RawQuery: query}
			resp, ok := a.Lookup(http.MethodGet, host, e.Path, query)
			if !ok {
				continue
			}
			body := string(resp.Body)
			for _, tag := range startTag.FindAllString(body, -1) {
				for _, m := range refAttr.FindAllStringSubmatch(tag, -1) {
					if problem := a.leadsNowhere(page, body, m[2]); problem != "" {
						out = append(out, Link{Page: page.String(), Attr: m[1], URL: m[2], Problem: problem})
					}
				}
			}
		}
	}
	return out
}

// leadsNowhere returns why ref, found on page (whose HTML is body), leads
// nowhere, or "".
func (a *Archive) leadsNowhere(page *url.URL, body, ref string) string {
	ref = strings.ReplaceAll(ref, "&amp;", "&")
	u, err := page.Parse(ref)
	if err != nil {
		return fmt.Sprintf("does not parse: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	target := body
	for hop := 0; ; hop++ {
		same := u.Host == page.Host && u.Path == page.Path && u.RawQuery == page.RawQuery
		if same {
			break
		}
		if !slices.Contains(a.Hosts(), strings.ToLower(u.Hostname())) {
			return fmt.Sprintf("host %s is not in the archive", u.Hostname())
		}
		resp, ok := a.Lookup(http.MethodGet, u.Hostname(), u.EscapedPath(), u.RawQuery)
		if !ok {
			return fmt.Sprintf("%s is not in the archive", withoutFragment(u))
		}
		if loc := resp.Header.Get("Location"); resp.Status >= 300 && resp.Status < 400 && loc != "" {
			if hop == maxRedirects {
				return fmt.Sprintf("more than %d redirects", maxRedirects)
			}
			next, err := u.Parse(loc)
			if err != nil {
				return fmt.Sprintf("redirects to %q, which does not parse", loc)
			}
			if next.Fragment == "" {
				next.Fragment = u.Fragment
			}
			u = next
			continue
		}
		if resp.Status >= 400 {
			return fmt.Sprintf("%s answers %d", withoutFragment(u), resp.Status)
		}
		target = string(resp.Body)
		break
	}
	if u.Fragment == "" || u.Fragment == "top" {
		return ""
	}
	if !hasAnchor(target, u.Fragment) {
		return fmt.Sprintf("no element with id %q on %s", u.Fragment, withoutFragment(u))
	}
	return ""
}

// hasAnchor reports whether html has an element with id or name frag.
func hasAnchor(html, frag string) bool {
	for _, attr := range []string{"id", "name"} {
		for _, q := range []string{frag, strings.ReplaceAll(frag, "&", "&amp;")} {
			if strings.Contains(html, " "+attr+`="`+q+`"`) {
				return true
			}
		}
	}
	return false
}

func withoutFragment(u *url.URL) string {
	c := *u
	c.Fragment = ""
	return c.String()
}
