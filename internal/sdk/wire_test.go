package sdk

import (
	"errors"
	"strings"
	"testing"
)

func TestDecodeReadsEachKindOfLine(t *testing.T) {
	cases := []struct {
		name, line string
		check      func(t *testing.T, m *Message)
	}{
		{"user with string content", `{"type":"user","session_id":"","message":{"role":"user","content":"hello"},"parent_tool_use_id":null}`,
			func(t *testing.T, m *Message) {
				if len(m.User.Content) != 1 || m.User.Content[0].Text != "hello" {
					t.Errorf("content %+v", m.User.Content)
				}
			}},
		{"user with blocks and uuid", `{"type":"user","uuid":"u-1","message":{"role":"user","content":[{"type":"text","text":"a"},` +
			`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]}}`,
			func(t *testing.T, m *Message) {
				if m.User.UUID != "u-1" || len(m.User.Content) != 2 || m.User.Content[1].Source == nil {
					t.Errorf("user %+v", m.User)
				}
			}},
		{"user without a role", `{"type":"user","message":{"content":"x"}}`, nil},
		{"control request", `{"type":"control_request","request_id":"r1","request":{"subtype":"interrupt"}}`,
			func(t *testing.T, m *Message) {
				if m.RequestID != "r1" || m.Subtype != "interrupt" || !strings.Contains(string(m.Request), "interrupt") {
					t.Errorf("request %+v", m)
				}
			}},
		{"control response", `{"type":"control_response","response":{"subtype":"success","request_id":"q","response":{"behavior":"allow"}}}`,
			func(t *testing.T, m *Message) {
				if m.Answer.RequestID != "q" || m.Answer.Subtype != "success" || string(m.Answer.Response) != `{"behavior":"allow"}` {
					t.Errorf("answer %+v", m.Answer)
				}
			}},
		{"error response", `{"type":"control_response","response":{"subtype":"error","request_id":"q","error":"no"}}`,
			func(t *testing.T, m *Message) {
				if m.Answer.Error != "no" {
					t.Errorf("answer %+v", m.Answer)
				}
			}},
		{"cancel", `{"type":"control_cancel_request","request_id":"c"}`, func(t *testing.T, m *Message) {
			if m.RequestID != "c" {
				t.Errorf("id %q", m.RequestID)
			}
		}},
		{"unknown type passes through", `{"type":"future_thing","x":1}`, func(t *testing.T, m *Message) {
			if m.Type != "future_thing" {
				t.Errorf("type %q", m.Type)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Decode([]byte(c.line), 7)
			if err != nil {
				t.Fatal(err)
			}
			if m.Line != 7 {
				t.Errorf("line %d", m.Line)
			}
			if c.check != nil {
				c.check(t, m)
			}
		})
	}
}

func TestDecodeRejectsMalformedLinesSayingWhy(t *testing.T) {
	cases := []struct {
		name, line string
		requestID  string // the id the error keeps, so it can be answered
		user       bool
		want       string
	}{
		{"not JSON", `{oops`, "", false, "invalid JSON"},
		{"array", `[1,2]`, "", false, "not a JSON object"},
		{"no type", `{"request_id":"r"}`, "r", false, `no "type" member`},
		{"request without id", `{"type":"control_request","request":{"subtype":"interrupt"}}`, "", false, "without a string request_id"},
		{"numeric id", `{"type":"control_request","request_id":4,"request":{"subtype":"interrupt"}}`, "", false, "without a string request_id"},
		{"request not an object", `{"type":"control_request","request_id":"r","request":[]}`, "r", false, `"request" is not an object`},
		{"no subtype", `{"type":"control_request","request_id":"r","request":{}}`, "r", false, `no string "subtype"`},
		{"subtype not a string", `{"type":"control_request","request_id":"r","request":{"subtype":3}}`, "r", false, `no string "subtype"`},
		{"response without id", `{"type":"control_response","response":{"subtype":"success"}}`, "", false, "without a request_id"},
		{"response bad subtype", `{"type":"control_response","response":{"subtype":"maybe","request_id":"q"}}`, "", false, "neither success nor error"},
		{"cancel without id", `{"type":"control_cancel_request"}`, "", false, "without a string request_id"},
		{"user content number", `{"type":"user","message":{"role":"user","content":42}}`, "", true, "must be a string or an array"},
		{"user empty content", `{"type":"user","message":{"role":"user","content":[]}}`, "", true, "content is empty"},
		{"assistant role", `{"type":"user","message":{"role":"assistant","content":"x"}}`, "", true, `role is "assistant"`},
		{"tool_result block", `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]}}`, "", true, `"tool_result" cannot start a turn`},
		{"image without source", `{"type":"user","message":{"role":"user","content":[{"type":"image"}]}}`, "", true, "has no source"},
		{"no message", `{"type":"user"}`, "", true, `"message" is not an object`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.line), 3)
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *LineError", err)
			}
			if le.Line != 3 || le.RequestID != c.requestID || le.User != c.user || !strings.Contains(le.Error(), c.want) {
				t.Errorf("got %+v (%v), want id %q user %v and %q", le, le, c.requestID, c.user, c.want)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{userLine, `{"type":"control_request","request_id":"r","request":{"subtype":"x"}}`,
		`{"type":"control_response","response":{"subtype":"success","request_id":"q"}}`, `{}`, `{"type":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data, 1)
		if (m == nil) == (err == nil) {
			t.Fatalf("Decode(%q) = %v, %v: exactly one must be set", data, m, err)
		}
		if m != nil {
			switch m.Type {
			case KindUser:
				if m.User == nil || len(m.User.Content) == 0 {
					t.Fatalf("user message without content from %q", data)
				}
			case KindControlRequest:
				if m.RequestID == "" || m.Subtype == "" {
					t.Fatalf("request without id or subtype from %q", data)
				}
			case KindControlResponse:
				if m.Answer == nil || m.Answer.RequestID == "" {
					t.Fatalf("response without id from %q", data)
				}
			}
		}
	})
}
