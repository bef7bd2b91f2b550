package sdk

import (
	"context"
	"encoding/json"
	"fmt"
)

// mcpMessage is the mcp_message request body.
type mcpMessage struct {
	Subtype    string          `json:"subtype"`
	ServerName string          `json:"server_name"`
	Message    json.RawMessage `json:"message"`
}

// MCPHost carries JSON-RPC messages to MCP servers hosted by the client
// ({"type":"sdk"} entries of --mcp-config) with mcp_message requests. It
// implements the MCP manager's SDKHost.
type MCPHost struct{ s *Server }

// MCPHost returns the host for the client's MCP servers.
func (s *Server) MCPHost() *MCPHost { return &MCPHost{s: s} }

// Message sends msg to the named server and returns the JSON-RPC reply,
// or nil for a notification. It blocks until the client answers or ctx
// ends (the request is then withdrawn).
func (h *MCPHost) Message(ctx context.Context, server string, msg json.RawMessage) (json.RawMessage, error) {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(msg, &probe); err != nil {
		return nil, fmt.Errorf("mcp_message to %s: the message is not a JSON object: %v", server, err)
	}
	raw, err := h.s.peer.request(ctx, "mcp_message", mcpMessage{Subtype: "mcp_message", ServerName: server, Message: msg})
	if err != nil {
		return nil, err
	}
	if len(probe.ID) == 0 || string(probe.ID) == "null" {
		return nil, nil // a notification: the client's acknowledgement carries nothing
	}
	var resp struct {
		MCPResponse json.RawMessage `json:"mcp_response"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil || len(resp.MCPResponse) == 0 || resp.MCPResponse[0] != '{' {
		return nil, fmt.Errorf("mcp_message to %s: the answer has no mcp_response object", server)
	}
	return resp.MCPResponse, nil
}
