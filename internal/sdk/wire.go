package sdk

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"reins/internal/llm"
)

// Kinds of input lines.
const (
	KindUser            = "user"
	KindControlRequest  = "control_request"
	KindControlResponse = "control_response"
	KindControlCancel   = "control_cancel_request"
	KindKeepAlive       = "keep_alive"
	KindUpdateEnv       = "update_environment_variables"
)

// Message is one decoded input line. Type says which of the other fields
// are set.
type Message struct {
	// Line is the 1-based number of the line it was read from.
	Line int
	Type string

	// User is set for a user message.
	User *UserInput

	// RequestID is set for control_request and control_cancel_request.
	RequestID string
	// Subtype and Request are the request's subtype and its whole object
	// (control_request).
	Subtype string
	Request json.RawMessage

	// Answer is set for control_response.
	Answer *Answer

	// Variables are the names and values of an
	// update_environment_variables line.
	Variables map[string]string

	bad *LineError // the line was unusable (internal: kept in order until Ready)
}

// UserInput is a user message sent to start a turn.
type UserInput struct {
	Content []llm.ContentBlock
	// UUID is the client's id for the message, when it sent one.
	UUID string
	// ParentToolUseID is accepted for compatibility; reins ignores it.
	ParentToolUseID string
	// Priority "now" interrupts the running turn (and the messages queued
	// before this one); anything else waits its turn.
	Priority string
	// Hold is set by "shouldQuery": false: the message starts no turn and
	// has no result; its content goes to the model with the next message
	// that does.
	Hold bool
}

// Answer is the body of a control_response from the client.
type Answer struct {
	Subtype   string          `json:"subtype"` // "success" or "error"
	RequestID string          `json:"request_id"`
	Response  json.RawMessage `json:"response"`
	Error     string          `json:"error"`
}

// LineError is an input line that could not be used. RequestID is set when
// the line is a control request whose id could be read, so it can be
// answered with an error instead of being left to time out.
type LineError struct {
	Line      int
	RequestID string
	// User is set when the line meant to be a user message.
	User bool
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("input line %d: %v", e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// envelope holds every top-level member any input line may carry.
type envelope struct {
	Type            *string         `json:"type"`
	RequestID       json.RawMessage `json:"request_id"`
	Request         json.RawMessage `json:"request"`
	Response        json.RawMessage `json:"response"`
	Message         json.RawMessage `json:"message"`
	UUID            json.RawMessage `json:"uuid"`
	ParentToolUseID json.RawMessage `json:"parent_tool_use_id"`
	Priority        json.RawMessage `json:"priority"`
	ShouldQuery     json.RawMessage `json:"shouldQuery"`
	Variables       json.RawMessage `json:"variables"`
}

// Decode decodes one input line (without its line end). line numbers the
// line for errors. It returns a *LineError when the line is unusable.
func Decode(data []byte, line int) (*Message, error) {
	fail := func(id string, user bool, format string, args ...any) (*Message, error) {
		return nil, &LineError{Line: line, RequestID: id, User: user, Err: fmt.Errorf(format, args...)}
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return fail("", false, "not a JSON object")
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return fail("", false, "invalid JSON: %v", err)
	}
	if env.Type == nil {
		return fail(optString(env.RequestID), false, "no \"type\" member")
	}
	m := &Message{Line: line, Type: *env.Type}
	switch m.Type {
	case KindUser:
		u, err := decodeUser(&env)
		if err != nil {
			return fail("", true, "user message: %v", err)
		}
		m.User = u
	case KindControlRequest:
		id, ok := str(env.RequestID)
		if !ok || id == "" {
			return fail("", false, "control_request without a string request_id")
		}
		m.RequestID = id
		var req struct {
			Subtype json.RawMessage `json:"subtype"`
		}
		if len(env.Request) == 0 || env.Request[0] != '{' || json.Unmarshal(env.Request, &req) != nil {
			return fail(id, false, "control_request %s: \"request\" is not an object", id)
		}
		sub, ok := str(req.Subtype)
		if !ok || sub == "" {
			return fail(id, false, "control_request %s: no string \"subtype\"", id)
		}
		m.Subtype, m.Request = sub, env.Request
	case KindControlResponse:
		var a Answer
		if len(env.Response) == 0 || json.Unmarshal(env.Response, &a) != nil {
			return fail("", false, "control_response: \"response\" is not an object")
		}
		if a.RequestID == "" {
			return fail("", false, "control_response without a request_id")
		}
		if a.Subtype != "success" && a.Subtype != "error" {
			return fail("", false, "control_response %s: subtype %q is neither success nor error", a.RequestID, a.Subtype)
		}
		m.Answer = &a
	case KindControlCancel:
		id, ok := str(env.RequestID)
		if !ok || id == "" {
			return fail("", false, "control_cancel_request without a string request_id")
		}
		m.RequestID = id
	case KindUpdateEnv:
		vars, err := decodeVariables(env.Variables)
		if err != nil {
			return fail("", false, "update_environment_variables: %v", err)
		}
		m.Variables = vars
	}
	return m, nil
}

// decodeVariables reads the "variables" object of an
// update_environment_variables line: names to string values. A name that
// is empty or holds '=' or a NUL, or a value holding a NUL, cannot be put
// in an environment and makes the whole line unusable.
func decodeVariables(raw json.RawMessage) (map[string]string, error) {
	var vars map[string]string
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &vars) != nil {
		return nil, errors.New("\"variables\" is not an object of names to string values")
	}
	for k, v := range vars {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, fmt.Errorf("%q is not a variable name (it is empty or holds '=' or a NUL)", k)
		}
		if strings.ContainsRune(v, 0) {
			return nil, fmt.Errorf("the value of %s holds a NUL", k)
		}
	}
	return vars, nil
}

// imageTypes are the media types the API takes for base64 images.
var imageTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// checkSource refuses an image or document source the API would refuse:
// base64 data that does not decode, a missing or unknown media type, a
// URL source without its URL.
func checkSource(blockType string, src *llm.Source) error {
	switch src.Type {
	case "base64":
		if src.MediaType == "" {
			return errors.New("the source has no media_type")
		}
		if blockType == llm.BlockImage && !slices.Contains(imageTypes, src.MediaType) {
			return fmt.Errorf("media_type %q is not one the API takes for images (%s)", src.MediaType, strings.Join(imageTypes, ", "))
		}
		if src.Data == "" {
			return errors.New("the source has no data")
		}
		if _, err := io.Copy(io.Discard, base64.NewDecoder(base64.StdEncoding, strings.NewReader(src.Data))); err != nil {
			return fmt.Errorf("the source's data is not valid base64: %v", err)
		}
	case "url":
		if strings.TrimSpace(src.URL) == "" {
			return errors.New("the url source has no url")
		}
	case "":
		return errors.New("the source has no type")
	}
	return nil
}

// decodeUser reads a user message: {"message":{"role":"user","content":
// "text" | [blocks]}, "uuid"?, "parent_tool_use_id"?}.
func decodeUser(env *envelope) (*UserInput, error) {
	if len(env.Message) == 0 || env.Message[0] != '{' {
		return nil, errors.New("\"message\" is not an object")
	}
	var role struct {
		Role    *string         `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(env.Message, &role); err != nil {
		return nil, fmt.Errorf("\"message\": %v", err)
	}
	if role.Role != nil && *role.Role != "user" {
		return nil, fmt.Errorf("message role is %q, not \"user\"", *role.Role)
	}
	c := bytes.TrimSpace(role.Content)
	if len(c) == 0 || string(c) == "null" || (c[0] != '"' && c[0] != '[') {
		return nil, errors.New("message content must be a string or an array of content blocks")
	}
	var msg llm.Message
	if err := json.Unmarshal(env.Message, &msg); err != nil {
		return nil, err
	}
	if len(msg.Content) == 0 {
		return nil, errors.New("message content is empty")
	}
	// The API refuses empty and whitespace-only text blocks; sent, one
	// would stay in the conversation and fail every later turn too. They
	// are left out, and a message with nothing else is refused.
	kept := msg.Content[:0:0]
	for i, b := range msg.Content {
		switch b.Type {
		case llm.BlockText:
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
		case llm.BlockImage, llm.BlockDocument:
			if b.Source == nil {
				return nil, fmt.Errorf("content block %d (%s) has no source", i, b.Type)
			}
			// Like a blank text block, a source the API cannot read
			// would stay in the conversation and fail every later turn.
			if err := checkSource(b.Type, b.Source); err != nil {
				return nil, fmt.Errorf("content block %d (%s): %w", i, b.Type, err)
			}
		case "":
			return nil, fmt.Errorf("content block %d has no type", i)
		default:
			return nil, fmt.Errorf("content block %d: type %q cannot start a turn (text, image or document)", i, b.Type)
		}
		// reins places the prompt-cache breakpoints itself; the client's,
		// added to them, would pass the API's limit of four and fail
		// every request.
		b.CacheControl = nil
		kept = append(kept, b)
	}
	if len(kept) == 0 {
		return nil, errors.New("message content is blank (no text, image or document to send)")
	}
	u := &UserInput{Content: kept}
	u.UUID = optString(env.UUID)
	u.ParentToolUseID = optString(env.ParentToolUseID)
	u.Priority = optString(env.Priority)
	if q := bytes.TrimSpace(env.ShouldQuery); len(q) > 0 && string(q) != "null" {
		var query bool
		if err := json.Unmarshal(q, &query); err != nil {
			return nil, errors.New("\"shouldQuery\" must be true or false")
		}
		u.Hold = !query
	}
	return u, nil
}

// str reads a JSON string.
func str(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// optString reads a JSON string, "" for anything else.
func optString(raw json.RawMessage) string {
	s, _ := str(raw)
	return s
}
