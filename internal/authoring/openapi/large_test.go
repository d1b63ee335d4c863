package openapi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shape of the generated large description: schemas in layers, each
// layer's schemas referring to the layer below (a DAG, as GitHub's is),
// and paths whose operations refer to the top layers.
const (
	largeLayers    = 5
	largePerLayer  = 600
	largePaths     = 3000
	largeLeafProps = 20
)

// writeLargeDescription writes a generated OpenAPI 3.0 description of
// about 10 MB into dir and returns its path and the operationId of its
// deepest operation.
func writeLargeDescription(tb testing.TB, dir string) (path, operationID string) {
	tb.Helper()
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo:\n  title: Generated large description\n  version: '1'\npaths:\n")
	for i := range largePaths {
		writeLargePath(&b, i)
	}
	b.WriteString(largeComponents)
	for layer := range largeLayers {
		for i := range largePerLayer {
			writeLargeSchema(&b, layer, i)
		}
	}
	path = filepath.Join(dir, "large.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatalf("write large description: %v", err)
	}
	return path, fmt.Sprintf("things/get-%d", largePaths-1)
}

// largeComponents are the shared parameters and responses.
const largeComponents = `components:
  parameters:
    org:
      name: org
      in: path
      required: true
      description: The organization name. The name is not case sensitive.
      schema:
        type: string
    per-page:
      name: per_page
      in: query
      description: The number of results per page (max 100).
      schema:
        type: integer
        default: 30
        maximum: 100
  responses:
    not_found:
      description: Resource not found
      content:
        application/json:
          schema:
            $ref: '#/components/schemas/basic-error'
  schemas:
    basic-error:
      type: object
      properties:
        message:
          type: string
        documentation_url:
          type: string
`

// writeLargePath writes path item i: a get and a post.
func writeLargePath(b *strings.Builder, i int) {
	top := fmt.Sprintf("s%d-%d", largeLayers-1-i%2, i%largePerLayer)
	fmt.Fprintf(b, `  /orgs/{org}/things-%[1]d/{thing_id}:
    parameters:
      - $ref: '#/components/parameters/org'
    get:
      summary: Get thing %[1]d
      description: Gets a thing of kind %[1]d with all of its details, its owner and its history of changes.
      operationId: things/get-%[1]d
      parameters:
        - name: thing_id
          in: path
          required: true
          schema:
            type: integer
        - $ref: '#/components/parameters/per-page'
      responses:
        '200':
          description: The thing.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/%[2]s'
        '404':
          $ref: '#/components/responses/not_found'
    post:
      summary: Replace thing %[1]d
      operationId: things/replace-%[1]d
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/%[2]s'
      responses:
        '201':
          description: Replaced.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/%[2]s'
        '422':
          $ref: '#/components/responses/not_found'
`, i, top)
}

// writeLargeSchema writes schema i of layer: scalar members, and above
// layer 0 three $refs into the layer below.
func writeLargeSchema(b *strings.Builder, layer, i int) {
	fmt.Fprintf(b, "    s%d-%d:\n      title: Schema %d of layer %d\n      type: object\n      required: [id, name]\n      properties:\n", layer, i, i, layer)
	fmt.Fprintf(b, "        id:\n          type: integer\n          format: int64\n          example: %d\n", i)
	fmt.Fprintf(b, "        name:\n          type: string\n          example: thing-%d\n", i)
	fmt.Fprintf(b, "        url:\n          type: string\n          format: uri\n        created_at:\n          type: string\n          format: date-time\n")
	props := largeLeafProps
	if layer > 0 {
		props = largeLeafProps / 2
		below := func(k int) string { return fmt.Sprintf("s%d-%d", layer-1, (i*7+k*13)%largePerLayer) }
		fmt.Fprintf(b, "        owner:\n          $ref: '#/components/schemas/%s'\n", below(0))
		fmt.Fprintf(b, "        parent:\n          nullable: true\n          allOf:\n            - $ref: '#/components/schemas/%s'\n", below(1))
		fmt.Fprintf(b, "        items:\n          type: array\n          items:\n            $ref: '#/components/schemas/%s'\n", below(2))
	}
	for k := range props {
		fmt.Fprintf(b, "        field_%d:\n          type: string\n          nullable: true\n          description: Field %d of schema %d, as the upstream writes it.\n", k, k, i)
	}
}

// TestLargeOperation extracts the deepest operation of the generated
// large description and proves its schemas as for the hand-written ones.
func TestLargeOperation(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 10 MB description")
	}
	path, id := writeLargeDescription(t, t.TempDir())
	spec, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Load(spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	op := operation(t, d, Selector{OperationID: id})
	checkSchemas(t, op, false, nil)
	checkNotes(t, op.Notes, nil)
}
