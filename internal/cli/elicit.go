package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/mcp"
	"reins/internal/tui"
)

// elicit answers an MCP server's request for input from the user, as
// Claude Code does: the Elicitation hooks may answer in the user's place
// (exit 2 declines); otherwise the front end asks (the terminal UI's
// dialog, the SDK client's elicitation request) or, in print mode where
// nobody can be asked, declines; then the ElicitationResult hooks may
// change the answer (exit 2 declines) before it goes to the server.
func (a *app) elicit(ctx context.Context, req mcp.ElicitRequest) (mcp.ElicitResponse, error) {
	fill := func(in *hooks.Input) {
		in.MCPServerName, in.Message, in.Mode, in.URL, in.ElicitationID = req.Server, req.Message, req.Mode, req.URL, req.ElicitationID
		in.RequestedSchema = req.RequestedSchema
	}
	var ans mcp.ElicitResponse
	decided := false
	if a.hookRun.Has(hooks.Elicitation) {
		r := a.hookRun.Run(ctx, a.hookInput(hooks.Elicitation, fill))
		a.reportHooks(r)
		switch {
		case r.Block:
			a.notify("warning", fmt.Sprintf("Elicitation hook declined MCP server %q's request for input: %s", req.Server, r.Reason))
			ans, decided = mcp.ElicitResponse{Action: mcp.ElicitDecline}, true
		case r.Elicitation != nil:
			ans, decided = mcp.ElicitResponse{Action: r.Elicitation.Action, Content: r.Elicitation.Content}, true
		}
	}
	if !decided {
		var err error
		if ans, err = a.askElicitation(ctx, req); err != nil {
			ans = mcp.ElicitResponse{Action: mcp.ElicitCancel}
			a.logger.Warn("MCP elicitation not answered", "server", req.Server, "err", err)
		}
	}
	if a.hookRun.Has(hooks.ElicitationResult) {
		r := a.hookRun.Run(ctx, a.hookInput(hooks.ElicitationResult, func(in *hooks.Input) {
			fill(in)
			in.Action, in.Content = ans.Action, ans.Content
		}))
		a.reportHooks(r)
		switch {
		case r.Block:
			a.notify("warning", fmt.Sprintf("ElicitationResult hook declined MCP server %q's request for input: %s", req.Server, r.Reason))
			ans = mcp.ElicitResponse{Action: mcp.ElicitDecline}
		case r.Elicitation != nil:
			ans = mcp.ElicitResponse{Action: r.Elicitation.Action, Content: r.Elicitation.Content}
		}
	}
	return ans, nil
}

// askElicitation puts the request to whoever the front end can ask: the
// SDK client, the user in the terminal UI; nobody in print mode (a
// decline, said to the user since the server's tool may fail for it).
func (a *app) askElicitation(ctx context.Context, req mcp.ElicitRequest) (mcp.ElicitResponse, error) {
	switch {
	case a.hooks.Elicit != nil:
		return a.hooks.Elicit(ctx, req)
	case a.front == frontTUI && a.hooks.Asker != nil:
		in, err := json.Marshal(tui.ElicitationInput{Server: req.Server, Message: req.Message, Mode: req.Mode, URL: req.URL, Schema: req.RequestedSchema})
		if err != nil {
			return mcp.ElicitResponse{}, fmt.Errorf("elicitation of %s: %w", req.Server, err)
		}
		a.notification(ctx, "elicitation_dialog", fmt.Sprintf("MCP server %s asks: %s", req.Server, req.Message))
		got, err := a.hooks.Asker.Ask(ctx, engine.Question{ToolName: tui.ElicitationQuestion, Input: in})
		if err != nil {
			return mcp.ElicitResponse{}, err
		}
		switch {
		case got.Allow:
			var content map[string]any
			if len(got.UpdatedInput) > 0 {
				if err := json.Unmarshal(got.UpdatedInput, &content); err != nil {
					return mcp.ElicitResponse{}, fmt.Errorf("elicitation of %s: the answer is not an object: %w", req.Server, err)
				}
			}
			if req.Mode == "url" {
				a.openElicitationURL(req)
			}
			return mcp.ElicitResponse{Action: mcp.ElicitAccept, Content: content}, nil
		case got.Interrupt:
			return mcp.ElicitResponse{Action: mcp.ElicitCancel}, nil
		}
		return mcp.ElicitResponse{Action: mcp.ElicitDecline}, nil
	}
	a.notify("warning", fmt.Sprintf("MCP server %q asked for input (%q), which cannot be given in this mode; it was declined (an Elicitation hook can answer such requests)", req.Server, req.Message))
	return mcp.ElicitResponse{Action: mcp.ElicitDecline}, nil
}

// openElicitationURL opens the page a URL request asks the user to visit
// (an http or https address only), or says where it is when it cannot.
func (a *app) openElicitationURL(req mcp.ElicitRequest) {
	u, err := url.Parse(req.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		a.notify("warning", fmt.Sprintf("MCP server %q asked you to open %q, which is not a web address; it was not opened", req.Server, req.URL))
		return
	}
	if open := a.browserOpener(); open != nil {
		if err := open(req.URL); err == nil {
			return
		}
	}
	a.notify("info", fmt.Sprintf("Open this address to continue with MCP server %q: %s", req.Server, req.URL))
}
