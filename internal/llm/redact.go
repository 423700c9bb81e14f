package llm

import (
	"net/url"
	"regexp"
	"strings"
)

// redacted replaces every secret Redact removes.
const redacted = "[REDACTED]"

var secretPatterns = []struct {
	re   *regexp.Regexp
	repl string
}{
	// Credentials in a URL: scheme://user:password@host or scheme://token@host.
	{regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/\s@"']+@`), "${1}" + redacted + "@"},
	// Header lines and key=value pairs naming a credential.
	{regexp.MustCompile(`(?i)\b(x-api-key|api[-_]?key|authorization|proxy-authorization)("?\s*[:=]\s*"?)(bearer\s+|basic\s+)?[^\s",;]+`), "${1}${2}${3}" + redacted},
	// Bearer tokens wherever they appear.
	{regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/=-]+`), "Bearer " + redacted},
	// Key-shaped strings: Anthropic (sk-ant-…) and OpenAI (sk-…, sk-proj-…)
	// keys, including the partly masked forms APIs echo back in errors.
	{regexp.MustCompile(`\bsk-[A-Za-z0-9_*.-]{6,}`), redacted},
}

// Redact removes secrets from s: each of the given secrets verbatim (and
// URL-escaped), credentials embedded in URLs, credential headers, bearer
// tokens and key-shaped strings. Every error message this package builds
// passes through it; it errs on the side of removing too much.
func Redact(s string, secrets ...string) string {
	for _, secret := range secrets {
		if len(secret) < 4 {
			// Replacing a one- or two-letter "secret" everywhere would
			// shred the message and protect nothing.
			continue
		}
		s = strings.ReplaceAll(s, secret, redacted)
		if esc := url.QueryEscape(secret); esc != secret {
			s = strings.ReplaceAll(s, esc, redacted)
		}
	}
	for _, p := range secretPatterns {
		s = p.re.ReplaceAllString(s, p.repl)
	}
	return s
}

// urlSecrets returns the user name and password embedded in rawURL, if any,
// so they can be redacted verbatim too.
func urlSecrets(rawURL string) []string {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return nil
	}
	out := []string{u.User.Username()}
	if p, ok := u.User.Password(); ok {
		out = append(out, p)
	}
	return out
}
