package runner

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/variant"
)

// controlsOf evaluates the control catalogue of the corpus fixtures over
// res (reports.Catalogue.Evaluate); a corpus without a catalogue, or with
// one that does not load, has no controls (`toolcert fixtures lint` and
// the run's own corpus check name what is wrong with it).
func controlsOf(res *reports.Result, fixtures fs.FS) []reports.ControlResult {
	cat, err := corpus.New(fixtures).Controls()
	if err != nil {
		return nil
	}
	return cat.Evaluate(res)
}

// vocabulary returns what a control catalogue may map: the built-in
// feature files and the tags they use, and every generator operator.
func vocabulary() corpus.Vocabulary {
	v := corpus.Vocabulary{Operators: variant.Operators()}
	_ = fs.WalkDir(toolcert.Features(), "features", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(name) != ".feature" {
			return nil
		}
		v.Features = append(v.Features, path.Base(name))
		if b, err := fs.ReadFile(toolcert.Features(), name); err == nil {
			v.Tags = appendTags(v.Tags, b)
		}
		return nil
	})
	slices.Sort(v.Tags)
	v.Tags = slices.Compact(v.Tags)
	return v
}

// appendTags appends the tags of a feature file to tags: the words of
// every line that starts with "@", up to a comment.
func appendTags(tags []string, feature []byte) []string {
	sc := bufio.NewScanner(bytes.NewReader(feature))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "@") {
			continue
		}
		line, _, _ = strings.Cut(line, " #")
		for _, w := range strings.Fields(line) {
			if strings.HasPrefix(w, "@") {
				tags = append(tags, w)
			}
		}
	}
	return tags
}
