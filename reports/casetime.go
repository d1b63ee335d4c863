package reports

// CaseTime splits the time a run's generated cases spent, as lane time
// summed over the lanes (a run on four lanes spends up to four seconds of
// it per second): what the adapter's own calls took apart from the
// harness's work around them (docs/performance.md). A case's time not in
// any of the four is its bookkeeping: its record, and starting a dead
// target again.
type CaseTime struct {
	// Generate is generating the variants, once per tool's scenario.
	Generate Duration `json:"generate"`
	// Baselines is serving each accepted example as it is and keeping
	// what the agent saw, and waiting for another lane doing so.
	Baselines Duration `json:"baselines"`
	// Calls is rendering each case's answer, programming the mock with it
	// and the agent call through the target, until its answer is read.
	Calls Duration `json:"calls"`
	// Checks is judging what the call left: the leak scan, the attempt
	// budget, the outcome, the contract, the audit event, the journal and
	// the comparison with the baseline.
	Checks Duration `json:"checks"`
}

// add adds o's times to c's.
func (c *CaseTime) add(o CaseTime) {
	c.Generate += o.Generate
	c.Baselines += o.Baselines
	c.Calls += o.Calls
	c.Checks += o.Checks
}
