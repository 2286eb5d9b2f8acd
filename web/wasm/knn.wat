;; k-NN's candidate search for the page (py/pellucid/learners/neighbors/wasm_kernel.py calls it through
;; web/wasm/knn.mjs): for a block of queries, the score of every training row, fused with the choice of
;; the rows that can be among each query's k nearest, never writing the block's score matrix.
;;
;; A score is one dot product of length d: left (a query's row: [-2 q_c, 1] for Euclidean distances,
;; [-q_unit, 1] for cosine) with right (a training row: [x_c, |x_c|^2], or [x_unit, 0]). It orders the
;; rows as their distances do, up to the query's rounding slack (distance_scores.py says why).
;;
;; Layout (byte addresses into this module's memory, chosen by knn.mjs; all 16-byte aligned):
;;   panels  the training rows in panels of 8: panel p holds for each of the d features the 8 rows'
;;           values (d x 8 floats); rows past the last are NaN, so they never pass a comparison
;;   left    the queries in groups of 4: group g holds for each feature the 4 queries' values (d x 4)
;;   slack   one f64 per query
;;   state   16 bytes per query: heap size (i32), candidates kept (i32), limit (f32), overflowed (i32)
;;   heap    k floats per query: a max-heap of the k smallest scores so far
;;   rows, scores   `cap` entries per query: the candidates kept (training row, score)
;;   0..31   scratch: the 8 scores of a panel when some pass
;;
;; For each query the limit is the k-th smallest score so far plus the slack, rounded up (+inf until k
;; rows are seen). It only falls, so a row above it when scored stays above the final limit: every row
;; at or below the final limit was kept. When a query's `cap` entries fill, those above its limit are
;; dropped; if that frees nothing the query is marked overflowed (the caller searches it again in numpy).

(module
  (memory (export "memory") 1)

  (global $k (mut i32) (i32.const 0))
  (global $cap (mut i32) (i32.const 0))
  (global $slack (mut i32) (i32.const 0))
  (global $state (mut i32) (i32.const 0))
  (global $heap (mut i32) (i32.const 0))
  (global $rows (mut i32) (i32.const 0))
  (global $scores (mut i32) (i32.const 0))

  ;; kth + slack in float32, rounded up: rounding down could leave out a row at the limit.
  (func $limit (param $kth f32) (param $slack f64) (result f32)
    (local $sum f64) (local $lim f32)
    (local.set $sum (f64.add (f64.promote_f32 (local.get $kth)) (local.get $slack)))
    (local.set $lim (f32.demote_f64 (local.get $sum)))
    (if (f64.lt (f64.promote_f32 (local.get $lim)) (local.get $sum))
      (then
        (if (f32.eq (local.get $lim) (f32.const 0))
          (then (return (f32.reinterpret_i32 (i32.const 1)))))  ;; the smallest positive float
        ;; the next float up: one more in the bits of a positive one, one less of a negative one
        (local.set $lim (f32.reinterpret_i32
          (i32.add (i32.reinterpret_f32 (local.get $lim))
                   (select (i32.const 1) (i32.const -1) (f32.gt (local.get $lim) (f32.const 0))))))))
    (local.get $lim))

  ;; Keeps only the query's candidates at or below `lim`; returns how many stay.
  (func $compact (param $q i32) (param $lim f32) (result i32)
    (local $base i32) (local $i i32) (local $kept i32) (local $count i32) (local $s f32)
    (local.set $base (i32.shl (i32.mul (local.get $q) (global.get $cap)) (i32.const 2)))
    (local.set $count (i32.load offset=4 (i32.add (global.get $state) (i32.shl (local.get $q) (i32.const 4)))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $s (f32.load (i32.add (global.get $scores) (i32.add (local.get $base) (i32.shl (local.get $i) (i32.const 2))))))
        (if (f32.le (local.get $s) (local.get $lim))
          (then
            (f32.store (i32.add (global.get $scores) (i32.add (local.get $base) (i32.shl (local.get $kept) (i32.const 2))))
                       (local.get $s))
            (i32.store (i32.add (global.get $rows) (i32.add (local.get $base) (i32.shl (local.get $kept) (i32.const 2))))
                       (i32.load (i32.add (global.get $rows) (i32.add (local.get $base) (i32.shl (local.get $i) (i32.const 2))))))
            (local.set $kept (i32.add (local.get $kept) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.store offset=4 (i32.add (global.get $state) (i32.shl (local.get $q) (i32.const 4))) (local.get $kept))
    (local.get $kept))

  ;; Puts score s into query q's max-heap of the k smallest, which holds n < k of them.
  (func $heap_push (param $h i32) (param $n i32) (param $s f32)
    (local $parent i32) (local $pv f32)
    (block $placed
      (loop $up
        (br_if $placed (i32.eqz (local.get $n)))
        (local.set $parent (i32.shr_u (i32.sub (local.get $n) (i32.const 1)) (i32.const 1)))
        (local.set $pv (f32.load (i32.add (local.get $h) (i32.shl (local.get $parent) (i32.const 2)))))
        (br_if $placed (f32.ge (local.get $pv) (local.get $s)))
        (f32.store (i32.add (local.get $h) (i32.shl (local.get $n) (i32.const 2))) (local.get $pv))
        (local.set $n (local.get $parent))
        (br $up)))
    (f32.store (i32.add (local.get $h) (i32.shl (local.get $n) (i32.const 2))) (local.get $s)))

  ;; Replaces the largest of the k scores in the full heap at h by s (which is smaller).
  (func $heap_replace_top (param $h i32) (param $s f32)
    (local $i i32) (local $child i32) (local $cv f32) (local $rv f32)
    (block $placed
      (loop $down
        (local.set $child (i32.add (i32.shl (local.get $i) (i32.const 1)) (i32.const 1)))
        (br_if $placed (i32.ge_u (local.get $child) (global.get $k)))
        (local.set $cv (f32.load (i32.add (local.get $h) (i32.shl (local.get $child) (i32.const 2)))))
        (if (i32.lt_u (i32.add (local.get $child) (i32.const 1)) (global.get $k))
          (then
            (local.set $rv (f32.load offset=4 (i32.add (local.get $h) (i32.shl (local.get $child) (i32.const 2)))))
            (if (f32.gt (local.get $rv) (local.get $cv))
              (then (local.set $child (i32.add (local.get $child) (i32.const 1)))
                    (local.set $cv (local.get $rv))))))
        (br_if $placed (f32.le (local.get $cv) (local.get $s)))
        (f32.store (i32.add (local.get $h) (i32.shl (local.get $i) (i32.const 2))) (local.get $cv))
        (local.set $i (local.get $child))
        (br $down)))
    (f32.store (i32.add (local.get $h) (i32.shl (local.get $i) (i32.const 2))) (local.get $s)))

  ;; Training row `row` scored s for query q: keep it if it is at or below the query's limit, and
  ;; lower the limit when it is among the k smallest so far.
  (func $offer (param $q i32) (param $row i32) (param $s f32)
    (local $st i32) (local $count i32) (local $at i32) (local $h i32) (local $n i32)
    (local.set $st (i32.add (global.get $state) (i32.shl (local.get $q) (i32.const 4))))
    (if (i32.eqz (f32.le (local.get $s) (f32.load offset=8 (local.get $st)))) (then (return)))
    (local.set $count (i32.load offset=4 (local.get $st)))
    (if (i32.eq (local.get $count) (global.get $cap))
      (then
        (local.set $count (call $compact (local.get $q) (f32.load offset=8 (local.get $st))))
        (if (i32.eq (local.get $count) (global.get $cap))
          (then  ;; nothing to drop: give up on this query (a limit of -inf lets no row through)
            (i32.store offset=12 (local.get $st) (i32.const 1))
            (f32.store offset=8 (local.get $st) (f32.const -inf))
            (return)))))
    (local.set $at (i32.shl (i32.add (i32.mul (local.get $q) (global.get $cap)) (local.get $count)) (i32.const 2)))
    (i32.store (i32.add (global.get $rows) (local.get $at)) (local.get $row))
    (f32.store (i32.add (global.get $scores) (local.get $at)) (local.get $s))
    (i32.store offset=4 (local.get $st) (i32.add (local.get $count) (i32.const 1)))
    (local.set $h (i32.add (global.get $heap) (i32.shl (i32.mul (local.get $q) (global.get $k)) (i32.const 2))))
    (local.set $n (i32.load (local.get $st)))
    (if (i32.lt_u (local.get $n) (global.get $k))
      (then
        (call $heap_push (local.get $h) (local.get $n) (local.get $s))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (i32.store (local.get $st) (local.get $n))
        (if (i32.lt_u (local.get $n) (global.get $k)) (then (return))))
      (else
        (if (i32.eqz (f32.lt (local.get $s) (f32.load (local.get $h)))) (then (return)))
        (call $heap_replace_top (local.get $h) (local.get $s))))
    (f32.store offset=8 (local.get $st)
      (call $limit (f32.load (local.get $h))
                   (f64.load (i32.add (global.get $slack) (i32.shl (local.get $q) (i32.const 3)))))))

  ;; Some of the 8 scores lo, hi of query q against the panel starting at training row row0 may pass.
  (func $take (param $q i32) (param $row0 i32) (param $lo v128) (param $hi v128)
    (local $i i32)
    (v128.store (i32.const 0) (local.get $lo))
    (v128.store offset=16 (i32.const 0) (local.get $hi))
    (loop $lane
      (call $offer (local.get $q) (i32.add (local.get $row0) (local.get $i))
                   (f32.load (i32.shl (local.get $i) (i32.const 2))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $lane (i32.lt_u (local.get $i) (i32.const 8)))))

  ;; Scores queries 0..nq (nq a multiple of 4) against every training row and keeps their candidates.
  ;; The panels are taken `tile` at a time, and every group of 4 queries goes through a tile before
  ;; the next tile is read, so a tile is read from the cache. Each step of the inner loop multiplies
  ;; one feature of 4 queries by the same feature of 8 rows: 8 sums of 4 lanes held in registers.
  ;; Each query's 8 scores are then compared with its limit at once; only when one passes does it go
  ;; row by row ($take). (Written out here, not called: a call per panel cost a third of the time.)
  (func (export "search")
    (param $panels i32) (param $n_panels i32) (param $d i32) (param $left i32) (param $nq i32)
    (param $tile i32) (param $k i32) (param $cap i32) (param $slack i32) (param $state i32)
    (param $heap i32) (param $rows i32) (param $scores i32)
    (local $q i32) (local $t0 i32) (local $t1 i32) (local $g i32) (local $p i32)
    (local $pp i32) (local $pend i32) (local $lp i32) (local $panel_bytes i32) (local $group_bytes i32)
    (local $r0 v128) (local $r1 v128) (local $s v128) (local $lim v128) (local $st i32) (local $row0 i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $a4 v128) (local $a5 v128) (local $a6 v128) (local $a7 v128)
    (global.set $k (local.get $k))
    (global.set $cap (local.get $cap))
    (global.set $slack (local.get $slack))
    (global.set $state (local.get $state))
    (global.set $heap (local.get $heap))
    (global.set $rows (local.get $rows))
    (global.set $scores (local.get $scores))
    (loop $init  ;; no candidates yet, and every row passes until k have been seen
      (i32.store (local.get $state) (i32.const 0))
      (i32.store offset=4 (local.get $state) (i32.const 0))
      (f32.store offset=8 (local.get $state) (f32.const inf))
      (i32.store offset=12 (local.get $state) (i32.const 0))
      (local.set $state (i32.add (local.get $state) (i32.const 16)))
      (local.set $q (i32.add (local.get $q) (i32.const 1)))
      (br_if $init (i32.lt_u (local.get $q) (local.get $nq))))
    (local.set $panel_bytes (i32.shl (local.get $d) (i32.const 5)))  ;; d x 8 floats
    (local.set $group_bytes (i32.shl (local.get $d) (i32.const 4)))  ;; d x 4 floats
    (block $tiles_done
      (loop $tiles
        (br_if $tiles_done (i32.ge_u (local.get $t0) (local.get $n_panels)))
        (local.set $t1 (i32.add (local.get $t0) (local.get $tile)))
        (if (i32.gt_u (local.get $t1) (local.get $n_panels)) (then (local.set $t1 (local.get $n_panels))))
        (local.set $g (i32.const 0))
        (loop $groups
          (local.set $p (local.get $t0))
          (loop $panels_loop
            (local.set $pp (i32.add (local.get $panels) (i32.mul (local.get $p) (local.get $panel_bytes))))
            (local.set $pend (i32.add (local.get $pp) (local.get $panel_bytes)))
            (local.set $lp (i32.add (local.get $left) (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $group_bytes))))
            (local.set $st (i32.add (global.get $state) (i32.shl (local.get $g) (i32.const 4))))
            (local.set $a0 (v128.const i32x4 0 0 0 0))
            (local.set $a1 (v128.const i32x4 0 0 0 0))
            (local.set $a2 (v128.const i32x4 0 0 0 0))
            (local.set $a3 (v128.const i32x4 0 0 0 0))
            (local.set $a4 (v128.const i32x4 0 0 0 0))
            (local.set $a5 (v128.const i32x4 0 0 0 0))
            (local.set $a6 (v128.const i32x4 0 0 0 0))
            (local.set $a7 (v128.const i32x4 0 0 0 0))
            (loop $features
              (local.set $r0 (v128.load (local.get $pp)))
              (local.set $r1 (v128.load offset=16 (local.get $pp)))
              (local.set $s (v128.load32_splat (local.get $lp)))
              (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $s) (local.get $r0))))
              (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $s) (local.get $r1))))
              (local.set $s (v128.load32_splat offset=4 (local.get $lp)))
              (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $s) (local.get $r0))))
              (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $s) (local.get $r1))))
              (local.set $s (v128.load32_splat offset=8 (local.get $lp)))
              (local.set $a4 (f32x4.add (local.get $a4) (f32x4.mul (local.get $s) (local.get $r0))))
              (local.set $a5 (f32x4.add (local.get $a5) (f32x4.mul (local.get $s) (local.get $r1))))
              (local.set $s (v128.load32_splat offset=12 (local.get $lp)))
              (local.set $a6 (f32x4.add (local.get $a6) (f32x4.mul (local.get $s) (local.get $r0))))
              (local.set $a7 (f32x4.add (local.get $a7) (f32x4.mul (local.get $s) (local.get $r1))))
              (local.set $lp (i32.add (local.get $lp) (i32.const 16)))
              (local.set $pp (i32.add (local.get $pp) (i32.const 32)))
              (br_if $features (i32.lt_u (local.get $pp) (local.get $pend))))
            (local.set $row0 (i32.shl (local.get $p) (i32.const 3)))
            (if (v128.any_true (v128.or
                  (f32x4.le (local.get $a0) (local.tee $lim (v128.load32_splat offset=8 (local.get $st))))
                  (f32x4.le (local.get $a1) (local.get $lim))))
              (then (call $take (local.get $g) (local.get $row0) (local.get $a0) (local.get $a1))))
            (if (v128.any_true (v128.or
                  (f32x4.le (local.get $a2) (local.tee $lim (v128.load32_splat offset=24 (local.get $st))))
                  (f32x4.le (local.get $a3) (local.get $lim))))
              (then (call $take (i32.add (local.get $g) (i32.const 1)) (local.get $row0) (local.get $a2) (local.get $a3))))
            (if (v128.any_true (v128.or
                  (f32x4.le (local.get $a4) (local.tee $lim (v128.load32_splat offset=40 (local.get $st))))
                  (f32x4.le (local.get $a5) (local.get $lim))))
              (then (call $take (i32.add (local.get $g) (i32.const 2)) (local.get $row0) (local.get $a4) (local.get $a5))))
            (if (v128.any_true (v128.or
                  (f32x4.le (local.get $a6) (local.tee $lim (v128.load32_splat offset=56 (local.get $st))))
                  (f32x4.le (local.get $a7) (local.get $lim))))
              (then (call $take (i32.add (local.get $g) (i32.const 3)) (local.get $row0) (local.get $a6) (local.get $a7))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br_if $panels_loop (i32.lt_u (local.get $p) (local.get $t1))))
          (local.set $g (i32.add (local.get $g) (i32.const 4)))
          (br_if $groups (i32.lt_u (local.get $g) (local.get $nq))))
        (local.set $t0 (local.get $t1))
        (br $tiles))))

  ;; After search: writes the candidates of queries 0..nq, query by query, to the start of `rows`
  ;; (each query's entries move only down, so in place) and each query's count to `counts` (-1 for
  ;; an overflowed query). Returns the number of candidates written.
  (func (export "finish") (param $nq i32) (param $counts i32) (result i32)
    (local $q i32) (local $st i32) (local $count i32) (local $total i32) (local $src i32) (local $i i32)
    (local $first i32)
    (local $lim f32) (local $s f32)
    (block $done
      (loop $queries
        (br_if $done (i32.ge_u (local.get $q) (local.get $nq)))
        (local.set $st (i32.add (global.get $state) (i32.shl (local.get $q) (i32.const 4))))
        (if (i32.load offset=12 (local.get $st))
          (then (i32.store (i32.add (local.get $counts) (i32.shl (local.get $q) (i32.const 2))) (i32.const -1)))
          (else
            (local.set $lim (f32.load offset=8 (local.get $st)))
            (local.set $count (i32.load offset=4 (local.get $st)))
            (local.set $src (i32.shl (i32.mul (local.get $q) (global.get $cap)) (i32.const 2)))
            (local.set $i (i32.const 0))
            (local.set $first (local.get $total))
            (block $kept
              (loop $entries
                (br_if $kept (i32.ge_u (local.get $i) (local.get $count)))
                (local.set $s (f32.load (i32.add (global.get $scores) (local.get $src))))
                (if (f32.le (local.get $s) (local.get $lim))
                  (then
                    (i32.store (i32.add (global.get $rows) (i32.shl (local.get $total) (i32.const 2)))
                               (i32.load (i32.add (global.get $rows) (local.get $src))))
                    (local.set $total (i32.add (local.get $total) (i32.const 1)))))
                (local.set $src (i32.add (local.get $src) (i32.const 4)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $entries)))
            (i32.store (i32.add (local.get $counts) (i32.shl (local.get $q) (i32.const 2)))
                       (i32.sub (local.get $total) (local.get $first)))))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $queries)))
    (local.get $total))
)
