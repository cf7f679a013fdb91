//! # Explanations: which propagator removed a value, and why
//!
//! A human solver justifies every pencil mark she erases: "not 5 here, because there is a 5
//! in this row". A propagator does the same work, but silently. This file makes it speak.
//!
//! **Recording.** When a [`RemovalRecorder`] is switched on (`Model::start_recording`),
//! the fixpoint loop hands it every propagator run. For each run it counts the values
//! removed (the trace's per-node summary: which propagators removed how much), and when the
//! propagator watches one of the variables to explain, it keeps a copy of the domains of the
//! propagator's variables *just before* the run: the propagator's inputs. A [`Removal`]
//! says: this propagator, given these domains, removed these values from that variable.
//! Switched off, the recorder costs one test per fixpoint: the loop has a second copy for
//! recording (propagation.rs; docs/PERFORMANCE.md, "The removal recorder switched off").
//!
//! **Explaining.** The inputs of a propagator over many variables are mostly irrelevant to
//! one removal: a Sudoku row's all-different removes 5 from r1c1 because r1c4 = 5, whatever
//! the other cells hold. `Model::explain` (model/explain.rs: the model's half, above the
//! propagation loop that holds the recorder) finds the inputs that matter by trying: it
//! forgets one input at a time (gives it every value of the propagator's range), runs the
//! propagator alone, from scratch, on a fresh store with what is left, and keeps the input
//! forgotten if the value is still removed. Of an input that must stay it then tries the
//! bounds alone. What remains is a [`Reason`]: a small set of domains that, on their own,
//! make the propagator remove the value. It is not a paraphrase: `Model::reproduces`
//! re-applies it, and the explanation is only given when that check passes.
//!
//! (A propagator justifying its prunings is what a *lazy clause generation* solver such as
//! Pumpkin or Chuffed asks of every propagator, to learn clauses from conflicts. Here the
//! reasons are found after the fact, by re-running the reference algorithm, which needs
//! nothing from the propagators but their `propagate_from_scratch`.)

use crate::domain::Domain;
use crate::propagator::{Context, PropResult, Propagator};
use crate::store::VarId;

/// Which variables' removals are recorded with their inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Watched {
    /// None: only the counts per propagator run (for the trace).
    Nothing,
    /// These variables.
    Vars(Vec<VarId>),
    /// Every variable.
    All,
}

/// One propagator run that removed values from a watched variable.
#[derive(Clone, Debug)]
pub struct Removal {
    /// The fixpoint it happened in (see [`RemovalRecorder::fixpoints`]).
    pub fixpoint: u64,
    /// The propagator (its number in the model) and its name.
    pub propagator: u32,
    pub name: &'static str,
    /// The variable that lost values, and the values it lost.
    pub var: VarId,
    pub values: Vec<i32>,
    /// The domain of each variable the propagator watches just before the run (`var`'s too).
    pub inputs: Vec<(VarId, Domain)>,
}

/// Why `propagator` removed `value` from `var`: it does so on its own, run from scratch,
/// when the variables of `stated` have those domains and every other variable has
/// `others` (which holds every value of the propagator's variables when recording began).
#[derive(Clone, Debug)]
pub struct Reason {
    pub propagator: u32,
    pub name: &'static str,
    pub var: VarId,
    pub value: i32,
    /// The inputs that matter: each variable's domain before the run, or only its bounds
    /// (then the domain is the whole interval between them).
    pub stated: Vec<(VarId, Domain)>,
    /// The domain given to every variable not in `stated`.
    pub others: Domain,
}

/// What the fixpoint loop records while it is switched on.
#[derive(Clone, Debug)]
pub struct RemovalRecorder {
    watched: Watched,
    /// `is_watched[x]` for `Watched::Vars` (empty otherwise).
    is_watched: Vec<bool>,
    /// Per propagator, its variables (from its subscriptions, each once), filled when the
    /// propagator first runs; and whether any of them is watched.
    inputs: Vec<Option<(Vec<VarId>, bool)>>,
    /// Every domain when recording began: what "any value" means for an input.
    pub(crate) initial: Vec<Domain>,
    /// Fixpoints begun since recording began (the first is number 1).
    pub fixpoints: u64,
    /// The runs of the latest fixpoint that removed values: (propagator, values removed).
    latest: Vec<(u32, u64)>,
    /// Every removal from a watched variable, in order.
    removals: Vec<Removal>,
}

impl RemovalRecorder {
    /// Record the removals from `watched` in a model whose domains are `domains`.
    pub(crate) fn new(watched: Watched, domains: &[Domain]) -> RemovalRecorder {
        let mut is_watched = Vec::new();
        if let Watched::Vars(vars) = &watched {
            is_watched = vec![false; domains.len()];
            for x in vars {
                if let Some(w) = is_watched.get_mut(x.index()) {
                    *w = true;
                }
            }
        }
        RemovalRecorder {
            watched,
            is_watched,
            inputs: Vec::new(),
            initial: domains.to_vec(),
            fixpoints: 0,
            latest: Vec::new(),
            removals: Vec::new(),
        }
    }

    fn watches(&self, x: VarId) -> bool {
        match self.watched {
            Watched::Nothing => false,
            Watched::All => true,
            Watched::Vars(_) => self.is_watched.get(x.index()).copied().unwrap_or(false),
        }
    }

    /// The removals recorded so far, in order.
    pub fn removals(&self) -> &[Removal] {
        &self.removals
    }

    /// The propagator runs of the latest fixpoint (number [`RemovalRecorder::fixpoints`])
    /// that removed values: (propagator, how many values), in the order they ran.
    pub fn latest_fixpoint(&self) -> &[(u32, u64)] {
        &self.latest
    }

    /// The fixpoint loop begins a fixpoint.
    pub(crate) fn begin_fixpoint(&mut self) {
        self.fixpoints += 1;
        self.latest.clear();
    }

    /// The fixpoint loop runs propagator `p` through `run`: count what it removes and, if it
    /// watches a watched variable, record its removals from it with the inputs.
    pub(crate) fn record(
        &mut self,
        p: u32,
        prop: &mut Box<dyn Propagator>,
        ctx: &mut Context<'_>,
        run: impl FnOnce(&mut Box<dyn Propagator>, &mut Context<'_>) -> PropResult,
    ) -> PropResult {
        let removed_before = ctx.removed_count();
        let i = p as usize;
        if self.inputs.len() <= i {
            self.inputs.resize(i + 1, None);
        }
        if self.inputs[i].is_none() && self.watched != Watched::Nothing {
            let mut vars: Vec<VarId> = prop.subscriptions().iter().map(|s| s.var).collect();
            vars.sort_by_key(|x| x.0);
            vars.dedup();
            let any = vars.iter().any(|&x| self.watches(x));
            self.inputs[i] = Some((vars, any));
        }
        let before: Vec<(VarId, Domain)> = match &self.inputs[i] {
            Some((vars, true)) => vars.iter().map(|&x| (x, ctx.domain(x).clone())).collect(),
            _ => Vec::new(),
        };
        let result = run(prop, ctx);
        let removed = ctx.removed_count() - removed_before;
        if removed == 0 {
            return result;
        }
        self.latest.push((p, removed));
        // A run that failed removed values on the way to a conflict: the node fails, and
        // those removals explain nothing.
        result?;
        for (x, was) in &before {
            if !self.watches(*x) || ctx.size(*x) == was.size() {
                continue;
            }
            let values: Vec<i32> = was.iter().filter(|&v| !ctx.contains(*x, v)).collect();
            self.removals.push(Removal {
                fixpoint: self.fixpoints,
                propagator: p,
                name: prop.name(),
                var: *x,
                values,
                inputs: before.clone(),
            });
        }
        Ok(())
    }
}
