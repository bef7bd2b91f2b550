package mcp

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"reins/internal/llm"
)

// ResourceMention is a reference to a server's resource in a prompt,
// written @<server>:<uri> as in Claude Code (@github:issue://123,
// @docs:file://api/auth).
type ResourceMention struct {
	Server string
	URI    string
}

// String is the mention as written, without the "@".
func (r ResourceMention) String() string { return r.Server + ":" + r.URI }

// Tag is the opening of the block an attached resource is sent in:
// <mcp-resource server="…" uri="…">.
func (r ResourceMention) Tag() string {
	return fmt.Sprintf("<mcp-resource server=%q uri=%q>", r.Server, r.URI)
}

// ParseResourceMention reads a mention written without its "@": a server
// name (letters, digits, '-', '_', '.'), ':', then a URI that has a
// scheme. Anything else (a path, "file.go:12", "C:/x") is not one.
func ParseResourceMention(s string) (ResourceMention, bool) {
	server, uri, ok := strings.Cut(s, ":")
	if !ok || server == "" || strings.IndexFunc(server, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) >= 0 {
		return ResourceMention{}, false
	}
	scheme, rest, ok := strings.Cut(uri, ":")
	if !ok || rest == "" || scheme == "" || !isScheme(scheme) {
		return ResourceMention{}, false
	}
	return ResourceMention{Server: server, URI: uri}, true
}

// isScheme reports whether s is a URI scheme: a letter, then letters,
// digits, '+', '-' or '.'.
func isScheme(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

// ResourceMentions finds the resource mentions of a prompt, each once, in
// order: words that start with "@" (or "(@"), trailing punctuation left
// out.
func ResourceMentions(text string) []ResourceMention {
	var out []ResourceMention
	seen := map[ResourceMention]bool{}
	for _, w := range strings.Fields(text) {
		w = strings.TrimPrefix(w, "(")
		if !strings.HasPrefix(w, "@") {
			continue
		}
		r, ok := ParseResourceMention(strings.TrimRight(w[1:], ".,;!?)]}'\""))
		if ok && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// AttachResources reads the mentioned resources for the message that
// mentions them: each becomes an <mcp-resource server uri> text block
// (images follow it as image blocks). A mention that cannot be read (no
// such server, the server not connected, a read error) becomes a block
// saying why, never an error: the prompt still goes. A mention of a
// server that is not configured is left alone unless its URI has "://"
// (then it is surely meant as a resource). A resource over the MCP output
// limit is cut, saying so. A nil Manager has no servers.
func (m *Manager) AttachResources(ctx context.Context, mentions []ResourceMention) []llm.ContentBlock {
	var out []llm.ContentBlock
	for _, r := range mentions {
		blocks, ok := m.attachResource(ctx, r)
		if ok {
			out = append(out, blocks...)
		}
	}
	return out
}

// AttachResource is AttachResources for one mention, as text only (for
// the text of a command's expansion): ok is false when the mention is not
// taken as a resource (see AttachResources).
func (m *Manager) AttachResource(ctx context.Context, r ResourceMention) (text string, ok bool) {
	blocks, ok := m.attachResource(ctx, r)
	if !ok {
		return "", false
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == llm.BlockText {
			parts = append(parts, b.Text)
		} else {
			parts = append(parts, "[an image of the resource is not included here]")
		}
	}
	return strings.Join(parts, "\n"), true
}

func (m *Manager) attachResource(ctx context.Context, r ResourceMention) ([]llm.ContentBlock, bool) {
	note := func(why string) []llm.ContentBlock {
		return []llm.ContentBlock{llm.TextBlock(r.Tag() + "\n[not attached: " + why + "]\n</mcp-resource>")}
	}
	var s *server
	if m != nil {
		m.mu.Lock()
		s = m.findServer(r.Server)
		m.mu.Unlock()
	}
	if s == nil {
		if !strings.Contains(r.URI, "://") {
			return nil, false
		}
		return note(fmt.Sprintf("no MCP server is named %q", r.Server)), true
	}
	m.waitFirstConnect(ctx, s)
	res, err := m.ReadResource(ctx, r.Server, r.URI)
	if err != nil {
		return note(err.Error()), true
	}
	return m.resourceBlocks(r, res), true
}

// resourceBlocks renders what a read returned: the text of every content
// in one block (binary content described), then the images.
func (m *Manager) resourceBlocks(r ResourceMention, res *sdk.ReadResourceResult) []llm.ContentBlock {
	var text strings.Builder
	var images []llm.ContentBlock
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		b := resourceBlock(c)
		if b.Type != llm.BlockText {
			images = append(images, b)
			continue
		}
		if c.URI != "" && c.URI != r.URI {
			// A part of the resource with its own address.
			text.WriteString("[" + c.URI + "]\n")
		}
		switch {
		case c.Blob == nil:
			text.WriteString(c.Text)
		case textMIME(c.MIMEType) && utf8.Valid(c.Blob):
			text.Write(c.Blob)
		default:
			text.WriteString(b.Text) // described, not shown
		}
		if !strings.HasSuffix(text.String(), "\n") {
			text.WriteByte('\n')
		}
	}
	body := text.String()
	if body == "" && len(images) == 0 {
		body = "[the resource is empty]\n"
	}
	if limit, why := m.resultLimit(0); len(body) > limit {
		cut := body[:limit]
		for len(cut) > 0 && !utf8.RuneStart(body[len(cut)]) {
			cut = cut[:len(cut)-1]
		}
		body = cut + fmt.Sprintf("\n[cut: the resource is about %d tokens, over %s; the ReadMcpResourceTool tool gets all of it, saved to a file]\n",
			estimateTokens(len(body)), why)
	}
	return append([]llm.ContentBlock{llm.TextBlock(r.Tag() + "\n" + body + "</mcp-resource>")}, images...)
}

// waitFirstConnect waits, at most the connect timeout, while s is still
// connecting for the first time (a prompt sent just after start-up).
func (m *Manager) waitFirstConnect(ctx context.Context, s *server) {
	ctx, cancel := context.WithTimeout(ctx, m.connTimeout)
	defer cancel()
	for {
		m.mu.Lock()
		pending := s.state == StatePending && !s.everSettled && m.started && !m.closed
		ch := m.changed
		m.mu.Unlock()
		if !pending {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}
