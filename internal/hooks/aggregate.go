package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"reins/internal/jsonkind"
)

// Output is what one hook produced.
type Output struct {
	// Name identifies the hook for messages: its command, or a callback
	// id.
	Name     string
	ExitCode int
	// Signal names the signal that killed the hook ("" when it exited).
	Signal string
	Stdout string
	Stderr string
	// TimedOut is set when the hook ran past its timeout and was killed.
	TimedOut bool
	// Err is set when the hook could not be run at all.
	Err      error
	Duration time.Duration
}

// Decision is a permission decision from hooks.
type Decision string

// Decisions, from weakest to strongest when hooks disagree.
const (
	DecisionNone  Decision = ""
	DecisionAllow Decision = "allow"
	DecisionAsk   Decision = "ask"
	// DecisionDefer pauses the call for the program that runs a print-mode
	// session; between ask and deny, as in Claude Code.
	DecisionDefer Decision = "defer"
	DecisionDeny  Decision = "deny"
)

func (d Decision) rank() int {
	switch d {
	case DecisionAllow:
		return 1
	case DecisionAsk:
		return 2
	case DecisionDefer:
		return 3
	case DecisionDeny:
		return 4
	}
	return 0
}

// PermissionAnswer is a PermissionRequest hook's answer to the question
// instead of the user.
type PermissionAnswer struct {
	// Behavior is "allow" or "deny".
	Behavior     string
	UpdatedInput json.RawMessage
	// UpdatedPermissions are permission updates (Claude Code's shape).
	UpdatedPermissions json.RawMessage
	// Message tells the model why it was denied.
	Message   string
	Interrupt bool
}

// ElicitationAnswer is a hook's answer to an MCP server's request for
// input.
type ElicitationAnswer struct {
	// Action is "accept", "decline" or "cancel".
	Action string
	// Content holds the form's values (accept).
	Content map[string]any
}

// Result is the combined answer of the hooks of one event.
type Result struct {
	Event Event
	// Outputs are the hooks' raw outputs, in configuration order.
	Outputs []Output

	// Stop is set when a hook said continue:false: everything stops, and
	// StopReason is shown to the user.
	Stop       bool
	StopReason string
	// Block is set by exit code 2 or decision "block"; Reason is the
	// stderr or the reason given. See the package doc for its effect per
	// event.
	Block  bool
	Reason string
	// Decision is the PreToolUse permission decision (deny beats defer
	// beats ask beats allow) and DecisionReason its explanation.
	Decision       Decision
	DecisionReason string
	// UpdatedToolOutput replaces the output of the tool the model sees
	// (PostToolUse's updatedToolOutput, any tool), and
	// UpdatedMCPToolOutput that of an MCP tool (updatedMCPToolOutput);
	// the last hook that gives one wins.
	UpdatedToolOutput    json.RawMessage
	UpdatedMCPToolOutput json.RawMessage
	// UpdatedInput changes the tool input (PreToolUse): the keys it holds
	// replace the input's (see MergeInput), merged key by key in
	// configuration order when several hooks give one.
	UpdatedInput json.RawMessage
	// Permission is a PermissionRequest hook's answer (deny beats allow);
	// nil when no hook answered.
	Permission *PermissionAnswer
	// Elicitation is the answer an Elicitation hook gave in the user's
	// place, or the one an ElicitationResult hook put in place of the
	// user's; nil when none did. (Exit 2 sets Block instead: decline.)
	Elicitation *ElicitationAnswer
	// AdditionalContext is text for the model.
	AdditionalContext []string
	// SystemMessages are shown to the user.
	SystemMessages []string
	// WorktreePath is the folder the first WorktreeCreate hook that made
	// one named: the last non-empty line of a command hook's stdout, or
	// hookSpecificOutput.worktreePath; "" when none did.
	WorktreePath string
	// WatchPaths are absolute paths to watch for FileChanged (the
	// watchPaths of SessionStart, CwdChanged and FileChanged hooks).
	WatchPaths []string
	// SessionTitle names the session (SessionStart's and
	// UserPromptSubmit's sessionTitle; the last hook that gives one wins).
	SessionTitle string
	// InitialUserMessage is the first user message of a print-mode
	// session (SessionStart's initialUserMessage; the first hook's).
	InitialUserMessage string
	// Retry is set when a PermissionDenied hook says the model may try
	// the denied call again.
	Retry bool
	// SuppressOutput asks that the hooks' stdout stay out of the
	// transcript view.
	SuppressOutput bool
	// Errors are non-blocking problems shown to the user: other exit
	// codes, timeouts, failures to start, unreadable JSON.
	Errors []string
}

// hookJSON is the JSON a hook may print on stdout.
type hookJSON struct {
	Continue       *bool  `json:"continue"`
	StopReason     string `json:"stopReason"`
	SuppressOutput bool   `json:"suppressOutput"`
	SystemMessage  string `json:"systemMessage"`
	Decision       string `json:"decision"`
	Reason         string `json:"reason"`
	Specific       *struct {
		HookEventName            string          `json:"hookEventName"`
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		UpdatedToolOutput        json.RawMessage `json:"updatedToolOutput"`
		UpdatedMCPToolOutput     json.RawMessage `json:"updatedMCPToolOutput"`
		AdditionalContext        string          `json:"additionalContext"`
		Retry                    bool            `json:"retry"`
		WorktreePath             string          `json:"worktreePath"`
		SessionTitle             string          `json:"sessionTitle"`
		WatchPaths               []string        `json:"watchPaths"`
		InitialUserMessage       string          `json:"initialUserMessage"`
		Action                   string          `json:"action"`
		Content                  map[string]any  `json:"content"`
		Decision                 *struct {
			Behavior           string          `json:"behavior"`
			UpdatedInput       json.RawMessage `json:"updatedInput"`
			UpdatedPermissions json.RawMessage `json:"updatedPermissions"`
			Message            string          `json:"message"`
			Interrupt          bool            `json:"interrupt"`
		} `json:"decision"`
	} `json:"hookSpecificOutput"`
}

// Aggregate combines the outputs of the hooks of one event, in
// configuration order. It is pure: the same outputs give the same result.
func Aggregate(ev Event, outs []Output) Result {
	r := Result{Event: ev, Outputs: outs}
	var blocks, decisionReasons []string
	for _, o := range outs {
		switch {
		case o.Err != nil:
			r.Errors = append(r.Errors, fmt.Sprintf("%s hook %q could not run: %v", ev, o.Name, o.Err))
		case o.TimedOut:
			r.Errors = append(r.Errors, fmt.Sprintf("%s hook %q timed out after %s and was stopped", ev, o.Name, o.Duration.Round(time.Millisecond)))
		case o.ExitCode == 2 && ev == PermissionRequest:
			// Claude Code does not honour exit 2 here: the permission
			// question goes on as if the hook had said nothing. Say so,
			// since a hook that exits 2 means to deny.
			r.Errors = append(r.Errors, fmt.Sprintf("PermissionRequest hook %q exited 2, which does not deny on this event; "+
				"the permission question goes on (to deny, print {\"hookSpecificOutput\": {\"hookEventName\": \"PermissionRequest\", \"decision\": {\"behavior\": \"deny\"}}} and exit 0)", o.Name))
		case o.ExitCode == 2:
			msg := jsonReason(o.Stdout)
			if msg == "" {
				msg = strings.TrimSpace(o.Stderr)
			}
			if msg == "" {
				msg = fmt.Sprintf("%s hook %q blocked this (exit 2) without a message", ev, o.Name)
			}
			blocks = append(blocks, msg)
		case o.Signal != "":
			msg := ""
			if s := strings.TrimSpace(o.Stderr); s != "" {
				msg = ": " + s
			}
			r.Errors = append(r.Errors, fmt.Sprintf("%s hook %q was killed by a signal (%s)%s", ev, o.Name, o.Signal, msg))
		case o.ExitCode != 0 && validHookJSON(o.Stdout):
			// A hook that printed hook JSON decides by it, whatever its
			// exit code (a policy script that exits 1 with a denial
			// still denies).
			r.applyStdout(o, &blocks, &decisionReasons)
		case o.ExitCode != 0:
			msg := strings.TrimSpace(o.Stderr)
			if msg == "" {
				msg = "no message"
			}
			r.Errors = append(r.Errors, fmt.Sprintf("%s hook %q failed with exit code %d: %s", ev, o.Name, o.ExitCode, msg))
		default:
			r.applyStdout(o, &blocks, &decisionReasons)
		}
	}
	if len(blocks) > 0 {
		r.Block = true
		r.Reason = strings.Join(blocks, "\n")
	}
	r.DecisionReason = strings.Join(decisionReasons, "\n")
	return r
}

// applyStdout interprets the stdout of a hook that exited 0.
func (r *Result) applyStdout(o Output, blocks, decisionReasons *[]string) {
	out := strings.TrimSpace(o.Stdout)
	if out == "" {
		return
	}
	if !strings.HasPrefix(out, "{") {
		if r.Event == WorktreeCreate && r.WorktreePath == "" {
			r.WorktreePath = lastLine(out)
		}
		if r.Event.plainContext() {
			r.AdditionalContext = append(r.AdditionalContext, capText(out))
		}
		return
	}
	var h hookJSON
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&h); err != nil || dec.More() {
		if err == nil {
			err = fmt.Errorf("text after the JSON object")
		}
		r.Errors = append(r.Errors, fmt.Sprintf("%s hook %q printed output that is not valid hook JSON: %s", r.Event, o.Name, jsonProblem(err)))
		if r.Event.plainContext() {
			r.AdditionalContext = append(r.AdditionalContext, capText(out))
		}
		return
	}
	if h.Continue != nil && !*h.Continue {
		r.Stop = true
		if r.StopReason == "" {
			r.StopReason = h.StopReason
		}
	}
	r.SuppressOutput = r.SuppressOutput || h.SuppressOutput
	if h.SystemMessage != "" {
		r.SystemMessages = append(r.SystemMessages, capText(h.SystemMessage))
	}
	switch h.Decision {
	case "":
	case "block":
		if r.Event == PreToolUse {
			r.decide(DecisionDeny, h.Reason, decisionReasons)
			break
		}
		reason := h.Reason
		if strings.TrimSpace(reason) == "" {
			if r.Event == Stop || r.Event == SubagentStop {
				r.Errors = append(r.Errors, fmt.Sprintf("%s hook %q said decision \"block\" without the required reason; ignored", r.Event, o.Name))
				break
			}
			reason = fmt.Sprintf("%s hook %q blocked this without a reason", r.Event, o.Name)
		}
		*blocks = append(*blocks, reason)
	case "approve":
		if r.Event == PreToolUse {
			r.decide(DecisionAllow, h.Reason, decisionReasons)
		}
	default:
		r.Errors = append(r.Errors, fmt.Sprintf("%s hook %q gave an unknown decision %q; ignored", r.Event, o.Name, h.Decision))
	}
	if h.Specific != nil {
		r.applySpecific(o, &h, decisionReasons)
	}
}

// ansiEscape matches the terminal escape sequences a shell's start-up
// may print (colours, titles).
var ansiEscape = regexp.MustCompile(`\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])`)

// lastLine is the last non-empty line of out without terminal escapes:
// the path a WorktreeCreate command hook prints after whatever else its
// shell or tools printed.
func lastLine(out string) string {
	lines := strings.Split(ansiEscape.ReplaceAllString(out, ""), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// validHookJSON reports whether stdout is one JSON object that reads as
// hook output.
func validHookJSON(stdout string) bool {
	out := strings.TrimSpace(stdout)
	if !strings.HasPrefix(out, "{") {
		return false
	}
	var h hookJSON
	dec := json.NewDecoder(strings.NewReader(out))
	return dec.Decode(&h) == nil && !dec.More()
}

// jsonReason is the reason the hook JSON on stdout gives (its top-level
// reason, else its permissionDecisionReason), "" when it gives none or
// stdout is not hook JSON: the message of a hook that exits 2 with JSON.
func jsonReason(stdout string) string {
	if !validHookJSON(stdout) {
		return ""
	}
	var h hookJSON
	_ = json.Unmarshal([]byte(strings.TrimSpace(stdout)), &h)
	if s := strings.TrimSpace(h.Reason); s != "" {
		return s
	}
	if h.Specific != nil {
		return strings.TrimSpace(h.Specific.PermissionDecisionReason)
	}
	return ""
}

// maxHookText caps each text a hook gives (context, plain stdout, a
// system message), as Claude Code caps them at 10,000 characters.
const maxHookText = 10_000

// capText keeps the first maxHookText characters of s and says how much
// was left out.
func capText(s string) string {
	r := []rune(s)
	if len(r) <= maxHookText {
		return s
	}
	return string(r[:maxHookText]) + fmt.Sprintf("\n… [hook output cut: %d of %d characters shown]", maxHookText, len(r))
}

// jsonProblem says what is wrong with a hook's JSON in the hook's own
// terms: a field of the wrong type is named with the JSON it needs,
// rather than with the Go type it would have filled.
func jsonProblem(err error) string {
	msg, _ := jsonkind.FieldProblem(err, "field ")
	return msg
}

func (r *Result) applySpecific(o Output, h *hookJSON, decisionReasons *[]string) {
	s := h.Specific
	if s.HookEventName != "" && s.HookEventName != string(r.Event) {
		r.Errors = append(r.Errors, fmt.Sprintf("%s hook %q answered for event %q; its hookSpecificOutput is ignored", r.Event, o.Name, s.HookEventName))
		return
	}
	if s.AdditionalContext != "" {
		r.AdditionalContext = append(r.AdditionalContext, capText(s.AdditionalContext))
	}
	switch r.Event {
	case SessionStart, CwdChanged, FileChanged:
		for _, p := range s.WatchPaths {
			if p = strings.TrimSpace(p); filepath.IsAbs(p) && !slices.Contains(r.WatchPaths, p) {
				r.WatchPaths = append(r.WatchPaths, p)
			}
		}
	}
	switch r.Event {
	case PreToolUse:
		switch d := Decision(s.PermissionDecision); d {
		case DecisionNone:
		case DecisionAllow, DecisionAsk, DecisionDefer, DecisionDeny:
			r.decide(d, s.PermissionDecisionReason, decisionReasons)
		default:
			r.Errors = append(r.Errors, fmt.Sprintf("PreToolUse hook %q gave an unknown permissionDecision %q; ignored", o.Name, s.PermissionDecision))
		}
		if isObject(s.UpdatedInput) {
			r.UpdatedInput = mergeObjects(r.UpdatedInput, s.UpdatedInput)
		}
	case PostToolUse:
		if present(s.UpdatedToolOutput) {
			r.UpdatedToolOutput = s.UpdatedToolOutput
		}
		if present(s.UpdatedMCPToolOutput) {
			r.UpdatedMCPToolOutput = s.UpdatedMCPToolOutput
		}
	case PermissionDenied:
		r.Retry = r.Retry || s.Retry
	case SessionStart, UserPromptSubmit:
		if t := strings.TrimSpace(s.SessionTitle); t != "" {
			r.SessionTitle = t
		}
		if m := strings.TrimSpace(s.InitialUserMessage); m != "" && r.Event == SessionStart && r.InitialUserMessage == "" {
			r.InitialUserMessage = m
		}
	case WorktreeCreate:
		if p := strings.TrimSpace(s.WorktreePath); p != "" && r.WorktreePath == "" {
			r.WorktreePath = p
		}
	case Elicitation, ElicitationResult:
		switch s.Action {
		case "":
		case "accept", "decline", "cancel":
			// A hook that says no is not overruled by one that says
			// yes; otherwise the last answer holds.
			if r.Elicitation == nil || r.Elicitation.Action == "accept" || s.Action != "accept" {
				r.Elicitation = &ElicitationAnswer{Action: s.Action, Content: s.Content}
			}
		default:
			r.Errors = append(r.Errors, fmt.Sprintf("%s hook %q gave an unknown action %q (want accept, decline or cancel); ignored", r.Event, o.Name, s.Action))
		}
	case PermissionRequest:
		if d := s.Decision; d != nil && (d.Behavior == "allow" || d.Behavior == "deny") {
			if r.Permission == nil || r.Permission.Behavior != "deny" {
				r.Permission = &PermissionAnswer{Behavior: d.Behavior, UpdatedInput: d.UpdatedInput,
					UpdatedPermissions: d.UpdatedPermissions, Message: d.Message, Interrupt: d.Interrupt}
			}
		}
	}
}

// decide records a PreToolUse decision; the strongest wins, and the
// reasons of the winning level are kept.
func (r *Result) decide(d Decision, reason string, reasons *[]string) {
	switch {
	case d.rank() > r.Decision.rank():
		r.Decision = d
		*reasons = (*reasons)[:0]
	case d.rank() < r.Decision.rank():
		return
	}
	if reason != "" {
		*reasons = append(*reasons, reason)
	}
}

// present reports whether a JSON field was given a value other than null.
func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}

// mergeObjects merges the keys of b over a (both JSON objects).
func mergeObjects(a, b json.RawMessage) json.RawMessage {
	if a == nil {
		return b
	}
	var ma, mb map[string]json.RawMessage
	if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
		return b
	}
	for k, v := range mb {
		ma[k] = v
	}
	out, err := json.Marshal(ma)
	if err != nil {
		return b
	}
	return out
}

// MergeInput applies a PreToolUse hook's updatedInput to a tool input:
// the keys updated holds replace or add to those of input, and the others
// are kept, so a hook that changes one field ({"timeout": 60000}) does not
// drop the command. When either is not a JSON object, updated is used as
// it is.
func MergeInput(input, updated json.RawMessage) json.RawMessage {
	if !isObject(input) || !isObject(updated) {
		return updated
	}
	return mergeObjects(input, updated)
}
