package stats

import (
	"math/big"
	"testing"
)

// passRat returns pass@k = 1 − C(n−c, k)/C(n, k) and pass^k = C(c, k)/C(n, k)
// exactly, with C(m, k) = 0 for m < k.
func passRat(n, c, k int) (at, hat *big.Rat) {
	cn := choose(int64(n), int64(k))
	var fail, all *big.Int
	if n-c >= k {
		fail = choose(int64(n-c), int64(k))
	} else {
		fail = new(big.Int)
	}
	if c >= k {
		all = choose(int64(c), int64(k))
	} else {
		all = new(big.Int)
	}
	at = new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFrac(fail, cn))
	hat = new(big.Rat).SetFrac(all, cn)
	return at, hat
}

func TestPassKAgainstExactBinomials(t *testing.T) {
	type triple struct{ n, c, k int }
	var cases []triple
	for n := 1; n <= 12; n++ {
		for c := 0; c <= n; c++ {
			for k := 1; k <= n; k++ {
				cases = append(cases, triple{n, c, k})
			}
		}
	}
	cases = append(cases, triple{200, 37, 50}, triple{200, 199, 100}, triple{1000, 1, 1}, triple{1000, 500, 10}, triple{100, 90, 100})
	for _, c := range cases {
		at, hat := passRat(c.n, c.c, c.k)
		got, err := PassAtK(c.n, c.c, c.k)
		if want := ratFloat(at); err != nil || !near(got, want, 1e-13) {
			t.Errorf("PassAtK(%d, %d, %d) = %.17g, %v; want %.17g", c.n, c.c, c.k, got, err, want)
		}
		got, err = PassHatK(c.n, c.c, c.k)
		if want := ratFloat(hat); err != nil || !near(got, want, 1e-13) {
			t.Errorf("PassHatK(%d, %d, %d) = %.17g, %v; want %.17g", c.n, c.c, c.k, got, err, want)
		}
	}
}

// By hand, n = 3 attempts, c = 2 passed:
// pass@1 = pass^1 = 2/3; pass@2 = 1 − C(1,2)/C(3,2) = 1; pass^2 = C(2,2)/C(3,2) = 1/3;
// pass@3 = 1 − C(1,3)/C(3,3) = 1; pass^3 = C(2,3)/C(3,3) = 0.
func TestPassKTwoOfThree(t *testing.T) {
	want := map[int][2]float64{1: {2.0 / 3, 2.0 / 3}, 2: {1, 1.0 / 3}, 3: {1, 0}}
	for k, w := range want {
		at, _ := PassAtK(3, 2, k)
		hat, _ := PassHatK(3, 2, k)
		if !near(at, w[0], 1e-15) || !near(hat, w[1], 1e-15) {
			t.Errorf("k = %d: pass@k = %v, pass^k = %v; want %v, %v", k, at, hat, w[0], w[1])
		}
	}
}

func TestMeanPassK(t *testing.T) {
	tasks := []TaskAttempts{{2, 3}, {0, 3}, {3, 3}, {1, 4}}
	// pass@2: 1, 0, 1, 1 − C(3,2)/C(4,2) = 1/2 → mean 5/8.
	// pass^2: 1/3, 0, 1, 0 → mean 1/3 / 4 + 1/4 = 1/3.
	at, err := MeanPassAtK(tasks, 2)
	if err != nil || !near(at, 5.0/8, 1e-15) {
		t.Errorf("MeanPassAtK = %v, %v; want 5/8", at, err)
	}
	hat, err := MeanPassHatK(tasks, 2)
	if err != nil || !near(hat, 1.0/3, 1e-15) {
		t.Errorf("MeanPassHatK = %v, %v; want 1/3", hat, err)
	}
	if _, err := MeanPassAtK(tasks, 4); err == nil {
		t.Error("k = 4 accepted for a task with 3 attempts")
	}
	if _, err := MeanPassHatK(nil, 1); err == nil {
		t.Error("no tasks accepted")
	}
}

func TestPassKErrors(t *testing.T) {
	for _, c := range [][3]int{{0, 0, 1}, {3, 4, 1}, {3, -1, 1}, {3, 1, 0}, {3, 1, 4}} {
		if _, err := PassAtK(c[0], c[1], c[2]); err == nil {
			t.Errorf("PassAtK%v accepted", c)
		}
		if _, err := PassHatK(c[0], c[1], c[2]); err == nil {
			t.Errorf("PassHatK%v accepted", c)
		}
	}
}
