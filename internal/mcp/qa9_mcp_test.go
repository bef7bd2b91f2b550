package mcp

import "testing"

// A server whose configuration uses a variable that is unset and has no
// default is not started (Claude Code refuses such a configuration):
// its status names the server's variables and how to fix them, it is
// not retried, and the other servers start. Before, the reference
// expanded to "" and the server was started with an empty token.
func TestServerWithAnUnsetVariableIsNotStarted(t *testing.T) {
	bad := selfServer(t, "bad")
	bad.Config.Env["TOKEN"] = "${QA9_TOKEN}"
	bad.Config.Args = []string{"${QA9_MODE:-fast}", "${QA9_DIR}"}
	good := selfServer(t, "good")
	good.Config.Env["TOKEN"] = "${QA9_SET}"
	env := map[string]string{"QA9_SET": "x"}
	m := startManager(t, Options{Servers: []Server{bad, good}, Getenv: func(k string) string { return env[k] }})
	byName := map[string]ServerStatus{}
	for _, st := range m.Status() {
		byName[st.Name] = st
	}
	b := byName["bad"]
	want := "not started: its configuration uses unset environment variables: QA9_DIR, QA9_TOKEN (set them, or give a default: ${QA9_DIR:-value})"
	if b.State != StateFailed || b.Err != want || b.Reconnects != 0 || len(b.Tools) != 0 {
		t.Errorf("bad: %s %q (reconnects %d, tools %v); want failed %q", b.State, b.Err, b.Reconnects, b.Tools, want)
	}
	if g := byName["good"]; g.State != StateConnected || len(g.Tools) == 0 {
		t.Errorf("good: %s %q, tools %v", g.State, g.Err, g.Tools)
	}
}
