package session

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"reins/internal/llm"
)

// Resume speed: llm.Message and llm.ContentBlock decode themselves through
// nested json.Unmarshal calls, and each level validates its bytes again,
// so a tool result's text is scanned five or six times. Transcripts are
// read in bulk on resume, so lines are decoded here in one pass into plain
// structs that mirror the wire shapes, then converted. Whatever this fast
// path does not know (an unknown block type, string content, any decoding
// error) falls back to the llm decoders for that line, and a fuzz test
// checks that both paths agree.

// fastEntry is loadEntry with the message in wire form.
type fastEntry struct {
	Type             string           `json:"type"`
	UUID             string           `json:"uuid"`
	ParentUUID       *string          `json:"parentUuid"`
	LogicalParent    string           `json:"logicalParentUuid"`
	IsSidechain      bool             `json:"isSidechain"`
	SessionID        string           `json:"sessionId"`
	Timestamp        string           `json:"timestamp"`
	Cwd              string           `json:"cwd"`
	GitBranch        string           `json:"gitBranch"`
	IsMeta           bool             `json:"isMeta"`
	IsCompactSummary bool             `json:"isCompactSummary"`
	IsAPIError       bool             `json:"isApiErrorMessage"`
	Message          *fastMessage     `json:"message"`
	Subtype          string           `json:"subtype"`
	CompactMetadata  *CompactMetadata `json:"compactMetadata"`
	Todos            json.RawMessage  `json:"todos"`
	Replacements     []Replacement    `json:"replacements"`
	Summary          string           `json:"summary"`
	CustomTitle      string           `json:"customTitle"`
	LastPrompt       string           `json:"lastPrompt"`
}

type fastMessage struct {
	ID           string      `json:"id"`
	Role         llm.Role    `json:"role"`
	Model        string      `json:"model"`
	Content      []fastBlock `json:"content"`
	StopReason   *string     `json:"stop_reason"`
	StopSequence *string     `json:"stop_sequence"`
	Usage        *llm.Usage  `json:"usage"`
}

type fastBlock struct {
	Type         string            `json:"type"`
	Text         *string           `json:"text"`
	Citations    json.RawMessage   `json:"citations"`
	Source       *llm.Source       `json:"source"`
	ID           string            `json:"id"`
	Name         string            `json:"name"`
	Input        json.RawMessage   `json:"input"`
	ToolUseID    string            `json:"tool_use_id"`
	Content      resultContent     `json:"content"`
	IsError      bool              `json:"is_error"`
	Thinking     string            `json:"thinking"`
	Signature    string            `json:"signature"`
	Data         string            `json:"data"`
	CacheControl *llm.CacheControl `json:"cache_control"`
}

// resultContent is a tool_result's content: a string, decoded straight
// from the bytes the decoder already validated, or anything else kept raw
// for the llm decoder.
type resultContent struct {
	isText bool
	text   string
	raw    json.RawMessage
}

// UnmarshalJSON keeps a string's text, or any other value as it is.
func (c *resultContent) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) >= 2 && b[0] == '"':
		c.isText, c.text = true, unquote(b)
	case string(b) != "null":
		c.raw = append(json.RawMessage(nil), b...)
	}
	return nil
}

// decodeEntry decodes one transcript line.
func decodeEntry(line []byte) (loadEntry, error) {
	var f fastEntry
	if err := json.Unmarshal(line, &f); err == nil {
		if e, ok := f.entry(); ok {
			return e, nil
		}
	}
	var e loadEntry
	err := json.Unmarshal(line, &e)
	return e, err
}

func (f *fastEntry) entry() (loadEntry, bool) {
	e := loadEntry{Type: f.Type, UUID: f.UUID, ParentUUID: f.ParentUUID, LogicalParent: f.LogicalParent, IsSidechain: f.IsSidechain,
		SessionID: f.SessionID, Timestamp: f.Timestamp, Cwd: f.Cwd, GitBranch: f.GitBranch,
		IsMeta: f.IsMeta, IsCompactSummary: f.IsCompactSummary, IsAPIError: f.IsAPIError, Subtype: f.Subtype,
		CompactMetadata: f.CompactMetadata, Todos: f.Todos, Replacements: f.Replacements,
		Summary: f.Summary, CustomTitle: f.CustomTitle, LastPrompt: f.LastPrompt}
	if f.Message != nil {
		m, ok := f.Message.message()
		if !ok {
			return e, false
		}
		e.Message = m
	}
	return e, true
}

func (w *fastMessage) message() (*llm.Message, bool) {
	m := &llm.Message{Role: w.Role, ID: w.ID, Model: w.Model, Usage: w.Usage}
	if w.StopReason != nil {
		m.StopReason = *w.StopReason
	}
	if w.StopSequence != nil {
		m.StopSequence = *w.StopSequence
	}
	if w.Content != nil {
		m.Content = make([]llm.ContentBlock, len(w.Content))
		for i := range w.Content {
			if !w.Content[i].block(&m.Content[i]) {
				return nil, false
			}
		}
	}
	return m, true
}

// block converts a wire block as llm.ContentBlock.UnmarshalJSON would; it
// reports false for what it leaves to that decoder.
func (w *fastBlock) block(b *llm.ContentBlock) bool {
	*b = llm.ContentBlock{Type: w.Type, CacheControl: w.CacheControl}
	switch w.Type {
	case llm.BlockText:
		if w.Text != nil {
			b.Text = *w.Text
		}
		if len(w.Citations) > 0 && string(w.Citations) != "null" {
			b.Citations = w.Citations
		}
	case llm.BlockImage, llm.BlockDocument:
		b.Source = w.Source
	case llm.BlockToolUse:
		b.ID, b.Name = w.ID, w.Name
		if len(w.Input) > 0 {
			b.Input = compact(w.Input)
		}
	case llm.BlockToolResult:
		b.ToolUseID, b.IsError = w.ToolUseID, w.IsError
		switch c := &w.Content; {
		case c.isText:
			b.Content = []llm.ContentBlock{llm.TextBlock(c.text)}
		case c.raw != nil:
			if err := json.Unmarshal(c.raw, &b.Content); err != nil {
				return false
			}
		}
	case llm.BlockThinking:
		b.Thinking, b.Signature = w.Thinking, w.Signature
	case llm.BlockRedactedThinking:
		b.Data = w.Data
	default:
		return false
	}
	return true
}

// compact removes insignificant white space from valid JSON, returning
// raw itself when there is none.
func compact(raw json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	if buf.Len() == len(raw) {
		return raw
	}
	return buf.Bytes()
}

// unquote decodes a JSON string literal that encoding/json has already
// validated, with its rules: invalid UTF-8 and lone surrogates become
// U+FFFD.
func unquote(q []byte) string {
	s := q[1 : len(q)-1]
	if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		return string(s)
	}
	var out strings.Builder
	out.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'b':
				out.WriteByte('\b')
			case 'f':
				out.WriteByte('\f')
			case 'n':
				out.WriteByte('\n')
			case 'r':
				out.WriteByte('\r')
			case 't':
				out.WriteByte('\t')
			case 'u':
				r, n := unicodeEscape(s[i-1:])
				out.WriteRune(r)
				i += n - 2
			default: // " \ /
				out.WriteByte(s[i])
			}
			i++
		case c < utf8.RuneSelf:
			out.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			out.WriteRune(r) // RuneError for invalid bytes
			i += size
		}
	}
	return out.String()
}

// unicodeEscape reads \uXXXX (and a following low surrogate) at the start
// of s, returning the rune and the bytes used.
func unicodeEscape(s []byte) (rune, int) {
	r := hex4(s[2:6])
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if r2 := utf16.DecodeRune(r, hex4(s[8:12])); r2 != utf8.RuneError {
			return r2, 12
		}
	}
	return utf8.RuneError, 6
}

func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}
