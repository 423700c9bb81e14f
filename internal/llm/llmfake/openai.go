package llmfake

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// NewOpenAI starts a fake chat completions API (POST
// /v1/chat/completions) answering from script. Pass its URL, which ends in
// "/v1/", as the client's base URL.
func NewOpenAI(script []Turn) *Server {
	s := newServer(script, "/v1/chat/completions", (*Server).openai)
	s.URL = s.srv.URL + "/v1/"
	return s
}

type openaiRequest struct {
	Model               json.RawMessage `json:"model"`
	Messages            []openaiMessage `json:"messages"`
	Tools               []openaiTool    `json:"tools"`
	MaxTokens           json.RawMessage `json:"max_tokens"`
	MaxCompletionTokens json.RawMessage `json:"max_completion_tokens"`
}

type openaiMessage struct {
	Role       string           `json:"role"`
	Content    json.RawMessage  `json:"content"`
	ToolCalls  []openaiToolCall `json:"tool_calls"`
	ToolCallID string           `json:"tool_call_id"`
}

type openaiToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type openaiTool struct {
	Type     string `json:"type"`
	Function struct {
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"function"`
}

func (s *Server) openai(body []byte, h http.Header) (int, any, http.Header) {
	if key, ok := strings.CutPrefix(h.Get("authorization"), "Bearer "); !ok || key == "" {
		rej := &rejection{status: http.StatusUnauthorized, typ: "invalid_request_error", msg: "You didn't provide an API key."}
		s.problem("%s", rej.msg)
		return openaiError(rej, nil)
	}
	var req openaiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.problem("body: %v", err)
		return openaiError(reject("We could not parse the JSON body of your request: %v", err), nil)
	}
	tools, rej := checkOpenAIRequest(req)
	if rej != nil {
		s.problem("%s", rej.msg)
		return openaiError(rej, nil)
	}
	turn, ok := s.nextTurn()
	if !ok {
		s.problem("request after the script's last turn")
		return openaiError(reject("llmfake: the script has no turn left"), nil)
	}
	if turn.Status != 0 {
		typ := turn.ErrorType
		if typ == "" {
			typ = "invalid_request_error"
			if turn.Status == http.StatusTooManyRequests {
				typ = "rate_limit_exceeded"
			} else if turn.Status >= 500 {
				typ = "server_error"
			}
		}
		return openaiError(&rejection{status: turn.Status, typ: typ, msg: turn.ErrorMessage}, turn.Header)
	}
	var model string
	json.Unmarshal(req.Model, &model)
	message := map[string]any{"role": "assistant", "content": nil}
	if turn.Text != "" {
		message["content"] = turn.Text
	}
	var calls []map[string]any
	for _, c := range turn.ToolCalls {
		if !tools[c.Name] {
			s.problem("script calls tool %q, which the request does not offer", c.Name)
			return openaiError(reject("llmfake: scripted tool %q is not among the request's tools", c.Name), nil)
		}
		calls = append(calls, map[string]any{
			"id": s.newID("call_fake_"), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": string(argsOrEmpty(c.Args))},
		})
	}
	finish := "stop"
	if len(calls) > 0 {
		message["tool_calls"] = calls
		finish = "tool_calls"
	}
	u := turn.Usage
	// The chat completions API counts cached tokens inside prompt_tokens
	// and does not report cache writes.
	prompt := u.InputTokens + u.CacheReadTokens
	return http.StatusOK, map[string]any{
		"id":      s.newID("chatcmpl-fake-"),
		"object":  "chat.completion",
		"created": 0,
		"model":   model,
		"choices": []map[string]any{{"index": 0, "message": message, "finish_reason": finish, "logprobs": nil}},
		"usage": map[string]any{
			"prompt_tokens":         prompt,
			"completion_tokens":     u.OutputTokens,
			"total_tokens":          prompt + u.OutputTokens,
			"prompt_tokens_details": map[string]any{"cached_tokens": u.CacheReadTokens},
		},
	}, turn.Header
}

func openaiError(r *rejection, h http.Header) (int, any, http.Header) {
	return r.status, map[string]any{
		"error": map[string]any{"message": r.msg, "type": r.typ, "param": nil, "code": nil},
	}, h
}

// checkOpenAIRequest applies the chat completions rules for the fields
// contractbench sends and returns the offered tool names. It is stricter
// than the API in one place: the API does not require a token cap, while
// contractbench must send one with every request.
func checkOpenAIRequest(req openaiRequest) (map[string]bool, *rejection) {
	var model string
	if err := json.Unmarshal(req.Model, &model); err != nil || model == "" {
		return nil, reject("you must provide a model parameter")
	}
	switch {
	case req.MaxCompletionTokens != nil && req.MaxTokens != nil:
		return nil, reject("max_tokens and max_completion_tokens cannot both be set")
	case req.MaxCompletionTokens != nil:
		if !positiveInt(req.MaxCompletionTokens) {
			return nil, reject("Invalid 'max_completion_tokens': must be an integer of at least 1")
		}
	case req.MaxTokens != nil:
		if !positiveInt(req.MaxTokens) {
			return nil, reject("Invalid 'max_tokens': must be an integer of at least 1")
		}
	default:
		return nil, reject("llmfake: no max_completion_tokens or max_tokens; contractbench caps every turn")
	}
	tools := make(map[string]bool)
	for i, t := range req.Tools {
		switch {
		case t.Type != "function":
			return nil, reject("Invalid value for 'tools[%d].type': %q", i, t.Type)
		case !toolNameRE.MatchString(t.Function.Name):
			return nil, reject("Invalid 'tools[%d].function.name': string does not match pattern '^[a-zA-Z0-9_-]{1,64}$'", i)
		case tools[t.Function.Name]:
			return nil, reject("Duplicate tool name %q", t.Function.Name)
		case t.Function.Parameters != nil && !isObjectSchema(t.Function.Parameters):
			return nil, reject("Invalid schema for function %q: schema must be a JSON Schema of 'type: \"object\"'", t.Function.Name)
		}
		tools[t.Function.Name] = true
	}
	if len(req.Messages) == 0 {
		return nil, reject("Invalid 'messages': empty array. Expected an array with minimum length 1")
	}
	var open map[string]bool // tool_call ids still waiting for a tool message
	for i, m := range req.Messages {
		if m.Role != "tool" && len(open) > 0 {
			return nil, reject("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", keys(open))
		}
		switch m.Role {
		case "system", "developer", "user":
			if rej := checkOpenAIContent(i, m.Content, false); rej != nil {
				return nil, rej
			}
		case "assistant":
			if len(m.ToolCalls) == 0 {
				if rej := checkOpenAIContent(i, m.Content, false); rej != nil {
					return nil, rej
				}
			} else if rej := checkOpenAIContent(i, m.Content, true); rej != nil {
				return nil, rej
			}
			open = make(map[string]bool)
			for j, c := range m.ToolCalls {
				switch {
				case c.ID == "" || c.Function.Name == "":
					return nil, reject("Invalid 'messages[%d].tool_calls[%d]': id and function.name are required", i, j)
				case c.Type != "function":
					return nil, reject("Invalid 'messages[%d].tool_calls[%d].type': %q", i, j, c.Type)
				}
				if _, ok := decodeObject(json.RawMessage(c.Function.Arguments)); !ok {
					return nil, reject("Invalid 'messages[%d].tool_calls[%d].function.arguments': not a JSON object", i, j)
				}
				open[c.ID] = true
			}
		case "tool":
			if !open[m.ToolCallID] {
				return nil, reject("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[%d], tool_call_id %q)", i, m.ToolCallID)
			}
			delete(open, m.ToolCallID)
			if rej := checkOpenAIContent(i, m.Content, true); rej != nil {
				return nil, rej
			}
		default:
			return nil, reject("Invalid value: %q. Supported values are: 'system', 'developer', 'user', 'assistant' and 'tool'", m.Role)
		}
	}
	if len(open) > 0 {
		return nil, reject("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", keys(open))
	}
	return tools, nil
}

// checkOpenAIContent checks a message's content: a string or an array of
// parts; null or absent only where allowed.
func checkOpenAIContent(i int, raw json.RawMessage, nullable bool) *rejection {
	if raw == nil || string(raw) == "null" {
		if nullable {
			return nil
		}
		return reject("Invalid 'messages[%d].content': expected a string or an array, got null", i)
	}
	if _, ok := jsonString(raw); ok {
		return nil
	}
	var parts []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return reject("Invalid 'messages[%d].content': expected a string or an array of content parts", i)
	}
	return nil
}

func keys(m map[string]bool) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}
