package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"reins/internal/llm"
	"reins/internal/tool"
)

// authTool is mcp__<server>__authenticate, offered in place of the tools
// of a remote server that needs authorization: calling it starts the
// OAuth flow (Login) in the background and returns the address the user
// has to open. The flow then waits for the browser's answer; once the
// user approves, the server connects and its tools take this one's place
// on a later turn.
type authTool struct {
	tool.Defaults
	m      *Manager
	server string
}

func (t *authTool) Name() string { return ToolName(t.server, "authenticate") }
func (t *authTool) Description() string {
	return fmt.Sprintf("The MCP server %s needs the user's authorization before its tools can be used. "+
		"Call this to start signing in: it returns an address for the user to open in a browser, "+
		"and once they approve there, the server's tools become available. Tell the user the address.", t.server)
}
func (*authTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
}
func (*authTool) InterruptBehavior() tool.Interrupt { return tool.Cancel }

// authWait bounds how long a call waits for the authorization address.
const authWait = 30 * time.Second

// Call starts the flow and returns once the authorization address is
// known (or the flow failed before it).
func (t *authTool) Call(ctx context.Context, _ *tool.Call, _ json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	addr := make(chan string, 1)
	done := make(chan error, 1)
	o := LoginOptions{Open: t.m.opts.OpenBrowser, Address: func(u string) {
		select {
		case addr <- u: // the first address; the call may have returned already
		default:
		}
	}}
	go func() {
		// Not the call's context: the user approves after the call
		// ended. The manager's ends it when the session closes.
		done <- t.m.Login(t.m.ctx, t.server, o)
	}()
	select {
	case u := <-addr:
		text := fmt.Sprintf("Ask the user to open this address to authorize reins for the MCP server %s:\n\n%s\n\n"+
			"reins waits for the approval in the background; the server's tools become available once it arrives.", t.server, u)
		return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(text)}}, nil
	case err := <-done:
		if err == nil {
			return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(
				fmt.Sprintf("reins is now authorized for %s; its tools are available from the next turn.", t.server))}}, nil
		}
		return nil, fmt.Errorf("authorize %s: %w", t.server, err)
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	case <-time.After(authWait):
		return nil, fmt.Errorf("authorize %s: no authorization address after %s", t.server, authWait)
	}
}
