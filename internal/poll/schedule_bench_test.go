package poll

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkPoll compares the auto schedule with fixed 5 s, 10 s and 30 s
// loops on a simulated clock (see simulate_test.go): GET requests per job and
// the lag from a job's end to our noticing it, for jobs of 30 s to 60 min,
// without and with 429 answers. It prints two tables once per process, the
// comparison and the trade-off curve of the sweep that chose DefaultAuto,
// because b.Log is hidden without -v. Each sub-benchmark, such as
// BenchmarkPoll/auto/10m, reports its row as metrics.
//
// The numbers are the product here, not the time: they describe a seeded
// sample and are the same whatever b.N is. So the sub-benchmarks run no timed
// loop and suppress ns/op (ReportMetric(0, "ns/op"), as package testing
// allows); a timed loop would only stretch each of the twenty to -benchtime,
// a second apiece by default. The iteration count printed beside them is the
// framework's ramp-up, not work done.
//
//	go test -run '^$' -bench Poll ./internal/poll
func BenchmarkPoll(b *testing.B) {
	printOnce.Do(func() {
		fmt.Print(formatTable(simTable()))
		fmt.Println()
		fmt.Print(formatCurve(sweep()))
	})
	for _, sc := range simSchedules {
		for _, length := range simLengths {
			row := tableRowFor(sc.name, length)
			b.Run(sc.name+"/"+shortDur(length), func(b *testing.B) {
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(row.Plain.GetsMean(), "gets/job")
				b.ReportMetric(row.Plain.LagMean().Seconds(), "lag-mean-s")
				b.ReportMetric(row.Plain.LagWorst.Seconds(), "lag-worst-s")
				b.ReportMetric(row.Limited.GetsMean(), "429-gets/job")
				b.ReportMetric(row.Limited.LagMean().Seconds(), "429-lag-mean-s")
				b.ReportMetric(row.Limited.LagWorst.Seconds(), "429-lag-worst-s")
			})
		}
	}
}

// printOnce keeps -count=N from printing the tables N times.
var printOnce sync.Once

// tableRow is one schedule at one job length, with the API answering every
// GET (Plain) and with throttle429 (Limited).
type tableRow struct {
	Schedule string
	Length   time.Duration
	Plain    cellStats
	Limited  cellStats
}

// simTable plays every schedule at every length, once per process.
var simTable = sync.OnceValue(func() []tableRow {
	var rows []tableRow
	for _, length := range simLengths {
		for _, sc := range simSchedules {
			rows = append(rows, tableRow{
				Schedule: sc.name,
				Length:   length,
				Plain:    simulate(sc, length, throttle{}, simJobs),
				Limited:  simulate(sc, length, throttle429, simJobs),
			})
		}
	}
	return rows
})

func tableRowFor(schedule string, length time.Duration) tableRow {
	for _, r := range simTable() {
		if r.Schedule == schedule && r.Length == length {
			return r
		}
	}
	panic("no table row for " + schedule + " " + shortDur(length))
}

// formatTable prints the comparison and, under it, the targets for auto.
func formatTable(rows []tableRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Poll schedules on a simulated clock: %d jobs per length L, each lasting a uniform\n", simJobs)
	fmt.Fprintf(&b, "0.9L-1.1L; auto with its +-%.0f%% jitter. Every source is seeded (%d).\n", DefaultAuto.Jitter*100, simSeed)
	b.WriteString("GETs: requests per job; x10s: GETs / those of fixed10s. Lag: seconds from the job's end\n")
	b.WriteString("to the GET that sees it.\n")
	fmt.Fprintf(&b, "With 429: %.0f%% of GETs are answered 429 Retry-After: %d. A 429 counts as a GET, and the\n",
		throttle429.P*100, int(throttle429.RetryAfter.Seconds()))
	b.WriteString("next GET comes after max(Retry-After, the schedule's wait).\n\n")
	b.WriteString("                        every GET answered              |         with 429\n")
	b.WriteString("job  schedule   GETs mean worst   x10s  lag mean  worst |  GETs mean worst  lag mean  worst\n")
	base := map[time.Duration]cellStats{}
	for _, r := range rows {
		if r.Schedule == baseline.name {
			base[r.Length] = r.Plain
		}
	}
	for i, r := range rows {
		if i > 0 && r.Length != rows[i-1].Length {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%-4s %-9s %10.2f %5d %6.2f %9.1f %6.1f | %10.2f %5d %9.1f %6.1f\n",
			shortDur(r.Length), r.Schedule,
			r.Plain.GetsMean(), r.Plain.GetsWorst, r.Plain.GetsMean()/base[r.Length].GetsMean(),
			r.Plain.LagMean().Seconds(), r.Plain.LagWorst.Seconds(),
			r.Limited.GetsMean(), r.Limited.GetsWorst, r.Limited.LagMean().Seconds(), r.Limited.LagWorst.Seconds())
	}
	b.WriteString("\nTargets for auto:\n")
	for _, t := range targets {
		var c cellStats
		for _, r := range rows {
			if r.Schedule == "auto" && r.Length == t.Length {
				c = r.Plain
			}
		}
		if t.Share > 0 {
			share := c.GetsMean() / base[t.Length].GetsMean()
			fmt.Fprintf(&b, "  %-4s GETs x10s %.2f <= %.2f %-4s", shortDur(t.Length), share, t.Share, verdict(share <= t.Share))
		} else {
			fmt.Fprintf(&b, "  %-4s %-26s", shortDur(t.Length), "")
		}
		lag := c.LagMean()
		fmt.Fprintf(&b, "  lag mean %4.1f s <= %4.1f s %s\n", lag.Seconds(), t.Lag.Seconds(), verdict(lag <= t.Lag))
	}
	return b.String()
}

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISS"
}

// sweepPoint is one swept schedule and its scores.
type sweepPoint struct {
	Auto  Auto
	Score scorecard
}

// sweepGrid is what the sweep tries: First 10-30 s by 2 s, Ratio 0.30-0.90
// by 0.05, Max 20-30 s by 1 s; Min and Jitter as in DefaultAuto. First stays
// at or under Max, because Auto caps it there and a larger one would repeat
// a row. Max stops at 30 s: past it the mean lag of long jobs is over 15 s
// whatever the rest.
func sweepGrid() []Auto {
	var grid []Auto
	for first := 10; first <= 30; first += 2 {
		for ratio := 30; ratio <= 90; ratio += 5 {
			for maxS := max(first, 20); maxS <= 30; maxS++ {
				a := DefaultAuto
				a.First = time.Duration(first) * time.Second
				a.Ratio = float64(ratio) / 100
				a.Max = time.Duration(maxS) * time.Second
				grid = append(grid, a)
			}
		}
	}
	return grid
}

// sweep scores the grid, spread over the CPUs: every point has its own
// seeded sources, so the result does not depend on the spreading.
func sweep() []sweepPoint {
	grid := sweepGrid()
	base := baselineCells()
	pts := make([]sweepPoint, len(grid))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				pts[i] = sweepPoint{grid[i], score(autoSim("sweep", grid[i]), base)}
			}
		})
	}
	for i := range grid {
		next <- i
	}
	close(next)
	wg.Wait()
	return pts
}

// curve returns the trade-off curve: the swept points that no other point
// beats on both requests and lag, from the cheapest in requests up.
func curve(pts []sweepPoint) []sweepPoint {
	pts = slices.Clone(pts)
	slices.SortStableFunc(pts, func(x, y sweepPoint) int {
		if c := cmpFloat(x.Score.Requests, y.Score.Requests); c != 0 {
			return c
		}
		return cmpFloat(x.Score.Lag, y.Score.Lag)
	})
	var front []sweepPoint
	for _, p := range pts {
		if len(front) == 0 || p.Score.Lag < front[len(front)-1].Score.Lag {
			front = append(front, p)
		}
	}
	return front
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// knee picks the point of the curve with the most headroom: the one whose
// nearer limit, in requests or in lag, is farthest. On a curve that falls
// steeply and then flattens, that is where it bends.
func knee(front []sweepPoint) sweepPoint {
	best := front[0]
	for _, p := range front[1:] {
		if p.Score.Headroom() > best.Score.Headroom() {
			best = p
		}
	}
	return best
}

// formatCurve prints the trade-off curve, marks its knee and DefaultAuto.
func formatCurve(pts []sweepPoint) string {
	front := curve(pts)
	k := knee(front)
	var b strings.Builder
	fmt.Fprintf(&b, "Trade-off curve: %d auto schedules swept (First 10-30 s by 2, Ratio 0.30-0.90 by 0.05,\n", len(pts))
	fmt.Fprintf(&b, "Max 20-30 s by 1, First <= Max; Min %s, Jitter +-%.0f%%). Listed: those that no other beats on\n",
		shortDur(DefaultAuto.Min), DefaultAuto.Jitter*100)
	b.WriteString("both scores. req: worst over 2m/10m/30m of GETs / (0.5 x fixed10s GETs). lag: worst over\n")
	b.WriteString("30s/2m/10m/30m of mean lag / its limit (6 s at 30 s, else 15 s). Both must be <= 1.\n")
	b.WriteString("short: mean lag / length for jobs spread over 30 s-2 min (not a target; see the notes).\n\n")
	b.WriteString("First Ratio  Max |  req   lag  room | 30s lag | 2m GETs  lag | 10m GETs  lag | 30m GETs  lag | short\n")
	for _, p := range front {
		a, s := p.Auto, p.Score
		mark := ""
		if sameParams(p.Auto, k.Auto) {
			mark += " <- knee"
		}
		if sameParams(p.Auto, DefaultAuto) {
			mark += " = DefaultAuto"
		}
		c30, c2, c10, c30m := s.Cells[30*time.Second], s.Cells[2*time.Minute], s.Cells[10*time.Minute], s.Cells[30*time.Minute]
		fmt.Fprintf(&b, "%5s %5.2f %4s | %4.2f %5.2f %5.2f | %7.1f | %7.2f %4.1f | %8.2f %4.1f | %8.2f %4.1f | %5.3f%s\n",
			shortDur(a.First), a.Ratio, shortDur(a.Max), s.Requests, s.Lag, s.Headroom(),
			c30.LagMean().Seconds(), c2.GetsMean(), c2.LagMean().Seconds(), c10.GetsMean(), c10.LagMean().Seconds(),
			c30m.GetsMean(), c30m.LagMean().Seconds(), shortShare(autoSim("curve", a)), mark)
	}
	fmt.Fprintf(&b, "\nKnee: First %s, Ratio %.2f, Max %s (room %.2f: %.0f%% below the nearer limit).\n",
		shortDur(k.Auto.First), k.Auto.Ratio, shortDur(k.Auto.Max), k.Score.Headroom(), 100*k.Score.Headroom())
	return b.String()
}

// sameParams compares the tuned fields; Rand, a func, is not comparable.
func sameParams(x, y Auto) bool {
	return x.First == y.First && x.Min == y.Min && x.Max == y.Max && x.Ratio == y.Ratio && x.Jitter == y.Jitter
}
