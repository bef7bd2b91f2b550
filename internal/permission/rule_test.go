package permission

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"reins/internal/settings"
	"reins/internal/shell"
)

func TestParseRule(t *testing.T) {
	tests := []struct {
		in, tool, content, err string
	}{
		{"Bash", "Bash", "", ""},
		{"Bash()", "Bash", "", ""},
		{"Bash(*)", "Bash", "", ""},
		{"  Bash(npm install)  ", "Bash", "npm install", ""},
		{"Bash(npm run test:*)", "Bash", "npm run test:*", ""},
		{`Bash(python -c "print\(1\)")`, "Bash", `python -c "print(1)"`, ""},
		{`Bash(python -c "print(1)")`, "Bash", `python -c "print(1)"`, ""},
		{"Read(./.env)", "Read", "./.env", ""},
		{"WebFetch(domain:example.com)", "WebFetch", "domain:example.com", ""},
		{"mcp__github", "mcp__github", "", ""},
		{"mcp__github__*", "mcp__github__*", "", ""},
		{"Task(explorer)", "Agent", "explorer", ""},
		{"Agent(explorer)", "Agent", "explorer", ""},
		{"", "", "", "empty"},
		{"Bash(ls", "", "", "missing closing parenthesis"},
		{`Bash(ls\)`, "", "", "missing closing parenthesis"},
		{"(ls)", "", "", "no tool name"},
		{"Ba sh", "", "", "character ' '"},
		{"Bash$(x)", "", "", "character '$'"},
	}
	for _, tt := range tests {
		tool, content, err := ParseRule(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseRule(%q) err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || tool != tt.tool || content != tt.content {
			t.Errorf("ParseRule(%q) = %q, %q, %v; want %q, %q", tt.in, tool, content, err, tt.tool, tt.content)
		}
	}
}

func TestBashMatch(t *testing.T) {
	tests := []struct {
		rule, cmd string
		want      bool
	}{
		{"npm test", "npm test", true},
		{"npm test", "npm test2", false},
		{"npm test", "npm  test", false},
		{"git:*", "git", true},
		{"git:*", "git status", true},
		{"git:*", "gitk", false},
		{"git log *", "git log", true},
		{"git log *", "git log -p", true},
		{"git log *", "git logx", false},
		{"ls *", "lsof", false},
		{"ls*", "lsof", true},
		{"* --version", "node --version", true},
		{"echo \\*", "echo *", true},
		{"echo \\*", "echo x", false},
		{"a.b", "axb", false},
		{"git commit -m *", "git commit -m \"multi\nline\"", true},
	}
	for _, tt := range tests {
		if got := bashMatch(tt.rule, tt.cmd); got != tt.want {
			t.Errorf("bashMatch(%q, %q) = %v, want %v", tt.rule, tt.cmd, got, tt.want)
		}
	}
}

func TestSplitToolList(t *testing.T) {
	got := SplitToolList(`Bash(git log:*),Read Edit`, `Bash(git commit -m "a, b")`, "  ", "mcp__x,,WebFetch(domain:a.com)")
	want := []string{"Bash(git log:*)", "Read", "Edit", `Bash(git commit -m "a, b")`, "mcp__x", "WebFetch(domain:a.com)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SplitToolList = %q, want %q", got, want)
	}
}

func TestFormatRuleRoundTrips(t *testing.T) {
	for _, c := range []string{"", "npm test", `python -c "print(1)"`, "a(b)c"} {
		tool, content, err := ParseRule(FormatRule("Bash", c))
		if err != nil || tool != "Bash" || content != c {
			t.Errorf("round trip of %q gave %q %q %v", c, tool, content, err)
		}
	}
}

func TestModes(t *testing.T) {
	for _, m := range Modes {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%s) = %s, %v", m, got, err)
		}
	}
	if got, err := ParseMode("manual"); err != nil || got != ModeDefault {
		t.Errorf("ParseMode(manual) = %s, %v; want default", got, err)
	}
	if _, err := ParseMode("Auto"); err == nil {
		t.Error("modes are case-sensitive")
	}
	cycle := []Mode{ModeDefault}
	for range 5 {
		cycle = append(cycle, cycle[len(cycle)-1].Next(true, true))
	}
	if want := []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeAuto, ModeBypass, ModeDefault}; !reflect.DeepEqual(cycle, want) {
		t.Errorf("cycle = %v", cycle)
	}
	if ModePlan.Next(false, false) != ModeDefault {
		t.Error("without bypass and auto, plan cycles to default")
	}
	if ModePlan.Next(true, false) != ModeBypass {
		t.Error("without auto, plan cycles to bypass")
	}
}

func TestNewPolicy(t *testing.T) {
	dir := t.TempDir()
	s := &settings.Settings{
		Rules: []settings.Rule{
			{Behavior: Allow, Text: "Bash(npm test)", Source: settings.SourceUser, File: "u.json"},
			{Behavior: Deny, Text: "Bash(ls", Source: settings.SourceProject, File: "p.json"},
			{Behavior: Deny, Text: "WebFetch(example.com)", Source: settings.SourceProject, File: "p.json"},
		},
		DefaultMode:           "acceptEdits",
		AdditionalDirectories: []settings.Dir{{Path: filepath.Join(dir, "extra")}},
	}
	p, warns, err := NewPolicy(Config{Settings: s, Cwd: dir, AllowedTools: []string{"Read,Bash(git:*)"}, DisallowedTools: []string{"WebSearch"}, AddDirs: []string{"../other"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Mode != ModeAcceptEdits {
		t.Errorf("mode = %s, want the settings' acceptEdits", p.Mode)
	}
	if len(warns) != 2 || warns[0].File != "p.json" || !strings.Contains(warns[0].Message, "closing parenthesis") || !strings.Contains(warns[1].Message, "domain:") {
		t.Errorf("warnings = %v", warns)
	}
	var texts []string
	for _, r := range p.Rules {
		texts = append(texts, string(r.Behavior)+" "+r.String()+" "+string(r.Source))
	}
	want := []string{"allow Bash(npm test) userSettings", "deny WebFetch(example.com) projectSettings", "deny WebSearch cliArg", "allow Read cliArg", "allow Bash(git:*) cliArg"}
	if !reflect.DeepEqual(texts, want) {
		t.Errorf("rules = %q, want %q", texts, want)
	}
	for _, d := range []string{dir, filepath.Join(filepath.Dir(dir), "other"), filepath.Join(dir, "extra")} {
		if !p.inWorkDirs(filepath.Join(d, "x")) {
			t.Errorf("%s should be a working folder (%v)", d, p.WorkDirs)
		}
	}

	if _, _, err := NewPolicy(Config{Cwd: dir, Mode: "yolo"}); err == nil {
		t.Error("an unknown mode should fail")
	}
	off := &settings.Settings{DisableBypassPermissions: true, DefaultMode: "bypassPermissions"}
	if _, _, err := NewPolicy(Config{Settings: off, Cwd: dir, SkipPermissions: true}); err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("--dangerously-skip-permissions under a disabling policy: err = %v", err)
	}
	p, warns, err = NewPolicy(Config{Settings: off, Cwd: dir})
	if err != nil || p.Mode != ModeDefault || len(warns) != 1 {
		t.Errorf("a disabled defaultMode bypass should fall back to default with a warning: %v %v %v", p, warns, err)
	}
	managed := &settings.Settings{ManagedRulesOnly: true}
	p, _, _ = NewPolicy(Config{Settings: managed, Cwd: dir, AllowedTools: []string{"Bash"}})
	if d := Decide(p, NewRequest("Bash", json.RawMessage(`{"command":"curl x"}`), false, dir, "")); d.Behavior != Ask {
		t.Errorf("with managed rules only, a CLI allow must not apply: %s", d.Reason)
	}
}

func TestFilterToolsHidesDeniedTools(t *testing.T) {
	s := &settings.Settings{Rules: []settings.Rule{
		{Behavior: Deny, Text: "Bash"}, {Behavior: Deny, Text: "mcp__github"}, {Behavior: Deny, Text: "Edit"},
		{Behavior: Deny, Text: "Read(./.env)"}, {Behavior: Deny, Text: "Task"},
	}}
	p, _, err := NewPolicy(Config{Settings: s, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got := FilterTools(p, []string{"Bash", "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "mcp__github__x", "mcp__gitlab__x", "Agent", "Grep"})
	if want := []string{"Read", "mcp__gitlab__x", "Grep"}; !reflect.DeepEqual(got, want) {
		t.Errorf("FilterTools = %v, want %v", got, want)
	}
}

func TestCheckerApplyAndPersist(t *testing.T) {
	proj := t.TempDir()
	user := t.TempDir()
	p, _, err := NewPolicy(Config{Cwd: proj})
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(p, CheckerConfig{ProjectDir: proj, UserDir: user})
	in := json.RawMessage(`{"command":"npm install"}`)
	if d := c.Check("Bash", in, false); d.Behavior != Ask {
		t.Fatalf("before: %s", d.Behavior)
	}
	if len(c.Check("Bash", in, false).Suggestions) == 0 {
		t.Error("an ask should come with suggestions")
	}
	if err := c.Apply([]Update{{Type: UpdateAddRules, Rules: []string{"Bash(npm install)"}, Behavior: Allow, Destination: DestSession}}); err != nil {
		t.Fatal(err)
	}
	if d := c.Check("Bash", in, false); d.Behavior != Allow || d.Rule.Source != settings.SourceSession {
		t.Errorf("after a session rule: %s %+v", d.Behavior, d.Rule)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "settings.local.json")); !os.IsNotExist(err) {
		t.Error("a session rule must not be written down")
	}
	err = c.Apply([]Update{{Type: UpdateAddRules, Rules: []string{"Bash(make:*)"}, Behavior: Allow, Destination: DestLocal},
		{Type: UpdateAddRules, Rules: []string{"WebSearch"}, Behavior: Deny, Destination: DestUser}})
	if err != nil {
		t.Fatal(err)
	}
	local, _ := os.ReadFile(filepath.Join(proj, ".claude", "settings.local.json"))
	if !strings.Contains(string(local), `"Bash(make:*)"`) {
		t.Errorf("settings.local.json = %s", local)
	}
	userFile, _ := os.ReadFile(filepath.Join(user, "settings.json"))
	if !strings.Contains(string(userFile), `"deny"`) {
		t.Errorf("user settings = %s", userFile)
	}
	if d := c.Check("Bash", json.RawMessage(`{"command":"make all"}`), false); d.Behavior != Allow {
		t.Errorf("persisted rule should apply at once: %s", d.Reason)
	}
	if err := c.Apply([]Update{{Type: UpdateSetMode, Mode: ModeAcceptEdits, Destination: DestSession}}); err != nil || c.Mode() != ModeAcceptEdits {
		t.Errorf("setMode: %v %s", err, c.Mode())
	}
	outside := t.TempDir()
	edit := json.RawMessage(`{"file_path":"` + filepath.Join(outside, "f") + `"}`)
	if d := c.Check("Edit", edit, false); d.Behavior != Ask || d.Suggestions[0].Type != UpdateAddDirectories {
		t.Errorf("edit outside: %s %+v", d.Behavior, d.Suggestions)
	}
	if err := c.Apply([]Update{{Type: UpdateAddDirectories, Directories: []string{outside}, Destination: DestSession}}); err != nil {
		t.Fatal(err)
	}
	if d := c.Check("Edit", edit, false); d.Behavior != Allow {
		t.Errorf("after adding the folder: %s", d.Reason)
	}
	if err := c.Apply([]Update{{Type: "bogus"}}); err == nil {
		t.Error("an unknown update type should fail")
	}
	if err := c.Apply([]Update{{Type: UpdateAddRules, Rules: []string{"Bash("}, Behavior: Allow}}); err == nil {
		t.Error("a bad rule should fail")
	}
}

func TestCheckerRefusesBypassWhenDisabled(t *testing.T) {
	p, _, err := NewPolicy(Config{Cwd: t.TempDir(), Settings: &settings.Settings{DisableBypassPermissions: true}})
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(p, CheckerConfig{})
	if err := c.SetMode(ModeBypass); err == nil || c.Mode() != ModeDefault {
		t.Errorf("SetMode(bypass) = %v, mode %s", err, c.Mode())
	}
}

func TestCheckerIsSafeForConcurrentUse(t *testing.T) {
	p, _, _ := NewPolicy(Config{Cwd: t.TempDir()})
	c := NewChecker(p, CheckerConfig{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				_ = c.Apply([]Update{{Type: UpdateAddRules, Rules: []string{FormatRule("Bash", "cmd"+string(rune('a'+i))+string(rune('a'+j%26)))}, Behavior: Allow, Destination: DestSession}})
				c.Check("Bash", json.RawMessage(`{"command":"cmdaa"}`), false)
			}
		})
	}
	wg.Wait()
	if d := c.Check("Bash", json.RawMessage(`{"command":"cmdaa"}`), false); d.Behavior != Allow {
		t.Errorf("after concurrent updates: %s", d.Reason)
	}
	clone := c.Clone()
	_ = clone.SetMode(ModePlan)
	if c.Mode() == ModePlan {
		t.Error("a clone's mode change reached the original")
	}
}

// FuzzParseRule checks that the rule parser never panics, and that a
// parsed rule formats back to a rule that parses to the same thing.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"Bash", "Bash(npm test:*)", `Bash(python -c "print\(1\)")`, "Read(//etc/**)", "mcp__a__*", "Task(x)", "(", ")", `\(`, "Bash(()", "Bash(a\\)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tool, content, err := ParseRule(s)
		if err != nil {
			return
		}
		if tool == "" {
			t.Fatalf("ParseRule(%q) gave an empty tool", s)
		}
		t2, c2, err := ParseRule(FormatRule(tool, content))
		if err != nil || t2 != tool || c2 != strings.TrimSpace(content) {
			t.Fatalf("round trip of %q: %q %q -> %q %q %v", s, tool, content, t2, c2, err)
		}
		_ = SplitToolList(s)
	})
}

// FuzzDecideBash runs arbitrary command lines through the Bash decision
// and checks its safety properties: no panic; with no allow rule, an
// allowed command is one the shell package calls read-only, possibly
// after cd; and with a deny rule for rm, no command that runs rm is
// allowed.
func FuzzDecideBash(f *testing.F) {
	for _, s := range []string{"ls", "git status; rm -rf x", "echo $(rm x)", "bash -c 'rm x'", "xargs rm", "find . -exec rm {} \\;",
		"cd src && ls", "cat < /etc/passwd", "a=1; $a", "sudo rm -rf /", "timeout 5 /bin/rm x", "r\\m x", "echo x > .git/config"} {
		f.Add(s)
	}
	dir := f.TempDir()
	plain, _, _ := NewPolicy(Config{Cwd: dir, Home: dir})
	denyRm, _, _ := NewPolicy(Config{Cwd: dir, Home: dir, DisallowedTools: []string{"Bash(rm:*)"}})
	f.Fuzz(func(t *testing.T, cmd string) {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		r := NewRequest("Bash", in, false, dir, dir)
		r.Resolve(dir, dir)
		d := Decide(plain, r)
		if d.Reason == "" {
			t.Fatalf("no reason for %q", cmd)
		}
		s, err := shell.Parse(cmd)
		if d.Behavior == Allow {
			if err != nil {
				t.Fatalf("allowed an unparsable command %q", cmd)
			}
			if s.Features.Dynamic() {
				t.Fatalf("allowed a dynamic command %q", cmd)
			}
			for _, c := range s.Commands {
				if ok, _ := c.ReadOnly(); !ok && c.Payload == "" && !bareAssignment(c) && c.Program != "cd" && c.Program != "pushd" && c.Program != "popd" {
					t.Fatalf("allowed %q although %q is not read-only", cmd, c.Text)
				}
			}
		}
		if err == nil && Decide(denyRm, r).Behavior == Allow {
			for _, c := range s.Commands {
				if c.Name() == "rm" {
					t.Fatalf("allowed %q, which runs rm, under deny Bash(rm:*)", cmd)
				}
				for _, run := range c.Runs() {
					if len(run.Args) > 0 && run.Args[0] == "rm" {
						t.Fatalf("allowed %q, which runs rm through %s", cmd, run.Via)
					}
				}
			}
		}
	})
}

func TestCheckInResolvesFromTheShellsFolder(t *testing.T) {
	root := t.TempDir()
	proj, other := filepath.Join(root, "proj"), filepath.Join(root, "other")
	for _, d := range []string{proj, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, _, _ := NewPolicy(Config{Cwd: proj, Home: root, DisallowedTools: []string{"Edit(./build/**)"}})
	c := NewChecker(p, CheckerConfig{})
	in := json.RawMessage(`{"command": "cat notes.txt"}`)
	if d := c.Check("Bash", in, true); d.Behavior != Allow {
		t.Errorf("from the project: %s", d.Reason)
	}
	if d := c.CheckIn(other, "Bash", in, true); d.Behavior != Ask || !strings.Contains(d.Reason, other) {
		t.Errorf("from a shell that cd'd out: %s %s", d.Behavior, d.Reason)
	}
	w := json.RawMessage(`{"command": "echo x > ../proj/build/out"}`)
	if d := c.CheckIn(other, "Bash", w, false); d.Behavior != Deny {
		t.Errorf("a rule path reached through the shell's folder: %s %s", d.Behavior, d.Reason)
	}
}

func TestNarrowNeverWidens(t *testing.T) {
	tests := []struct{ parent, req, want Mode }{
		{ModeDefault, ModeBypass, ModeDefault},
		{ModeDefault, ModeAcceptEdits, ModeDefault},
		{ModeAcceptEdits, ModeDefault, ModeDefault},
		{ModeAcceptEdits, ModeBypass, ModeAcceptEdits},
		{ModeBypass, ModeAcceptEdits, ModeAcceptEdits},
		{ModeBypass, "", ModeBypass},
		{ModeDefault, ModePlan, ModePlan},
		{ModePlan, ModeBypass, ModePlan},
		{ModeDontAsk, ModeAcceptEdits, ModeDontAsk},
		{ModeDefault, ModeDontAsk, ModeDontAsk},
	}
	for _, tt := range tests {
		if got := Narrow(tt.parent, tt.req); got != tt.want {
			t.Errorf("Narrow(%s, %s) = %s, want %s", tt.parent, tt.req, got, tt.want)
		}
	}
}

func TestBashSuggestionKeepsSubcommandsButNotFileNames(t *testing.T) {
	proj := t.TempDir()
	p, _, err := NewPolicy(Config{Cwd: proj})
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(p, CheckerConfig{ProjectDir: proj, UserDir: t.TempDir()})
	for cmd, want := range map[string]string{
		"npm install left-pad": "Bash(npm install *)",
		"git push --force":     "Bash(git push *)",
		"touch a.txt":          "Bash(touch *)",
		"rm ./notes":           "Bash(rm *)",
		"cp ~/x y":             "Bash(cp *)",
		"make -j4":             "Bash(make *)",
	} {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		d := c.Check("Bash", in, false)
		var got []string
		for _, u := range d.Suggestions {
			got = append(got, u.Rules...)
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q: suggested %v, want [%s]", cmd, got, want)
		}
	}
}
