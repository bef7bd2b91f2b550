package cli

import (
	"context"
	"errors"
	"testing"

	"reins/internal/engine"
)

// Under `reins mcp serve` the client's own calls were confirmed by its
// user and run, but a sub-agent's calls (an Agent call running a model)
// were seen by nobody and are refused as when nobody can be asked.
func TestServeAllowsTheClientsCallsButNotASubAgents(t *testing.T) {
	ans, err := clientConfirms{}.Ask(context.Background(), engine.Question{ToolName: "Bash"})
	if err != nil || !ans.Allow {
		t.Errorf("the client's call: %+v, %v; want allowed", ans, err)
	}
	_, err = clientConfirms{}.Ask(context.Background(), engine.Question{ToolName: "Bash", AgentID: "a1"})
	if !errors.Is(err, engine.ErrNobodyToAsk) {
		t.Errorf("a sub-agent's call: %v; want nobody to ask", err)
	}
}
