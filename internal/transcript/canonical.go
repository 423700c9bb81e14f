package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// canonicalJSON returns v re-encoded so that two documents with the same
// meaning have the same bytes: object keys sorted (by UTF-16 code units, as
// RFC 8785 orders them), no white space between tokens, strings escaped
// minimally, and numbers kept exactly as written.
//
// Numbers are not normalized (1, 1.0 and 1e0 stay distinct) because a tool
// may well treat them differently, and a digest must not call two different
// argument lists equal. Duplicate object keys are an error: decoders disagree
// on which one wins, so such a document has no single meaning to digest.
func canonicalJSON(v json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(v)) == 0 {
		return nil, errors.New("canonical JSON: empty input")
	}
	// json.Valid is the strict RFC 8259 check; the token walk below relies
	// on it to have rejected malformed input and trailing values.
	if !json.Valid(v) {
		return nil, fmt.Errorf("canonical JSON: %w", syntaxError(v))
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var out bytes.Buffer
	out.Grow(len(v))
	if err := writeCanonical(&out, dec, ""); err != nil {
		return nil, fmt.Errorf("canonical JSON: %w", err)
	}
	return out.Bytes(), nil
}

// ArgsDigest returns the lowercase hex SHA-256 of CanonicalJSON(args). Empty
// args (a tool called without arguments) digest as the empty object {}, the
// form a recorder writes for them.
func ArgsDigest(args json.RawMessage) (string, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	c, err := canonicalJSON(args)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), nil
}

// TaskDigest returns "sha256:" followed by the hex SHA-256 of
// CanonicalJSON(spec): the task_digest a header carries, computed from the
// task spec converted to JSON.
func TaskDigest(spec json.RawMessage) (string, error) {
	c, err := canonicalJSON(spec)
	if err != nil {
		return "", fmt.Errorf("task digest: %w", err)
	}
	sum := sha256.Sum256(c)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// syntaxError recovers encoding/json's description (with byte offset) of why
// v is not valid JSON.
func syntaxError(v []byte) error {
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return err
	}
	return errors.New("invalid JSON")
}

// writeCanonical copies one JSON value from dec to out in canonical form.
// path names the value for error messages ("" is the document root).
func writeCanonical(out *bytes.Buffer, dec *json.Decoder, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return writeObject(out, dec, path)
		case '[':
			return writeArray(out, dec, path)
		}
		return fmt.Errorf("%s: unexpected %q", pathOrRoot(path), t)
	case string:
		writeString(out, t)
	case json.Number:
		out.WriteString(t.String())
	case bool:
		if t {
			out.WriteString("true")
		} else {
			out.WriteString("false")
		}
	case nil:
		out.WriteString("null")
	default:
		return fmt.Errorf("%s: unexpected token %v", pathOrRoot(path), tok)
	}
	return nil
}

func writeObject(out *bytes.Buffer, dec *json.Decoder, path string) error {
	type member struct {
		key   string
		value []byte
	}
	var members []member
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("%s: object key is %v, not a string", pathOrRoot(path), tok)
		}
		if seen[key] {
			return fmt.Errorf("%s: duplicate key %q", pathOrRoot(path), key)
		}
		seen[key] = true
		var value bytes.Buffer
		if err := writeCanonical(&value, dec, path+"."+key); err != nil {
			return err
		}
		members = append(members, member{key, value.Bytes()})
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return err
	}
	slices.SortFunc(members, func(a, b member) int { return compareUTF16(a.key, b.key) })
	out.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			out.WriteByte(',')
		}
		writeString(out, m.key)
		out.WriteByte(':')
		out.Write(m.value)
	}
	out.WriteByte('}')
	return nil
}

func writeArray(out *bytes.Buffer, dec *json.Decoder, path string) error {
	out.WriteByte('[')
	for i := 0; dec.More(); i++ {
		if i > 0 {
			out.WriteByte(',')
		}
		if err := writeCanonical(out, dec, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return err
	}
	out.WriteByte(']')
	return nil
}

// writeString writes s as a JSON string with the minimal escaping RFC 8785
// prescribes: quote, backslash and control characters only. Everything else,
// including '<', '&' and U+2028, is written as UTF-8 so that a digest does
// not depend on an encoder's HTML-safety settings.
func writeString(out *bytes.Buffer, s string) {
	const hexDigits = "0123456789abcdef"
	out.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			out.WriteRune(r) // invalid bytes become U+FFFD, as the decoder already did
			i += size
			continue
		}
		switch c {
		case '"':
			out.WriteString(`\"`)
		case '\\':
			out.WriteString(`\\`)
		case '\b':
			out.WriteString(`\b`)
		case '\f':
			out.WriteString(`\f`)
		case '\n':
			out.WriteString(`\n`)
		case '\r':
			out.WriteString(`\r`)
		case '\t':
			out.WriteString(`\t`)
		default:
			if c < 0x20 {
				out.WriteString(`\u00`)
				out.WriteByte(hexDigits[c>>4])
				out.WriteByte(hexDigits[c&0xf])
			} else {
				out.WriteByte(c)
			}
		}
		i++
	}
	out.WriteByte('"')
}

// compareUTF16 orders strings by their UTF-16 code units, the key order of
// RFC 8785. It differs from byte order only for characters above U+FFFF
// against those in U+E000..U+FFFF, but sticking to the RFC keeps digests
// reproducible by other JCS implementations for number-free documents.
func compareUTF16(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func pathOrRoot(path string) string {
	if path == "" {
		return "document"
	}
	return strings.TrimPrefix(path, ".")
}
