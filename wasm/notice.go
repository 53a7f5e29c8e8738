package main

// limitNotice is the page's notice when a run stopped at one of its limits
// (scenario.Summary.Limit): it names the limit.
func limitNotice(limit string) string {
	return "The run stopped at a limit: line " + limit + ". Restart runs it again; the scenario's options raise most limits within their ranges."
}

// crashNotice is the page's notice when the module failed inside: the page
// keeps working, and Restart starts the scenario again.
func crashNotice(msg string) string {
	return msg + ". The simulator stopped this run: press Restart to run the scenario again."
}
