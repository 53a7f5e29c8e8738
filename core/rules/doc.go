// Package rules names the rules of the WDDM and Direct3D 11 driver
// documentation that d3dsim's layers obey and core/verify checks: one typed
// identifier per rule, its source and its text, declared once. A layer that
// breaks a rule on purpose (option bug=RULE-ID, so the verifier can be seen
// to catch it) asks a Set, never a string.
package rules
