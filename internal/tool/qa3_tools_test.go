package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm"
)

// Models often write numbers and booleans as strings ("offset": "10",
// "replace_all": "true"); Claude Code's tools take them. The pipeline
// turns such strings into the type the schema asks for before it
// validates, and the tool gets real numbers and booleans.
func TestPipelineTakesNumbersAndBooleansWrittenAsStrings(t *testing.T) {
	ft := &fakeTool{name: "Read", schema: `{"type":"object","properties":{
		"file_path":{"type":"string"},
		"offset":{"type":"integer"},
		"timeout":{"type":"number"},
		"all":{"type":"boolean"},
		"edits":{"type":"array","items":{"type":"object","properties":{"replace_all":{"type":"boolean"}}}}},
		"required":["file_path"],"additionalProperties":false}`}
	p := &Pipeline{}
	out := p.Run(context.Background(), &Call{ID: "t1", Name: "Read"}, ft,
		json.RawMessage(`{"file_path":"10","offset":"10","timeout":"1500.5","all":"true","edits":[{"replace_all":"false"}]}`))
	if out.IsError {
		t.Fatalf("call refused: %s", out.Block.Content[0].Text)
	}
	var got map[string]any
	if err := json.Unmarshal(out.Input, &got); err != nil {
		t.Fatal(err)
	}
	if got["file_path"] != "10" || got["offset"] != 10.0 || got["timeout"] != 1500.5 || got["all"] != true {
		t.Errorf("input the tool ran with = %s", out.Input)
	}
	if e := got["edits"].([]any)[0].(map[string]any); e["replace_all"] != false {
		t.Errorf("nested boolean not converted: %s", out.Input)
	}
}

// Strings that do not spell a value of the field's type are still
// refused, with the schema's error naming the field.
func TestPipelineRefusesStringsThatAreNotNumbers(t *testing.T) {
	ft := &fakeTool{name: "Read", schema: `{"type":"object","properties":{"offset":{"type":"integer"},"all":{"type":"boolean"}}}`}
	p := &Pipeline{}
	for _, in := range []string{`{"offset":"ten"}`, `{"offset":"1.5"}`, `{"offset":"+3"}`, `{"all":"yes"}`, `{"all":"True"}`} {
		out := p.Run(context.Background(), &Call{ID: "t1", Name: "Read"}, ft, json.RawMessage(in))
		if !out.IsError || !strings.Contains(out.Block.Content[0].Text, "InputValidationError") {
			t.Errorf("%s: %+v, want an input validation error", in, out.Block)
		}
	}
	if ft.calls != 0 {
		t.Errorf("tool ran %d times", ft.calls)
	}
}

// A field that allows strings keeps the model's string as it is.
func TestCoerceLeavesStringFieldsAlone(t *testing.T) {
	var s Schemas
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":["string","integer"]},"b":{"type":"string"},"c":{}}}`)
	in := json.RawMessage(`{"a":"1","b":"2","c":"true"}`)
	if got := s.Coerce(schema, in); string(got) != string(in) {
		t.Errorf("Coerce = %s, want the input unchanged", got)
	}
}

// The executor judges concurrency on the input as the pipeline will run
// it: a read-only call whose number came as a string still runs beside
// other read-only calls.
func TestExecutorSchedulesCoercedInputAsConcurrencySafe(t *testing.T) {
	rd := &fakeTool{name: "Read", readOnly: true, schema: `{"type":"object","properties":{"offset":{"type":"integer"}}}`}
	ex := NewExecutor(context.Background(), ExecConfig{Lookup: func(string) (Tool, bool) { return rd, true }})
	ex.Add(llm.ContentBlock{Type: llm.BlockToolUse, ID: "1", Name: "Read", Input: json.RawMessage(`{"offset":"2"}`)}, nil)
	ex.mu.Lock()
	safe := ex.calls[0].safe
	ex.mu.Unlock()
	ex.Close()
	for !ex.Done() {
		ex.Take()
		if !ex.Done() {
			<-ex.Ready()
		}
	}
	ex.Wait()
	if !safe {
		t.Error(`a read-only call with "offset": "2" is not scheduled as concurrency-safe`)
	}
}

// aliasedTool is a fake tool with an older name.
type aliasedTool struct{ fakeTool }

func (*aliasedTool) Aliases() []string { return []string{"KillShell", "Read"} }

// A tool's older name reaches it (a model calling KillShell gets
// TaskStop), and the call runs under the tool's own name, so permission
// rules and hooks see TaskStop. An alias never hides a tool that has the
// name.
func TestExecutorRunsAnAliasAsTheToolsOwnName(t *testing.T) {
	stop := &aliasedTool{fakeTool{name: "TaskStop"}}
	read := &fakeTool{name: "Read"}
	g := &recordingGate{}
	lookup := NewLookup([]Tool{read, stop})
	if tl, ok := lookup("Read"); !ok || tl != read {
		t.Errorf("Read resolves to %v, want the Read tool", tl)
	}
	outs := runExecutor(t, ExecConfig{Gate: g, Lookup: lookup},
		llm.ContentBlock{Type: llm.BlockToolUse, ID: "1", Name: "KillShell", Input: json.RawMessage(`{"x":"bash_1"}`)})
	if len(outs) != 1 {
		t.Fatalf("%d outcomes", len(outs))
	}
	if outs[0].IsError || !strings.Contains(outs[0].Block.ResultText(), "TaskStop ran") {
		t.Errorf("KillShell call answered %q", outs[0].Block.ResultText())
	}
	if outs[0].Name != "TaskStop" {
		t.Errorf("outcome name %q, want TaskStop", outs[0].Name)
	}
	if got := strings.Join(g.before, ","); got != "TaskStop/TaskStop" {
		t.Errorf("gate asked about %q, want TaskStop", got)
	}
}
