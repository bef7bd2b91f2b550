package compact_test

import (
	"context"
	"strings"
	"testing"

	"reins/internal/compact"
	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// runBlocks runs one turn whose input is blocks (an expanded command:
// its header, then its text).
func (e *env) runBlocks(t *testing.T, blocks ...llm.ContentBlock) {
	t.Helper()
	for range e.sess.Run(context.Background(), engine.Input{Content: blocks}) {
	}
}

// The text of a skill invoked before a compaction is given back after it,
// and again after a second compaction; builtins the caller leaves out are
// not, nor is a skill run again in the kept tail.
func TestCompactionRestoresInvokedSkills(t *testing.T) {
	header := func(name string) llm.ContentBlock {
		return llm.TextBlock("<command-message>" + name + "</command-message>\n<command-name>/" + name + "</command-name>\n<command-args></command-args>")
	}
	e := setup(t, t.TempDir(), nil, compact.Config{Skill: func(name string) bool { return name != "init" }},
		mainTurn(llmtest.Reply("deployed"), 100),
		mainTurn(llmtest.Reply("initialised"), 100),
		summaryTurn("<summary>first summary</summary>"),
		mainTurn(llmtest.Reply("next"), 100),
		summaryTurn("<summary>second summary</summary>"),
		mainTurn(llmtest.Reply("after"), 100),
	)
	e.runBlocks(t, header("deploy"), llm.TextBlock("DEPLOY-STEPS: build, push, verify."))
	e.runBlocks(t, header("init"), llm.TextBlock("INIT-BUILTIN-TEXT"))
	if err := e.comp.Compact(context.Background(), e.sess, "", nil); err != nil {
		t.Fatal(err)
	}
	e.run(t, "go on")
	if err := e.comp.Compact(context.Background(), e.sess, "", nil); err != nil {
		t.Fatal(err)
	}
	e.run(t, "and again")
	reqs := e.srv.Requests()
	for _, i := range []int{3, 5} { // the first request after each compaction
		got := allText(reqs[i])
		if strings.Count(got, "DEPLOY-STEPS: build, push, verify.") != 1 || !strings.Contains(got, "Restored skill: /deploy") {
			t.Errorf("request %d does not restore /deploy once:\n%s", i, got)
		}
		if strings.Contains(got, "INIT-BUILTIN-TEXT") {
			t.Errorf("request %d restores the builtin /init", i)
		}
	}
}

// A long skill is cut to MaxTokensPerSkill, keeping its start.
func TestCompactionCutsALongRestoredSkill(t *testing.T) {
	e := setup(t, t.TempDir(), nil, compact.Config{},
		mainTurn(llmtest.Reply("ok"), 100),
		summaryTurn("<summary>s</summary>"),
		mainTurn(llmtest.Reply("after"), 100),
	)
	long := "FIRST-LINE\n" + strings.Repeat("x", compact.MaxTokensPerSkill*4+400)
	e.runBlocks(t, llm.TextBlock("<command-message>big</command-message>\n<command-name>/big</command-name>\n<command-args></command-args>"), llm.TextBlock(long))
	if err := e.comp.Compact(context.Background(), e.sess, "", nil); err != nil {
		t.Fatal(err)
	}
	e.run(t, "go on")
	got := allText(e.srv.Requests()[2])
	if !strings.Contains(got, "FIRST-LINE") || strings.Contains(got, long) || !strings.Contains(got, "was cut") {
		t.Errorf("the long skill was not cut with a note (%d bytes of request text)", len(got))
	}
}
