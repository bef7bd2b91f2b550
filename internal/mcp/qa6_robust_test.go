package mcp

import (
	"strings"
	"testing"
)

// A .mcp.json (or --mcp-config) that is not JSON is reported with the
// line and column of the mistake, not just encoding/json's message.
func TestServersFileSyntaxErrorNamesLineAndColumn(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"trailing comma", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},\n  }\n}\n", "line 4, column 3: "},
		{"cut off", "{\n  \"mcpServers\": {\n", "line 3, column 1: "},
		{"not an object", "  [1]", "line 1, column 3: the file must hold a JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseServers([]byte(tc.data), ScopeProject, "/p/.mcp.json")
			if err == nil || !strings.Contains(err.Error(), "read MCP servers from /p/.mcp.json: "+tc.want) {
				t.Errorf("err = %v, want it to locate the mistake at %q", err, tc.want)
			}
		})
	}
}
