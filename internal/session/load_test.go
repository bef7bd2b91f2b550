package session

import (
	"encoding/json"
	"github.com/google/go-cmp/cmp"
	"os"
	"strings"
	"testing"
	"time"

	"reins/internal/llm"
)

func TestLoadRoundTripIsByteIdentical(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "sess-1")
	thinking := llm.ContentBlock{Type: llm.BlockThinking, Thinking: "let me see <b>", Signature: "sig=="}
	msgs := []struct {
		m    *llm.Message
		meta bool
	}{
		{user("fix the <bug> & \"quote\" — naïve 😀\u2028line"), false},
		{assistant("msg_1", thinking, llm.TextBlock("Reading."), toolUse("toolu_1", "Read", `{"file_path":"/p/a.go","limit":10}`)), false},
		{result("toolu_1", "package a\n\tfunc A() {}\n", false), false},
		{user("<system-reminder>nudge</system-reminder>"), true},
		{assistant("msg_2", llm.TextBlock("Done.")), false},
	}
	var want []string
	var uuids []string
	for _, m := range msgs {
		want = append(want, apiBytes(t, m.m))
		meta := m.meta
		uuids = append(uuids, r.msg(m.m, func(e *Entry) { e.IsMeta = meta }))
	}
	r.meta(&Entry{Type: TypeLastPrompt, LastPrompt: "fix the bug", LeafUUID: uuids[0]})

	tr := mustLoad(t, path)
	if len(tr.Warnings) != 0 {
		t.Fatalf("warnings: %v", tr.Warnings)
	}
	if len(tr.Items) != len(msgs) {
		t.Fatalf("got %d items, want %d", len(tr.Items), len(msgs))
	}
	for i, it := range tr.Items {
		if got := apiBytes(t, it.Message); got != want[i] {
			t.Errorf("item %d API bytes differ\n got %s\nwant %s", i, got, want[i])
		}
		if it.UUID != uuids[i] || it.Meta != msgs[i].meta {
			t.Errorf("item %d: uuid %s meta %v; want %s %v", i, it.UUID, it.Meta, uuids[i], msgs[i].meta)
		}
	}
	if tr.Leaf != uuids[len(uuids)-1] || tr.SessionID != "sess-1" || tr.Cwd != "/home/user/project" {
		t.Errorf("Leaf=%s SessionID=%s Cwd=%s", tr.Leaf, tr.SessionID, tr.Cwd)
	}
	if tr.LastUsage == nil || tr.LastUsage.OutputTokens != 5 || tr.Model != "claude-opus-5-5" {
		t.Errorf("LastUsage=%+v Model=%q", tr.LastUsage, tr.Model)
	}
	if tr.LastActivity.IsZero() || tr.LastActivity.Before(time.Date(2026, 3, 1, 10, 0, 5, 0, time.UTC)) {
		t.Errorf("LastActivity = %v; want the last message's time", tr.LastActivity)
	}
	if tr.LastPrompt != "fix the bug" || len(tr.Repairs) != 0 || tr.Boundary != nil {
		t.Errorf("LastPrompt=%q Repairs=%v Boundary=%v", tr.LastPrompt, tr.Repairs, tr.Boundary)
	}
}

func TestWriterKeepsMarkupReadable(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.meta(&Entry{Type: TypeLastPrompt, LastPrompt: "<a> & <b>"})
	line := string(readLines(t, path)[0])
	if !strings.Contains(line, `"lastPrompt":"<a> & <b>"`) {
		t.Errorf("entry fields are HTML-escaped: %s", line)
	}
}

func TestLoadSkipsTornLastLineAndWriterRepairsIt(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(user("one"))
	a := r.msg(assistant("m1", llm.TextBlock("two")))
	r.w.Close()
	appendRaw(t, path, `{"type":"user","uuid":"torn","parentUuid":"`+a+`","message":{"role":"user","content":"thr`)

	tr := mustLoad(t, path)
	if len(tr.Items) != 2 || tr.Leaf != a {
		t.Fatalf("items %d leaf %s; want 2 and %s", len(tr.Items), tr.Leaf, a)
	}
	if len(tr.Warnings) != 1 || tr.Warnings[0].Line != 3 || !strings.Contains(tr.Warnings[0].Msg, "incomplete last line") {
		t.Fatalf("warnings = %v; want one about incomplete line 3", tr.Warnings)
	}

	// Resuming appends after the torn line without gluing onto it.
	r2 := newRecorder(t, path, "s")
	r2.last, r2.n = tr.Leaf, 10
	u := r2.msg(user("three again"))
	tr = mustLoad(t, path)
	if len(tr.Items) != 3 || tr.Leaf != u || tr.Items[2].Message.Text() != "three again" {
		t.Fatalf("after resume: %d items, leaf %s", len(tr.Items), tr.Leaf)
	}
	if len(tr.Warnings) != 1 || tr.Warnings[0].Line != 3 || !strings.Contains(tr.Warnings[0].Msg, "unreadable line") {
		t.Errorf("warnings = %v; want the old torn line 3 reported as unreadable", tr.Warnings)
	}
}

func TestLoadReportsMalformedLinesByNumber(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(user("one"))
	r.w.Close()
	appendRaw(t, path, "not json at all\n\n{\"type\":\"user\",\"uuid\":\"x\",\"message\":\"oops\"}\n")
	r2 := newRecorder(t, path, "s")
	r2.last, r2.n = r.last, 10
	r2.msg(assistant("m", llm.TextBlock("two")))

	tr := mustLoad(t, path)
	if len(tr.Items) != 2 {
		t.Fatalf("got %d items, want 2", len(tr.Items))
	}
	var lines []int
	for _, w := range tr.Warnings {
		lines = append(lines, w.Line)
	}
	if len(lines) != 2 || lines[0] != 2 || lines[1] != 4 {
		t.Errorf("warning lines = %v (%v); want [2 4]", lines, tr.Warnings)
	}
}

func TestLoadBridgesAMissingLink(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(user("one"))
	r.msg(assistant("m1", llm.TextBlock("two")))
	r.msg(user("three"))
	r.msg(assistant("m2", llm.TextBlock("four")))
	lines := readLines(t, path)
	// Drop line 2: the chain from line 3 names a parent that is gone.
	kept := append(append([][]byte{}, lines[0]), lines[2:]...)
	if err := os.WriteFile(path, append(joinLines(kept), '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := mustLoad(t, path)
	var texts []string
	for _, it := range tr.Items {
		texts = append(texts, it.Message.Text())
	}
	if strings.Join(texts, ",") != "one,three,four" {
		t.Errorf("history = %v; want one,three,four", texts)
	}
	if len(tr.Warnings) != 1 || tr.Warnings[0].Line != 2 || !strings.Contains(tr.Warnings[0].Msg, "not found") {
		t.Errorf("warnings = %v", tr.Warnings)
	}
}

func joinLines(ls [][]byte) []byte {
	var out []byte
	for i, l := range ls {
		if i > 0 {
			out = append(out, '\n')
		}
		out = append(out, l...)
	}
	return out
}

func TestLoadAnswersDanglingToolUseAtTheEnd(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(user("run both"))
	a := assistant("m1", toolUse("toolu_a", "Bash", `{"command":"ls"}`), toolUse("toolu_b", "Bash", `{"command":"sleep 100"}`))
	a.StopReason = "tool_use"
	r.msg(a)
	last := r.msg(result("toolu_a", "file.txt", false))

	tr := mustLoad(t, path)
	checkAnswered(t, tr.Items)
	if len(tr.Items) != 4 {
		t.Fatalf("got %d items, want 4 (with the synthetic answer)", len(tr.Items))
	}
	syn := tr.Items[3].Message.Content
	if len(syn) != 1 || syn[0].ToolUseID != "toolu_b" || !syn[0].IsError || syn[0].ResultText() != UnansweredText {
		t.Errorf("synthetic answer = %+v", syn)
	}
	if len(tr.Repairs) != 1 || *tr.Repairs[0].ParentUUID != last || tr.Leaf != tr.Repairs[0].UUID {
		t.Fatalf("repairs = %+v leaf %s; want one entry after %s", tr.Repairs, tr.Leaf, last)
	}

	// Recording the repair makes the file whole: the next load needs none
	// and shows the same history, byte for byte.
	w := NewWriter(path)
	if err := tr.WriteRepairs(w); err != nil {
		t.Fatal(err)
	}
	w.Close()
	again := mustLoad(t, path)
	if len(again.Repairs) != 0 || len(again.Warnings) != 0 || again.Leaf != tr.Leaf {
		t.Fatalf("after WriteRepairs: repairs %v warnings %v leaf %s", again.Repairs, again.Warnings, again.Leaf)
	}
	for i := range tr.Items {
		if apiBytes(t, tr.Items[i].Message) != apiBytes(t, again.Items[i].Message) || tr.Items[i].UUID != again.Items[i].UUID {
			t.Errorf("item %d changed after the repair was recorded", i)
		}
	}
}

func TestLoadAnswersDanglingToolUseInTheMiddle(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(assistant("m1", toolUse("toolu_x", "Read", `{"file_path":"/a"}`)))
	r.msg(user("never mind"))
	r.msg(assistant("m2", llm.TextBlock("ok")))

	tr := mustLoad(t, path)
	checkAnswered(t, tr.Items)
	if len(tr.Items) != 4 || tr.Items[1].Message.Content[0].ToolUseID != "toolu_x" || tr.Items[2].Message.Text() != "never mind" {
		t.Fatalf("history not repaired in place: %d items", len(tr.Items))
	}
	if len(tr.Repairs) != 0 {
		t.Errorf("a repair in the middle must not be recorded: %v", tr.Repairs)
	}
	// Loading twice gives the same synthetic uuid.
	if again := mustLoad(t, path); again.Items[1].UUID != tr.Items[1].UUID {
		t.Errorf("synthetic uuid not stable: %s vs %s", again.Items[1].UUID, tr.Items[1].UUID)
	}
}

func TestLoadDropsOrphanAndDuplicateResults(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(assistant("m1", toolUse("toolu_1", "Read", `{}`)))
	r.msg(result("toolu_1", "a", false))
	r.msg(result("toolu_1", "again", false))
	r.msg(result("toolu_ghost", "b", false))
	r.msg(assistant("m2", llm.TextBlock("ok")))
	tr := mustLoad(t, path)
	checkAnswered(t, tr.Items)
	if len(tr.Items) != 3 {
		t.Fatalf("got %d items, want 3", len(tr.Items))
	}
	if len(tr.Warnings) != 2 {
		t.Errorf("warnings = %v; want 2", tr.Warnings)
	}
}

func TestLoadStartsAtLastCompactBoundary(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(user("old"))
	old := r.msg(assistant("m1", llm.TextBlock("old answer")))
	b1 := &Entry{Type: TypeSystem, Subtype: SubtypeCompactBoundary, UUID: r.uuid(), LogicalParentUUID: old,
		CompactMetadata: &CompactMetadata{Trigger: "auto", PreTokens: 150000}}
	r.meta(b1)
	r.last = b1.UUID
	r.msg(user("summary one"), func(e *Entry) { e.IsCompactSummary = true; e.IsMeta = true })
	mid := r.msg(assistant("m2", llm.TextBlock("middle")))
	b2 := &Entry{Type: TypeSystem, Subtype: SubtypeCompactBoundary, UUID: r.uuid(), LogicalParentUUID: mid,
		CompactMetadata: &CompactMetadata{Trigger: "manual", PreTokens: 90000}}
	p := mid
	b2.ParentUUID = &p // reins may chain the boundary; it still stops the walk
	r.meta(b2)
	r.last = b2.UUID
	sum := r.msg(user("summary two"), func(e *Entry) { e.IsCompactSummary = true })
	r.msg(assistant("m3", llm.TextBlock("after")))

	tr := mustLoad(t, path)
	if tr.Boundary == nil || tr.Boundary.UUID != b2.UUID || tr.Boundary.Trigger != "manual" || tr.Boundary.PreTokens != 90000 {
		t.Fatalf("Boundary = %+v; want the second boundary", tr.Boundary)
	}
	if len(tr.Items) != 2 || tr.Items[0].UUID != sum || !tr.Items[0].Summary {
		t.Fatalf("items = %+v; want the summary then one answer", tr.Items)
	}
}

func TestLoadFollowsTheLatestBranch(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	root := r.msg(user("q"))
	r.msg(assistant("m1", llm.TextBlock("first try")))
	r.last = root // the user edited the prompt and retried
	r.msg(assistant("m2", llm.TextBlock("second try")))
	tr := mustLoad(t, path)
	if len(tr.Items) != 2 || tr.Items[1].Message.Text() != "second try" {
		t.Fatalf("history does not follow the last branch: %+v", tr.Items)
	}
}

func TestLoadAtCutsTheHistoryAfterAMessage(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(user("one"))
	r.meta(&Entry{Type: TypeTodos, Todos: json.RawMessage(`[{"content":"early"}]`)})
	first := r.msg(assistant("m1", llm.TextBlock("answer one")))
	r.msg(user("two"))
	r.meta(&Entry{Type: TypeTodos, Todos: json.RawMessage(`[{"content":"late"}]`)})
	r.msg(assistant("m2", llm.TextBlock("answer two")))

	tr, err := LoadAt(path, first)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range tr.Items {
		texts = append(texts, it.Message.Text())
	}
	if strings.Join(texts, "|") != "one|answer one" || tr.Leaf != first {
		t.Errorf("LoadAt(first answer) = %q, leaf %s; want the first exchange, leaf %s", texts, tr.Leaf, first)
	}
	if string(tr.Todos) != `[{"content":"early"}]` {
		t.Errorf("Todos = %s, want the list recorded before the cut", tr.Todos)
	}
	if whole := mustLoad(t, path); len(whole.Items) != 4 {
		t.Errorf("Load without a cut gives %d items", len(whole.Items))
	}
	if _, err := LoadAt(path, "no-such-uuid"); err == nil || !strings.Contains(err.Error(), "no-such-uuid") {
		t.Errorf("LoadAt(unknown) = %v, want an error naming it", err)
	}
}

func TestLoadRestoresRecordedState(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(user("q"))
	r.meta(&Entry{Type: TypeTodos, Todos: json.RawMessage(`[{"content":"a","status":"pending"}]`)})
	r.meta(&Entry{Type: TypeReplacement, Replacements: []Replacement{{ToolUseID: "t1", Text: "r1"}, {ToolUseID: "t2", Text: "r2"}}})
	r.meta(&Entry{Type: TypeTodos, Todos: json.RawMessage(`[{"content":"a","status":"completed"}]`)})
	r.meta(&Entry{Type: TypeReplacement, Replacements: []Replacement{{ToolUseID: "t1", Text: "r1b"}}})
	r.meta(&Entry{Type: TypeSummary, Summary: "Fixing the parser"})
	r.meta(&Entry{Type: TypeCustomTitle, CustomTitle: "parser work"})
	tr := mustLoad(t, path)
	if string(tr.Todos) != `[{"content":"a","status":"completed"}]` {
		t.Errorf("Todos = %s; want the last list", tr.Todos)
	}
	if len(tr.Replacements) != 2 || tr.Replacements[0] != (Replacement{"t1", "r1b"}) || tr.Replacements[1] != (Replacement{"t2", "r2"}) {
		t.Errorf("Replacements = %+v", tr.Replacements)
	}
	if tr.Title != "parser work" {
		t.Errorf("Title = %q", tr.Title)
	}
}

func TestLoadListsReadFiles(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(assistant("m1",
		toolUse("r1", "Read", `{"file_path":"/p/a.go"}`),
		toolUse("r2", "Read", `{"file_path":"/p/b.go","offset":10,"limit":5}`),
		toolUse("r3", "Read", `{"file_path":"/p/missing.go"}`)))
	r.msg(result("r1", "a", false))
	r.msg(result("r2", "b", false))
	r.msg(result("r3", "no such file", true))
	r.msg(assistant("m2", toolUse("w1", "Write", `{"file_path":"/p/c.go","content":"x"}`), toolUse("r4", "Read", `{"file_path":"/p/a.go"}`)))
	r.msg(result("w1", "ok", false))
	r.msg(result("r4", "a", false))
	tr := mustLoad(t, path)
	var got []string
	for _, f := range tr.ReadFiles {
		s := f.Path
		if f.Partial {
			s += "(partial)"
		}
		if f.Time.IsZero() {
			t.Errorf("%s has no time", f.Path)
		}
		got = append(got, s)
	}
	if strings.Join(got, " ") != "/p/b.go(partial) /p/c.go /p/a.go" {
		t.Errorf("ReadFiles = %v", got)
	}
}

// The capture of Claude Code's own transcript: responses split into one
// entry per block, and parents naming lines the capture left out.
func TestLoadClaudeCodeTranscript(t *testing.T) {
	tr := mustLoad(t, "testdata/claude-code-sample.jsonl")
	checkAnswered(t, tr.Items)
	var roles []string
	for _, it := range tr.Items {
		roles = append(roles, string(it.Message.Role))
	}
	if strings.Join(roles, ",") != "user,assistant,user,assistant,user,assistant" {
		t.Errorf("roles = %v", roles)
	}
	if tr.SessionID != "c6a30bf9-4594-48ad-9ebf-5697196bd4f4" || tr.GitBranch != "master" || tr.LastPrompt != "make the marker file" {
		t.Errorf("SessionID=%s GitBranch=%s LastPrompt=%q", tr.SessionID, tr.GitBranch, tr.LastPrompt)
	}
	if tr.Items[len(tr.Items)-1].Message.Text() != "SDK-RUN-DONE" {
		t.Errorf("last message = %q", tr.Items[len(tr.Items)-1].Message.Text())
	}
}

func TestLoadMergesSplitAssistantEntries(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s")
	r.msg(user("q"))
	r.msg(assistant("msg_X", toolUse("t1", "Read", `{"file_path":"/a"}`)))
	r.msg(assistant("msg_X", toolUse("t2", "Read", `{"file_path":"/b"}`)))
	r.msg(result("t1", "a", false))
	r.msg(result("t2", "b", false))
	tr := mustLoad(t, path)
	checkAnswered(t, tr.Items)
	if len(tr.Items) != 4 || len(tr.Items[1].Message.ToolUses()) != 2 {
		t.Fatalf("split response not joined: %d items", len(tr.Items))
	}
}

func TestReadEmptyAndGarbage(t *testing.T) {
	for _, in := range []string{"", "\n\n", "garbage", `{"type":"user"}`, `[1,2]`} {
		tr, err := Read(strings.NewReader(in))
		if err != nil {
			t.Fatalf("Read(%q): %v", in, err)
		}
		if len(tr.Items) != 0 || tr.Leaf != "" {
			t.Errorf("Read(%q) = %d items leaf %q", in, len(tr.Items), tr.Leaf)
		}
	}
}

func TestParallelLoadMatchesSequential(t *testing.T) {
	path := tempTranscript(t)
	writeLongSession(t, path, 3_000)
	appendRaw(t, path, "\n\nnot json\n")
	r := newRecorder(t, path, "bench")
	r.last, r.n = "", 100_000
	r.msg(user("after the bad line"))
	r.w.Close()
	appendRaw(t, path, `{"type":"user","uuid":"torn"`)
	if st, _ := os.Stat(path); st.Size() < parallelMin {
		t.Fatalf("fixture too small (%d bytes) to take the parallel path", st.Size())
	}

	open := func(parallel bool) *Transcript {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		tr, err := read(f, parallel)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	seq, par := open(false), open(true)
	if len(seq.Items) != len(par.Items) || seq.Leaf != par.Leaf || seq.Lines != par.Lines {
		t.Fatalf("sequential %d items leaf %s lines %d; parallel %d items leaf %s lines %d",
			len(seq.Items), seq.Leaf, seq.Lines, len(par.Items), par.Leaf, par.Lines)
	}
	for i := range seq.Items {
		if seq.Items[i].UUID != par.Items[i].UUID || apiBytes(t, seq.Items[i].Message) != apiBytes(t, par.Items[i].Message) {
			t.Fatalf("item %d differs", i)
		}
	}
	if fmtWarnings(seq.Warnings) != fmtWarnings(par.Warnings) || len(seq.Warnings) != 2 {
		t.Errorf("warnings differ or are not the two bad lines:\n%s\n--\n%s", fmtWarnings(seq.Warnings), fmtWarnings(par.Warnings))
	}
}

func fmtWarnings(ws []Warning) string {
	var s []string
	for _, w := range ws {
		s = append(s, w.String())
	}
	return strings.Join(s, "\n")
}

// TestEntryJSONKeepsEveryField checks the hand-joined encoding against
// encoding/json's of the same fields: same keys, same values.
func TestEntryJSONKeepsEveryField(t *testing.T) {
	parent := "p-1"
	msg := &llm.Message{Role: llm.RoleAssistant, ID: "msg_1", Model: "m", StopReason: "end_turn",
		Usage: &llm.Usage{InputTokens: 3}, Content: []llm.ContentBlock{llm.TextBlock("a <b> & c\x08")}}
	for _, e := range []Entry{
		{Type: TypeAssistant, UUID: "u", ParentUUID: &parent, IsSidechain: true, SessionID: "s", AgentID: "ag",
			Timestamp: "t", Cwd: "/w", Version: "v", GitBranch: "main", PermissionMode: "plan", IsMeta: true,
			Message: msg, ToolUseResult: map[string]any{"stdout": "<ok>"}, SourceToolAssistantUUID: "x"},
		{Type: TypeSystem, Subtype: SubtypeCompactBoundary, Content: "c", CompactMetadata: &CompactMetadata{Trigger: "auto", PreTokens: 9}},
		{Type: TypeLastPrompt, LastPrompt: "x", LeafUUID: "u2"},
		{Type: TypeTodos, Todos: json.RawMessage(`[{"content":"a"}]`)},
		{Type: TypeUser},
	} {
		got, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		type plain Entry
		ref, _ := json.Marshal(plain(e))
		var a, b map[string]any
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatalf("%s: invalid JSON %s: %v", e.Type, got, err)
		}
		json.Unmarshal(ref, &b)
		if e.Type == TypeUser || e.Type == TypeAssistant || e.Type == TypeSystem {
			// Always written on chain lines, null and false included.
			if _, ok := b["parentUuid"]; !ok {
				b["parentUuid"] = nil
			}
			if _, ok := b["isSidechain"]; !ok {
				b["isSidechain"] = false
			}
		}
		if diff := cmp.Diff(b, a); diff != "" {
			t.Errorf("%s entry fields differ (-encoding/json +ours):\n%s", e.Type, diff)
		}
	}
}

func TestEntryChainFieldsLikeClaudeCode(t *testing.T) {
	parent := "u1"
	cases := []struct {
		e      Entry
		prefix string
		absent []string
	}{
		{Entry{Type: TypeUser, UUID: "u1", Message: &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("<hi>")}}},
			`{"parentUuid":null,"isSidechain":false,"message":{"role":"user","content":[{"type":"text","text":"<hi>"}]},"type":"user","uuid":"u1"`, nil},
		{Entry{Type: TypeAssistant, UUID: "u2", ParentUUID: &parent, IsSidechain: true},
			`{"parentUuid":"u1","isSidechain":true,"type":"assistant","uuid":"u2"`, nil},
		{Entry{Type: TypeLastPrompt, LastPrompt: "x", LeafUUID: "u2"},
			`{"type":"last-prompt"`, []string{"parentUuid", "isSidechain"}},
	}
	for _, c := range cases {
		b, err := c.e.MarshalJSON() // what the Writer writes
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), c.prefix) {
			t.Errorf("%s entry = %s, want it to start %s", c.e.Type, b, c.prefix)
		}
		if strings.Count(string(b), `"parentUuid"`) > 1 || strings.Count(string(b), `"isSidechain"`) > 1 {
			t.Errorf("%s entry repeats a chain field: %s", c.e.Type, b)
		}
		for _, a := range c.absent {
			if strings.Contains(string(b), `"`+a+`"`) {
				t.Errorf("%s entry has %s: %s", c.e.Type, a, b)
			}
		}
		var back Entry
		if err := json.Unmarshal(b, &back); err != nil || back.Type != c.e.Type || back.IsSidechain != c.e.IsSidechain ||
			(c.e.ParentUUID == nil) != (back.ParentUUID == nil) {
			t.Errorf("%s entry does not read back: %+v, %v", c.e.Type, back, err)
		}
	}
}
