package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// DefaultAnthropicModel is the model used when AnthropicOptions names none:
// a current Sonnet, the price and speed point meant for agent loops.
const DefaultAnthropicModel = anthropic.ModelClaudeSonnet4_6

// defaultAnthropicBaseURL is the Messages API's address; the CLI passes
// ANTHROPIC_BASE_URL instead when it is set.
const defaultAnthropicBaseURL = "https://api.anthropic.com/"

// defaultRequestTimeout bounds one attempt. A turn of at most 4096 output
// tokens takes well under a minute; two minutes leaves room for a slow
// server without letting one hung connection eat a task's whole timeout.
const defaultRequestTimeout = 2 * time.Minute

// AnthropicOptions configures NewAnthropic. The zero value of every field
// but APIKey means its default.
type AnthropicOptions struct {
	APIKey string
	// BaseURL replaces DefaultAnthropicBaseURL (a proxy, or a test
	// server).
	BaseURL string
	Model   string
	// HTTPClient sends the requests; nil means a plain http.Client.
	HTTPClient *http.Client
	// RequestTimeout bounds one attempt (default 2 minutes); the retry
	// policy decides about another.
	RequestTimeout time.Duration
	Retry          RetryPolicy
}

// Anthropic is a Provider backed by the Anthropic Messages API.
type Anthropic struct {
	remote
	messages anthropic.MessageService
}

// NewAnthropic returns a provider for the Messages API. It reads no
// environment variables and keeps no connection open; it only checks its
// options.
func NewAnthropic(o AnthropicOptions) (*Anthropic, error) {
	if o.APIKey == "" {
		return nil, errors.New("anthropic: no API key")
	}
	r, base, client, err := endpoint{
		name: NameAnthropic, apiKey: o.APIKey, baseURL: o.BaseURL, model: o.Model,
		defaultBase: defaultAnthropicBaseURL, defaultModel: DefaultAnthropicModel,
		client: o.HTTPClient, timeout: o.RequestTimeout, retry: o.Retry,
	}.resolve()
	if err != nil {
		return nil, err
	}
	// The message service is built directly rather than through
	// anthropic.NewClient, whose defaults read ANTHROPIC_* variables and
	// credential files: everything this client knows comes from o.
	svc := anthropic.NewMessageService(
		option.WithoutEnvironmentDefaults(),
		option.WithHTTPClient(client),
		option.WithBaseURL(base),
		option.WithAPIKey(o.APIKey),
		option.WithMaxRetries(0), // one retry policy: ours
	)
	return &Anthropic{remote: r, messages: svc}, nil
}

// Next sends the conversation and returns the model's turn.
func (a *Anthropic) Next(ctx context.Context, req Request) (Response, error) {
	if err := checkRequest(req); err != nil {
		return Response{}, a.fail("request", err)
	}
	params, err := anthropicParams(a.model, req)
	if err != nil {
		return Response{}, a.fail("request", err)
	}
	msg, err := send(ctx, a.retry, a.timeout, func(ctx context.Context) (*anthropic.Message, error) {
		return a.messages.New(ctx, params)
	}, a.convertError)
	if err != nil {
		return Response{}, err
	}
	return anthropicResponse(msg), nil
}

// convertError replaces an SDK error, whose text carries the request URL,
// with a redacted one that keeps what the retry policy needs.
func (a *Anthropic) convertError(parent context.Context, err error) error {
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		return a.apiError(apiErr.StatusCode, apiErr.Response, apiErr.RawJSON())
	}
	return a.transportError(parent, err)
}

func anthropicParams(model string, req Request) (anthropic.MessageNewParams, error) {
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = MaxTokensPerTurn
	}
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(model),
		MaxTokens: int64(maxTokens),
	}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for _, t := range req.Tools {
		schema, err := anthropicSchema(t.InputSchema)
		if err != nil {
			return p, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
		tool := anthropic.ToolParam{Name: t.Name, InputSchema: schema}
		if t.Description != "" {
			tool.Description = anthropic.String(t.Description)
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &tool})
	}
	for _, m := range req.Messages {
		var blocks []anthropic.ContentBlockParamUnion
		switch m.Role {
		case RoleUser:
			// Tool results go first: the API wants them at the start of
			// the user turn that answers the tool calls.
			for _, r := range m.ToolResults {
				blocks = append(blocks, anthropicToolResult(r))
			}
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			p.Messages = append(p.Messages, anthropic.NewUserMessage(blocks...))
		case RoleAssistant:
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, argsOrEmpty(c.Args), c.Name))
			}
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(blocks...))
		}
	}
	return p, nil
}

func anthropicToolResult(r ToolResult) anthropic.ContentBlockParamUnion {
	block := anthropic.ToolResultBlockParam{ToolUseID: r.CallID, IsError: anthropic.Bool(r.IsError)}
	// An empty text block is rejected by the API; an empty result is sent
	// as a result without content instead.
	if r.Content != "" {
		block.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: r.Content}}}
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &block}
}

// anthropicSchema maps an MCP input schema onto the SDK's input_schema,
// which models properties and required as fields and carries every other
// keyword ($defs, additionalProperties, …) as an extra field.
func anthropicSchema(raw json.RawMessage) (anthropic.ToolInputSchemaParam, error) {
	schema, err := objectSchema(raw)
	if err != nil {
		return anthropic.ToolInputSchemaParam{}, err
	}
	var out anthropic.ToolInputSchemaParam
	if props, ok := schema["properties"]; ok {
		out.Properties = props
	}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			s, ok := r.(string)
			if !ok {
				return out, fmt.Errorf("required lists %v, not a property name", r)
			}
			out.Required = append(out.Required, s)
		}
	}
	extra := make(map[string]any)
	for k, v := range schema {
		switch k {
		case "type", "properties", "required":
		default:
			extra[k] = v
		}
	}
	if len(extra) > 0 {
		out.ExtraFields = extra
	}
	return out, nil
}

func anthropicResponse(msg *anthropic.Message) Response {
	var (
		texts []string
		calls []ToolCall
	)
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			if b.Text != "" {
				texts = append(texts, b.Text)
			}
		case "tool_use":
			args := append(json.RawMessage(nil), b.Input...)
			calls = append(calls, ToolCall{ID: b.ID, Name: b.Name, Args: argsOrEmpty(args)})
		}
		// Other block types (thinking, server tools) are not part of
		// this loop's protocol; they are priced through usage and
		// otherwise dropped.
	}
	return Response{
		Text:      strings.Join(texts, "\n"),
		ToolCalls: calls,
		Usage: Usage{
			InputTokens:      msg.Usage.InputTokens,
			OutputTokens:     msg.Usage.OutputTokens,
			CacheReadTokens:  msg.Usage.CacheReadInputTokens,
			CacheWriteTokens: msg.Usage.CacheCreationInputTokens,
		},
		StopReason: string(msg.StopReason),
	}
}

// checkBaseURL rejects a base URL the SDK would only fail on later, with a
// less clear message.
func checkBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("base URL %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("base URL %q: scheme %q, want http or https", raw, u.Scheme)
	}
	if u.Host == "" {
		return fmt.Errorf("base URL %q: no host", raw)
	}
	return nil
}
