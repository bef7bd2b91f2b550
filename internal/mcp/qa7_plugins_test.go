package mcp

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// A server added to a running manager connects and its tools join the
// snapshot; removing it ends its process and takes its tools away; a
// second server of the same name is refused.
func TestAddAndRemoveAServerWhileTheManagerRuns(t *testing.T) {
	m := startManager(t, Options{Servers: []Server{selfServer(t, "base")}})
	if err := m.Add(selfServer(t, "plugin:p:extra")); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(selfServer(t, "plugin:p:extra")); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("adding the same name twice = %v, want an error", err)
	}
	eventually(t, 20*time.Second, "the added server to connect", func() bool {
		for _, st := range m.Status() {
			if st.Name == "plugin:p:extra" {
				return st.State == StateConnected
			}
		}
		return false
	})
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__plugin_p_extra__pid"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	pid := int(res.Data.(map[string]any)["pid"].(float64))
	if !m.Remove("plugin:p:extra") {
		t.Fatal("Remove reported no such server")
	}
	if m.Remove("plugin:p:extra") {
		t.Error("Remove of a removed server reported one")
	}
	for _, st := range m.Status() {
		if st.Name == "plugin:p:extra" {
			t.Errorf("the removed server is still listed: %+v", st)
		}
	}
	for _, tl := range m.Snapshot().Tools {
		if strings.HasPrefix(tl.Name(), "mcp__plugin_p_extra__") {
			t.Errorf("the removed server's tool %s is still offered", tl.Name())
		}
	}
	eventually(t, 10*time.Second, "the removed server's process to end", func() bool {
		return syscall.Kill(pid, 0) != nil
	})
	if st := m.Status(); len(st) != 1 || st[0].Name != "base" {
		t.Errorf("status after remove = %+v", st)
	}
}
