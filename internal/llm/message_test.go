package llm

import (
	"bytes"
	"encoding/json"
	"testing"
)

// wireReference encodes m the way MarshalJSON did before it was written by
// hand: the wireMessage struct through encoding/json without HTML
// escaping.
func wireReference(t testing.TB, m *Message) []byte {
	t.Helper()
	content := []byte{'['}
	for i := range m.Content {
		if i > 0 {
			content = append(content, ',')
		}
		var err error
		if content, err = m.Content[i].appendJSON(content); err != nil {
			t.Fatal(err)
		}
	}
	content = append(content, ']')
	w := wireMessage{Role: m.Role, Content: content}
	if m.Role == RoleAssistant {
		w.ID, w.Type, w.Model, w.Usage = m.ID, "message", m.Model, m.Usage
		sr, ss := m.StopReason, m.StopSequence
		if sr != "" {
			w.StopReason = &sr
		}
		if ss != "" {
			w.StopSequence = &ss
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func TestMessageJSONMatchesWireForm(t *testing.T) {
	usage := &Usage{InputTokens: 10, OutputTokens: 2, CacheReadInputTokens: 5}
	for name, m := range map[string]*Message{
		"user text":      {Role: RoleUser, Content: []ContentBlock{TextBlock("a <b> & \"c\"\n\t\u2028")}},
		"user results":   {Role: RoleUser, Content: []ContentBlock{ToolResultBlock("toolu_1", []ContentBlock{TextBlock("out")}, true)}},
		"assistant full": {Role: RoleAssistant, ID: "msg_1", Model: "claude-x", StopReason: "tool_use", StopSequence: "END", Usage: usage, Content: []ContentBlock{TextBlock("hi"), {Type: BlockToolUse, ID: "toolu_1", Name: "Read", Input: json.RawMessage(`{"file_path":"/a"}`)}}},
		"assistant bare": {Role: RoleAssistant, Content: []ContentBlock{TextBlock("partial")}},
		"unknown block":  {Role: RoleAssistant, ID: "m", Content: []ContentBlock{{Type: "server_thing", Raw: json.RawMessage(`{"type":"server_thing","x":1}`)}}},
		"empty":          {Role: RoleUser},
	} {
		got, err := m.MarshalJSON()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := wireReference(t, m); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
		// The cached API encoding is shared, so a second call (and a
		// request encoding in between) gives the same bytes.
		if _, err := m.AppendAPI(nil, false, ""); err != nil {
			t.Fatal(err)
		}
		if again, _ := m.MarshalJSON(); !bytes.Equal(again, got) {
			t.Errorf("%s: second encoding differs:\n%s\n%s", name, again, got)
		}
	}
}

func FuzzMessageJSONMatchesWireForm(f *testing.F) {
	f.Add("hello <x>", "msg_1", "claude", "end_turn", "", true)
	f.Add("\x00\xff\u2028", "", "", "", "\n", false)
	f.Fuzz(func(t *testing.T, text, id, model, stop, seq string, assistant bool) {
		m := &Message{Role: RoleUser, Content: []ContentBlock{TextBlock(text)}}
		if assistant {
			m.Role, m.ID, m.Model, m.StopReason, m.StopSequence = RoleAssistant, id, model, stop, seq
		}
		got, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := wireReference(t, m); !bytes.Equal(got, want) {
			t.Fatalf("got %s\nwant %s", got, want)
		}
		var back Message
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("does not decode: %v: %s", err, got)
		}
	})
}
