package llmtest

import (
	"bytes"
	"encoding/json"
	"testing"

	"reins/internal/llm"
)

// FuzzSplitObjectAgreesWithEncodingJSON: on any input the splitter never
// panics; when it accepts a document that encoding/json also accepts, the
// members and array elements are the same bytes encoding/json gives.
func FuzzSplitObjectAgreesWithEncodingJSON(f *testing.F) {
	f.Add([]byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"a\"]}"}],"tools":[],"stream":true}`))
	f.Add([]byte(` { "a" : [1, {"b": "}"}] , "c":null } `))
	f.Add([]byte(`{"a":[1,2,]}`))
	f.Add([]byte(`{"a\u0041":1}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, ok := splitObject(b)
		var ref map[string]json.RawMessage
		if err := json.Unmarshal(b, &ref); err != nil || !ok {
			return
		}
		if len(m) != len(ref) {
			t.Fatalf("%d members, encoding/json has %d: %s", len(m), len(ref), b)
		}
		for k, v := range ref {
			if !bytes.Equal(m[k], v) {
				t.Fatalf("member %q = %s, encoding/json gives %s", k, m[k], v)
			}
			var arr []json.RawMessage
			if json.Unmarshal(v, &arr) != nil || arr == nil { // not an array, or null
				continue
			}
			elems, ok := splitArray(v)
			if !ok || len(elems) != len(arr) {
				t.Fatalf("array %s split into %d (ok %v), want %d", v, len(elems), ok, len(arr))
			}
			for i := range arr {
				if !bytes.Equal(elems[i], arr[i]) {
					t.Fatalf("element %d = %s, want %s", i, elems[i], arr[i])
				}
			}
		}
	})
}

func TestParseRequestRefusesWhatEncodingJSONRefuses(t *testing.T) {
	for _, body := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"metadata":{"user_id":tru}}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"name":"x",}]}`,
		`{"model":5,"messages":[{"role":"user","content":"hi"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}]`,
		`{"model":"m","system":7,"messages":[{"role":"user","content":"hi"}]}`,
	} {
		if _, err := parseRequest([]byte(body), &parseCache{messages: map[string]*llm.Message{}, toolNames: map[string]string{}}); err == nil {
			t.Errorf("accepted %s", body)
		}
	}
	req, err := parseRequest([]byte(`{"model":"m","max_tokens":9,"stream":true,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"Read"}]}`),
		&parseCache{messages: map[string]*llm.Message{}, toolNames: map[string]string{}})
	if err != nil || req.Model != "m" || req.MaxTokens != 9 || !req.Stream || len(req.Messages) != 1 || len(req.Tools) != 1 {
		t.Fatalf("parseRequest = %+v, %v", req, err)
	}
}

// parseRequest is both parts of the server's parsing at once: split,
// then decode (reusing and extending c).
func parseRequest(body []byte, c *parseCache) (*Request, error) {
	req, err := splitBody(body)
	if err != nil {
		return nil, err
	}
	if err := decodeRequest(req, c); err != nil {
		return nil, err
	}
	return req, nil
}
