package openapi

import (
	"maps"
	"slices"
	"testing"
)

// TestOperations lists every operation of a 3.0 and a Swagger 2.0
// description, in document order.
func TestOperations(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []Selector
	}{
		{"petstore-3.0.yaml", []Selector{
			{"GET", "/pets", "listPets"}, {"POST", "/pets", "createPets"}, {"GET", "/pets/count", "countPets"},
			{"GET", "/pets/{petId}", "showPetById"}, {"GET", "/pets/{petId}/owner", "showOwner"},
		}},
		{"petstore-2.0.yaml", []Selector{
			{"GET", "/pets", "listPets"}, {"GET", "/pets/count", "countPets"}, {"GET", "/pets/{petId}", "showPetById"},
		}},
	} {
		got := loadFile(t, tc.file, Options{}).Operations()
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: Operations() = %v, want %v", tc.file, got, tc.want)
		}
	}
}

// TestMatch matches requests to the pet store's operations: a literal
// segment beats a {param} one, the base path (servers[0].url in 3.0,
// basePath in 2.0) is stripped when present and the path is tried as it
// is too, and the method is compared in any case.
func TestMatch(t *testing.T) {
	for _, file := range []string{"petstore-3.0.yaml", "petstore-2.0.yaml"} {
		d := loadFile(t, file, Options{})
		for _, tc := range []struct {
			method, path string
			want         string // the path template matched, "" none
			values       map[string]string
		}{
			{"GET", "/v1/pets/count", "/pets/count", map[string]string{}},
			{"GET", "/v1/pets/42", "/pets/{petId}", map[string]string{"petId": "42"}},
			{"get", "/v1/pets/42", "/pets/{petId}", map[string]string{"petId": "42"}},
			{"GET", "/pets/42", "/pets/{petId}", map[string]string{"petId": "42"}},
			{"GET", "/v1/pets", "/pets", map[string]string{}},
			{"GET", "/v1/pets/a b", "/pets/{petId}", map[string]string{"petId": "a b"}},
			{"DELETE", "/v1/pets/42", "", nil},
			{"GET", "/v1/pets/", "", nil},
			{"GET", "/v1", "", nil},
			{"GET", "/v2/pets", "", nil},
			{"GET", "/v1/pets/1/2/3", "", nil},
		} {
			sel, values, ok := d.Match(tc.method, tc.path)
			if ok != (tc.want != "") || sel.Path != tc.want || !maps.Equal(values, tc.values) {
				t.Errorf("%s: Match(%s, %s) = %v %v %v, want %q %v", file, tc.method, tc.path, sel, values, ok, tc.want, tc.values)
			}
			if ok && (sel.Method != "GET" || sel.OperationID == "") {
				t.Errorf("%s: Match(%s, %s) = %+v: want the method in upper case and the operationId", file, tc.method, tc.path, sel)
			}
		}
	}
	d := loadFile(t, "petstore-3.0.yaml", Options{})
	if sel, values, ok := d.Match("GET", "/v1/pets/7/owner"); !ok || sel.OperationID != "showOwner" || values["petId"] != "7" {
		t.Errorf("Match(GET /v1/pets/7/owner) = %v %v %v", sel, values, ok)
	}
}

// matchSpec has templates that overlap, and a server URL with variables.
const matchSpec = `openapi: 3.1.0
info: {title: t, version: "1"}
servers:
  - url: https://{host}/api/{version}
    variables:
      host: {default: api.example.test}
      version: {default: v2}
  - url: /other
paths:
  /a/{x}/c: {get: {operationId: x-c, responses: {'204': {description: none}}}}
  /a/b/{y}: {get: {operationId: b-y, responses: {'204': {description: none}}}}
  /files/{name}: {get: {operationId: file, responses: {'204': {description: none}}}}
  /files/{name}.json: {get: {operationId: json, responses: {'204': {description: none}}}}
  /files/latest.json: {get: {operationId: latest, responses: {'204': {description: none}}}}
  /files/{dir}.{ext}/{name}: {get: {operationId: dir-ext, responses: {'204': {description: none}}}}
`

// TestMatchOrder matches against overlapping templates: at the first
// segment where they differ, a literal one beats one with text and a
// parameter, which beats a parameter alone; the server URL's base path
// is read with its variables at their defaults.
func TestMatchOrder(t *testing.T) {
	d, err := Load([]byte(matchSpec), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
		values     map[string]string
	}{
		{"/api/v2/a/b/c", "b-y", map[string]string{"y": "c"}},
		{"/a/z/c", "x-c", map[string]string{"x": "z"}},
		{"/api/v2/files/latest.json", "latest", map[string]string{}},
		{"/api/v2/files/notes.json", "json", map[string]string{"name": "notes"}},
		{"/api/v2/files/notes", "file", map[string]string{"name": "notes"}},
		{"/api/v2/files/a.b.json", "json", map[string]string{"name": "a.b"}},
		{"/api/v2/files/src.tar/x", "dir-ext", map[string]string{"dir": "src", "ext": "tar", "name": "x"}},
		{"/other/files/x", "", nil},
	} {
		sel, values, ok := d.Match("GET", tc.path)
		if ok != (tc.want != "") || sel.OperationID != tc.want || !maps.Equal(values, tc.values) {
			t.Errorf("Match(GET %s) = %v %v %v, want %q %v", tc.path, sel, values, ok, tc.want, tc.values)
		}
	}
}
