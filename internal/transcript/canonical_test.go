package transcript

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestCanonicalJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"keys sorted", `{"b":1,"a":2,"c":3}`, `{"a":2,"b":1,"c":3}`},
		{"white space dropped", " {\n\t\"a\" : [ 1 , 2 ] ,\r\n \"b\" : { } } ", `{"a":[1,2],"b":{}}`},
		{"nested objects sorted at every level", `{"z":{"y":1,"x":[{"q":1,"p":2}]},"a":null}`, `{"a":null,"z":{"x":[{"p":2,"q":1}],"y":1}}`},
		{"array order kept", `[3,1,2]`, `[3,1,2]`},
		{"integer kept", `{"n":42}`, `{"n":42}`},
		{"trailing zero kept", `{"n":1.0}`, `{"n":1.0}`},
		{"exponent kept as written", `{"n":1E5,"m":2e-3}`, `{"m":2e-3,"n":1E5}`},
		{"negative zero kept", `-0`, `-0`},
		{"big integer not rounded", `12345678901234567890123`, `12345678901234567890123`},
		{"escaped non-ASCII unescaped", `"caf\u00e9"`, `"café"`},
		{"raw non-ASCII kept", `"東京"`, `"東京"`},
		{"surrogate pair decoded", `"\ud83d\ude00"`, `"😀"`},
		{"HTML characters not escaped", `"<a href=\"x\">&</a>"`, `"<a href=\"x\">&</a>"`},
		{"solidus unescaped", `"a\/b"`, `"a/b"`},
		{"control characters escaped minimally", `"\u0008\u000c\n\r\t\u0001\u001f"`, `"\b\f\n\r\t\u0001\u001f"`},
		{"line separator kept literal", `"\u2028"`, "\"\u2028\""},
		{"literals", `[true,false,null]`, `[true,false,null]`},
		{"empty containers", `{"a":[],"b":{}}`, `{"a":[],"b":{}}`},
		// U+E000 sorts before U+1F600 by bytes, after it by UTF-16 code
		// units (the surrogate D83D < E000); RFC 8785 orders by the latter.
		{"keys ordered by UTF-16 code units", "{\"\ue000\":1,\"\U0001F600\":2}", "{\"\U0001F600\":2,\"\ue000\":1}"},
		{"escaped and raw keys compare by value", `{"\u0062":1,"a":2}`, `{"a":2,"b":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := canonicalJSON(json.RawMessage(tt.in))
			if err != nil {
				t.Fatalf("CanonicalJSON(%s): unexpected error %v", tt.in, err)
			}
			if string(got) != tt.want {
				t.Errorf("CanonicalJSON(%s)\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestCanonicalJSONRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		wantErr string
	}{
		{"empty", ``, "empty input"},
		{"blank", " \n ", "empty input"},
		{"syntax error", `{"a":}`, "invalid character"},
		{"trailing value", `{} {}`, "invalid character"},
		{"duplicate key", `{"a":1,"a":2}`, `duplicate key "a"`},
		{"duplicate key nested", `{"x":{"y":[{"k":1,"k":1}]}}`, `x.y[0]: duplicate key "k"`},
		{"duplicate key via escape", `{"a":1,"\u0061":2}`, `duplicate key "a"`},
		{"single quotes", `{'a':1}`, "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := canonicalJSON(json.RawMessage(tt.in))
			if err == nil {
				t.Fatalf("CanonicalJSON(%q) = %s, want an error containing %q", tt.in, got, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("CanonicalJSON(%q) error %q, want it to contain %q", tt.in, err, tt.wantErr)
			}
		})
	}
}

func TestArgsDigest(t *testing.T) {
	t.Parallel()
	// The hex SHA-256 of the bytes `{}` and of `{"url":"https://example.com/"}`.
	const (
		emptyObject = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
		exampleURL  = "fc3bcafb91730693484452065cac4cc17786f2307976d83295ada192d2f86e8e"
	)
	tests := []struct {
		name string
		args string
		want string
	}{
		{"nil args digest as {}", ``, emptyObject},
		{"empty object", `{}`, emptyObject},
		{"white space does not matter", "{ \n}", emptyObject},
		{"canonical input", `{"url":"https://example.com/"}`, exampleURL},
		{"spaced and escaped input", `{ "url" : "https:\/\/example.com\/" }`, exampleURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ArgsDigest(json.RawMessage(tt.args))
			if err != nil {
				t.Fatalf("ArgsDigest(%q): %v", tt.args, err)
			}
			if got != tt.want {
				t.Errorf("ArgsDigest(%q) = %s, want %s", tt.args, got, tt.want)
			}
		})
	}

	a, _ := ArgsDigest(json.RawMessage(`{"a":1,"b":2}`))
	b, _ := ArgsDigest(json.RawMessage(`{"b":2,"a":1}`))
	c, _ := ArgsDigest(json.RawMessage(`{"a":1.0,"b":2}`))
	if a != b {
		t.Errorf("key order changed the digest: %s vs %s", a, b)
	}
	if a == c {
		t.Errorf("1 and 1.0 digest the same (%s); numbers must be kept as written", a)
	}
}

func TestTaskDigest(t *testing.T) {
	t.Parallel()
	got, err := TaskDigest(json.RawMessage(`{ }`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"; got != want {
		t.Errorf("TaskDigest({ }) = %s, want %s", got, want)
	}
	if _, err := TaskDigest(json.RawMessage(`{`)); err == nil || !strings.Contains(err.Error(), "task digest") {
		t.Errorf("TaskDigest of broken JSON: error %v, want one naming the task digest", err)
	}
}

// FuzzCanonicalJSON checks that canonical form is a fixed point and keeps
// the document's meaning.
func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1,2,{"d":null,"c":true}]}`, `"\u00e9\n"`, `1.50e+3`, `[]`, `{"a":1,"a":2}`, `{"\ue000":1,"😀":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		c1, err := canonicalJSON(in)
		if err != nil {
			return
		}
		c2, err := canonicalJSON(c1)
		if err != nil {
			t.Fatalf("canonical form %s does not re-canonicalize: %v", c1, err)
		}
		if !bytes.Equal(c1, c2) {
			t.Fatalf("not a fixed point:\n first %s\nsecond %s", c1, c2)
		}
		if !reflect.DeepEqual(decodeNumbers(t, in), decodeNumbers(t, c1)) {
			t.Fatalf("canonical form changed the meaning: %s became %s", in, c1)
		}
	})
}

func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}
