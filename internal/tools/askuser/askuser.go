package askuser

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"reins/internal/tool"
)

// Name is the tool's name.
const Name = "AskUserQuestion"

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

// Option is one choice of a question.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview,omitempty"`
}

// Question is one question, with Claude Code's field names.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header"`
	Options     []Option `json:"options"`
	MultiSelect bool     `json:"multiSelect"`
}

// Annotation is a front end's note on one answer.
type Annotation struct {
	Preview string `json:"preview,omitempty"`
	Notes   string `json:"notes,omitempty"`
}

// Input is the tool's input. Answers and Annotations are filled in by the
// front end that asked the user.
type Input struct {
	Questions   []Question            `json:"questions"`
	Answers     map[string]string     `json:"answers,omitempty"`
	Annotations map[string]Annotation `json:"annotations,omitempty"`
	Metadata    *struct {
		Source string `json:"source,omitempty"`
	} `json:"metadata,omitempty"`
}

// Output is the structured result (tool_use_result).
type Output struct {
	Questions []Question        `json:"questions"`
	Answers   map[string]string `json:"answers"`
}

// Tool is the AskUserQuestion tool. It is stateless.
type Tool struct {
	tool.Defaults
}

// New returns the tool.
func New() *Tool { return &Tool{} }

// Name returns "AskUserQuestion".
func (*Tool) Name() string { return Name }

// Description returns the tool description.
func (*Tool) Description() string { return description }

// InputSchema returns the JSON Schema of Input.
func (*Tool) InputSchema() json.RawMessage { return schema }

// IsReadOnly reports true: asking changes nothing.
func (*Tool) IsReadOnly(json.RawMessage) bool { return true }

// RequiresUserInteraction reports true: a gate must put every call to the
// user (through its Asker), whatever the permission mode.
func (*Tool) RequiresUserInteraction() bool { return true }

// Parse decodes and checks an input.
func Parse(raw json.RawMessage) (*Input, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("input is not valid: %w", err)
	}
	if len(in.Questions) == 0 || len(in.Questions) > 4 {
		return nil, fmt.Errorf("questions: expected 1 to 4 questions, got %d", len(in.Questions))
	}
	seen := map[string]bool{}
	for i, q := range in.Questions {
		if strings.TrimSpace(q.Question) == "" {
			return nil, fmt.Errorf("questions[%d].question: must not be empty", i)
		}
		if seen[q.Question] {
			return nil, fmt.Errorf("questions[%d].question: %q is asked twice; each question must be different", i, q.Question)
		}
		seen[q.Question] = true
		if len(q.Options) < 2 || len(q.Options) > 4 {
			return nil, fmt.Errorf("questions[%d].options: expected 2 to 4 options, got %d", i, len(q.Options))
		}
		labels := map[string]bool{}
		for j, o := range q.Options {
			if strings.TrimSpace(o.Label) == "" {
				return nil, fmt.Errorf("questions[%d].options[%d].label: must not be empty", i, j)
			}
			if labels[o.Label] {
				return nil, fmt.Errorf("questions[%d].options[%d].label: %q appears twice", i, j, o.Label)
			}
			labels[o.Label] = true
		}
	}
	return &in, nil
}

// Validate checks the questions.
func (*Tool) Validate(_ context.Context, _ *tool.Call, raw json.RawMessage) error {
	_, err := Parse(raw)
	return err
}

// ErrNotAnswered is the error of a call that reached the tool without
// answers.
var ErrNotAnswered = errors.New("the user could not be asked: no one can answer questions in this mode; continue with your best judgement and say what you assumed")

// Call reports the answers the front end put in the input.
func (*Tool) Call(_ context.Context, _ *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	in, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	if len(in.Answers) == 0 {
		return nil, ErrNotAnswered
	}
	var b strings.Builder
	b.WriteString("The user answered your questions:\n")
	for _, q := range in.Questions {
		a, ok := in.Answers[q.Question]
		if !ok || a == "" {
			a = "(no answer)"
		}
		fmt.Fprintf(&b, "- %s → %s\n", q.Question, a)
		if n := in.Annotations[q.Question].Notes; n != "" {
			fmt.Fprintf(&b, "  Notes: %s\n", n)
		}
	}
	b.WriteString("Go on with these answers in mind.")
	res := tool.Text(b.String())
	res.Data = Output{Questions: in.Questions, Answers: in.Answers}
	return res, nil
}

// WithAnswers returns raw with the answers map set, as a front end sends
// it back in Answer.UpdatedInput.
func WithAnswers(raw json.RawMessage, answers map[string]string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("add answers: input is not an object: %w", err)
	}
	b, err := json.Marshal(answers)
	if err != nil {
		return nil, fmt.Errorf("add answers: %w", err)
	}
	m["answers"] = b
	return json.Marshal(m)
}
