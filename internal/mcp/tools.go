package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/llm"
	"reins/internal/tool"
	"reins/internal/tools/read"
)

// MaxDescriptionChars bounds a server's tool description; longer ones are
// cut (servers sometimes ship whole manuals).
const MaxDescriptionChars = 2048

// MetaAlwaysLoad is the _meta key by which a server asks that a tool be
// sent with its schema from the first turn rather than deferred.
const MetaAlwaysLoad = "anthropic/alwaysLoad"

// MaxToolNameLen is the longest tool name the Messages API accepts.
const MaxToolNameLen = 64

// maxServerPart is how much of a tool name a long server name may take,
// so that the tool's own name keeps room.
const maxServerPart = 24

// ToolName is the name the model calls a server's tool by:
// mcp__<server>__<tool>, each part normalised. A name longer than the API
// accepts (MaxToolNameLen; one such tool would fail every request) is
// shortened: a long server part, then the tool part, is cut and ends with
// a hash of the original, so names stay distinct and stable.
func ToolName(server, toolName string) string {
	srv, tl := NormalizeName(server), NormalizeName(toolName)
	name := "mcp__" + srv + "__" + tl
	if len(name) <= MaxToolNameLen {
		return name
	}
	if len(srv) > maxServerPart {
		srv = shorten(srv, server, maxServerPart)
	}
	if room := MaxToolNameLen - len("mcp__"+srv+"__"); len(tl) > room {
		tl = shorten(tl, server+"\x00"+toolName, room)
	}
	return "mcp__" + srv + "__" + tl
}

// shorten cuts s to n bytes, the last seven "_" and a hash of original.
func shorten(s, original string, n int) string {
	sum := sha256.Sum256([]byte(original))
	tail := "_" + hex.EncodeToString(sum[:3])
	if n <= len(tail) {
		return tail[len(tail)-n:]
	}
	return s[:n-len(tail)] + tail
}

// NormalizeName replaces every character a tool name may not hold (the
// API allows letters, digits, "_" and "-") with "_".
func NormalizeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

// Tool is a server's tool as a reins tool.Tool. It calls through the
// server's current connection, so it keeps working across a reconnect.
type Tool struct {
	srv        *server
	name       string // mcp__server__tool
	remote     string // the server's own name for it
	desc       string
	title      string
	schema     json.RawMessage
	readOnly   bool
	alwaysLoad bool
	// maxResultChars is the limit the server set on the tool's results
	// (MetaMaxResultSizeChars); 0 when it set none.
	maxResultChars int
}

var _ tool.Deferrable = (*Tool)(nil)

func newTool(srv *server, t *sdk.Tool) *Tool {
	mt := &Tool{srv: srv, name: ToolName(srv.name, t.Name), remote: t.Name, title: t.Title}
	mt.desc = strings.TrimSpace(t.Description)
	if len(mt.desc) > MaxDescriptionChars {
		mt.desc = truncateUTF8(mt.desc, MaxDescriptionChars) + "… [description cut]"
	}
	if t.Annotations != nil {
		mt.readOnly = t.Annotations.ReadOnlyHint
		if mt.title == "" {
			mt.title = t.Annotations.Title
		}
	}
	if v, ok := t.Meta[MetaAlwaysLoad].(bool); ok {
		mt.alwaysLoad = v
	}
	if v, ok := t.Meta[MetaMaxResultSizeChars].(float64); ok && v >= 1 {
		mt.maxResultChars = int(min(v, MaxResultSizeCharsCap))
	}
	mt.schema = objectSchema(t.InputSchema)
	return mt
}

// objectSchema renders a server's input schema for the model and for
// validation: an object schema without the "$schema" draft marker (the
// validator speaks draft 2020-12, and older drafts' keywords it does not
// know are ignored).
func objectSchema(s any) json.RawMessage {
	m, ok := s.(map[string]any)
	if !ok {
		var raw []byte
		switch v := s.(type) {
		case json.RawMessage:
			raw = v
		case []byte:
			raw = v
		}
		if raw == nil || json.Unmarshal(raw, &m) != nil {
			m = nil
		}
	}
	if m == nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != "$schema" {
			out[k] = v
		}
	}
	if _, ok := out["type"]; !ok {
		out["type"] = "object"
	}
	b, err := json.Marshal(out)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return b
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Name is mcp__<server>__<tool>.
func (t *Tool) Name() string { return t.name }

// Server is the server's configured name.
func (t *Tool) Server() string { return t.srv.name }

// RemoteName is the tool's name on its server.
func (t *Tool) RemoteName() string { return t.remote }

// Description is the server's description.
func (t *Tool) Description() string { return t.desc }

// InputSchema is the server's input schema.
func (t *Tool) InputSchema() json.RawMessage { return t.schema }

// Validate accepts every input that matches the schema; the server
// checks the rest.
func (t *Tool) Validate(context.Context, *tool.Call, json.RawMessage) error { return nil }

// IsReadOnly follows the readOnlyHint annotation.
func (t *Tool) IsReadOnly(json.RawMessage) bool { return t.readOnly }

// IsConcurrencySafe follows the readOnlyHint annotation.
func (t *Tool) IsConcurrencySafe(json.RawMessage) bool { return t.readOnly }

// InterruptBehavior lets a read-only call be cancelled by a new message;
// others finish.
func (t *Tool) InterruptBehavior() tool.Interrupt {
	if t.readOnly {
		return tool.Cancel
	}
	return tool.Block
}

// MaxResultChars leaves large outputs to the executor's result policy,
// under the MCP output limit (ResultLimit).
func (t *Tool) MaxResultChars() int { return tool.DefaultMaxResultChars }

// ShouldDefer is true unless the server marked the tool alwaysLoad.
func (t *Tool) ShouldDefer() bool { return !t.alwaysLoad }

// Title is the tool's title for people, when the server gave one.
func (t *Tool) Title() string { return t.title }

// SearchHint is the tool's title, when the server gave one.
func (t *Tool) SearchHint() string { return t.title }

// Call runs the tool on its server, bounded by the tool timeout.
func (t *Tool) Call(ctx context.Context, _ *tool.Call, input json.RawMessage, progress func(tool.Progress)) (*tool.Result, error) {
	cs, err := t.srv.session()
	if err != nil {
		return nil, err
	}
	var args map[string]any
	if len(input) > 0 {
		if err := json.Unmarshal(input, &args); err != nil {
			return nil, fmt.Errorf("%s: input is not a JSON object: %w", t.name, err)
		}
	}
	params := &sdk.CallToolParams{Name: t.remote, Arguments: args}
	if progress != nil {
		// The server's progress notifications for this call are shown
		// as the call's progress.
		// A notification handled as the call returns is dropped, not
		// reported after the call's result.
		token := fmt.Sprintf("%s-%d", t.name, t.srv.calls.Add(1))
		var mu sync.Mutex
		ended := false
		t.srv.progress.Store(token, func(pr tool.Progress) {
			mu.Lock()
			defer mu.Unlock()
			if !ended {
				progress(pr)
			}
		})
		defer func() {
			t.srv.progress.Delete(token)
			mu.Lock()
			ended = true
			mu.Unlock()
		}()
		params.SetProgressToken(token)
	}
	var res *sdk.CallToolResult
	err = t.srv.bounded(ctx, t.remote, func(ctx context.Context) (err error) {
		res, err = cs.CallTool(ctx, params)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := MapResult(res)
	t.srv.m.warnLarge(t.name, t.maxResultChars, out.Content)
	return out, nil
}

// onProgress passes a server's progress notification to the tool call it
// is about: "3/5: message", or what of that the server gave.
func (s *server) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	p := req.Params
	if p == nil {
		return
	}
	fn, ok := s.progress.Load(fmt.Sprint(p.ProgressToken))
	if !ok {
		return // a call that has ended, or a token not ours
	}
	var parts []string
	switch {
	case p.Total > 0:
		parts = append(parts, fmt.Sprintf("%s/%s", strconv.FormatFloat(p.Progress, 'f', -1, 64), strconv.FormatFloat(p.Total, 'f', -1, 64)))
	case p.Progress > 0:
		parts = append(parts, strconv.FormatFloat(p.Progress, 'f', -1, 64))
	}
	if m := strings.TrimSpace(p.Message); m != "" {
		parts = append(parts, m)
	}
	if len(parts) > 0 {
		fn.(func(tool.Progress))(tool.Progress{Message: strings.Join(parts, ": "), Data: p})
	}
}

// bounded runs one request to the server (a tool call, a resource read, a
// prompt), bounded by the tool timeout. what names the request in errors.
// The caller's cancellation comes back as ctx.Err().
func (s *server) bounded(ctx context.Context, what string, fn func(context.Context) error) error {
	timeout, setting := s.m.toolTimeout, "MCP_TOOL_TIMEOUT"
	if ms := s.conf.Config.Timeout; ms > 0 {
		timeout = time.Duration(min(uint64(ms), maxEnvMillis)) * time.Millisecond
		setting = `the server's "timeout" setting`
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := fn(cctx)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("MCP server %q did not answer %s within %s (%s)", s.name, what, timeout.Round(time.Millisecond), setting)
	case errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		// The server went away mid-request (a stdio server crashed):
		// say so, with what it last wrote to stderr.
		msg := fmt.Sprintf("MCP server %q stopped while answering %s (%v)", s.name, what, err)
		if tail := s.stderr.String(); tail != "" {
			msg += "; stderr: " + tail
		}
		s.m.mu.Lock()
		off := s.m.closed || s.state == StateDisabled
		s.m.mu.Unlock()
		switch {
		case off:
			// Stopped on purpose (removed, turned off, shut down): it
			// does not come back by itself.
			msg = fmt.Sprintf("MCP server %q was stopped (removed or turned off) while answering %s, so the call did not finish", s.name, what)
		case s.m.opts.MaxReconnects >= 0:
			msg += "; reins is restarting it, so its tools return shortly"
		}
		return errors.New(msg)
	}
	return fmt.Errorf("MCP server %q: %s failed: %w", s.name, what, err)
}

// MapResult turns a tools/call result into a tool result: text and images
// become content blocks, other content is described in text, and the
// structured content is kept as Data (else the raw content list).
func MapResult(res *sdk.CallToolResult) *tool.Result {
	out := &tool.Result{IsError: res.IsError}
	out.Content = mapContent(res.Content)
	if res.StructuredContent != nil {
		out.Data = res.StructuredContent
		if len(out.Content) == 0 {
			if b, err := json.Marshal(res.StructuredContent); err == nil {
				out.Content = []llm.ContentBlock{llm.TextBlock(string(b))}
			}
		}
	} else if b, err := json.Marshal(res.Content); err == nil {
		out.Data = json.RawMessage(b)
	}
	return out
}

func mapContent(cs []sdk.Content) []llm.ContentBlock {
	var out []llm.ContentBlock
	for _, c := range cs {
		switch v := c.(type) {
		case *sdk.TextContent:
			out = append(out, llm.TextBlock(v.Text))
		case *sdk.ImageContent:
			out = append(out, imageBlock(v.MIMEType, v.Data))
		case *sdk.AudioContent:
			out = append(out, llm.TextBlock(fmt.Sprintf("[audio %s, %d bytes, not shown]", v.MIMEType, len(v.Data))))
		case *sdk.ResourceLink:
			line := fmt.Sprintf("[resource link] %s <%s>", v.Name, v.URI)
			if v.MIMEType != "" {
				line += " (" + v.MIMEType + ")"
			}
			if v.Description != "" {
				line += ": " + v.Description
			}
			out = append(out, llm.TextBlock(line))
		case *sdk.EmbeddedResource:
			if v.Resource != nil {
				out = append(out, resourceBlock(v.Resource))
			}
		default:
			if b, err := json.Marshal(c); err == nil {
				out = append(out, llm.TextBlock(string(b)))
			}
		}
	}
	return out
}

// imageBlock is an image the model can see, or a note for a format it
// cannot. An image larger than the API takes, in bytes or in pixels (over
// read.MaxImageSide a side; one would fail every later request of the
// session), is scaled down as Read does, or replaced by a note when it
// cannot be. The type sent is the one the bytes show, as
// Read finds it: the API refuses an image whose bytes do not match its
// type, and that failure too would come back with every later request.
func imageBlock(mime string, data []byte) llm.ContentBlock {
	switch mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		sniffed := http.DetectContentType(data)
		switch sniffed {
		case "image/png", "image/jpeg", "image/gif", "image/webp":
			mime = sniffed
		default:
			return llm.TextBlock(fmt.Sprintf("[image said to be %s, %d bytes, whose content is not an image (it looks like %s); not shown]",
				mime, len(data), sniffed))
		}
		small, smallMime, err := read.FitImage(data, mime, read.MaxImageBytes)
		if err != nil {
			return llm.TextBlock(fmt.Sprintf("[image %s, %d bytes, larger than the %d bytes or %d pixels a side an image may be, and it could not be scaled down: %v]",
				mime, len(data), read.MaxImageBytes, read.MaxImageSide, err))
		}
		mime, data = smallMime, small
		return llm.ContentBlock{Type: llm.BlockImage, Source: &llm.Source{Type: "base64", MediaType: mime, Data: base64.StdEncoding.EncodeToString(data)}}
	}
	return llm.TextBlock(fmt.Sprintf("[image %s, %d bytes, in a format that cannot be shown]", mime, len(data)))
}

// resourceBlock renders resource contents: text as text (also text sent
// as a blob), images as images, other binaries described.
func resourceBlock(r *sdk.ResourceContents) llm.ContentBlock {
	switch {
	case r.Blob == nil:
		if r.URI == "" {
			return llm.TextBlock(r.Text)
		}
		return llm.TextBlock(fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text))
	case strings.HasPrefix(r.MIMEType, "image/"):
		return imageBlock(r.MIMEType, r.Blob)
	case textMIME(r.MIMEType) && utf8.Valid(r.Blob):
		return llm.TextBlock(fmt.Sprintf("[resource %s]\n%s", r.URI, r.Blob))
	}
	return llm.TextBlock(fmt.Sprintf("[resource %s: %s, %d bytes of binary data, not shown]", r.URI, r.MIMEType, len(r.Blob)))
}

// textMIME reports whether a MIME type names text: text/*, JSON, XML,
// YAML and the like.
func textMIME(mime string) bool {
	mime, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(mime)), ";")
	switch {
	case strings.HasPrefix(mime, "text/"):
		return true
	case strings.HasSuffix(mime, "+json"), strings.HasSuffix(mime, "+xml"), strings.HasSuffix(mime, "+yaml"):
		return true
	}
	switch mime {
	case "application/json", "application/xml", "application/yaml", "application/x-yaml", "application/javascript", "application/toml", "application/x-sh":
		return true
	}
	return false
}
