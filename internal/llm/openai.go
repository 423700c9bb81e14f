package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// defaultOpenAIModel is the model used when OpenAIOptions names none:
// OpenAI's current general model (gpt-4.1, the default before it, shuts
// down on 2027-01-14). Its price is in prices.yaml, with its source.
const defaultOpenAIModel = openai.ChatModelGPT5_4

// defaultOpenAIBaseURL is the chat completions API's address; the CLI
// passes OPENAI_BASE_URL instead when it is set (vLLM, Ollama, llama.cpp
// and other OpenAI-compatible servers).
const defaultOpenAIBaseURL = "https://api.openai.com/v1/"

// toolErrorPrefix marks a failed tool call in a tool message: chat
// completions have no is_error flag, and the model should not mistake an
// error text for page content.
const toolErrorPrefix = "Error: "

// OpenAIOptions configures NewOpenAI. The zero value of every field means
// its default; APIKey may stay empty for a local server that wants none.
type OpenAIOptions struct {
	APIKey         string
	BaseURL        string
	Model          string
	HTTPClient     *http.Client
	RequestTimeout time.Duration
	Retry          RetryPolicy
}

// OpenAI is a Provider backed by OpenAI chat completions, or any server
// speaking the same protocol.
type OpenAI struct {
	remote
	completions openai.ChatCompletionService
}

// NewOpenAI returns a provider for chat completions. It reads no
// environment variables and keeps no connection open.
func NewOpenAI(o OpenAIOptions) (*OpenAI, error) {
	r, base, client, err := endpoint{
		name: NameOpenAI, apiKey: o.APIKey, baseURL: o.BaseURL, model: o.Model,
		defaultBase: defaultOpenAIBaseURL, defaultModel: defaultOpenAIModel,
		client: o.HTTPClient, timeout: o.RequestTimeout, retry: o.Retry,
	}.resolve()
	if err != nil {
		return nil, err
	}
	// Built without openai.NewClient, whose defaults read OPENAI_*
	// variables (key, base URL, organization, extra headers).
	opts := []option.RequestOption{
		option.WithHTTPClient(client),
		option.WithBaseURL(base),
		option.WithMaxRetries(0), // one retry policy: ours
	}
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	}
	return &OpenAI{remote: r, completions: openai.NewChatCompletionService(opts...)}, nil
}

// Next sends the conversation and returns the model's turn.
func (p *OpenAI) Next(ctx context.Context, req Request) (Response, error) {
	if err := checkRequest(req); err != nil {
		return Response{}, p.fail("request", err)
	}
	params, err := p.params(req)
	if err != nil {
		return Response{}, p.fail("request", err)
	}
	completion, err := send(ctx, p.retry, p.timeout, func(ctx context.Context) (*openai.ChatCompletion, error) {
		return p.completions.New(ctx, params)
	}, p.convertError)
	if err != nil {
		return Response{}, err
	}
	resp, err := openaiResponse(completion)
	if err != nil {
		return Response{}, p.fail("response", err)
	}
	return resp, nil
}

func (p *OpenAI) convertError(parent context.Context, err error) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		e := p.apiError(apiErr.StatusCode, apiErr.Response, apiErr.RawJSON())
		if e.Message == "" && apiErr.Message != "" {
			e.Message = Redact(apiErr.Message, p.secrets...)
		}
		return e
	}
	return p.transportError(parent, err)
}

func (p *OpenAI) params(req Request) (openai.ChatCompletionNewParams, error) {
	maxTokens := int64(req.MaxTokens)
	if maxTokens == 0 {
		maxTokens = MaxTokensPerTurn
	}
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(p.model), MaxCompletionTokens: openai.Int(maxTokens)}
	for _, t := range req.Tools {
		schema, err := objectSchema(t.InputSchema)
		if err != nil {
			return params, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			// Each result is its own tool message, right after the
			// assistant message that made the calls; text follows them.
			for _, r := range m.ToolResults {
				content := r.Content
				if r.IsError {
					content = toolErrorPrefix + content
				}
				params.Messages = append(params.Messages, openai.ToolMessage(content, r.CallID))
			}
			if m.Text != "" {
				params.Messages = append(params.Messages, openai.UserMessage(m.Text))
			}
		case RoleAssistant:
			var a openai.ChatCompletionAssistantMessageParam
			if m.Text != "" {
				a.Content.OfString = openai.String(m.Text)
			}
			for _, c := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: c.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
							Name:      c.Name,
							Arguments: string(argsOrEmpty(c.Args)),
						},
					},
				})
			}
			params.Messages = append(params.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		}
	}
	return params, nil
}

func openaiResponse(c *openai.ChatCompletion) (Response, error) {
	if len(c.Choices) == 0 {
		return Response{}, errors.New("no choices")
	}
	choice := c.Choices[0]
	resp := Response{
		Text:       choice.Message.Content,
		StopReason: choice.FinishReason,
	}
	if resp.Text == "" {
		resp.Text = choice.Message.Refusal
	}
	for i, tc := range choice.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			return Response{}, fmt.Errorf("tool call %d: type %q, want function", i, tc.Type)
		}
		args := json.RawMessage(tc.Function.Arguments)
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		if !isObject(args) {
			return Response{}, fmt.Errorf("tool call %d (%s): arguments are not a JSON object: %.200q", i, tc.Function.Name, tc.Function.Arguments)
		}
		id := tc.ID
		if id == "" {
			// Some compatible servers omit ids; the conversation
			// still needs one to pair the result with.
			id = "call_" + strconv.Itoa(i+1)
		}
		resp.ToolCalls = append(resp.ToolCalls, ToolCall{ID: id, Name: tc.Function.Name, Args: args})
	}
	// prompt_tokens counts cached tokens too; they are priced as cache
	// reads, so only the rest is input.
	cached := c.Usage.PromptTokensDetails.CachedTokens
	resp.Usage = Usage{
		InputTokens:     c.Usage.PromptTokens - cached,
		OutputTokens:    c.Usage.CompletionTokens,
		CacheReadTokens: cached,
	}
	return resp, nil
}
