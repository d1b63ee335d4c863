package reports

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// filePerm is the mode of every file reports writes. It is set on the
// temporary file as is: os.CreateTemp alone would leave 0600.
const filePerm = 0o644

// writeAtomic writes the file at path whole or not at all: write fills a
// temporary file in path's folder, which is synced and renamed over path
// only when every step succeeded. On any error the temporary file is
// removed and path is left as it was. The folder itself is not synced.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close() // a second Close, after a failed rename, only returns an error
			os.Remove(tmp.Name())
		}
	}()
	buf := bufio.NewWriter(tmp)
	if err := write(buf); err != nil {
		return err
	}
	if err := buf.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Chmod(filePerm); err != nil {
		return fmt.Errorf("chmod %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename into place: %w", err)
	}
	return nil
}
