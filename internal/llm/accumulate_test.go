package llm_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm"
)

func TestAccumulatorAssemblesServerToolInput(t *testing.T) {
	var start llm.ContentBlock
	if err := json.Unmarshal([]byte(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}`), &start); err != nil {
		t.Fatal(err)
	}
	var acc llm.Accumulator
	evs := []llm.Event{
		{Type: llm.EventMessageStart, Message: &llm.Message{ID: "m"}},
		{Type: llm.EventContentBlockStart, Index: 0, Block: &start},
		{Type: llm.EventContentBlockDelta, Index: 0, DeltaType: llm.DeltaInputJSON, Delta: `{"query":`},
		{Type: llm.EventContentBlockDelta, Index: 0, DeltaType: llm.DeltaInputJSON, Delta: `"go sse"}`},
		{Type: llm.EventContentBlockStop, Index: 0},
	}
	var got llm.ContentBlock
	for _, ev := range evs {
		b, done, err := acc.Add(ev)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			got = b
		}
	}
	var obj map[string]any
	json.Unmarshal(got.Raw, &obj)
	if in, _ := obj["input"].(map[string]any); in["query"] != "go sse" || obj["id"] != "srvtoolu_1" {
		t.Errorf("raw block = %s", got.Raw)
	}
}

func TestMessageRoundTripKeepsUnknownBlocksAndMarkup(t *testing.T) {
	in := `{"id":"m1","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"a <b> & c"},{"type":"web_search_tool_result","tool_use_id":"s1","content":[{"type":"web_search_result","url":"https://e.x"}]},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a"}}],"stop_reason":"tool_use"}`
	var m llm.Message
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	// Transcripts are written with HTML escaping off.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&m); err != nil {
		t.Fatal(err)
	}
	out := bytes.TrimSpace(buf.Bytes())
	var a, b any
	json.Unmarshal([]byte(in), &a)
	json.Unmarshal(out, &b)
	if ja, jb := mustJSON(a), mustJSON(b); ja != jb {
		t.Errorf("round trip changed the message:\n%s\n%s", ja, jb)
	}
	if !strings.Contains(string(out), "a <b> & c") {
		t.Errorf("markup escaped: %s", out)
	}
	api, err := m.AppendAPI(nil, false, "")
	if err != nil || !strings.Contains(string(api), `"type":"web_search_tool_result"`) {
		t.Errorf("API encoding %s %v", api, err)
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// A text block with nothing but white space is not part of the message,
// even when it announced an empty citation list: the API refuses such a
// block when the message is sent back.
func TestAccumulatorLeavesOutBlankTextBlocks(t *testing.T) {
	var withCites llm.ContentBlock
	if err := json.Unmarshal([]byte(`{"type":"text","text":"","citations":[]}`), &withCites); err != nil {
		t.Fatal(err)
	}
	empty := llm.TextBlock("")
	use := llm.ContentBlock{Type: llm.BlockToolUse, ID: "toolu_1", Name: "Glob"}
	var acc llm.Accumulator
	evs := []llm.Event{
		{Type: llm.EventMessageStart, Message: &llm.Message{ID: "m"}},
		{Type: llm.EventContentBlockStart, Index: 0, Block: &empty},
		{Type: llm.EventContentBlockDelta, Index: 0, DeltaType: llm.DeltaText, Delta: "\n\n"},
		{Type: llm.EventContentBlockStop, Index: 0},
		{Type: llm.EventContentBlockStart, Index: 1, Block: &withCites},
		{Type: llm.EventContentBlockStop, Index: 1},
		{Type: llm.EventContentBlockStart, Index: 2, Block: &use},
		{Type: llm.EventContentBlockStop, Index: 2},
	}
	for _, ev := range evs {
		if _, _, err := acc.Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	m := acc.Message()
	if len(m.Content) != 1 || m.Content[0].Type != llm.BlockToolUse {
		t.Errorf("content = %+v, want the tool_use alone", m.Content)
	}
}

// An assistant message recorded with blank text blocks (a transcript
// written before they were left out) is sent without them, and the cache
// breakpoint lands on the last block that is sent.
func TestAssistantBlankTextBlocksAreNotSent(t *testing.T) {
	m := &llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		llm.TextBlock(""),
		{Type: llm.BlockToolUse, ID: "toolu_1", Name: "Glob", Input: json.RawMessage(`{}`)},
		llm.TextBlock("\n"),
	}}
	for _, cache := range []bool{false, true} {
		got, err := m.AppendAPI(nil, cache, "")
		if err != nil {
			t.Fatal(err)
		}
		want := `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Glob","input":{}`
		if cache {
			want += `,"cache_control":{"type":"ephemeral"}`
		}
		want += `}]}`
		if string(got) != want {
			t.Errorf("cache %v: encoded\n%s\nwant\n%s", cache, got, want)
		}
	}
}
