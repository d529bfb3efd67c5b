//! How the block's derivatives are laid out: which inputs they are taken with respect to (their
//! value references minus one: `frame_a.r_0` 0-2, `frame_a.q` 3-6, `frame_a.v_0` 7-9,
//! `frame_a.w_0` 10-12, then the same for `frame_b` from 13), the provided-force inputs, and which
//! outputs have them. Shared by the derivatives ([`super::jacobian`]) and the lean single-point
//! path they differentiate ([`super::single_point`]).

use super::Inputs;

/// How many inputs the derivatives are taken with respect to.
pub const INPUTS: usize = 26;

/// How many provided-force inputs there are: per point slot the normal force and the two
/// friction components (`contact.point[i].provided.*`), slot after slot; index `3 i + c`.
pub const PROVIDED_INPUTS: usize = 3 * super::POINT_OUTPUTS;

/// The outputs whose derivatives are available, by name, in the order of the rows
/// [`Block::output_tangents`](super::Block::output_tangents) returns: the four wrench vectors,
/// `contact.separation` and `contact.normal_force`.
pub const DERIVATIVE_OUTPUTS: [&str; 14] = [
    "frame_a.f_0[1]",
    "frame_a.f_0[2]",
    "frame_a.f_0[3]",
    "frame_a.t_0[1]",
    "frame_a.t_0[2]",
    "frame_a.t_0[3]",
    "frame_b.f_0[1]",
    "frame_b.f_0[2]",
    "frame_b.f_0[3]",
    "frame_b.t_0[1]",
    "frame_b.t_0[2]",
    "frame_b.t_0[3]",
    "contact.separation",
    "contact.normal_force",
];

/// The 26 inputs in value-reference order.
pub fn input_vector(inputs: &Inputs) -> [f64; INPUTS] {
    let mut x = [0.0; INPUTS];
    for (k, frame) in [&inputs.frame_a, &inputs.frame_b].into_iter().enumerate() {
        let o = 13 * k;
        x[o..o + 3].copy_from_slice(&frame.r_0);
        x[o + 3..o + 7].copy_from_slice(&frame.q);
        x[o + 7..o + 10].copy_from_slice(&frame.v_0);
        x[o + 10..o + 13].copy_from_slice(&frame.w_0);
    }
    x
}
