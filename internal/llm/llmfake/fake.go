package llmfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
)

// ToolCall is a tool call a scripted turn makes. Nil Args means {}.
type ToolCall struct {
	Name string
	Args json.RawMessage
}

// Usage is the token usage a scripted turn reports.
type Usage struct {
	InputTokens      int64
	OutputTokens     int64
	CacheReadTokens  int64
	CacheWriteTokens int64
}

// Turn is one scripted answer. With Status set it is an API error with that
// HTTP status, ErrorType, ErrorMessage and extra Header (retry-after, …);
// otherwise it is a message with Text and ToolCalls (no tool calls: the
// final answer).
type Turn struct {
	Text      string
	ToolCalls []ToolCall
	Usage     Usage

	Status       int
	ErrorType    string
	ErrorMessage string
	Header       http.Header
}

// Request is one request the fake received.
type Request struct {
	Header http.Header
	Body   []byte
}

// Server is a running fake API. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL to configure the client with: for Anthropic the
	// server root, for OpenAI the root plus "/v1/".
	URL string

	srv    *httptest.Server
	handle func(body []byte, h http.Header) (status int, resp any, header http.Header)

	mu       sync.Mutex
	script   []Turn
	next     int
	ids      int
	requests []Request
	problems []string
}

// newServer starts a fake API that answers requests to path with handle;
// handle is set before the server starts, so the first request sees it.
func newServer(script []Turn, path string, handle func(*Server, []byte, http.Header) (int, any, http.Header)) *Server {
	s := &Server{script: script}
	s.handle = func(body []byte, h http.Header) (int, any, http.Header) { return handle(s, body, h) }
	mux := http.NewServeMux()
	mux.HandleFunc(path, s.serve)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.problem("request to unknown path %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
	})
	s.srv = httptest.NewServer(mux)
	return s
}

// Close shuts the server down.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Problems returns what was wrong with the requests received so far: each
// one a request the real API would have rejected, or one the script did not
// expect. A passing test expects none.
func (s *Server) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// Remaining returns how many scripted turns have not been served.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script) - s.next
}

func (s *Server) problem(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.problems = append(s.problems, fmt.Sprintf(format, args...))
}

// nextTurn consumes the next scripted turn.
func (s *Server) nextTurn() (Turn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.script) {
		return Turn{}, false
	}
	t := s.script[s.next]
	s.next++
	return t, true
}

// newID returns a fresh tool call id with the given prefix.
func (s *Server) newID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return fmt.Sprintf("%s%04d", prefix, s.ids)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()
	if r.Method != http.MethodPost {
		s.problem("method %s, want POST", r.Method)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	status, resp, header := s.handle(body, r.Header)
	for k, vs := range header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(resp)
}

// rejection is a request the real API would refuse: status and message.
type rejection struct {
	status int
	typ    string
	msg    string
}

func reject(format string, args ...any) *rejection {
	return &rejection{status: http.StatusBadRequest, typ: "invalid_request_error", msg: fmt.Sprintf(format, args...)}
}

// decodeObject decodes a JSON object, keeping each member raw.
func decodeObject(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

// jsonString decodes raw as a string.
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// isObjectSchema reports whether raw is a JSON Schema of type object.
func isObjectSchema(raw json.RawMessage) bool {
	m, ok := decodeObject(raw)
	if !ok {
		return false
	}
	typ, ok := jsonString(m["type"])
	return ok && typ == "object"
}

// positiveInt reports whether raw is a JSON integer of at least 1.
func positiveInt(raw json.RawMessage) bool {
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return false
	}
	i, err := n.Int64()
	return err == nil && i >= 1
}

func argsOrEmpty(a json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(a)) == 0 {
		return json.RawMessage("{}")
	}
	return a
}

var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
