package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/toolcert/toolcert/internal/runconfig"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/runner"
)

const replaySynopsis = `Usage: toolcert replay --tool T --body FILE [--args JSON] [--status N] [--header K:V]... [target flags]

Serves one captured upstream body (byte for byte) through the target once and
prints, as JSON: the agent-visible output, the audit event(s) of that call,
and the leak verdict. Mark what must not reach the agent with {{canary:NAME}}
placeholders in the body or in --header values; when the agent sees a
failure, every string of 8 or more characters in the body counts as well.

Exit codes: 0 no leak; 1 a leak; 2 usage or configuration error.`

func replayCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		tool, argsJSON, bodyFile, contentType string
		status                                int
		seed                                  uint64
		headers                               mocks.HeaderFlag
		tf                                    runconfig.Flags
	)
	fs := newFlags("replay", replaySynopsis, stderr)
	fs.StringVar(&tool, "tool", "", "tool `NAME` the agent calls (required)")
	fs.StringVar(&argsJSON, "args", "{}", "the agent's arguments, a JSON object")
	fs.StringVar(&bodyFile, "body", "", "`FILE` with the captured upstream body, - for standard input (required)")
	fs.IntVar(&status, "status", 200, "HTTP status the upstream answers with")
	fs.StringVar(&contentType, "content-type", protocol.ContentTypeJSON, "Content-Type the upstream answers with")
	fs.Var(&headers, "header", "extra upstream header `K:V` (repeatable)")
	fs.Uint64Var(&seed, "seed", 0, "seed for the canaries; 0 picks a random one")
	registerTarget(fs, &tf)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if tool == "" || bodyFile == "" {
		fs.Usage()
		return usageErr("replay needs --tool and --body")
	}
	if !json.Valid([]byte(argsJSON)) {
		return usageErr("--args is not valid JSON: %q", argsJSON)
	}
	body, err := readBody(bodyFile)
	if err != nil {
		return usageErr("--body: %v", err)
	}
	r, err := runconfig.Merge(nil, tf, visited(fs))
	if err != nil {
		return configErr(err)
	}
	tgt, profile, err := r.Build()
	if err != nil {
		return configErr(err)
	}
	res, err := runner.Replay(ctx, runner.ReplayConfig{
		Tool: tool, Args: []byte(argsJSON), Body: body, Status: status, Seed: seed,
		Header: append([]mocks.HeaderField{{Name: "Content-Type", Value: contentType}}, headers...),
		Target: tgt, Profile: profile, UpstreamListen: r.UpstreamListen, AuditFile: r.AuditFile,
	})
	if err != nil {
		return &exitError{code: exitConfig, err: err}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		return err
	}
	if len(res.Leaks) > 0 {
		return &exitError{code: exitFail, err: fmt.Errorf("leak")}
	}
	return nil
}

func readBody(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(io.LimitReader(os.Stdin, 1<<30))
	}
	return os.ReadFile(name)
}
