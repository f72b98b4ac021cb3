package analysis

import (
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

func budget(nodes, schedule, duration string, reasons ...karpv1.DisruptionReason) karpv1.Budget {
	b := karpv1.Budget{Nodes: nodes, Reasons: reasons}
	if schedule != "" {
		b.Schedule = &schedule
		d, err := time.ParseDuration(duration)
		if err != nil {
			panic(err)
		}
		b.Duration = &metav1.Duration{Duration: d}
	}
	return b
}

// disruptionPool is a pool as the API server defaults it (budget 10%, expireAfter 720h,
// WhenEmptyOrUnderutilized), changed by edit.
func disruptionPool(edit func(np *karpv1.NodePool)) *Pool {
	p := pool(someLimits)
	np := p.NodePool
	np.Spec.Disruption.ConsolidationPolicy = karpv1.ConsolidationPolicyWhenEmptyOrUnderutilized
	np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "10%"}}
	np.Spec.Template.Spec.ExpireAfter = karpv1.MustParseNillableDuration("720h")
	if edit != nil {
		edit(np)
	}
	return NewPool(np)
}

func disruptionFindings(p *Pool, o Options) []findings.Finding {
	a := &Analysis{}
	checkDisruption(p, o, a)
	return a.Findings
}

func disruptionCodes(fs []findings.Finding) []findings.Code {
	var out []findings.Code
	for _, f := range fs {
		out = append(out, f.Code)
	}
	slices.Sort(out)
	return out
}

func TestDisruptionChecks(t *testing.T) {
	never := karpv1.MustParseNillableDuration("Never")
	tests := []struct {
		name string
		edit func(np *karpv1.NodePool)
		o    Options
		want []findings.Code
		path string // of the first finding, when set
		msg  string // part of the first finding's message
	}{
		{name: "defaults are clean"},
		{name: "empty budgets read as the CRD default", edit: func(np *karpv1.NodePool) { np.Spec.Disruption.Budgets = nil }},
		{name: "zero budget without schedule", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("0", "", "")}
		}, want: []findings.Code{findings.DisruptionBlocked}, path: "spec.disruption.budgets[0].nodes", msg: "voluntary disruption is off for good: drift, image upgrades and consolidation never happen; only expiry (expireAfter 720h)"},
		{name: "zero budget and no expiry", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("0", "", "")}
			np.Spec.Template.Spec.ExpireAfter = never
		}, want: []findings.Code{findings.DisruptionBlocked}, msg: "no node is ever replaced"},
		{name: "zero percent without schedule", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0%", "", "")}
		}, want: []findings.Code{findings.DisruptionBlocked}, path: "spec.disruption.budgets[1].nodes"},
		{name: "zero for drift only, nodes still expire", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0", "", "", karpv1.DisruptionReasonDrifted)}
		}},
		{name: "zero for drift only, nodes never expire", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0", "", "", karpv1.DisruptionReasonDrifted)}
			np.Spec.Template.Spec.ExpireAfter = never
		}, want: []findings.Code{findings.DisruptionBlocked}, msg: "drifted nodes are never replaced"},
		{name: "zero for consolidation only is a choice", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0", "", "", karpv1.DisruptionReasonUnderutilized, karpv1.DisruptionReasonEmpty)}
		}},
		{name: "maintenance window stays clean", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0", "0 6 * * *", "22h")}
		}},
		{name: "zero budget whose window never closes", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("0", "@daily", "24h")}
		}, want: []findings.Code{findings.DisruptionBlocked, findings.BudgetScheduleIneffective}},
		{name: "a date that never comes is always active to Karpenter", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0", "0 0 30 2 *", "1h")}
		}, want: []findings.Code{findings.DisruptionBlocked, findings.BudgetScheduleIneffective}},
		{name: "zero duration never opens", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0", "0 1 * * *", "0s")}
		}, want: []findings.Code{findings.BudgetScheduleIneffective}, msg: "never active"},
		{name: "time zone prefix fails closed", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0", "CRON_TZ=Europe/Berlin 0 9 * * 1-5", "8h", karpv1.DisruptionReasonEmpty)}
		}, want: []findings.Code{findings.BudgetScheduleUnparseable}, path: "spec.disruption.budgets[1].schedule"},
		{name: "office hours in UTC", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0", "0 9 * * mon-fri", "8h")}
		}, want: []findings.Code{findings.BudgetScheduleUTC}},
		{name: "night window is not office hours", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("10%", "", ""), budget("0", "0 2 * * 1-5", "4h")}
		}},
		{name: "100% for drift on an on-demand untainted pool", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("100%", "", "")}
		}, want: []findings.Code{findings.WholePoolDisruption}, msg: "Drifted and Underutilized"},
		{name: "budgets that do not cover drift are unlimited", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("1", "", "", karpv1.DisruptionReasonEmpty, karpv1.DisruptionReasonUnderutilized)}
		}, want: []findings.Code{findings.WholePoolDisruption}, msg: "for Drifted no budget"},
		{name: "100% on a tainted pool is its own business", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("100%", "", "")}
			np.Spec.Template.Spec.Taints = []corev1.Taint{{Key: "batch", Effect: corev1.TaintEffectNoSchedule}}
		}},
		{name: "100% on a spot-only pool", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{budget("100%", "", "")}
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "spot"))
		}},
		{name: "node-level do-not-disrupt", edit: func(np *karpv1.NodePool) {
			np.Spec.Template.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "true"}
		}, want: []findings.Code{findings.NodeDoNotDisrupt}, path: "spec.template.metadata.annotations", msg: "only expiry (expireAfter 720h)"},
		{name: "node-level do-not-disrupt, never expiring", edit: func(np *karpv1.NodePool) {
			np.Spec.Template.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "true"}
			np.Spec.Template.Spec.ExpireAfter = never
		}, want: []findings.Code{findings.NodeDoNotDisrupt}, msg: "never replaced at all"},
		{name: "do-not-disrupt false", edit: func(np *karpv1.NodePool) {
			np.Spec.Template.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "false"}
		}},
		{name: "WhenEmpty and Never", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.ConsolidationPolicy = karpv1.ConsolidationPolicyWhenEmpty
			np.Spec.Template.Spec.ExpireAfter = never
		}, want: []findings.Code{findings.NeverRightSized}},
		{name: "WhenEmpty with expiry", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.ConsolidationPolicy = karpv1.ConsolidationPolicyWhenEmpty
		}},
		{name: "Balanced on the pinned release", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.ConsolidationPolicy = karpv1.ConsolidationPolicyBalanced
		}},
		{name: "Balanced on 1.13", edit: func(np *karpv1.NodePool) {
			np.Spec.Disruption.ConsolidationPolicy = karpv1.ConsolidationPolicyBalanced
		}, o: Options{Target: mustTarget("1.13.1", "")}, want: []findings.Code{findings.FeatureNotRunByTarget}, path: "spec.disruption.consolidationPolicy"},
		{name: "replicas without StaticCapacity", edit: func(np *karpv1.NodePool) {
			np.Spec.Replicas = new(int64(3))
		}, want: []findings.Code{findings.FeatureNotRunByTarget}, path: "spec.replicas"},
		{name: "replicas with StaticCapacity", edit: func(np *karpv1.NodePool) {
			np.Spec.Replicas = new(int64(3))
		}, o: Options{Target: mustTarget("", "StaticCapacity=true")}},
		{name: "Gte on 1.8", edit: func(np *karpv1.NodePool) {
			np.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{req("karpenter.azure.com/sku-cpu", "Gte", "4")}
		}, o: Options{Target: mustTarget("v1.8.0", "")}, want: []findings.Code{findings.FeatureNotRunByTarget}, path: "spec.template.spec.requirements[0].operator"},
		{name: "Gte on the pinned release", edit: func(np *karpv1.NodePool) {
			np.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{req("karpenter.azure.com/sku-cpu", "Gte", "4")}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := disruptionFindings(disruptionPool(tc.edit), tc.o)
			if got := disruptionCodes(fs); !slices.Equal(got, tc.want) {
				t.Fatalf("codes %v, want %v: %v", got, tc.want, fs)
			}
			if tc.path != "" && fs[0].Path != tc.path {
				t.Errorf("path %q, want %q", fs[0].Path, tc.path)
			}
			if tc.msg != "" && !strings.Contains(fs[0].Message, tc.msg) {
				t.Errorf("message %q lacks %q", fs[0].Message, tc.msg)
			}
		})
	}
}

func mustTarget(release, gates string) Target {
	t, err := ParseTarget(release, gates)
	if err != nil {
		panic(err)
	}
	return t
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{720 * time.Hour: "720h", 90 * time.Minute: "1h30m", 0: "0s", 10 * time.Minute: "10m", 90 * time.Second: "1m30s",
		10 * time.Second: "10s", time.Hour + time.Second: "1h0m1s"} {
		if got := ShortDuration(d); got != want {
			t.Errorf("ShortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestParseTargetRejects(t *testing.T) {
	for _, in := range [][2]string{{"one.two", ""}, {"", "StaticCapacty=true"}, {"", "StaticCapacity=maybe"}} {
		if _, err := ParseTarget(in[0], in[1]); err == nil {
			t.Errorf("ParseTarget(%q, %q) accepted", in[0], in[1])
		}
	}
	if got := mustTarget("", "").String(); !strings.Contains(got, "1.14.2 (pinned)") {
		t.Errorf("default target %q", got)
	}
}

// budgetActivity agrees with Karpenter's Budget.IsActive evaluated minute by minute over four
// weeks (the oracle), for schedules whose period is at most a week.
func TestBudgetActivityAgreesWithIsActive(t *testing.T) {
	cases := []struct{ schedule, duration string }{
		{"0 6 * * *", "22h"}, {"@daily", "24h"}, {"@daily", "23h59m"}, {"0 9 * * mon-fri", "8h"},
		{"*/15 * * * *", "15m"}, {"*/15 * * * *", "10m"}, {"0 1 * * *", "0s"}, {"0 0 * * 0", "168h"}, {"0 0 * * 0", "167h"},
		{"@hourly", "1h"}, {"0 0 30 2 *", "1h"},
	}
	for _, c := range cases {
		b := budget("0", c.schedule, c.duration)
		got, err := budgetActivity(b)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.schedule, c.duration, err)
		}
		clk := clocktesting.NewFakeClock(scheduleReference)
		var active, inactive bool
		for m := 0; m < 4*7*24*60; m++ {
			clk.SetTime(scheduleReference.Add(time.Duration(m)*time.Minute + 30*time.Second))
			if ok, _ := b.IsActive(clk); ok {
				active = true
			} else {
				inactive = true
			}
		}
		want := activeSometimes
		switch {
		case !inactive:
			want = activeAlways
		case !active:
			want = activeNever
		}
		if got != want {
			t.Errorf("%s for %s: got %v, Karpenter's IsActive minute by minute says %v", c.schedule, c.duration, got, want)
		}
	}
}

// The verdicts on budgets agree with Karpenter's own NodePool.MustGetAllowedDisruptions (what
// the disruption controller calls), sampled every 10 minutes over two weeks: "blocked for good"
// means 0 at every sample, "every node at once" means all nodes at some sample, and a clean
// pool allows fewer than all nodes at every sample.
func TestBudgetVerdictsAgreeWithKarpenter(t *testing.T) {
	const nodes, driftOnly = 50, 5
	cases := [][]karpv1.Budget{
		{budget("0", "", "")},
		{budget("10%", "", ""), budget("0", "0 6 * * *", "22h")},
		{budget("0", "@daily", "24h")},
		{budget("100%", "", "")},
		{budget("1", "", "", karpv1.DisruptionReasonEmpty, karpv1.DisruptionReasonUnderutilized)},
		{budget("10%", "", ""), budget("0", "", "", karpv1.DisruptionReasonDrifted)},
		{budget("10%", "", ""), budget("0", "CRON_TZ=Europe/Berlin 0 9 * * 1-5", "8h", karpv1.DisruptionReasonEmpty)},
		{budget("10%", "", ""), budget("0", "0 0 30 2 *", "1h")},
		{budget("100%", "0 2 * * *", "2h"), budget("5", "", "")},
		{budget("5", "0 2 * * *", "2h")},
	}
	for i, budgets := range cases {
		p := disruptionPool(func(np *karpv1.NodePool) { np.Spec.Disruption.Budgets = budgets })
		got := map[findings.Code]bool{}
		for _, f := range disruptionFindings(p, Options{}) {
			got[f.Code] = true
		}
		clk := clocktesting.NewFakeClock(scheduleReference)
		minDrift, maxDrift := nodes+1, -1
		for m := 0; m < 14*24*60; m += 10 {
			clk.SetTime(scheduleReference.Add(time.Duration(m) * time.Minute))
			n := p.MustGetAllowedDisruptions(clk, nodes, karpv1.DisruptionReasonDrifted)
			minDrift, maxDrift = min(minDrift, n), max(maxDrift, n)
		}
		// KRP401 leaves out drift blocked on nodes that still expire (a deliberate pattern).
		blocked := got[findings.DisruptionBlocked] || got[findings.BudgetScheduleUnparseable] || i == driftOnly
		if blocked != (maxDrift == 0) {
			t.Errorf("case %d: blocked=%v, but Karpenter allows %d..%d drifted nodes", i, blocked, minDrift, maxDrift)
		}
		if whole := got[findings.WholePoolDisruption]; whole != (maxDrift >= nodes) {
			t.Errorf("case %d: whole pool=%v, but Karpenter allows up to %d of %d drifted nodes", i, whole, maxDrift, nodes)
		}
	}
}
