package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/toolcert/toolcert/internal/attest"
	"github.com/toolcert/toolcert/reports"
)

const verifySynopsis = `Usage: toolcert verify ATTESTATION --pubkey FILE [--subject PATH|IMAGE|URL]
                       [--upstream-version V] [--level safe|strict]
                       [--require passed|warned] [--forbid-baseline]

Verifies an attestation that toolcert certify wrote: that the DSSE envelope
is well formed and its signature verifies with the public key over the
pre-authentication encoding of its payload type and payload; that the
payload is an in-toto Statement v1 with the test-result predicate; then the
policy the flags give: the subject's digest is the sha256 of the file at
--subject (or the image ID of the local Docker image, or the sha256 of the
URL string), the run served --upstream-version, the result is PASSED
(--require passed, the default) or PASSED or WARNED (--require warned), and,
with --forbid-baseline, that the run used no baseline of expected failures.
The result is the one at the level the run certified; with --level, the
run's result at that level, whichever it certified: a run that certified
strict and failed it but passed safe verifies with --level safe. An
attestation written before levels certified strict, which covers safe.
It prints each reason a check failed.

Exit codes: 0 verified; 1 verification failed (the reasons are printed);
2 usage error, or a file (the attestation, the key, the subject) cannot be
read.

Example:
  toolcert verify my-adapter.intoto.json --pubkey keys/toolcert.pub \
    --subject ./my-adapter --upstream-version v1 --forbid-baseline`

// verifyCmd checks one attestation against a key and a policy.
func verifyCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify", verifySynopsis, stderr)
	pubkey := fs.String("pubkey", "", "ed25519 public key `FILE` (PKIX PEM, toolcert keygen's toolcert.pub); required")
	subject := fs.String("subject", "", "the adapter the attestation must be about: the `PATH` of its executable, a local Docker IMAGE,\nor the URL of an adapter already running")
	upstream := fs.String("upstream-version", "", "upstream `VERSION` the run must have served (v1, v2...)")
	require := fs.String("require", string(attest.RequirePassed), "least result accepted: passed (PASSED only) or warned (PASSED or WARNED)")
	forbid := fs.Bool("forbid-baseline", false, "refuse a run that used a baseline of expected failures")
	level := fs.String("level", "", "the `LEVEL` (safe or strict) the run must have passed at, whichever it certified\n(default: the level it certified)")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 || *pubkey == "" {
		return usageErr("verify: want one ATTESTATION and --pubkey FILE (toolcert verify -h)")
	}
	policy := attest.Policy{UpstreamVersion: *upstream, ForbidBaseline: *forbid}
	if policy.Require, err = attest.ParseRequirement(*require); err != nil {
		return usageErr("verify: --require: %v", err)
	}
	if *level != "" {
		if policy.Level, err = reports.ParseLevel(*level); err != nil {
			return usageErr("verify: --level: %v", err)
		}
	}
	key, err := attest.LoadPublicKey(*pubkey)
	if err != nil {
		return configErr(err)
	}
	data, err := attest.ReadEnvelope(files[0])
	if err != nil {
		return configErr(err)
	}
	if *subject != "" {
		if policy.SubjectSHA256, err = attest.ReferenceDigest(ctx, *subject); err != nil {
			return configErr(fmt.Errorf("--subject: %w", err))
		}
	}
	return verify(ctx, stdout, files[0], data, key, policy)
}

// verify checks the envelope in data (from the file name) and prints the
// outcome: what it attests (and for which level, when the policy names
// one), or each reason it fails.
func verify(ctx context.Context, w io.Writer, name string, data []byte, key *attest.Key, policy attest.Policy) error {
	var why []string
	st, err := attest.Open(ctx, data, key)
	if err != nil {
		why = []string{err.Error()}
	} else {
		why = policy.Check(st)
	}
	if len(why) > 0 {
		fmt.Fprintf(w, "NOT VERIFIED %s\n", reports.Printable(name))
		for _, r := range why {
			fmt.Fprintf(w, "  - %s\n", reports.Printable(r))
		}
		return &exitError{code: exitFail, err: errors.New("verification failed")}
	}
	level := ""
	if policy.Level != "" {
		level = " for level " + string(policy.Level)
	}
	fmt.Fprintf(w, "VERIFIED %s%s: %s\n", reports.Printable(name), level, reports.Printable(describe(st)))
	if sel := st.Predicate.Toolcert.Selection; !sel.Whole() {
		fmt.Fprintf(w, "  note: the run selected its scenarios (%s): it certifies those only\n", reports.Printable(selectionText(sel)))
	}
	return nil
}

// describe says what a statement attests, on one line: its result at the
// level it certified, and at each other level it states.
func describe(st *attest.Statement) string {
	s, p := st.Subject[0], st.Predicate
	c := p.Toolcert.Counts
	upstream := p.Toolcert.UpstreamVersion
	if upstream == "" {
		upstream = "all (" + strings.Join(p.Toolcert.UpstreamVersions, ", ") + ")"
	}
	others := ""
	for _, lr := range p.Toolcert.Levels {
		if lr.Level != p.Toolcert.CertifiedLevel() {
			others += fmt.Sprintf(" (at level %s: %s)", lr.Level, lr.Result)
		}
	}
	return fmt.Sprintf("%s sha256:%s %s at level %s%s, upstream %s, %d passed, %d failed, %d expected failures, toolcert %s, %s",
		s.Name, s.SHA256(), p.Result, p.Toolcert.CertifiedLevel(), others, upstream, c.Passed, c.Failed, c.ExpectedFailures+c.CasesExpected,
		p.Toolcert.Version, p.Toolcert.Timestamp.Format("2006-01-02T15:04:05Z"))
}

// selectionText names the flags that chose a run's scenarios.
func selectionText(s attest.Selection) string {
	var words []string
	for _, f := range [][2]string{{"--tags", s.Tags}, {"--shard", s.Shard}, {"--case", s.Case}} {
		if f[1] != "" {
			words = append(words, f[0]+" "+reports.Command(f[1]))
		}
	}
	return strings.Join(words, " ")
}
