package sdk

import (
	"context"
	"encoding/json"
	"testing"

	"reins/internal/mcp"
)

// An MCP server's request for input goes to the client as an elicitation
// control request with Claude Code's field names, and the client's
// {action, content} is the answer (the TypeScript SDK's onElicitation;
// without one it answers decline).
func TestElicitationGoesToTheClient(t *testing.T) {
	h := newHarness(t, Config{})
	type result struct {
		ans mcp.ElicitResponse
		err error
	}
	got := make(chan result, 1)
	go func() {
		ans, err := h.srv.Elicit(context.Background(), mcp.ElicitRequest{Server: "db", Message: "Which table?", Mode: "form",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"t":{"type":"string"}}}`)})
		got <- result{ans, err}
	}()
	req := h.until("control_request", "")
	r := req["request"].(map[string]any)
	schema, _ := r["requested_schema"].(map[string]any)
	if r["subtype"] != "elicitation" || r["mcp_server_name"] != "db" || r["message"] != "Which table?" || r["mode"] != "form" || schema["type"] != "object" {
		t.Errorf("request %v", r)
	}
	h.send(`{"type":"control_response","response":{"subtype":"success","request_id":"` + req["request_id"].(string) + `","response":{"action":"accept","content":{"t":"users"}}}}`)
	res := <-got
	if res.err != nil || res.ans.Action != mcp.ElicitAccept || res.ans.Content["t"] != "users" {
		t.Errorf("answer %+v, %v; want the client's accept", res.ans, res.err)
	}
	h.finish()
}
