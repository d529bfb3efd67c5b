//! The fast paths of the variable table (src/model/flat.rs: the model offers its 26 frame inputs
//! and 71 real outputs as references; the point slots of the laws provided by input go through
//! their accessors, in the same lists here) give exactly what the scalar paths give: the same values bit
//! for bit, the same first refusal, the same lazy evaluation. `Table::get_floats` and
//! `Table::set_floats` serve fmi2GetReal/fmi2SetReal and fmi3GetFloat64/fmi3SetFloat64 alike.

use contact_force::model::Model;
use contact_force::variables;
use fmi_export::table::{Causality, IntKind, SetPhase, ValueType};
use fmi_export::FmuModel;

fn vr(name: &str) -> u32 {
    variables::table().by_name(name).unwrap_or_else(|| panic!("no variable {name}")).vr
}

fn vrs(causality: Causality) -> Vec<u32> {
    variables::scalars()
        .iter()
        .filter(|s| s.causality() == causality && matches!(s.variable.ty, ValueType::Float64 { .. }))
        .map(|s| s.vr)
        .collect()
}

#[test]
fn every_real_output_and_every_input_is_reached_through_a_reference() {
    // Besides these, each of the 8 point slots has 14 real outputs and 3 inputs for the laws
    // provided by input, and each body an effective mass output and 21 mobility inputs, which go
    // through their accessors (a reference to each would make every get and set of the others
    // longer).
    assert_eq!(vrs(Causality::Output).len(), 71 + 8 * 14 + 2);
    assert_eq!(vrs(Causality::Input).len(), 26 + 8 * 3 + 2 * 21);
    assert_eq!(variables::table().flat_scalars(), (71, 26));
}

/// An initialised model: B a sphere (default) or a tilted box over A's plane, in contact.
fn model(shape_b: Option<i64>) -> Model {
    let table = Model::table();
    let mut model = Model::new(None);
    if let Some(shape) = shape_b {
        table.set_int(&mut model, vr("geometry_b.shape"), shape, IntKind::Fmi2Integer, SetPhase::Initializing).unwrap();
        for k in 1..=3 {
            table.set_float(&mut model, vr(&format!("geometry_b.size[{k}]")), 0.1, SetPhase::Initializing).unwrap();
        }
    }
    FmuModel::initialize(&mut model).unwrap();
    model
}

/// Inputs that put B in contact with A, sliding and turning, with a slightly tilted B.
fn inputs(k: f64) -> Vec<f64> {
    let (s, c) = (0.05f64 + k * 1e-3).sin_cos();
    let mut values = vec![0.0; 26];
    values[3] = 1.0; // frame_a.q[1]
    values[13] = 0.01 * k; // frame_b.r_0[1]
    values[15] = 0.0495; // frame_b.r_0[3]
    values[16] = c; // frame_b.q[1]
    values[17] = s; // frame_b.q[2]
    values[20] = 0.1; // frame_b.v_0[1]
    values[22] = -0.01; // frame_b.v_0[3]
    values[24] = 0.3; // frame_b.w_0[1]
    values
}

#[test]
fn gets_of_outputs_read_what_scalar_gets_read() {
    let table = Model::table();
    let outputs = vrs(Causality::Output);
    let mut reversed = outputs.clone();
    reversed.reverse();
    // Runs, a reversal, repeats, gaps, other types and causalities, an unknown reference.
    let mut mixed: Vec<u32> = outputs.iter().step_by(3).copied().collect();
    mixed.extend([vr("contact.normal_force"), vr("contact.normal_force"), vr("frame_b.r_0[3]"), 0, vr("normal.stiffness")]);
    mixed.extend(outputs.iter().rev().step_by(2));
    let with_boolean = [vr("frame_a.f_0[1]"), vr("contact.active"), vr("frame_a.f_0[2]")];
    let with_unknown = [vr("frame_a.f_0[1]"), 99_999, vr("frame_a.f_0[2]")];
    let lists: [&[u32]; 5] = [&outputs, &reversed, &mixed, &with_boolean, &with_unknown];
    for shape in [None, Some(3)] {
        let inputs_vrs = vrs(Causality::Input);
        for k in 0..4 {
            let values = inputs(f64::from(k));
            for list in lists {
                let mut fast = model(shape);
                let mut reference = model(shape);
                table.set_floats(&mut fast, &inputs_vrs, &values, SetPhase::Running).unwrap();
                for (&vr, &value) in inputs_vrs.iter().zip(&values) {
                    table.set_float(&mut reference, vr, value, SetPhase::Running).unwrap();
                }
                let mut got = vec![f64::NAN; list.len()];
                let result = table.get_floats(&mut fast, list, &mut got);
                assert_eq!(fast.evaluations(), 1, "{shape:?} {k}: one evaluation per get");
                let mut first_error = None;
                for (i, &vr) in list.iter().enumerate() {
                    match table.get_float(&mut reference, vr) {
                        Ok(expected) => assert_eq!(got[i].to_bits(), expected.to_bits(), "{shape:?} {k}: {vr}"),
                        Err(e) => {
                            first_error = Some(e);
                            break;
                        }
                    }
                }
                assert_eq!(result.err(), first_error, "{shape:?} {k} {list:?}");
                // Repeated gets without a set do not recompute.
                table.get_floats(&mut fast, list, &mut got).ok();
                assert_eq!(fast.evaluations(), 1);
            }
            // Box in contact with several points: the per-point outputs are not all zero.
            if shape.is_some() {
                let mut m = model(shape);
                table.set_floats(&mut m, &inputs_vrs, &values, SetPhase::Running).unwrap();
                assert!(table.get_float(&mut m, vr("contact.points")).is_err(), "contact.points is an Int32");
                let mut all = vec![0.0; outputs.len()];
                table.get_floats(&mut m, &outputs, &mut all).unwrap();
                assert!(all.iter().filter(|x| **x != 0.0).count() > 30, "{all:?}");
            }
        }
    }
}

#[test]
fn sets_of_inputs_write_what_scalar_sets_write_and_stop_at_the_first_refusal() {
    let table = Model::table();
    let inputs_vrs = vrs(Causality::Input);
    let mut shuffled: Vec<u32> = inputs_vrs.iter().rev().step_by(2).chain(inputs_vrs.iter().step_by(2)).copied().collect();
    shuffled.extend([vr("frame_b.r_0[3]"), vr("frame_b.r_0[3]")]);
    let with_parameter: Vec<u32> = [1, 2, 3, vr("normal.stiffness"), 4].to_vec();
    let with_output: Vec<u32> = [14, 15, vr("contact.normal_force"), 16].to_vec();
    let with_unknown: Vec<u32> = [14, 15, 99_999, 16].to_vec();
    let with_boolean: Vec<u32> = [14, vr("contact.active"), 16].to_vec();
    for list in [&inputs_vrs, &shuffled, &with_parameter, &with_output, &with_unknown, &with_boolean] {
        for bad in [None, Some(0), Some(1), Some(2), Some(list.len() - 1)] {
            for not_finite in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                let values: Vec<f64> = (0..list.len()).map(|i| if Some(i) == bad { not_finite } else { 0.25 + i as f64 }).collect();
                let mut fast = model(None);
                let mut reference = model(None);
                let result = table.set_floats(&mut fast, list, &values, SetPhase::Running);
                let mut first_error = None;
                for (&vr, &value) in list.iter().zip(&values) {
                    if let Err(e) = table.set_float(&mut reference, vr, value, SetPhase::Running) {
                        first_error = Some(e);
                        break;
                    }
                }
                // As messages: a NaN in an error is not equal to itself.
                assert_eq!(result.err().map(|e| e.to_string()), first_error.map(|e| e.to_string()), "{list:?} {bad:?}");
                assert_eq!(fast.inputs, reference.inputs, "{list:?} {bad:?}");
                assert_eq!(fast.parameters, reference.parameters, "{list:?} {bad:?}");
            }
        }
    }
}

#[test]
fn a_set_of_the_same_inputs_does_not_recompute() {
    let table = Model::table();
    let inputs_vrs = vrs(Causality::Input);
    let mut m = model(None);
    let values = inputs(0.0);
    table.set_floats(&mut m, &inputs_vrs, &values, SetPhase::Running).unwrap();
    let mut out = vec![0.0; 3];
    let forces = [vr("frame_b.f_0[1]"), vr("frame_b.f_0[2]"), vr("frame_b.f_0[3]")];
    table.get_floats(&mut m, &forces, &mut out).unwrap();
    assert_eq!(m.evaluations(), 1);
    table.set_floats(&mut m, &inputs_vrs, &values, SetPhase::Running).unwrap();
    table.get_floats(&mut m, &forces, &mut out).unwrap();
    assert_eq!(m.evaluations(), 1, "the same values: nothing changed");
    table.set_floats(&mut m, &inputs_vrs, &inputs(1.0), SetPhase::Running).unwrap();
    table.get_floats(&mut m, &forces, &mut out).unwrap();
    assert_eq!(m.evaluations(), 2);
}

#[test]
fn gets_of_boolean_outputs_read_what_scalar_gets_read() {
    let table = Model::table();
    let booleans: Vec<u32> = variables::scalars()
        .iter()
        .filter(|s| s.causality() == Causality::Output && matches!(s.variable.ty, ValueType::Boolean))
        .map(|s| s.vr)
        .collect();
    assert_eq!((booleans.len(), table.flat_flags()), (10, 10));
    let mut mixed: Vec<u32> = booleans.iter().rev().copied().collect();
    mixed.extend([booleans[0], booleans[0], vr("contact.points"), booleans[1]]);
    let with_unknown = [booleans[2], 99_999, booleans[3]];
    for shape in [None, Some(3)] {
        for k in 0..3 {
            for list in [&booleans[..], &mixed, &with_unknown] {
                let mut fast = model(shape);
                let mut reference = model(shape);
                let inputs_vrs = vrs(Causality::Input);
                let values = inputs(f64::from(k));
                table.set_floats(&mut fast, &inputs_vrs, &values, SetPhase::Running).unwrap();
                table.set_floats(&mut reference, &inputs_vrs, &values, SetPhase::Running).unwrap();
                let mut got = vec![None; list.len()];
                let result = table.get_bools(&mut fast, list, &mut got, Some);
                assert_eq!(fast.evaluations(), 1);
                let mut expected = vec![None; list.len()];
                let mut first_error = None;
                for (i, &vr) in list.iter().enumerate() {
                    match table.get_bool(&mut reference, vr) {
                        Ok(v) => expected[i] = Some(v),
                        Err(e) => {
                            first_error = Some(e);
                            break;
                        }
                    }
                }
                assert_eq!((got, result.err()), (expected, first_error), "{shape:?} {k} {list:?}");
            }
        }
    }
    // In contact, some are true.
    let mut m = model(Some(3));
    table.set_floats(&mut m, &vrs(Causality::Input), &inputs(0.0), SetPhase::Running).unwrap();
    let mut got = vec![false; booleans.len()];
    table.get_bools(&mut m, &booleans, &mut got, |b| b).unwrap();
    assert!(got[0] && got.iter().filter(|b| **b).count() >= 3, "{got:?}");
}
