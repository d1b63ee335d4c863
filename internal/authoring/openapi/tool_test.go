package openapi_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/internal/authoring/openapi"
)

// toolSpec has an issue route whose example its own schema refuses, a
// 201 and a 200, a 4XX range, a default and a 410 without a body.
const toolSpec = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /issues/{number}:
    get:
      operationId: issues/get
      summary: Get an issue
      parameters:
        - {name: number, in: path, required: true, schema: {type: integer, minimum: 1}, example: 7}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {type: object, properties: {id: {type: integer}}, required: [id]}
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  number: {type: integer}
                  title: {type: string}
                required: [number, title]
              example: {number: "not a number", title: x}
        '410': {description: gone}
        4XX:
          description: client error
          content:
            application/json:
              schema: {type: object, properties: {message: {type: string}}}
              example: {message: bad}
        default: {description: other}
`

func operation(t *testing.T) *openapi.Operation {
	t.Helper()
	d, err := openapi.Load([]byte(toolSpec), openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	op, err := d.Operation(openapi.Selector{OperationID: "issues/get"})
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func TestOperationTool(t *testing.T) {
	tool, err := operation(t).Tool(openapi.ToolOptions{Name: "issue", Keep: []string{"/title"}})
	if err != nil {
		t.Fatal(err)
	}
	if tool.Description != "Get an issue" || tool.Method != "GET" || tool.Path != "/issues/{number}" || len(tool.Arguments) != 1 {
		t.Errorf("tool %+v", tool)
	}
	if !strings.Contains(string(tool.Schema), `"title"`) {
		t.Errorf("the success imported is not the 200: %s", tool.Schema)
	}
	if len(tool.Examples) != 1 || tool.Examples[0].ID != "minimal" {
		t.Errorf("examples %+v: want the minimal one, the description's being refused by its schema", tool.Examples)
	}
	var statuses []string
	for _, e := range tool.Errors {
		statuses = append(statuses, fmt.Sprint(e.Status, e.Range))
	}
	if want := []string{"410", "04XX", "0default"}; !slices.Equal(statuses, want) {
		t.Errorf("error answers %q, want %q: a status, a range and the default", statuses, want)
	}
	notes := ""
	for _, n := range tool.Notes {
		notes += n.Pointer + ": " + n.Message + "\n"
	}
	for _, want := range []string{"its own schema refuses it", "a minimal one was made"} {
		if !strings.Contains(notes, want) {
			t.Errorf("no note %q among:\n%s", want, notes)
		}
	}
}

func TestOperationToolRefuses(t *testing.T) {
	op := operation(t)
	if _, err := op.Tool(openapi.ToolOptions{Name: "issue"}); !errors.Is(err, openapi.ErrNoKeep) || !strings.Contains(err.Error(), "/number, /title") {
		t.Errorf("no keep: %v", err)
	}
	if _, err := op.Tool(openapi.ToolOptions{Name: "issue", Keep: []string{"/id"}, Status: "201"}); err != nil {
		t.Errorf("--status 201: %v", err)
	}
	if _, err := op.Tool(openapi.ToolOptions{Name: "issue", Keep: []string{"/id"}, Status: "410"}); err == nil || !strings.Contains(err.Error(), "no JSON body schema") {
		t.Errorf("--status 410: %v", err)
	}
}

// TestOperationToolWhole keeps the whole answer, spelt "#": of a scalar
// (the pet store's count) and of an object (a pet), the agent keeps one
// field, the whole answer (scaffold's pointer ""); a pointer may be
// written in its URI fragment form too.
func TestOperationToolWhole(t *testing.T) {
	d := loadPetStore(t)
	for _, tc := range []struct {
		path string
		keep []string
		want []string
	}{
		{"/pets/count", []string{"#"}, []string{""}},
		{"/pets/{petId}", []string{"#"}, []string{""}},
		{"/pets/{petId}", []string{"#/name", "#/t%61g"}, []string{"/name", "/tag"}},
	} {
		op, err := d.Operation(openapi.Selector{Method: "GET", Path: tc.path})
		if err != nil {
			t.Fatal(err)
		}
		tool, err := op.Tool(openapi.ToolOptions{Name: "x", Keep: tc.keep})
		if err != nil {
			t.Errorf("%s --keep %q: %v", tc.path, tc.keep, err)
			continue
		}
		if !slices.Equal(tool.Keep, tc.want) || len(tool.Examples) != 1 {
			t.Errorf("%s --keep %q: keep %q, %d examples; want %q, one", tc.path, tc.keep, tool.Keep, len(tool.Examples), tc.want)
		}
	}
	op, err := d.Operation(openapi.Selector{Method: "GET", Path: "/pets/count"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := op.Tool(openapi.ToolOptions{Name: "x"}); !errors.Is(err, openapi.ErrNoKeep) || !strings.Contains(err.Error(), "# keeps the whole answer") {
		t.Errorf("no keep of a scalar: %v", err)
	}
	for keep, want := range map[string]string{"": "the whole answer is #", "#name": "it is # or starts with #/", "name": "must start with /"} {
		if _, err := op.Tool(openapi.ToolOptions{Name: "x", Keep: []string{keep}}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--keep %q: %v, want %q", keep, err, want)
		}
	}
}

// TestOperationToolKeepsOptional imports the pet store's GET
// /pets/{petId}, which gives no example, keeping the optional tag: the
// minimal example made has it.
func TestOperationToolKeepsOptional(t *testing.T) {
	op, err := loadPetStore(t).Operation(openapi.Selector{OperationID: "showPetById"})
	if err != nil {
		t.Fatal(err)
	}
	tool, err := op.Tool(openapi.ToolOptions{Name: "pet", Keep: []string{"/name", "/tag"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tool.Examples) != 1 || !strings.Contains(string(tool.Examples[0].Body), `"tag"`) {
		t.Errorf("examples %+v: want one made with the kept tag", tool.Examples)
	}
}

// loadPetStore loads the hand-written pet store.
func loadPetStore(t *testing.T) *openapi.Description {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "petstore-3.0.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := openapi.Load(b, openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
