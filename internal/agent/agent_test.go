package agent

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"reins/internal/llm"
)

func TestBuiltinDefinitions(t *testing.T) {
	type row struct {
		Name, Model, Tools string
		ReadOnly           bool
	}
	var got []row
	for _, d := range Builtin() {
		got = append(got, row{d.Name, d.Model, d.ToolsDescription(), d.ReadOnly})
		if d.Source != SourceBuiltin || d.Path != "" || len(d.Prompt) < 200 || len(d.Description) < 50 {
			t.Errorf("%s: source %q path %q prompt %d chars description %d chars", d.Name, d.Source, d.Path, len(d.Prompt), len(d.Description))
		}
	}
	want := []row{
		{"Explore", "haiku", "All tools except Agent, Edit, MultiEdit, Write, NotebookEdit", true},
		{"general-purpose", "inherit", "All tools", false},
		{"Plan", "inherit", "All tools except Agent, Edit, MultiEdit, Write, NotebookEdit", true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("built-ins (-want +got):\n%s", diff)
	}
	a, b := Builtin(), Builtin()
	a[0].Name = "changed"
	if b[0].Name == "changed" {
		t.Errorf("Builtin returns shared definitions")
	}
}

func loadFixture(t *testing.T) *Catalog {
	t.Helper()
	home, _ := filepath.Abs("testdata/home")
	project, _ := filepath.Abs("testdata/project")
	defs, errs := Load(StandardRoots(home, "", project))
	for _, err := range errs {
		t.Errorf("Load: %v", err)
	}
	return NewCatalog(Builtin()...).With(defs...)
}

func TestLoadFixtureWithPrecedence(t *testing.T) {
	c := loadFixture(t)
	type row struct{ Name, Source, Description string }
	var got []row
	for _, d := range c.All() {
		got = append(got, row{d.Name, string(d.Source), d.Description})
	}
	want := []row{
		{"db-expert", "project", "Knows the schema"},
		{"Explore", "project", "The project's own explorer"},
		{"general-purpose", "built-in", got[2].Description},
		{"note-taker", "user", "Keeps notes"},
		{"Plan", "built-in", got[4].Description},
		{"reviewer", "project", "Reviews code for correctness and style. Use PROACTIVELY after edits."},
		{"tester", "project", "Runs the tests and reports failures"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("catalog (-want +got):\n%s", diff)
	}
}

func TestLoadReadsEveryField(t *testing.T) {
	c := loadFixture(t)
	d, ok := c.Lookup("reviewer")
	if !ok {
		t.Fatal("reviewer not found")
	}
	want := &Definition{
		Name:            "reviewer",
		Description:     "Reviews code for correctness and style. Use PROACTIVELY after edits.",
		Prompt:          "You review code.\n\nBe specific.",
		Tools:           []string{"Read", "Grep", "Glob", "Bash(git diff:*)", "Agent(worker, researcher)"},
		DisallowedTools: []string{"Write", "Bash(rm:*)"},
		Model:           "sonnet",
		PermissionMode:  "plan",
		MaxTurns:        12,
		Skills:          []string{"pdf-tools", "changelog"},
		Hooks:           json.RawMessage(`{"PreToolUse":[{"hooks":[{"command":"./check.sh","type":"command"}],"matcher":"Bash"}]}`),
		MCPServers:      json.RawMessage(`["github"]`),
		Color:           "purple",
		Source:          SourceProject,
		Path:            d.Path,
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("reviewer (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(d.Path, filepath.Join(".claude", "agents", "reviewer.md")) {
		t.Errorf("Path = %q", d.Path)
	}
}

func TestLoadReportsBrokenFiles(t *testing.T) {
	defs, errs := Load(Roots{Project: []string{"testdata/broken/.claude"}})
	if len(defs) != 1 || defs[0].Name != "bad-fields" || defs[0].PermissionMode != "" || defs[0].MaxTurns != 0 {
		t.Errorf("defs = %+v, want bad-fields with its bad fields ignored", defs)
	}
	var msgs []string
	for _, err := range errs {
		msgs = append(msgs, err.Error())
	}
	want := []string{
		`load agent testdata/broken/.claude/agents/badfields.md: line 4: permissionMode: "yolo" is not one of default, acceptEdits, plan, bypassPermissions, dontAsk, auto, manual (ignored)`,
		`load agent testdata/broken/.claude/agents/badfields.md: line 5: maxTurns: want a whole number, got "many" (ignored)`,
		`load agent testdata/broken/.claude/agents/nofm.md: no frontmatter: an agent file starts with --- and gives at least name and description; the agent is left out`,
		`load agent testdata/broken/.claude/agents/noname.md: line 1: name is required; the agent is left out`,
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestFilterToolsOnlyNarrows(t *testing.T) {
	parent := []string{"Agent", "AskUserQuestion", "Bash", "Edit", "ExitPlanMode", "Glob", "Grep", "Read", "Skill", "StructuredOutput", "Write", "mcp__github__get_issue", "mcp__github__list", "mcp__slack__post"}
	tests := []struct {
		name string
		def  Definition
		opt  FilterOptions
		want []string
	}{
		{"all tools", Definition{}, FilterOptions{}, []string{"Bash", "Edit", "Glob", "Grep", "Read", "Skill", "Write", "mcp__github__get_issue", "mcp__github__list", "mcp__slack__post"}},
		{"star", Definition{Tools: []string{"*"}}, FilterOptions{AllowAgent: true}, []string{"Agent", "Bash", "Edit", "Glob", "Grep", "Read", "Skill", "Write", "mcp__github__get_issue", "mcp__github__list", "mcp__slack__post"}},
		{"listed, in parent order", Definition{Tools: []string{"Read", "Grep", "Bash(git diff:*)"}}, FilterOptions{}, []string{"Bash", "Grep", "Read"}},
		{"tool the parent lacks", Definition{Tools: []string{"Read", "WebFetch"}}, FilterOptions{}, []string{"Read"}},
		{"disallowed whole tools", Definition{DisallowedTools: []string{"Write", "Edit", "mcp__slack"}}, FilterOptions{}, []string{"Bash", "Glob", "Grep", "Read", "Skill", "mcp__github__get_issue", "mcp__github__list"}},
		{"deny rule keeps the tool", Definition{Tools: []string{"Bash"}, DisallowedTools: []string{"Bash(rm:*)"}}, FilterOptions{}, []string{"Bash"}},
		{"mcp server and prefix", Definition{Tools: []string{"mcp__github", "mcp__slack__*"}}, FilterOptions{}, []string{"mcp__github__get_issue", "mcp__github__list", "mcp__slack__post"}},
		{"Task means Agent", Definition{Tools: []string{"Task(worker)", "Read"}}, FilterOptions{AllowAgent: true}, []string{"Agent", "Read"}},
		{"Agent dropped without nesting", Definition{Tools: []string{"Agent", "Read"}}, FilterOptions{}, []string{"Read"}},
		{"main-only tools never pass", Definition{Tools: []string{"AskUserQuestion", "ExitPlanMode", "Read"}}, FilterOptions{AllowAgent: true}, []string{"Read"}},
		{"the SDK's structured output stays with the main conversation", Definition{}, FilterOptions{}, []string{"Bash", "Edit", "Glob", "Grep", "Read", "Skill", "Write", "mcp__github__get_issue", "mcp__github__list", "mcp__slack__post"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.def.FilterTools(parent, tt.opt)); diff != "" {
				t.Errorf("FilterTools (-want +got):\n%s", diff)
			}
		})
	}
	if got := (&Definition{}).FilterTools([]string{"Task", "Read"}, FilterOptions{AllowAgent: true}); !cmp.Equal(got, []string{"Task", "Read"}) {
		t.Errorf("a parent's Task tool keeps its name: %v", got)
	}
}

func TestToolsDescriptionRulesAndAgentTypes(t *testing.T) {
	tests := []struct {
		def   Definition
		desc  string
		allow []string
		deny  []string
		types []string
	}{
		{Definition{}, "All tools", nil, nil, nil},
		{Definition{DisallowedTools: []string{"Bash", "Agent", "Bash(rm:*)"}}, "All tools except Bash, Agent", nil, []string{"Bash(rm:*)"}, nil},
		{Definition{Tools: []string{"Read", "Grep", "Read", "Bash(git:*)"}}, "Read, Grep, Bash", []string{"Bash(git:*)"}, nil, nil},
		{Definition{Tools: []string{"Agent(worker, researcher)", "Read"}, DisallowedTools: []string{"Read"}}, "Agent", nil, nil, []string{"worker", "researcher"}},
		{Definition{Tools: []string{"Write"}, DisallowedTools: []string{"Write"}}, "None", nil, nil, nil},
	}
	for _, tt := range tests {
		if got := tt.def.ToolsDescription(); got != tt.desc {
			t.Errorf("ToolsDescription(%v - %v) = %q, want %q", tt.def.Tools, tt.def.DisallowedTools, got, tt.desc)
		}
		allow, deny := tt.def.Rules()
		if !cmp.Equal(allow, tt.allow) || !cmp.Equal(deny, tt.deny) {
			t.Errorf("Rules(%v, %v) = %v, %v; want %v, %v", tt.def.Tools, tt.def.DisallowedTools, allow, deny, tt.allow, tt.deny)
		}
		if got := tt.def.AgentTypes(); !cmp.Equal(got, tt.types) {
			t.Errorf("AgentTypes(%v) = %v, want %v", tt.def.Tools, got, tt.types)
		}
	}
}

func TestModelFor(t *testing.T) {
	resolve := func(s string) string { return map[string]string{"haiku": "claude-haiku-4-5"}[s] + "|" + s }
	tests := []struct{ model, want string }{
		{"", "parent-model"},
		{"inherit", "parent-model"},
		{"Inherit", "parent-model"},
		{"haiku", "claude-haiku-4-5|haiku"},
		{"claude-x", "|claude-x"},
	}
	for _, tt := range tests {
		if got := (&Definition{Model: tt.model}).ModelFor("parent-model", resolve); got != tt.want {
			t.Errorf("ModelFor(%q) = %q, want %q", tt.model, got, tt.want)
		}
	}
	if got := (&Definition{Model: "opus"}).ModelFor("p", nil); got != "opus" {
		t.Errorf("ModelFor without resolver = %q", got)
	}
}

func TestParseJSONAgents(t *testing.T) {
	defs, err := ParseJSON([]byte(`{
		"reviewer": {"description": "Reviews", "prompt": "Review.", "tools": ["Read", "Grep, Glob"], "model": "sonnet", "maxTurns": 3, "skills": "a, b"},
		"writer": {"description": "Writes", "prompt": "Write.", "tools": "Read, Write", "disallowedTools": ["Bash"], "permissionMode": "acceptEdits", "hooks": {"Stop": []}}
	}`), SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	want := []*Definition{
		{Name: "reviewer", Description: "Reviews", Prompt: "Review.", Tools: []string{"Read", "Grep", "Glob"}, Model: "sonnet", MaxTurns: 3, Skills: []string{"a", "b"}, Source: SourceFlag},
		{Name: "writer", Description: "Writes", Prompt: "Write.", Tools: []string{"Read", "Write"}, DisallowedTools: []string{"Bash"}, PermissionMode: "acceptEdits", Hooks: json.RawMessage(`{"Stop": []}`), Source: SourceFlag},
	}
	if diff := cmp.Diff(want, defs); diff != "" {
		t.Errorf("ParseJSON (-want +got):\n%s", diff)
	}
	bad := []struct{ in, want string }{
		{`[1]`, "agents JSON: want an object of agent names to definitions"},
		{`{"a": {"prompt": "p"}}`, `agents JSON: agent "a": description is required`},
		{`{"a": {"description": "d"}}`, `agents JSON: agent "a": prompt is required`},
		{`{"a": {"description": "d", "prompt": "p", "maxTurns": "x"}}`, `agents JSON: agent "a": field maxTurns: want int, got string`},
		{`{"a": {"description": "d", "prompt": "p", "tools": 3}}`, `agents JSON: agent "a": want a list of strings or a comma-separated string`},
		{`{"a": {"description": "d", "prompt": "p", "permissionMode": "yolo"}}`, `agents JSON: agent "a": permissionMode "yolo" is not one of`},
		{`{"": {"description": "d", "prompt": "p"}}`, "agents JSON: an agent has an empty name"},
	}
	for _, tt := range bad {
		if _, err := ParseJSON([]byte(tt.in), SourceSDK); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("ParseJSON(%s) error = %v, want prefix %q", tt.in, err, tt.want)
		}
	}
}

func TestCatalogPrecedenceIgnoresAddOrder(t *testing.T) {
	mk := func(src Source, desc string) *Definition {
		return &Definition{Name: "x", Description: desc, Source: src}
	}
	c := NewCatalog(mk(SourceManaged, "managed"), mk(SourceFlag, "flag"), mk(SourceProject, "project"), mk(SourceUser, "user"), mk(SourcePlugin, "plugin"), mk(SourceBuiltin, "built-in"))
	if d, _ := c.Lookup("x"); d.Description != "managed" {
		t.Errorf("winner = %s, want managed", d.Description)
	}
	c = NewCatalog(mk(SourceProject, "project"), mk(SourceUser, "user"), mk(SourceFlag, "flag"))
	if d, _ := c.Lookup("x"); d.Description != "flag" {
		t.Errorf("winner = %s, want flag", d.Description)
	}
	c = NewCatalog(mk(SourceProject, ".claude"), mk(SourceProject, ".reins"))
	if d, _ := c.Lookup("x"); d.Description != ".reins" {
		t.Errorf("winner = %s, want the later at the same level", d.Description)
	}
	if d, ok := NewCatalog(Builtin()...).Lookup("explore"); !ok || d.Name != "Explore" {
		t.Errorf("Lookup ignoring case failed")
	}
	if _, ok := c.Lookup("nope"); ok {
		t.Errorf("Lookup(nope) found something")
	}
}

func TestListingAndInfos(t *testing.T) {
	c := NewCatalog(
		&Definition{Name: "general-purpose", Description: "Does anything.", Source: SourceBuiltin},
		&Definition{Name: "Explore", Description: "Finds\nthings.", DisallowedTools: []string{"Edit"}, Model: "haiku", Source: SourceBuiltin},
		&Definition{Name: "reviewer", Description: "Reviews.", Tools: []string{"Read", "Grep"}, Source: SourceProject},
	)
	text, key := c.Listing(nil)
	want := "<system-reminder>\nAgent types you can start with the Agent tool (give the name as subagent_type):\n\n" +
		"- Explore: Finds things. (Tools: All tools except Edit)\n" +
		"- general-purpose: Does anything. (Tools: All tools)\n" +
		"- reviewer: Reviews. (Tools: Read, Grep)\n</system-reminder>"
	if text != want {
		t.Errorf("Listing:\n%s\nwant:\n%s", text, want)
	}
	text2, key2 := c.Listing(func(n string) bool { return n != "reviewer" })
	if strings.Contains(text2, "reviewer") || key2 == key || len(key2) != 16 {
		t.Errorf("filtered listing %q key %q (full key %q)", text2, key2, key)
	}
	if text, key := NewCatalog().Listing(nil); text != "" || key != "" {
		t.Errorf("empty listing = %q, %q", text, key)
	}
	b, _ := json.Marshal(c.Infos())
	if want := `[{"name":"Explore","description":"Finds\nthings.","model":"haiku"},{"name":"general-purpose","description":"Does anything."},{"name":"reviewer","description":"Reviews."}]`; string(b) != want {
		t.Errorf("Infos = %s", b)
	}
	if diff := cmp.Diff([]string{"Explore", "general-purpose", "reviewer"}, c.Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
}

func TestReminderIsSentOnceAndAgainOnChange(t *testing.T) {
	c := NewCatalog(Builtin()...)
	first := c.Reminder(nil, nil)
	if !strings.Contains(first, "- Explore: ") {
		t.Fatalf("first reminder = %q", first)
	}
	history := []*llm.Message{llm.NewUserText("hi"), llm.NewUserText(first)}
	if got := c.Reminder(history, nil); got != "" {
		t.Errorf("unchanged listing sent again")
	}
	c2 := c.With(&Definition{Name: "reviewer", Description: "Reviews.", Source: SourceProject})
	second := c2.Reminder(history, nil)
	if !strings.Contains(second, "- reviewer: Reviews.") {
		t.Fatalf("changed listing not sent: %q", second)
	}
	history = append(history, llm.NewUserText(second))
	if got := c.Reminder(history, nil); got != first {
		t.Errorf("back to the old catalog the listing must be re-sent")
	}
	if got := NewCatalog().Reminder(history, nil); got != "" {
		t.Errorf("empty catalog reminder = %q", got)
	}
}

// TestBuiltinsReadLikeAgentFiles: the built-in agents, read without the
// YAML parser, are what the agent-file reader makes of the same files.
func TestBuiltinsReadLikeAgentFiles(t *testing.T) {
	names, _ := fs.Glob(builtinFiles, "builtin/*.md")
	if len(names) == 0 {
		t.Fatal("no built-in agent files")
	}
	for _, n := range names {
		data, _ := builtinFiles.ReadFile(n)
		fast, err := builtinDefinition(data)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		full, problems, err := parseDefinition(data, "", SourceBuiltin)
		if err != nil || len(problems) > 0 {
			t.Fatalf("%s: %v %v", n, err, problems)
		}
		if diff := cmp.Diff(full, fast); diff != "" {
			t.Errorf("%s read two ways differs (-yaml +fast):\n%s", n, diff)
		}
	}
}
