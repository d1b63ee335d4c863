package openapi

import (
	"encoding/json"
	"strings"
	"testing"
)

// answerOf returns the answer of the operation sel of description file,
// given values, failing the test on error; the body is checked against
// the success's schema.
func answerOf(t *testing.T, file string, sel Selector, values map[string]string) (Answer, any) {
	t.Helper()
	op := operation(t, loadFile(t, file, Options{BaseDir: "testdata"}), sel)
	a, err := op.AnswerWith(values)
	if err != nil {
		t.Fatalf("%s %v: AnswerWith(%v): %v", file, sel, values, err)
	}
	r, err := op.success("")
	if err != nil {
		t.Fatal(err)
	}
	if err := validates(t, mustCompile(t, "success", r.Schema), a.Body); err != nil {
		t.Fatalf("%s %v: the schema refuses the answer: %v\n%s", file, sel, err, a.Body)
	}
	var v any
	if err := json.Unmarshal(a.Body, &v); err != nil {
		t.Fatal(err)
	}
	return a, v
}

// TestAnswerMade answers the pet store's GET /pets/{petId}, which has no
// example, in 3.0 and Swagger 2.0: a body made with every member, the
// optional tag too, each string distinct; with petId given, the pet's id
// is it, as a number.
func TestAnswerMade(t *testing.T) {
	for _, file := range []string{"petstore-3.0.yaml", "petstore-2.0.yaml"} {
		sel := Selector{Method: "GET", Path: "/pets/{petId}"}
		a, v := answerOf(t, file, sel, nil)
		if a.Status != 200 || a.ContentType != "application/json" || !a.Made {
			t.Errorf("%s: answer %d %q made %v: want 200 application/json, made", file, a.Status, a.ContentType, a.Made)
		}
		pet, _ := v.(map[string]any)
		for _, name := range []string{"id", "name", "tag"} {
			if _, ok := pet[name]; !ok {
				t.Errorf("%s: the answer lacks %s: %s", file, name, a.Body)
			}
		}
		checkDistinct(t, a.Body)
		_, v = answerOf(t, file, sel, map[string]string{"petId": "42"})
		if id := v.(map[string]any)["id"]; id != 42.0 {
			t.Errorf("%s: with petId 42, id is %v: want the number 42", file, id)
		}
		_, v = answerOf(t, file, sel, map[string]string{"petId": "abc"})
		if id, ok := v.(map[string]any)["id"].(float64); !ok {
			t.Errorf("%s: with petId abc, id is %v: want a number the schema allows", file, id)
		}
	}
}

// TestAnswerEveryMember answers the owner of a pet: every declared
// member (an optional list with one element, a member of one character
// at most, an optional member that refers back to the owner, cut before
// it recurses again), each string distinct.
func TestAnswerEveryMember(t *testing.T) {
	a, v := answerOf(t, "petstore-3.0.yaml", Selector{Method: "GET", Path: "/pets/{petId}/owner"}, map[string]string{"petId": "7"})
	owner := v.(map[string]any)
	for _, name := range []string{"name", "email", "nickname", "pets", "referrer"} {
		if _, ok := owner[name]; !ok {
			t.Errorf("the answer lacks %s: %s", name, a.Body)
		}
	}
	if pets, _ := owner["pets"].([]any); len(pets) != 1 || pets[0].(map[string]any)["id"] != 7.0 {
		t.Errorf("pets %v: want one pet, whose id (a pet's, in a list named pets) is the petId given", owner["pets"])
	}
	if depth := strings.Count(string(a.Body), `"referrer"`); depth > 2 {
		t.Errorf("the referrer recurses %d times: want it cut", depth)
	}
	checkDistinct(t, a.Body)
}

// TestAnswerShapes answers a scalar, an operation whose success has no
// body, a list, an example the schema accepts (given values filled in
// where the member is the route's object's), one it refuses, and a large
// GitHub answer made whole.
func TestAnswerShapes(t *testing.T) {
	a, v := answerOf(t, "petstore-3.0.yaml", Selector{Method: "GET", Path: "/pets/count"}, nil)
	if v != 0.0 || !a.Made {
		t.Errorf("count: %s made %v", a.Body, a.Made)
	}
	op := operation(t, loadFile(t, "petstore-3.0.yaml", Options{}), Selector{Method: "POST", Path: "/pets"})
	if a, err := op.Answer(); err != nil || a.Status != 201 || a.Body != nil || a.ContentType != "" {
		t.Errorf("POST /pets: %+v, %v: want 201 without a body", a, err)
	}
	_, v = answerOf(t, "petstore-2.0.yaml", Selector{Method: "GET", Path: "/pets"}, nil)
	if list, _ := v.([]any); len(list) != 1 {
		t.Errorf("GET /pets: %v: want one pet", v)
	}
	const tree = "3f1c2a9e-8d2b-4e6f-9a1b-2c3d4e5f6a7b"
	a, v = answerOf(t, "shapes.yaml", Selector{OperationID: "trees/get"}, map[string]string{"tree_id": tree})
	root := v.(map[string]any)
	child := root["children"].([]any)[0].(map[string]any)
	if a.Made || root["id"] != tree || child["id"] != "leaf" {
		t.Errorf("trees/get: %s made %v: want the description's example, the tree's id the one given, its child's as it was", a.Body, a.Made)
	}
	op = operation(t, loadFile(t, "github-3.0.yaml", Options{}), Selector{OperationID: "pulls/get"})
	if _, err := op.Answer(); err == nil || !strings.Contains(err.Error(), "no 2xx answer") {
		t.Errorf("pulls/get (a 304 only): %v: want no answer", err)
	}
	for _, file := range []string{"github-3.0.yaml", "github-2.0.json"} {
		a, _ = answerOf(t, file, Selector{OperationID: "pulls/list-reviews"}, map[string]string{"pull_number": "1347"})
		if a.Made {
			t.Errorf("%s pulls/list-reviews: made, want the description's example", file)
		}
	}
	a, v = answerOf(t, "github-3.0.yaml", Selector{OperationID: "pulls/create-review"}, nil)
	user, _ := v.(map[string]any)["user"].(map[string]any)
	if !a.Made || user["login"] == nil || user["site_admin"] == nil {
		t.Errorf("pulls/create-review: %s: want a body made with every member", a.Body)
	}
	checkDistinct(t, a.Body)
}

// TestAnswerRefusedExample answers an operation whose only example its
// schema refuses: the body is made, the given number in it.
func TestAnswerRefusedExample(t *testing.T) {
	d, err := Load([]byte(`openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /issues/{issue_number}:
    get:
      responses:
        '200':
          description: ok
          content:
            application/problem+json:
              schema:
                type: object
                properties:
                  number: {type: integer, minimum: 1}
                  title: {type: string, minLength: 12}
                  state: {type: string, enum: [open, closed]}
                  labels: {type: array, maxItems: 0, items: {type: string}}
                required: [number]
              example: {number: "not a number"}
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	op := operation(t, d, Selector{Method: "GET", Path: "/issues/{issue_number}"})
	a, err := op.AnswerWith(map[string]string{"issue_number": "7"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"number": 7, "title": "title-1_____", "state": "open", "labels": []}`
	if !a.Made || a.ContentType != "application/problem+json" || compact(t, a.Body) != compact(t, []byte(want)) {
		t.Errorf("answer %s (made %v, %s), want %s", a.Body, a.Made, a.ContentType, want)
	}
}

// compact returns JSON b without white space.
func compact(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// checkDistinct fails the test when two strings of body are equal.
func checkDistinct(t *testing.T, body []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			if seen[x] {
				t.Errorf("the string %q is made twice: %s", x, body)
			}
			seen[x] = true
		case map[string]any:
			for _, m := range x {
				walk(m)
			}
		case []any:
			for _, item := range x {
				walk(item)
			}
		}
	}
	walk(v)
}
