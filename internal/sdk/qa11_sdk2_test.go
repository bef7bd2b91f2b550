package sdk

import (
	"encoding/json"
	"testing"
)

// describeCall says what a call does the way can_use_tool's description
// does: a shell command's description (else the command), a file tool's
// path relative to the working folder when inside it, nothing for other
// tools.
func TestDescribeCallNamesTheCommandOrTheFile(t *testing.T) {
	for _, tc := range []struct {
		name, tool, input, want string
	}{
		{"bash description", "Bash", `{"command":"ls","description":"List files"}`, "List files"},
		{"bash blank description", "Bash", `{"command":"ls -l","description":"  "}`, "ls -l"},
		{"write inside", "Write", `{"file_path":"/p/src/a.go","content":""}`, "src/a.go"},
		{"edit outside", "Edit", `{"file_path":"/elsewhere/a.go"}`, "/elsewhere/a.go"},
		{"read sibling prefix", "Read", `{"file_path":"/p2/a.go"}`, "/p2/a.go"},
		{"read the folder itself", "Read", `{"file_path":"/p"}`, "/p"},
		{"notebook", "NotebookEdit", `{"notebook_path":"/p/n.ipynb"}`, "n.ipynb"},
		{"other tool", "Glob", `{"pattern":"*.go"}`, ""},
		{"not an object", "Bash", `[]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := describeCall(tc.tool, json.RawMessage(tc.input), "/p"); got != tc.want {
				t.Errorf("describeCall = %q, want %q", got, tc.want)
			}
		})
	}
}

// Without a title, an MCP tool is displayed by its own name on its
// server with a capital first letter; a built-in tool by its name.
func TestDisplayNameWithoutTitle(t *testing.T) {
	a := &asker{s: &Server{}}
	for tool, want := range map[string]string{"Bash": "Bash", "mcp__srv__plain": "Plain", "mcp__srv__élan": "Élan", "mcp__odd": "mcp__odd"} {
		if got := a.displayName(tool); got != want {
			t.Errorf("displayName(%q) = %q, want %q", tool, got, want)
		}
	}
}
