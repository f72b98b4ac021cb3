package analysis

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// The disruption reasons budgets can name, in Karpenter's order.
var disruptionReasons = []karpv1.DisruptionReason{karpv1.DisruptionReasonEmpty, karpv1.DisruptionReasonUnderutilized, karpv1.DisruptionReasonDrifted}

// probeNodes is the pool size at which budgets are compared: large enough that any fixed
// number a team writes is below it, so that only "100%" (or no budget) reads as "all at once".
const probeNodes = 10000

// checkDisruption reports what the pool's disruption settings let Karpenter do to its nodes
// (KRP401-KRP407) and the fields the target Karpenter does not run (KRP408).
func checkDisruption(p *Pool, o Options, a *Analysis) {
	checkTarget(p, o, a)
	budgets := p.Spec.Disruption.Budgets
	if len(budgets) == 0 {
		budgets = []karpv1.Budget{{Nodes: "10%"}} // the CRD's default
	}
	acts := make([]activity, len(budgets))
	broken := false
	for i, b := range budgets {
		act, err := budgetActivity(b)
		acts[i] = act
		path := fmt.Sprintf("spec.disruption.budgets[%d].schedule", i)
		switch act {
		case activeBroken:
			broken = true
			a.add(findings.Finding{Code: findings.BudgetScheduleUnparseable, Path: path,
				Message: fmt.Sprintf("Karpenter cannot parse schedule %q (%v), so it allows 0 disruptions for every reason on this pool: no node is ever drifted or consolidated", *b.Schedule, err),
				Fix:     "write a standard five-field cron expression in UTC, without a TZ or CRON_TZ prefix"})
		case activeNever:
			a.add(findings.Finding{Code: findings.BudgetScheduleIneffective, Path: path,
				Message: fmt.Sprintf("the budget (nodes %q) is never active: schedule %q with duration %s never opens a window in Karpenter's evaluation, so the budget limits nothing", b.Nodes, *b.Schedule, ShortDuration(b.Duration.Duration)),
				Fix:     "use a duration above 0 and a schedule that hits, or remove the budget"})
		case activeAlways:
			if b.Schedule != nil && !scheduleHits(*b.Schedule) {
				a.add(findings.Finding{Code: findings.BudgetScheduleIneffective, Path: path,
					Message: fmt.Sprintf("schedule %q never hits, and Karpenter then treats the budget (nodes %q) as always active (the cron library's next hit is the zero time, which Budget.IsActive reads as past)", *b.Schedule, b.Nodes),
					Fix:     "use a date that exists, or remove the budget"})
			} else if b.Schedule != nil {
				a.add(findings.Finding{Code: findings.BudgetScheduleIneffective, Path: path,
					Message: fmt.Sprintf("the budget (nodes %q) is always active: duration %s covers the whole time between hits of schedule %q, so it is the same as a budget without a schedule", b.Nodes, ShortDuration(b.Duration.Duration), *b.Schedule),
					Fix:     "shorten the duration so that the window closes, or drop schedule and duration"})
			}
		}
		if b.Schedule != nil && act != activeBroken && looksLikeBusinessHours(*b.Schedule) {
			a.add(findings.Finding{Code: findings.BudgetScheduleUTC, Path: path,
				Message: fmt.Sprintf("schedule %q is evaluated in UTC (Karpenter supports no time zone): its hours are UTC hours, not local office hours", *b.Schedule),
				Fix:     "convert the hours to UTC (mind daylight saving time, which UTC does not follow)"})
		}
	}
	if broken {
		return // everything is blocked; the other verdicts would be about a pool Karpenter does not disrupt
	}
	// Per reason, the most Karpenter may ever disrupt at once when no scheduled budget is
	// active: the least over the always-active budgets that cover it (unlimited when none).
	capOf := map[karpv1.DisruptionReason]int{}
	zeroAt := map[karpv1.DisruptionReason]int{}
	for _, r := range disruptionReasons {
		capOf[r], zeroAt[r] = math.MaxInt32, -1
		for i, b := range budgets {
			if acts[i] != activeAlways || (b.Reasons != nil && !containsReason(b.Reasons, r)) {
				continue
			}
			if n := scaledNodes(b.Nodes); n < capOf[r] {
				capOf[r] = n
				if n == 0 {
					zeroAt[r] = i
				}
			}
		}
	}
	driftBlocked := capOf[karpv1.DisruptionReasonDrifted] == 0
	var blocked []string
	for _, r := range disruptionReasons {
		if capOf[r] == 0 {
			blocked = append(blocked, string(r))
		}
	}
	// Blocking drift alone while nodes still expire is a deliberate pattern (upgrades arrive
	// with expiry, e.g. for long training jobs); blocking every reason, or drift on nodes that
	// never expire, means the nodes never change.
	if driftBlocked && (len(blocked) == len(disruptionReasons) || p.Spec.Template.Spec.ExpireAfter.Duration == nil) {
		i := zeroAt[karpv1.DisruptionReasonDrifted]
		what := "drifted nodes are never replaced (a new node image, or a change of the pool's template or node class, never rolls out)"
		if len(blocked) == len(disruptionReasons) {
			what = "voluntary disruption is off for good: drift, image upgrades and consolidation never happen"
		}
		var expiry string
		if d := p.Spec.Template.Spec.ExpireAfter.Duration; d == nil {
			expiry = "and with expireAfter Never no node is ever replaced"
		} else {
			expiry = "only expiry (expireAfter " + ShortDuration(*d) + ") still replaces nodes"
		}
		a.add(findings.Finding{Code: findings.DisruptionBlocked, Path: fmt.Sprintf("spec.disruption.budgets[%d].nodes", i),
			Message: fmt.Sprintf("budget %d allows %q nodes at all times for %s: %s; %s", i, budgets[i].Nodes, strings.Join(blocked, ", "), what, expiry),
			Fix:     "to allow disruption in a maintenance window only, give the zero budget a schedule and a duration that leave the window open (e.g. schedule \"0 6 * * *\", duration 22h opens 04:00-06:00 UTC)"})
	}
	checkWholePool(p, budgets, capOf, a)
	checkLifecycle(p, driftBlocked, a)
}

// checkWholePool reports reasons for which the budgets let every node go at once on a pool that
// ordinary (untainted, on-demand) workloads use.
func checkWholePool(p *Pool, budgets []karpv1.Budget, capOf map[karpv1.DisruptionReason]int, a *Analysis) {
	if p.HasTaint() || !p.Requirements.Get(karpv1.CapacityTypeLabelKey).Has(karpv1.CapacityTypeOnDemand) {
		return
	}
	var reasons []string
	for _, r := range []karpv1.DisruptionReason{karpv1.DisruptionReasonDrifted, karpv1.DisruptionReasonUnderutilized} {
		if r == karpv1.DisruptionReasonUnderutilized && (p.Spec.Replicas != nil || p.Spec.Disruption.ConsolidationPolicy == karpv1.ConsolidationPolicyWhenEmpty) {
			continue // static pools do not consolidate, and WhenEmpty never disrupts for Underutilized
		}
		if capOf[r] >= probeNodes {
			reasons = append(reasons, string(r))
		}
	}
	if len(reasons) == 0 {
		return
	}
	scheduled := ""
	for _, b := range budgets {
		if b.Schedule != nil {
			scheduled = " outside the windows of the scheduled budgets"
			break
		}
	}
	a.add(findings.Finding{Code: findings.WholePoolDisruption, Path: "spec.disruption.budgets",
		Message: fmt.Sprintf("for %s no budget below 100%% is always active, so%s Karpenter may disrupt every node of this untainted on-demand pool at once: an image rollout replaces all its nodes in one go", strings.Join(reasons, " and "), scheduled),
		Fix:     "add a budget that bounds those reasons, e.g. nodes \"10%\" (the CRD's default) or a fixed number"})
}

// checkLifecycle reports node-level do-not-disrupt and pools whose nodes are never right-sized.
func checkLifecycle(p *Pool, driftBlocked bool, a *Analysis) {
	never := p.Spec.Template.Spec.ExpireAfter.Duration == nil
	if p.Spec.Template.Annotations[karpv1.DoNotDisruptAnnotationKey] == "true" {
		then := ""
		if never {
			then = "and with expireAfter Never they are never replaced at all"
		} else {
			then = fmt.Sprintf("only expiry (expireAfter %s) replaces them", ShortDuration(*p.Spec.Template.Spec.ExpireAfter.Duration))
		}
		a.add(findings.Finding{Code: findings.NodeDoNotDisrupt, Path: "spec.template.metadata.annotations",
			Message: "every node of the pool carries karpenter.sh/do-not-disrupt=true, which Karpenter never picks for drift or consolidation, with or without terminationGracePeriod; " + then,
			Fix:     "annotate the pods that must not be interrupted instead of the nodes, and set terminationGracePeriod to bound how long they can hold a node"})
	}
	if p.Spec.Disruption.ConsolidationPolicy == karpv1.ConsolidationPolicyWhenEmpty && never && p.Spec.Replicas == nil {
		f := findings.Finding{Code: findings.NeverRightSized, Path: "spec.disruption.consolidationPolicy",
			Message: "with consolidationPolicy WhenEmpty and expireAfter Never a node is removed only once it runs no pods and is never replaced by a smaller or cheaper one; only drift replaces it",
			Fix:     "use WhenEmptyOrUnderutilized or Balanced, or a finite expireAfter, unless stability matters more than cost"}
		if driftBlocked {
			f = f.As(findings.Warning)
			f.Message = "with consolidationPolicy WhenEmpty, expireAfter Never and drift blocked by the budgets, a node that runs a pod is never replaced: not right-sized, not upgraded, not expired"
		}
		a.add(f)
	}
}

// ShortDuration writes a duration as people write it in a NodePool ("720h", not "720h0m0s").
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func containsReason(rs []karpv1.DisruptionReason, r karpv1.DisruptionReason) bool {
	for _, v := range rs {
		if v == r {
			return true
		}
	}
	return false
}

// scaledNodes is a budget's node count for a pool of probeNodes nodes, as Karpenter scales it
// (percentages round up); a malformed value counts as 0, as Karpenter fails closed on it.
func scaledNodes(nodes string) int {
	v := karpv1.GetIntStrFromValue(nodes)
	n, err := intstr.GetScaledValueFromIntOrPercent(&v, probeNodes, true)
	if err != nil {
		return 0
	}
	return n
}

// businessDays matches a day-of-week field that is Monday to Friday.
var businessDays = regexp.MustCompile(`(?i)^(1-5|mon-fri|1,2,3,4,5|mon,tue,wed,thu,fri)$`)

// looksLikeBusinessHours reports a weekday schedule whose hour is an office hour (07-19), the
// shape of a window written in local time.
func looksLikeBusinessHours(schedule string) bool {
	f := strings.Fields(schedule)
	if len(f) != 5 || !businessDays.MatchString(f[4]) {
		return false
	}
	for _, part := range strings.FieldsFunc(f[1], func(r rune) bool { return r == ',' || r == '-' }) {
		h, err := strconv.Atoi(part)
		if err != nil || h < 7 || h > 19 {
			return false
		}
	}
	return true
}
