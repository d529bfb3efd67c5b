//! FMI 2 `fmi2SetRealInputDerivatives`: first time derivatives of real inputs, for models that
//! declare `canInterpolateInputs` (see [`FmuModel::set_input_derivative`]).

use super::instance::Instance;
use super::status::{Failure, FmiResult, Status};
use crate::model::FmuModel;
use crate::table::{Causality, ValueType};

impl<M: FmuModel> Instance<M> {
    /// Sets `values[i]` as the derivative of order `orders[i]` of the input `vrs[i]`. Only first
    /// derivatives of real inputs are taken; anything else is refused with an error naming the
    /// variable, and the derivatives set before it in the same call stay set (as with a
    /// refused value in a set call).
    pub fn set_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> FmiResult {
        if !M::CAN_INTERPOLATE_INPUTS {
            return Err(Failure::error("canInterpolateInputs is false: this FMU takes no input derivatives".to_string()));
        }
        for ((vr, order), value) in vrs.iter().zip(orders).zip(values) {
            let scalar = self.table.scalar(*vr).ok_or_else(|| Failure::error(format!("unknown value reference {vr}")))?;
            let name = &scalar.name;
            if scalar.variable.causality != Causality::Input || !matches!(scalar.variable.ty, ValueType::Float64 { .. }) {
                return Err(Failure::error(format!(
                    "{name} (vr {vr}) is not a real input: only real inputs take derivatives"
                )));
            }
            if *order != 1 {
                return Err(Failure::error(format!(
                    "derivative order {order} of {name} (vr {vr}) is not supported: only first derivatives (order 1) are taken"
                )));
            }
            self.model.set_input_derivative(*vr, *value).map_err(|e| Failure::error(format!("{name} (vr {vr}): {e}")))?;
        }
        Ok(Status::Ok)
    }
}
