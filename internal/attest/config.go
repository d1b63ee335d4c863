package attest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strconv"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/targets"
)

// The names of the configuration descriptors of a predicate.
const (
	ConfigFeatures = "features"
	ConfigFixtures = "fixtures"
	ConfigProfile  = "profile"
	ConfigBaseline = "baseline"
	ConfigFile     = "config"
	ConfigSeed     = "seed"
	ConfigToolcert = "toolcert"
)

// Config is what a run was given, as its attestation names it. The zero
// value of a field is the built-in run's: the built-in features and
// corpus, the default profile, no baseline.
type Config struct {
	// Features holds the .feature files the run read, under FeaturePaths
	// (runner.Config's fields); nil is the built-in features.
	Features     fs.FS
	FeaturePaths []string
	// Fixtures is the corpus; nil is the built-in corpus.
	Fixtures fs.FS
	// Profile is the profile in effect and ProfilePath the file it came
	// from; "" for the default profile.
	Profile     targets.Profile
	ProfilePath string
	// BaselinePath is the baseline file, "" for none.
	BaselinePath string
	// ConfigPath is the target config file (--config), "" for none.
	ConfigPath string
	// Executable is toolcert's own binary, Version its version.
	Executable string
	Version    string
	// UpstreamVersion is the upstream version the run certified, ""
	// for every version of the corpus.
	UpstreamVersion string
	// Selection is how the run chose its scenarios.
	Selection Selection
}

// descriptors returns the configuration descriptors of a run with seed:
// features, fixtures, profile, baseline and config file when there are
// ones, the seed and toolcert itself.
func (c Config) descriptors(seed uint64) ([]ResourceDescriptor, error) {
	var out []ResourceDescriptor
	for _, f := range []func() (ResourceDescriptor, error){c.features, c.fixtures, c.profile} {
		d, err := f()
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	for name, file := range map[string]string{ConfigBaseline: c.BaselinePath, ConfigFile: c.ConfigPath} {
		if file == "" {
			continue
		}
		d, err := fileDescriptor(name, file)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	value := strconv.FormatUint(seed, 10)
	out = append(out, ResourceDescriptor{Name: ConfigSeed, Digest: sha256Of(StringDigest(value)), Annotations: map[string]string{"value": value}})
	self, err := FileDigest(c.Executable)
	if err != nil {
		return nil, fmt.Errorf("toolcert's own binary: %w", err)
	}
	out = append(out, ResourceDescriptor{Name: ConfigToolcert, Digest: sha256Of(self), Annotations: map[string]string{"version": c.Version}})
	slices.SortStableFunc(out, func(a, b ResourceDescriptor) int { return order(a.Name) - order(b.Name) })
	return out, nil
}

// order is the place of a configuration descriptor in a predicate.
func order(name string) int {
	return slices.Index([]string{ConfigFeatures, ConfigFixtures, ConfigProfile, ConfigBaseline, ConfigFile, ConfigSeed, ConfigToolcert}, name)
}

// features returns the descriptor of the feature files: a TreeDigest of
// every .feature file the run read.
func (c Config) features() (ResourceDescriptor, error) {
	fsys, roots, source := c.Features, c.FeaturePaths, "files"
	if fsys == nil {
		fsys, roots, source = toolcert.Features(), []string{"features"}, "built-in"
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	isFeature := func(name string) bool { return path.Ext(name) == ".feature" }
	return treeDescriptor(ConfigFeatures, fsys, roots, isFeature, source)
}

// fixtures returns the descriptor of the corpus: a TreeDigest of every
// file in it.
func (c Config) fixtures() (ResourceDescriptor, error) {
	if c.Fixtures == nil {
		return treeDescriptor(ConfigFixtures, toolcert.Fixtures(), []string{"."}, nil, "built-in")
	}
	return treeDescriptor(ConfigFixtures, c.Fixtures, []string{"."}, nil, "files")
}

// treeDescriptor returns the descriptor name of the files of fsys under
// roots that keep accepts.
func treeDescriptor(name string, fsys fs.FS, roots []string, keep func(string) bool, source string) (ResourceDescriptor, error) {
	sum, n, err := TreeDigest(fsys, roots, keep)
	if err != nil {
		return ResourceDescriptor{}, fmt.Errorf("%s: %w", name, err)
	}
	return ResourceDescriptor{Name: name, Digest: sha256Of(sum),
		Annotations: map[string]string{"source": source, "files": strconv.Itoa(n), "digestOf": "manifest"}}, nil
}

// profile returns the descriptor of the profile: its file's bytes, or,
// for the default profile, its JSON.
func (c Config) profile() (ResourceDescriptor, error) {
	if c.ProfilePath != "" {
		return fileDescriptor(ConfigProfile, c.ProfilePath)
	}
	p := c.Profile
	if reflect.ValueOf(p).IsZero() {
		p = targets.DefaultProfile()
	}
	b, err := json.Marshal(p)
	if err != nil {
		return ResourceDescriptor{}, fmt.Errorf("profile: %w", err)
	}
	return ResourceDescriptor{Name: ConfigProfile, Digest: sha256Of(StringDigest(string(b))),
		Annotations: map[string]string{"source": "built-in", "digestOf": "json"}}, nil
}

// fileDescriptor returns the descriptor name of the file at file.
func fileDescriptor(name, file string) (ResourceDescriptor, error) {
	sum, err := FileDigest(file)
	if err != nil {
		return ResourceDescriptor{}, fmt.Errorf("%s: %w", name, err)
	}
	return ResourceDescriptor{Name: name, Digest: sha256Of(sum), Annotations: map[string]string{"path": file}}, nil
}

// upstreamVersions returns the upstream versions a run of c served: its
// UpstreamVersion, or every version its corpus knows.
func (c Config) upstreamVersions() ([]string, error) {
	if c.UpstreamVersion != "" {
		return []string{c.UpstreamVersion}, nil
	}
	fixtures := c.Fixtures
	if fixtures == nil {
		fixtures = toolcert.Fixtures()
	}
	corp := corpus.New(fixtures)
	tools, err := corp.Tools()
	if err != nil {
		return nil, fmt.Errorf("upstream versions: %w", err)
	}
	var out []string
	for _, name := range tools {
		t, err := corp.Tool(name)
		if err != nil {
			return nil, fmt.Errorf("upstream versions: %w", err)
		}
		out = append(out, t.VersionNames()...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// sha256Of returns the digest set of a hex sha256.
func sha256Of(hex string) map[string]string { return map[string]string{"sha256": hex} }
