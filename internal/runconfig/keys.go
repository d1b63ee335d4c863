package runconfig

import (
	"errors"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
)

// runKey is a top-level key that holds a run flag's value: the flag's name
// and how to read its value into a setter of Flags.
type runKey struct {
	name string
	read func(d *decoder, n *yaml.Node, key string) (func(*Flags), error)
}

// runKeys returns the run keys, in the order docs/config.md lists them.
func runKeys() []runKey {
	return []runKey{
		{"features", pathKey(func(f *Flags) *string { return &f.Features })},
		{"fixtures", pathKey(func(f *Flags) *string { return &f.Fixtures })},
		{"tags", stringKey(func(f *Flags) *string { return &f.Tags })},
		{"concurrency", concurrencyKey},
		{"seed", scalarKey("!!int", "an integer of 0 or more", func(f *Flags) *uint64 { return &f.Seed })},
		{"out", pathKey(func(f *Flags) *string { return &f.Out })},
		{"format", formatKey},
		{"quiet", scalarKey("!!bool", "true or false", func(f *Flags) *bool { return &f.Quiet })},
		{"upstream-version", stringKey(func(f *Flags) *string { return &f.UpstreamVersion })},
		{"case", stringKey(func(f *Flags) *string { return &f.Case })},
		{"baseline", pathKey(func(f *Flags) *string { return &f.Baseline })},
		{"shard", shardKey},
		{"write-baseline", pathKey(func(f *Flags) *string { return &f.WriteBaseline })},
		{"require-all", scalarKey("!!bool", "true or false", func(f *Flags) *bool { return &f.RequireAll })},
		{"level", levelKey},
		{"allow-open-decisions", scalarKey("!!bool", "true or false", func(f *Flags) *bool { return &f.AllowOpenDecisions })},
		{"profile", pathKey(func(f *Flags) *string { return &f.Profile })},
		{"upstream-listen", stringKey(func(f *Flags) *string { return &f.UpstreamListen })},
		{"audit-file", pathKey(func(f *Flags) *string { return &f.AuditFile })},
		{"ready-timeout", readyTimeoutKey},
	}
}

// Keys returns the top-level keys of a config file that hold run flags'
// values, each named as its flag. The file's other keys are target and
// tools.
func Keys() []string {
	var names []string
	for _, k := range runKeys() {
		names = append(names, k.name)
	}
	return names
}

// stringKey reads a string into field.
func stringKey(field func(*Flags) *string) func(*decoder, *yaml.Node, string) (func(*Flags), error) {
	return func(d *decoder, n *yaml.Node, key string) (func(*Flags), error) {
		s, err := d.str(n, key)
		if err != nil {
			return nil, err
		}
		return func(f *Flags) { *field(f) = s }, nil
	}
}

// pathKey reads a path into field: a relative path is under the config
// file's folder.
func pathKey(field func(*Flags) *string) func(*decoder, *yaml.Node, string) (func(*Flags), error) {
	return func(d *decoder, n *yaml.Node, key string) (func(*Flags), error) {
		s, err := d.path(n, key)
		if err != nil {
			return nil, err
		}
		return func(f *Flags) { *field(f) = s }, nil
	}
}

// path reads a path: a relative path is under the config file's folder.
func (d *decoder) path(n *yaml.Node, key string) (string, error) {
	s, err := d.str(n, key)
	switch {
	case err != nil:
		return "", err
	case s == "":
		return "", d.faultf(n, key, "an empty path")
	case !filepath.IsAbs(s):
		s = filepath.Join(d.dir, s)
	}
	return s, nil
}

// scalarKey reads a scalar of tag into field.
func scalarKey[T any](tag, want string, field func(*Flags) *T) func(*decoder, *yaml.Node, string) (func(*Flags), error) {
	return func(d *decoder, n *yaml.Node, key string) (func(*Flags), error) {
		v, err := scalar[T](d, n, key, tag, want)
		if err != nil {
			return nil, err
		}
		return func(f *Flags) { *field(f) = v }, nil
	}
}

// concurrencyKey reads the number of lanes, at least 1.
func concurrencyKey(d *decoder, n *yaml.Node, key string) (func(*Flags), error) {
	v, err := scalar[int](d, n, key, "!!int", "an integer")
	if err != nil {
		return nil, err
	}
	if v < 1 {
		return nil, d.faultf(n, key, "must be at least 1, got %d", v)
	}
	return func(f *Flags) { f.Concurrency = v }, nil
}

// formatKey reads the report formats: "json,junit" or a list.
func formatKey(d *decoder, n *yaml.Node, key string) (func(*Flags), error) {
	words, _, err := d.words(n, key)
	if err != nil {
		return nil, err
	}
	list := strings.Join(words, ",")
	if _, err := reports.ParseFormats(list); err != nil {
		return nil, d.fault(n, key, err)
	}
	return func(f *Flags) { f.Format = list }, nil
}

// shardKey reads a shard, "K/N".
func shardKey(d *decoder, n *yaml.Node, key string) (func(*Flags), error) {
	s, err := d.str(n, key)
	if err != nil {
		return nil, err
	}
	if _, err := runner.ParseShard(s); err != nil {
		return nil, d.fault(n, key, err)
	}
	return func(f *Flags) { f.Shard = s }, nil
}

// levelKey reads the level the run certifies: safe or strict.
func levelKey(d *decoder, n *yaml.Node, key string) (func(*Flags), error) {
	s, err := d.str(n, key)
	if err != nil {
		return nil, err
	}
	if _, err := reports.ParseLevel(s); err != nil || s == "" {
		return nil, d.faultf(n, key, "%q is not a level: want safe or strict", s)
	}
	return func(f *Flags) { f.Level = s }, nil
}

// readyTimeoutKey reads a positive Go duration such as "20s".
func readyTimeoutKey(d *decoder, n *yaml.Node, key string) (func(*Flags), error) {
	const want = `a Go duration such as "20s"`
	if r := resolve(n); r.Kind != yaml.ScalarNode || r.ShortTag() != "!!str" {
		return nil, d.wrongType(n, key, want)
	}
	v, err := time.ParseDuration(resolve(n).Value)
	if err == nil && v <= 0 {
		err = errors.New("must be positive")
	}
	if err != nil {
		return nil, d.faultf(n, key, "want %s: %w", want, err)
	}
	return func(f *Flags) { f.ReadyTimeout = v }, nil
}
