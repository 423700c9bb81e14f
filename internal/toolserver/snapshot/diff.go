package snapshot

// Added compares two renderings of one document, line by line as multisets,
// and returns the lines of after that before did not have (in after's order)
// and how many lines of before are gone. Order changes alone are not
// changes: a list that re-sorts reports nothing, which is what a reader
// skimming for "what appeared" wants.
func Added(before, after []string) (added []string, removed int) {
	count := make(map[string]int, len(before))
	for _, l := range before {
		count[l]++
	}
	for _, l := range after {
		if count[l] > 0 {
			count[l]--
			continue
		}
		added = append(added, l)
	}
	for _, n := range count {
		removed += n
	}
	return added, removed
}
