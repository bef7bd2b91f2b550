package agent

import (
	"strings"
	"testing"
)

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":{"description":"d","prompt":"p","tools":"Read, Bash(x:*)"}}`,
		`{"a":{"description":"d","prompt":"p","tools":["Agent(x, y)"],"hooks":null}}`,
		`{"a":1}`, `[]`, `null`, `{"":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defs, err := ParseJSON(data, SourceSDK)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "agents JSON: ") {
				t.Fatalf("error %q does not say what failed", err)
			}
			return
		}
		for _, d := range defs {
			if d.Name == "" || d.Description == "" || d.Prompt == "" || d.Source != SourceSDK {
				t.Fatalf("accepted an incomplete definition: %+v", d)
			}
			_ = d.FilterTools([]string{"Agent", "Read", "mcp__a__b"}, FilterOptions{AllowAgent: true})
			_ = d.ToolsDescription()
			_, _ = d.Rules()
			_ = d.AgentTypes()
		}
	})
}

func FuzzParseDefinition(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b\ntools: Read, Agent(x)\nmaxTurns: 3\nhooks:\n  Stop: []\n---\nbody"))
	f.Add([]byte("---\nname: a\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _, err := parseDefinition(data, "f.md", SourceUser)
		if err == nil && (d.Name == "" || d.Description == "") {
			t.Fatalf("accepted a definition without name or description: %+v", d)
		}
	})
}
