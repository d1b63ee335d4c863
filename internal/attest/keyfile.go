package attest

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// The files GenerateKeys writes into its folder.
const (
	KeyFile       = "toolcert.key"
	PublicKeyFile = "toolcert.pub"
)

// maxKeyBytes bounds a key file.
const maxKeyBytes = 64 << 10

// GenerateKeys writes a new ed25519 key pair into dir (created when
// missing): KeyFile, the private key as PKCS#8 PEM readable by its owner
// only (0600), and PublicKeyFile, the public key as PKIX PEM. It refuses
// to overwrite either file: an error wrapping fs.ErrExist, and neither is
// written. It returns the paths written.
func GenerateKeys(dir string) (key, pub string, err error) {
	key, pub = filepath.Join(dir, KeyFile), filepath.Join(dir, PublicKeyFile)
	for _, p := range []string{key, pub} {
		if _, err := os.Lstat(p); err == nil {
			return "", "", fmt.Errorf("generate keys: %s: %w", p, fs.ErrExist)
		}
	}
	public, private, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", "", fmt.Errorf("generate keys: %w", err)
	}
	privDER, err := x509.MarshalPKCS8PrivateKey(private)
	if err != nil {
		return "", "", fmt.Errorf("generate keys: %w", err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(public)
	if err != nil {
		return "", "", fmt.Errorf("generate keys: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("generate keys: %w", err)
	}
	if err := writeNew(key, 0o600, &pem.Block{Type: "PRIVATE KEY", Bytes: privDER}); err != nil {
		return "", "", err
	}
	if err := writeNew(pub, 0o644, &pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}); err != nil {
		return "", "", errors.Join(err, os.Remove(key))
	}
	return key, pub, nil
}

// writeNew writes block as PEM into a new file at name with mode perm.
func writeNew(name string, perm fs.FileMode, block *pem.Block) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("generate keys: %w", err)
	}
	err = pem.Encode(f, block)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("generate keys: write %s: %w", name, err)
	}
	return nil
}

// LoadKey reads the ed25519 private key in the PKCS#8 PEM file at name.
func LoadKey(name string) (*Key, error) {
	der, err := readPEM(name, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	parsed, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("load key %s: %w", name, err)
	}
	private, ok := parsed.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("load key %s: a %T, want an ed25519 key", name, parsed)
	}
	return NewKey(private)
}

// LoadPublicKey reads the ed25519 public key in the PKIX PEM file at name.
func LoadPublicKey(name string) (*Key, error) {
	der, err := readPEM(name, "PUBLIC KEY")
	if err != nil {
		return nil, err
	}
	parsed, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("load public key %s: %w", name, err)
	}
	public, ok := parsed.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("load public key %s: a %T, want an ed25519 key", name, parsed)
	}
	return PublicKey(public)
}

// readPEM returns the bytes of the one PEM block of type typ in the file
// at name.
func readPEM(name, typ string) ([]byte, error) {
	b, err := readBounded(name, maxKeyBytes)
	if err != nil {
		return nil, fmt.Errorf("load key: %w", err)
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != typ {
		return nil, fmt.Errorf("load key %s: no PEM block %q", name, typ)
	}
	return block.Bytes, nil
}

// readBounded reads the regular file at name, refusing one of more than
// limit bytes.
func readBounded(name string, limit int64) ([]byte, error) {
	if st, err := os.Stat(name); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, limit)
	}
	return b, nil
}
