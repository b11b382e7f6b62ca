#include "learn/fit/linear_algebra.h"

#include <algorithm>
#include <cmath>

namespace materialist::learn {
namespace {

// Lower-triangular Cholesky factor in place; false when not positive definite.
bool cholesky(std::vector<double>& a, int n) {
  for (int j = 0; j < n; ++j) {
    double diagonal = a[j * n + j];
    for (int k = 0; k < j; ++k) diagonal -= a[j * n + k] * a[j * n + k];
    if (!(diagonal > 0)) return false;
    const double l_jj = std::sqrt(diagonal);
    a[j * n + j] = l_jj;
    for (int i = j + 1; i < n; ++i) {
      double sum = a[i * n + j];
      for (int k = 0; k < j; ++k) sum -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = sum / l_jj;
    }
  }
  return true;
}

void cholesky_substitute(const std::vector<double>& l, double* b, int n) {
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k) b[i] -= l[i * n + k] * b[k];
    b[i] /= l[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k) b[i] -= l[k * n + i] * b[k];
    b[i] /= l[i * n + i];
  }
}

}  // namespace

bool cholesky_factor(std::vector<double>& matrix, int n) {
  return cholesky(matrix, n);
}

void cholesky_solve(const std::vector<double>& factor, double* rhs, int n) {
  cholesky_substitute(factor, rhs, n);
}

std::vector<double> inverse_diagonal(const std::vector<double>& factor, int n) {
  std::vector<double> diagonal(n, 0.0), y(n);
  for (int j = 0; j < n; ++j) {  // L y = e_j: y is 0 above j
    y[j] = 1.0 / factor[j * n + j];
    double sum = y[j] * y[j];
    for (int i = j + 1; i < n; ++i) {
      double value = 0;
      for (int k = j; k < i; ++k) value -= factor[i * n + k] * y[k];
      y[i] = value / factor[i * n + i];
      sum += y[i] * y[i];
    }
    diagonal[j] = sum;
  }
  return diagonal;
}

Expected<std::vector<double>> invert_symmetric(const std::vector<double>& matrix, int n) {
  std::vector<double> l = matrix;
  if (n <= 0 || static_cast<int>(matrix.size()) != n * n || !cholesky(l, n)) {
    return make_error(ErrorCode::kInvalidArgument, "matrix is not positive definite");
  }
  std::vector<double> inverse(n * n, 0.0), column(n);
  for (int j = 0; j < n; ++j) {
    std::fill(column.begin(), column.end(), 0.0);
    column[j] = 1.0;
    cholesky_substitute(l, column.data(), n);
    for (int i = 0; i < n; ++i) inverse[i * n + j] = column[i];
  }
  // Symmetrise: the two triangles differ in the last bits after substitution.
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double mean = 0.5 * (inverse[i * n + j] + inverse[j * n + i]);
      inverse[i * n + j] = inverse[j * n + i] = mean;
    }
  }
  return inverse;
}

bool solve_symmetric(std::vector<double> matrix, std::vector<double>& rhs, int n) {
  if (static_cast<int>(rhs.size()) != n || !cholesky(matrix, n)) return false;
  cholesky_substitute(matrix, rhs.data(), n);
  return true;
}

std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, total = 0;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        total += a[i * n + j] * a[i * n + j];
        if (i != j) off += a[i * n + j] * a[i * n + j];
      }
    }
    if (off <= 1e-30 * total) break;
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t =
            (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {  // columns p, q
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {  // rows p, q
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
    }
  }
  std::vector<double> values(n);
  for (int i = 0; i < n; ++i) values[i] = a[i * n + i];
  return values;
}

// The condition number of the information in correlation form (unit diagonal), so that it
// measures collinearity of columns and not their units; +inf when not positive.
double scaled_condition(const std::vector<double>& information, int n) {
  std::vector<double> scaled(information.size());
  for (int i = 0; i < n; ++i) {
    if (!(information[i * n + i] > 0)) return INFINITY;
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      scaled[i * n + j] =
          information[i * n + j] / std::sqrt(information[i * n + i] * information[j * n + j]);
    }
  }
  const std::vector<double> eigen = symmetric_eigenvalues(std::move(scaled), n);
  const auto [low, high] = std::minmax_element(eigen.begin(), eigen.end());
  return *low > 0 ? *high / *low : INFINITY;
}

}  // namespace materialist::learn
