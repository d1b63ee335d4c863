package corpus_test

import (
	"fmt"
	"io/fs"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
)

func ExampleLint() {
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	fmt.Println(corpus.Lint(corpus.New(toolcert.Fixtures()), now, corpus.DefaultLimits()) == nil)

	// A copy of the built-in corpus with a reject no case uses and a reject
	// that lost its canary.
	src := toolcert.Fixtures()
	m := fstest.MapFS{}
	_ = fs.WalkDir(src, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(src, name)
			m[name] = &fstest.MapFile{Data: b}
		}
		return err
	})
	m["review_status/rejects/old.json"] = &fstest.MapFile{Data: []byte(`{"decision": "{{canary:old}}"}`)}
	m["host_uptime/rejects/banner.txt"] = &fstest.MapFile{Data: []byte("*** Authorized use only ***\nhost=web-1\nuptime_seconds=864000\n")}
	for _, p := range corpus.Lint(corpus.New(m), now, corpus.DefaultLimits()) {
		fmt.Println(p)
	}
	// Output:
	// true
	// host_uptime/cases.json: /rejects/0/body: rejects/banner.txt has no {{canary:NAME}} placeholder: nothing would show that none of it reaches the agent
	// review_status/rejects/old.json: not used by cases.json: add a case for it or delete it
}
