package analysis

import (
	"time"

	"github.com/robfig/cron/v3"
	clocktesting "k8s.io/utils/clock/testing"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// activity is when a disruption budget is active, as Karpenter decides it.
type activity int

const (
	activeSometimes activity = iota
	activeAlways
	activeNever
	// activeBroken: Karpenter cannot evaluate the schedule and fails closed.
	activeBroken
)

// scheduleReference is where the walk over a schedule's hits starts: a fixed instant, so that
// a verdict does not depend on the day of the plan. The walk covers more than the four years
// of the leap-day cycle, the longest period a five-field cron expression can have short of
// day-of-month and day-of-week combinations.
var scheduleReference = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

const (
	scheduleHorizon = 9 * 365 * 24 * time.Hour
	// maxScheduleHits bounds the walk for schedules that hit often (every minute); their
	// pattern repeats within the hits walked.
	maxScheduleHits = 1000
)

// budgetActivity runs Karpenter's own Budget.IsActive over the budget's schedule. A budget's
// state only changes at a schedule hit (it becomes active) and one second after a hit plus the
// duration (it may become inactive), so probing those instants decides whether it is ever
// active and ever inactive. The hits are enumerated with the cron parser Karpenter uses, on
// the same "TZ=UTC" expression.
func budgetActivity(b karpv1.Budget) (activity, error) {
	if b.Schedule == nil && b.Duration == nil {
		return activeAlways, nil
	}
	if b.Schedule == nil || b.Duration == nil {
		return activeSometimes, nil // the CRD's CEL rule rejects this; KRP001 reports it
	}
	clk := clocktesting.NewFakeClock(scheduleReference)
	if _, err := b.IsActive(clk); err != nil {
		return activeBroken, err
	}
	sched, err := cron.ParseStandard("TZ=UTC " + *b.Schedule)
	if err != nil {
		return activeBroken, err
	}
	var active, inactive bool
	probe := func(t time.Time) {
		clk.SetTime(t)
		if ok, _ := b.IsActive(clk); ok {
			active = true
		} else {
			inactive = true
		}
	}
	probe(scheduleReference)
	end := scheduleReference.Add(scheduleHorizon)
	t := scheduleReference
	for i := 0; i < maxScheduleHits; i++ {
		h := sched.Next(t)
		if h.IsZero() || h.After(end) {
			break
		}
		probe(h)
		probe(h.Add(b.Duration.Duration + time.Second))
		if active && inactive {
			return activeSometimes, nil
		}
		t = h
	}
	switch {
	case active && !inactive:
		return activeAlways, nil
	case !active:
		return activeNever, nil
	}
	return activeSometimes, nil
}

// scheduleHits reports whether a parseable schedule ever hits.
func scheduleHits(schedule string) bool {
	sched, err := cron.ParseStandard("TZ=UTC " + schedule)
	return err == nil && !sched.Next(scheduleReference).IsZero()
}
