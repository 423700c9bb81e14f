package cli

import (
	"errors"

	"contractbench/internal/contract"
	"contractbench/internal/suite"
)

// validateContractFile checks a standalone contract document.
func validateContractFile(path string, data []byte) error {
	_, err := contract.Parse(data)
	var errs contract.Errors
	if errors.As(err, &errs) {
		ps := make(suite.Problems, 0, len(errs))
		for _, e := range errs {
			ps = append(ps, suite.Problem{File: path, Line: e.Line, Path: e.Path, Msg: e.Msg})
		}
		return ps
	}
	if err != nil {
		return suite.Problems{{File: path, Msg: err.Error()}}
	}
	return nil
}
