package compact_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"reins/internal/compact"
	"reins/internal/engine"
	"reins/internal/llm/llmtest"
)

// A first prompt too large for the context window (about 25,000 tokens
// against a 17,000-token limit) is not summarised and answered from the
// summary: the turn ends with an error that gives the prompt's size and
// the limit, nothing is sent, the prompt is in the transcript, and the
// session goes on with the next prompt.
func TestPromptTooLargeAloneEndsTheTurnWithItsSizeAndTheLimit(t *testing.T) {
	e := setup(t, t.TempDir(), nil, compact.Config{},
		mainTurn(llmtest.Reply("small answered"), 600))
	huge := "HUGE-PROMPT " + strings.Repeat("log line\n", 11_000)
	evs, end := e.run(t, huge)
	if end.Reason != engine.ReasonBlockingLimit || !errors.Is(end.Err, engine.ErrBlockingLimit) {
		t.Fatalf("turn ended %s (%v), want the blocking limit", end.Reason, end.Err)
	}
	var ptl *compact.PromptTooLongError
	if !errors.As(end.Err, &ptl) {
		t.Fatalf("error %v is no PromptTooLongError", end.Err)
	}
	msg := end.Err.Error()
	for _, want := range []string{"Prompt is too long: about 24,", "(the prompt is 99,012 bytes)", "more than the 17,000 tokens", "40,000-token context window"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if n := countEvents[*engine.CompactBoundary](evs); n != 0 {
		t.Errorf("%d compactions, want none", n)
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent, want none", n)
	}
	e.writer.Close()
	data, err := os.ReadFile(e.writer.Path())
	if err != nil || !strings.Contains(string(data), "HUGE-PROMPT") {
		t.Errorf("the prompt is not in the transcript (%v)", err)
	}
	// The session is still usable.
	_, end = e.run(t, "a small question")
	if end.Reason != engine.ReasonCompleted || end.Result != "small answered" {
		t.Fatalf("next turn ended %s (%v), result %q", end.Reason, end.Err, end.Result)
	}
	if text := allText(e.srv.Requests()[0]); strings.Contains(text, "HUGE-PROMPT") {
		t.Error("the refused prompt was sent with the next one")
	}
}

// A first prompt past the compaction threshold but within the limit is
// sent as it is: there is nothing before it to summarise, and summarising
// the prompt itself would have the model answer the summary.
func TestLargeFirstPromptIsSentNotSummarised(t *testing.T) {
	e := setup(t, t.TempDir(), nil, compact.Config{},
		mainTurn(llmtest.Reply("read it all"), 9_000))
	big := "BIG-PROMPT " + strings.Repeat("data row\n", 4_000) // ~9,000 tokens
	evs, end := e.run(t, big)
	if end.Reason != engine.ReasonCompleted || end.Result != "read it all" {
		t.Fatalf("turn ended %s (%v), result %q", end.Reason, end.Err, end.Result)
	}
	if n := countEvents[*engine.CompactBoundary](evs); n != 0 {
		t.Errorf("%d compactions, want none", n)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].LastUserText(), big) {
		t.Fatalf("%d requests; the prompt was not sent verbatim", len(reqs))
	}
}

// When the history and a new prompt together pass the threshold, the
// history is summarised and the prompt is kept verbatim after the
// summary, as the last thing the model reads.
func TestAutocompactKeepsTheNewPromptVerbatim(t *testing.T) {
	after := mainTurn(llmtest.Reply("answered the new prompt"), 4_000)
	after.ResetPrefix = true
	e := setup(t, t.TempDir(), nil, compact.Config{},
		mainTurn(llmtest.Reply("first answer"), 6_000),
		summaryTurn("<summary>EARLIER-WORK</summary>"),
		after)
	if _, end := e.run(t, "first question"); end.Reason != engine.ReasonCompleted {
		t.Fatalf("first turn ended %s (%v)", end.Reason, end.Err)
	}
	prompt := "NEW-PROMPT " + strings.Repeat("detail\n", 2_000) // ~3,500 tokens
	evs, end := e.run(t, prompt)
	if end.Reason != engine.ReasonCompleted || end.Result != "answered the new prompt" {
		t.Fatalf("turn ended %s (%v), result %q", end.Reason, end.Err, end.Result)
	}
	if n := countEvents[*engine.CompactBoundary](evs); n != 1 {
		t.Fatalf("%d compactions, want 1", n)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if strings.Contains(allText(reqs[1]), "NEW-PROMPT") {
		t.Error("the new prompt was given to the summary")
	}
	next := reqs[2]
	if !strings.Contains(allText(next), "EARLIER-WORK") || strings.Contains(allText(next), "first question") {
		t.Error("the request after compaction does not carry the summary in place of the history")
	}
	if !strings.Contains(next.LastUserText(), prompt) {
		t.Errorf("the last user message is %q…, want the new prompt verbatim", truncate(next.LastUserText(), 80))
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
