package attest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestGenerateKeysWritesPEMFiles(t *testing.T) {
	key, keyPath, pubPath := testKey(t)
	st, err := os.Stat(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", keyPath, st.Mode().Perm())
	}
	pemBytes, err := os.ReadFile(pubPath)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "PUBLIC KEY" {
		t.Fatalf("%s holds no PUBLIC KEY block:\n%s", pubPath, pemBytes)
	}
	sum := sha256.Sum256(block.Bytes)
	if want := hex.EncodeToString(sum[:]); key.ID() != want {
		t.Errorf("key ID %s, want the sha256 of the public key's DER, %s", key.ID(), want)
	}
	pub, err := LoadPublicKey(pubPath)
	if err != nil {
		t.Fatal(err)
	}
	if pub.ID() != key.ID() {
		t.Errorf("public key ID %s, private key's %s", pub.ID(), key.ID())
	}
	if _, err := pub.Sign(t.Context(), []byte("x")); !errors.Is(err, ErrNoPrivateKey) {
		t.Errorf("a public key signed: %v, want ErrNoPrivateKey", err)
	}
}

func TestGenerateKeysRefusesToOverwrite(t *testing.T) {
	for _, existing := range []string{KeyFile, PublicKeyFile} {
		t.Run(existing, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, existing), []byte("keep me"), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, _, err := GenerateKeys(dir); !errors.Is(err, fs.ErrExist) {
				t.Fatalf("GenerateKeys over an existing %s: %v, want fs.ErrExist", existing, err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("GenerateKeys wrote files beside the existing one: %v", entries)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, existing)); string(b) != "keep me" {
				t.Errorf("%s was changed: %q", existing, b)
			}
		})
	}
}

func TestLoadKeyRefuses(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, _ := x509.MarshalPKCS8PrivateKey(ec)
	ecPubDER, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	_, keyPath, pubPath := testKey(t)
	tests := []struct {
		name   string
		load   func(string) (*Key, error)
		file   []byte
		reason string
	}{
		{"ecdsa private key", LoadKey, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER}), "only ed25519 signs"},
		{"ecdsa public key", LoadPublicKey, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ecPubDER}), "only ed25519 verifies"},
		{"public key as private", LoadKey, mustRead(t, pubPath), "a PUBLIC KEY block is no private key"},
		{"private key as public", LoadPublicKey, mustRead(t, keyPath), "a PRIVATE KEY block is no public key"},
		{"not PEM", LoadPublicKey, []byte("hello"), "no PEM block"},
		{"garbage DER", LoadKey, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}}), "DER that does not parse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.load(writeTemp(t, "key.pem", tt.file)); err == nil {
				t.Errorf("loaded, want an error: %s", tt.reason)
			}
		})
	}
	if _, err := LoadKey(t.TempDir()); err == nil {
		t.Error("LoadKey read a folder")
	}
}

func mustRead(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
