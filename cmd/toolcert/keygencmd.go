package main

import (
	"context"
	"fmt"
	"io"

	"github.com/toolcert/toolcert/internal/attest"
)

const keygenSynopsis = `Usage: toolcert keygen [--out DIR]

Writes a new ed25519 key pair for signing attestations (toolcert certify):
DIR/toolcert.key, the private key as PKCS#8 PEM, readable by its owner only
(mode 0600: keep it secret, e.g. in a CI secret), and DIR/toolcert.pub, the
public key as PKIX PEM, for whoever verifies (toolcert verify --pubkey). It
never overwrites a key: when either file exists, it writes neither. It
prints the key ID, the sha256 of the public key's DER encoding, which every
envelope the key signs names.

Exit codes: 0 the keys were written; 2 usage error, a file exists, or the
folder cannot be written.

Example:
  toolcert keygen --out keys`

// keygenCmd writes a new key pair.
func keygenCmd(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("keygen", keygenSynopsis, stderr)
	out := fs.String("out", ".", "`DIR` to write toolcert.key and toolcert.pub into (created when missing)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	key, pub, err := attest.GenerateKeys(*out)
	if err != nil {
		return configErr(err)
	}
	k, err := attest.LoadPublicKey(pub)
	if err != nil {
		return configErr(err)
	}
	fmt.Fprintf(stdout, "wrote %s (private: keep it secret)\nwrote %s\nkey ID %s\n", key, pub, k.ID())
	return nil
}
