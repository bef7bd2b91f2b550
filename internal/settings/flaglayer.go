package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// overlay returns the settings object data with the keys of over set (a
// null value removes its key), keeping the other keys in their order.
// Data that is not a JSON object is returned as it is, for parseFile to
// report.
func overlay(data []byte, over map[string]json.RawMessage) []byte {
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	var root []member
	if len(trimmed) > 0 {
		var probe map[string]json.RawMessage
		if json.Unmarshal(trimmed, &probe) != nil {
			return data
		}
		root, _ = members(trimmed)
	}
	keys := make([]string, 0, len(over))
	for k := range over {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := bytes.TrimSpace(over[k])
		if len(v) == 0 || string(v) == "null" {
			kept := root[:0]
			for _, m := range root {
				if m.key != k {
					kept = append(kept, m)
				}
			}
			root = kept
			continue
		}
		root = setMember(root, lastMember(root, k), k, v)
	}
	return objectFrom(root)
}

// CheckOverlay checks the keys of a flag-layer overlay (see
// Options.FlagOverlay) as a settings file's are checked, and returns an
// error naming every key whose value has the wrong shape, or that looks
// like a misspelt setting. Null values, which remove keys, always pass.
func CheckOverlay(over map[string]json.RawMessage) error {
	set := map[string]json.RawMessage{}
	for k, v := range over {
		if t := bytes.TrimSpace(v); len(t) > 0 && string(t) != "null" {
			set[k] = v
		}
	}
	data, err := json.Marshal(set)
	if err != nil {
		return err
	}
	_, warns := parseFile("settings", data)
	var msgs []string
	for _, w := range warns {
		msg := w.Message
		for _, tail := range []string{"; file skipped", "; skipped", "; ignored", " ignored"} {
			if i := strings.LastIndex(msg, tail); i > 0 && i+len(tail) == len(msg) {
				msg = msg[:i]
				if j := strings.LastIndex(msg, "; "); tail == " ignored" && j > 0 {
					msg = msg[:j] // "...; permissions ignored"
				}
				break
			}
		}
		msgs = append(msgs, msg)
	}
	for k := range set {
		if !knownKeys[k] {
			if near := nearKnownKey(k); near != "" {
				msgs = append(msgs, fmt.Sprintf("unknown setting %q (did you mean %q?)", k, near))
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	sort.Strings(msgs)
	return errors.New(strings.Join(msgs, "; "))
}
