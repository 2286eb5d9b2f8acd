"""Kernel methods (notes 004): `kernel_regression` (kernel ridge regression, `KernelRegression`),
`kernel_perceptron` (the dual perceptron), `kernel_functions` (linear, polynomial and RBF kernels, and
`is_psd`) and `kernel_lattice` (kernel sums over a boundary's grid, a speed-up of predicting it)."""
