package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/internal/attest"
)

const matrixSynopsis = `Usage: toolcert matrix ATTESTATION... [--pubkey FILE] [--format md|html] [--out FILE]

Lays attestations (toolcert certify) out as a table: a row per adapter (the
subject's name and the first digits of its sha256), a column per upstream
version ("all" for runs that served every version), each cell the result
and the level it is at (the level the run certified), its date and counts,
and the run's result at the other level; where several attestations fall in
one cell, the latest stands, whatever its level. With --pubkey each signature is verified and an attestation whose
signature does not verify is left out, with why; without it the page says
that the signatures were not checked.

Exit codes: 0 every attestation is in the table; 1 one was left out (its
signature did not verify, or it is no test-result attestation); 2 usage
error, or a file cannot be read or the output written.

Example:
  toolcert matrix attestations/*.intoto.json --pubkey keys/toolcert.pub \
    --format html --out matrix.html`

// matrixFormats maps the names of --format onto the matrix's renderers.
func matrixFormats() map[string]func(io.Writer, attest.Matrix) error {
	return map[string]func(io.Writer, attest.Matrix) error{"md": attest.Markdown, "html": attest.HTML}
}

// matrixCmd renders the matrix of the attestations given.
func matrixCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	formats := matrixFormats()
	fs := newFlags("matrix", matrixSynopsis, stderr)
	pubkey := fs.String("pubkey", "", "ed25519 public key `FILE` (PKIX PEM) to verify every attestation with")
	format := fs.String("format", "md", "output `FORMAT`: "+strings.Join(slices.Sorted(maps.Keys(formats)), " or "))
	out := fs.String("out", "", "`FILE` to write the matrix to (default: standard output)")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	render, ok := formats[*format]
	switch {
	case len(files) == 0:
		return usageErr("matrix: want at least one ATTESTATION (toolcert matrix -h)")
	case !ok:
		return usageErr("matrix: --format %q: want md or html", *format)
	}
	var key *attest.Key
	if *pubkey != "" {
		if key, err = attest.LoadPublicKey(*pubkey); err != nil {
			return configErr(err)
		}
	}
	m, err := matrixOf(ctx, files, key)
	if err != nil {
		return configErr(err)
	}
	if err := writeMatrix(stdout, *out, m, render); err != nil {
		return configErr(err)
	}
	if len(m.Rejected) > 0 {
		return &exitError{code: exitFail, err: fmt.Errorf("%d attestations left out", len(m.Rejected))}
	}
	return nil
}

// matrixOf reads the attestations in files, verified with key when it is
// not nil, into a matrix; those that do not verify or read as a
// test-result statement are its Rejected. A file that cannot be read is
// an error.
func matrixOf(ctx context.Context, files []string, key *attest.Key) (attest.Matrix, error) {
	var (
		statements []*attest.Statement
		rejected   []string
	)
	for _, name := range files {
		data, err := attest.ReadEnvelope(name)
		if err != nil {
			return attest.Matrix{}, err
		}
		var st *attest.Statement
		if key != nil {
			st, err = attest.Open(ctx, data, key)
		} else {
			st, err = attest.Decode(data)
		}
		if err != nil {
			rejected = append(rejected, name+": "+err.Error())
			continue
		}
		statements = append(statements, st)
	}
	keyID := ""
	if key != nil {
		keyID = key.ID()
	}
	m := attest.NewMatrix(statements, key != nil, keyID)
	m.Rejected = rejected
	return m, nil
}

// writeMatrix renders m to the file out, or to stdout when out is "".
func writeMatrix(stdout io.Writer, out string, m attest.Matrix, render func(io.Writer, attest.Matrix) error) error {
	if out == "" {
		return render(stdout, m)
	}
	var b strings.Builder
	if err := render(&b, m); err != nil {
		return fmt.Errorf("render matrix: %w", err)
	}
	return attest.WriteFile(out, []byte(b.String()))
}
