package corpus_test

import (
	"fmt"
	"time"

	"github.com/toolcert/toolcert/corpus"
)

func ExampleRender() {
	v := corpus.Vars{
		Now:    time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC),
		Canary: func(name, where string) string { return "tcexample" + name },
	}
	out, _ := corpus.Render([]byte(`{"observed_at": "{{now-30s}}", "message": "{{canary:m}}"}`), "example.json", v)
	fmt.Println(string(out))
	// Output: {"observed_at": "2026-11-29T15:59:30Z", "message": "tcexamplem"}
}
