package sdk

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/streamjson"
	"reins/internal/tool"
)

// StructuredToolName is the tool the model calls to give structured output
// (--json-schema).
const StructuredToolName = "StructuredOutput"

var (
	//go:embed structured_description.md
	structuredDescription string
	//go:embed structured_reminder.md
	structuredReminder string
	//go:embed structured_received.md
	structuredReceived string
)

// ParseSchema checks a --json-schema value: a JSON object that is a valid
// JSON Schema. The error says what is wrong.
func ParseSchema(raw json.RawMessage) error {
	_, _, err := compileSchema(raw)
	return err
}

// compileSchema returns the tool input schema for a user schema. Tool
// inputs are objects, so a schema of any other type is wrapped as the
// "result" member of one (wrapped reports it).
func compileSchema(raw json.RawMessage) (json.RawMessage, bool, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false, fmt.Errorf("the JSON schema must be a JSON object")
	}
	var sc jsonschema.Schema
	if err := json.Unmarshal(raw, &sc); err != nil {
		return nil, false, fmt.Errorf("the JSON schema is not valid: %v", err)
	}
	if _, err := sc.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: false}); err != nil {
		return nil, false, fmt.Errorf("the JSON schema is not valid: %v", err)
	}
	var tree any
	json.Unmarshal(raw, &tree)
	if err := checkTypes(tree, "schema"); err != nil {
		return nil, false, fmt.Errorf("the JSON schema is not valid: %v", err)
	}
	if sc.Type == "object" || (sc.Type == "" && len(sc.Types) == 0 && sc.Properties != nil) {
		return append(json.RawMessage(nil), raw...), false, nil
	}
	wrapped, err := json.Marshal(map[string]any{"type": "object", "properties": map[string]json.RawMessage{"result": raw},
		"required": []string{"result"}, "additionalProperties": false})
	return wrapped, true, err
}

// jsonTypes are the type names JSON Schema knows.
var jsonTypes = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "string": true, "integer": true}

// checkTypes finds a "type" that names no JSON Schema type ("objekt"),
// which the schema library accepts and the API would refuse on every
// request. Values that are data, not schemas (enum, const, default,
// examples), are not looked into; at says where v is.
func checkTypes(v any, at string) error {
	switch v := v.(type) {
	case map[string]any:
		for k, sub := range v {
			switch k {
			case "enum", "const", "default", "examples":
				continue
			case "type":
				names, _ := sub.([]any)
				if s, ok := sub.(string); ok {
					names = []any{s}
				}
				for _, n := range names {
					if s, ok := n.(string); ok && !jsonTypes[s] {
						return fmt.Errorf("%s.type: %q is not a JSON Schema type (null, boolean, object, array, number, string, integer)", at, s)
					}
				}
				if _, ok := sub.(map[string]any); !ok {
					continue
				}
			}
			if err := checkTypes(sub, at+"."+k); err != nil {
				return err
			}
		}
	case []any:
		for i, sub := range v {
			if err := checkTypes(sub, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// structuredTool is the StructuredOutput tool. It keeps the last valid
// input of the running turn.
type structuredTool struct {
	tool.Defaults
	schema  json.RawMessage
	wrapped bool

	mu    sync.Mutex // guards value and set
	value json.RawMessage
	set   bool
}

func newStructuredTool(raw json.RawMessage) (*structuredTool, error) {
	schema, wrapped, err := compileSchema(raw)
	if err != nil {
		return nil, err
	}
	return &structuredTool{schema: schema, wrapped: wrapped}, nil
}

func (t *structuredTool) Name() string { return StructuredToolName }

func (t *structuredTool) Description() string { return strings.TrimSpace(structuredDescription) }

func (t *structuredTool) InputSchema() json.RawMessage { return t.schema }

// IsReadOnly reports true: the call only records its input.
func (t *structuredTool) IsReadOnly(json.RawMessage) bool { return true }

// IsConcurrencySafe reports true.
func (t *structuredTool) IsConcurrencySafe(json.RawMessage) bool { return true }

// Call records the input (already checked against the schema).
func (t *structuredTool) Call(_ context.Context, _ *tool.Call, input json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	v := input
	if t.wrapped {
		var w struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(input, &w); err != nil {
			return nil, fmt.Errorf("read structured output: %w", err)
		}
		v = w.Result
	}
	t.mu.Lock()
	t.value, t.set = append(json.RawMessage(nil), v...), true
	t.mu.Unlock()
	// As in Claude Code, the call ends the turn: the model is not asked
	// again once it has given the output (see finishStructured).
	text := strings.TrimSpace(structuredReceived)
	res := tool.Text(text)
	res.Data = text
	res.StopTurn, res.StopReason = true, structuredStop
	return res, nil
}

// structuredStop is the StopReason of a StructuredOutput call's result:
// it ends the turn the way a hook's continue:false does, and
// finishStructured tells the two apart by it.
const structuredStop = "reins: structured output given"

// finishStructured is the end of a turn in which the model gave the
// structured output v (ok): the turn ended because the StructuredOutput
// call completed it, so it is a completed turn rather than one a hook
// stopped, and its result text is the output as compact JSON, as Claude
// Code's is.
func finishStructured(end *engine.TurnEnd, v json.RawMessage, ok bool) *engine.TurnEnd {
	if !ok {
		return end
	}
	e := *end
	if e.Reason == engine.ReasonStopHook && e.HookReason == structuredStop {
		e.Reason, e.HookReason = engine.ReasonCompleted, ""
	}
	if e.Reason == engine.ReasonCompleted {
		var b bytes.Buffer
		if err := json.Compact(&b, v); err == nil {
			e.Result = b.String()
		} else {
			e.Result = string(v)
		}
	}
	return &e
}

// reset forgets the output of an earlier turn.
func (t *structuredTool) reset() {
	t.mu.Lock()
	t.value, t.set = nil, false
	t.mu.Unlock()
}

// take returns the output recorded in this turn, if any.
func (t *structuredTool) take() (json.RawMessage, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.value, t.set
}

// StructuredOutput is --json-schema for a front end without the SDK
// server (print mode): the StructuredOutput tool to add to every turn, and
// the reminders sent when the model ends a turn without calling it.
type StructuredOutput struct {
	t *structuredTool

	value   json.RawMessage // the output given, when ok
	ok      bool
	checked bool // a completed turn was checked for output
}

// NewStructuredOutput returns the StructuredOutput of a --json-schema
// value; the error says what is wrong with the schema.
func NewStructuredOutput(schema json.RawMessage) (*StructuredOutput, error) {
	t, err := newStructuredTool(schema)
	if err != nil {
		return nil, err
	}
	return &StructuredOutput{t: t}, nil
}

// Tool is the StructuredOutput tool.
func (o *StructuredOutput) Tool() tool.Tool { return o.t }

// Complete takes the end of a turn. While the turn completed without
// structured output it sends the reminder through run, at most
// DefaultMaxStructuredRetries times, and returns the turns' combined end.
func (o *StructuredOutput) Complete(end *engine.TurnEnd, run func(engine.Input) *engine.TurnEnd) *engine.TurnEnd {
	v, ok := o.t.take()
	for retry := 0; !ok && end.Reason == engine.ReasonCompleted && retry < DefaultMaxStructuredRetries; retry++ {
		end = mergeEnds(end, run(engine.Input{Content: []llm.ContentBlock{llm.TextBlock(strings.TrimSpace(structuredReminder))}, Meta: true}))
		v, ok = o.t.take()
	}
	end = finishStructured(end, v, ok)
	o.value, o.ok, o.checked = v, ok, end.Reason == engine.ReasonCompleted
	return end
}

// MergeEnds is the end of two turns run back to back as one: the second
// turn's outcome with both turns' counts, usage, cost and denials, and
// the first's answer if the second gave none.
func MergeEnds(a, b *engine.TurnEnd) *engine.TurnEnd { return mergeEnds(a, b) }

// Apply puts the output into the result line, or, when a completed turn
// gave none, turns the result into error_max_structured_output_retries.
func (o *StructuredOutput) Apply(res *streamjson.Result) {
	switch {
	case o.ok:
		res.StructuredOutput = o.value
	case o.checked:
		res.Subtype, res.IsError, res.Result = streamjson.SubtypeStructuredFail, true, nil
		res.Errors = []string{fmt.Sprintf("the model did not give structured output after %d reminders", DefaultMaxStructuredRetries)}
	}
}
