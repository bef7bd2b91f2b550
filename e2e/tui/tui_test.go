package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/llm/llmtest"
)

func TestTypedPromptStreamsThenRendersMarkdown(t *testing.T) {
	reply := llmtest.Reply("Streaming starts here and goes on for a while so that it arrives in many pieces.\n\n" +
		"It has **strong words** and a list:\n\n- alpha\n- beta\n")
	reply.Delay = llmtest.Duration(60 * time.Millisecond)
	tt := newTerm(t, reply)
	tt.start()
	tt.ready()
	tt.prompt("tell me something")
	// While streaming: part of the text and the spinner, not the end yet.
	tt.waitUntil("partial text", func(s string) bool {
		return strings.Contains(s, "Streaming starts") && strings.Contains(s, "esc to interrupt") && !strings.Contains(s, "beta")
	})
	// Finished: rendered as Markdown (the raw markers are gone once the
	// live area is redrawn).
	tt.waitUntil("the rendered reply", func(s string) bool {
		return strings.Contains(s, "> tell me something") && strings.Contains(s, "strong words") &&
			strings.Contains(s, "• alpha") && strings.Contains(s, "• beta") && !strings.Contains(s, "**strong words**")
	})
	if got := tt.requests(1)[0].LastUserText(); !strings.Contains(got, "tell me something") {
		t.Errorf("the model got %q", got)
	}
}

func TestPermissionDialogApproveAndDeny(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{"command": "touch approved.txt", "description": "create a file"})),
		llmtest.Reply("created it"),
		llmtest.Calls(llmtest.ToolUse("b2", "Bash", map[string]any{"command": "touch denied.txt", "description": "create another"})),
		llmtest.Reply("I will not create it"),
	)
	tt.start()
	tt.ready()
	tt.prompt("make a file")
	tt.waitFor("Bash command", "touch approved.txt", "Do you want to proceed?", "1. Yes")
	tt.keys("Enter")
	tt.waitFor("created it")
	if _, err := os.Stat(filepath.Join(tt.sb.Dir, "approved.txt")); err != nil {
		t.Fatalf("the approved command did not run: %v", err)
	}

	tt.prompt("make another")
	tt.waitFor("touch denied.txt", "4. No, and tell reins what to do differently")
	tt.keys("4")
	tt.waitFor("what should reins do instead?")
	tt.typeText("use a temp folder")
	tt.keys("Enter")
	tt.waitFor("I will not create it")
	if _, err := os.Stat(filepath.Join(tt.sb.Dir, "denied.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	res := tt.requests(4)[3].ToolResults()
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].ResultText(), "use a temp folder") {
		t.Fatalf("the model was not told why: %+v", res)
	}
}

func TestAskUserQuestionIsAnswered(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("q1", "AskUserQuestion", map[string]any{"questions": []map[string]any{{
			"question": "Which test runner?", "header": "Tests", "multiSelect": false,
			"options": []map[string]any{
				{"label": "go test", "description": "the standard tool"},
				{"label": "gotestsum", "description": "prettier output"},
			}}}})),
		llmtest.Reply("gotestsum it is"),
	)
	tt.start()
	tt.ready()
	tt.prompt("set up tests")
	tt.waitFor("Which test runner?", "1. go test", "2. gotestsum", "prettier output")
	tt.keys("Down", "Enter")
	tt.waitFor("gotestsum it is", "Which test runner? → gotestsum")
	res := tt.requests(2)[1].ToolResults()
	if len(res) != 1 || res[0].IsError || !strings.Contains(res[0].ResultText(), "Which test runner? → gotestsum") {
		t.Fatalf("tool result = %+v", res)
	}
}

func TestEscInterruptsALongBashCall(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("s1", "Bash", map[string]any{"command": "sleep 30", "description": "wait"})),
		llmtest.Reply("fine, moving on"),
	)
	tt.start()
	tt.ready()
	tt.prompt("wait half a minute")
	s := tt.waitUntil("the call running or asking", func(s string) bool {
		return strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, "esc to interrupt")
	})
	if strings.Contains(s, "Do you want to proceed?") {
		tt.keys("Enter")
	}
	tt.waitFor("Bash(sleep 30)", "esc to interrupt")
	start := time.Now()
	tt.keys("Escape")
	tt.waitFor("Interrupted")
	tt.ready()
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the interrupt took %s", d)
	}
	// The turn ended cleanly: the next prompt gets an answer, and the
	// interrupted call was answered in history.
	tt.prompt("go on")
	tt.waitFor("fine, moving on")
	h := messageTexts(tt.requests(2)[1])
	if !strings.Contains(h, "[result s1]") {
		t.Fatalf("the interrupted call has no result in the next request:\n%s", h)
	}
}

func TestMessageTypedDuringATurnIsQueued(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("s1", "Bash", map[string]any{"command": "sleep 5", "description": "wait"})),
		llmtest.Reply("got the extra note"),
	)
	tt.start()
	tt.ready()
	tt.prompt("do the slow thing")
	s := tt.waitUntil("the call running or asking", func(s string) bool {
		return strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, "esc to interrupt")
	})
	if strings.Contains(s, "Do you want to proceed?") {
		tt.keys("Enter")
	}
	tt.waitFor("Bash(sleep 5)", "esc to interrupt")
	tt.prompt("and mind the tests")
	// The message joins the running turn: it is sent with the call's
	// result (the call stops early, as a new message interrupts Bash),
	// not as a turn of its own.
	tt.waitFor("> and mind the tests", "got the extra note")
	rs := tt.requests(2)
	if len(rs) != 2 {
		t.Fatalf("%d requests, want 2 (the queued message must not start its own turn)", len(rs))
	}
	h := messageTexts(rs[1])
	if !strings.Contains(h, "user: and mind the tests") || !strings.Contains(h, "[result s1]") {
		t.Fatalf("the queued message did not reach the model with the call's result:\n%s", h)
	}
}

func TestShiftTabCyclesPermissionModes(t *testing.T) {
	tt := newTerm(t)
	tt.start()
	tt.ready()
	tt.keys("BTab")
	tt.waitFor("accept edits on")
	tt.keys("BTab")
	tt.waitUntil("plan mode", func(s string) bool {
		v := tt.visible()
		return strings.Contains(v, "plan mode on") && !strings.Contains(v, "accept edits on")
	})
	tt.keys("BTab")
	tt.waitFor("auto mode on")
	tt.keys("BTab")
	tt.waitUntil("default mode", func(string) bool {
		v := tt.visible()
		return !strings.Contains(v, "plan mode on") && !strings.Contains(v, "accept edits on") && !strings.Contains(v, "auto mode on")
	})
}

func TestClearCompactAndResume(t *testing.T) {
	summary := llmtest.Reply("<summary>The user said first; the assistant answered one.</summary>")
	summary.Side = true
	afterCompact := llmtest.Reply("two, after the summary")
	afterCompact.ResetPrefix = true
	afterClear := llmtest.Reply("three, fresh start")
	afterClear.ResetPrefix = true
	afterResume := llmtest.Reply("four, resumed")
	afterResume.ResetPrefix = true
	tt := newTerm(t, llmtest.Reply("one"), summary, afterCompact, afterClear, afterResume)
	tt.start()
	tt.ready()
	tt.prompt("first question")
	tt.waitFor("● one")

	tt.prompt("/compact")
	tt.waitFor("Conversation compacted")
	tt.prompt("second question")
	tt.waitFor("two, after the summary")
	h := messageTexts(tt.requests(3)[2])
	if !strings.Contains(h, "The user said first") || strings.Contains(h, "user: first question") {
		t.Fatalf("after /compact the history is not the summary:\n%s", h)
	}

	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("third question")
	tt.waitFor("three, fresh start")
	if h := messageTexts(tt.requests(4)[3]); strings.Contains(h, "second question") {
		t.Fatalf("after /clear the history was kept:\n%s", h)
	}

	// Exit, start again, and resume the first conversation.
	tt.keys("C-c")
	tt.keys("C-c")
	tt.waitFor("[reins exited 0]")
	tt.start()
	tt.ready()
	tt.prompt("/resume")
	// A session is listed by its last prompt.
	tt.waitFor("Resume a conversation", "second question", "third question")
	tt.typeText("second")
	tt.keys("Enter")
	tt.waitFor("Resumed: second question", "two, after the summary")
	tt.prompt("fourth question")
	tt.waitFor("four, resumed")
	h = messageTexts(tt.requests(5)[4])
	if !strings.Contains(h, "second question") || !strings.Contains(h, "fourth question") {
		t.Fatalf("the resumed history did not reach the model:\n%s", h)
	}
}

func TestLargePasteIsCollapsedAndSentWhole(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("got your paste"))
	tt.start()
	tt.ready()
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, "pasted line "+strings.Repeat("x", i%7))
	}
	buf := filepath.Join(t.TempDir(), "paste.txt")
	os.WriteFile(buf, []byte(strings.Join(lines, "\n")), 0o644)
	tt.run("load-buffer", "-b", "p", buf)
	tt.typeText("summarise ")
	tt.run("paste-buffer", "-p", "-b", "p", "-t", "main")
	tt.waitFor("summarise [Pasted text #1 +29 lines]")
	tt.keys("Enter")
	tt.waitFor("got your paste")
	got := tt.requests(1)[0].LastUserText()
	if !strings.Contains(got, "summarise pasted line") || strings.Count(got, "pasted line") != 30 {
		t.Fatalf("the model got:\n%s", got)
	}
}

func TestPastedControlCharactersAreDropped(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("clean"))
	tt.start()
	tt.ready()
	buf := filepath.Join(t.TempDir(), "ctl.txt")
	os.WriteFile(buf, []byte("red\x1b[31m text\x07 here\x1b[0m"), 0o644)
	tt.run("load-buffer", "-b", "c", buf)
	tt.run("paste-buffer", "-p", "-b", "c", "-t", "main")
	tt.waitFor("> red text here")
	tt.keys("Enter")
	tt.waitFor("clean")
	got := tt.requests(1)[0].LastUserText()
	if !strings.Contains(got, "\nred text here\n") || strings.ContainsAny(got, "\x1b\x07") {
		t.Fatalf("the model got %q", got)
	}
}

func TestNoColorWritesNoColours(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("plain **answer** here"))
	tt.sb.Env = append(tt.sb.Env, "NO_COLOR=1")
	tt.start()
	tt.ready()
	tt.prompt("hi")
	tt.waitFor("plain answer here")
	withEscapes := tt.run("capture-pane", "-p", "-e", "-t", "main", "-S", "-200")
	for _, sgr := range []string{"\x1b[38;", "\x1b[48;", "\x1b[31m", "\x1b[32m", "\x1b[91m"} {
		if strings.Contains(withEscapes, sgr) {
			t.Fatalf("NO_COLOR output has colour %q:\n%q", sgr, withEscapes)
		}
	}
}

func TestResizeKeepsTheUIWorking(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("still here after the resize"))
	tt.start()
	tt.ready()
	tt.run("resize-window", "-t", "main", "-x", "44", "-y", "20")
	tt.waitUntil("narrow input box", func(string) bool {
		for _, l := range strings.Split(tt.visible(), "\n") {
			if strings.HasPrefix(l, "> Try") && len([]rune(strings.TrimRight(l, " "))) <= 44 {
				return true
			}
		}
		return false
	})
	tt.prompt("are you there?")
	tt.waitFor("still here after the")
	tt.run("resize-window", "-t", "main", "-x", "120", "-y", "40")
	tt.prompt("/cost")
	tt.waitFor("Total cost:")
}

func TestTrustIsAskedOnceAndRecorded(t *testing.T) {
	tt := newTerm(t)
	tt.start()
	tt.waitFor("Do you trust the files in this folder?", tt.sb.Dir, "1. Yes, proceed", "2. No, exit")
	tt.keys("Enter")
	tt.waitFor(`Try "explain this project"`)
	tt.keys("C-c", "C-c")
	tt.waitFor("[reins exited 0]")
	tt.start()
	s := tt.waitFor(`Try "explain this project"`)
	if strings.Contains(s, "Do you trust") {
		t.Fatal("asked again in a trusted folder")
	}
}

func TestRefusingTrustExits(t *testing.T) {
	tt := newTerm(t)
	tt.start()
	tt.waitFor("Do you trust the files in this folder?")
	tt.keys("2")
	tt.waitFor("not trusted", "[reins exited 1]")
}

func TestLocalCommandsAnswerWithoutTheModel(t *testing.T) {
	tt := newTerm(t)
	tt.start()
	tt.ready()
	tt.prompt("/status")
	tt.waitFor("Session:", "Permission mode:  default", "API key:          ANTHROPIC_API_KEY")
	tt.prompt("/doctor")
	tt.waitFor("built-in tools", "Bash", "folder trusted")
	tt.prompt("/config")
	tt.waitFor("Settings files, highest first:")
	tt.prompt("/context")
	tt.waitFor("System prompt", "Tools", "Free")
	tt.prompt("/permissions")
	tt.waitFor("Allow rules:", "Deny rules:")
	tt.prompt("/permissions allow Bash(make *)")
	tt.waitFor("Added allow rule Bash(make *)")
	data, err := os.ReadFile(filepath.Join(tt.sb.Dir, ".claude", "settings.local.json"))
	if err != nil || !strings.Contains(string(data), `"Bash(make *)"`) {
		t.Fatalf("settings.local.json = %s (%v)", data, err)
	}
	if n := len(tt.srv.Requests()); n != 0 {
		t.Fatalf("%d model requests for local commands", n)
	}
}

func TestMultiLineInputAndHistory(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("two lines received"), llmtest.Reply("again received"))
	tt.start()
	tt.ready()
	tt.typeText(`first line\`)
	tt.keys("Enter")
	tt.typeText("second line")
	tt.waitFor("> first line", "  second line")
	tt.keys("Enter")
	tt.waitFor("two lines received")
	if got := tt.requests(1)[0].LastUserText(); !strings.Contains(got, "first line\nsecond line") {
		t.Fatalf("the model got %q", got)
	}
	// The history survives a restart: Up brings the prompt back.
	tt.keys("C-c", "C-c")
	tt.waitFor("[reins exited 0]")
	tt.start()
	tt.ready()
	tt.keys("Up")
	tt.waitFor("> first line")
	tt.keys("Enter")
	tt.waitFor("again received")
	if got := tt.requests(2)[1].LastUserText(); !strings.Contains(got, "first line\nsecond line") {
		t.Fatalf("the recalled prompt was %q", got)
	}
}

func TestEscEscRewindsTheConversationAndTheFiles(t *testing.T) {
	tt := newTerm(t)
	file := tt.sb.Write(t, "notes.txt", "version one\n")
	tt.srv.Add(
		llmtest.Calls(llmtest.ToolUse("r1", "Read", map[string]any{"file_path": file})),
		llmtest.Calls(llmtest.ToolUse("e1", "Edit", map[string]any{"file_path": file, "old_string": "version one", "new_string": "version two"})),
		llmtest.Reply("updated the notes"),
	)
	tt.start()
	tt.ready()
	tt.prompt("update the notes")
	tt.waitFor("Edit file", "Do you want to make this edit to notes.txt?")
	tt.keys("Enter")
	tt.waitFor("updated the notes")
	if data, _ := os.ReadFile(file); string(data) != "version two\n" {
		t.Fatalf("the edit did not happen: %q", data)
	}
	tt.keys("Escape")
	tt.keys("Escape")
	tt.waitFor("Rewind: go back to before which prompt?", "update the notes", "1 file changed since")
	tt.keys("Enter")
	tt.waitFor("Restore the conversation and the files")
	tt.keys("Enter")
	tt.waitFor("Rewound the conversation and 1 file")
	if data, _ := os.ReadFile(file); string(data) != "version one\n" {
		t.Fatalf("the file was not restored: %q", data)
	}
	// The prompt is back in the input, ready to edit and send again.
	tt.waitUntil("the prompt back in the input", func(string) bool {
		return strings.Contains(tt.visible(), "> update the notes")
	})
}

func TestFirstPromptAsArgument(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("answer to the argument"))
	tt.sb.Write(t, ".keep", "")
	tt.start("what is in here?")
	s := tt.waitUntil("the trust prompt or the answer", func(s string) bool {
		return strings.Contains(s, "Do you trust") || strings.Contains(s, "answer to the argument")
	})
	if strings.Contains(s, "Do you trust") && !strings.Contains(s, "answer to the argument") {
		tt.keys("Enter")
	}
	tt.waitFor("> what is in here?", "answer to the argument")
}
