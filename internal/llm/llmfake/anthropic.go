package llmfake

import (
	"encoding/json"
	"net/http"
)

// NewAnthropic starts a fake Messages API (POST /v1/messages) answering
// from script. Pass its URL as the client's base URL.
func NewAnthropic(script []Turn) *Server {
	s := newServer(script, "/v1/messages", (*Server).anthropic)
	s.URL = s.srv.URL
	return s
}

type anthropicRequest struct {
	Model     json.RawMessage    `json:"model"`
	MaxTokens json.RawMessage    `json:"max_tokens"`
	System    json.RawMessage    `json:"system"`
	Messages  []anthropicMessage `json:"messages"`
	Tools     []anthropicTool    `json:"tools"`
}

type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anthropicTool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   json.RawMessage `json:"is_error"`
}

func (s *Server) anthropic(body []byte, h http.Header) (int, any, http.Header) {
	if h.Get("x-api-key") == "" && h.Get("authorization") == "" {
		rej := &rejection{status: http.StatusUnauthorized, typ: "authentication_error", msg: "x-api-key header is required"}
		s.problem("%s", rej.msg)
		return anthropicError(rej, nil)
	}
	if h.Get("anthropic-version") == "" {
		rej := reject("anthropic-version: header is required")
		s.problem("%s", rej.msg)
		return anthropicError(rej, nil)
	}
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.problem("body: %v", err)
		return anthropicError(reject("body: %v", err), nil)
	}
	tools, rej := checkAnthropicRequest(req)
	if rej != nil {
		s.problem("%s", rej.msg)
		return anthropicError(rej, nil)
	}
	turn, ok := s.nextTurn()
	if !ok {
		s.problem("request after the script's last turn")
		return anthropicError(reject("llmfake: the script has no turn left"), nil)
	}
	if turn.Status != 0 {
		typ := turn.ErrorType
		if typ == "" {
			typ = anthropicErrorType(turn.Status)
		}
		return anthropicError(&rejection{status: turn.Status, typ: typ, msg: turn.ErrorMessage}, turn.Header)
	}
	var model string
	json.Unmarshal(req.Model, &model)
	content := []map[string]any{}
	if turn.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": turn.Text})
	}
	for _, c := range turn.ToolCalls {
		if !tools[c.Name] {
			s.problem("script calls tool %q, which the request does not offer", c.Name)
			return anthropicError(reject("llmfake: scripted tool %q is not among the request's tools", c.Name), nil)
		}
		content = append(content, map[string]any{
			"type": "tool_use", "id": s.newID("toolu_fake_"), "name": c.Name, "input": argsOrEmpty(c.Args),
		})
	}
	stop := "end_turn"
	if len(turn.ToolCalls) > 0 {
		stop = "tool_use"
	}
	return http.StatusOK, map[string]any{
		"id":            s.newID("msg_fake_"),
		"type":          "message",
		"role":          "assistant",
		"model":         model,
		"content":       content,
		"stop_reason":   stop,
		"stop_sequence": nil,
		"usage": map[string]any{
			"input_tokens":                turn.Usage.InputTokens,
			"output_tokens":               turn.Usage.OutputTokens,
			"cache_read_input_tokens":     turn.Usage.CacheReadTokens,
			"cache_creation_input_tokens": turn.Usage.CacheWriteTokens,
		},
	}, turn.Header
}

func anthropicError(r *rejection, h http.Header) (int, any, http.Header) {
	return r.status, map[string]any{
		"type":  "error",
		"error": map[string]any{"type": r.typ, "message": r.msg},
	}, h
}

func anthropicErrorType(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}

// checkAnthropicRequest applies the Messages API's rules for the fields
// contractbench sends and returns the offered tool names. It is stricter
// than the API in one place: the API merges consecutive turns of one role,
// while a well-formed contractbench conversation alternates.
func checkAnthropicRequest(req anthropicRequest) (map[string]bool, *rejection) {
	var model string
	if err := json.Unmarshal(req.Model, &model); err != nil || model == "" {
		return nil, reject("model: field required")
	}
	if req.MaxTokens == nil {
		return nil, reject("max_tokens: field required")
	}
	if !positiveInt(req.MaxTokens) {
		return nil, reject("max_tokens: must be an integer of at least 1, got %s", req.MaxTokens)
	}
	if req.System != nil {
		if rej := checkAnthropicSystem(req.System); rej != nil {
			return nil, rej
		}
	}
	tools := make(map[string]bool)
	for i, t := range req.Tools {
		switch {
		case !toolNameRE.MatchString(t.Name):
			return nil, reject("tools.%d.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", i)
		case tools[t.Name]:
			return nil, reject("tools: Tool names must be unique (%s)", t.Name)
		case t.InputSchema == nil:
			return nil, reject("tools.%d.input_schema: Field required", i)
		case !isObjectSchema(t.InputSchema):
			return nil, reject("tools.%d.input_schema: JSON schema must have type \"object\"", i)
		}
		tools[t.Name] = true
	}
	if len(req.Messages) == 0 {
		return nil, reject("messages: at least one message is required")
	}
	seenIDs := make(map[string]bool)
	var openCalls []string // tool_use ids of the previous assistant turn
	for i, m := range req.Messages {
		want := "user"
		if i%2 == 1 {
			want = "assistant"
		}
		if m.Role != want {
			return nil, reject("messages.%d.role: %q, want %q: roles must alternate between \"user\" and \"assistant\", starting with \"user\"", i, m.Role, want)
		}
		blocks, rej := anthropicBlocks(i, m.Content)
		if rej != nil {
			return nil, rej
		}
		if m.Role == "assistant" {
			openCalls = nil
			for j, b := range blocks {
				switch b.Type {
				case "text":
				case "tool_use":
					if b.ID == "" || b.Name == "" {
						return nil, reject("messages.%d.content.%d: tool_use needs id and name", i, j)
					}
					if seenIDs[b.ID] {
						return nil, reject("messages.%d.content.%d: `tool_use` ids must be unique (%s)", i, j, b.ID)
					}
					if _, ok := decodeObject(b.Input); !ok {
						return nil, reject("messages.%d.content.%d.input: Input should be a valid dictionary", i, j)
					}
					seenIDs[b.ID] = true
					openCalls = append(openCalls, b.ID)
				default:
					return nil, reject("messages.%d.content.%d: block type %q is not expected in an assistant turn here", i, j, b.Type)
				}
			}
			continue
		}
		if rej := checkAnthropicUserTurn(i, blocks, openCalls); rej != nil {
			return nil, rej
		}
		openCalls = nil
	}
	if last := req.Messages[len(req.Messages)-1]; last.Role != "user" {
		// Models that do not support prefill answer 400 to a trailing
		// assistant turn; contractbench never prefills.
		return nil, reject("messages: the final message must have role \"user\"")
	}
	return tools, nil
}

// checkAnthropicUserTurn checks that a user turn answers every tool_use of
// the previous assistant turn exactly once, with the results first.
func checkAnthropicUserTurn(i int, blocks []anthropicBlock, openCalls []string) *rejection {
	open := make(map[string]bool, len(openCalls))
	for _, id := range openCalls {
		open[id] = true
	}
	sawText := false
	for j, b := range blocks {
		switch b.Type {
		case "text":
			sawText = true
		case "tool_result":
			if sawText {
				return reject("messages.%d.content.%d: tool_result blocks must come before any other content in the user turn", i, j)
			}
			if !open[b.ToolUseID] {
				return reject("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
			}
			delete(open, b.ToolUseID)
			if b.IsError != nil {
				var isErr bool
				if err := json.Unmarshal(b.IsError, &isErr); err != nil {
					return reject("messages.%d.content.%d.is_error: Input should be a valid boolean", i, j)
				}
			}
			if rej := checkToolResultContent(i, j, b.Content); rej != nil {
				return rej
			}
		default:
			return reject("messages.%d.content.%d: block type %q is not expected in a user turn here", i, j, b.Type)
		}
	}
	for _, id := range openCalls {
		if open[id] {
			return reject("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, id)
		}
	}
	return nil
}

// anthropicBlocks decodes a message's content, a string or a list of
// blocks, and rejects empty text.
func anthropicBlocks(i int, raw json.RawMessage) ([]anthropicBlock, *rejection) {
	if s, ok := jsonString(raw); ok {
		if s == "" {
			return nil, reject("messages.%d: content must be non-empty", i)
		}
		return []anthropicBlock{{Type: "text", Text: &s}}, nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, reject("messages.%d.content: %v", i, err)
	}
	if len(blocks) == 0 {
		return nil, reject("messages.%d: all messages must have non-empty content", i)
	}
	for j, b := range blocks {
		if b.Type == "text" && (b.Text == nil || *b.Text == "") {
			return nil, reject("messages.%d.content.%d.text: text content blocks must be non-empty", i, j)
		}
	}
	return blocks, nil
}

func checkToolResultContent(i, j int, raw json.RawMessage) *rejection {
	if raw == nil {
		return nil
	}
	if _, ok := jsonString(raw); ok {
		return nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return reject("messages.%d.content.%d.content: %v", i, j, err)
	}
	for k, b := range blocks {
		if b.Type != "text" || b.Text == nil || *b.Text == "" {
			return reject("messages.%d.content.%d.content.%d: want a non-empty text block", i, j, k)
		}
	}
	return nil
}

func checkAnthropicSystem(raw json.RawMessage) *rejection {
	if _, ok := jsonString(raw); ok {
		return nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return reject("system: %v", err)
	}
	for i, b := range blocks {
		if b.Type != "text" || b.Text == nil || *b.Text == "" {
			return reject("system.%d: want a non-empty text block", i)
		}
	}
	return nil
}
