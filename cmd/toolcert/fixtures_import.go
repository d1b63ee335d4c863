package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolcert/toolcert/internal/authoring/openapi"
	"github.com/toolcert/toolcert/internal/authoring/scaffold"
)

const importSynopsis = `Usage: toolcert fixtures import --openapi SPEC (--operation "METHOD /path" | --operation-id ID)
         --tool NAME --keep POINTERS [flags]

Writes the tool's corpus folder (docs/fixtures.md) from one operation of an
OpenAPI description (Swagger 2.0, OpenAPI 3.0 or 3.1; YAML or JSON):
  - the route, and the argument schema from the path and query parameters
    (each a string: an integer parameter is a string of digits);
  - the vendor schema of the success (200, or --status) as Draft 2020-12,
    every $ref resolved into the file, closed (unevaluatedProperties: false)
    unless --open; nullable, oneOf/anyOf/allOf, discriminators and formats
    carried over;
  - the description's examples the schema accepts as accepted examples, or
    one minimal example made from the schema; free text the agent does not
    keep becomes a canary;
  - the agent contract, closed to what --keep names: JSON pointers into the
    answer (/title, /user/login; /*/id the id of every element of a list;
    # the whole answer, a scalar or an object kept whole, as one field named
    by --data-name);
  - each declared error answer (404, 422...) as a reject served with its
    status, its text a canary;
  - NOTES.md: what could not be carried over, with its JSON pointer.
What the description cannot say (which member binds to which argument,
which timestamp must be fresh, a review of the projection) is left in
tool.json's "decide": toolcert run refuses the corpus until each is made.

The operation is "METHOD /path" exactly as the description writes the path.
Relative file $refs are read from the description's folder; a remote $ref is
refused, never fetched.

Exit codes: 0 written; 1 the folder written has lint problems; 2 usage error,
an unreadable description, no such operation, or the folder exists (--force).`

// fixturesImport writes a tool's corpus folder from an OpenAPI operation.
func fixturesImport(args []string, stdout, stderr io.Writer) error {
	var spec, operation, operationID, tool, out, keep, status, argsJSON, dataName, version string
	var open, force bool
	fs := newFlags("fixtures import", importSynopsis, stderr)
	fs.StringVar(&spec, "openapi", "", "the OpenAPI description `FILE` (YAML or JSON)")
	fs.StringVar(&operation, "operation", "", "the operation, `\"METHOD /path\"` as the description writes it")
	fs.StringVar(&operationID, "operation-id", "", "the operation by its operationId `ID` (instead of --operation)")
	fs.StringVar(&tool, "tool", "", "the tool's `NAME`: its folder under --out")
	fs.StringVar(&out, "out", "fixtures", "corpus `DIR` to write the tool's folder into")
	fs.StringVar(&keep, "keep", "", "comma-separated JSON `POINTERS` of what the agent keeps of a success (/title,/user/login;\n/*/id keeps id of every element of a list, narrowing its elements to what is kept;\n# keeps the whole answer, a scalar or an object, as one field named by --data-name)")
	fs.StringVar(&status, "status", "", "the success `STATUS` to import (default 200, or the first 2xx with a JSON body)")
	fs.StringVar(&argsJSON, "args", "", "a JSON `OBJECT` of argument values for the examples, e.g. '{\"owner\": \"octo-org\"}'\n(default: the description's parameter examples, else made up, and left to decide)")
	fs.StringVar(&dataName, "data-name", "", "the agent's field `NAME` for the whole answer (--keep '#') or a list kept element by element\n(default: the route's last word)")
	fs.StringVar(&version, "version", "v1", "the upstream version's `NAME` in the corpus")
	fs.BoolVar(&open, "open", false, "leave the vendor schema's objects as open as the description has them (the contract stays closed)")
	fs.BoolVar(&force, "force", false, "replace the tool's folder if it exists")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	sel, err := selector(spec, operation, operationID, tool)
	if err != nil {
		return err
	}
	given, err := argumentValues(argsJSON)
	if err != nil {
		return err
	}
	keeps, err := keepList(keep)
	if err != nil {
		return err
	}
	op, source, err := readOperation(spec, sel, open)
	if err != nil {
		return err
	}
	t, err := op.Tool(openapi.ToolOptions{Name: tool, Keep: keeps, Status: status, DataName: dataName, Version: version, Source: source})
	if err != nil {
		return configErr(err)
	}
	return writeTool(stdout, out, t, scaffold.Options{Arguments: given, Force: force})
}

// selector checks the flags that choose the operation.
func selector(spec, operation, operationID, tool string) (openapi.Selector, error) {
	switch {
	case spec == "":
		return openapi.Selector{}, usageErr("fixtures import: --openapi is required")
	case tool == "":
		return openapi.Selector{}, usageErr("fixtures import: --tool is required")
	case (operation == "") == (operationID == ""):
		return openapi.Selector{}, usageErr("fixtures import: give one of --operation \"METHOD /path\" and --operation-id ID")
	case operationID != "":
		return openapi.Selector{OperationID: operationID}, nil
	}
	method, path, ok := strings.Cut(strings.TrimSpace(operation), " ")
	if !ok || !strings.HasPrefix(strings.TrimSpace(path), "/") {
		return openapi.Selector{}, usageErr("--operation %q: want \"METHOD /path\", such as \"GET /repos/{owner}/{repo}\"", operation)
	}
	return openapi.Selector{Method: strings.ToUpper(method), Path: strings.TrimSpace(path)}, nil
}

// keepList reads --keep: an empty pointer in the list is refused, since
// the whole answer is spelt openapi.WholeAnswer ("#").
func keepList(s string) ([]string, error) {
	list := splitList(s)
	for _, k := range list {
		if k == "" {
			return nil, usageErr("--keep %q: an empty pointer; the whole answer is %s", s, openapi.WholeAnswer)
		}
	}
	return list, nil
}

// argumentValues reads --args: a JSON object of strings (numbers are
// taken as their text).
func argumentValues(s string) (map[string]string, error) {
	if s == "" {
		return nil, nil
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		return nil, usageErr("--args: not a JSON object: %v", err)
	}
	out := map[string]string{}
	for k, v := range raw {
		switch v := v.(type) {
		case string:
			out[k] = v
		case float64, bool:
			out[k] = fmt.Sprint(v)
		default:
			return nil, usageErr("--args: %q is not a string, number or boolean", k)
		}
	}
	return out, nil
}

// maxDescription bounds the size of a description read whole.
const maxDescription = 256 << 20

// readDescription reads a regular file of at most maxDescription bytes.
func readDescription(path string) ([]byte, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	case st.Size() > maxDescription:
		return nil, fmt.Errorf("%s is %d bytes, more than the %d MiB a description may be", path, st.Size(), maxDescription>>20)
	}
	return os.ReadFile(path)
}

// readOperation loads the description and finds the operation; source
// names both for NOTES.md.
func readOperation(spec string, sel openapi.Selector, open bool) (*openapi.Operation, string, error) {
	b, err := readDescription(spec)
	if err != nil {
		return nil, "", configErr(fmt.Errorf("--openapi: %w", err))
	}
	d, err := openapi.Load(b, openapi.Options{BaseDir: filepath.Dir(spec), Open: open})
	if err != nil {
		return nil, "", configErr(fmt.Errorf("%s: %w", spec, err))
	}
	op, err := d.Operation(sel)
	if err != nil {
		return nil, "", configErr(fmt.Errorf("%s: %w", spec, err))
	}
	source := fmt.Sprintf("%s (OpenAPI %s, sha256 %x), operation %s %s", filepath.Base(spec), d.Version(), sha256.Sum256(b), op.Method, op.Path)
	if op.OperationID != "" {
		source += " (operationId " + op.OperationID + ")"
	}
	source += fmt.Sprintf(", imported by toolcert %s fixtures import on %s", version, time.Now().UTC().Format("2006-01-02"))
	return op, source, nil
}
