package workflows

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Next is the first minute after after (UTC) that the POSIX cron line
// spec names, as a schedule: trigger reads it: five fields of numbers,
// *, ranges (a-b), steps (*/n, a-b/n) and lists. GitHub may start the run
// later than that, and never more often than every 5 minutes.
func Next(spec string, after time.Time) (time.Time, error) {
	fields := strings.Fields(spec)
	if len(fields) != 5 {
		return time.Time{}, fmt.Errorf("cron %q: want 5 fields", spec)
	}
	limits := [5][2]int{{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 6}}
	var sets [5]map[int]bool
	for i, f := range fields {
		set, err := cronField(f, limits[i][0], limits[i][1])
		if err != nil {
			return time.Time{}, fmt.Errorf("cron %q: %w", spec, err)
		}
		sets[i] = set
	}
	t := after.UTC().Truncate(time.Minute).Add(time.Minute)
	for end := t.AddDate(1, 0, 0); t.Before(end); t = t.Add(time.Minute) {
		// Both day fields restricted: either matches, as in POSIX cron.
		dom, dow := sets[2][t.Day()], sets[4][int(t.Weekday())]
		day := dom && dow
		if fields[2] != "*" && fields[4] != "*" {
			day = dom || dow
		}
		if sets[0][t.Minute()] && sets[1][t.Hour()] && sets[3][int(t.Month())] && day {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("cron %q names no minute in a year", spec)
}

func cronField(f string, lo, hi int) (map[int]bool, error) {
	set := map[int]bool{}
	for _, part := range strings.Split(f, ",") {
		rng, stepText, stepped := strings.Cut(part, "/")
		step := 1
		if stepped {
			n, err := strconv.Atoi(stepText)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("step %q", stepText)
			}
			step = n
		}
		from, to := lo, hi
		if rng != "*" {
			a, b, isRange := strings.Cut(rng, "-")
			var err error
			if from, err = strconv.Atoi(a); err != nil {
				return nil, fmt.Errorf("value %q", a)
			}
			to = from
			if isRange {
				if to, err = strconv.Atoi(b); err != nil {
					return nil, fmt.Errorf("value %q", b)
				}
			} else if stepped {
				to = hi
			}
		}
		if from < lo || to > hi || from > to {
			return nil, fmt.Errorf("%q is outside %d-%d", part, lo, hi)
		}
		for v := from; v <= to; v += step {
			set[v] = true
		}
	}
	return set, nil
}
