package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// Role is who speaks a Message.
type Role string

// The two conversation roles of the Messages API.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Content block types this package understands. Any other type is carried
// as raw JSON (see ContentBlock.Raw).
const (
	BlockText             = "text"
	BlockImage            = "image"
	BlockDocument         = "document"
	BlockToolUse          = "tool_use"
	BlockToolResult       = "tool_result"
	BlockThinking         = "thinking"
	BlockRedactedThinking = "redacted_thinking"
)

// CacheControl marks a prompt-cache breakpoint on a block.
type CacheControl struct {
	Type string `json:"type"`          // always "ephemeral"
	TTL  string `json:"ttl,omitempty"` // "5m" (default) or "1h"
}

// Source is the payload of an image or document block.
type Source struct {
	Type      string `json:"type"`                 // "base64", "url" or "text"
	MediaType string `json:"media_type,omitempty"` // e.g. "image/png"
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// ContentBlock is one block of a message. Which fields are meaningful
// depends on Type; the zero values of the others are ignored.
//
// A block whose type is not one of the Block* constants keeps its original
// JSON in Raw and is written back unchanged.
type ContentBlock struct {
	Type string

	// text
	Text      string
	Citations json.RawMessage // passed through untouched when present

	// image, document
	Source *Source

	// tool_use
	ID    string
	Name  string
	Input json.RawMessage // a JSON object; "{}" when the tool takes no input

	// tool_result
	ToolUseID string
	Content   []ContentBlock // text and image blocks
	IsError   bool

	// thinking, redacted_thinking
	Thinking  string
	Signature string
	Data      string

	// CacheControl, when set, makes this block a prompt-cache breakpoint.
	CacheControl *CacheControl

	// Raw holds the exact JSON of a block of unknown type.
	Raw json.RawMessage
}

// TextBlock returns a text block.
func TextBlock(s string) ContentBlock { return ContentBlock{Type: BlockText, Text: s} }

// ToolResultBlock returns a tool_result block answering the tool_use id with
// the given content.
func ToolResultBlock(id string, content []ContentBlock, isError bool) ContentBlock {
	return ContentBlock{Type: BlockToolResult, ToolUseID: id, Content: content, IsError: isError}
}

// ResultText concatenates the text blocks of a tool_result's content.
func (b *ContentBlock) ResultText() string {
	if len(b.Content) == 1 && b.Content[0].Type == BlockText {
		return b.Content[0].Text
	}
	var sb bytes.Buffer
	for i, c := range b.Content {
		if c.Type == BlockText {
			if i > 0 && sb.Len() > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(c.Text)
		}
	}
	return sb.String()
}

// MarshalJSON writes the block in Messages API form with a fixed field order,
// so that equal blocks always encode to equal bytes.
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	return b.appendJSON(nil)
}

func (b *ContentBlock) appendJSON(buf []byte) ([]byte, error) {
	if b.Raw != nil && !isKnownType(b.Type) {
		return append(buf, b.Raw...), nil
	}
	buf = append(buf, `{"type":`...)
	buf = appendString(buf, b.Type)
	var err error
	switch b.Type {
	case BlockText:
		buf = append(buf, `,"text":`...)
		buf = appendString(buf, b.Text)
		if len(b.Citations) > 0 {
			buf = append(buf, `,"citations":`...)
			buf = append(buf, b.Citations...)
		}
	case BlockImage, BlockDocument:
		buf = append(buf, `,"source":`...)
		src, err := json.Marshal(b.Source)
		if err != nil {
			return nil, fmt.Errorf("encode %s source: %w", b.Type, err)
		}
		buf = append(buf, src...)
	case BlockToolUse:
		buf = append(buf, `,"id":`...)
		buf = appendString(buf, b.ID)
		buf = append(buf, `,"name":`...)
		buf = appendString(buf, b.Name)
		buf = append(buf, `,"input":`...)
		if len(b.Input) == 0 {
			buf = append(buf, "{}"...)
		} else {
			buf = append(buf, b.Input...)
		}
	case BlockToolResult:
		buf = append(buf, `,"tool_use_id":`...)
		buf = appendString(buf, b.ToolUseID)
		if len(b.Content) == 1 && b.Content[0].Type == BlockText && b.Content[0].CacheControl == nil && b.Content[0].Citations == nil {
			buf = append(buf, `,"content":`...)
			buf = appendString(buf, b.Content[0].Text)
		} else if len(b.Content) > 0 {
			buf = append(buf, `,"content":[`...)
			for i := range b.Content {
				if i > 0 {
					buf = append(buf, ',')
				}
				if buf, err = b.Content[i].appendJSON(buf); err != nil {
					return nil, err
				}
			}
			buf = append(buf, ']')
		}
		if b.IsError {
			buf = append(buf, `,"is_error":true`...)
		}
	case BlockThinking:
		buf = append(buf, `,"thinking":`...)
		buf = appendString(buf, b.Thinking)
		buf = append(buf, `,"signature":`...)
		buf = appendString(buf, b.Signature)
	case BlockRedactedThinking:
		buf = append(buf, `,"data":`...)
		buf = appendString(buf, b.Data)
	}
	if b.CacheControl != nil {
		buf = append(buf, `,"cache_control":{"type":`...)
		buf = appendString(buf, b.CacheControl.Type)
		if b.CacheControl.TTL != "" {
			buf = append(buf, `,"ttl":`...)
			buf = appendString(buf, b.CacheControl.TTL)
		}
		buf = append(buf, '}')
	}
	return append(buf, '}'), nil
}

func isKnownType(t string) bool {
	switch t {
	case BlockText, BlockImage, BlockDocument, BlockToolUse, BlockToolResult, BlockThinking, BlockRedactedThinking:
		return true
	}
	return false
}

// wireBlock is the decoding form of a block.
type wireBlock struct {
	Type         string          `json:"type"`
	Text         *string         `json:"text"`
	Citations    json.RawMessage `json:"citations"`
	Source       *Source         `json:"source"`
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Input        json.RawMessage `json:"input"`
	ToolUseID    string          `json:"tool_use_id"`
	Content      json.RawMessage `json:"content"`
	IsError      bool            `json:"is_error"`
	Thinking     string          `json:"thinking"`
	Signature    string          `json:"signature"`
	Data         string          `json:"data"`
	CacheControl *CacheControl   `json:"cache_control"`
}

// UnmarshalJSON reads a block in Messages API form. tool_result content may
// be a string or an array of blocks.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	var w wireBlock
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("decode content block: %w", err)
	}
	*b = ContentBlock{Type: w.Type, CacheControl: w.CacheControl}
	switch w.Type {
	case BlockText:
		if w.Text != nil {
			b.Text = *w.Text
		}
		if len(w.Citations) > 0 && string(w.Citations) != "null" {
			b.Citations = append(json.RawMessage(nil), w.Citations...)
		}
	case BlockImage, BlockDocument:
		b.Source = w.Source
	case BlockToolUse:
		b.ID, b.Name = w.ID, w.Name
		if len(w.Input) > 0 {
			b.Input = compactJSON(w.Input)
		}
	case BlockToolResult:
		b.ToolUseID, b.IsError = w.ToolUseID, w.IsError
		if len(w.Content) > 0 && w.Content[0] == '"' {
			var s string
			if err := json.Unmarshal(w.Content, &s); err != nil {
				return fmt.Errorf("decode tool_result content: %w", err)
			}
			b.Content = []ContentBlock{TextBlock(s)}
		} else if len(w.Content) > 0 && string(w.Content) != "null" {
			if err := json.Unmarshal(w.Content, &b.Content); err != nil {
				return fmt.Errorf("decode tool_result content: %w", err)
			}
		}
	case BlockThinking:
		b.Thinking, b.Signature = w.Thinking, w.Signature
	case BlockRedactedThinking:
		b.Data = w.Data
	default:
		b.Raw = append(json.RawMessage(nil), data...)
	}
	return nil
}

func compactJSON(in json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, in); err != nil {
		return append(json.RawMessage(nil), in...)
	}
	return buf.Bytes()
}

// Message is one turn of the conversation. Treat a Message as immutable once
// it is complete: its API encoding is cached on first use. Build a new
// Message (or call Invalidate) to change one.
type Message struct {
	Role    Role
	Content []ContentBlock

	// Assistant metadata, as the API reported it. Not sent back to the API.
	ID           string
	Model        string
	StopReason   string
	StopSequence string
	Usage        *Usage
	// RequestID is the API's id of the request that produced the message
	// (its request-id header), when it gave one.
	RequestID string

	mu  sync.Mutex
	enc []byte // cached API encoding without cache_control; guarded by mu
}

// NewUserText returns a user message with one text block.
func NewUserText(text string) *Message {
	return &Message{Role: RoleUser, Content: []ContentBlock{TextBlock(text)}}
}

// Invalidate drops the cached encoding after Content was changed in place.
func (m *Message) Invalidate() {
	m.mu.Lock()
	m.enc = nil
	m.mu.Unlock()
}

// ToolUses returns the tool_use blocks of the message, in order.
func (m *Message) ToolUses() []ContentBlock {
	var out []ContentBlock
	for _, b := range m.Content {
		if b.Type == BlockToolUse {
			out = append(out, b)
		}
	}
	return out
}

// Text concatenates the message's text blocks.
func (m *Message) Text() string {
	var sb bytes.Buffer
	for _, b := range m.Content {
		if b.Type == BlockText {
			sb.WriteString(b.Text)
		}
	}
	return sb.String()
}

// EncodedSize is the length of the cached API encoding, or an estimate
// when the message has not been encoded yet. It sizes request buffers.
func (m *Message) EncodedSize() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.enc != nil {
		return len(m.enc)
	}
	return m.estimate()
}

// estimate guesses the length of the message's encoding.
func (m *Message) estimate() int {
	n := 32
	for i := range m.Content {
		b := &m.Content[i]
		n += 64 + len(b.Text) + len(b.Input) + len(b.Thinking) + len(b.Signature) + len(b.Raw)
		for j := range b.Content {
			n += 64 + len(b.Content[j].Text)
			if b.Content[j].Source != nil {
				n += len(b.Content[j].Source.Data)
			}
		}
		if b.Source != nil {
			n += len(b.Source.Data)
		}
	}
	return n
}

// AppendAPI appends the message's Messages API encoding,
// {"role":...,"content":[...]}, to buf. With cacheLast, the last content
// block carries an ephemeral cache_control marker (ttl when non-empty). The
// encoding without the marker is cached.
func (m *Message) AppendAPI(buf []byte, cacheLast bool, ttl string) ([]byte, error) {
	if !cacheLast || len(m.Content) == 0 {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.enc == nil {
			enc, err := m.encode(make([]byte, 0, m.estimate()), false, "")
			if err != nil {
				return nil, err
			}
			m.enc = enc
		}
		return append(buf, m.enc...), nil
	}
	return m.encode(buf, true, ttl)
}

func (m *Message) encode(buf []byte, cacheLast bool, ttl string) ([]byte, error) {
	buf = append(buf, `{"role":`...)
	buf = appendString(buf, string(m.Role))
	buf = append(buf, `,"content":[`...)
	var err error
	last := len(m.Content) - 1
	if m.Role == RoleAssistant {
		// A blank text block (recorded before reins left them out, or by
		// another client) is refused by the API; it is not sent.
		for last > 0 && isBlankText(&m.Content[last]) {
			last--
		}
	}
	first := true
	for i := 0; i <= last; i++ {
		b := &m.Content[i]
		if m.Role == RoleAssistant && isBlankText(b) && i != last {
			continue
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		if cacheLast && i == last && b.CacheControl == nil && canCache(b) {
			cp := *b
			cp.CacheControl = &CacheControl{Type: "ephemeral", TTL: ttl}
			b = &cp
		}
		if buf, err = b.appendJSON(buf); err != nil {
			return nil, fmt.Errorf("encode %s message block %d: %w", m.Role, i, err)
		}
	}
	return append(buf, "]}"...), nil
}

// isBlankText reports whether b is a text block with nothing but white
// space.
func isBlankText(b *ContentBlock) bool {
	return b.Type == BlockText && strings.TrimSpace(b.Text) == ""
}

// canCache reports whether the API accepts cache_control on the block.
// Thinking blocks cannot carry it; unknown raw blocks are left untouched.
func canCache(b *ContentBlock) bool {
	switch b.Type {
	case BlockThinking, BlockRedactedThinking:
		return false
	}
	return isKnownType(b.Type)
}

// wireMessage is the JSON form of a Message used by transcripts and the
// stream-json protocol: the API fields plus assistant metadata.
type wireMessage struct {
	ID           string          `json:"id,omitempty"`
	Type         string          `json:"type,omitempty"`
	Role         Role            `json:"role"`
	Model        string          `json:"model,omitempty"`
	Content      json.RawMessage `json:"content"`
	StopReason   *string         `json:"stop_reason,omitempty"`
	StopSequence *string         `json:"stop_sequence,omitempty"`
	Usage        *Usage          `json:"usage,omitempty"`
}

// MarshalJSON writes the message as the Messages API would show it: for an
// assistant message {"id","type":"message","role","model","content",
// "stop_reason","stop_sequence","usage"}; for a user message
// {"role","content"}.
func (m *Message) MarshalJSON() ([]byte, error) {
	return m.AppendJSON(make([]byte, 0, m.EncodedSize()+256))
}

// AppendJSON appends the encoding MarshalJSON returns to buf. It shares
// the cached API encoding (a transcript line and the next request encode
// the same blocks once), and, like it, leaves "<" and ">" unescaped, as
// Claude Code's transcripts do. Callers that splice the result into a
// larger document skip encoding/json's re-validation of a Marshaler's
// output, which scanned every byte of a tool result once per level.
func (m *Message) AppendJSON(buf []byte) ([]byte, error) {
	m.mu.Lock()
	if m.enc == nil {
		enc, err := m.encode(make([]byte, 0, m.estimate()), false, "")
		if err != nil {
			m.mu.Unlock()
			return nil, err
		}
		m.enc = enc
	}
	enc := m.enc
	m.mu.Unlock()
	if m.Role != RoleAssistant {
		return append(buf, enc...), nil
	}
	// enc is {"role":"assistant","content":[...]}: the id and type go
	// before the role, the model between role and content.
	roleEnd := len(`{"role":"assistant"`)
	buf = append(buf, '{')
	if m.ID != "" {
		buf = append(buf, `"id":`...)
		buf = appendString(buf, m.ID)
		buf = append(buf, ',')
	}
	buf = append(buf, `"type":"message",`...)
	buf = append(buf, enc[1:roleEnd]...)
	if m.Model != "" {
		buf = append(buf, `,"model":`...)
		buf = appendString(buf, m.Model)
	}
	buf = append(buf, enc[roleEnd:len(enc)-1]...)
	if m.StopReason != "" {
		buf = append(buf, `,"stop_reason":`...)
		buf = appendString(buf, m.StopReason)
	}
	if m.StopSequence != "" {
		buf = append(buf, `,"stop_sequence":`...)
		buf = appendString(buf, m.StopSequence)
	}
	if m.Usage != nil {
		u, err := json.Marshal(m.Usage)
		if err != nil {
			return nil, fmt.Errorf("encode usage: %w", err)
		}
		buf = append(buf, `,"usage":`...)
		buf = append(buf, u...)
	}
	return append(buf, '}'), nil
}

// UnmarshalJSON reads a message; content may be a string or a block array.
func (m *Message) UnmarshalJSON(data []byte) error {
	var w wireMessage
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("decode message: %w", err)
	}
	m.Role, m.ID, m.Model, m.Usage = w.Role, w.ID, w.Model, w.Usage
	m.Content, m.StopReason, m.StopSequence = nil, "", ""
	m.enc = nil
	if w.StopReason != nil {
		m.StopReason = *w.StopReason
	}
	if w.StopSequence != nil {
		m.StopSequence = *w.StopSequence
	}
	switch {
	case len(w.Content) == 0 || string(w.Content) == "null":
	case w.Content[0] == '"':
		var s string
		if err := json.Unmarshal(w.Content, &s); err != nil {
			return fmt.Errorf("decode message content: %w", err)
		}
		m.Content = []ContentBlock{TextBlock(s)}
	default:
		if err := json.Unmarshal(w.Content, &m.Content); err != nil {
			return fmt.Errorf("decode message content: %w", err)
		}
	}
	return nil
}

// AppendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it with HTML escaping off.
func AppendJSONString(buf []byte, s string) []byte { return appendString(buf, s) }

// appendString appends s as a JSON string. It escapes like encoding/json
// with HTML escaping off, so the bytes match what json.Marshal produces for
// the same text with SetEscapeHTML(false).
func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0xFFFD && size == 1 { // invalid UTF-8
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
