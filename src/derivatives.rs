//! The model's derivatives by value reference, for the FMI layer: directional and adjoint
//! derivatives of the force, torque, separation and normal force outputs with respect to the 26
//! inputs, and the outputs' first time derivatives (`J u̇`), all from
//! [`Block::output_tangents`](crate::block::Block::output_tangents): exact (forward automatic
//! differentiation), not finite differences.
#![forbid(unsafe_code)]

use fmi_export::{DerivativeError, ModelError as FmiModelError};

use crate::block::jacobian::{DerivativeError as BlockError, DERIVATIVE_OUTPUTS, INPUTS, PROVIDED_INPUTS};
use crate::model::Model;
use crate::variables::provided_input_index;

/// Value references of [`DERIVATIVE_OUTPUTS`], in its order.
pub const UNKNOWN_VRS: [u32; DERIVATIVE_OUTPUTS.len()] = [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 114, 115];

const UNKNOWNS: &str = "derivatives are given for frame_a.f_0, frame_a.t_0, frame_b.f_0, frame_b.t_0 (value references \
                        100-111), contact.separation (114) and contact.normal_force (115)";
const KNOWNS: &str = "derivatives are taken with respect to the inputs frame_a.r_0, frame_a.q, frame_a.v_0, frame_a.w_0, \
                      frame_b.r_0, frame_b.q, frame_b.v_0, frame_b.w_0 (value references 1-26) and the provided forces \
                      contact.point[i].provided.normal_force and contact.point[i].provided.friction_force \
                      (value references 1100 + 20 (i - 1) + 14, 15, 16)";

/// The row of an unknown's value reference.
fn row(vr: u32) -> Result<usize, DerivativeError> {
    UNKNOWN_VRS.iter().position(|u| *u == vr).ok_or_else(|| DerivativeError::Unknown(vr, UNKNOWNS.to_string()))
}

/// A known: one of the 26 frame inputs (index 0-25), or a provided force (index as
/// [`PROVIDED_INPUTS`]).
#[derive(Clone, Copy)]
enum Column {
    Frame(usize),
    Provided(usize),
}

fn column(vr: u32) -> Result<Column, DerivativeError> {
    if (1..=INPUTS as u32).contains(&vr) {
        Ok(Column::Frame(vr as usize - 1))
    } else if let Some(index) = provided_input_index(vr) {
        Ok(Column::Provided(index))
    } else {
        Err(DerivativeError::Known(vr, KNOWNS.to_string()))
    }
}

/// The derivatives' rows along the `N` seed directions of the 26 inputs (and, if given, of the
/// provided forces), at the model's inputs, parameters and state.
fn tangents<const N: usize>(
    model: &mut Model,
    seeds: &[[f64; INPUTS]; N],
    provided_seeds: Option<&[[f64; PROVIDED_INPUTS]; N]>,
) -> Result<[[f64; N]; DERIVATIVE_OUTPUTS.len()], DerivativeError> {
    let (block, inputs, states, scratch) = model.derivative_parts().map_err(|e| DerivativeError::Model(FmiModelError::from(e)))?;
    let rows = match provided_seeds {
        None => block.output_tangents(inputs, states, scratch, seeds),
        Some(provided) => block.output_tangents_provided(inputs, states, scratch, seeds, provided),
    }
    .map_err(block_error)?;
    check_finite(rows.iter().flatten())?;
    Ok(rows)
}

fn block_error(e: BlockError) -> DerivativeError {
    match e {
        BlockError::Input(e) => DerivativeError::Model(FmiModelError::Invalid(e.to_string())),
        BlockError::Pair(e) => DerivativeError::Model(FmiModelError::Invalid(e.to_string())),
    }
}

fn check_finite<'a>(mut values: impl Iterator<Item = &'a f64>) -> Result<(), DerivativeError> {
    if values.any(|x| !x.is_finite()) {
        return Err(DerivativeError::Model(FmiModelError::NotFinite(
            "the derivatives are not finite at these inputs (a point exactly at a kink of its law or its geometry, \
             for example a contact point exactly at zero depth)"
                .to_string(),
        )));
    }
    Ok(())
}

/// `sensitivity = J seed` for the rows `unknowns` and the columns `knowns`.
pub fn directional(model: &mut Model, unknowns: &[u32], knowns: &[u32], seed: &[f64], sensitivity: &mut [f64]) -> Result<(), DerivativeError> {
    let rows: Vec<usize> = unknowns.iter().map(|vr| row(*vr)).collect::<Result<_, _>>()?;
    let mut direction = [0.0; INPUTS];
    let mut provided = [0.0; PROVIDED_INPUTS];
    let mut any_provided = false;
    for (vr, s) in knowns.iter().zip(seed) {
        match column(*vr)? {
            Column::Frame(k) => direction[k] += s,
            Column::Provided(k) => {
                provided[k] += s;
                any_provided = true;
            }
        }
    }
    let tangents = tangents(model, &[direction], any_provided.then_some(&[provided]))?;
    for (out, r) in sensitivity.iter_mut().zip(rows) {
        *out = tangents[r][0];
    }
    Ok(())
}

/// `sensitivity = seed^T J` for the rows `unknowns` and the columns `knowns`: the whole
/// Jacobian in one pass over 26 tangents, then the product.
pub fn adjoint(model: &mut Model, unknowns: &[u32], knowns: &[u32], seed: &[f64], sensitivity: &mut [f64]) -> Result<(), DerivativeError> {
    let rows: Vec<usize> = unknowns.iter().map(|vr| row(*vr)).collect::<Result<_, _>>()?;
    let columns: Vec<Column> = knowns.iter().map(|vr| column(*vr)).collect::<Result<_, _>>()?;
    let units: [[f64; INPUTS]; INPUTS] = std::array::from_fn(|j| std::array::from_fn(|k| if j == k { 1.0 } else { 0.0 }));
    let jacobian = tangents(model, &units, None)?;
    // The provided forces' columns in a second pass, only when asked for.
    let provided_jacobian = if columns.iter().any(|c| matches!(c, Column::Provided(_))) {
        let units: [[f64; PROVIDED_INPUTS]; PROVIDED_INPUTS] = std::array::from_fn(|j| std::array::from_fn(|k| if j == k { 1.0 } else { 0.0 }));
        tangents(model, &[[0.0; INPUTS]; PROVIDED_INPUTS], Some(&units))?
    } else {
        // No provided column is read.
        [[0.0; PROVIDED_INPUTS]; DERIVATIVE_OUTPUTS.len()]
    };
    for (out, c) in sensitivity.iter_mut().zip(columns) {
        *out = match c {
            Column::Frame(c) => rows.iter().zip(seed).map(|(r, s)| s * jacobian[*r][c]).sum(),
            Column::Provided(c) => rows.iter().zip(seed).map(|(r, s)| s * provided_jacobian[*r][c]).sum(),
        };
    }
    Ok(())
}

/// The first time derivatives of the outputs `vrs` (orders checked by the FMI layer: 1 only):
/// `J u̇` with the inputs' rates from [`input_rates`](crate::block::jacobian::input_rates), plus
/// the deflection states' own rates ([`Block::output_rates`](crate::block::Block::output_rates)).
pub fn output_rates(model: &mut Model, vrs: &[u32], _orders: &[i32], values: &mut [f64]) -> Result<(), DerivativeError> {
    let rows: Vec<usize> = vrs.iter().map(|vr| row(*vr)).collect::<Result<_, _>>()?;
    // The twists' rates the importer gave with fmi2SetRealInputDerivatives for the coming step
    // (zero when none were given, or once a completed DoStep has used them up: the twists are
    // then taken as constant).
    let given = *model.input_derivatives();
    let (block, inputs, states, scratch) = model.derivative_parts().map_err(|e| DerivativeError::Model(FmiModelError::from(e)))?;
    let rates = block.output_rates(inputs, states, scratch, Some(&given)).map_err(block_error)?;
    check_finite(rates.iter())?;
    for (out, r) in values.iter_mut().zip(rows) {
        *out = rates[r];
    }
    Ok(())
}
