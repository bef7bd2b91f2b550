package mcp

import (
	"context"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The actions of an answer to an elicitation.
const (
	// ElicitAccept: the user gave the input asked for (Content).
	ElicitAccept = "accept"
	// ElicitDecline: the user said no.
	ElicitDecline = "decline"
	// ElicitCancel: the user dismissed the question without choosing.
	ElicitCancel = "cancel"
)

// ElicitRequest is a server's request for input from the user, made while
// it works on a request of ours (MCP elicitation/create).
type ElicitRequest struct {
	// Server is the server's configured name.
	Server string
	// Message is what the server says to the user.
	Message string
	// Mode is "form" (fill in RequestedSchema) or "url" (visit URL).
	Mode string
	// RequestedSchema is the flat JSON object schema of the form's fields
	// (form mode); nil when the server gave none.
	RequestedSchema json.RawMessage
	// URL and ElicitationID are those of a "url" request.
	URL           string
	ElicitationID string
}

// ElicitResponse is the answer to an ElicitRequest.
type ElicitResponse struct {
	// Action is ElicitAccept, ElicitDecline or ElicitCancel.
	Action string
	// Content holds the values of the form's fields (accept in form
	// mode).
	Content map[string]any
}

// Elicitor puts a server's request for input to the user (or to hooks, or
// an SDK client) and returns the answer. An error counts as cancel.
type Elicitor func(ctx context.Context, req ElicitRequest) (ElicitResponse, error)

// elicit answers a server's elicitation/create through Options.Elicit;
// without one nobody can be asked (print mode), and the request is
// declined, so the server goes on without the input rather than waiting.
func (s *server) elicit(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	p := req.Params
	er := ElicitRequest{Server: s.name, Message: p.Message, Mode: p.Mode, URL: p.URL, ElicitationID: p.ElicitationID}
	if er.Mode == "" {
		er.Mode = "form"
		if p.URL != "" {
			er.Mode = "url"
		}
	}
	if p.RequestedSchema != nil {
		if b, err := json.Marshal(p.RequestedSchema); err == nil {
			er.RequestedSchema = b
		}
	}
	if s.m.opts.Elicit == nil {
		s.m.log.Info("MCP elicitation declined: nobody can be asked", "server", s.name)
		return &sdk.ElicitResult{Action: ElicitDecline}, nil
	}
	ans, err := s.m.opts.Elicit(ctx, er)
	if err != nil {
		s.m.log.Warn("MCP elicitation not answered", "server", s.name, "err", err)
		return &sdk.ElicitResult{Action: ElicitCancel}, nil
	}
	switch ans.Action {
	case ElicitAccept:
		content := ans.Content
		if content == nil && er.Mode == "form" {
			content = map[string]any{}
		}
		if er.Mode != "form" {
			content = nil // a URL request's answer carries no content
		}
		return &sdk.ElicitResult{Action: ElicitAccept, Content: content}, nil
	case ElicitDecline:
		return &sdk.ElicitResult{Action: ElicitDecline}, nil
	}
	return &sdk.ElicitResult{Action: ElicitCancel}, nil
}
