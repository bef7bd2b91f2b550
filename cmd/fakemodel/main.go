// Command fakemodel serves a scripted fake Anthropic Messages API for
// benchmarks and manual runs. It prints its URL on the first line of
// stdout and serves until interrupted; with -requests it writes every
// captured request body as JSON lines on exit.
//
//	fakemodel -script turns.json
//
// The script is a JSON array of turns (see package llmtest): for example
// [{"blocks":[{"type":"text","text":"hello"}]}].
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"reins/internal/llm/llmtest"
)

func main() {
	script := flag.String("script", "", "JSON file of scripted turns")
	requests := flag.String("requests", "", "write captured request bodies here on exit")
	flag.Parse()
	if err := run(*script, *requests); err != nil {
		fmt.Fprintln(os.Stderr, "fakemodel:", err)
		os.Exit(1)
	}
}

func run(script, requests string) error {
	var turns []llmtest.Turn
	if script != "" {
		data, err := os.ReadFile(script)
		if err != nil {
			return err
		}
		// A misspelt field (say "text" on a turn instead of inside a
		// block) would otherwise give a turn that silently says nothing.
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&turns); err != nil {
			return fmt.Errorf("script %s: %w", script, err)
		}
	}
	srv, err := llmtest.Start(turns...)
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Println(srv.URL)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	for _, v := range srv.Violations() {
		fmt.Fprintln(os.Stderr, "fakemodel: protocol violation:", v)
	}
	if requests != "" {
		f, err := os.Create(requests)
		if err != nil {
			return err
		}
		defer f.Close()
		for _, r := range srv.Requests() {
			f.Write(append(r.Body, '\n'))
		}
	}
	return nil
}
