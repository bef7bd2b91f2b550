package e2e

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// messageTexts is the text of every message a request sent, one entry
// per content block, for assertions that ignore the system prompt.
func messageTexts(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockText {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

// refuseTurn is a prompt-too-long refusal of the requests m matches.
func refuseTurn(m func(*llmtest.Request) bool) llmtest.Turn {
	p := llmtest.PromptTooLong()
	p.Match = m
	return p
}

// goesOnAfterRefusal runs "-c -p three" after a refused prompt "two" and
// checks that the session goes on without it and with what came before.
func goesOnAfterRefusal(t *testing.T, srv *llmtest.Server, sb *e2etest.Sandbox, before string) {
	t.Helper()
	srv.Add(llmtest.Turn{Match: isMain("three"), Blocks: []llmtest.Block{llmtest.Text("third answer")}})
	r := sb.Run(t, "", "-p", "three", "-c", "--model", "sonnet")
	if r.Code != 0 || !strings.Contains(r.Stdout, "third answer") {
		t.Fatalf("the session did not go on after the refused prompt: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	texts := messageTexts(reqs[len(reqs)-1])
	if slicesContain(texts, "two") {
		t.Errorf("the refused prompt is sent again with the next one: %q", texts)
	}
	if !slicesContain(texts, before) {
		t.Errorf("what came before the refused prompt (%q) was lost: %q", before, texts)
	}
}

func slicesContain(texts []string, s string) bool {
	for _, t := range texts {
		if t == s {
			return true
		}
	}
	return false
}

func TestPromptRefusedWhenCompactionCannotHelpIsLeftOutOfTheResumedSession(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	srv.Add(
		llmtest.Turn{Match: isMain("one"), Blocks: []llmtest.Block{llmtest.Text("first answer")}},
		refuseTurn(func(r *llmtest.Request) bool { return !isSum(r) && strings.Contains(r.LastUserText(), "two") }),
		// The summary request is refused too, and again with its oldest
		// round dropped.
		refuseTurn(isSum), refuseTurn(isSum),
	)
	if r := sb.Run(t, "", "-p", "one", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("first run: code %d err %q", r.Code, r.Stderr)
	}
	r := sb.Run(t, "", "-p", "two", "-c", "--model", "sonnet")
	if r.Code == 0 {
		t.Fatalf("a refused prompt succeeded: %q", r.Stdout)
	}
	for _, want := range []string{"prompt is too long", "too long even to summarise", "left out of the conversation", "/clear"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q lacks %q", r.Stderr, want)
		}
	}
	goesOnAfterRefusal(t, srv, sb, "first answer")
}

func TestPromptRefusedAgainAfterCompactionIsLeftOutOfTheResumedSession(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	not := func(r *llmtest.Request) bool { return !isSum(r) && strings.Contains(r.LastUserText(), "two") }
	srv.Add(
		llmtest.Turn{Match: isMain("one"), Blocks: []llmtest.Block{llmtest.Text("first answer")}},
		refuseTurn(not),
		llmtest.Turn{Match: isSum, Side: true, Blocks: []llmtest.Block{llmtest.Text("<summary>SUMMARY-OF-ONE</summary>")}},
		refuseTurn(not),
	)
	if r := sb.Run(t, "", "-p", "one", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("first run: code %d err %q", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "two", "-c", "--model", "sonnet"); r.Code == 0 || !strings.Contains(r.Stderr, "left out of the conversation") {
		t.Fatalf("second run: code %d err %q; want the refusal saying the prompt was left out", r.Code, r.Stderr)
	}
	srv.Add(llmtest.Turn{Match: isMain("three"), ResetPrefix: true, Blocks: []llmtest.Block{llmtest.Text("third answer")}})
	r := sb.Run(t, "", "-p", "three", "-c", "--model", "sonnet")
	if r.Code != 0 || !strings.Contains(r.Stdout, "third answer") {
		t.Fatalf("the session did not go on after the refused prompt: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if slicesContain(messageTexts(last), "two") {
		t.Errorf("the refused prompt is sent again with the next one: %q", messageTexts(last))
	}
	if !strings.Contains(string(last.Body), "SUMMARY-OF-ONE") {
		t.Errorf("the compaction before the refusal was lost: %q", messageTexts(last))
	}
}

func TestFirstPromptRefusedAsTooLongDoesNotBlockTheNextOne(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	srv.Add(refuseTurn(func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), "two") }))
	r := sb.Run(t, "", "-p", "two", "--model", "sonnet")
	if r.Code == 0 || !strings.Contains(r.Stderr, "left out of the conversation") {
		t.Fatalf("code %d err %q; want the refusal saying the prompt was left out", r.Code, r.Stderr)
	}
	srv.Add(llmtest.Turn{Match: isMain("three"), Blocks: []llmtest.Block{llmtest.Text("third answer")}})
	r = sb.Run(t, "", "-p", "three", "-c", "--model", "sonnet")
	if r.Code != 0 || !strings.Contains(r.Stdout, "third answer") {
		t.Fatalf("the session did not go on after the refused prompt: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	if texts := messageTexts(reqs[len(reqs)-1]); slicesContain(texts, "two") {
		t.Errorf("the refused prompt is sent again with the next one: %q", texts)
	}
}
