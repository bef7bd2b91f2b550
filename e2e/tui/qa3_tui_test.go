package tui

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"reins/internal/llm/llmtest"
)

// A reply taller than the room left by the live area is printed whole
// into the scrollback once: the streaming frame (the raw tail of the
// reply) used to be left in the scrollback above the rendered reply.
func TestQA3LongReplyLeavesNoStaleFrameInTheScrollback(t *testing.T) {
	var lines []string
	for i := 1; i <= 60; i++ {
		lines = append(lines, fmt.Sprintf("- item %d end", i))
	}
	reply := llmtest.Reply("Here is the list:\n\n" + strings.Join(lines, "\n") + "\n\nThat is all.")
	reply.Delay = llmtest.Duration(10 * time.Millisecond)
	tt := newTerm(t, reply)
	tt.start()
	tt.ready()
	tt.prompt("list sixty things")
	// Wait until the streaming frame is tall, then for the end.
	tt.waitFor("item 40 end", "esc to interrupt")
	tt.waitUntil("the rendered reply and the input box", func(s string) bool {
		return strings.Contains(s, "That is all.") && !strings.Contains(tt.visible(), "esc to interrupt")
	})
	// Read after the check: a capture taken before it could still hold
	// the streaming frame.
	s := tt.screen()
	for i := 1; i <= 60; i++ {
		if n := count(s, fmt.Sprintf("item %d end", i)); n != 1 {
			t.Fatalf("item %d is on screen %d times, want once:\n%s", i, n, s)
		}
	}
	if n := count(s, "Here is the list:"); n != 1 {
		t.Fatalf("the reply's first line is on screen %d times:\n%s", n, s)
	}
}

// Ctrl+D on an empty input asks for a second press before exiting, as
// Claude Code does; one press used to end the session at once, even in
// the middle of a turn.
func TestQA3CtrlDExitsOnlyWhenPressedTwice(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("s1", "Bash", map[string]any{"command": "sleep 30", "description": "wait"})),
		llmtest.Reply("still running after ctrl+d"),
	)
	tt.sb.Write(t, ".claude/settings.json", `{"permissions":{"allow":["Bash(sleep *)"]}}`)
	tt.start()
	tt.ready()
	tt.prompt("wait a while")
	tt.waitFor("Bash(sleep 30)", "esc to interrupt")
	tt.keys("C-d")
	tt.waitFor("Press Ctrl+D again to exit")
	if s := tt.screen(); strings.Contains(s, "[reins exited") {
		t.Fatalf("one Ctrl+D ended reins:\n%s", s)
	}
	tt.keys("Escape")
	tt.waitFor("Interrupted")
	tt.keys("C-d")
	tt.keys("C-d")
	tt.waitFor("[reins exited 0]")
}

// A finished sub-agent shows how much it did, as Claude Code does, not
// the agentId and usage trailer its result carries for the model.
func TestQA3SubAgentResultShowsDoneNotTheUsageTrailer(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.Text("Delegating."), llmtest.ToolUse("a1", "Agent", map[string]any{
			"description": "explore the code", "prompt": "find the main file", "subagent_type": "general-purpose"})),
		llmtest.Calls(llmtest.ToolUse("s1", "Glob", map[string]any{"pattern": "**/*.go"})),
		llmtest.Calls(llmtest.ToolUse("s2", "Read", map[string]any{"file_path": "main.go"})),
		llmtest.Reply("The main file is main.go"),
		llmtest.Reply("The sub-agent found main.go."),
	)
	tt.sb.Write(t, "main.go", "package main\n")
	tt.start()
	tt.ready()
	tt.prompt("delegate it")
	s := tt.waitFor("Agent(explore the code)", "Done (2 tool uses · ", "The sub-agent found main.go.")
	for _, bad := range []string{"<usage>", "agentId:", "total_tokens"} {
		if strings.Contains(s, bad) {
			t.Fatalf("the screen shows %q:\n%s", bad, s)
		}
	}
}

// /agents lists the sub-agents, built-in and from .claude/agents, with
// where each comes from; it used to be an unknown command.
func TestQA3AgentsCommandListsTheSubAgents(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, ".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews code changes\ntools: Read, Grep\nmodel: sonnet\n---\nYou review code.\n")
	tt.start()
	tt.ready()
	tt.typeText("/age")
	tt.waitFor("/agents", "List the sub-agents")
	tt.keys("Enter")
	s := tt.waitFor("general-purpose  (built-in)", "reviewer  (project, .claude/agents/reviewer.md)", "Reviews code changes", "model: sonnet · tools: Read, Grep")
	if strings.Contains(s, "Unknown command") {
		t.Fatalf("/agents is unknown:\n%s", s)
	}
	if n := len(tt.srv.Requests()); n != 0 {
		t.Fatalf("%d model requests for /agents", n)
	}
}

// The permission dialog for a large Write fits a 30-row terminal: its
// title and file name stay on screen (the diff is cut shorter), and
// ctrl+o shows the whole diff, esc coming back to the question. The
// dialog used to be taller than the terminal, its top cut off.
func TestQA3LargeWriteDialogFitsTheTerminalAndCtrlOShowsAll(t *testing.T) {
	tt := newTerm(t)
	var content strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&content, "row %d of the new file\n", i)
	}
	target := tt.sb.Dir + "/big.txt"
	tt.srv.Add(
		llmtest.Calls(llmtest.Text("Writing it."), llmtest.ToolUse("w1", "Write", map[string]any{"file_path": target, "content": content.String()})),
		llmtest.Reply("wrote the big file"),
	)
	tt.start()
	tt.run("resize-window", "-t", "main", "-x", "100", "-y", "30")
	tt.ready()
	tt.prompt("write a big file")
	tt.waitUntil("the whole dialog on screen", func(string) bool {
		v := tt.visible()
		return strings.Contains(v, "── Create file") && strings.Contains(v, "big.txt") &&
			strings.Contains(v, "Do you want to create big.txt?") && strings.Contains(v, "3. No")
	})
	tt.keys("C-o")
	tt.waitUntil("the whole diff", func(string) bool { return strings.Contains(tt.visible(), "row 100 of the new file") })
	tt.keys("Escape")
	tt.waitUntil("the question again", func(string) bool { return strings.Contains(tt.visible(), "Do you want to create big.txt?") })
	tt.keys("1")
	tt.waitFor("wrote the big file")
	if data, err := os.ReadFile(target); err != nil || string(data) != content.String() {
		t.Fatalf("big.txt = %d bytes (%v)", len(data), err)
	}
}

// A resumed conversation longer than a screen is printed whole at start:
// printing it in pieces before the first frame was drawn left only the
// last piece on screen.
func TestQA3ContinuePrintsTheWholeResumedConversation(t *testing.T) {
	var lines []string
	for i := 1; i <= 45; i++ {
		lines = append(lines, fmt.Sprintf("- entry %d end", i))
	}
	tt := newTerm(t, llmtest.Reply("First line of the answer.\n\n"+strings.Join(lines, "\n")+"\n\nLast line of the answer."))
	tt.start()
	tt.ready()
	tt.prompt("make a long answer")
	tt.waitFor("Last line of the answer.")
	tt.keys("C-c", "C-c")
	tt.waitFor("[reins exited 0]")

	tt.start("--continue")
	s := tt.waitFor("> make a long answer", "Last line of the answer.", `Try "explain this project"`)
	for _, want := range []string{"First line of the answer.", "entry 1 end", "entry 23 end", "entry 45 end"} {
		if n := count(s, want); n != 1 {
			t.Fatalf("%q is on screen %d times, want once:\n%s", want, n, s)
		}
	}
}

// A "!" command run while the model works shows its output and reaches
// the model after the turn: it used to be queued as a user message,
// which stopped the model's running Bash call and showed the command a
// second time as a prompt.
func TestQA3BangCommandDuringATurnDoesNotInterruptIt(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("s1", "Bash", map[string]any{"command": "sleep 3 && echo slept", "description": "wait"})),
		llmtest.Reply("the wait is over"),
		llmtest.Reply("saw the shell output"),
	)
	tt.sb.Write(t, ".claude/settings.json", `{"permissions":{"allow":["Bash(sleep *)"]}}`)
	tt.start()
	tt.ready()
	tt.prompt("wait a bit")
	tt.waitFor("Bash(sleep 3 && echo slept)", "esc to interrupt")
	tt.prompt("!echo from the bang")
	tt.waitFor("⎿  from the bang")
	// Wait for the turn's end to be drawn: the reply is printed a frame
	// before the live area (still showing the ! run) is redrawn.
	// The screen is read once the idle input is up, in a capture taken
	// after that: a capture taken before the check could still hold the
	// busy frame.
	tt.waitUntil("the reply and an idle input", func(s string) bool {
		return strings.Contains(s, "the wait is over") && strings.Contains(tt.visible(), `Try "explain this project"`)
	})
	s := tt.screen()
	if n := count(s, "echo from the bang"); n != 1 {
		t.Fatalf("the ! command is on screen %d times, want once:\n%s", n, s)
	}
	res := tt.requests(2)[1].ToolResults()
	if len(res) != 1 || res[0].IsError || !strings.Contains(res[0].ResultText(), "slept") {
		t.Fatalf("the model's Bash call did not finish: %+v", res)
	}
	tt.prompt("what did I run?")
	tt.waitFor("saw the shell output")
	if h := messageTexts(tt.requests(3)[2]); !strings.Contains(h, "<bash-input>echo from the bang</bash-input>") ||
		!strings.Contains(h, "<bash-stdout>from the bang</bash-stdout>") {
		t.Fatalf("the shell run did not reach the model:\n%s", h)
	}
}

// A plan taller than the terminal shows its beginning in the approval
// dialog, says how much more there is, and ctrl+o shows it whole; the
// dialog used to show only the plan's last lines, with no way to read
// the start before approving.
func TestQA3LongPlanShowsItsStartAndCtrlOShowsAll(t *testing.T) {
	var steps []string
	for i := 1; i <= 40; i++ {
		steps = append(steps, fmt.Sprintf("%d. Step number %d", i, i))
	}
	plan := "Opening summary of the plan.\n\n" + strings.Join(steps, "\n") + "\n\nClosing line of the plan."
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("p1", "ExitPlanMode", map[string]any{"plan": plan})),
		llmtest.Reply("plan approved, starting"),
	)
	tt.start("--permission-mode", "plan")
	tt.run("resize-window", "-t", "main", "-x", "100", "-y", "30")
	tt.ready()
	tt.prompt("plan the work")
	tt.waitUntil("the plan's start and the choices", func(string) bool {
		v := tt.visible()
		return strings.Contains(v, "Opening summary of the plan.") && strings.Contains(v, "ctrl+o to read the whole plan") &&
			strings.Contains(v, "Would you like to proceed?") && strings.Contains(v, "4. No, keep planning")
	})
	tt.keys("C-o")
	tt.waitUntil("the plan's end", func(string) bool { return strings.Contains(tt.visible(), "Closing line of the plan.") })
	tt.keys("Escape")
	tt.waitUntil("the choices again", func(string) bool { return strings.Contains(tt.visible(), "Would you like to proceed?") })
	tt.keys("2")
	tt.waitFor("plan approved, starting")
}

// /compact shows what was typed, like every other command, so its notes
// do not read as part of the reply above.
func TestQA3CompactEchoesTheCommand(t *testing.T) {
	summary := llmtest.Reply("<summary>The user asked; the assistant answered.</summary>")
	summary.Side = true
	tt := newTerm(t, llmtest.Reply("first answer"), summary)
	tt.start()
	tt.ready()
	tt.prompt("first question")
	tt.waitFor("● first answer")
	tt.prompt("/compact keep the names")
	s := tt.waitFor("Conversation compacted")
	if !strings.Contains(s, "> /compact keep the names") {
		t.Fatalf("the command is not shown:\n%s", s)
	}
}

// A "!" command run during a turn that ends with reins exiting is still
// kept in the conversation's transcript.
func TestQA3BangCommandDuringTheLastTurnIsKeptOnExit(t *testing.T) {
	tt := newTerm(t, llmtest.Calls(llmtest.ToolUse("s1", "Bash", map[string]any{"command": "sleep 30", "description": "wait"})))
	tt.sb.Write(t, ".claude/settings.json", `{"permissions":{"allow":["Bash(sleep *)"]}}`)
	tt.start()
	tt.ready()
	tt.prompt("wait long")
	tt.waitFor("Bash(sleep 30)", "esc to interrupt")
	tt.prompt("!echo kept on exit")
	tt.waitFor("⎿  kept on exit")
	tt.keys("C-c", "C-c")
	tt.waitFor("[reins exited 0]")
	var all string
	for _, f := range tt.sb.Transcripts(t) {
		data, _ := os.ReadFile(f)
		all += string(data)
	}
	if !strings.Contains(all, "<bash-input>echo kept on exit</bash-input>") {
		t.Fatalf("the shell run is not in the transcript:\n%s", all)
	}
}

// reins --resume without a session id opens the list of earlier
// conversations, as Claude Code does; it used to start a new one.
func TestQA3ResumeFlagWithoutIDOpensThePicker(t *testing.T) {
	again := llmtest.Reply("continued where we left off")
	tt := newTerm(t, llmtest.Reply("the first answer"), again)
	tt.start()
	tt.ready()
	tt.prompt("the earlier question")
	tt.waitFor("the first answer")
	tt.keys("C-c", "C-c")
	tt.waitFor("[reins exited 0]")

	tt.start("--resume")
	tt.waitFor("Resume a conversation", "the earlier question")
	tt.keys("Enter")
	tt.waitFor("Resumed: the earlier question")
	tt.prompt("and now?")
	tt.waitFor("continued where we left off")
	if h := messageTexts(tt.requests(2)[1]); !strings.Contains(h, "the earlier question") || !strings.Contains(h, "the first answer") {
		t.Fatalf("the resumed history did not reach the model:\n%s", h)
	}
}

// Esc while a slow UserPromptSubmit hook runs stops it and puts the
// prompt back in the input; the spinner offered "esc to interrupt" but
// Esc did nothing until the hook ended.
func TestQA3EscStopsASlowPromptHook(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("sent after all"))
	tt.sb.Write(t, ".claude/settings.json", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"sleep 30"}]}]}}`)
	tt.start()
	tt.ready()
	tt.prompt("a prompt held by the hook")
	tt.waitFor("Sending…", "esc to interrupt")
	tt.keys("Escape")
	tt.waitUntil("the prompt back in the input", func(string) bool {
		v := tt.visible()
		return strings.Contains(v, "> a prompt held by the hook") && !strings.Contains(v, "Sending…")
	})
	if n := len(tt.srv.Requests()); n != 0 {
		t.Fatalf("%d model requests for an interrupted prompt", n)
	}
}

// Esc stops a custom command whose text runs a slow !`command`.
func TestQA3EscStopsASlowCustomCommand(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, ".claude/commands/slow.md", "---\nallowed-tools: Bash(sleep:*)\n---\nStatus: !`sleep 30`\n")
	tt.start()
	tt.ready()
	tt.prompt("/slow")
	tt.waitFor("Running /slow…", "esc to interrupt")
	tt.keys("Escape")
	tt.waitUntil("the command stopped", func(s string) bool {
		return strings.Contains(s, "Interrupted") && !strings.Contains(tt.visible(), "Running /slow…")
	})
	if n := len(tt.srv.Requests()); n != 0 {
		t.Fatalf("%d model requests for an interrupted command", n)
	}
}

// In a terminal too short for the live area (a permission dialog in 16
// rows), the live area loses its top lines instead of scrolling the
// terminal on each redraw, which left copies of the dialog in the
// scrollback.
func TestQA3TallLiveAreaInAShortTerminalLeavesNoCopies(t *testing.T) {
	tt := newTerm(t)
	var content strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&content, "row %d\n", i)
	}
	tt.srv.Add(
		llmtest.Calls(llmtest.Text("Writing it."), llmtest.ToolUse("w1", "Write", map[string]any{"file_path": tt.sb.Dir + "/big.txt", "content": content.String()})),
		llmtest.Reply("wrote the file"),
	)
	tt.start()
	tt.run("resize-window", "-t", "main", "-x", "80", "-y", "16")
	tt.ready()
	tt.prompt("write it")
	tt.waitFor("Do you want to create big.txt?", "3. No")
	time.Sleep(1500 * time.Millisecond) // a dozen spinner redraws
	if n := count(tt.screen(), "Do you want to create big.txt?"); n != 1 {
		t.Fatalf("the dialog is on screen %d times, want once:\n%s", n, tt.screen())
	}
	tt.keys("1")
	s := tt.waitFor("wrote the file")
	if n := count(s, "Writing it."); n != 1 {
		t.Fatalf("the reply's text is on screen %d times, want once:\n%s", n, s)
	}
}

// Exiting while a reply streams leaves the part received on screen; the
// live area was cleared on exit and the partial reply vanished.
func TestQA3ExitMidStreamKeepsThePartialReply(t *testing.T) {
	var lines []string
	for i := 1; i <= 200; i++ {
		lines = append(lines, fmt.Sprintf("- streamed item %d end", i))
	}
	reply := llmtest.Reply(strings.Join(lines, "\n"))
	reply.Delay = llmtest.Duration(30 * time.Millisecond)
	tt := newTerm(t, reply)
	tt.start()
	tt.ready()
	tt.prompt("stream a lot")
	tt.waitFor("streamed item 12 end", "esc to interrupt")
	tt.keys("C-c", "C-c")
	s := tt.waitFor("[reins exited 0]")
	for _, want := range []string{"streamed item 1 end", "streamed item 12 end"} {
		if n := count(s, want); n != 1 {
			t.Fatalf("%q is on screen %d times after exit, want once:\n%s", want, n, s)
		}
	}
}

// A compaction stopped with esc says so once, under the command.
func TestQA3InterruptedCompactShowsTheCommandOnce(t *testing.T) {
	summary := llmtest.Reply("<summary>a slow summary</summary>")
	summary.Side = true
	summary.Delay = llmtest.Duration(2 * time.Second)
	tt := newTerm(t, llmtest.Reply("first answer"), summary)
	tt.start()
	tt.ready()
	tt.prompt("first question")
	tt.waitFor("● first answer")
	tt.prompt("/compact")
	tt.waitFor("Compacting", "esc to interrupt")
	tt.keys("Escape")
	s := tt.waitFor("Compaction failed")
	if n := count(s, "> /compact"); n != 1 {
		t.Fatalf("the command is on screen %d times, want once:\n%s", n, s)
	}
}
