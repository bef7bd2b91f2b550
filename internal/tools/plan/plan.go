package plan

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"reins/internal/tool"
)

// Tool names.
const (
	EnterName = "EnterPlanMode"
	ExitName  = "ExitPlanMode"
)

// ModePlan and ModeDefault are the permission modes the tools set.
const (
	ModePlan    = "plan"
	ModeDefault = "default"
)

//go:embed enter_description.md
var enterDescription string

//go:embed exit_description.md
var exitDescription string

//go:embed enter_schema.json
var enterSchema []byte

//go:embed exit_schema.json
var exitSchema []byte

//go:embed enter_result.md
var enterResult string

//go:embed exit_result.md
var exitResult string

// Mode is the session's permission mode, as the gate holds it. It must be
// safe for concurrent use.
type Mode interface {
	Mode() string
	SetMode(mode string) error
}

// Enter is the EnterPlanMode tool.
type Enter struct {
	tool.Defaults
	mode Mode
}

// NewEnter returns EnterPlanMode switching mode. It panics on a nil mode.
func NewEnter(mode Mode) *Enter {
	if mode == nil {
		panic("plan.NewEnter: nil Mode")
	}
	return &Enter{mode: mode}
}

// Name returns "EnterPlanMode".
func (*Enter) Name() string { return EnterName }

// Description returns the tool description.
func (*Enter) Description() string { return enterDescription }

// InputSchema returns the (empty) input schema.
func (*Enter) InputSchema() json.RawMessage { return enterSchema }

// IsReadOnly reports true: the tool changes no file.
func (*Enter) IsReadOnly(json.RawMessage) bool { return true }

// EnterOutput is EnterPlanMode's structured result.
type EnterOutput struct {
	Message string `json:"message"`
}

// Call switches to plan mode.
func (e *Enter) Call(context.Context, *tool.Call, json.RawMessage, func(tool.Progress)) (*tool.Result, error) {
	if e.mode.Mode() == "bypassPermissions" {
		return nil, errors.New("plan mode is not available while permissions are bypassed; go on without it")
	}
	if err := e.mode.SetMode(ModePlan); err != nil {
		return nil, fmt.Errorf("enter plan mode: %w", err)
	}
	res := tool.Text(strings.TrimSpace(enterResult))
	res.Data = EnterOutput{Message: "Entered plan mode"}
	return res, nil
}

// Exit is the ExitPlanMode tool.
type Exit struct {
	tool.Defaults
	mode Mode
}

// NewExit returns ExitPlanMode. A nil mode leaves mode changes to the gate.
func NewExit(mode Mode) *Exit { return &Exit{mode: mode} }

// Name returns "ExitPlanMode".
func (*Exit) Name() string { return ExitName }

// Description returns the tool description.
func (*Exit) Description() string { return exitDescription }

// InputSchema returns the input schema ({plan}).
func (*Exit) InputSchema() json.RawMessage { return exitSchema }

// IsReadOnly reports true: presenting a plan changes no file.
func (*Exit) IsReadOnly(json.RawMessage) bool { return true }

// RequiresUserInteraction reports true: every call is put to the user.
func (*Exit) RequiresUserInteraction() bool { return true }

// ExitInput is ExitPlanMode's input.
type ExitInput struct {
	Plan string `json:"plan"`
}

// ExitOutput is ExitPlanMode's structured result.
type ExitOutput struct {
	Plan     string `json:"plan"`
	IsAgent  bool   `json:"isAgent"`
	FilePath string `json:"filePath,omitempty"`
}

// ParseExit decodes and checks an ExitPlanMode input.
func ParseExit(raw json.RawMessage) (*ExitInput, error) {
	var in ExitInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("input is not valid: %w", err)
	}
	if strings.TrimSpace(in.Plan) == "" {
		return nil, errors.New("plan: must not be empty; pass the whole plan in Markdown")
	}
	return &in, nil
}

// Validate checks the plan is there and the session is in plan mode:
// outside it there is nothing to approve (a plan already approved, or
// none asked for), and the user is not asked.
func (x *Exit) Validate(_ context.Context, _ *tool.Call, raw json.RawMessage) error {
	if _, err := ParseExit(raw); err != nil {
		return err
	}
	if x.mode != nil && x.mode.Mode() != ModePlan {
		return errors.New("the session is not in plan mode, so there is no plan to approve: ExitPlanMode only presents a plan made in plan mode. If your plan was approved, carry it out; otherwise go on with the task")
	}
	return nil
}

// PlanLeaver is a Mode that remembers the mode in force before plan mode
// was entered: LeavePlan goes back to it.
type PlanLeaver interface {
	LeavePlan() error
}

// Call runs once the user approved the plan: it leaves plan mode (unless
// the approval already chose another mode), for the mode in force before
// plan mode when the Mode remembers it (a PlanLeaver), else for default,
// and tells the model to go on.
func (x *Exit) Call(_ context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	in, err := ParseExit(raw)
	if err != nil {
		return nil, err
	}
	if x.mode != nil && x.mode.Mode() == ModePlan {
		var err error
		if l, ok := x.mode.(PlanLeaver); ok {
			err = l.LeavePlan()
		} else {
			err = x.mode.SetMode(ModeDefault)
		}
		if err != nil {
			return nil, fmt.Errorf("leave plan mode: %w", err)
		}
	}
	res := tool.Text(strings.TrimSpace(exitResult) + "\n\nThe approved plan:\n" + in.Plan)
	res.Data = ExitOutput{Plan: in.Plan, IsAgent: c != nil && c.AgentID != ""}
	return res, nil
}
