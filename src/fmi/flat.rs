//! The inputs, the real outputs and the Boolean outputs as flat lists of references, for the
//! variable table's fast paths (`FmuModel::with_input_refs`, `FmuModel::with_output_refs`,
//! `FmuModel::with_flag_refs`): a set of many inputs or a get of many outputs then costs one index and one load or store per scalar instead of an accessor
//! call. The table matches each reference to its scalar by address when it is built, so the
//! order here is free (it follows the value references).

use crate::block::{Frame, Inputs, Outputs};

/// How many real outputs [`with_output_refs`] offers: the 23 of the whole contact and 6 per
/// point slot.
pub const FLAT_OUTPUTS: usize = 23 + 6 * crate::block::POINT_OUTPUTS;

/// Calls `f` with a reference to every real output, in value-reference order.
pub fn with_output_refs(o: &Outputs, f: &mut dyn FnMut(&[&f64])) {
    macro_rules! refs {
        ($($k:literal),+) => {
            [
                &o.frame_a.f_0[0], &o.frame_a.f_0[1], &o.frame_a.f_0[2],
                &o.frame_a.t_0[0], &o.frame_a.t_0[1], &o.frame_a.t_0[2],
                &o.frame_b.f_0[0], &o.frame_b.f_0[1], &o.frame_b.f_0[2],
                &o.frame_b.t_0[0], &o.frame_b.t_0[1], &o.frame_b.t_0[2],
                &o.separation, &o.normal_force, &o.friction_force,
                &o.p_0[0], &o.p_0[1], &o.p_0[2],
                &o.n_0[0], &o.n_0[1], &o.n_0[2],
                &o.slip_speed, &o.max_normal_force,
                $(
                    &o.point[$k].separation, &o.point[$k].normal_force, &o.point[$k].friction_force,
                    &o.point[$k].p_0[0], &o.point[$k].p_0[1], &o.point[$k].p_0[2],
                )+
            ]
        };
    }
    let refs: [&f64; FLAT_OUTPUTS] = refs!(0, 1, 2, 3, 4, 5, 6, 7);
    f(&refs);
}

/// Calls `f` with a mutable reference to each of the 26 inputs, in value-reference order (1 to
/// 26).
pub fn with_input_refs(inputs: &mut Inputs, f: &mut dyn FnMut(&mut [&mut f64])) {
    let Inputs {
        frame_a: Frame { r_0: [a0, a1, a2], q: [a3, a4, a5, a6], v_0: [a7, a8, a9], w_0: [a10, a11, a12] },
        frame_b: Frame { r_0: [b0, b1, b2], q: [b3, b4, b5, b6], v_0: [b7, b8, b9], w_0: [b10, b11, b12] },
        // The provided forces go through their accessors (a set of them is rare next to the frames').
        provided: _,
    } = inputs;
    f(&mut [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12]);
}

/// Calls `f` with a reference to every Boolean output, in value-reference order.
pub fn with_flag_refs(o: &Outputs, f: &mut dyn FnMut(&[&bool])) {
    let p = &o.point;
    f(&[&o.active, &o.sticking, &p[0].active, &p[1].active, &p[2].active, &p[3].active, &p[4].active, &p[5].active, &p[6].active, &p[7].active]);
}
