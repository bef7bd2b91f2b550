package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestToolNamesAreNormalised(t *testing.T) {
	tests := []struct{ server, tool, want string }{
		{"github", "create_issue", "mcp__github__create_issue"},
		{"my server", "get.thing", "mcp__my_server__get_thing"},
		{"claude.ai Gmail", "send-mail", "mcp__claude_ai_Gmail__send-mail"},
		{"日本", "検索", "mcp________"},
	}
	for _, tt := range tests {
		if got := ToolName(tt.server, tt.tool); got != tt.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
	}
}

func TestServerToolSchemaAndDescription(t *testing.T) {
	srv := &server{name: "s"}
	long := strings.Repeat("é", MaxDescriptionChars)
	mt := newTool(srv, &sdk.Tool{Name: "t", Description: long, InputSchema: map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#", "properties": map[string]any{"x": map[string]any{"type": "string"}}}})
	var schema map[string]any
	if err := json.Unmarshal(mt.InputSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	if _, ok := schema["$schema"]; ok || schema["type"] != "object" {
		t.Errorf("schema = %s", mt.InputSchema())
	}
	if len(mt.Description()) > MaxDescriptionChars+40 || !strings.HasSuffix(mt.Description(), "[description cut]") || !strings.Contains(mt.Description(), "é") {
		t.Errorf("description not cut cleanly: %d bytes", len(mt.Description()))
	}
	if got := newTool(srv, &sdk.Tool{Name: "n"}).InputSchema(); string(got) != `{"type":"object","properties":{}}` {
		t.Errorf("missing schema became %s", got)
	}
}
