package session

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"reins/internal/llm"
)

// FuzzDecodeAgreesWithLLM checks the fast transcript decoder against the
// llm decoders it stands in for: whenever llm.Message decodes a line's
// message, decodeEntry must give an equal message.
func FuzzDecodeAgreesWithLLM(f *testing.F) {
	for _, s := range []string{
		`{"type":"user","message":{"role":"user","content":"plain string"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"a\\nb \\u00e9 \\ud83d\\ude00 \\ud800 x\\/y","is_error":true}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"x"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}]}]}}`,
		`{"type":"assistant","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"redacted_thinking","data":"d"},{"type":"text","text":"hi","citations":[{"a":1}],"cache_control":{"type":"ephemeral","ttl":"1h"}},{"type":"tool_use","id":"i","name":"n","input":{ "a" : [1, 2] }}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":2}}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"server_tool_use","id":"s","name":"web_search","input":{}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":null},{"type":"tool_result","tool_use_id":"t","content":null},{"type":"tool_result","tool_use_id":"u","content":[]}]}}`,
		`{"type":"user","message":{"role":"user","content":[]}}`,
		`{"type":"user","message":{"role":"user","content":null}}`,
		"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":\"bad \xff utf8\"}]}}",
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":5}]}}`,
		`{"type":"user","message":{"Role":"user","CONTENT":[{"TYPE":"text","Text":"case"}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var ref loadEntry // the slow path: llm's own decoders
		refErr := json.Unmarshal(line, &ref)
		got, err := decodeEntry(line)
		if refErr != nil {
			return // the line is refused either way; only agreement on good lines matters
		}
		if err != nil {
			t.Fatalf("decodeEntry failed where llm succeeded: %v", err)
		}
		if (ref.Message == nil) != (got.Message == nil) {
			t.Fatalf("message presence differs: llm %v, fast %v", ref.Message != nil, got.Message != nil)
		}
		if ref.Message == nil {
			return
		}
		if !reflect.DeepEqual(fields(ref.Message), fields(got.Message)) {
			t.Fatalf("decoders disagree\nllm:  %#v\nfast: %#v", fields(ref.Message), fields(got.Message))
		}
	})
}

type msgFields struct {
	Role                                llm.Role
	ID, Model, StopReason, StopSequence string
	Usage                               *llm.Usage
	Content                             []llm.ContentBlock
}

func fields(m *llm.Message) msgFields {
	return msgFields{m.Role, m.ID, m.Model, m.StopReason, m.StopSequence, m.Usage, m.Content}
}

// FuzzUnquote checks the string decoder against encoding/json.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`""`, `"a"`, `"\n\t\"\\\/\b\f\r"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\udc00\ud800x"`, "\"\xff\xfe\"", `"\u0000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, q []byte) {
		q = bytes.TrimSpace(q) // the decoder hands over the literal alone
		var want string
		if json.Unmarshal(q, &want) != nil || len(q) < 2 || q[0] != '"' {
			return
		}
		if got := unquote(q); got != want {
			t.Fatalf("unquote(%q) = %q, want %q", q, got, want)
		}
	})
}
