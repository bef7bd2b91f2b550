package llmtest

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestStripCacheRemovesOnlyTheMember(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"type":"text","text":"x","cache_control":{"type":"ephemeral"}}`, `{"type":"text","text":"x"}`},
		{`{"cache_control":{"type":"ephemeral"},"a":1}`, `{"a":1}`},
		{`{"cache_control":{"type":"ephemeral"}}`, `{}`},
		{`{"a": 1, "cache_control": {"type": "ephemeral", "ttl": "1h"}}`, `{"a": 1}`},
		{`[{"a":[1,{"b":"}"}],"cache_control":{"type":"ephemeral"}},{"c":2,"cache_control":{"type":"ephemeral"}}]`, `[{"a":[1,{"b":"}"}]},{"c":2}]`},
		{`{"text":"say \"cache_control\": {} here"}`, `{"text":"say \"cache_control\": {} here"}`},
		{`{"a":1}`, `{"a":1}`},
	}
	for _, c := range cases {
		if got := string(stripCache([]byte(c.in))); got != c.want {
			t.Errorf("stripCache(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// canonicalStrip is the slow reference: decode, delete the key
// everywhere, encode.
func canonicalStrip(b []byte) ([]byte, bool) {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil, false
	}
	var strip func(any) any
	strip = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			delete(t, "cache_control")
			for k, x := range t {
				t[k] = strip(x)
			}
		case []any:
			for i, x := range t {
				t[i] = strip(x)
			}
		}
		return v
	}
	out, _ := json.Marshal(strip(v))
	return out, true
}

// FuzzStripCache checks that the byte-level strip never panics and, on
// valid JSON, means the same as decoding and deleting the key.
func FuzzStripCache(f *testing.F) {
	f.Add([]byte(`{"a":1,"cache_control":{"type":"ephemeral"}}`))
	f.Add([]byte(`[{"cache_control":{"type":"ephemeral"}},{"x":"\"cache_control\":"}]`))
	f.Add([]byte(`{"cache_control" : "x" , "b" : [ 1 , 2 ] }`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got := stripCache(b)
		want, ok := canonicalStrip(b)
		if !ok {
			return
		}
		if bytes.Contains(b, []byte(`"cache_control"`)) && !json.Valid(got) {
			t.Fatalf("stripCache(%s) = %s: not JSON", b, got)
		}
		gotCanon, _ := canonicalStrip(got)
		if !bytes.Equal(gotCanon, want) {
			t.Fatalf("stripCache(%s) = %s, which means %s, want %s", b, got, gotCanon, want)
		}
	})
}
