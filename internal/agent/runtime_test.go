package agent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"reins/internal/task"
	"reins/internal/tool"
)

// fakeTool is a tool whose read-only answer is fixed.
type fakeTool struct {
	tool.Defaults
	name string
	ro   bool
}

func (f fakeTool) Name() string                           { return f.name }
func (f fakeTool) Description() string                    { return "" }
func (f fakeTool) InputSchema() json.RawMessage           { return json.RawMessage(`{"type":"object"}`) }
func (f fakeTool) IsReadOnly(json.RawMessage) bool        { return f.ro }
func (f fakeTool) IsConcurrencySafe(json.RawMessage) bool { return true }
func (f fakeTool) Call(context.Context, *tool.Call, json.RawMessage, func(tool.Progress)) (*tool.Result, error) {
	return tool.Text("ok"), nil
}

// recordingGate allows everything and counts the calls it saw.
type recordingGate struct{ before, after int }

func (g *recordingGate) Before(context.Context, *tool.Call, tool.Tool, json.RawMessage) tool.Verdict {
	g.before++
	return tool.Verdict{Allow: true}
}

func (g *recordingGate) After(context.Context, *tool.Call, tool.Tool, json.RawMessage, *tool.Result) {
	g.after++
}

func TestGateOnlyNarrows(t *testing.T) {
	cwd := t.TempDir()
	read := fakeTool{name: "Read", ro: true}
	write := fakeTool{name: "Write"}
	bash := fakeTool{name: "Bash"}
	cases := []struct {
		name   string
		def    Definition
		tool   tool.Tool
		input  string
		allow  bool
		reason string // a part of the refusal
	}{
		{"read-only agent runs a read-only call", Definition{Name: "Explore", ReadOnly: true}, read, `{"file_path":"/x"}`, true, ""},
		{"read-only agent refuses a write", Definition{Name: "Explore", ReadOnly: true}, write, `{"file_path":"/x","content":""}`, false, "The Explore agent is read-only"},
		{"no tools list passes everything to the parent gate", Definition{Name: "w"}, bash, `{"command":"rm -rf build"}`, true, ""},
		{"a specifier entry allows a matching command", Definition{Name: "git", Tools: []string{"Bash(git status:*)", "Read"}}, bash, `{"command":"git status --short"}`, true, ""},
		{"a specifier entry refuses another command", Definition{Name: "git", Tools: []string{"Bash(git status:*)", "Read"}}, bash, `{"command":"rm -rf build"}`, false, "may use Bash only as its definition lists (Bash(git status:*))"},
		{"a compound command must match as a whole", Definition{Name: "git", Tools: []string{"Bash(git status:*)"}}, bash, `{"command":"git status && rm -rf /"}`, false, "outside that"},
		{"a bare entry beside a specifier lifts the limit", Definition{Name: "git", Tools: []string{"Bash(git status:*)", "Bash"}}, bash, `{"command":"make"}`, true, ""},
		{"the old Task name limits nothing else", Definition{Name: "n", Tools: []string{"Task(worker)", "Read"}}, read, `{"file_path":"/x"}`, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inner := &recordingGate{}
			g, err := NewGate(inner, &c.def, cwd, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			v := g.Before(context.Background(), &tool.Call{ID: "t1"}, c.tool, json.RawMessage(c.input))
			if v.Allow != c.allow {
				t.Fatalf("Allow = %v (%s), want %v", v.Allow, v.Reason, c.allow)
			}
			if c.allow && inner.before != 1 {
				t.Errorf("the parent gate decided %d times, want 1", inner.before)
			}
			if !c.allow {
				if !v.Denied || !strings.Contains(v.Reason, c.reason) {
					t.Errorf("refusal = %+v, want Denied with %q", v, c.reason)
				}
				if inner.before != 0 {
					t.Error("a refused call still reached the parent gate")
				}
			}
		})
	}
}

func TestGateParentDenialStands(t *testing.T) {
	deny := denyGate{}
	g, err := NewGate(deny, &Definition{Name: "w", Tools: []string{"Bash(git:*)"}}, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	v := g.Before(context.Background(), &tool.Call{}, fakeTool{name: "Bash"}, json.RawMessage(`{"command":"git push"}`))
	if v.Allow || v.Reason != "parent says no" {
		t.Errorf("verdict = %+v, want the parent's denial", v)
	}
}

type denyGate struct{}

func (denyGate) Before(context.Context, *tool.Call, tool.Tool, json.RawMessage) tool.Verdict {
	return tool.Verdict{Denied: true, Reason: "parent says no"}
}
func (denyGate) After(context.Context, *tool.Call, tool.Tool, json.RawMessage, *tool.Result) {}

func TestGateReportsBadEntries(t *testing.T) {
	inner := &recordingGate{}
	g, err := NewGate(inner, &Definition{Name: "bad", Tools: []string{"Ba$h(ls)"}}, t.TempDir(), "")
	if err == nil || !strings.Contains(err.Error(), "agent bad") || !strings.Contains(err.Error(), "Ba$h") {
		t.Fatalf("error = %v, want one naming the agent and the entry", err)
	}
	// The unusable entry limits its tool to nothing.
	if v := g.Before(context.Background(), &tool.Call{}, fakeTool{name: "Ba$h"}, json.RawMessage(`{}`)); v.Allow || inner.before != 0 {
		t.Errorf("a call under an unusable entry was let through: %+v", v)
	}
}

func TestTaskRemindersAnnounceOnceWithTheAgentsAnswer(t *testing.T) {
	reg := &task.Registry{}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		reg.Close(ctx)
	}()
	agentTask, _ := reg.Start(task.Spec{ID: "a0000000000000001", Kind: task.KindAgent, Description: "survey the parser",
		Run: func(ctx context.Context, out io.Writer) (int, error) {
			io.WriteString(out, "The parser lives in internal/frontmatter.")
			return 0, nil
		}})
	shellTask, _ := reg.Start(task.Spec{Kind: task.KindShell, Command: "make", Run: func(ctx context.Context, out io.Writer) (int, error) {
		return 2, nil
	}})
	failed, _ := reg.Start(task.Spec{ID: "a0000000000000002", Kind: task.KindAgent, Description: "broken", Run: func(ctx context.Context, out io.Writer) (int, error) {
		return 0, errors.New("the model is not available")
	}})
	for _, tk := range []*task.Task{agentTask, shellTask, failed} {
		if err := tk.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	got := TaskReminders(reg)
	want := []string{
		"<task-notification>\n<task-id>a0000000000000001</task-id>\n<status>completed</status>\n" +
			"<summary>Agent \"survey the parser\" completed.</summary>\n<result>\nThe parser lives in internal/frontmatter.\n</result>\n</task-notification>",
		"", // the shell's, from task.Info.Notification
		"<task-notification>\n<task-id>a0000000000000002</task-id>\n<status>failed</status>\n" +
			"<summary>Agent \"broken\" failed: the model is not available.</summary>\nThe agent left no final message.\n</task-notification>",
	}
	if len(got) != 3 {
		t.Fatalf("got %d reminders: %q", len(got), got)
	}
	want[1] = shellTask.Info().Notification()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("reminder %d:\n%s\nwant:\n%s", i, got[i], want[i])
		}
	}
	if again := TaskReminders(reg); len(again) != 0 {
		t.Errorf("announced twice: %q", again)
	}
	if TaskReminders(nil) != nil {
		t.Error("a nil registry announced something")
	}
}

func TestNewIDIsHexWithPrefix(t *testing.T) {
	re := regexp.MustCompile(`^a[0-9a-f]{16}$`)
	seen := map[string]bool{}
	for range 100 {
		id := NewID()
		if !re.MatchString(id) {
			t.Fatalf("id %q has the wrong form", id)
		}
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
	}
}

func TestSystemPromptAddsTheSubagentNotes(t *testing.T) {
	d := &Definition{Prompt: "  You review code.\n"}
	got := d.SystemPrompt()
	if !strings.HasPrefix(got, "You review code.\n\nWorking as a sub-agent:") {
		t.Errorf("prompt = %q", got)
	}
	if !strings.Contains((&Definition{}).SystemPrompt(), "only your last message") {
		t.Error("an empty definition prompt lost the notes")
	}
}
