package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/toolcert/toolcert/internal/attest"
	"github.com/toolcert/toolcert/internal/runconfig"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

const certifySynopsis = `Usage: toolcert certify --key FILE [--attestation FILE] [run flags]

Runs the features against a target exactly as toolcert run does (the same
flags, config file, reports, summary and exit codes), then writes a signed
attestation of the result (docs/attestations.md): an in-toto Statement v1
with the test-result predicate, in a DSSE envelope signed with the ed25519
key of --key (toolcert keygen).

The subject is the adapter: the sha256 of the executable of --target-cmd
or --target-mcp-cmd (found in PATH), the image ID of --target-image in the
local Docker engine, the sha256 of the URL string of an adapter already
running, and the toolcert binary itself, named toolcert-reference, for the
built-in reference adapter; an MCP server is named by the name and version
it reports at initialize. The predicate's result is the level the run
certifies (--level, default strict): PASSED when the run passed, WARNED when
it passed only because a baseline expected its failures, FAILED otherwise (a
failure, a skip, an interrupted run, a target that did not start). It names
that level, and gives the run's result and counts at each level, so that
toolcert verify --level can ask for either. Its configuration digests the
features, the corpus, the profile, the baseline (when there is one), the
config file, the seed and toolcert.

Exit codes: 0 the run passed (a PASSED or WARNED attestation was written);
1 it did not (a FAILED attestation was written); 2 usage or configuration
error (no attestation: nothing ran), the target did not start or the run was
interrupted (a FAILED attestation was written), or the attestation could not
be written.

Example:
  toolcert keygen --out keys
  toolcert certify --key keys/toolcert.key --target-cmd ./my-adapter \
    --upstream-version v1 --attestation my-adapter.intoto.json
  toolcert verify my-adapter.intoto.json --pubkey keys/toolcert.pub \
    --subject ./my-adapter --upstream-version v1 --level strict`

// attestationName is the attestation's file in --out when --attestation
// is not given.
const attestationName = "attestation.intoto.json"

// certifyCmd runs the suite as run does and writes its signed attestation.
func certifyCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, f, config := runFlagSet(stderr)
	fs.Init("certify", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\nFlags:\n", certifySynopsis)
		fs.PrintDefaults()
	}
	keyPath := fs.String("key", "", "ed25519 private key `FILE` (PKCS#8 PEM, toolcert keygen) that signs the attestation; required")
	attPath := fs.String("attestation", "", "`FILE` to write the DSSE envelope to (default: "+attestationName+" in --out)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *keyPath == "" {
		return usageErr("certify: --key is required (make one with toolcert keygen)")
	}
	key, err := attest.LoadKey(*keyPath)
	if err != nil {
		return configErr(err)
	}
	r, err := loadRun(*config, *f, visited(fs))
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return configErr(fmt.Errorf("find toolcert's own binary: %w", err))
	}
	c := &certification{key: key, run: r, self: self, configPath: *config, out: *attPath}
	if c.out == "" {
		c.out = filepath.Join(r.Out, attestationName)
	}
	return c.certify(ctx, stdout, stderr)
}

// certification is one certify: the run, the key that signs, toolcert's
// own binary, the --config file and where the attestation goes.
type certification struct {
	key        *attest.Key
	run        runconfig.Run
	self       string
	configPath string
	out        string
	recorder   *attest.ServerRecorder
}

// certify names the subject, runs the suite and writes the attestation of
// its result. Without a result (a configuration error) it writes none.
func (c *certification) certify(ctx context.Context, stdout, stderr io.Writer) error {
	subject, err := attest.SubjectOf(ctx, c.run.Target, c.self)
	if err != nil {
		return configErr(err)
	}
	fin, runErr := runSuite(ctx, c.run, c.prepare, stdout, stderr)
	if fin == nil {
		return runErr
	}
	if c.recorder != nil {
		if name, v, ok := c.recorder.Server(); ok {
			subject = subject.WithServer(name, v)
		}
	}
	result, err := c.write(ctx, subject, fin)
	if err != nil {
		return &exitError{code: exitConfig, err: fmt.Errorf("write attestation: %w", err)}
	}
	fmt.Fprintf(stdout, "attestation %s: %s, subject %s sha256:%s\n", c.out, result, reports.Printable(subject.Name), subject.SHA256)
	return runErr
}

// prepare wraps an MCP target in a recorder of what its server says of
// itself.
func (c *certification) prepare(cfg *runner.Config) error {
	if k := c.run.Target.Kind; k == targets.KindMCPStdio || k == targets.KindMCPHTTP {
		c.recorder = attest.NewServerRecorder(cfg.Target)
		cfg.Target = c.recorder
	}
	return nil
}

// write signs the statement of the finished run about subject into c.out
// and returns its result.
func (c *certification) write(ctx context.Context, subject attest.Identity, fin *finishedRun) (attest.Result, error) {
	pred, err := attest.Predicate(fin.res, fin.err, c.config(fin.cfg), time.Now())
	if err != nil {
		return "", err
	}
	st := &attest.Statement{Type: attest.StatementType, Subject: []attest.ResourceDescriptor{subject.Descriptor()},
		PredicateType: attest.PredicateType, Predicate: pred}
	env, err := attest.Sign(ctx, st, c.key)
	if err != nil {
		return "", err
	}
	return pred.Result, attest.WriteFile(c.out, env)
}

// config returns what the run was given, as the attestation names it.
func (c *certification) config(cfg runner.Config) attest.Config {
	r := c.run
	return attest.Config{
		Features: cfg.Features, FeaturePaths: cfg.FeaturePaths, Fixtures: cfg.Fixtures,
		Profile: cfg.Profile, ProfilePath: r.Profile, BaselinePath: r.Baseline, ConfigPath: c.configPath,
		Executable: c.self, Version: version, UpstreamVersion: r.UpstreamVersion,
		Selection: attest.Selection{Tags: r.Tags, Shard: r.Shard, Case: r.Case, RequireAll: r.RequireAll},
	}
}
