package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"reins/internal/fsutil"
	"reins/internal/jsonkind"
)

// Transport kinds of a server configuration.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
	TransportSSE   = "sse"
	TransportSDK   = "sdk" // hosted by the SDK client, answered over the control protocol
	TransportWS    = "ws"  // recognised, not supported
)

// ServerConfig is one server entry of an mcpServers object, with Claude
// Code's field names.
type ServerConfig struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// HeadersHelper is a shell command whose JSON object output adds
	// headers (remote servers), run before each connection.
	HeadersHelper string `json:"headersHelper,omitempty"`
	// Name is the SDK server's name (type "sdk").
	Name string `json:"name,omitempty"`
	// Timeout bounds each request to this server (a tool call, a
	// resource read, a prompt), in milliseconds, in place of
	// MCP_TOOL_TIMEOUT; 0 means that.
	Timeout int64 `json:"timeout,omitempty"`
	// OAuth is the client registered in advance with the authorization
	// server of a remote server that does not register clients itself
	// (Claude Code's "oauth" block; its secret, if any, is kept with the
	// credentials).
	OAuth *OAuthClient `json:"oauth,omitempty"`
}

// OAuthClient is a pre-registered OAuth client, as Claude Code's "oauth"
// block gives it.
type OAuthClient struct {
	// ClientID is the client's id at the authorization server.
	ClientID string `json:"clientId,omitempty"`
	// CallbackPort is the loopback port the authorization answer comes
	// back to (the redirect URI registered with the client); 0 means
	// any free port.
	CallbackPort int `json:"callbackPort,omitempty"`
}

// UnmarshalJSON reads the block leniently: fields of Claude Code's that
// reins does not use are ignored, even where unknown fields are refused.
func (o *OAuthClient) UnmarshalJSON(b []byte) error {
	type plain OAuthClient
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*o = OAuthClient(p)
	return nil
}

// Transport returns the transport kind: Type, or stdio when a command is
// given and http when a url is.
func (c ServerConfig) Transport() string {
	switch t := strings.ToLower(c.Type); {
	case t != "":
		if t == "streamable-http" || t == "streamablehttp" {
			return TransportHTTP
		}
		return t
	case c.Command != "":
		return TransportStdio
	case c.URL != "":
		return TransportHTTP
	}
	return ""
}

// Validate reports what is missing or unknown in the entry.
func (c ServerConfig) Validate() error {
	switch c.Transport() {
	case TransportStdio:
		if strings.TrimSpace(c.Command) == "" {
			return errors.New("a stdio server needs a command")
		}
	case TransportHTTP, TransportSSE, TransportWS:
		if strings.TrimSpace(c.URL) == "" {
			return fmt.Errorf("a %s server needs a url", c.Transport())
		}
	case TransportSDK:
	case "":
		return errors.New("the entry has neither a command nor a url")
	default:
		return fmt.Errorf("unknown transport type %q (want stdio, http, sse or sdk)", c.Type)
	}
	return nil
}

// Signature identifies what a server runs or reaches, to drop duplicates
// configured under different names (seed002 §7.2).
func (c ServerConfig) Signature() string {
	switch c.Transport() {
	case TransportStdio:
		b, _ := json.Marshal(append([]string{c.Command}, c.Args...))
		return "stdio:" + string(b)
	case TransportSDK:
		return "sdk:" + c.Name
	}
	return "url:" + c.URL
}

// Expand substitutes ${VAR} and ${VAR:-default} in the command, args, env
// values, url and header values. It returns the names of variables that
// were unset (or empty) and had no default; they expand to "", and a
// server whose configuration has any is not started.
func (c ServerConfig) Expand(getenv func(string) string) (ServerConfig, []string) {
	var missing []string
	ex := func(s string) string {
		out, m := expandVars(s, getenv)
		missing = append(missing, m...)
		return out
	}
	out := c
	out.Command = ex(c.Command)
	out.URL = ex(c.URL)
	if c.Args != nil {
		out.Args = make([]string, len(c.Args))
		for i, a := range c.Args {
			out.Args[i] = ex(a)
		}
	}
	out.Env = expandMap(c.Env, ex)
	out.Headers = expandMap(c.Headers, ex)
	return out, dedupe(missing)
}

// UnsetVarsMessage says that a configuration uses the unset variables
// missing (as Expand returns them) and how to fix it.
func UnsetVarsMessage(missing []string) string {
	missing = slices.Sorted(slices.Values(missing))
	return fmt.Sprintf("its configuration uses unset environment variables: %s (set them, or give a default: ${%s:-value})",
		strings.Join(missing, ", "), missing[0])
}

func expandMap(m map[string]string, ex func(string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = ex(v)
	}
	return out
}

// expandVars replaces ${NAME} and ${NAME:-default} in s. Text that does
// not form a reference (a lone $, an unclosed brace) stays as it is.
func expandVars(s string, getenv func(string) string) (string, []string) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	var missing []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		ref := s[i+2 : i+j]
		name, def, hasDef := strings.Cut(ref, ":-")
		v := ""
		if getenv != nil && validVarName(name) {
			v = getenv(name)
		}
		switch {
		case !validVarName(name):
			b.WriteString(s[i : i+j+1])
		case v != "":
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			missing = append(missing, name)
		}
		s = s[i+j+1:]
	}
	return b.String(), missing
}

func validVarName(n string) bool {
	if n == "" {
		return false
	}
	for i, r := range n {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func dedupe(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Scope says where a server was configured.
type Scope string

// Scopes, from the lowest precedence to the highest.
const (
	ScopePlugin  Scope = "plugin"  // a plugin's .mcp.json, named plugin:<plugin>:<server>
	ScopeUser    Scope = "user"    // the user's config, every project
	ScopeProject Scope = "project" // .mcp.json, shared with the repository
	ScopeLocal   Scope = "local"   // the user's config, this project only
	ScopeDynamic Scope = "dynamic" // --mcp-config
	ScopeManaged Scope = "managed" // the administrator's managed-mcp.json
)

func scopeRank(s Scope) int {
	switch s {
	case ScopePlugin:
		return -1
	case ScopeUser:
		return 0
	case ScopeProject:
		return 1
	case ScopeLocal:
		return 2
	case ScopeManaged:
		return 4
	}
	return 3
}

// ParseScope reads a --scope value.
func ParseScope(s string) (Scope, error) {
	switch Scope(strings.ToLower(s)) {
	case ScopeUser, "global":
		return ScopeUser, nil
	case ScopeProject:
		return ScopeProject, nil
	case ScopeLocal, "":
		return ScopeLocal, nil
	}
	return "", fmt.Errorf("unknown scope %q: want local, project or user", s)
}

// Server is one configured server.
type Server struct {
	Name   string
	Scope  Scope
	Source string       // the file or flag it came from
	Config ServerConfig // as written, before expansion
	// Disabled explains why the server is not started ("" when it is): a
	// project server not approved, or a server the user disabled.
	Disabled string
	// Invalid explains what is wrong with the entry ("" when nothing).
	Invalid string
}

// ServersFile is the mcpServers part of a configuration file.
type ServersFile struct {
	MCPServers map[string]json.RawMessage `json:"mcpServers"`
}

// ParseServers reads an object of the form {"mcpServers": {name: entry}}
// (or, leniently, a bare {name: entry} object). Entries that do not parse
// are returned with Invalid set, not dropped.
func ParseServers(data []byte, scope Scope, source string) ([]Server, error) {
	data = utf8Text(data)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("read MCP servers from %s: %w", source, located(data, err))
	}
	entries := map[string]json.RawMessage{}
	if raw, ok := top["mcpServers"]; ok {
		if string(raw) != "null" {
			if err := json.Unmarshal(raw, &entries); err != nil {
				return nil, fmt.Errorf("read MCP servers from %s: mcpServers must be an object: %w", source, err)
			}
		}
	} else {
		entries = top
	}
	return parseEntries(entries, scope, source), nil
}

func parseEntries(entries map[string]json.RawMessage, scope Scope, source string) []Server {
	var out []Server
	for name, raw := range entries {
		s := Server{Name: name, Scope: scope, Source: source}
		if err := json.Unmarshal(raw, &s.Config); err != nil {
			s.Invalid = fmt.Sprintf("server %q in %s: %s", name, source, entryProblem(err))
		} else if err := s.Config.Validate(); err != nil {
			s.Invalid = fmt.Sprintf("server %q in %s: %v", name, source, err)
		} else if err := validServerName(name); err != nil {
			s.Invalid = fmt.Sprintf("server %q in %s: %v", name, source, err)
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func validServerName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("the server name is empty")
	}
	if strings.Contains(name, "__") {
		return errors.New("a server name may not contain \"__\" (it separates the parts of tool names)")
	}
	return nil
}

// userFile is the shape of reins's mcp.json and of Claude Code's
// ~/.claude.json: user-scope servers at the top; per project path its
// local-scope servers and the user's answers about its .mcp.json servers.
type userFile struct {
	MCPServers map[string]json.RawMessage `json:"mcpServers"`
	Projects   map[string]userProject     `json:"projects"`
}

// userProject is one entry of a user file's "projects". Fields of other
// types than expected are ignored rather than failing the whole file
// (Claude Code's file holds much else).
type userProject struct {
	MCPServers map[string]json.RawMessage `json:"mcpServers"`
	EnableAll  json.RawMessage            `json:"enableAllProjectMcpServers"`
	Enabled    json.RawMessage            `json:"enabledMcpjsonServers"`
	Disabled   json.RawMessage            `json:"disabledMcpjsonServers"`
}

// userServers is what a user file holds for one project.
type userServers struct {
	user, local []Server
	approval    Approval
}

// readUserFile returns the user and local servers of path for project
// cwd, with the approvals recorded for it; a missing file gives nothing.
func readUserFile(path, cwd string) (userServers, error) {
	var out userServers
	data, err := fsutil.ReadRegularFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("read MCP servers from %s: %w", path, err)
	}
	data = utf8Text(data)
	if len(bytes.TrimSpace(data)) == 0 {
		return out, nil
	}
	var f userFile
	if err := json.Unmarshal(data, &f); err != nil {
		return out, fmt.Errorf("read MCP servers from %s: %w", path, located(data, err))
	}
	out.user = parseEntries(f.MCPServers, ScopeUser, path)
	keys := make([]string, 0, len(f.Projects))
	for p := range f.Projects {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	for _, p := range keys {
		if !samePath(p, cwd) {
			continue
		}
		proj := f.Projects[p]
		out.local = append(out.local, parseEntries(proj.MCPServers, ScopeLocal, path+" (project "+p+")")...)
		var a Approval
		_ = json.Unmarshal(proj.EnableAll, &a.EnableAll)
		_ = json.Unmarshal(proj.Enabled, &a.Enabled)
		_ = json.Unmarshal(proj.Disabled, &a.Disabled)
		out.approval = out.approval.with(a)
	}
	return out, nil
}

func samePath(a, b string) bool {
	if a == b {
		return true
	}
	ca, cb := filepath.Clean(a), filepath.Clean(b)
	if ca == cb {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(ca)
	rb, err2 := filepath.EvalSymlinks(cb)
	return err1 == nil && err2 == nil && ra == rb
}

// located adds the line and column where a JSON decoding error of data
// happened (encoding/json gives a byte offset, or none for a cut-off
// file), so a user can find the mistake in a long file.
func located(data []byte, err error) error {
	off := -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = int(se.Offset) - 1 // just past the offending byte
	case errors.As(err, &te) && te.Field == "":
		// The whole file has the wrong shape: point at its start.
		off = len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
		err = fmt.Errorf("the file must hold a JSON object ({\"mcpServers\": {...}}), not a JSON %s", te.Value)
	case errors.As(err, &te):
		off = int(te.Offset)
	}
	if strings.Contains(err.Error(), "unexpected end of JSON input") {
		off = len(data)
	}
	if off < 0 {
		return err
	}
	off = min(off, len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:off], '\n')+1:off])
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// entryProblem says what is wrong with a server entry that does not
// decode, in the file's terms: the field and the JSON it needs, not the
// Go type it would have filled.
func entryProblem(err error) string {
	var te *json.UnmarshalTypeError
	switch {
	case !errors.As(err, &te):
	case te.Field == "":
		return fmt.Sprintf("the entry must be an object, not a JSON %s", te.Value)
	case te.Type.Kind() == reflect.String && (te.Field == "env" || te.Field == "headers"):
		// A value inside a map of strings.
		return fmt.Sprintf("%s values must be strings, not a JSON %s", te.Field, te.Value)
	}
	msg, _ := jsonkind.FieldProblem(err, "")
	return msg
}

// utf8Text returns a configuration file's bytes as UTF-8 without a
// byte-order mark: a file saved as UTF-16 (with its mark, as Windows
// editors save it) is decoded rather than refused as invalid JSON.
func utf8Text(data []byte) []byte {
	if enc := fsutil.DetectFormat(data).Encoding; enc == fsutil.UTF16LE || enc == fsutil.UTF16BE {
		if text, _, err := fsutil.DecodeText(data); err == nil {
			return []byte(text)
		}
	}
	return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
}
