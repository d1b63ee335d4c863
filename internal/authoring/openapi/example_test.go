package openapi_test

import (
	"fmt"

	"github.com/toolcert/toolcert/internal/authoring/openapi"
)

// spec is a small OpenAPI 3.0 description.
const spec = `openapi: 3.0.3
info: {title: Runs, version: '1'}
paths:
  /projects/{project_id}/runs/{run_id}:
    get:
      operationId: runs/get
      parameters:
        - {name: project_id, in: path, required: true, schema: {type: string}, example: bluebird}
        - {name: run_id, in: path, required: true, schema: {type: string, pattern: '^run_[A-Za-z0-9]{12}$'}}
        - {name: X-Trace, in: header, schema: {type: string}}
      responses:
        '200':
          description: The run.
          content:
            application/json:
              schema:
                type: object
                required: [run_id, state]
                properties:
                  run_id: {type: string}
                  state: {type: string, enum: [queued, running, failed, passed]}
                  finished_at: {type: string, format: date-time, nullable: true}
              example: {run_id: run_7Hq2LmX9pQ4s, state: failed, finished_at: '2024-05-01T10:00:00Z'}
`

func ExampleLoad() {
	d, err := openapi.Load([]byte(spec), openapi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Version())
	// Output: 3.0.3
}

func ExampleDescription_Operation() {
	d, err := openapi.Load([]byte(spec), openapi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	op, err := d.Operation(openapi.Selector{Method: "GET", Path: "/projects/{project_id}/runs/{run_id}"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range op.Parameters {
		fmt.Printf("%s %s required=%v example=%s\n", p.In, p.Name, p.Required, p.Example)
	}
	r := op.Responses[0]
	fmt.Println(r.Status, r.MediaType)
	fmt.Printf("%s\n", r.Schema)
	for _, n := range op.Notes {
		fmt.Printf("%s: %s\n", n.Pointer, n.Message)
	}
	// Output:
	// path project_id required=true example="bluebird"
	// path run_id required=true example=
	// 200 application/json
	// {
	//   "$schema": "https://json-schema.org/draft/2020-12/schema",
	//   "type": "object",
	//   "required": ["run_id", "state"],
	//   "properties": {
	//     "run_id": {
	//       "type": "string"
	//     },
	//     "state": {
	//       "type": "string",
	//       "enum": ["queued", "running", "failed", "passed"]
	//     },
	//     "finished_at": {
	//       "type": ["string", "null"],
	//       "format": "date-time"
	//     }
	//   },
	//   "unevaluatedProperties": false
	// }
	// /paths/~1projects~1{project_id}~1runs~1{run_id}/get/parameters/2: header parameter X-Trace is not carried over
}

func ExampleMinimal() {
	schema := []byte(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["run_id", "state", "observed_at"],
  "properties": {
    "run_id": {"type": "string", "pattern": "^run_[A-Za-z0-9]{12}$"},
    "state": {"enum": ["queued", "running"]},
    "observed_at": {"type": "string", "format": "date-time"},
    "note": {"type": "string"}
  },
  "unevaluatedProperties": false
}`)
	instance, err := openapi.Minimal(schema)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s\n", instance)
	// Output:
	// {
	//   "run_id": "run_aaaaaaaaaaaa",
	//   "state": "queued",
	//   "observed_at": "2024-01-01T00:00:00Z"
	// }
}
