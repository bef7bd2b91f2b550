package plugin

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseManifestReadsMetadataAndComponentPaths(t *testing.T) {
	data := `{"name": "fmt", "version": "1.0.0", "description": "Formats code",
		"commands": ["./extra/cmd.md", "./more/"], "agents": "./a/reviewer.md", "skills": ".",
		"outputStyles": "./styles", "hooks": ["./config/hooks.json", {"Stop": []}],
		"mcpServers": {"db": {"command": "db-server"}}, "author": {"name": "x"}}`
	m, problems, err := ParseManifest([]byte(data))
	if err != nil || len(problems) > 0 {
		t.Fatalf("err %v, problems %v", err, problems)
	}
	want := &Manifest{Name: "fmt", Version: "1.0.0", Description: "Formats code",
		Commands: []string{"extra/cmd.md", "more"}, CommandsSet: true,
		Agents: []string{"a/reviewer.md"}, AgentsSet: true, Skills: []string{"."},
		OutputStyles: []string{"styles"}, OutputStylesSet: true,
		HookFiles: []string{"config/hooks.json"}, InlineHooks: []json.RawMessage{json.RawMessage(`{"Stop": []}`)},
		InlineMCP: []json.RawMessage{json.RawMessage(`{"db": {"command": "db-server"}}`)}}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
}

func TestParseManifestRefusesAManifestWithoutAUsableName(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"not json", `{"name": "x",`, "not a JSON object"},
		{"a list", `["x"]`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"no name", `{"version": "1"}`, "name: is required"},
		{"number name", `{"name": 3}`, "name: must be a string, not a number"},
		{"empty name", `{"name": ""}`, "name: is empty"},
		{"spaces", `{"name": "my plugin"}`, "has spaces"},
		{"colon", `{"name": "a:b"}`, "may not contain"},
		{"slash", `{"name": "../x"}`, "may not contain"},
		{"control", "{\"name\": \"a\\u0007b\"}", "control characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseManifest([]byte(tc.data))
			var me *ManifestError
			if !errors.As(err, &me) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want a ManifestError with %q", err, tc.want)
			}
		})
	}
}

func TestParseManifestDropsBadFieldsAndSaysWhich(t *testing.T) {
	data := `{"name": "p", "version": 2, "commands": "commands/x.md", "agents": ["./ok.md", 7, "./../out.md"],
		"skills": "/abs", "hooks": 5, "mcpServers": ["./servers.txt"],
		"outputStyles": {"x": 1}}`
	m, problems, err := ParseManifest([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Error())
	}
	want := []string{
		`agents[1]: must be a path, not a number; ignored`,
		`agents[2]: path "./../out.md" leaves the plugin folder; ignored`,
		`commands: path "commands/x.md" must start with "./" (relative to the plugin folder); ignored`,
		`hooks: must be a path to a .json file or an object, not a number; ignored`,
		`mcpServers[0]: "./servers.txt" is not a .json file; ignored`,
		`outputStyles: must be a path or a list of paths, not an object; ignored`,
		`skills: path "/abs" must start with "./" (relative to the plugin folder); ignored`,
		`version: must be a string, not a number; ignored`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if !cmp.Equal(m.Agents, []string{"ok.md"}) || !m.CommandsSet || len(m.Commands) != 0 {
		t.Errorf("manifest kept %+v", m)
	}
}

func TestParseManifestReadsCommandsGivenByName(t *testing.T) {
	data := `{"name": "p", "commands": {
		"about": {"source": "./README.md", "description": "About", "argumentHint": "[x]", "allowedTools": ["Read"]},
		"hi": {"content": "Say hi"},
		"both": {"source": "./a.md", "content": "x"},
		"neither": {"description": "y"}}}`
	m, problems, err := ParseManifest([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []InlineCommand{
		{Name: "about", Source: "README.md", Description: "About", ArgumentHint: "[x]", AllowedTools: []string{"Read"}},
		{Name: "hi", Content: "Say hi"},
	}
	if diff := cmp.Diff(want, m.InlineCommands); diff != "" {
		t.Errorf("inline commands (-want +got):\n%s", diff)
	}
	if len(problems) != 2 || !strings.Contains(problems[0].Error(), "commands.both") || !strings.Contains(problems[1].Error(), "commands.neither") {
		t.Errorf("problems = %v, want commands.both and commands.neither", problems)
	}
}

// FuzzParseManifest checks that no manifest makes the parser panic, and
// that every path it accepts stays inside the plugin folder.
func FuzzParseManifest(f *testing.F) {
	for _, s := range []string{
		`{"name": "p"}`,
		`{"name": "p", "commands": ["./a.md", "./b"], "agents": "./x.md", "skills": "."}`,
		`{"name": "p", "commands": {"a": {"source": "./a.md"}, "b": {"content": "x"}}}`,
		`{"name": "p", "hooks": ["./h.json", {"Stop": []}], "mcpServers": {"s": {"command": "x"}}}`,
		`{"name": "p", "agents": ["./../../etc/passwd"], "skills": "./a/../../b"}`,
		`{"name": "", "version": []}`,
		"\xef\xbb\xbf{\"name\": \"bom\"}",
		`[1,2]`, `null`, `"x"`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, problems, err := ParseManifest(data)
		if err != nil {
			if m != nil || problems != nil {
				t.Fatalf("an error came with a manifest or problems")
			}
			return
		}
		if CheckName(m.Name) != nil {
			t.Fatalf("accepted the name %q", m.Name)
		}
		var paths []string
		paths = append(paths, m.Commands...)
		paths = append(paths, m.Agents...)
		paths = append(paths, m.Skills...)
		paths = append(paths, m.OutputStyles...)
		paths = append(paths, m.HookFiles...)
		paths = append(paths, m.MCPFiles...)
		for _, c := range m.InlineCommands {
			if (c.Source == "") == (c.Content == "") && c.Content != "" {
				t.Fatalf("inline command %q has both a source and content", c.Name)
			}
			if c.Source != "" {
				paths = append(paths, c.Source)
			}
		}
		for _, p := range paths {
			if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) {
				t.Fatalf("accepted the path %q", p)
			}
		}
	})
}
