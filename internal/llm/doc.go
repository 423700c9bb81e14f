// Package llm owns the boundary between the agent loop and a language
// model: the Provider interface and its three implementations (the
// Anthropic Messages API, OpenAI-compatible chat completions, and replay of
// a recorded transcript), the one retry policy for API calls, redaction of
// secrets from everything returned, the gate in front of paid calls, and the
// task budget with its price table.
//
// A Provider is stateless across calls: the agent loop owns the
// conversation and sends all of it in every Request. Each Next answers with
// either tool calls for the loop to execute or, when it has none, the final
// answer text.
//
// Budget caps live in budget.go and nowhere else. The defaults are also the
// hard ceiling: a task may lower a cap, never raise one. Prices live in the
// embedded prices.yaml.
//
// Errors never carry an API key, URL credentials or request headers: every
// message built here passes through Redact, and SDK errors are replaced by
// an *APIError built from the status and the API's own message.
//
// This package must not import the judge side (internal/contract,
// internal/judge, internal/phash): a model can never reach the code that
// grades it. It reads no environment variables; the CLI passes keys, base
// URLs and the CONTRACTBENCH_REAL switch in.
package llm
