package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"contractbench/internal/llm"
	"contractbench/internal/llm/llmfake"
)

// The agent loop in miniature: gate the paid call, ask the model, charge
// each response to the budget, count each tool call before running it, and
// stop at the final answer or the first cap. The fake API stands in for
// api.anthropic.com.
func Example() {
	api := llmfake.NewAnthropic([]llmfake.Turn{
		{ToolCalls: []llmfake.ToolCall{{Name: "navigate", Args: json.RawMessage(`{"url":"https://example.com/"}`)}}, Usage: llmfake.Usage{InputTokens: 1200, OutputTokens: 40}},
		{Text: "Example Domain", Usage: llmfake.Usage{InputTokens: 1500, OutputTokens: 8}},
	})
	defer api.Close()

	if err := llm.Gate(true, true, "claude"); err != nil {
		fmt.Println(err)
		return
	}
	provider, err := llm.NewAnthropic(llm.AnthropicOptions{APIKey: "key", BaseURL: api.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	prices, err := llm.DefaultPrices()
	if err != nil {
		fmt.Println(err)
		return
	}
	budget, err := llm.NewBudget(llm.Caps{MaxToolIterations: 10}, prices)
	if err != nil {
		fmt.Println(err)
		return
	}

	tools := []llm.Tool{{Name: "navigate", InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`)}}
	msgs := []llm.Message{{Role: llm.RoleUser, Text: "What is the title of https://example.com/?"}}
	calls := 0
	for {
		resp, err := provider.Next(context.Background(), llm.Request{Messages: msgs, Tools: tools, MaxTokens: budget.Caps().MaxTokensPerTurn})
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := budget.Charge(provider.Model(), resp.Usage); err != nil {
			var exceeded *llm.BudgetExceededError
			fmt.Println("budget_exceeded:", errors.As(err, &exceeded))
			return
		}
		if len(resp.ToolCalls) == 0 {
			fmt.Printf("answer %q after %d tool calls, %s\n", resp.Text, calls, llm.FormatUSD(budget.USD()))
			return
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls})
		var results []llm.ToolResult
		for _, c := range resp.ToolCalls {
			if err := budget.CountToolCall(); err != nil {
				fmt.Println(err)
				return
			}
			calls++
			fmt.Printf("%s %s\n", c.Name, c.Args)
			results = append(results, llm.ToolResult{CallID: c.ID, Name: c.Name, Content: "navigated"})
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, ToolResults: results})
	}
	// Output:
	// navigate {"url":"https://example.com/"}
	// answer "Example Domain" after 1 tool calls, $0.0088
}
