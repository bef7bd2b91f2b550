package command

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fakeRunner answers known commands with canned output and records what
// it ran.
type fakeRunner struct {
	mu      sync.Mutex
	answers map[string]RunResult
	ran     []string
}

func (f *fakeRunner) Run(ctx context.Context, dir, command string) (RunResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ran = append(f.ran, command)
	r, ok := f.answers[command]
	if !ok {
		return RunResult{}, fmt.Errorf("fake runner: unexpected command %q", command)
	}
	return r, nil
}

// fixture loads the testdata project and home as a session would.
func fixture(t *testing.T) (*Registry, *Expander, *fakeRunner, string) {
	t.Helper()
	project, err := filepath.Abs("testdata/project")
	if err != nil {
		t.Fatal(err)
	}
	home, _ := filepath.Abs("testdata/home")
	cmds, errs := Load(Roots{
		User:    []string{filepath.Join(home, ".claude")},
		Project: []string{filepath.Join(project, ".claude"), filepath.Join(project, ".reins")},
	})
	for _, err := range errs {
		t.Errorf("Load: %v", err)
	}
	run := &fakeRunner{answers: map[string]RunResult{
		"git status":      {Stdout: "On branch main\nnothing to commit, working tree clean\n"},
		"git diff --stat": {Stdout: " src/main.go | 2 +-\n 1 file changed\n", Stderr: "warning: LF will be replaced by CRLF\n"},
	}}
	e := &Expander{Dir: project, Home: home, Runner: run}
	return NewRegistry(cmds...), e, run, project
}

func TestFixtureExpansionsMatchGoldenFiles(t *testing.T) {
	tests := []struct {
		input  string
		golden string
		ran    []string
	}{
		{"/review error handling", "review", []string{"git status", "git diff --stat"}},
		{`/fix-issue 42 high "it crashes on start" extra`, "fix-issue", nil},
		{"/plain some extra words", "plain", nil},
		{"/frontend:component Button", "component", nil},
		{"/deploy staging", "deploy", []string{"git status"}},
		{`/crlf 'one two' three`, "crlf", nil},
		{"/greet world", "greet", nil},
		{"/pdf-tools report.pdf", "pdf-tools", nil},
		{"/mine", "mine", nil},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			reg, e, run, project := fixture(t)
			out, err := reg.Dispatch(context.Background(), tt.input, DispatchOptions{Mode: Print, Expander: e})
			if err != nil {
				t.Fatalf("Dispatch: %v", err)
			}
			if out.Action != Query {
				t.Fatalf("Action = %v (%s), want Query", out.Action, out.Text)
			}
			got := "Header:\n" + out.Expansion.Header + "\n\nPrompt:\n" + out.Expansion.Prompt + "\n"
			got = strings.ReplaceAll(got, project, "$PROJECT")
			path := filepath.Join("testdata", "golden", tt.golden+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("expansion of %q differs from %s (-want +got):\n%s", tt.input, path, diff)
			}
			if diff := cmp.Diff(tt.ran, run.ran); diff != "" {
				t.Errorf("commands run (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFixtureLoadsCommandsWithPrecedence(t *testing.T) {
	reg, _, _, project := fixture(t)
	type row struct {
		Name, Source, Description, Hint, Model string
		Skill, NoModel, ModelOnly              bool
		Tools                                  []string
	}
	var got []row
	for _, c := range reg.All() {
		got = append(got, row{c.Name, string(c.Source), c.Description, c.ArgumentHint, c.Model, c.Skill, c.DisableModelInvocation, c.ModelOnly, c.AllowedTools})
	}
	want := []row{
		{Name: "crlf", Source: "project", Description: "Windows-edited command: with a colon", Hint: "[a] [b]"},
		{Name: "deploy", Source: "project", Description: "Deploy the current branch", NoModel: true, Tools: []string{"Bash(git status)"}},
		{Name: "fix-issue", Source: "project", Description: "Fix a numbered issue", Hint: "[issue-number] [priority]"},
		{Name: "frontend:component", Source: "project", Description: "Create a UI component", Hint: "<Name>"},
		{Name: "greet", Source: "project", Description: "Greet someone"},
		{Name: "helper", Source: "user", Description: "A helper only the model uses", Skill: true, ModelOnly: true},
		{Name: "mine", Source: "user", Description: "A user-level command"},
		{Name: "pdf-tools", Source: "project", Description: "Extract text and tables from PDF files", Hint: "<file.pdf>", Skill: true, Tools: []string{"Read", "Bash(python3 scripts/extract.py:*)"}},
		{Name: "plain", Source: "project", Description: "Explain the code"},
		{Name: "review", Source: "project", Description: "Review the working tree changes, focusing on what you name", Hint: "[focus]", Model: "sonnet", Tools: []string{"Bash(git diff:*)", "Bash(git status)", "Read"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loaded commands (-want +got):\n%s", diff)
	}
	pdf, _ := reg.Lookup("pdf-tools")
	if pdf.Dir != filepath.Join(project, ".claude", "skills", "pdf-tools") || pdf.WhenToUse != "When the user asks about the contents of a PDF" {
		t.Errorf("pdf-tools Dir = %q, WhenToUse = %q", pdf.Dir, pdf.WhenToUse)
	}
}

func TestLoadReportsBrokenFilesAndKeepsGoodOnes(t *testing.T) {
	cmds, errs := Load(Roots{Project: []string{"testdata/broken/.claude"}})
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	if diff := cmp.Diff([]string{"badbool", "unclosed"}, names); diff != "" {
		t.Errorf("loaded (-want +got):\n%s", diff)
	}
	var msgs []string
	for _, err := range errs {
		msgs = append(msgs, err.Error())
	}
	want := []string{
		`load testdata/broken/.claude/commands/bad name.md: "bad name" cannot be typed as a command name (use letters, digits, '-', '_')`,
		`load testdata/broken/.claude/commands/badbool.md: line 3: disable-model-invocation: want true or false, got "maybe" (ignored)`,
		`load testdata/broken/.claude/commands/unclosed.md: line 1: frontmatter opened with --- on line 1 is never closed (expected a line holding only ---); the frontmatter is ignored, and only typing /unclosed runs it`,
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}
