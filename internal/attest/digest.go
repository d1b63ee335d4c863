package attest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// FileDigest returns the hex sha256 of the file at name.
func FileDigest(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", fmt.Errorf("digest %s: %w", name, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("digest %s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// StringDigest returns the hex sha256 of s.
func StringDigest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TreeDigest returns the digest of the files of fsys under roots that keep
// accepts (nil keeps every file), and how many there are. The digest is
// the sha256 of a manifest with one line per file, sorted by name, in the
// form sha256sum prints ("<hex sha256>  <name>\n"), each name relative to
// its root (a root that is a file is named by its base name): the same
// files give the same digest wherever the folder is, and
//
//	cd DIR && find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum | sha256sum
//
// prints it for a folder of every file.
func TreeDigest(fsys fs.FS, roots []string, keep func(name string) bool) (string, int, error) {
	var lines []string
	for _, root := range roots {
		err := fs.WalkDir(fsys, root, func(name string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() || (keep != nil && !keep(name)) {
				return err
			}
			line, err := manifestLine(fsys, root, name)
			if err != nil {
				return err
			}
			lines = append(lines, line)
			return nil
		})
		if err != nil {
			return "", 0, fmt.Errorf("digest %s: %w", root, err)
		}
	}
	slices.SortFunc(lines, func(a, b string) int { return strings.Compare(a[66:], b[66:]) })
	return StringDigest(strings.Join(lines, "")), len(lines), nil
}

// manifestLine returns the manifest line of the file name of fsys, named
// relative to root.
func manifestLine(fsys fs.FS, root, name string) (string, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return "", err
	}
	rel := path.Base(name)
	if name != root {
		rel = strings.TrimPrefix(name, root+"/")
		if root == "." {
			rel = name
		}
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]) + "  " + rel + "\n", nil
}
