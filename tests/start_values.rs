//! With every start value left alone, B's sphere rests on A's plane: the first evaluation gives
//! touching bodies and no force, not a sphere sunk to its centre.

use contact_force::model::Model;
use contact_force::variables;
use fmi_export::FmuModel;

fn get(model: &mut Model, name: &str) -> f64 {
    let s = variables::scalars().iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{name} is a variable"));
    Model::table().get_float(model, s.vr).unwrap()
}

#[test]
fn at_the_defaults_the_sphere_touches_the_plane_with_no_force() {
    let mut model = Model::new(None);
    model.initialize().unwrap();
    // The sphere's radius and its centre's height are both start values: they agree.
    assert_eq!(get(&mut model, "frame_b.r_0[3]"), get(&mut model, "geometry_b.radius"));
    let separation = get(&mut model, "contact.separation");
    assert!(separation.abs() < 1e-12, "separation {separation}");
    for name in ["frame_b.f_0[1]", "frame_b.f_0[2]", "frame_b.f_0[3]", "frame_a.f_0[3]", "contact.normal_force"] {
        let force = get(&mut model, name);
        assert!((0.0..1e-6).contains(&force.abs()), "{name} = {force} N at the defaults");
    }
    // A step at the defaults keeps them at rest: still no force.
    model.do_step(1e-3).unwrap();
    assert!(get(&mut model, "frame_b.f_0[3]").abs() < 1e-6);
}
