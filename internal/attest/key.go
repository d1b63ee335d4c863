package attest

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// ErrNoPrivateKey means a Key made from a public key was asked to sign.
var ErrNoPrivateKey = errors.New("no private key: the key can only verify")

// Key signs and verifies DSSE envelopes with ed25519. Its KeyID is the hex
// sha256 of the public key's PKIX (SubjectPublicKeyInfo) DER encoding,
// what `openssl pkey -pubin -in toolcert.pub -outform DER | sha256sum`
// prints. NewKey makes one that signs, PublicKey one that only verifies.
type Key struct {
	private ed25519.PrivateKey
	public  ed25519.PublicKey
	id      string
}

var _ dsse.SignerVerifier = (*Key)(nil)

// NewKey returns the key that signs with private.
func NewKey(private ed25519.PrivateKey) (*Key, error) {
	k, err := PublicKey(private.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	k.private = private
	return k, nil
}

// PublicKey returns the key that verifies with public; it cannot sign.
func PublicKey(public ed25519.PublicKey) (*Key, error) {
	if len(public) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("ed25519 public key of %d bytes, want %d", len(public), ed25519.PublicKeySize)
	}
	der, err := x509.MarshalPKIXPublicKey(public)
	if err != nil {
		return nil, fmt.Errorf("encode public key: %w", err)
	}
	sum := sha256.Sum256(der)
	return &Key{public: public, id: hex.EncodeToString(sum[:])}, nil
}

// Sign returns the ed25519 signature of data (DSSE hands it the PAE of
// the payload).
func (k *Key) Sign(_ context.Context, data []byte) ([]byte, error) {
	if k.private == nil {
		return nil, ErrNoPrivateKey
	}
	return ed25519.Sign(k.private, data), nil
}

// Verify returns nil when sig is the key's ed25519 signature of data.
func (k *Key) Verify(_ context.Context, data, sig []byte) error {
	if !ed25519.Verify(k.public, data, sig) {
		return errors.New("ed25519 signature does not verify")
	}
	return nil
}

// KeyID returns the key's ID; it never fails.
func (k *Key) KeyID() (string, error) { return k.id, nil }

// ID returns the key's ID.
func (k *Key) ID() string { return k.id }

// Public returns the ed25519 public key.
func (k *Key) Public() crypto.PublicKey { return k.public }
