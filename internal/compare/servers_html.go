package compare

import (
	"embed"
	"fmt"
	"html/template"
	"io"

	"contractbench/internal/report"
)

// The pages of comparisons: the servers side by side, and the board.
//
//go:embed html/servers.tmpl html/board.tmpl
var htmlFiles embed.FS

var serversTemplate = template.Must(template.New("servers.tmpl").ParseFS(htmlFiles, "html/servers.tmpl"))

// ServerRun is one server's run in a comparison, with the name of its
// HTML report beside the comparison page.
type ServerRun struct {
	Server string
	Run    *report.Run
	// HTMLFile is the file name of the server's report page, to link
	// each result to.
	HTMLFile string
}

// WriteComparisonHTML writes the comparison of servers as one page: the
// rows of WriteComparison, then every task with its result on each server
// side by side, each linking to the result in that server's report.
func WriteComparisonHTML(w io.Writer, title string, runs []ServerRun, rows []ServerRow) error {
	css, err := report.StyleSheet()
	if err != nil {
		return err
	}
	type cell struct {
		Outcome          report.Outcome
		ToolCalls        int
		ResponseBytes    int64
		Duration, Failed string
		Link             template.URL
	}
	type task struct {
		Name  string
		Cells []cell
	}
	page := struct {
		Title   string
		CSS     template.CSS
		Rows    []ServerRow
		Servers []string
		Tasks   []task
	}{Title: title, CSS: template.CSS(css), Rows: rows}

	index := map[string]int{}
	for si, sr := range runs {
		page.Servers = append(page.Servers, sr.Server)
		rep := report.Repeated(sr.Run)
		for i := range sr.Run.Results {
			res := &sr.Run.Results[i]
			name := report.ResultName(res, rep)
			ti, ok := index[name]
			if !ok {
				ti = len(page.Tasks)
				index[name] = ti
				page.Tasks = append(page.Tasks, task{Name: name, Cells: make([]cell, len(runs))})
			}
			page.Tasks[ti].Cells[si] = cell{
				Outcome:       res.Outcome,
				ToolCalls:     res.ToolCalls,
				ResponseBytes: res.ResponseBytes,
				Duration:      report.Seconds(float64(res.DurationMS)),
				Failed:        res.Failed.String(),
				// HTMLFile is a plain file name (WriteFiles makes it
				// of letters, digits, '.', '-' and '_').
				Link: template.URL(sr.HTMLFile + "#" + report.ResultAnchor(i)),
			}
		}
	}
	if err := serversTemplate.Execute(w, page); err != nil {
		return fmt.Errorf("report html: servers: %w", err)
	}
	return nil
}
