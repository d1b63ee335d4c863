package openapi

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// reviewsPath is the pointer of the reviews path item.
const reviewsPath = "/paths/~1repos~1{owner}~1{repo}~1pulls~1{pull_number}~1reviews"

// operationCase is one operation of a test description and what it must
// come out as.
type operationCase struct {
	name      string
	file      string
	sel       Selector
	opts      Options
	params    []string // "in name required"
	responses []string // "status media-type"
	examples  []string // "status/name"
	bad       []string // examples the description gets wrong
	notes     []wantNote
}

// operationCases are the operations of the test descriptions.
var operationCases = []operationCase{
	{
		name: "github 3.0: path-item parameters merged, the operation's repo wins in place",
		file: "github-3.0.yaml", sel: Selector{Method: "get", Path: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews"},
		params:    []string{"path owner true", "path repo true", "path pull_number true", "query per_page false", "query page false"},
		responses: []string{"200 application/json", "404 application/json", "422 application/json"},
		examples:  []string{"200/default", "404/example", "422/example"},
		notes: []wantNote{
			{reviewsPath + "/get/parameters/3", "header parameter X-GitHub-Api-Version is not carried over"},
			{reviewsPath + "/get/responses/200/headers", "response headers are not carried over"},
		},
	},
	{
		name: "github 3.0 open: nothing closed, and no closing notes",
		file: "github-3.0.yaml", sel: Selector{OperationID: "pulls/list-reviews"}, opts: Options{Open: true},
		params:    []string{"path owner true", "path repo true", "path pull_number true", "query per_page false", "query page false"},
		responses: []string{"200 application/json", "404 application/json", "422 application/json"},
		examples:  []string{"200/default", "404/example", "422/example"},
		notes: []wantNote{
			{reviewsPath + "/get/parameters/3", "header parameter"},
			{reviewsPath + "/get/responses/200/headers", "response headers"},
		},
	},
	{
		name: "github 3.0 post: the request body is noted, the response inlined",
		file: "github-3.0.yaml", sel: Selector{OperationID: "pulls/create-review"},
		params:    []string{"path owner true", "path repo true", "path pull_number true"},
		responses: []string{"200 application/json"},
		notes:     []wantNote{{reviewsPath + "/post/requestBody", "the request body is not carried over"}},
	},
	{
		name: "github 3.0: a response without a body, path parameters not declared",
		file: "github-3.0.yaml", sel: Selector{OperationID: "pulls/get"},
		responses: []string{"304 "},
		notes: []wantNote{
			{"/paths/~1repos~1{owner}~1{repo}~1pulls~1{pull_number}/get", "the path names {owner}, which no path parameter declares"},
			{"/paths/~1repos~1{owner}~1{repo}~1pulls~1{pull_number}/get", "the path names {repo}"},
			{"/paths/~1repos~1{owner}~1{repo}~1pulls~1{pull_number}/get", "the path names {pull_number}"},
		},
	},
	{
		name: "github 3.1: type arrays, const, examples, a $ref with a constraint beside it",
		file: "github-3.1.yaml", sel: Selector{OperationID: "pulls/list-reviews"},
		params:    []string{"path owner true", "path repo true", "path pull_number true", "query per_page false"},
		responses: []string{"200 application/vnd.github+json", "404 application/problem+json"},
		examples:  []string{"200/approved", "200/commented", "404/schema-example"},
	},
	{
		name: "swagger 2.0: definitions, produces, response examples, x-nullable",
		file: "github-2.0.json", sel: Selector{OperationID: "pulls/list-reviews"},
		params:    []string{"path owner true", "path repo true", "path pull_number true", "query per_page false", "query states false"},
		responses: []string{"200 application/vnd.github+json", "404 application/vnd.github+json"},
		examples:  []string{"200/example", "404/example"},
		notes: []wantNote{
			{reviewsPath + "/get/parameters/1/collectionFormat", "collectionFormat csv has no JSON Schema counterpart"},
			{reviewsPath + "/get/parameters/2", "header parameter X-GitHub-Api-Version"},
			{reviewsPath + "/get/responses/200/examples/application~1xml", "example for application/xml is not carried over"},
			{"/definitions/pull-request-review/properties/avatar/format", "format byte is written as contentEncoding base64"},
		},
	},
	{
		name: "swagger 2.0: type file",
		file: "github-2.0.json", sel: Selector{OperationID: "repos/download-zipball"},
		params:    []string{"path owner true", "path repo true"},
		responses: []string{"200 application/json"},
		notes: []wantNote{
			{"/paths/~1repos~1{owner}~1{repo}~1zipball/get/responses/200/schema/type", "type file (an upload) has no JSON Schema counterpart"},
			{"/paths/~1repos~1{owner}~1{repo}~1zipball/get/parameters/2", "the request body (parameter archive in formData) is not carried over"},
		},
	},
	{
		name: "a recursive tree node: $defs",
		file: "shapes.yaml", sel: Selector{OperationID: "trees/get"},
		params:    []string{"path tree_id true"},
		responses: []string{"200 application/json"},
		examples:  []string{"200/example"},
	},
	{
		name: "a discriminator with a mapping and an implicit value",
		file: "shapes.yaml", sel: Selector{OperationID: "pets/get"},
		params:    []string{"path pet_id true"},
		responses: []string{"200 application/json", "default application/json"},
		examples:  []string{"200/dog", "200/cat", "200/lizard"},
		notes: []wantNote{
			{"/paths/~1pets~1{pet_id}/get/parameters/0", "path parameter pet_id is not marked required"},
			{"/components/schemas/pet/discriminator/mapping/hamster", "the mapping names a schema that is no branch of oneOf"},
		},
	},
	{
		name: "formats, bounds, maps, free-form objects, a wrong example, ranges before statuses",
		file: "shapes.yaml", sel: Selector{Method: "GET", Path: "/counters"},
		responses: []string{"204 ", "400 ", "2XX application/json;charset=utf-8"},
		examples:  []string{"2XX/example"},
		bad:       []string{"2XX/example"},
		notes: []wantNote{
			{"/paths/~1counters/get/responses/2XX/content/text~1plain", "media type text/plain is not carried over"},
			{"/components/schemas/counter/properties/token/format", "format byte"},
			{"/components/schemas/counter/properties/secret/format", `format "password" is not a Draft 2020-12 format: dropped`},
			{"/components/schemas/counter/properties/labels/additionalProperties", "open by design"},
			{"/components/schemas/counter/properties/metadata", "free-form object"},
			{"/paths/~1counters/get/responses/2XX/content/application~1json;charset=utf-8/example", "example does not validate against the produced schema: at /count: minimum: got -1, want 0"},
			{"/paths/~1counters/get/responses/400/content/text~1html", "media type text/html is not carried over"},
		},
	},
}

// TestOperation converts every test operation and proves its output:
// parameters and responses as stated, schemas that compile, are closed
// and accept their Minimal instance, examples that validate, and
// exactly the expected notes.
func TestOperation(t *testing.T) {
	for _, tc := range operationCases {
		t.Run(tc.name, func(t *testing.T) {
			op := operation(t, loadFile(t, tc.file, tc.opts), tc.sel)
			var params, responses, examples []string
			for _, p := range op.Parameters {
				params = append(params, fmt.Sprintf("%s %s %v", p.In, p.Name, p.Required))
			}
			for _, r := range op.Responses {
				responses = append(responses, r.Status+" "+r.MediaType)
				for _, e := range r.Examples {
					examples = append(examples, r.Status+"/"+e.Name)
				}
			}
			if diff := cmp.Diff(tc.params, params); diff != "" {
				t.Errorf("parameters (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.responses, responses); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.examples, examples); diff != "" {
				t.Errorf("examples (-want +got):\n%s", diff)
			}
			checkSchemas(t, op, tc.opts.Open, tc.bad)
			checkNotes(t, op.Notes, tc.notes)
		})
	}
}
