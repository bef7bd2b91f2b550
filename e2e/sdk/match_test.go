package sdk_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Patterns are expected lines written as JSON. Objects must have exactly
// the keys the pattern lists (a key ending in "?" may be absent) and
// arrays the same length; scalars must be equal, except for these string
// placeholders:
//
//	"<any>"        any value
//	"<string>"     any string
//	"<number>"     any number
//	"<array>"      any array
//	"<has:a|b>"    an array holding at least the strings a and b
//	"<~text>"      a string containing text
//	"<uuid>"       a UUID string
//	"<timestamp>"  an ISO 8601 UTC time with milliseconds
//	"<session>"    the session id of the run
//	"<$name>"      any value, remembered as name; later uses must be equal
var (
	uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	timeRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
)

// matcher checks lines against patterns, keeping captured values.
type matcher struct {
	vars map[string]any
}

func newMatcher(session string) *matcher {
	return &matcher{vars: map[string]any{"session": session}}
}

// match compares a line with a pattern; the error lists every difference.
func (m *matcher) match(pattern, line string) error {
	var want, got any
	if err := json.Unmarshal([]byte(pattern), &want); err != nil {
		return fmt.Errorf("bad pattern %s: %v", pattern, err)
	}
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		return fmt.Errorf("line is not JSON: %q", line)
	}
	var diffs []string
	m.walk("$", want, got, &diffs)
	if len(diffs) > 0 {
		return fmt.Errorf("line does not match:\n  %s\nline:    %s\npattern: %s", strings.Join(diffs, "\n  "), line, pattern)
	}
	return nil
}

func (m *matcher) walk(path string, want, got any, diffs *[]string) {
	add := func(format string, args ...any) { *diffs = append(*diffs, path+": "+fmt.Sprintf(format, args...)) }
	if s, ok := want.(string); ok && strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">") {
		m.placeholder(s, got, add)
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			add("want an object, got %s", js(got))
			return
		}
		var keys []string
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			_, ok := w[k]
			_, optional := w[k+"?"]
			if !ok && !optional {
				add("unexpected member %q = %s", k, js(g[k]))
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			name, optional := strings.CutSuffix(k, "?")
			gv, ok := g[name]
			if !ok {
				if !optional {
					add("missing member %q", k)
				}
				continue
			}
			m.walk(path+"."+name, w[k], gv, diffs)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			add("want %d elements, got %s", len(w), js(got))
			return
		}
		for i := range w {
			m.walk(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], diffs)
		}
	default:
		if js(want) != js(got) {
			add("want %s, got %s", js(want), js(got))
		}
	}
}

func (m *matcher) placeholder(p string, got any, add func(string, ...any)) {
	s, isStr := got.(string)
	switch {
	case p == "<any>":
	case p == "<string>":
		if !isStr {
			add("want a string, got %s", js(got))
		}
	case p == "<number>":
		if _, ok := got.(float64); !ok {
			add("want a number, got %s", js(got))
		}
	case p == "<array>":
		if _, ok := got.([]any); !ok {
			add("want an array, got %s", js(got))
		}
	case strings.HasPrefix(p, "<~"):
		if sub := strings.TrimSuffix(strings.TrimPrefix(p, "<~"), ">"); !isStr || !strings.Contains(s, sub) {
			add("want a string containing %q, got %s", sub, js(got))
		}
	case strings.HasPrefix(p, "<has:"):
		arr, ok := got.([]any)
		if !ok {
			add("want an array, got %s", js(got))
			return
		}
		for _, w := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(p, "<has:"), ">"), "|") {
			found := false
			for _, v := range arr {
				found = found || v == w
			}
			if !found {
				add("want %q among %s", w, js(got))
			}
		}
	case p == "<uuid>":
		if !isStr || !uuidRE.MatchString(s) {
			add("want a UUID, got %s", js(got))
		}
	case p == "<timestamp>":
		if !isStr || !timeRE.MatchString(s) {
			add("want a timestamp, got %s", js(got))
		}
	case p == "<session>":
		if got != m.vars["session"] {
			add("want the session id %v, got %s", m.vars["session"], js(got))
		}
	case strings.HasPrefix(p, "<$"):
		name := strings.TrimSuffix(strings.TrimPrefix(p, "<$"), ">")
		if prev, ok := m.vars[name]; ok {
			if js(prev) != js(got) {
				add("want %s (as %s before), got %s", js(prev), name, js(got))
			}
			return
		}
		m.vars[name] = got
	default:
		if p != got {
			add("want %q, got %s", p, js(got))
		}
	}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestMatcherChecksMembersAndPlaceholders(t *testing.T) {
	m := newMatcher("11111111-2222-3333-4444-555555555555")
	cases := []struct {
		pattern, line string
		ok            bool
	}{
		{`{"a":1}`, `{"a":1}`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":1,"b":2}`, `{"a":1}`, false},
		{`{"a":"<uuid>"}`, `{"a":"11111111-2222-3333-4444-555555555555"}`, true},
		{`{"a":"<uuid>"}`, `{"a":"x"}`, false},
		{`{"a":1,"b?":"<number>"}`, `{"a":1}`, true},
		{`{"a":1,"b?":"<number>"}`, `{"a":1,"b":2}`, true},
		{`{"a":1,"b?":"<number>"}`, `{"a":1,"b":"x"}`, false},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":"<session>"}`, `{"a":"11111111-2222-3333-4444-555555555555"}`, true},
		{`{"a":"<$x>","b":"<$x>"}`, `{"a":"p","b":"p"}`, true},
		{`{"a":"<$y>","b":"<$y>"}`, `{"a":"p","b":"q"}`, false},
		{`{"a":[1,"<number>"]}`, `{"a":[1,2.5]}`, true},
		{`{"a":[1]}`, `{"a":[1,2]}`, false},
		{`{"a":null}`, `{"a":null}`, true},
		{`{"a":"<timestamp>"}`, `{"a":"2026-01-02T03:04:05.678Z"}`, true},
		{`{"a":"<has:x|y>"}`, `{"a":["w","y","x"]}`, true},
		{`{"a":"<has:x|y>"}`, `{"a":["x"]}`, false},
		{`{"a":"<~lo w>"}`, `{"a":"hello world"}`, true},
		{`{"a":"<~lo w>"}`, `{"a":"hello"}`, false},
	}
	for _, c := range cases {
		err := m.match(c.pattern, c.line)
		if (err == nil) != c.ok {
			t.Errorf("match(%s, %s) = %v, want ok=%v", c.pattern, c.line, err, c.ok)
		}
	}
}
