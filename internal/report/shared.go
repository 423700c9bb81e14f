package report

// StyleSheet is the HTML report's style sheet, which every other page of
// the project inlines so that all of them look alike and load nothing.
func StyleSheet() ([]byte, error) { return htmlFiles.ReadFile("html/report.css") }
