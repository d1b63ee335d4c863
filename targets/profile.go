package targets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// Profile is what a target declares about itself: the limits its scenarios
// are built from (one byte past the byte limit, one level past the depth
// limit, a timestamp just outside the freshness window) and the names of
// its environment variables. The defaults are the reference adapter's.
type Profile struct {
	// MaxBytes is the byte limit on one upstream response body.
	MaxBytes int64 `json:"max_bytes"`
	// MaxDepth is the nesting-depth limit of a JSON document.
	MaxDepth int `json:"max_depth"`
	// MaxAttempts is the upstream attempts per agent call, retries included.
	MaxAttempts int `json:"max_attempts"`
	// Deadline is the total time budget of one agent call's upstream work.
	Deadline Duration `json:"deadline"`
	// ReadTimeout is the longest silence the adapter accepts while reading.
	ReadTimeout Duration `json:"read_timeout"`
	// Freshness is the oldest acceptable observation.
	Freshness Duration `json:"freshness"`
	// FutureSkew is how far in the future an observation may be.
	FutureSkew Duration `json:"future_skew"`
	// ReadyTimeout is how long the harness waits for each instance of the
	// target to be ready (0: protocol.ReadyTimeout); --ready-timeout
	// replaces it.
	ReadyTimeout Duration `json:"ready_timeout,omitempty"`
	// Token is the bearer token the agent presents.
	Token string `json:"token"`
	// Rename maps TOOLCERT_* variable names to the adapter's own names.
	Rename map[string]string `json:"rename,omitempty"`
	// UpstreamVersions lists, per tool, the upstream versions the adapter
	// supports. A tool it does not name supports every version its corpus
	// knows. A profile file that has the field replaces the default map
	// as a whole. An answer of a version the adapter does not support must be
	// rejected cleanly, never half-accepted.
	UpstreamVersions map[string][]string `json:"upstream_versions,omitempty"`
}

// Supports reports whether the adapter declares support for version of
// tool.
func (p Profile) Supports(tool, version string) bool {
	vs, ok := p.UpstreamVersions[tool]
	return !ok || slices.Contains(vs, version)
}

// DefaultProfile returns the reference adapter's profile.
func DefaultProfile() Profile {
	return Profile{
		MaxBytes:    protocol.DefaultMaxBytes,
		MaxDepth:    protocol.DefaultMaxDepth,
		MaxAttempts: protocol.DefaultMaxAttempts,
		Deadline:    Duration(protocol.DefaultDeadline),
		ReadTimeout: Duration(protocol.DefaultReadTimeout),
		Freshness:   Duration(protocol.DefaultFreshness),
		FutureSkew:  Duration(protocol.DefaultFutureSkew),
		Token:       "toolcert-agent",
		UpstreamVersions: map[string][]string{
			"review_status": {"v1", "v2"},
			"run_status":    {"v1"},
			"deploy_status": {"v1"},
			"host_uptime":   {"v1"},
		},
	}
}

// CallTimeout is how long the harness waits for one agent call: twice the
// declared time budget plus a margin, at least five seconds. A target that
// takes longer has hung.
func (p Profile) CallTimeout() time.Duration {
	d := 2*time.Duration(p.Deadline) + 2*time.Second
	return max(d, 5*time.Second)
}

// LoadProfile reads a profile from a JSON file; fields it leaves out keep
// their defaults. Unknown fields are an error, so a typo is not ignored.
func LoadProfile(path string) (Profile, error) {
	p := DefaultProfile()
	b, err := os.ReadFile(path)
	if err != nil {
		return p, fmt.Errorf("load profile: %w", err)
	}
	var given struct {
		UpstreamVersions json.RawMessage `json:"upstream_versions"`
	}
	if json.Unmarshal(b, &given) == nil && given.UpstreamVersions != nil {
		p.UpstreamVersions = nil // the file's map replaces the default one, not merged into it
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return p, fmt.Errorf("load profile %s: %w", path, err)
	}
	return p, p.Validate()
}

// Validate reports whether every limit is positive.
func (p Profile) Validate() error {
	switch {
	case p.MaxBytes <= 0:
		return fmt.Errorf("profile: max_bytes must be positive")
	case p.MaxDepth <= 0:
		return fmt.Errorf("profile: max_depth must be positive")
	case p.MaxAttempts <= 0:
		return fmt.Errorf("profile: max_attempts must be positive")
	case p.Deadline <= 0 || p.ReadTimeout <= 0 || p.Freshness <= 0 || p.FutureSkew < 0:
		return fmt.Errorf("profile: deadline, read_timeout and freshness must be positive, future_skew not negative")
	case p.ReadyTimeout < 0:
		return fmt.Errorf("profile: ready_timeout must not be negative")
	}
	return nil
}

// Vars returns the protocol's limit variables that tell the reference
// adapter (and any adapter that reads them) to use this profile's limits.
func (p Profile) Vars() map[string]string {
	return map[string]string{
		protocol.VarMaxBytes:    fmt.Sprint(p.MaxBytes),
		protocol.VarMaxDepth:    fmt.Sprint(p.MaxDepth),
		protocol.VarMaxAttempts: fmt.Sprint(p.MaxAttempts),
		protocol.VarDeadline:    time.Duration(p.Deadline).String(),
		protocol.VarReadTimeout: time.Duration(p.ReadTimeout).String(),
		protocol.VarFreshness:   time.Duration(p.Freshness).String(),
		protocol.VarFutureSkew:  time.Duration(p.FutureSkew).String(),
	}
}

// Duration is a time.Duration written in JSON as a Go duration string ("2s").
type Duration time.Duration

// MarshalJSON writes the duration as a string such as "400ms".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a Go duration string such as "2s".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration: want a string such as \"2s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("duration: %w", err)
	}
	*d = Duration(v)
	return nil
}
