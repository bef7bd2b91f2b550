package command

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTellsCommandsFromPrompts(t *testing.T) {
	tests := []struct {
		in   string
		want Invocation
		ok   bool
	}{
		{"/help", Invocation{Name: "help"}, true},
		{"/review  src/ and tests \n", Invocation{Name: "review", Args: "src/ and tests"}, true},
		{"/review\nfocus on errors", Invocation{Name: "review", Args: "focus on errors"}, true},
		{"/frontend:component Button", Invocation{Name: "frontend:component", Args: "Button"}, true},
		{"/usr/bin/x foo", Invocation{}, false},
		{"/", Invocation{}, false},
		{"//comment", Invocation{}, false},
		{"/a.b", Invocation{}, false},
		{" /help", Invocation{}, false},
		{"help", Invocation{}, false},
		{"/ünïcode", Invocation{}, false},
	}
	for _, tt := range tests {
		got, ok := Parse(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func testRegistry() *Registry {
	return NewRegistry(
		&Command{Name: "clear", Aliases: []string{"reset", "new"}, Description: "Clear the conversation", Kind: Local, Source: SourceBuiltin,
			Run: func(context.Context, string) (string, error) { return "cleared", nil }},
		&Command{Name: "permissions", Description: "View and edit permission rules", Kind: UI, Source: SourceBuiltin},
		&Command{Name: "theme", Description: "Pick a theme", Kind: UI, Source: SourceBuiltin,
			Run: func(_ context.Context, args string) (string, error) { return "theme " + args, nil }},
		&Command{Name: "cost", Description: "Show the session cost", Kind: Local, Source: SourceBuiltin,
			Run: func(context.Context, string) (string, error) { return "", errors.New("no usage yet") }},
		&Command{Name: "init", Description: "Write a memory file", Kind: Prompt, Source: SourceBuiltin,
			Prompt: func(_ context.Context, args string) (string, error) { return "Write CLAUDE.md. " + args, nil }},
		&Command{Name: "code-review", Aliases: []string{"review"}, Description: "Review code", Kind: Prompt, Source: SourceBundled, Body: "Review $ARGUMENTS"},
		&Command{Name: "secret", Description: "Model only", Kind: Prompt, Source: SourceUser, ModelOnly: true, Body: "x"},
	)
}

func TestDispatchDecidesWhatToDo(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		mode   Mode
		isPath bool
		action Action
		text   string
		isErr  bool
		prompt string
	}{
		{"plain text", "hello there", Interactive, false, NotCommand, "", false, ""},
		{"path-like", "/usr/bin/x foo", Print, false, NotCommand, "", false, ""},
		{"unknown", "/nope arg", Print, false, Show, "Unknown command: /nope", true, ""},
		{"unknown but an existing path", "/tmp", Print, true, NotCommand, "", false, ""},
		{"local", "/clear", Print, false, Show, "cleared", false, ""},
		{"local by alias", "/reset", SDK, false, Show, "cleared", false, ""},
		{"local by other case", "/CLEAR", Interactive, false, Show, "cleared", false, ""},
		{"local failing", "/cost", Interactive, false, Show, "/cost: no usage yet", true, ""},
		{"ui in print mode", "/permissions", Print, false, Show, "/permissions isn't available in this mode", true, ""},
		{"ui in sdk mode", "/theme dark", SDK, false, Show, "/theme isn't available in this mode", true, ""},
		{"ui without Run in the terminal", "/permissions", Interactive, false, OpenUI, "", false, ""},
		{"ui with Run in the terminal", "/theme dark", Interactive, false, Show, "theme dark", false, ""},
		{"builtin prompt", "/init be brief", Print, false, Query, "", false, "Write CLAUDE.md. be brief"},
		{"prompt by alias", "/review main.go", Print, false, Query, "", false, "Review main.go"},
		{"model-only", "/secret", Interactive, false, Show, "/secret can only be used by the model", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := DispatchOptions{Mode: tt.mode, IsPath: func(string) bool { return tt.isPath }}
			out, err := testRegistry().Dispatch(context.Background(), tt.input, opt)
			if err != nil {
				t.Fatalf("Dispatch: %v", err)
			}
			if out.Action != tt.action || out.Text != tt.text || out.IsError != tt.isErr {
				t.Errorf("got action %v text %q err %v; want %v %q %v", out.Action, out.Text, out.IsError, tt.action, tt.text, tt.isErr)
			}
			if tt.prompt != "" && (out.Expansion == nil || out.Expansion.Prompt != tt.prompt) {
				t.Errorf("expansion = %+v, want prompt %q", out.Expansion, tt.prompt)
			}
		})
	}
}

func TestDispatchReturnsCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := NewRegistry(&Command{Name: "slow", Kind: Local, Run: func(ctx context.Context, _ string) (string, error) { return "", ctx.Err() }})
	if _, err := r.Dispatch(ctx, "/slow", DispatchOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Dispatch error = %v, want context.Canceled", err)
	}
}

func TestAddReplacesInPlaceAndRemoveDrops(t *testing.T) {
	r := testRegistry()
	r.Add(&Command{Name: "clear", Description: "custom clear", Kind: Prompt, Source: SourceProject, Body: "x"})
	c, _ := r.Lookup("clear")
	if c.Source != SourceProject {
		t.Errorf("clear source = %s, want project (custom overrides builtin)", c.Source)
	}
	if _, ok := r.Lookup("reset"); ok {
		t.Errorf("alias of the replaced builtin still resolves")
	}
	if got := r.Names()[0]; got != "clear" {
		t.Errorf("first name = %q, want clear kept in place", got)
	}
	snap := r.Snapshot()
	if n := r.Remove(func(c *Command) bool { return c.Kind == UI }); n != 2 {
		t.Errorf("Remove = %d, want 2", n)
	}
	if _, ok := snap.Lookup("permissions"); !ok {
		t.Errorf("snapshot lost a command removed later")
	}
}

func TestNamesListsForTheSDK(t *testing.T) {
	r := testRegistry()
	if diff := cmp.Diff([]string{"clear", "permissions", "theme", "cost", "init", "code-review"}, r.Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"permissions", "theme"}, r.TerminalOnly()); diff != "" {
		t.Errorf("TerminalOnly (-want +got):\n%s", diff)
	}
	var model []string
	for _, c := range r.ModelInvocable() {
		model = append(model, c.Name)
	}
	if diff := cmp.Diff([]string{"code-review", "secret"}, model); diff != "" {
		t.Errorf("ModelInvocable (-want +got):\n%s", diff)
	}
	b, err := json.Marshal(r.Infos()[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"clear","description":"Clear the conversation","argumentHint":"","aliases":["reset","new"],"builtin":true}`; string(b) != want {
		t.Errorf("Info JSON = %s, want %s", b, want)
	}
}

func TestCompleteRanksPrefixThenAliasThenSubstring(t *testing.T) {
	r := testRegistry()
	r.Add(&Command{Name: "frontend:component", Kind: Prompt, Source: SourceProject, Description: "Make a component"})
	tests := []struct {
		prefix string
		want   []string
	}{
		{"/c", []string{"clear", "code-review", "cost", "frontend:component"}},
		{"re", []string{"clear", "code-review"}},
		{"comp", []string{"frontend:component"}},
		{"/PER", []string{"permissions"}},
		{"zzz", nil},
		{"", []string{"clear", "code-review", "cost", "frontend:component", "init", "permissions", "theme"}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range r.Complete(tt.prefix) {
			got = append(got, c.Command.Name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Complete(%q) (-want +got):\n%s", tt.prefix, diff)
		}
	}
	if c := r.Complete("new"); len(c) != 1 || c[0].Alias != "new" {
		t.Errorf("Complete(new) = %+v, want clear by alias new", c)
	}
}

func TestDisplayDescriptionNamesTheSource(t *testing.T) {
	tests := []struct {
		c    Command
		want string
	}{
		{Command{Description: "Clear", Source: SourceBuiltin}, "Clear"},
		{Command{Description: "Review", Source: SourceProject}, "Review (project)"},
		{Command{Source: SourceUser}, "(user)"},
		{Command{Description: "Prompt", Source: SourceMCP}, "Prompt (mcp)"},
	}
	for _, tt := range tests {
		if got := tt.c.DisplayDescription(); got != tt.want {
			t.Errorf("DisplayDescription = %q, want %q", got, tt.want)
		}
	}
}
