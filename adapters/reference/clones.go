package reference

import (
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/targets"
)

// ErrClone is returned by the builder of [InProcessClones] for a clone it
// cannot serve: its original is not a read tool, or its name is taken.
var ErrClone = pipeline.ErrClone

// InProcessClones returns the reference adapter as a target served inside
// the harness, as [InProcess] does, that also serves each key of clones as
// a copy of the read tool its value names ("review_status_07":
// "review_status"): the same arguments, upstream request, versions and
// checks, answering with its own name in the envelope and the audit event.
// It exists for corpora of many tools, such as the scale benchmark's
// (selftest); the policy the harness hands the target must allowlist each
// clone. A lane fails to start, wrapping ErrClone, when a clone cannot be
// served.
func InProcessClones(clones map[string]string) *targets.InProcess {
	clones = maps.Clone(clones)
	return targets.NewInProcess(clonesName(clones), func(env targets.Env) (http.Handler, io.Closer, error) {
		cfg, err := pipeline.ConfigFromEnv(pipeline.EnvLookup(env))
		if err != nil {
			return nil, nil, err
		}
		p, err := pipeline.New(cfg, pipeline.WithToolClones(clones))
		if err != nil {
			return nil, nil, err
		}
		a := (*Adapter)(p)
		return a, a, nil
	})
}

// clonesName names the target by its clones and their originals:
// "reference with 12 tool clones of review_status, run_status".
func clonesName(clones map[string]string) string {
	noun := " tool clones of "
	if len(clones) == 1 {
		noun = " tool clone of "
	}
	originals := slices.Compact(slices.Sorted(maps.Values(clones)))
	return "reference with " + strconv.Itoa(len(clones)) + noun + strings.Join(originals, ", ")
}
