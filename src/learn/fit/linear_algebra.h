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
// The lower-triangular Cholesky factor of a symmetric positive definite matrix, in place (the
// upper triangle is left as it was); false when it is not positive definite.
bool cholesky_factor(std::vector<double>& matrix, int n);
// Solves A x = b in place, given A's factor from cholesky_factor.
void cholesky_solve(const std::vector<double>& factor, double* rhs, int n);
// The diagonal of A⁻¹ from A's factor: Σ_k (L⁻¹)_kj², in about n³/6 steps.
std::vector<double> inverse_diagonal(const std::vector<double>& factor, int n);

// Eigenvalues of a symmetric matrix (cyclic Jacobi rotations), in no particular order.
std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n);

// The condition number of a symmetric matrix in correlation form (unit diagonal), so that it
// measures collinearity of columns and not their units; +inf when not positive definite.
double scaled_condition(const std::vector<double>& information, int n);

}  // namespace materialist::learn
