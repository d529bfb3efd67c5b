//! [`Coupling`]'s numbers in a serialized FMU state: every field that carries over a step, the
//! run behind the held outputs included (so that a restored state steps exactly as the one it
//! was taken from), in one fixed order (`contact_physics::state_bytes`). The scratch space is not
//! kept.

use contact_physics::math::{BodyState, Vec3};
use contact_physics::rigid_motion::{External, Motion};
use contact_physics::state_bytes::{list, option, Reader, Visit, Writer};

use super::{zero, Averaged, Coupling, ForceTorque, Pending, Run, RECENT_STEPS};
use crate::scene::{BodyOutput, SceneOutputs, Workspace};

/// The most bodies and pairs a state may hold (a count read past them is damage).
const MAX_ITEMS: usize = 1 << 20;

fn bodies(v: &mut dyn Visit, items: &mut Vec<BodyState>) {
    list(v, items, MAX_ITEMS, BodyState::at_rest(), |v, b| v.body(b));
}

fn motions(v: &mut dyn Visit, items: &mut Vec<Motion>) {
    list(v, items, MAX_ITEMS, Motion::still(), |v, m| v.motion(m));
}

fn vecs(v: &mut dyn Visit, items: &mut Vec<Vec3>) {
    list(v, items, MAX_ITEMS, Vec3::zeros(), |v, x| v.vec(x));
}

fn wrenches(v: &mut dyn Visit, items: &mut Vec<ForceTorque>) {
    list(v, items, MAX_ITEMS, zero(), |v, w| v.wrench(w));
}

fn flags(v: &mut dyn Visit, items: &mut Vec<bool>) {
    list(v, items, MAX_ITEMS, false, |v, b| v.flag(b));
}

fn nums(v: &mut dyn Visit, items: &mut Vec<f64>) {
    list(v, items, MAX_ITEMS, 0.0, |v, x| v.num(x));
}

fn index(v: &mut dyn Visit, i: &mut u32) {
    let mut n = *i as usize;
    v.count(&mut n, u32::MAX as usize);
    *i = n as u32;
}

fn peak(v: &mut dyn Visit, p: &mut SceneOutputs) {
    list(v, &mut p.bodies, MAX_ITEMS, BodyOutput::default(), |v, b| {
        v.vec(&mut b.f_0);
        v.vec(&mut b.t_0);
        index(v, &mut b.touching);
        v.num(&mut b.max_normal_force);
    });
    v.count(&mut p.active_contacts, usize::MAX);
    v.num(&mut p.max_penetration);
}

fn averaged(v: &mut dyn Visit, a: &mut Averaged) {
    wrenches(v, &mut a.wrenches);
    motions(v, &mut a.end);
    peak(v, &mut a.peak);
    flags(v, &mut a.touched);
    flags(v, &mut a.touching_at_end);
    nums(v, &mut a.normal_force);
    list(v, &mut a.pairs, MAX_ITEMS, (0, 0), |v, (i, j)| {
        index(v, i);
        index(v, j);
    });
}

fn empty_averaged() -> Averaged {
    Averaged {
        wrenches: Vec::new(),
        end: Vec::new(),
        peak: SceneOutputs::default(),
        touched: Vec::new(),
        touching_at_end: Vec::new(),
        normal_force: Vec::new(),
        pairs: Vec::new(),
    }
}

impl Coupling {
    fn visit(&mut self, v: &mut dyn Visit) {
        list(v, &mut self.external, MAX_ITEMS, External::default(), |v, e| {
            v.vec(&mut e.accel);
            v.vec(&mut e.torque);
        });
        vecs(v, &mut self.drift);
        vecs(v, &mut self.v_offset);
        list(v, &mut self.island, MAX_ITEMS, 0, |v, l| {
            let mut n = *l as usize;
            v.count(&mut n, usize::MAX);
            *l = n as u64;
        });
        let mut next = self.next_island as usize;
        v.count(&mut next, usize::MAX);
        self.next_island = next as u64;
        v.flag(&mut self.measured);
        wrenches(v, &mut self.owed);
        option(v, &mut self.predicted, Vec::new(), bodies);
        let pending = Pending { start: Vec::new(), own_start: Vec::new(), own_end: Vec::new(), held: Vec::new(), touched: Vec::new(), v_offset: Vec::new(), redo_owed: Vec::new(), h: 0.0 };
        option(v, &mut self.pending, pending, |v, p| {
            bodies(v, &mut p.start);
            bodies(v, &mut p.own_start);
            motions(v, &mut p.own_end);
            wrenches(v, &mut p.held);
            flags(v, &mut p.touched);
            vecs(v, &mut p.v_offset);
            vecs(v, &mut p.redo_owed);
            v.num(&mut p.h);
        });
        let run = Run { h: 0.0, reported: Vec::new(), own: Vec::new(), averaged: empty_averaged(), output: Vec::new(), pay: Vec::new(), unseen: Vec::new(), correction: Vec::new() };
        option(v, &mut self.run, run, |v, r| {
            v.num(&mut r.h);
            bodies(v, &mut r.reported);
            bodies(v, &mut r.own);
            averaged(v, &mut r.averaged);
            wrenches(v, &mut r.output);
            wrenches(v, &mut r.pay);
            vecs(v, &mut r.unseen);
            vecs(v, &mut r.correction);
        });
        list(v, &mut self.correction, MAX_ITEMS, [Vec3::zeros(); 2], |v, [a, b]| {
            v.vec(a);
            v.vec(b);
        });
        list(v, &mut self.steady, MAX_ITEMS, 0, |v, s| index(v, s));
        nums(v, &mut self.normal_force);
        for x in &mut self.recent_steps {
            v.num(x);
        }
        v.flag(&mut self.inputs_at_end);
        index(v, &mut self.order_votes);
        nums(v, &mut self.response);
        list(v, &mut self.response_sample, MAX_ITEMS, None, |v, sample| {
            option(v, sample, (Vec3::zeros(), Vec3::zeros()), |v, (impulse, dv)| {
                v.vec(impulse);
                v.vec(dv);
            });
        });
        vecs(v, &mut self.last_held);
    }

    /// Appends the coupling's state to a serialized FMU state (little-endian f64s).
    pub fn write(&self, out: &mut Vec<u8>) {
        self.clone().visit(&mut Writer(out));
    }

    /// Inverse of [`Coupling::write`], reading each f64 from `next`, for a scene of `bodies`
    /// bodies: damage, or a state of another number of bodies, is an error.
    pub fn read(bodies: usize, next: impl FnMut() -> Result<f64, String>) -> Result<Coupling, String> {
        let mut c = Coupling {
            external: Vec::new(),
            drift: Vec::new(),
            v_offset: Vec::new(),
            island: Vec::new(),
            next_island: 0,
            measured: false,
            owed: Vec::new(),
            predicted: None,
            pending: None,
            run: None,
            correction: Vec::new(),
            steady: Vec::new(),
            normal_force: Vec::new(),
            recent_steps: [0.0; RECENT_STEPS],
            inputs_at_end: false,
            order_votes: 0,
            response: Vec::new(),
            response_sample: Vec::new(),
            last_held: Vec::new(),
            work: Workspace::default(),
        };
        let mut r = Reader { next, error: None };
        c.visit(&mut r);
        if let Some(e) = r.error {
            return Err(e);
        }
        let per_body = [c.external.len(), c.drift.len(), c.v_offset.len(), c.island.len(), c.owed.len(), c.correction.len(), c.steady.len(), c.normal_force.len(), c.response.len(), c.response_sample.len(), c.last_held.len()];
        if per_body.iter().any(|n| *n != bodies) {
            return Err(format!("the serialized FMU state's coupling is for {} bodies, the scene has {bodies}", c.external.len()));
        }
        Ok(c)
    }

    /// How many bodies the coupling is for.
    pub fn bodies(&self) -> usize {
        self.external.len()
    }

    /// The wrenches of the run behind the held outputs and its peaks, if there is one.
    pub fn held(&self) -> Option<(&[ForceTorque], &SceneOutputs)> {
        self.run.as_ref().map(|r| (r.output.as_slice(), &r.averaged.peak))
    }
}
