package scaffold

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/toolcert/toolcert/corpus"
)

// errors writes tool.json's "errors": every declared error answer of a
// status from 300 to 599 (or a range, or the default), in the upstream's
// own shape, with corpus.ErrorText in each member that carries its text.
// The generator serves each status variant in that shape, which is how a
// server that copies the upstream's text into what the agent sees is
// caught. The cases have no status reject: the generator's upstream_status
// serves every status tool.json names.
func (f *folder) errors(Options) error {
	for _, e := range f.t.Errors {
		status := strings.ToUpper(e.Range)
		if status == "" {
			if e.Status < 300 || e.Status > 599 {
				continue
			}
			status = strconv.Itoa(e.Status)
		}
		var body any = newObject("message", statusText(e.Status))
		if e.Body != nil {
			v, err := parse(e.Body)
			if err != nil {
				return fmt.Errorf("error answer %s: %w", status, err)
			}
			body = v
		}
		why := fmt.Sprintf("the %s answer the upstream declares", strings.ToLower(status))
		if e.Name != "" {
			why += " (" + e.Name + ")"
		}
		if e.Schema != nil && e.Range == "" {
			file := "upstream/" + f.version + "." + status + ".schema.json"
			f.files[file] = append([]byte(strings.TrimSpace(string(e.Schema))), '\n')
			why += "; its schema is " + file
		}
		marked, where := markText(body)
		why += "; its text, in " + where + ", is where the generator writes advice and a canary"
		f.errorAnswers = append(f.errorAnswers, newObject("status", status, "body", rawJSON(encodeBody(marked)), "why", why))
	}
	f.cases.set("rejects", []any{})
	return nil
}

// statusText is the reason phrase of status, or "Error".
func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Error"
}

// textNames are the names of members that carry an error's text in the
// error shapes of common APIs.
var textNames = map[string]bool{
	"message": true, "msg": true, "detail": true, "error": true, "error_description": true,
	"description": true, "title": true, "errorMessages": true, "hint": true,
}

// prose matches a string with a word, a space and a word: text written
// for a person, not a code, a number or a name.
var prose = regexp.MustCompile(`\pL\pL*[ \t]+\S`)

// markText returns error answer v with corpus.ErrorText in place of every
// string that carries text (a member of textNames, or prose that is not a
// URL), and says where; when none does, in its first string; when it has
// no string, in a "message" member added to it (an object) or as a new
// object.
func markText(v any) (any, string) {
	var at []string
	var walk func(v any, name, ptr string) any
	walk = func(v any, name, ptr string) any {
		switch t := v.(type) {
		case string:
			if textNames[name] || prose.MatchString(t) && !strings.Contains(t, "://") {
				at = append(at, ptr)
				return placeholder(corpus.ErrorText)
			}
		case *object:
			for _, k := range t.keys {
				t.vals[k] = walk(t.vals[k], k, ptr+"/"+escapeToken(k))
			}
		case []any:
			for i := range t {
				t[i] = walk(t[i], name, ptr+"/"+strconv.Itoa(i))
			}
		}
		return v
	}
	v = walk(clone(v), "", "")
	if len(at) > 0 {
		return v, strings.Join(at, ", ")
	}
	first := ""
	var firstString func(v any, ptr string) any
	firstString = func(v any, ptr string) any {
		if first != "" {
			return v
		}
		switch t := v.(type) {
		case string:
			first = ptr
			return placeholder(corpus.ErrorText)
		case *object:
			for _, k := range t.keys {
				t.vals[k] = firstString(t.vals[k], ptr+"/"+escapeToken(k))
			}
		case []any:
			for i := range t {
				t[i] = firstString(t[i], ptr+"/"+strconv.Itoa(i))
			}
		}
		return v
	}
	if v = firstString(v, ""); first != "" {
		return v, first + " (its first string: no member is named for text)"
	}
	if o, ok := v.(*object); ok {
		o.set("message", placeholder(corpus.ErrorText))
		return o, "/message (added: the answer has no string)"
	}
	return newObject("message", placeholder(corpus.ErrorText)), "/message (the answer has no string)"
}
