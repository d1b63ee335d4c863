package attest

import (
	"fmt"
	"os"
	"path/filepath"
)

// ReadEnvelope reads the envelope file at name, at most MaxEnvelopeBytes
// of a regular file.
func ReadEnvelope(name string) ([]byte, error) {
	b, err := readBounded(name, MaxEnvelopeBytes)
	if err != nil {
		return nil, fmt.Errorf("read attestation: %w", err)
	}
	return b, nil
}

// WriteFile writes data to the file at name whole or not at all: into a
// temporary file of the same folder, renamed over name once complete.
func WriteFile(name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
