package cli

import (
	"context"
	"fmt"
	"sync"

	"reins/internal/mcp"
)

// mcpReports remembers which MCP servers' failures the user was told of,
// so each is reported once.
type mcpReports struct {
	mu   sync.Mutex
	seen map[string]bool
}

// reportMCPFailures tells the user, once per server, about MCP servers
// that failed to connect or stopped: on stderr in print and SDK modes, as
// a notice in the terminal UI.
func (a *app) reportMCPFailures() {
	if a.mcpm() == nil {
		return
	}
	for _, st := range a.mcpm().Status() {
		if st.State != mcp.StateFailed && st.State != mcp.StateNeedsAuth {
			continue
		}
		a.mcpReported.mu.Lock()
		seen := a.mcpReported.seen[st.Name]
		if a.mcpReported.seen == nil {
			a.mcpReported.seen = map[string]bool{}
		}
		a.mcpReported.seen[st.Name] = true
		a.mcpReported.mu.Unlock()
		if seen {
			continue
		}
		what := "failed"
		if st.State == mcp.StateNeedsAuth {
			what = "needs authentication"
		}
		msg := fmt.Sprintf("MCP server %q %s: %s", st.Name, what, st.Err)
		if st.State == mcp.StateNeedsAuth {
			msg += fmt.Sprintf("; run `reins mcp login %s` to authorize reins", st.Name)
		}
		if a.front == frontTUI {
			a.notify("warning", msg+" (/mcp shows its state)")
		} else {
			a.warn(msg)
		}
	}
}

// reportMCPPending tells print and SDK users, once per server, of the
// servers still connecting when the start-up wait ended: the requests go
// without their tools until they connect, and a slow server looked
// exactly like one that has no tools.
func (a *app) reportMCPPending() {
	if a.mcpm() == nil {
		return
	}
	for _, st := range a.mcpm().Status() {
		if st.State != mcp.StatePending {
			continue
		}
		key := "pending\x00" + st.Name
		a.mcpReported.mu.Lock()
		seen := a.mcpReported.seen[key]
		if a.mcpReported.seen == nil {
			a.mcpReported.seen = map[string]bool{}
		}
		a.mcpReported.seen[key] = true
		a.mcpReported.mu.Unlock()
		if seen {
			continue
		}
		a.warn(fmt.Sprintf("MCP server %q is still connecting after the start-up wait (MCP_STARTUP_WAIT_MS); the model works without its tools until it connects", st.Name))
	}
}

// watchMCP reports server failures as they happen, until the returned
// stop is called (the terminal UI, where servers connect in the
// background).
func (a *app) watchMCP() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			ch := a.mcpm().Changed()
			a.reportMCPFailures()
			select {
			case <-ch:
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
