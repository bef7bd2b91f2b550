// Command mcpgapserver is a stdio MCP server for the end-to-end tests of
// MCP resource mentions, output limits and elicitation: a text resource, a
// resource whose read fails, a tool that returns as much text as asked,
// and a tool that asks the user for a name.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type sizeIn struct {
	Chars int `json:"chars" jsonschema:"how many characters to return"`
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpgap", Version: "1.0"}, nil)
	s.AddResource(&mcp.Resource{URI: "docs://api/auth", Name: "Auth API", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain",
				Text: "Authenticate with a bearer token in the Authorization header."}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "docs://broken", Name: "Broken"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return nil, errors.New("the docs store is offline")
		})
	dump := func(_ context.Context, _ *mcp.CallToolRequest, in sizeIn) (*mcp.CallToolResult, any, error) {
		line := "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz.\n"
		text := strings.Repeat(line, in.Chars/len(line)+1)[:in.Chars]
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "dump", Description: "Return the number of characters asked for."}, dump)
	mcp.AddTool(s, &mcp.Tool{Name: "bigdump", Description: "Return the number of characters asked for; results of up to 200,000 characters are meant to be read whole.",
		Meta: mcp.Meta{"anthropic/maxResultSizeChars": 200_000}}, dump)
	mcp.AddTool(s, &mcp.Tool{Name: "ask", Description: "Ask the user for a name and say what came back."},
		func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			if res, ok := req.Params.InputResponses["name"].(*mcp.ElicitResult); ok {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("action=%s name=%v", res.Action, res.Content["name"])}}}, nil, nil
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"name": &mcp.ElicitParams{Message: "Which name should the report use?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "title": "Name"}}, "required": []string{"name"}}}}}, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
