package compact_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"reins/internal/compact"
	"reins/internal/engine"
	"reins/internal/filestate"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/llm/llmtest"
	"reins/internal/session"
	"reins/internal/tool"
)

// readTool reads a file and records it in a filestate, as the real Read
// tool does.
type readTool struct {
	tool.Defaults
	files *filestate.State
}

func (readTool) Name() string        { return "Read" }
func (readTool) Description() string { return "read a file" }
func (readTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}`)
}
func (readTool) IsReadOnly(json.RawMessage) bool        { return true }
func (readTool) IsConcurrencySafe(json.RawMessage) bool { return true }
func (r readTool) Call(ctx context.Context, c *tool.Call, input json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	var in struct {
		FilePath string `json:"file_path"`
	}
	json.Unmarshal(input, &in)
	b, err := os.ReadFile(in.FilePath)
	if err != nil {
		return nil, err
	}
	info, _ := os.Stat(in.FilePath)
	r.files.Record(filestate.EntryFor(in.FilePath, b, info))
	return tool.Text(string(b)), nil
}

// isSummary matches the summary request.
func isSummary(r *llmtest.Request) bool {
	return strings.Contains(r.LastUserText(), "replaced by a summary")
}

func notSummary(r *llmtest.Request) bool { return !isSummary(r) }

func summaryTurn(text string) llmtest.Turn {
	t := llmtest.Reply(text)
	t.Side, t.Match = true, isSummary
	return t
}

func mainTurn(t llmtest.Turn, inputTokens int) llmtest.Turn {
	t.Match = notSummary
	t.Usage = &llmtest.UsageSpec{InputTokens: inputTokens, OutputTokens: 10}
	return t
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

type env struct {
	srv    *llmtest.Server
	sess   *engine.Session
	comp   *compact.Compactor
	files  *filestate.State
	writer *session.Writer
	clock  *clock
	dir    string
}

// setup wires a session whose context window is 40,000 tokens, so the
// autocompaction threshold is 7,000 (40,000 − 20,000 − 13,000) and the
// blocking limit 17,000.
func setup(t *testing.T, dir string, vars map[string]string, cc compact.Config, turns ...llmtest.Turn) *env {
	t.Helper()
	srv, err := llmtest.Start(turns...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	e := &env{srv: srv, files: filestate.New(), dir: dir,
		clock: &clock{now: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}}
	getenv := func(k string) string {
		if k == "REINS_AUTO_COMPACT_WINDOW" {
			return "40000"
		}
		return vars[k]
	}
	cc.Getenv, cc.Files, cc.Now = getenv, e.files, e.clock.Now
	e.comp = compact.New(cc)
	e.writer = session.NewWriter(filepath.Join(e.dir, "s.jsonl"))
	t.Cleanup(func() { e.writer.Close() })
	tools := []tool.Tool{readTool{files: e.files}}
	e.sess = engine.New(engine.Config{
		Provider:       anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "k", RetryBase: time.Millisecond, IdleTimeout: 2 * time.Second}),
		Models:         llm.NewModels(func(string) string { return "" }),
		Model:          "claude-sonnet-4-5",
		System:         []llm.SystemBlock{{Text: "test system", Cache: true}},
		UserContext:    "<system-reminder>\nmemory\n</system-reminder>",
		Tools:          func(context.Context) engine.ToolSet { return engine.ToolSet{Tools: tools} },
		Compactor:      e.comp,
		Recorder:       e.writer,
		RetryBaseDelay: time.Millisecond,
		Now:            e.clock.Now,
	})
	return e
}

func write(t *testing.T, dir, name, content string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (e *env) run(t *testing.T, prompt string) ([]engine.Event, *engine.TurnEnd) {
	t.Helper()
	var evs []engine.Event
	var end *engine.TurnEnd
	for ev := range e.sess.Run(context.Background(), engine.Input{Content: []llm.ContentBlock{llm.TextBlock(prompt)}}) {
		evs = append(evs, ev)
		if te, ok := ev.(*engine.TurnEnd); ok {
			end = te
		}
	}
	if end == nil {
		t.Fatal("no TurnEnd")
	}
	return evs, end
}

func readCall(id, path string) llmtest.Block {
	return llmtest.ToolUse(id, "Read", map[string]string{"file_path": path})
}

// canon is a message's encoding without cache marks.
func canon(t *testing.T, m *llm.Message) string {
	c := &llm.Message{Role: m.Role, Content: append([]llm.ContentBlock(nil), m.Content...)}
	for i := range c.Content {
		c.Content[i].CacheControl = nil
	}
	b, err := c.AppendAPI(nil, false, "")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func allText(r *llmtest.Request) string {
	var sb strings.Builder
	for _, m := range r.Messages {
		for _, b := range m.Content {
			sb.WriteString(b.Text + b.ResultText() + "\n")
		}
	}
	return sb.String()
}

func countEvents[T engine.Event](evs []engine.Event) int {
	n := 0
	for _, ev := range evs {
		if _, ok := ev.(T); ok {
			n++
		}
	}
	return n
}

func TestAutocompactSummarisesRestoresAndContinues(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a.go", "package a\n\nfunc A() {}\n")
	b := write(t, dir, "b.go", "package b\n")
	after := mainTurn(llmtest.Reply("continued"), 2_000)
	after.ResetPrefix = true
	e := setup(t, dir, nil, compact.Config{Todos: func() string { return "- [ ] finish the parser" }},
		mainTurn(llmtest.Calls(readCall("t1", a)), 500),
		mainTurn(llmtest.Calls(readCall("t2", b)), 8_000),
		summaryTurn("<analysis>scratch notes</analysis>\n<summary>SUMMARY-OF-WORK</summary>"),
		after,
	)

	evs, end := e.run(t, "work on it")
	if end.Reason != engine.ReasonCompleted || end.Result != "continued" {
		t.Fatalf("turn ended %s (%v), result %q", end.Reason, end.Err, end.Result)
	}
	if n := countEvents[*engine.CompactBoundary](evs); n != 1 {
		t.Fatalf("%d compaction boundaries, want 1", n)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	prev, sum, next := reqs[1], reqs[2], reqs[3]

	// The summary request reuses the conversation's prefix: same system,
	// same tools, and the previous request's messages unchanged.
	if string(prev.Body) == "" || !equalRaw(prev.System, sum.System) || !equalRaw(prev.Tools, sum.Tools) {
		t.Error("the summary request changed the system prompt or tools")
	}
	for i, m := range prev.Messages {
		if canon(t, m) != canon(t, sum.Messages[i]) {
			t.Errorf("summary request message %d differs from the conversation's", i)
		}
	}
	if !strings.Contains(sum.LastUserText(), "Do not call any tool") {
		t.Error("summary request lacks the text-only instruction")
	}

	text := allText(next)
	for _, want := range []string{"SUMMARY-OF-WORK", "func A() {}", "finish the parser", "package b"} {
		if !strings.Contains(text, want) {
			t.Errorf("request after compaction lacks %q", want)
		}
	}
	if strings.Contains(text, "scratch notes") {
		t.Error("the analysis scratch text reached the conversation")
	}
	if strings.Contains(text, "work on it") {
		t.Error("the summarised prompt is still in the history")
	}
	// a.go was restored and counts as read; b.go is in the kept tail.
	if _, ok := e.files.Get(a); !ok {
		t.Error("restored file not recorded as read")
	}
	e.srv.AssertClean(t)

	// The transcript resumes at the summary with the same history.
	e.writer.Close()
	tr, err := session.Load(e.writer.Path())
	if err != nil {
		t.Fatal(err)
	}
	hist := e.sess.History()
	if tr.Boundary == nil || tr.Boundary.Trigger != "auto" || tr.Boundary.PreTokens < 8_000 {
		t.Errorf("boundary = %+v", tr.Boundary)
	}
	if len(tr.Items) != len(hist) || !tr.Items[0].Summary {
		t.Fatalf("resumed %d items (first summary=%v); session has %d", len(tr.Items), len(tr.Items) > 0 && tr.Items[0].Summary, len(hist))
	}
	for i := range hist {
		if canon(t, tr.Items[i].Message) != canon(t, hist[i].Message) || tr.Items[i].UUID != hist[i].UUID {
			t.Errorf("resumed item %d differs", i)
		}
	}
}

func equalRaw(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if string(a[i]) != string(b[i]) {
			return false
		}
	}
	return true
}

func TestAutocompactBreakerStopsAfterThreeFailures(t *testing.T) {
	turns := []llmtest.Turn{mainTurn(llmtest.Reply("big"), 8_000)}
	for range 3 {
		// A summary reply that calls a tool is a failed attempt.
		bad := llmtest.Calls(readCall("x", "/etc/hostname"))
		bad.Side, bad.Match = true, isSummary
		turns = append(turns, bad, mainTurn(llmtest.Reply("still big"), 8_000))
	}
	turns = append(turns, mainTurn(llmtest.Reply("no more tries"), 8_000))
	e := setup(t, t.TempDir(), nil, compact.Config{}, turns...)
	var notices []string
	for i := range 5 {
		evs, end := e.run(t, "prompt")
		if end.Reason != engine.ReasonCompleted {
			t.Fatalf("turn %d ended %s: %v", i, end.Reason, end.Err)
		}
		for _, ev := range evs {
			if n, ok := ev.(*engine.Notice); ok {
				notices = append(notices, n.Text)
			}
		}
	}
	summaries := 0
	for _, r := range e.srv.Requests() {
		if isSummary(r) {
			summaries++
		}
	}
	if summaries != compact.MaxFailures {
		t.Errorf("%d summary attempts, want %d", summaries, compact.MaxFailures)
	}
	joined := strings.Join(notices, "\n")
	if !strings.Contains(joined, "called a tool") || !strings.Contains(joined, "off for this session") {
		t.Errorf("notices do not report the failures and the breaker:\n%s", joined)
	}
	if st := e.comp.Status(e.sess); st.Auto || st.Failures != 3 {
		t.Errorf("status after the breaker: %+v", st)
	}

	// Manual compaction still works, and resets the breaker.
	e.srv.Add(summaryTurn("<summary>manual one</summary>"))
	if err := e.comp.Compact(context.Background(), e.sess, "", nil); err != nil {
		t.Fatalf("manual compaction after the breaker: %v", err)
	}
	if st := e.comp.Status(e.sess); !st.Auto || st.Failures != 0 {
		t.Errorf("status after a manual success: %+v", st)
	}
}

func TestReactiveCompactionRetriesOnce(t *testing.T) {
	ptl := llmtest.PromptTooLong()
	ptl.Match = notSummary
	retry := mainTurn(llmtest.Reply("fits now"), 1_000)
	retry.ResetPrefix = true
	e := setup(t, t.TempDir(), nil, compact.Config{},
		mainTurn(llmtest.Reply("first"), 100),
		ptl,
		summaryTurn("<summary>short</summary>"),
		retry,
	)
	e.run(t, "one")
	evs, end := e.run(t, "two")
	if end.Reason != engine.ReasonCompleted || end.Result != "fits now" {
		t.Fatalf("turn ended %s (%v) %q", end.Reason, end.Err, end.Result)
	}
	if countEvents[*engine.CompactBoundary](evs) != 1 {
		t.Error("no compaction boundary")
	}
	// Only one compaction per refusal: a second refusal surfaces.
	ptl2, ptl3 := llmtest.PromptTooLong(), llmtest.PromptTooLong()
	ptl2.Match, ptl3.Match = notSummary, notSummary
	e.srv.Add(ptl2, summaryTurn("<summary>again</summary>"), ptl3)
	_, end = e.run(t, "three")
	if end.Reason != engine.ReasonError || !llm.IsPromptTooLong(end.Err) {
		t.Errorf("second refusal: %s %v; want the prompt-too-long error", end.Reason, end.Err)
	}
}

func TestSummaryRequestTooLongDropsOldestRounds(t *testing.T) {
	var turns []llmtest.Turn
	for i := range 6 {
		turns = append(turns, mainTurn(llmtest.Reply(strings.Repeat("answer ", 50)+string(rune('a'+i))), 100))
	}
	tooLong := llmtest.PromptTooLong()
	tooLong.Side, tooLong.Match = true, isSummary
	tooLong.Fault.Message = "prompt is too long: 200250 tokens > 200000 maximum"
	turns = append(turns, tooLong, summaryTurn("<summary>after trimming</summary>"))
	e := setup(t, t.TempDir(), nil, compact.Config{}, turns...)
	for range 6 {
		e.run(t, "q")
	}
	if err := e.comp.Compact(context.Background(), e.sess, "keep the numbers", nil); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	var sums []*llmtest.Request
	for _, r := range e.srv.Requests() {
		if isSummary(r) {
			sums = append(sums, r)
		}
	}
	if len(sums) != 2 {
		t.Fatalf("%d summary requests, want 2", len(sums))
	}
	if len(sums[1].Messages) >= len(sums[0].Messages) {
		t.Errorf("retry sent %d messages, first try %d; want fewer", len(sums[1].Messages), len(sums[0].Messages))
	}
	if sums[1].Messages[0].Role != llm.RoleUser {
		t.Error("trimmed request does not start with a user message")
	}
	if !strings.Contains(sums[0].LastUserText(), "keep the numbers") {
		t.Error("manual instructions missing from the summary request")
	}
	hist := e.sess.History()
	if !hist[0].Summary || !strings.Contains(hist[0].Message.Text(), "Wait for their next message") {
		t.Errorf("manual compaction summary message = %q", hist[0].Message.Text())
	}
}

func TestMicrocompactClearsOldResultsWhenTheCacheIsCold(t *testing.T) {
	dir := t.TempDir()
	var calls []llmtest.Block
	for i := range 7 {
		p := write(t, dir, string(rune('a'+i))+".txt", "CONTENT-"+string(rune('A'+i)))
		calls = append(calls, readCall("r"+string(rune('0'+i)), p))
	}
	later := mainTurn(llmtest.Reply("later"), 100)
	later.ResetPrefix = true
	e := setup(t, dir, nil, compact.Config{},
		mainTurn(llmtest.Calls(calls...), 100),
		mainTurn(llmtest.Reply("read them"), 100),
		mainTurn(llmtest.Reply("soon"), 100),
		later,
	)
	e.run(t, "read all")
	e.clock.advance(10 * time.Minute)
	e.run(t, "soon after")
	if text := allText(e.srv.Requests()[2]); !strings.Contains(text, "CONTENT-A") || strings.Contains(text, compact.ClearedText) {
		t.Fatal("results cleared although the cache was warm")
	}
	e.clock.advance(61 * time.Minute)
	e.run(t, "an hour later")
	text := allText(e.srv.Requests()[3])
	for i := range 7 {
		c := "CONTENT-" + string(rune('A'+i))
		if want := i >= 2; strings.Contains(text, c) != want {
			t.Errorf("%s present=%v, want %v", c, !want, want)
		}
	}
	if strings.Count(text, compact.ClearedText) != 2 {
		t.Errorf("want 2 cleared results:\n%s", text)
	}
	e.srv.AssertClean(t)
}

func TestBlockingLimitWhenAutocompactIsOff(t *testing.T) {
	e := setup(t, t.TempDir(), map[string]string{"DISABLE_AUTO_COMPACT": "1"}, compact.Config{},
		mainTurn(llmtest.Reply("huge"), 18_000))
	e.run(t, "one")
	_, end := e.run(t, "two")
	if end.Reason != engine.ReasonBlockingLimit {
		t.Errorf("turn ended %s, want %s", end.Reason, engine.ReasonBlockingLimit)
	}
	if len(e.srv.Requests()) != 1 {
		t.Errorf("%d requests; the blocked turn must not send one", len(e.srv.Requests()))
	}
}

func TestDisableCompactAndPreCompactHook(t *testing.T) {
	e := setup(t, t.TempDir(), map[string]string{"DISABLE_COMPACT": "1"}, compact.Config{},
		mainTurn(llmtest.Reply("a"), 100))
	e.run(t, "x")
	if err := e.comp.Compact(context.Background(), e.sess, "", nil); err != compact.ErrDisabled {
		t.Errorf("Compact with DISABLE_COMPACT = %v", err)
	}

	var gotTrigger, gotInstr string
	hook := func(_ context.Context, trigger, instr string) (string, error) {
		gotTrigger, gotInstr = trigger, instr
		return instr + "\nHOOK-ADDED", nil
	}
	e = setup(t, t.TempDir(), nil, compact.Config{Instructions: "STANDING", PreCompact: hook},
		mainTurn(llmtest.Reply("a"), 100), summaryTurn("<summary>s</summary>"))
	e.run(t, "x")
	if err := e.comp.Compact(context.Background(), e.sess, "USER-ASKED", nil); err != nil {
		t.Fatal(err)
	}
	if gotTrigger != "manual" || gotInstr != "STANDING\n\nUSER-ASKED" {
		t.Errorf("hook saw trigger %q instructions %q", gotTrigger, gotInstr)
	}
	last := e.srv.Requests()[1].LastUserText()
	if !strings.Contains(last, "HOOK-ADDED") || !strings.Contains(last, "USER-ASKED") {
		t.Errorf("summary request lacks the hook's and user's instructions:\n%s", last)
	}

	block := func(context.Context, string, string) (string, error) { return "", errors.New("not now") }
	e = setup(t, t.TempDir(), nil, compact.Config{PreCompact: block}, mainTurn(llmtest.Reply("a"), 100))
	e.run(t, "x")
	if err := e.comp.Compact(context.Background(), e.sess, "", nil); err == nil || !strings.Contains(err.Error(), "not now") {
		t.Errorf("a blocking hook gave %v", err)
	}
	if len(e.srv.Requests()) != 1 {
		t.Error("a blocked compaction still called the model")
	}
}
