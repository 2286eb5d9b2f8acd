"""k-nearest neighbours (notes 004): `neighbors` is the estimators and the search by definition
(`k_nearest`, what explain() shows); `neighbors_fast` finds the same neighbours faster, with `kd_tree`,
`grid` and `grid_exact` (a boundary's lattice of queries) and `wasm_kernel` (the page's WebAssembly
search); `distance_scores` measures distances for both. The estimators search with the fast path; the
definition is what a row's explanation and the tests compare it with."""
