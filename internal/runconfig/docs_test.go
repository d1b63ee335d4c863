package runconfig

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/targets"
)

// yamlBlock is a ```yaml block of a Markdown file and the line it starts
// at.
type yamlBlock struct {
	line int
	text string
}

// yamlBlocks returns the ```yaml blocks of the Markdown in md.
func yamlBlocks(md []byte) []yamlBlock {
	var (
		blocks []yamlBlock
		cur    *yamlBlock
		n      int
	)
	sc := bufio.NewScanner(bytes.NewReader(md))
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```yaml":
			cur = &yamlBlock{line: n + 1}
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks, cur = append(blocks, *cur), nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	return blocks
}

// TestDocsExamples parses every example of docs/config.md, so that the
// doc cannot drift from the format, and checks that the examples show
// every kind, and mcp-http both started per lane and already running, and
// a tool map.
func TestDocsExamples(t *testing.T) {
	md, err := os.ReadFile(filepath.Join("..", "..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := yamlBlocks(md)
	if len(blocks) == 0 {
		t.Fatal("docs/config.md has no ```yaml block")
	}
	shown := map[string]bool{}
	for _, b := range blocks {
		// from: names templates in testdata/docs, as if next to the file.
		f, err := Parse(filepath.Join("testdata", "docs", "toolcert.yaml"), []byte(b.text))
		if err != nil {
			t.Errorf("docs/config.md:%d: the example does not parse: %v", b.line, err)
			continue
		}
		r, err := Merge(f, DefaultFlags(), nil)
		if err != nil {
			t.Errorf("docs/config.md:%d: %v", b.line, err)
			continue
		}
		kind := r.Target.Kind
		switch {
		case kind == targets.KindMCPHTTP && r.Target.URL != "":
			kind += " running"
		case kind == targets.KindMCPHTTP:
			kind += " per lane"
		}
		shown[kind] = true
		if len(r.Tools) > 0 {
			shown["tools"] = true
		}
	}
	want := []string{"tools", targets.KindMCPHTTP + " running", targets.KindMCPHTTP + " per lane"}
	for _, k := range targets.Kinds() {
		if k != targets.KindMCPHTTP {
			want = append(want, k)
		}
	}
	for _, k := range want {
		if !shown[k] {
			t.Errorf("docs/config.md has no example of %s (it shows %v)", k, slices.Sorted(maps.Keys(shown)))
		}
	}
}
