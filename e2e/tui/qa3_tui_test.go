package tui

import (
	"fmt"
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
	s := tt.waitUntil("the rendered reply and the input box", func(s string) bool {
		return strings.Contains(s, "That is all.") && !strings.Contains(tt.visible(), "esc to interrupt")
	})
	for i := 1; i <= 60; i++ {
		if n := count(s, fmt.Sprintf("item %d end", i)); n != 1 {
			t.Fatalf("item %d is on screen %d times, want once:\n%s", i, n, s)
		}
	}
	if n := count(s, "Here is the list:"); n != 1 {
		t.Fatalf("the reply's first line is on screen %d times:\n%s", n, s)
	}
}
