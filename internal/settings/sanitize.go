package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// problem is a shape problem at an offset within a key's value.
type problem struct {
	msg string
	off int
}

// sanitizeKey checks a top-level value and returns what of it is kept (nil
// to drop the key) with the problems found. permissions, hooks and env are
// repaired part by part, so that one wrong entry does not take the rest
// with it: a mistyped allow list or defaultMode must not also drop the
// deny rules beside it. Other keys are kept or dropped whole.
func sanitizeKey(key string, raw json.RawMessage) (json.RawMessage, []problem) {
	if string(bytes.TrimSpace(raw)) == "null" {
		// null would wipe what lower sources set; leaving the key out
		// is how a setting is left unset.
		return nil, []problem{{fmt.Sprintf("setting %s is null; ignored (leave the key out instead)", key), 0}}
	}
	if msg, off := validateKey(key, raw); msg == "" {
		return raw, nil
	} else if !isJSONObject(raw) || (key != "permissions" && key != "hooks" && key != "env" && key != "autoMode") {
		return nil, []problem{{msg, off}}
	}
	switch key {
	case "permissions":
		return sanitizePermissions(raw)
	case "hooks":
		return sanitizeHooks(raw)
	case "autoMode":
		return sanitizeAutoMode(raw)
	}
	return sanitizeEnv(raw)
}

// member is one member of a JSON object (or element of an array, with
// key ""), with the offset of its value in the enclosing raw text.
type member struct {
	key string
	raw json.RawMessage
	off int
}

// members lists the members of the object or the elements of the array
// raw, in order. It reports false when raw is neither.
func members(raw json.RawMessage) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, false
	}
	open, _ := tok.(json.Delim)
	if open != '{' && open != '[' {
		return nil, false
	}
	var out []member
	for dec.More() {
		var m member
		if open == '{' {
			k, err := dec.Token()
			if err != nil {
				return nil, false
			}
			m.key, _ = k.(string)
		}
		m.off = valueStart(raw, int(dec.InputOffset()))
		for m.off < len(raw) && raw[m.off] == ',' {
			m.off = valueStart(raw, m.off+1)
		}
		if err := dec.Decode(&m.raw); err != nil {
			return nil, false
		}
		out = append(out, m)
	}
	return out, true
}

func isJSONObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// objectFrom re-encodes kept members as an object in their order.
func objectFrom(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encodeJSON(m.key))
		b.WriteByte(':')
		b.Write(m.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// stringList keeps the strings of a JSON array and reports every other
// element. A lone string is read as a one-element list when single is
// set (deny and ask rules: reading them only narrows what is allowed).
func stringList(field string, m member, single bool) (json.RawMessage, []problem) {
	var s string
	if json.Unmarshal(m.raw, &s) == nil {
		if single {
			return mustMarshal([]string{s}), []problem{{fmt.Sprintf("setting %s: expected an array of strings, found a string; read as a list of one", field), m.off}}
		}
		return nil, []problem{{fmt.Sprintf("setting %s: expected an array of strings, found a string; ignored", field), m.off}}
	}
	elems, ok := members(m.raw)
	if !ok || bytes.TrimSpace(m.raw)[0] != '[' {
		return nil, []problem{{fmt.Sprintf("setting %s: expected an array of strings, found %s; ignored", field, kindOf(m.raw)), m.off}}
	}
	kept := []string{}
	var probs []problem
	for i, e := range elems {
		if json.Unmarshal(e.raw, &s) != nil {
			probs = append(probs, problem{fmt.Sprintf("setting %s[%d]: expected a string, found %s; that entry is ignored", field, i, kindOf(e.raw)), m.off + e.off})
			continue
		}
		kept = append(kept, s)
	}
	return mustMarshal(kept), probs
}

// sanitizePermissions keeps every valid field of the permissions object.
func sanitizePermissions(raw json.RawMessage) (json.RawMessage, []problem) {
	ms, _ := members(raw)
	var kept []member
	var probs []problem
	for _, m := range ms {
		field := "permissions." + m.key
		// Decoding matches field names without regard to case, so the
		// checks do too.
		switch strings.ToLower(m.key) {
		case "allow", "ask", "deny", "additionaldirectories":
			v, ps := stringList(field, m, strings.EqualFold(m.key, "deny") || strings.EqualFold(m.key, "ask"))
			probs = append(probs, ps...)
			if v == nil {
				continue
			}
			m.raw = v
		case "disableautomode", "disablebypasspermissionsmode":
			if _, msg := modeDisabled(m.raw); msg != "" {
				probs = append(probs, problem{"setting " + field + ": " + msg, m.off})
				continue
			}
		case "defaultmode":
			var s string
			if json.Unmarshal(m.raw, &s) != nil {
				probs = append(probs, problem{fmt.Sprintf("setting %s: expected a string, found %s; ignored", field, kindOf(m.raw)), m.off})
				continue
			}
			if strings.EqualFold(m.key, "defaultMode") && s != "" && !knownModes[s] {
				probs = append(probs, problem{fmt.Sprintf("setting permissions.defaultMode: unknown mode %q (%s); ignored, the other permissions still apply", s, modeChoices), m.off})
				continue
			}
		}
		kept = append(kept, m)
	}
	return objectFrom(kept), probs
}

// sanitizeHooks keeps every hook matcher entry that has the right shape.
func sanitizeHooks(raw json.RawMessage) (json.RawMessage, []problem) {
	events, _ := members(raw)
	var kept []member
	var probs []problem
	for _, ev := range events {
		entries, ok := members(ev.raw)
		if !ok || bytes.TrimSpace(ev.raw)[0] != '[' {
			probs = append(probs, problem{fmt.Sprintf("setting hooks.%s: expected an array of matcher entries, found %s; ignored", ev.key, kindOf(ev.raw)), ev.off})
			continue
		}
		var good []json.RawMessage
		for i, e := range entries {
			var hm HookMatcher
			if err := json.Unmarshal(e.raw, &hm); err != nil {
				off := entryProblemOffset(e.raw, err)
				probs = append(probs, problem{fmt.Sprintf("setting hooks.%s[%d]: %s; that entry is ignored", ev.key, i, describeDecodeError(err)), ev.off + e.off + off})
				continue
			}
			good = append(good, e.raw)
		}
		ev.raw = mustMarshal(good)
		if good == nil {
			ev.raw = json.RawMessage("[]")
		}
		kept = append(kept, ev)
	}
	return objectFrom(kept), probs
}

// sanitizeEnv keeps the variables whose values are strings, numbers or
// booleans.
func sanitizeEnv(raw json.RawMessage) (json.RawMessage, []problem) {
	ms, _ := members(raw)
	var kept []member
	var probs []problem
	for _, m := range ms {
		if m.key == "" || strings.ContainsAny(m.key, "=\x00") {
			// "A=B": "x" would reach commands as A set to "B=x".
			probs = append(probs, problem{fmt.Sprintf("setting env: %q is not a variable name (it is empty or holds '=' or a NUL); that variable is ignored", m.key), m.off})
			continue
		}
		switch decodeAny(m.raw).(type) {
		case string, json.Number, bool:
			kept = append(kept, m)
		default:
			probs = append(probs, problem{fmt.Sprintf("setting env.%s: expected a string, found %s; that variable is ignored", m.key, kindOf(m.raw)), m.off})
		}
	}
	return objectFrom(kept), probs
}

// autoModeLists are the rule lists of the autoMode object.
var autoModeLists = []string{"allow", "soft_deny", "hard_deny", "environment"}

// sanitizeAutoMode keeps the members of an autoMode object that have the
// right shape: a misspelt or mistyped one is reported and dropped, and
// the others still apply.
func sanitizeAutoMode(raw json.RawMessage) (json.RawMessage, []problem) {
	ms, _ := members(raw)
	var kept []member
	var probs []problem
	for _, m := range ms {
		var err error
		switch {
		case m.key == "classifyAllShell":
			var b bool
			err = json.Unmarshal(m.raw, &b)
		case slices.Contains(autoModeLists, m.key):
			var l []string
			err = json.Unmarshal(m.raw, &l)
		default:
			hint := ""
			for _, k := range append(slices.Clone(autoModeLists), "classifyAllShell") {
				if strings.EqualFold(strings.NewReplacer("_", "", "-", "").Replace(k), strings.NewReplacer("_", "", "-", "").Replace(m.key)) {
					hint = fmt.Sprintf(" (did you mean %s?)", k)
				}
			}
			probs = append(probs, problem{fmt.Sprintf("setting autoMode.%s: not a key of autoMode%s; want allow, soft_deny, hard_deny, environment or classifyAllShell; ignored", m.key, hint), m.off})
			continue
		}
		if err != nil {
			probs = append(probs, problem{fmt.Sprintf("setting autoMode.%s: %s; ignored", m.key, describeDecodeError(err)), m.off + entryProblemOffset(m.raw, err)})
			continue
		}
		kept = append(kept, m)
	}
	return objectFrom(kept), probs
}

// entryProblemOffset locates a decode error within raw.
func entryProblemOffset(raw json.RawMessage, err error) int {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return tokenStart(raw, int(te.Offset))
	}
	return 0
}

// describeDecodeError words a decode error for a warning.
func describeDecodeError(err error) string {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		field := "value"
		if te.Field != "" {
			field = te.Field
		}
		return fmt.Sprintf("%s: expected %s, found JSON %s", field, goTypeName(te.Type.String()), te.Value)
	}
	return err.Error()
}

// kindOf names the JSON kind of raw ("a string", "an array" ...).
func kindOf(raw json.RawMessage) string {
	var v any
	_ = json.Unmarshal(raw, &v)
	return jsonKind(v)
}

// rulePositions finds where each permission rule of a file is written:
// "behavior\x00rule text" to its line and column. It reads the file's
// own text, so it holds for values sanitizeKey rewrote too.
func rulePositions(fd *fileData) map[string][2]int {
	out := map[string][2]int{}
	start, ok := fd.pos["permissions"]
	if !ok || fd.src == nil || start >= len(fd.src) {
		return out
	}
	var raw json.RawMessage
	if json.NewDecoder(bytes.NewReader(fd.src[start:])).Decode(&raw) != nil {
		return out
	}
	fields, _ := members(raw)
	for _, f := range fields {
		if f.key != "allow" && f.key != "ask" && f.key != "deny" {
			continue
		}
		elems, _ := members(f.raw)
		for _, e := range elems {
			var text string
			if json.Unmarshal(e.raw, &text) != nil {
				continue
			}
			key := f.key + "\x00" + strings.TrimSpace(text)
			if _, dup := out[key]; !dup {
				line, col := position(fd.src, start+f.off+e.off)
				out[key] = [2]int{line, col}
			}
		}
	}
	return out
}
