package contract

import (
	"fmt"
	"strings"
	"testing"
)

// articleObservation resembles the final state of a Wikipedia task: an
// article body of about 80 KB with the line breaks and no-break spaces
// innerText produces, 150 requests, and a screenshot hash.
func articleObservation() Observation {
	var body strings.Builder
	body.WriteString("Eiffel Tower\nFrom Wikipedia, the free encyclopedia\n\n")
	for i := 0; body.Len() < 80<<10; i++ {
		fmt.Fprintf(&body, "Section %d\n\nThe tower was the tallest man-made structure in the world for %d years, "+
			"until the Chrysler Building in New York City was finished in 1930.\u00a0It is %d\u00a0m tall "+
			"about the same height as an 81-storey building.\t[%d]\n", i, 41+i%3, 300+i%40, i)
	}
	body.WriteString("Height\t330\u00a0m (1,083\u00a0ft)\nRetrieved from Wikipedia\n")

	obs := Observation{
		URL:   "https://en.wikipedia.org/wiki/Eiffel_Tower",
		Title: "Eiffel Tower - Wikipedia",
		Elements: map[string]Elements{
			"body":              {Count: 1, Texts: []string{body.String()}},
			"h1":                {Count: 1, Texts: []string{"Eiffel Tower"}},
			".infobox":          {Count: 1, Texts: []string{"Height\t330\u00a0m (1,083\u00a0ft)\nArchitect\tStephen Sauvestre"}},
			"#toc li":           {Count: 42},
			".mw-search-result": {Count: 0},
		},
		Screenshot: Screenshot{PHash: "c3c3e1e1f0f07878"},
	}
	for i := range 150 {
		e := NetworkEntry{
			URL:          fmt.Sprintf("https://upload.wikimedia.org/wikipedia/commons/thumb/%02x/image-%d.jpg", i, i),
			Method:       "GET",
			Status:       200,
			ResourceType: "Image",
			StartMS:      int64(40 + i*7),
		}
		switch {
		case i == 0:
			e.URL, e.ResourceType = "https://en.wikipedia.org/wiki/Eiffel_Tower", "Document"
		case i%25 == 0:
			e.URL, e.ResourceType = fmt.Sprintf("https://en.wikipedia.org/w/api.php?action=query&list=%d", i), "XHR"
		case i%37 == 0:
			e.Status, e.Error = 0, "net::ERR_ABORTED"
		}
		e.AfterLastToolCall = i > 120
		obs.Network = append(obs.Network, e)
	}
	return obs
}

const articleContract = `postconditions:
  - kind: url
    pattern: '^https://en\.wikipedia\.org/wiki/Eiffel_Tower$'
  - {kind: dom_text, selector: h1, contains: Eiffel Tower}
  - kind: or
    children:
      - {kind: dom_text, selector: .infobox, contains: "330 m"}
      - {kind: dom_text, contains: "330 metres"}
      - {kind: dom_text, contains: "1,083 ft"}
  - kind: and
    children:
      - {kind: dom_count, selector: "#toc li", op: gte, value: 10}
      - {kind: not, child: {kind: dom_count, selector: .mw-search-result, op: gte, value: 1}}
  - {kind: network, url_pattern: '^https://en\.wikipedia\.org/wiki/Eiffel_Tower', status_in: [200], method: GET}
  - {kind: not, child: {kind: network, url_pattern: '/api\.php', status_in: [500, 502, 503]}}
  - {kind: dom_text, contains: "Retrieved from Wikipedia"}
  - {kind: dom_text, contains: "the tallest man-made structure in the world for 99 years"}
  - {kind: screenshot_class, class_id: article, distance_max: 10}
  - {kind: no_dialog}
`

func BenchmarkEvaluate(b *testing.B) {
	p, err := Parse([]byte(articleContract))
	if err != nil {
		b.Fatal(err)
	}
	obs := articleObservation()
	classes := fakeClasses{"article": 0xc3c3e1e1f0f07870}
	if v := Evaluate(p, obs, classes); v.FailedClause() != "postconditions[7] (dom_text)" || len(v.Evidence) != 13 {
		b.Fatalf("benchmark contract judged %q with %d evidence entries, want a failure at postconditions[7] and 13 entries",
			v.FailedClause(), len(v.Evidence))
	}
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(p, obs, classes)
	}
}
