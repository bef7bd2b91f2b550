package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport runs a stdio server. Unlike the SDK's CommandTransport it
// tolerates a server that prints other text on stdout (a start-up banner,
// a stray debug print, as many servers do): lines that are not JSON-RPC
// messages are skipped and kept with the server's stderr for error
// reports, as Claude Code's client does, instead of ending the
// connection.
type stdioTransport struct {
	cmd *exec.Cmd
	// terminateWait is how long the server has to exit after its stdin
	// closes before SIGTERM, and again before SIGKILL.
	terminateWait time.Duration
	// noise receives the skipped stdout lines.
	noise io.Writer
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	// The connection ends by closing stdin (and then waiting for the
	// process), not by closing stdout.
	in := &jsonLines{r: bufio.NewReader(stdout), noise: t.noise}
	out := &serverStdin{WriteCloser: stdin, cmd: t.cmd, wait: t.terminateWait}
	return (&sdk.IOTransport{Reader: io.NopCloser(in), Writer: out}).Connect(ctx)
}

// jsonLines passes on the lines of r that can be JSON-RPC messages (they
// start with "{" or "[") and writes the others to noise.
type jsonLines struct {
	r       *bufio.Reader
	noise   io.Writer
	pending []byte
	err     error
}

func (j *jsonLines) Read(p []byte) (int, error) {
	for len(j.pending) == 0 {
		if j.err != nil {
			return 0, j.err
		}
		line, err := j.r.ReadBytes('\n')
		j.err = err
		switch t := bytes.TrimLeft(line, " \t\r\n"); {
		case len(t) == 0:
		case t[0] == '{' || t[0] == '[':
			j.pending = line
		default:
			fmt.Fprintf(j.noise, "(stdout) %s", bytes.TrimRight(line, "\r\n"))
			j.noise.Write([]byte("\n"))
		}
	}
	n := copy(p, j.pending)
	j.pending = j.pending[n:]
	return n, nil
}

// serverStdin is the server's stdin; closing it ends the server: stdin
// closes, then the server has wait to exit before SIGTERM, and as long
// again before SIGKILL (the MCP stdio shutdown sequence).
type serverStdin struct {
	io.WriteCloser
	cmd  *exec.Cmd
	wait time.Duration
}

func (s *serverStdin) Close() error {
	cerr := s.WriteCloser.Close()
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	waitExit := func() (error, bool) {
		t := time.NewTimer(s.wait)
		defer t.Stop()
		select {
		case err := <-exited:
			return err, true
		case <-t.C:
			return nil, false
		}
	}
	if _, ok := waitExit(); ok {
		return cerr
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err == nil {
		if _, ok := waitExit(); ok {
			return cerr
		}
	}
	if err := s.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	if _, ok := waitExit(); ok {
		return cerr
	}
	return fmt.Errorf("MCP server process %d did not exit", s.cmd.Process.Pid)
}
