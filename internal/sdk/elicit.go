package sdk

import (
	"context"
	"encoding/json"
	"fmt"

	"reins/internal/mcp"
)

// elicitation is the elicitation request body: an MCP server asks the
// user for input, and the client answers (its onElicitation callback;
// without one it declines).
type elicitation struct {
	Subtype         string          `json:"subtype"`
	MCPServerName   string          `json:"mcp_server_name"`
	Message         string          `json:"message"`
	Mode            string          `json:"mode,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitation_id,omitempty"`
	RequestedSchema json.RawMessage `json:"requested_schema,omitempty"`
}

// Elicit puts an MCP server's request for input to the client as an
// elicitation request and returns its answer ({action, content}). While
// it waits the session is reported as requiring action, as for a
// permission question.
func (s *Server) Elicit(ctx context.Context, req mcp.ElicitRequest) (mcp.ElicitResponse, error) {
	body := elicitation{Subtype: "elicitation", MCPServerName: req.Server, Message: req.Message, Mode: req.Mode,
		URL: req.URL, ElicitationID: req.ElicitationID, RequestedSchema: req.RequestedSchema}
	s.askStart()
	raw, err := s.peer.request(ctx, "elicitation", body)
	s.askEnd()
	if err != nil {
		return mcp.ElicitResponse{}, err
	}
	var ans struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return mcp.ElicitResponse{}, fmt.Errorf("elicitation: the answer is not an elicitation result: %v", err)
	}
	switch ans.Action {
	case mcp.ElicitAccept, mcp.ElicitDecline, mcp.ElicitCancel:
		return mcp.ElicitResponse{Action: ans.Action, Content: ans.Content}, nil
	}
	return mcp.ElicitResponse{}, fmt.Errorf("elicitation: action %q is not accept, decline or cancel", ans.Action)
}
