//! Directional, adjoint and output derivatives on an instance: the checks both FMI versions
//! share (array lengths, which value references exist), and the errors that name the variable.
#![forbid(unsafe_code)]

use crate::instance::Instance;
use crate::model::{DerivativeError, FmuModel, ModelError};
use crate::status::{Failure, FmiResult, Status};

impl<M: FmuModel> Instance<M> {
    /// `sensitivity = J seed` (FMI 2 and FMI 3 GetDirectionalDerivative).
    pub fn directional_derivative(&mut self, function: &str, unknowns: &[u32], knowns: &[u32], seed: &[f64], sensitivity: &mut [f64]) -> FmiResult {
        if seed.len() != knowns.len() || sensitivity.len() != unknowns.len() {
            return Err(Failure::error(format!(
                "{function}: {} seed values for {} knowns and {} sensitivities for {} unknowns; the counts must match",
                seed.len(),
                knowns.len(),
                sensitivity.len(),
                unknowns.len()
            )));
        }
        if let Some(bad) = seed.iter().find(|x| !x.is_finite()) {
            return Err(Failure::error(format!("{function}: the seed value {bad} is not finite")));
        }
        let result = self.model.directional_derivative(unknowns, knowns, seed, sensitivity);
        self.finish(function, result)
    }

    /// `sensitivity = seed^T J` (FMI 3 GetAdjointDerivative).
    pub fn adjoint_derivative(&mut self, function: &str, unknowns: &[u32], knowns: &[u32], seed: &[f64], sensitivity: &mut [f64]) -> FmiResult {
        if seed.len() != unknowns.len() || sensitivity.len() != knowns.len() {
            return Err(Failure::error(format!(
                "{function}: {} seed values for {} unknowns and {} sensitivities for {} knowns; the counts must match",
                seed.len(),
                unknowns.len(),
                sensitivity.len(),
                knowns.len()
            )));
        }
        if let Some(bad) = seed.iter().find(|x| !x.is_finite()) {
            return Err(Failure::error(format!("{function}: the seed value {bad} is not finite")));
        }
        let result = self.model.adjoint_derivative(unknowns, knowns, seed, sensitivity);
        self.finish(function, result)
    }

    /// The outputs' time derivatives (FMI 2 GetRealOutputDerivatives, FMI 3 GetOutputDerivatives).
    pub fn output_derivatives(&mut self, function: &str, vrs: &[u32], orders: &[i32], values: &mut [f64]) -> FmiResult {
        if let Some((vr, order)) = vrs.iter().zip(orders).find(|(_, order)| **order < 1 || **order as u32 > M::MAX_OUTPUT_DERIVATIVE_ORDER) {
            return Err(Failure::error(format!(
                "{function}: order {order} asked for value reference {vr} ({}); this FMU gives orders 1 to {} (maxOutputDerivativeOrder)",
                self.name(*vr),
                M::MAX_OUTPUT_DERIVATIVE_ORDER
            )));
        }
        let result = self.model.output_derivatives(vrs, orders, values);
        self.finish(function, result)
    }

    fn name(&self, vr: u32) -> String {
        match self.table.scalar(vr) {
            Some(scalar) => scalar.name.clone(),
            None => "no such variable".to_string(),
        }
    }

    fn finish(&mut self, function: &str, result: Result<(), DerivativeError>) -> FmiResult {
        self.flush_warnings();
        match result {
            Ok(()) => Ok(Status::Ok),
            Err(DerivativeError::Unknown(vr, which)) => {
                Err(Failure::error(format!("{function}: value reference {vr} ({}) is not an unknown: {which}", self.name(vr))))
            }
            Err(DerivativeError::Known(vr, which)) => {
                Err(Failure::error(format!("{function}: value reference {vr} ({}) is not a known: {which}", self.name(vr))))
            }
            Err(DerivativeError::Model(ModelError::NotFinite(message))) => Err(Failure::discard(format!("{function}: {message}"))),
            Err(DerivativeError::Model(ModelError::Invalid(message))) => Err(Failure::error(format!("{function}: {message}"))),
        }
    }
}
