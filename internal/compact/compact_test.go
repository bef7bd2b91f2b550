package compact

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/session"
	"reins/internal/tool"
)

func TestLimitsForSpecVectors(t *testing.T) {
	big := llm.ModelInfo{ContextWindow: 200_000, MaxOutput: 64_000}
	for _, tc := range []struct {
		name string
		info llm.ModelInfo
		env  map[string]string
		want Limits
	}{
		{"200k window", big, nil, Limits{Window: 200_000, Effective: 180_000, Threshold: 167_000, Blocking: 177_000}},
		{"pct 50", big, map[string]string{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"}, Limits{200_000, 180_000, 90_000, 177_000}},
		{"pct 70 via reins name", big, map[string]string{"REINS_AUTOCOMPACT_PCT": "70"}, Limits{200_000, 180_000, 126_000, 177_000}},
		{"pct 99 cannot raise", big, map[string]string{"REINS_AUTOCOMPACT_PCT": "99"}, Limits{200_000, 180_000, 167_000, 177_000}},
		{"pct over 100 ignored", big, map[string]string{"REINS_AUTOCOMPACT_PCT": "150"}, Limits{200_000, 180_000, 167_000, 177_000}},
		{"pct nonsense ignored", big, map[string]string{"REINS_AUTOCOMPACT_PCT": "abc"}, Limits{200_000, 180_000, 167_000, 177_000}},
		{"smaller window", big, map[string]string{"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "100000"}, Limits{100_000, 80_000, 67_000, 77_000}},
		{"larger window ignored", big, map[string]string{"REINS_AUTO_COMPACT_WINDOW": "900000"}, Limits{200_000, 180_000, 167_000, 177_000}},
		{"small output cap", llm.ModelInfo{ContextWindow: 200_000, MaxOutput: 8_000}, nil, Limits{200_000, 192_000, 179_000, 189_000}},
		{"1M window", llm.ModelInfo{ContextWindow: 1_000_000, MaxOutput: 128_000}, nil, Limits{1_000_000, 980_000, 967_000, 977_000}},
	} {
		got := LimitsFor(tc.info, func(k string) string { return tc.env[k] })
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func asst(id string, u *llm.Usage, blocks ...llm.ContentBlock) *llm.Message {
	return &llm.Message{Role: llm.RoleAssistant, ID: id, Usage: u, Content: blocks}
}

func toolUse(id, name, input string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockToolUse, ID: id, Name: name, Input: []byte(input)}
}

func result(id, text string) *llm.Message {
	return &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(text)}, false)}}
}

func TestContextTokensAnchorsAtTheFirstPartOfAResponse(t *testing.T) {
	u := &llm.Usage{InputTokens: 1000, CacheReadInputTokens: 500, OutputTokens: 20}
	tr1, tr2 := result("a", strings.Repeat("x", 400)), result("b", strings.Repeat("y", 800))
	partB := asst("A", u, toolUse("b", "Read", `{}`))
	msgs := []*llm.Message{llm.NewUserText("q"), asst("A", u, toolUse("a", "Read", `{}`)), tr1, partB, tr2}
	want := u.ContextTokens() + EstimateMessage(tr1) + EstimateMessage(partB) + EstimateMessage(tr2)
	if got := ContextTokens(msgs, 999); got != want {
		t.Errorf("ContextTokens = %d, want %d (usage plus everything after the first part)", got, want)
	}
	noUsage := []*llm.Message{llm.NewUserText(strings.Repeat("z", 400))}
	if got := ContextTokens(noUsage, 50); got != EstimateMessage(noUsage[0])+50 {
		t.Errorf("without usage = %d", got)
	}
}

func TestEstimateMessage(t *testing.T) {
	m := &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
		llm.TextBlock(strings.Repeat("a", 400)),                                        // 100
		{Type: llm.BlockImage, Source: &llm.Source{Data: "huge"}},                      // 2000
		toolUse("x", "Bash", strings.Repeat("b", 196)),                                 // (4+196)/2 = 100
		llm.ToolResultBlock("x", []llm.ContentBlock{{Type: llm.BlockDocument}}, false), // 4 + 2000
	}}
	if got, want := EstimateMessage(m), 4+100+2000+100+4+2000; got != want {
		t.Errorf("EstimateMessage = %d, want %d", got, want)
	}
}

func items(msgs ...*llm.Message) []engine.HistoryItem {
	out := make([]engine.HistoryItem, len(msgs))
	for i, m := range msgs {
		out[i] = engine.HistoryItem{UUID: fmt.Sprint("u", i), Message: m}
	}
	return out
}

func TestMicrocompactKeepsTheNewestAndIsIdempotent(t *testing.T) {
	var msgs []*llm.Message
	for i := range 7 {
		id := fmt.Sprint("t", i)
		msgs = append(msgs, asst(fmt.Sprint("m", i), nil, toolUse(id, "Read", `{}`)), result(id, "content of "+id))
	}
	msgs = append(msgs, asst("n", nil, toolUse("keep", "TodoWrite", `{}`)), result("keep", "todo result"))
	in := items(msgs...)
	out, n, _ := Microcompact(in, 5)
	if n != 2 {
		t.Fatalf("cleared %d results, want 2", n)
	}
	for i, it := range out {
		for _, b := range it.Message.Content {
			if b.Type != llm.BlockToolResult {
				continue
			}
			cleared := b.ResultText() == ClearedText
			wantCleared := b.ToolUseID == "t0" || b.ToolUseID == "t1"
			if cleared != wantCleared {
				t.Errorf("result %s cleared=%v, want %v", b.ToolUseID, cleared, wantCleared)
			}
		}
		if it.UUID != in[i].UUID {
			t.Errorf("item %d changed uuid", i)
		}
	}
	if in[1].Message.Content[0].ResultText() != "content of t0" {
		t.Error("the input history was changed in place")
	}
	if out[5].Message != in[5].Message {
		t.Error("an untouched message was copied")
	}
	again, n2, _ := Microcompact(out, 5)
	if n2 != 0 || &again[0] != &out[0] {
		t.Errorf("second run cleared %d results; want an unchanged history", n2)
	}
}

func TestExtractSummary(t *testing.T) {
	for in, want := range map[string]string{
		"<analysis>think</analysis>\n<summary>\nS\n</summary>": "S",
		"<summary>only</summary>":                              "only",
		"plain text summary":                                   "plain text summary",
		"<analysis>a</analysis>rest":                           "rest",
		"<analysis>never closed":                               "",
		"<summary>cut off at the end":                          "cut off at the end",
	} {
		if got := extractSummary(in); got != want {
			t.Errorf("extractSummary(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTokenGap(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &llm.APIError{Status: 400, Message: "prompt is too long: 210000 tokens > 200000 maximum"})
	if got := tokenGap(err); got != 10_000 {
		t.Errorf("tokenGap = %d", got)
	}
	if got := tokenGap(errors.New("prompt is too long")); got != 0 {
		t.Errorf("tokenGap of a plain error = %d", got)
	}
}

// roundsOf makes n API rounds of a user prompt and a reply of size chars.
func roundsOf(n, size int) []*llm.Message {
	var msgs []*llm.Message
	for i := range n {
		msgs = append(msgs, llm.NewUserText(fmt.Sprint("q", i)), asst(fmt.Sprint("m", i), nil, llm.TextBlock(strings.Repeat("r", size))))
	}
	return msgs
}

func TestDropOldestRounds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rounds int
		gap    int
		drop   int // rounds dropped
		ok     bool
	}{
		{"10 rounds, no gap: a fifth", 10, 0, 2, true},
		{"3 rounds, no gap: one", 3, 0, 1, true},
		// Round 0 is the first prompt alone (~5 tokens); each later round is
		// a reply (~254 tokens) and the next prompt, so 500 takes three.
		{"gap covered by three rounds", 10, 500, 3, true},
		{"gap beyond all rounds", 3, 1_000_000, 0, false},
		{"a lone prompt cannot drop", 0, 0, 0, false},
	} {
		msgs := roundsOf(tc.rounds, 1000)
		if tc.rounds == 0 {
			msgs = []*llm.Message{llm.NewUserText("only")}
		}
		got, ok := dropOldestRounds(msgs, tc.gap)
		if ok != tc.ok {
			t.Errorf("%s: ok=%v", tc.name, ok)
			continue
		}
		if !ok {
			continue
		}
		// rounds() puts the first prompt alone in round 0, so round k
		// starts at assistant k-1.
		if got[0].Role != llm.RoleUser || got[0].Text() != mustText("ptl-marker.md") {
			t.Errorf("%s: history does not start with the marker: %q", tc.name, got[0].Text())
		}
		if want := len(msgs) - (2*tc.drop - 1) + 1; len(got) != want {
			t.Errorf("%s: %d messages left, want %d", tc.name, len(got), want)
		}
		// A second drop does not count the old marker as a round.
		again, ok := dropOldestRounds(got, 0)
		if ok && again[0].Text() == mustText("ptl-marker.md") && again[1].Text() == mustText("ptl-marker.md") {
			t.Errorf("%s: markers pile up", tc.name)
		}
	}
}

func TestRoundsNeverSplitAToolCallFromItsResult(t *testing.T) {
	msgs := []*llm.Message{llm.NewUserText("q"), asst("A", nil, toolUse("a", "Read", `{}`)), result("a", "r"),
		asst("A", nil, toolUse("b", "Read", `{}`)), result("b", "r"), asst("B", nil, llm.TextBlock("done"))}
	rs := rounds(msgs)
	if len(rs) != 3 || len(rs[1]) != 4 || rs[2][0].ID != "B" {
		t.Fatalf("rounds = %v", rs)
	}
}

// The CLI converts resumed transcript items and budget decisions
// directly: session.Item must stay convertible to engine.HistoryItem.
func TestResumeTypesConvert(t *testing.T) {
	it := session.Item{UUID: "u", Message: llm.NewUserText("x"), Meta: true, Summary: true}
	h := engine.HistoryItem(it)
	if h.UUID != "u" || !h.Meta || !h.Summary || h.Message != it.Message {
		t.Errorf("converted item = %+v", h)
	}
	r := tool.Replacement(session.Replacement{ToolUseID: "t", Text: "r"})
	if r.ToolUseID != "t" || r.Text != "r" {
		t.Errorf("converted replacement = %+v", r)
	}
}
