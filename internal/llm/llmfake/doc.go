// Package llmfake serves fake Anthropic Messages and OpenAI chat completions
// APIs on loopback for tests. Each fake checks every request the way the
// real API does for the fields contractbench uses, and answers from a
// script: a sequence of turns, each a set of tool calls, a final text, or
// an API error.
//
// A request the real API would reject is answered with that API's 400
// error and recorded in Problems, so a test can both see its client fail and
// assert afterwards that no problem occurred. Where this package is
// stricter than the real API it says so.
//
// It is test support: it is imported by tests of internal/llm and by the
// CLI's end-to-end tests (which point ANTHROPIC_BASE_URL or
// OPENAI_BASE_URL at it), never by production code. It does not import
// internal/llm, so that package's own tests can use it; it imports only
// the standard library.
package llmfake
