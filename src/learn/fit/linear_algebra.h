// Dense symmetric algebra on row-major n×n matrices (n is at most a few dozen: a model's
// columns): Cholesky inversion and solves, Jacobi eigenvalues.
#pragma once

#include <vector>

#include "core/error.h"

namespace materialist::learn {

// The inverse of a symmetric positive definite matrix (Cholesky); kInvalidArgument otherwise.
Expected<std::vector<double>> invert_symmetric(const std::vector<double>& matrix, int n);
// Solves A x = b for symmetric positive definite A; false when A is not.
bool solve_symmetric(std::vector<double> matrix, std::vector<double>& rhs, int n);
// Eigenvalues of a symmetric matrix (cyclic Jacobi rotations), in no particular order.
std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n);

// The condition number of a symmetric matrix in correlation form (unit diagonal), so that it
// measures collinearity of columns and not their units; +inf when not positive definite.
double scaled_condition(const std::vector<double>& information, int n);

}  // namespace materialist::learn
