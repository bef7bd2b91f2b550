package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Files says where `reins mcp add|remove` write: the project's .mcp.json
// and reins's own user file (Claude Code's ~/.claude.json is read, never
// written).
type Files struct {
	Cwd       string // the project folder; local scope is keyed by it
	ConfigDir string // reins's user config folder
}

func (f Files) path(scope Scope) (string, error) {
	switch scope {
	case ScopeProject:
		if f.Cwd == "" {
			return "", errors.New("no project folder")
		}
		return filepath.Join(f.Cwd, ProjectFile), nil
	case ScopeUser, ScopeLocal:
		if f.ConfigDir == "" {
			return "", errors.New("no user config folder")
		}
		return UserFile(f.ConfigDir), nil
	}
	return "", fmt.Errorf("servers of scope %q are not kept in a file", scope)
}

// ErrExists is returned by AddServer for a name already used in the scope.
var ErrExists = errors.New("a server with this name already exists in this scope")

// AddServer writes a server entry into the file of scope. It refuses a
// name already present there, and an entry that does not validate.
func (f Files) AddServer(scope Scope, name string, cfg ServerConfig) error {
	if err := validServerName(name); err != nil {
		return fmt.Errorf("add MCP server %q: %w", name, err)
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("add MCP server %q: %w", name, err)
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("add MCP server %q: %w", name, err)
	}
	return f.addRaw(scope, name, raw)
}

// AddServerJSON writes a server entry given as JSON into the file of
// scope, as written (fields reins does not use, such as Claude Code's
// "oauth", are kept for the other tools that read the file). The entry
// must decode as a ServerConfig and validate.
func (f Files) AddServerJSON(scope Scope, name string, entry json.RawMessage) error {
	if err := validServerName(name); err != nil {
		return fmt.Errorf("add MCP server %q: %w", name, err)
	}
	var cfg ServerConfig
	if err := json.Unmarshal(entry, &cfg); err != nil {
		return fmt.Errorf("add MCP server %q: %w", name, err)
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("add MCP server %q: %w", name, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, entry); err != nil {
		return fmt.Errorf("add MCP server %q: %w", name, err)
	}
	return f.addRaw(scope, name, compact.Bytes())
}

func (f Files) addRaw(scope Scope, name string, raw json.RawMessage) error {
	return f.edit(scope, func(servers map[string]json.RawMessage) error {
		if _, ok := servers[name]; ok {
			return fmt.Errorf("add MCP server %q (%s scope): %w", name, scope, ErrExists)
		}
		servers[name] = raw
		return nil
	})
}

// RemoveServer deletes a server entry. With scope "" it removes the entry
// from the one scope that has it, and fails when several do. It returns
// the scope it removed from.
func (f Files) RemoveServer(scope Scope, name string) (Scope, error) {
	if scope == "" {
		var found []Scope
		for _, sc := range []Scope{ScopeLocal, ScopeProject, ScopeUser} {
			if ok, _ := f.has(sc, name); ok {
				found = append(found, sc)
			}
		}
		switch len(found) {
		case 0:
			return "", fmt.Errorf("remove MCP server %q: no such server in reins's files or .mcp.json (servers of ~/.claude.json are changed with Claude Code)", name)
		case 1:
			scope = found[0]
		default:
			return "", fmt.Errorf("remove MCP server %q: it exists in several scopes (%v); choose one with --scope", name, found)
		}
	}
	err := f.edit(scope, func(servers map[string]json.RawMessage) error {
		if _, ok := servers[name]; !ok {
			return fmt.Errorf("remove MCP server %q: not found in the %s scope", name, scope)
		}
		delete(servers, name)
		return nil
	})
	return scope, err
}

func (f Files) has(scope Scope, name string) (bool, error) {
	found := false
	err := f.read(scope, func(servers map[string]json.RawMessage) {
		_, found = servers[name]
	})
	return found, err
}

// read calls fn with the servers of scope, without writing.
func (f Files) read(scope Scope, fn func(map[string]json.RawMessage)) error {
	path, err := f.path(scope)
	if err != nil {
		return err
	}
	top, err := readObject(path)
	if err != nil {
		return err
	}
	servers, _, err := f.serversOf(scope, top)
	if err != nil {
		return err
	}
	fn(servers)
	return nil
}

// edit applies fn to the servers of scope and writes the file back,
// keeping every other field as it was.
func (f Files) edit(scope Scope, fn func(map[string]json.RawMessage) error) error {
	path, err := f.path(scope)
	if err != nil {
		return err
	}
	top, err := readObject(path)
	if err != nil {
		return err
	}
	servers, put, err := f.serversOf(scope, top)
	if err != nil {
		return err
	}
	if err := fn(servers); err != nil {
		return err
	}
	if err := put(servers); err != nil {
		return err
	}
	mode := fs.FileMode(0o600)
	if scope == ScopeProject {
		mode = 0o644
	}
	return writeObject(path, top, mode)
}

// serversOf finds the mcpServers object of scope in a file's top object
// and returns it with a function that stores it back.
func (f Files) serversOf(scope Scope, top map[string]json.RawMessage) (map[string]json.RawMessage, func(map[string]json.RawMessage) error, error) {
	servers := map[string]json.RawMessage{}
	if scope != ScopeLocal {
		if raw, ok := top["mcpServers"]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, &servers); err != nil {
				return nil, nil, fmt.Errorf("mcpServers is not an object: %w", err)
			}
		}
		return servers, func(s map[string]json.RawMessage) error {
			b, err := json.Marshal(s)
			top["mcpServers"] = b
			return err
		}, nil
	}
	projects := map[string]map[string]json.RawMessage{}
	if raw, ok := top["projects"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &projects); err != nil {
			return nil, nil, fmt.Errorf("projects is not an object: %w", err)
		}
	}
	proj := projects[f.Cwd]
	if proj == nil {
		proj = map[string]json.RawMessage{}
	}
	if raw, ok := proj["mcpServers"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return nil, nil, fmt.Errorf("projects[%q].mcpServers is not an object: %w", f.Cwd, err)
		}
	}
	return servers, func(s map[string]json.RawMessage) error {
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		proj["mcpServers"] = b
		projects[f.Cwd] = proj
		pb, err := json.Marshal(projects)
		top["projects"] = pb
		return err
	}, nil
}

// readObject reads a JSON object file; a missing or empty file is an
// empty object.
func readObject(path string) (map[string]json.RawMessage, error) {
	top := map[string]json.RawMessage{}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return top, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	data = utf8Text(data)
	if len(bytes.TrimSpace(data)) == 0 {
		return top, nil
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return top, nil
}

// writeObject writes top as indented JSON, atomically (a temporary file
// renamed over the old one).
func writeObject(path string, top map[string]json.RawMessage, mode fs.FileMode) error {
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		kb, _ := json.Marshal(k)
		b.WriteString("\n  ")
		b.Write(kb)
		b.WriteString(": ")
		var ind bytes.Buffer
		if err := json.Indent(&ind, top[k], "  ", "  "); err != nil {
			return fmt.Errorf("write %s: field %s: %w", path, k, err)
		}
		b.Write(ind.Bytes())
	}
	b.WriteString("\n}\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := tmp.Write(b.Bytes())
	cerr := tmp.Close()
	if werr == nil && cerr == nil {
		if st, err := os.Stat(path); err == nil {
			mode = st.Mode().Perm()
		}
		werr = os.Chmod(tmp.Name(), mode)
	}
	if werr == nil && cerr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, errors.Join(werr, cerr))
	}
	return nil
}

// parseHeader reads a --header value "Name: value".
func parseHeader(h string) (string, string, error) {
	k, v, ok := strings.Cut(h, ":")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return "", "", fmt.Errorf("header %q: want \"Name: value\"", h)
	}
	return k, strings.TrimSpace(v), nil
}

// parseEnv reads an --env value "KEY=value".
func parseEnv(e string) (string, string, error) {
	k, v, ok := strings.Cut(e, "=")
	if !ok || !validVarName(k) {
		return "", "", fmt.Errorf("environment variable %q: want KEY=value", e)
	}
	return k, v, nil
}
