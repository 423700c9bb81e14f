package agent_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"contractbench/internal/agent"
	"contractbench/internal/agent/agenttest"
	"contractbench/internal/llm"
	"contractbench/internal/mcpclient"
)

func TestScriptDrivesTheLoop(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mcpclient.Options{})
	s := agenttest.NewScript("reference", []llm.ToolCall{
		{Name: "echo", Args: json.RawMessage(`{"text":"first"}`)},
		{Name: "fail", Args: json.RawMessage(`{"reason":"second"}`)},
		{Name: "echo", Args: json.RawMessage(`{"text":"third"}`)},
	})
	out := agent.Run(context.Background(), s, e.session, agent.Options{
		Instruction: "Play the script.", Budget: agenttest.NewBudget(t, llm.Caps{}), BeforeCall: e.beforeCall,
	})
	if out.Stop != agent.StopAnswer || out.Answer != "reference: all 3 steps done" {
		t.Fatalf("Stop %q, Answer %q (Err %v); want the script's answer after its calls", out.Stop, out.Answer, out.Err)
	}
	want := []string{
		"before 1 echo", "server echo first",
		"before 2 fail", "server fail second",
		"before 3 echo", "server echo third",
	}
	if got := e.events(); !slices.Equal(got, want) {
		t.Errorf("calls ran as %q, want %q", got, want)
	}
	if out.Turns != 4 {
		t.Errorf("Turns = %d, want 4: one per call and one for the answer", out.Turns)
	}
}
