package cli

import (
	"errors"

	"contractbench/internal/contract"
	"contractbench/internal/problem"
)

// validateContractFile checks a standalone contract document.
func validateContractFile(path string, data []byte) error {
	_, err := contract.Parse(data)
	var errs contract.Errors
	switch {
	case errors.As(err, &errs):
		return errs.In(path)
	case err != nil:
		return problem.List{{File: path, Msg: err.Error()}}
	}
	return nil
}
