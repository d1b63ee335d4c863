package attest

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/toolcert/toolcert"
)

// TestTreeDigest checks the digest against the one the shell prints:
//
//	printf 'Feature: a\n' > a.feature; mkdir sub; printf 'Feature: b\n' > sub/b.feature
//	find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum | sha256sum
func TestTreeDigest(t *testing.T) {
	const want = "285a25d8e1c2f61ec44d9f5127e95d11dfbaaf0fc6d93f682ed0148ff9488622"
	fsys := fstest.MapFS{
		"feats/sub/b.feature": {Data: []byte("Feature: b\n")},
		"feats/a.feature":     {Data: []byte("Feature: a\n")},
	}
	got, n, err := TreeDigest(fsys, []string{"feats"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != want || n != 2 {
		t.Errorf("TreeDigest = %s over %d files, want sha256sum's %s over 2", got, n, want)
	}
	keepA := func(name string) bool { return filepath.Base(name) == "a.feature" }
	if only, n, _ := TreeDigest(fsys, []string{"feats"}, keepA); only == got || n != 1 {
		t.Errorf("TreeDigest kept %d files, digest %s: want the one file keep accepts", n, only)
	}
}

// TestFeatureDigestIndependentOfPath: the built-in features and the same
// files given as a folder have one digest.
func TestFeatureDigestIndependentOfPath(t *testing.T) {
	builtin, n, err := TreeDigest(toolcert.Features(), []string{"features"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "features")
	folder, m, err := TreeDigest(os.DirFS(dir), []string{"."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if builtin != folder || n != m || n == 0 {
		t.Errorf("built-in features %s (%d files), the folder %s (%d files): want one digest", builtin, n, folder, m)
	}
}
