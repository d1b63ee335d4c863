package runner

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FeaturesAt opens path, a folder of .feature files or one .feature file,
// as Config.Features and Config.FeaturePaths.
func FeaturesAt(path string) (fs.FS, []string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if st.IsDir() {
		return os.DirFS(path), []string{"."}, nil
	}
	return os.DirFS(filepath.Dir(path)), []string{filepath.Base(path)}, nil
}

// FixturesAt opens dir, a corpus folder (one folder per tool), as
// Config.Fixtures.
func FixturesAt(dir string) (fs.FS, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%q is not a folder", dir)
	}
	return os.DirFS(dir), nil
}
