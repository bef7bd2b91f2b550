package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"reins/internal/fsutil"
)

// knownKeys are the top-level keys reins understands or knowingly ignores
// (Claude Code settings it has no use for yet). Other keys are kept in
// Settings.Raw; one that looks like a misspelling of a known key is
// warned about once (nearKnownKey).
var knownKeys = map[string]bool{
	"$schema": true, "permissions": true, "hooks": true, "env": true, "model": true,
	"apiKeyHelper": true, "cleanupPeriodDays": true, "includeCoAuthoredBy": true,
	"disableAllHooks": true, "models": true, "sandbox": true,
	"allowManagedPermissionRulesOnly": true, "allowManagedHooksOnly": true,
	"statusLine": true, "outputStyle": true, "enableAllProjectMcpServers": true,
	"enabledMcpjsonServers": true, "disabledMcpjsonServers": true, "mcpServers": true,
	"strictKnownMarketplaces": true, "forceLoginMethod": true, "forceLoginOrgUUID": true,
	"awsAuthRefresh": true, "awsCredentialExport": true, "otelHeadersHelper": true,
	"enabledPlugins": true, "extraKnownMarketplaces": true, "spinnerTipsEnabled": true,
	"alwaysThinkingEnabled": true, "companyAnnouncements": true, "showThinkingSummaries": true,
	"theme": true, "verbose": true, "respectGitignore": true, "includeGitInstructions": true,
	"attribution": true, "language": true, "autoUpdates": true, "fileSuggestion": true,
	"spinnerVerbs": true, "autoCompactEnabled": true, "preferredNotifChannel": true,
	"autoMode": true, "disableAutoMode": true, "effortLevel": true, "agent": true,
	"claudeMdExcludes": true,
}

// knownEfforts are the values of effortLevel.
var knownEfforts = map[string]bool{"low": true, "medium": true, "high": true, "xhigh": true, "max": true, "auto": true}

// nearKnownKey returns the known key that key most likely misspells: one
// that differs only in case, or by at most two edits for keys of five
// letters or more. It returns "" when there is none.
func nearKnownKey(key string) string {
	best, bestDist := "", 3
	for k := range knownKeys {
		if strings.EqualFold(k, key) {
			return k
		}
		if len(key) < 5 || len(k) < 5 || k == "$schema" {
			continue
		}
		d := editDistance(strings.ToLower(k), strings.ToLower(key), bestDist+1)
		if d < bestDist || (d == bestDist && k < best) {
			best, bestDist = k, d
		}
	}
	if bestDist > 2 {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (bytes), or
// limit when it is limit or more.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

// Permission modes accepted in permissions.defaultMode.
var knownModes = map[string]bool{
	"default": true, "acceptEdits": true, "plan": true, "bypassPermissions": true, "dontAsk": true,
	"auto": true, "manual": true,
}

// modeChoices lists knownModes for messages.
const modeChoices = "want default, acceptEdits, plan, auto, bypassPermissions or dontAsk; manual means default"

// KnownHookEvents are the hook events reins fires. Other event names in a
// hooks object are kept but warned about.
var KnownHookEvents = []string{
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
	"UserPromptSubmit", "Notification", "Stop", "StopFailure", "SubagentStart", "SubagentStop",
	"PreCompact", "PostCompact", "SessionStart", "SessionEnd", "PermissionDenied",
	"CwdChanged", "UserPromptExpansion", "InstructionsLoaded", "PostToolBatch",
	"WorktreeCreate", "WorktreeRemove", "Setup", "FileChanged",
	"Elicitation", "ElicitationResult",
}

// unfiredHookEvents are Claude Code's hook events that reins does not
// fire (what they watch has no counterpart in reins, or is not built
// yet); a hook for one is warned about without a typo suggestion.
var unfiredHookEvents = []string{
	"ConfigChange", "TaskCreated", "TaskCompleted",
	"TeammateIdle", "PreModelSwitch", "PostModelSwitch", "MessageDisplay",
	"DirectoryAdded",
}

// fileData is one parsed file: its valid top-level values and where each
// key's value starts.
type fileData struct {
	values map[string]json.RawMessage
	order  []string // keys in file order
	pos    map[string]int
	src    []byte
}

// parseFile parses one settings file. Invalid JSON gives a warning and nil
// data; a key whose value has the wrong shape is dropped with a warning
// that locates it.
func parseFile(path string, data []byte) (*fileData, []Warning) {
	if enc := fsutil.DetectFormat(data).Encoding; enc == fsutil.UTF16LE || enc == fsutil.UTF16BE {
		// Saved as UTF-16 (Windows editors do): read as the text it is.
		text, _, err := fsutil.DecodeText(data)
		if err != nil {
			return nil, []Warning{{File: path, Line: 1, Column: 1, Message: fmt.Sprintf("settings file is %s text that does not decode (%v); save it as UTF-8; skipped", enc, err)}}
		}
		data = []byte(text)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	fd := &fileData{values: map[string]json.RawMessage{}, pos: map[string]int{}, src: data}
	if len(bytes.TrimSpace(data)) == 0 {
		return fd, nil
	}
	if !utf8.Valid(data) {
		off := invalidUTF8Offset(data)
		line, col := position(data, off)
		return nil, []Warning{{File: path, Line: line, Column: col, Message: "settings file is not valid UTF-8; skipped"}}
	}
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, []Warning{syntaxWarning(path, data, err)}
	}
	if _, ok := probe.(map[string]any); !ok {
		return nil, []Warning{{File: path, Line: 1, Column: 1, Message: fmt.Sprintf("settings file must hold a JSON object, not %s; skipped", jsonKind(probe))}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, []Warning{syntaxWarning(path, data, err)}
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, []Warning{syntaxWarning(path, data, err)}
		}
		key, _ := tok.(string)
		start := valueStart(data, int(dec.InputOffset()))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, []Warning{syntaxWarning(path, data, err)}
		}
		if _, dup := fd.values[key]; !dup {
			fd.order = append(fd.order, key)
		}
		fd.values[key] = raw
		fd.pos[key] = start
	}
	var warns []Warning
	for _, key := range fd.order {
		kept, probs := sanitizeKey(key, fd.values[key])
		for _, pr := range probs {
			line, col := position(data, fd.pos[key]+pr.off)
			warns = append(warns, Warning{File: path, Line: line, Column: col, Message: pr.msg})
		}
		if kept == nil {
			delete(fd.values, key)
		} else {
			fd.values[key] = kept
		}
	}
	return fd, warns
}

// valueStart skips the colon and blanks after a key.
func valueStart(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func invalidUTF8Offset(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

func syntaxWarning(path string, data []byte, err error) Warning {
	off := len(data)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// Offset is just past the offending byte.
		off = int(se.Offset)
		if off > 0 && off < len(data) {
			off--
		}
	case errors.As(err, &te):
		off = int(te.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		off = len(data)
	}
	line, col := position(data, off)
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of file"
	}
	return Warning{File: path, Line: line, Column: col, Message: "invalid JSON: " + msg + "; file skipped"}
}

// position turns a byte offset into a 1-based line and column (in
// characters).
func position(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	lineStart := bytes.LastIndexByte(data[:off], '\n') + 1
	col = 1 + utf8.RuneCount(data[lineStart:off])
	return line, col
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// permissionsShape is the schema of the permissions key.
type permissionsShape struct {
	Allow                 []string `json:"allow"`
	Ask                   []string `json:"ask"`
	Deny                  []string `json:"deny"`
	DefaultMode           string   `json:"defaultMode"`
	AdditionalDirectories []string `json:"additionalDirectories"`
	// DisableBypassPermissionsMode and DisableAutoMode are "disable" or
	// a boolean (modeDisabled).
	DisableBypassPermissionsMode json.RawMessage `json:"disableBypassPermissionsMode"`
	DisableAutoMode              json.RawMessage `json:"disableAutoMode"`
}

// modeDisabled reads a disableAutoMode or disableBypassPermissionsMode
// value: "disable", as Claude Code documents it, or true, which users
// write too (false leaves the mode available). msg, when not empty, says
// why another value is ignored.
func modeDisabled(raw json.RawMessage) (disabled bool, msg string) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false, ""
	}
	switch x := v.(type) {
	case bool:
		return x, ""
	case string:
		if x == "disable" {
			return true, ""
		}
		return false, fmt.Sprintf("unknown value %q (want \"disable\" or true); ignored", x)
	}
	return false, fmt.Sprintf("expected \"disable\" or a boolean, found %s; ignored", kindOf(raw))
}

// validateKey checks the shape of a known key's value. It returns a
// message and an offset within raw when the value is unusable.
func validateKey(key string, raw json.RawMessage) (string, int) {
	typeErr := func(err error) (string, int) {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := key
			if te.Field != "" {
				field += "." + te.Field
			}
			return fmt.Sprintf("setting %s: expected %s, found JSON %s; ignored", field, goTypeName(te.Type.String()), te.Value), tokenStart(raw, int(te.Offset))
		}
		return fmt.Sprintf("setting %s: %v; ignored", key, err), 0
	}
	var err error
	switch key {
	case "permissions":
		var p permissionsShape
		if err = json.Unmarshal(raw, &p); err == nil && p.DefaultMode != "" && !knownModes[p.DefaultMode] {
			return fmt.Sprintf("setting permissions.defaultMode: unknown mode %q (%s); permissions ignored", p.DefaultMode, modeChoices), 0
		}
		if _, msg := modeDisabled(p.DisableAutoMode); err == nil && msg != "" {
			// sanitizePermissions drops the value alone and says why.
			return "setting permissions.disableAutoMode: " + msg, 0
		}
		if _, msg := modeDisabled(p.DisableBypassPermissionsMode); err == nil && msg != "" {
			return "setting permissions.disableBypassPermissionsMode: " + msg, 0
		}
	case "hooks":
		var h map[string][]HookMatcher
		err = json.Unmarshal(raw, &h)
	case "env":
		var m map[string]any
		if err = json.Unmarshal(raw, &m); err == nil {
			for k, v := range m {
				if k == "" || strings.ContainsAny(k, "=\x00") {
					return fmt.Sprintf("setting env: %q is not a variable name; env ignored", k), 0
				}
				switch v.(type) {
				case string, float64, bool:
				default:
					return fmt.Sprintf("setting env.%s: expected a string, found %s; env ignored", k, jsonKind(v)), 0
				}
			}
		}
	case "autoMode":
		// Unknown members too: a misspelt list (softDeny) would otherwise
		// leave the built-in rules in place without a word.
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var a AutoMode
		err = dec.Decode(&a)
	case "disableAutoMode":
		if _, msg := modeDisabled(raw); msg != "" {
			return "setting disableAutoMode: " + msg, 0
		}
	case "model", "apiKeyHelper", "outputStyle", "language":
		var s string
		err = json.Unmarshal(raw, &s)
	case "effortLevel":
		var e string
		if err = json.Unmarshal(raw, &e); err == nil && !knownEfforts[e] {
			return fmt.Sprintf("setting effortLevel: unknown level %q (want low, medium, high, xhigh, max or auto); ignored", e), 0
		}
	case "cleanupPeriodDays":
		var n int
		// 0 keeps every transcript (Claude Code's schema: "0 to disable
		// cleanup"); reins never reads it as "record nothing", whatever
		// Claude Code versions did with it, since that would lose work.
		if err = json.Unmarshal(raw, &n); err == nil && n < 0 {
			return "setting cleanupPeriodDays: must not be negative (0 keeps every transcript, N days removes older ones); ignored, transcripts are kept 30 days", 0
		}
	case "includeCoAuthoredBy", "disableAllHooks", "allowManagedPermissionRulesOnly", "allowManagedHooksOnly", "respectGitignore",
		"includeGitInstructions":
		var b bool
		err = json.Unmarshal(raw, &b)
	case "models":
		var m map[string]ModelOverride
		err = json.Unmarshal(raw, &m)
	case "attribution":
		var a Attribution
		err = json.Unmarshal(raw, &a)
	case "sandbox":
		var s struct {
			Enabled *bool `json:"enabled"`
		}
		err = json.Unmarshal(raw, &s)
	}
	if err != nil {
		return typeErr(err)
	}
	return "", 0
}

func goTypeName(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case strings.HasPrefix(t, "map["), strings.Contains(t, "."):
		return "an object"
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "float"):
		return "a number"
	}
	return t
}

// tokenStart returns the start of the last JSON token of raw that begins
// before off: the value a decode error at off is about.
func tokenStart(raw []byte, off int) int {
	dec := json.NewDecoder(bytes.NewReader(raw))
	last := 0
	for {
		start := int(dec.InputOffset())
		for start < len(raw) && strings.IndexByte(" \t\r\n:,", raw[start]) >= 0 {
			start++
		}
		if start >= off {
			return last
		}
		if _, err := dec.Token(); err != nil {
			return last
		}
		last = start
	}
}
