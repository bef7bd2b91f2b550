package session

import (
	"bytes"
	"os"
	"testing"
)

// FuzzRead feeds arbitrary transcripts to the reader: it must never fail
// or panic on bad content, and what it returns must be a valid history.
func FuzzRead(f *testing.F) {
	sample, err := os.ReadFile("testdata/claude-code-sample.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sample)
	f.Add(sample[:len(sample)/2])
	f.Add([]byte(`{"type":"assistant","uuid":"a","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"X","input":{}}]}}` + "\n" +
		`{"type":"user","uuid":"b","parentUuid":"a","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}`))
	f.Add([]byte(`{"type":"system","subtype":"compact_boundary","uuid":"c","parentUuid":"c"}` + "\n" +
		`{"type":"user","uuid":"d","parentUuid":"c","isCompactSummary":true,"message":{"role":"user","content":"s"}}`))
	f.Add([]byte(`{"type":"user","uuid":"x","parentUuid":"y","message":{"role":"user","content":"a"}}` + "\n" +
		`{"type":"user","uuid":"y","parentUuid":"x","message":{"role":"user","content":"b"}}`))
	f.Add([]byte("{\"type\":\"todos\",\"todos\":[1]}\n\xff\xfe\n{"))
	// Tool calls the resumed state is read from, results recorded out of
	// call order, a budget replacement, a compaction boundary to walk past
	// and an API error message.
	f.Add([]byte(`{"type":"assistant","uuid":"a","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"x","status":"completed"}]}},{"type":"tool_use","id":"t2","name":"ExitPlanMode","input":{"plan":"p"}}]}}` + "\n" +
		`{"type":"user","uuid":"b","parentUuid":"a","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"ok"}]}}` + "\n" +
		`{"type":"user","uuid":"c","parentUuid":"b","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}` + "\n" +
		`{"type":"tool-result-replacement","replacements":[{"toolUseId":"t1","replacement":"r"}]}` + "\n" +
		`{"type":"system","subtype":"compact_boundary","uuid":"d","logicalParentUuid":"c"}` + "\n" +
		`{"type":"assistant","uuid":"e","parentUuid":"d","isApiErrorMessage":true,"message":{"role":"assistant","content":[{"type":"text","text":"API Error"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Read failed: %v", err)
		}
		checkAnswered(t, tr.Items)
		if len(tr.Items) > 0 && tr.Leaf == "" {
			t.Fatal("items without a leaf")
		}
		for _, w := range tr.Warnings {
			if w.Line < 0 || w.Line > tr.Lines {
				t.Fatalf("warning on line %d of %d", w.Line, tr.Lines)
			}
		}
		for _, it := range tr.Items {
			if it.Message == nil || it.UUID == "" {
				t.Fatalf("bad item %+v", it)
			}
			if _, err := it.Message.AppendAPI(nil, false, ""); err != nil {
				t.Fatalf("item does not encode: %v", err)
			}
		}
	})
}
