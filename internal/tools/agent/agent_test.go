package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	agentdef "reins/internal/agent"
	"reins/internal/llm"
	"reins/internal/task"
	"reins/internal/tool"
)

// fakeSpawner records what it was asked to start; each conversation runs
// the spawner's script.
type fakeSpawner struct {
	run      func(ctx context.Context, spec agentdef.Spec, emit func(any)) (*agentdef.Result, error)
	spawnErr error

	mu     sync.Mutex
	specs  []agentdef.Spec
	closed map[string]int // by agent id
}

func (f *fakeSpawner) Spawn(ctx context.Context, spec agentdef.Spec) (agentdef.Conversation, error) {
	if f.spawnErr != nil {
		return nil, f.spawnErr
	}
	f.mu.Lock()
	f.specs = append(f.specs, spec)
	f.mu.Unlock()
	return &fakeConv{f: f, spec: spec}, nil
}

func (f *fakeSpawner) closes(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed[id]
}

type fakeConv struct {
	f    *fakeSpawner
	spec agentdef.Spec
}

func (c *fakeConv) Run(ctx context.Context, emit func(any)) (*agentdef.Result, error) {
	if c.f.run == nil {
		return &agentdef.Result{Text: "done: " + c.spec.Prompt, Reason: "completed"}, nil
	}
	return c.f.run(ctx, c.spec, emit)
}

func (c *fakeConv) Close() error {
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	if c.f.closed == nil {
		c.f.closed = map[string]int{}
	}
	c.f.closed[c.spec.AgentID]++
	return nil
}

var parentTools = []string{"Agent", "AskUserQuestion", "Bash", "Edit", "ExitPlanMode", "Glob", "Grep", "Read", "TodoWrite", "Write", "mcp__docs__search"}

func newTool(t *testing.T, sp *fakeSpawner, cfg Config) *Tool {
	t.Helper()
	reviewer := &agentdef.Definition{Name: "reviewer", Description: "reviews", Prompt: "You review.",
		Tools: []string{"Read", "Grep", "Bash(git diff:*)"}, Model: "haiku", Source: agentdef.SourceProject}
	cat := agentdef.NewCatalog(append(agentdef.Builtin(), reviewer)...)
	cfg.Catalog = func() *agentdef.Catalog { return cat }
	cfg.Spawner = sp
	if cfg.ParentTools == nil {
		cfg.ParentTools = func() []string { return parentTools }
	}
	cfg.Resolve = func(m string) string {
		if m == "haiku" {
			return "claude-haiku-test"
		}
		return m
	}
	n := 0
	var mu sync.Mutex
	cfg.NewID = func() string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return fmt.Sprintf("a%016d", n)
	}
	return New(cfg)
}

func call(t *testing.T, tl *Tool, input string, progress func(tool.Progress)) (*tool.Result, error) {
	t.Helper()
	raw := json.RawMessage(input)
	c := &tool.Call{ID: "toolu_1", Name: Name, Model: "claude-parent"}
	if err := tl.Validate(context.Background(), c, raw); err != nil {
		return nil, err
	}
	return tl.Call(context.Background(), c, raw, progress)
}

func TestForegroundRunsTheNarrowedAgentAndReports(t *testing.T) {
	sp := &fakeSpawner{run: func(ctx context.Context, spec agentdef.Spec, emit func(any)) (*agentdef.Result, error) {
		emit("event 1")
		emit("event 2")
		return &agentdef.Result{Text: "  Found it in parser.go.  ", Reason: "completed", ToolUses: 3, Turns: 4,
			Usage:     llm.Usage{InputTokens: 100, OutputTokens: 50},
			LastUsage: llm.Usage{InputTokens: 10, OutputTokens: 20, CacheReadInputTokens: 300, CacheCreationInputTokens: 5}}, nil
	}}
	tl := newTool(t, sp, Config{})
	var events []any
	res, err := call(t, tl, `{"description":"find parser","prompt":"Where is the parser?","subagent_type":"reviewer"}`,
		func(p tool.Progress) { events = append(events, p.Data) })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{"event 1", "event 2"}, events); diff != "" {
		t.Errorf("events passed up (-want +got):\n%s", diff)
	}
	want := agentdef.Spec{Definition: sp.specs[0].Definition, AgentID: "a0000000000000001", Description: "find parser",
		Prompt: "Where is the parser?", Model: "claude-haiku-test", ParentToolUseID: "toolu_1", Depth: 1,
		Tools: []string{"Bash", "Grep", "Read"}}
	if diff := cmp.Diff(want, sp.specs[0]); diff != "" {
		t.Errorf("spec (-want +got):\n%s", diff)
	}
	if res.IsError || len(res.Content) != 2 || res.Content[0].Text != "Found it in parser.go." {
		t.Fatalf("result = %+v", res)
	}
	if got := res.Content[1].Text; !strings.HasPrefix(got, "agentId: a0000000000000001\n<usage>total_tokens: 335\ntool_uses: 3\nduration_ms: ") {
		t.Errorf("trailer = %q", got)
	}
	d := res.Data.(*Data)
	if d.Status != "completed" || d.AgentID != "a0000000000000001" || d.AgentType != "reviewer" || d.TotalTokens != 335 ||
		d.TotalToolUseCount != 3 || d.Usage.CacheReadInputTokens != 300 || d.Prompt != "Where is the parser?" || len(d.Content) != 1 {
		t.Errorf("data = %+v", d)
	}
	if sp.closes("a0000000000000001") != 1 {
		t.Error("the conversation was not closed once")
	}
}

func TestModelAndToolChoices(t *testing.T) {
	cases := []struct {
		name     string
		input    string
		cfg      Config
		model    string
		tools    []string
		typeName string
	}{
		{"default type inherits the parent's model and all but main-only tools and Agent",
			`{"description":"d","prompt":"p"}`, Config{}, "claude-parent",
			[]string{"Bash", "Edit", "Glob", "Grep", "Read", "TodoWrite", "Write", "mcp__docs__search"}, "general-purpose"},
		{"the model input overrides the type's",
			`{"description":"d","prompt":"p","subagent_type":"general-purpose","model":"haiku"}`, Config{}, "claude-haiku-test",
			[]string{"Bash", "Edit", "Glob", "Grep", "Read", "TodoWrite", "Write", "mcp__docs__search"}, "general-purpose"},
		{"Explore gets the fast model and no editing tools",
			`{"description":"d","prompt":"p","subagent_type":"explore"}`, Config{}, "claude-haiku-test",
			[]string{"Bash", "Glob", "Grep", "Read", "TodoWrite", "mcp__docs__search"}, "Explore"},
		{"with deeper nesting allowed the agent keeps the Agent tool",
			`{"description":"d","prompt":"p"}`, Config{MaxDepth: 2}, "claude-parent",
			[]string{"Agent", "Bash", "Edit", "Glob", "Grep", "Read", "TodoWrite", "Write", "mcp__docs__search"}, "general-purpose"},
		{"a tool the parent lacks is never given",
			`{"description":"d","prompt":"p","subagent_type":"reviewer"}`, Config{ParentTools: func() []string { return []string{"Read"} }}, "claude-haiku-test",
			[]string{"Read"}, "reviewer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := &fakeSpawner{}
			if _, err := call(t, newTool(t, sp, c.cfg), c.input, nil); err != nil {
				t.Fatal(err)
			}
			s := sp.specs[0]
			if s.Model != c.model || s.Definition.Name != c.typeName {
				t.Errorf("model %q type %q, want %q %q", s.Model, s.Definition.Name, c.model, c.typeName)
			}
			if diff := cmp.Diff(c.tools, s.Tools); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	cases := []struct {
		name, input string
		cfg         Config
		want        string
	}{
		{"unknown type lists the types", `{"description":"d","prompt":"p","subagent_type":"nope"}`, Config{},
			`there is no agent type "nope"; the types are: Explore, general-purpose, Plan, reviewer`},
		{"empty prompt", `{"description":"d","prompt":"  "}`, Config{}, "prompt is empty"},
		{"empty description", `{"description":"","prompt":"p"}`, Config{}, "description is empty"},
		{"a sub-agent at the depth limit", `{"description":"d","prompt":"p"}`, Config{Depth: 1}, "may not start agents of its own"},
		{"a type outside Agent(...)", `{"description":"d","prompt":"p","subagent_type":"Explore"}`, Config{Depth: 1, MaxDepth: 2, AllowedTypes: []string{"reviewer"}},
			"may start only these agent types: reviewer"},
		{"background without a registry", `{"description":"d","prompt":"p","run_in_background":true}`, Config{}, "background agents are not available here"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := &fakeSpawner{}
			_, err := call(t, newTool(t, sp, c.cfg), c.input, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if len(sp.specs) != 0 {
				t.Error("an agent was started anyway")
			}
		})
	}
}

func TestUnfinishedRunsAreReported(t *testing.T) {
	cases := []struct {
		res     agentdef.Result
		status  string
		isError bool
		text    string
	}{
		{agentdef.Result{Text: "partial", Reason: "max_turns", Err: errors.New("reached the maximum number of turns (3)")}, "completed", false,
			"partial\n\n(The agent stopped at its turn limit before it finished; reached the maximum number of turns (3))"},
		{agentdef.Result{Reason: "error", Err: errors.New("overloaded")}, "failed", true, "(The general-purpose agent failed: overloaded)"},
		{agentdef.Result{Text: "so far", Reason: "aborted_tools"}, "interrupted", true, "so far\n\n(The agent was interrupted before it finished.)"},
		{agentdef.Result{Reason: "completed"}, "completed", false, "(The agent finished without a final message.)"},
	}
	for _, c := range cases {
		t.Run(c.res.Reason, func(t *testing.T) {
			sp := &fakeSpawner{run: func(context.Context, agentdef.Spec, func(any)) (*agentdef.Result, error) {
				r := c.res
				return &r, nil
			}}
			res, err := call(t, newTool(t, sp, Config{}), `{"description":"d","prompt":"p"}`, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != c.isError || res.Data.(*Data).Status != c.status || res.Content[0].Text != c.text {
				t.Errorf("IsError %v status %q text %q", res.IsError, res.Data.(*Data).Status, res.Content[0].Text)
			}
		})
	}
}

func TestFailuresToStartOrRunStillRelease(t *testing.T) {
	sp := &fakeSpawner{spawnErr: errors.New("no such model")}
	if _, err := call(t, newTool(t, sp, Config{}), `{"description":"d","prompt":"p"}`, nil); err == nil || err.Error() != "start the general-purpose agent: no such model" {
		t.Errorf("spawn failure = %v", err)
	}
	sp = &fakeSpawner{run: func(context.Context, agentdef.Spec, func(any)) (*agentdef.Result, error) {
		return nil, errors.New("transcript folder is read-only")
	}}
	if _, err := call(t, newTool(t, sp, Config{}), `{"description":"d","prompt":"p"}`, nil); err == nil || !strings.Contains(err.Error(), "transcript folder is read-only") {
		t.Errorf("run failure = %v", err)
	}
	if sp.closes("a0000000000000001") != 1 {
		t.Error("a conversation that failed to run was not closed")
	}
}

func TestParallelCallsRunConcurrently(t *testing.T) {
	const n = 3
	var started sync.WaitGroup
	started.Add(n)
	sp := &fakeSpawner{run: func(ctx context.Context, spec agentdef.Spec, emit func(any)) (*agentdef.Result, error) {
		started.Done()
		started.Wait() // every run must be in progress at once to get past here
		return &agentdef.Result{Text: spec.Prompt, Reason: "completed"}, nil
	}}
	tl := newTool(t, sp, Config{})
	if !tl.IsConcurrencySafe(nil) {
		t.Fatal("the Agent tool must be concurrency-safe")
	}
	results := make([]string, n)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res, err := tl.Call(context.Background(), &tool.Call{ID: fmt.Sprint("toolu_", i)}, json.RawMessage(fmt.Sprintf(`{"description":"d","prompt":"task %d"}`, i)), nil)
			if err == nil {
				results[i] = res.Content[0].Text
			}
		})
	}
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("parallel agents did not run at the same time")
	}
	if diff := cmp.Diff([]string{"task 0", "task 1", "task 2"}, results); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	ids := map[string]bool{}
	for _, s := range sp.specs {
		ids[s.AgentID] = true
	}
	if len(ids) != n {
		t.Errorf("agent ids not unique: %v", ids)
	}
}

func closeTasks(t *testing.T, reg *task.Registry) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := reg.Close(ctx); err != nil {
		t.Error(err)
	}
}

func TestBackgroundAgentIsATaskAnnouncedWhenDone(t *testing.T) {
	reg := &task.Registry{Dir: t.TempDir()}
	defer closeTasks(t, reg)
	release, reported := make(chan struct{}), make(chan struct{})
	sp := &fakeSpawner{run: func(ctx context.Context, spec agentdef.Spec, emit func(any)) (*agentdef.Result, error) {
		// A background run reports progress, not events, to its task.
		if emit == nil {
			t.Error("a background run got no progress sink")
		} else {
			emit(agentdef.Progress{ToolUses: 1, LastTool: "Grep", Tokens: 90})
		}
		close(reported)
		<-release
		return &agentdef.Result{Text: "All 12 call sites listed.", Reason: "completed"}, nil
	}}
	tl := newTool(t, sp, Config{Tasks: reg})
	res, err := call(t, tl, `{"description":"list call sites","prompt":"List the call sites.","run_in_background":true}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Data.(*LaunchData)
	if !d.IsAsync || d.Status != "async_launched" || d.AgentID != "a0000000000000001" || d.Description != "list call sites" || d.OutputFile == "" {
		t.Errorf("launch data = %+v", d)
	}
	if !strings.Contains(res.Content[0].Text, "task a0000000000000001") {
		t.Errorf("launch text = %q", res.Content[0].Text)
	}
	if !sp.specs[0].Background {
		t.Error("the spec was not marked background (it could ask for permission)")
	}
	if got := agentdef.TaskReminders(reg); len(got) != 0 {
		t.Errorf("announced before it finished: %q", got)
	}
	<-reported
	tk, _ := reg.Get("a0000000000000001")
	if p := tk.Info().Progress; p == nil || p.ToolUses != 1 || p.LastTool != "Grep" || p.Tokens != 90 {
		t.Errorf("task progress = %+v", p)
	}
	close(release)
	if err := tk.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := agentdef.TaskReminders(reg)
	if len(got) != 1 || !strings.Contains(got[0], "<status>completed</status>") || !strings.Contains(got[0], "All 12 call sites listed.") {
		t.Errorf("announcement = %q", got)
	}
	if sp.closes("a0000000000000001") != 1 {
		t.Error("the background conversation was not closed")
	}
}

func TestStoppingABackgroundAgentCancelsAndReleasesIt(t *testing.T) {
	reg := &task.Registry{}
	defer closeTasks(t, reg)
	sp := &fakeSpawner{run: func(ctx context.Context, spec agentdef.Spec, emit func(any)) (*agentdef.Result, error) {
		<-ctx.Done()
		return &agentdef.Result{Text: "half", Reason: "aborted_tools"}, nil
	}}
	tl := newTool(t, sp, Config{Tasks: reg})
	if _, err := call(t, tl, `{"description":"long job","prompt":"p","run_in_background":true}`, nil); err != nil {
		t.Fatal(err)
	}
	if err := reg.Stop("a0000000000000001"); err != nil {
		t.Fatal(err)
	}
	tk, _ := reg.Get("a0000000000000001")
	tk.Wait(context.Background())
	if st := tk.Info().Status; st != task.Killed {
		t.Errorf("status = %s, want killed", st)
	}
	if sp.closes("a0000000000000001") != 1 {
		t.Error("the stopped conversation was not closed")
	}
}

func TestFailedBackgroundAgentIsReportedFailed(t *testing.T) {
	reg := &task.Registry{}
	defer closeTasks(t, reg)
	sp := &fakeSpawner{run: func(context.Context, agentdef.Spec, func(any)) (*agentdef.Result, error) {
		return &agentdef.Result{Reason: "error", Err: errors.New("the API refused the key")}, nil
	}}
	if _, err := call(t, newTool(t, sp, Config{Tasks: reg}), `{"description":"d","prompt":"p","run_in_background":true}`, nil); err != nil {
		t.Fatal(err)
	}
	tk, _ := reg.Get("a0000000000000001")
	tk.Wait(context.Background())
	if info := tk.Info(); info.Status != task.Failed || info.Err != "the API refused the key" {
		t.Errorf("info = %+v", info)
	}
}

func TestDescriptionIsStableAndListsNoTypes(t *testing.T) {
	tl := newTool(t, &fakeSpawner{}, Config{})
	d := tl.Description()
	for _, name := range []string{"reviewer", "Explore", "Plan"} {
		if strings.Contains(d, name) {
			t.Errorf("the description names the agent type %q; types belong in the reminder", name)
		}
	}
	if !strings.Contains(d, "<system-reminder>") || !strings.Contains(d, "run_in_background") {
		t.Error("the description does not say where the types are listed or how background runs work")
	}
	var s map[string]any
	if err := json.Unmarshal(tl.InputSchema(), &s); err != nil {
		t.Fatalf("schema: %v", err)
	}
}
