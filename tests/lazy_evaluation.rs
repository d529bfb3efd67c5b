//! Outputs are computed lazily: repeated gets without a set in between do not recompute, a set
//! of an input does, and a DoStep of a stateless law does not recompute twice.

use contact_force::model::Model;
use contact_force::variables;
use fmi_export::FmuModel;

fn vr(name: &str) -> u32 {
    variables::scalars().iter().find(|s| s.name == name).unwrap().vr
}

#[test]
fn repeated_gets_without_a_set_do_not_recompute() {
    let table = Model::table();
    let mut model = Model::new(None);
    model.initialize().unwrap();
    table.set_float(&mut model, vr("frame_b.r_0[3]"), 0.0995, fmi_export::table::SetPhase::Running).unwrap();
    assert_eq!(model.evaluations(), 0, "a set computes nothing");
    let force = vr("frame_b.f_0[3]");
    let first = table.get_float(&mut model, force).unwrap();
    for name in ["frame_b.f_0[1]", "frame_a.t_0[2]", "contact.separation", "contact.point[1].normal_force"] {
        table.get_float(&mut model, vr(name)).unwrap();
    }
    assert_eq!(table.get_float(&mut model, force).unwrap(), first);
    assert_eq!(model.evaluations(), 1, "five gets, one evaluation");
    // Setting an input to the value it already has changes nothing either.
    table.set_float(&mut model, vr("frame_b.r_0[3]"), 0.0995, fmi_export::table::SetPhase::Running).unwrap();
    table.get_float(&mut model, force).unwrap();
    assert_eq!(model.evaluations(), 1);
    table.set_float(&mut model, vr("frame_b.r_0[3]"), 0.099, fmi_export::table::SetPhase::Running).unwrap();
    assert!(table.get_float(&mut model, force).unwrap() > first);
    assert_eq!(model.evaluations(), 2);
    // A step of a stateless law keeps the outputs it checked.
    FmuModel::do_step(&mut model, 1e-3).unwrap();
    table.get_float(&mut model, force).unwrap();
    assert_eq!(model.evaluations(), 2);
}
