package reports

import (
	"path"
	"strings"
)

// ScenarioID returns the ID of the scenario name of the feature file at
// featurePath: the file's name without its folders, ": ", and the
// scenario's name ("transport.feature: a 403 is not retried"). The folders
// are left out because they depend on how the features were given (built
// in, a folder, one file), and a baseline must not.
func ScenarioID(featurePath, name string) string {
	return path.Base(featurePath) + ": " + name
}

// canonicalScenarioID returns id as ScenarioID writes it: an ID written
// with the feature file's folders ("features/transport.feature: ...", as
// toolcert wrote them before) loses them.
func canonicalScenarioID(id string) string {
	const ext = ".feature: "
	i := strings.Index(id, ext)
	if i < 0 {
		return id
	}
	return ScenarioID(id[:i+len(ext)-2], id[i+len(ext):])
}
