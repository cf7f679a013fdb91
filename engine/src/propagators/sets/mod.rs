//! # Set variables, seen through their characteristic booleans
//!
//! The engine has no set domain. A set variable `S` whose elements may come from a finite
//! universe `U = {u₁ < u₂ < … < uₙ}` is held as `n` 0/1 variables `sᵢ ⇔ uᵢ ∈ S` (its
//! *characteristic* booleans), and the classic set-bounds domain is a view over them:
//!
//! * the **lower bound** (glb) is the elements known to be in: `{uᵢ : sᵢ = 1}`;
//! * the **upper bound** (lub) is the elements not known to be out: `{uᵢ : sᵢ ≠ 0}`;
//! * the **cardinality** `|S| = Σ sᵢ` is a sum over the same booleans.
//!
//! Most set constraints are a conjunction of one small constraint per element (`S ⊆ T` is
//! `sᵢ ⇒ tᵢ` for each `i`; `R = S ∩ T` is `rᵢ ⇔ sᵢ ∧ tᵢ`) and are posted as clauses and
//! sums by the FlatZinc reader (`flatzinc/src/set_builtins.rs`). What no per-element
//! decomposition says well is the **order** of sets, a constraint over all the elements at
//! once: [`order`] propagates it natively.

pub mod order;
