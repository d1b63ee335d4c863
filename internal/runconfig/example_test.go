package runconfig_test

import (
	"errors"
	"fmt"

	"github.com/toolcert/toolcert/internal/runconfig"
)

func ExampleMerge() {
	file, err := runconfig.Parse("ci/toolcert.yaml", []byte(`
target:
  kind: mcp-stdio
  command: toolcert adapter --mcp stdio
tools:
  review_status: {name: get_review, arguments: '{"id": {{json .change_id}}}'}
concurrency: 4
out: report
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	// The user gave --concurrency 1 and left --out at its default.
	flags := runconfig.DefaultFlags()
	flags.Concurrency = 1
	r, err := runconfig.Merge(file, flags, map[string]bool{"concurrency": true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Target.Kind, r.Target.Command)
	fmt.Println(r.Concurrency, r.Out, r.Tools["review_status"].Name)
	// Output:
	// mcp-stdio toolcert adapter --mcp stdio
	// 1 ci/report get_review
}

func ExampleParse() {
	_, err := runconfig.Parse("toolcert.yaml", []byte(`
target:
  kind: v1-process
  comand: ./my-adapter
`))
	fmt.Println(err)
	var e *runconfig.Error
	if errors.As(err, &e) {
		fmt.Println(e.Line, e.Key, errors.Is(err, runconfig.ErrUnknownKey))
	}
	// Output:
	// toolcert.yaml:4: target.comand: unknown key (did you mean "command"?)
	// 4 target.comand true
}
