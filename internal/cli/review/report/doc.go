// Package report is the last stage of the review pipeline (config -> source -> assemble ->
// checks -> report): the Report a review returns (report.go, cost_types.go) and its renderings
// as text (report_text.go, report_fleet_text.go, cost_text.go), JSON (report_json.go,
// report_json_prices.go) and SARIF (report_sarif.go), with the escaping that keeps untrusted
// input from forging output (report_escape.go). It reads the checks' pool summaries, never
// runs a check.
package report
