//! With every start value left alone, B's circle rests on A's line: the first evaluation gives
//! touching bodies and no force.

use fmi_export::FmuModel;
use planar_contact::model::Model;

fn get(model: &mut Model, name: &str) -> f64 {
    let table = Model::table();
    let s = table.by_name(name).unwrap_or_else(|| panic!("{name} is a variable"));
    table.get_float(model, s.vr).unwrap()
}

#[test]
fn at_the_defaults_the_circle_touches_the_line_with_no_force() {
    let mut model = Model::new(None);
    model.initialize().unwrap();
    assert_eq!(get(&mut model, "frame_b.r_0[2]"), get(&mut model, "geometry_b.radius"));
    let separation = get(&mut model, "contact.separation");
    assert!(separation.abs() < 1e-12, "separation {separation}");
    for name in ["frame_b.f_0[1]", "frame_b.f_0[2]", "contact.normal_force"] {
        let force = get(&mut model, name);
        assert!(force.abs() < 1e-6, "{name} = {force} N at the defaults");
    }
}
