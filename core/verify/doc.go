// Package verify checks the event stream against the numbered rules of
// docs/rules.md. Each rule is a small state machine fed every event in seq order;
// a violation names the rule, the seed it comes from, the offending event and
// the scenario line, and is itself recorded in the trace (kind violation).
//
// Severity: a check the source gives only as an example (AM-BALANCE's 1 ms
// of "Changes from Direct3D 10") is a Warning, worded as the source words
// it, recorded as a message event named Warning and kept apart (Warnings):
// it is not counted by Count and fails nothing.
//
// Every rule has a switch in the simulated runtime, UMD or KMD (option
// bug=RULE-ID) that breaks it on purpose, so each rule is tested both ways:
// caught with the switch on, silent with it off.
package verify
