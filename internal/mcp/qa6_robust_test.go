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

// A server entry with a field of the wrong type says which field and what
// JSON it needs, not which Go struct field it would have filled.
func TestServerEntryOfTheWrongShapeNamesTheField(t *testing.T) {
	cases := map[string]string{
		`{"command": "x", "args": "--port 3"}`: `args must be an array of strings, not a JSON string`,
		`{"command": "x", "env": {"PORT": 3}}`: `env values must be strings, not a JSON number`,
		`{"command": 5}`:                       `command must be a string, not a JSON number`,
		`["x"]`:                                `the entry must be an object, not a JSON array`,
	}
	for entry, want := range cases {
		servers, err := ParseServers([]byte(`{"mcpServers": {"s": `+entry+`}}`), ScopeProject, "/p/.mcp.json")
		if err != nil || len(servers) != 1 {
			t.Fatalf("%s: %v, %v", entry, servers, err)
		}
		got := servers[0].Invalid
		if !strings.Contains(got, `server "s" in /p/.mcp.json: `+want) || strings.Contains(got, "Go ") {
			t.Errorf("%s: Invalid = %q, want %q", entry, got, want)
		}
	}
}

// An MCP variable set to something that is no positive whole number is
// named in a warning (it is ignored, and the default holds); before, it
// was ignored silently.
func TestEnvWarningsNameMCPVariablesThatAreNoNumbers(t *testing.T) {
	env := map[string]string{"MCP_TIMEOUT": "30s", "MCP_TOOL_TIMEOUT": "-5", "MAX_MCP_OUTPUT_TOKENS": "25000"}
	got := EnvWarnings(func(k string) string { return env[k] })
	want := []string{
		`MCP_TIMEOUT="30s" is not a positive number of milliseconds; it is ignored`,
		`MCP_TOOL_TIMEOUT="-5" is not a positive number of milliseconds; it is ignored`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings = %q, want %q", got, want)
	}
	if got := EnvWarnings(func(string) string { return "" }); len(got) != 0 {
		t.Errorf("unset variables warned about: %q", got)
	}
}

// A .mcp.json saved as UTF-16 with its byte-order mark is read.
func TestServersFileInUTF16IsRead(t *testing.T) {
	text := `{"mcpServers": {"files": {"command": "srv", "args": ["-v"]}}}`
	be := []byte{0xFE, 0xFF}
	for _, r := range text {
		be = append(be, 0, byte(r))
	}
	servers, err := ParseServers(be, ScopeProject, ".mcp.json")
	if err != nil || len(servers) != 1 || servers[0].Name != "files" || servers[0].Invalid != "" || servers[0].Config.Command != "srv" {
		t.Fatalf("servers %+v, err %v", servers, err)
	}
}
