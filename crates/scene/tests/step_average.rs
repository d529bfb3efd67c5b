//! StepAverage for the whole scene in a small master loop written here, independent of the
//! scene's code: the bodies integrated exactly under the held wrench plus gravity (the
//! translation in closed form, the rotation in fine steps of its own), in the three master
//! orders (Gauss-Seidel with the scene first or the bodies first, and Jacobi), against closed
//! forms: stacks resting at their static depths, and the linear law's restitution.

mod common;

use contact_physics::math::{BodyState, Pose, Rotation, Vec3};
use contact_physics::shape::ShapeKind;
use common::linear;
use contact_scene::{BodyDescription, Coupling, ForceTorque, Inputs, Scene};
use nalgebra::Matrix3;

const G: f64 = 9.81;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Order {
    /// Inputs set, outputs read, the scene steps, then the bodies.
    SceneFirst,
    /// Everything steps from what was exchanged at the step's start, then the exchange.
    Jacobi,
    /// The bodies step with the held wrench, then the scene gets their states and steps.
    BodiesFirst,
}

const ORDERS: [Order; 3] = [Order::SceneFirst, Order::Jacobi, Order::BodiesFirst];

/// A body as a body FMU integrates it: the frame at the centre of mass, a diagonal inertia.
#[derive(Clone, Copy, Debug)]
struct Body {
    m: f64,
    inertia: [f64; 3],
    state: BodyState,
    /// How the body's FMU integrates its translation, in how many sub-steps of the step.
    integrator: (Integrator, u32),
}

/// What a body FMU integrates its translation with (the held force is constant over the step).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Integrator {
    Exact,
    /// `v += a dt; r += v dt`.
    SymplecticEuler,
    /// `r += v dt; v += a dt` (OpenModelica's co-simulation export).
    ExplicitEuler,
}

const EXACT: (Integrator, u32) = (Integrator::Exact, 1);

impl Body {
    /// One step of `h` under the held force and torque `w` plus gravity: the translation
    /// exactly; the rotation in 200 steps of the torque-kick, turn method.
    fn step(&mut self, w: &ForceTorque, h: f64) {
        if self.m == 0.0 {
            return;
        }
        let a = w.0 / self.m - Vec3::new(0.0, 0.0, G);
        let (integrator, n) = self.integrator;
        let dt = h / f64::from(n);
        for _ in 0..n {
            match integrator {
                Integrator::Exact => {
                    self.state.pose.r += self.state.v * dt + a * (0.5 * dt * dt);
                    self.state.v += a * dt;
                }
                Integrator::SymplecticEuler => {
                    self.state.v += a * dt;
                    self.state.pose.r += self.state.v * dt;
                }
                Integrator::ExplicitEuler => {
                    self.state.pose.r += self.state.v * dt;
                    self.state.v += a * dt;
                }
            }
        }
        if self.inertia == [0.0; 3] {
            return;
        }
        let n = 200;
        let dt = h / n as f64;
        let body_inertia = Matrix3::from_diagonal(&Vec3::from(self.inertia));
        for _ in 0..n {
            let r = self.state.pose.q.to_rotation_matrix().into_inner();
            let i_w = r * body_inertia * r.transpose();
            let l = i_w * self.state.w + w.1 * dt;
            let w_new = i_w.try_inverse().unwrap() * l;
            self.state.pose.q = Rotation::from_scaled_axis(w_new * dt) * self.state.pose.q;
            self.state.w = w_new;
        }
    }
}

fn at(z: f64) -> BodyState {
    BodyState { pose: Pose { r: Vec3::new(0.0, 0.0, z), q: Rotation::identity() }, v: Vec3::zeros(), w: Vec3::zeros() }
}

/// The master loop over steps of the sizes `steps` in `order`; `sample` sees the bodies after
/// each. The scene's outputs, read before its DoStep, cannot know the coming step's size: they
/// are computed for the last one's (the first one's before it), as an FMU's are.
fn run(scene: &Scene, bodies: &mut [Body], order: Order, steps: impl IntoIterator<Item = f64>, mut sample: impl FnMut(&[Body])) {
    let mut coupling = Coupling::new(scene);
    let states = |b: &[Body]| -> Vec<BodyState> { b.iter().map(|b| b.state).collect() };
    let mut steps = steps.into_iter().peekable();
    let mut last = *steps.peek().expect("a step");
    let mut held: Vec<ForceTorque> = coupling.outputs(scene, Some(&states(bodies)), last).unwrap().to_vec();
    for h in steps {
        match order {
            Order::SceneFirst => {
                held = coupling.outputs(scene, Some(&states(bodies)), last).unwrap().to_vec();
                coupling.do_step(scene, h, Inputs::None).unwrap();
                bodies.iter_mut().zip(&held).for_each(|(b, w)| b.step(w, h));
            }
            Order::Jacobi => {
                let start = states(bodies);
                coupling.do_step(scene, h, Inputs::AtStart(&start)).unwrap();
                bodies.iter_mut().zip(&held).for_each(|(b, w)| b.step(w, h));
                held = coupling.outputs(scene, None, h).unwrap().to_vec();
            }
            Order::BodiesFirst => {
                bodies.iter_mut().zip(&held).for_each(|(b, w)| b.step(w, h));
                coupling.do_step(scene, h, Inputs::AtEnd(&states(bodies))).unwrap();
                held = coupling.outputs(scene, None, h).unwrap().to_vec();
            }
        }
        last = h;
        sample(bodies);
    }
}

fn constant(h: f64, time: f64) -> impl Iterator<Item = f64> {
    std::iter::repeat_n(h, (time / h).round() as usize)
}

/// A stack of three bodies on a plane, started touching at rest, after 3 s: every body's
/// height against the static one (each contact `depth = weight above / stiffness`).
fn stack(shape: ShapeKind, order: Order, steps: impl IntoIterator<Item = f64>) -> Vec<(f64, f64)> {
    let (m, size) = (1.0, 0.1);
    // The box's contacts have four corners (a face on a face: eight points at half weight), so
    // the same total stiffness 1e5 N/m and damping 300 N.s/m as the sphere's one point.
    let points = if shape == ShapeKind::Box { 4.0 } else { 1.0 };
    let (k, c) = (1e5 / points, 300.0 / points);
    let mut d = linear(k, c);
    d.coupling.step_average = true;
    // omega = 316 rad/s (and the boxes' rocking about as fast): 0.1 ms sub-steps are fine.
    d.coupling.max_substep = 1e-4;
    let mut ground = BodyDescription::new(ShapeKind::Plane);
    ground.name = "ground".to_string();
    d.bodies.push(ground);
    let inertia = m * size * size / 6.0;
    let mut bodies = vec![Body { m: 0.0, inertia: [0.0; 3], state: at(0.0), integrator: EXACT }];
    for i in 0..3 {
        let mut b = BodyDescription::new(shape);
        b.geometry.radius = size / 2.0;
        b.geometry.size = [size; 3];
        b.body.mass = m;
        let i3 = if shape == ShapeKind::Box { [inertia; 3] } else { [0.0; 3] };
        b.body.inertia = [i3[0], i3[1], i3[2], 0.0, 0.0, 0.0];
        d.bodies.push(b);
        bodies.push(Body { m, inertia: i3, state: at(size / 2.0 + size * i as f64), integrator: EXACT });
    }
    let scene = Scene::new(&d, None).unwrap();
    run(&scene, &mut bodies, order, steps, |_| {});
    let total_k = k * points;
    let mut expected = 0.0;
    (1..4)
        .map(|i| {
            let depth = m * G * (4 - i) as f64 / total_k;
            expected += if i == 1 { size / 2.0 } else { size } - depth;
            (bodies[i].state.pose.r.z, expected)
        })
        .collect()
}

fn assert_stack_rests(shape: ShapeKind) {
    for order in ORDERS {
        for h in [1e-3, 3e-3, 1e-2] {
            let heights = stack(shape, order, constant(h, 3.0));
            for (i, (z, expected)) in heights.iter().enumerate() {
                println!("{shape:?} {order:?} h = {h}: body {} at {z:.7} m, static {expected:.7} m", i + 1);
                assert!((z - expected).abs() < 1e-5, "{shape:?} {order:?} h = {h}: body {} at {z} m, static {expected} m", i + 1);
            }
        }
    }
}

#[test]
fn a_stack_of_three_spheres_rests_at_its_static_depths() {
    assert_stack_rests(ShapeKind::Sphere);
}

#[test]
fn a_stack_of_three_boxes_rests_at_its_static_depths() {
    assert_stack_rests(ShapeKind::Box);
}

/// Steps of 1, 3 and 10 ms in turn, and of 1 and 10 ms, the outputs computed for the last
/// step's size, as an FMU's are: the stack rests at its static depths in every order. (It was
/// thrown within ten cycles: outputs averaged over 1 ms held over 10 ms at omega h = 3, and, under
/// a Jacobi master, a prediction of the step's start that took off all the impulse still owed.)
#[test]
fn a_stack_rests_whatever_the_step_sequence() {
    for order in ORDERS {
        for (name, cycle) in [("1, 3, 10", &[1e-3, 3e-3, 1e-2][..]), ("1, 10", &[1e-3, 1e-2][..])] {
            // 3 s.
            let sequence = cycle.iter().copied().cycle().take(cycle.len() * (3.0 / cycle.iter().sum::<f64>()) as usize);
            for (i, (z, expected)) in stack(ShapeKind::Sphere, order, sequence).iter().enumerate() {
                println!("{order:?} steps of {name} ms: body {} at {z:.7} m, static {expected:.7} m", i + 1);
                assert!((z - expected).abs() < 1e-5, "{order:?} steps of {name} ms: body {} at {z} m, static {expected} m", i + 1);
            }
        }
    }
}

/// The clipped linear spring-damper's restitution (no gravity over the impact): the depth
/// x = v/w_d e^(-z w t) sin(w_d t) until the force k x + c x' is zero, at w_d t = pi - atan(2 z
/// s / (1 - 2 z^2)) with s = sqrt(1 - z^2); then x'/v = e^(-z phi / s) (cos phi - z / s sin phi).
fn linear_restitution(k: f64, c: f64, m: f64) -> f64 {
    let z = c / (2.0 * (k * m).sqrt());
    let s = (1.0 - z * z).sqrt();
    let phi = std::f64::consts::PI - (2.0 * z * s / (1.0 - 2.0 * z * z)).atan();
    ((-z * phi / s).exp() * (phi.cos() - z / s * phi.sin())).abs()
}

/// The ball dropped from 0.5 m on the plane over the steps `steps`, in `order`: the restitution
/// from its energy at the top of its rebound.
fn drop_restitution(scene: &Scene, order: Order, steps: impl IntoIterator<Item = f64>, m: f64, radius: f64) -> f64 {
    let mut bodies = [Body { m: 0.0, inertia: [0.0; 3], state: at(0.0), integrator: EXACT }, Body { m, inertia: [0.0; 3], state: at(0.55), integrator: EXACT }];
    let mut top = TopOfRebound::default();
    run(scene, &mut bodies, order, steps, |b| top.sample(&b[1]));
    top.restitution(radius)
}

/// The restitution of a ball dropped from 0.5 m above its contact, from its energy at the top of
/// its rebound (the highest sample after the impact: a sample's energy does not depend on when it
/// is taken in free flight, and by then the scene has put the ball where its own copy is).
#[derive(Default)]
struct TopOfRebound {
    top: Option<(f64, f64)>,
    descended: bool,
    rose: bool,
}

impl TopOfRebound {
    /// The speed where the ball meets the plane, `sqrt(2 g 0.5 m)` (m/s).
    const V0: f64 = 3.132091952673165;

    fn sample(&mut self, ball: &Body) {
        let (v, z) = (ball.state.v.z, ball.state.pose.r.z);
        self.descended |= v < -0.5 * Self::V0;
        self.rose |= self.descended && v > 0.0;
        if self.rose && self.top.is_none_or(|(z_top, _)| z > z_top) {
            self.top = Some((z, v));
        }
    }

    fn restitution(&self, radius: f64) -> f64 {
        let (z, v) = self.top.expect("the ball rebounds");
        (v * v + 2.0 * G * (z - radius)).sqrt() / Self::V0
    }
}

/// The restitution of the drop with the ball integrated by `integrator`, from the contact's
/// impulse (Poisson's, as ContactForce's systems tests read it): `J / (m v_c) - 1`, with
/// `J / m = v_out - v_in + g (t_out - t_in)` between the last sample at least 2 cm above the plane
/// and the first one 50 ms after the ball first touched, and `v_c` the speed where the ball meets
/// the plane, carried from that sample. Euler's positions in flight are off the exact ones by
/// `g h t / 2` (15 mm after 0.3 s at 10 ms), which the energy at the top of the rebound would
/// read as restitution; its velocities under a held force are exact.
fn drop_restitution_with(scene: &Scene, order: Order, steps: impl IntoIterator<Item = f64>, m: f64, radius: f64, integrator: (Integrator, u32)) -> f64 {
    let mut bodies = [Body { m: 0.0, inertia: [0.0; 3], state: at(0.0), integrator: EXACT }, Body { m, inertia: [0.0; 3], state: at(0.55), integrator }];
    type Before = Option<(f64, f64, f64)>;
    let (mut before, mut after, mut touched): (Before, Option<(f64, f64)>, Option<f64>) = (None, None, None);
    let mut t = 0.0;
    let steps: Vec<f64> = steps.into_iter().collect();
    let mut i = 0;
    run(scene, &mut bodies, order, steps.iter().copied(), |b| {
        t += steps[i];
        i += 1;
        let (z, v) = (b[1].state.pose.r.z - radius, b[1].state.v.z);
        if touched.is_none() && (z < 0.0 || (v > 0.0 && before.is_some())) {
            touched = Some(t);
        }
        match touched {
            None if z > 0.02 => before = Some((t, v, z)),
            Some(t_touch) if t > t_touch + 0.05 && after.is_none() => after = Some((t, v)),
            _ => {}
        }
    });
    let (t_in, v_in, z_in) = before.expect("the ball came down");
    let (t_out, v_out) = after.expect("the ball rebounded");
    (v_out - v_in + G * (t_out - t_in)) / (v_in * v_in + 2.0 * G * z_in).sqrt() - 1.0
}


/// The scene of the drop: a 1 kg ball of radius 0.05 m over a plane, the linear law k = 1e6 N/m,
/// c = 200 N.s/m.
fn drop_scene() -> (Scene, f64, f64, f64) {
    let (k, c, m, radius) = (1e6, 200.0, 1.0, 0.05);
    let mut d = linear(k, c);
    d.coupling.step_average = true;
    d.bodies.push(BodyDescription::new(ShapeKind::Plane));
    let mut ball = BodyDescription::new(ShapeKind::Sphere);
    ball.geometry.radius = radius;
    ball.body.mass = m;
    d.bodies.push(ball);
    (Scene::new(&d, None).unwrap(), linear_restitution(k, c, m), m, radius)
}

#[test]
fn a_dropped_ball_bounces_with_the_closed_form_restitution() {
    let (scene, expected, m, radius) = drop_scene();
    assert!((expected - 0.7440793977217797).abs() < 1e-12, "{expected}");
    for order in ORDERS {
        for h in [1e-3, 1e-2] {
            let e = drop_restitution(&scene, order, constant(h, 0.75), m, radius);
            println!("{order:?} h = {h}: e = {e:.5} (closed form {expected:.5})");
            assert!((e / expected - 1.0).abs() < 0.02, "{order:?} h = {h}: e = {e} against {expected}");
        }
    }
}

/// A ball declared at 1 kg whose FMU integrates it as 4 kg (a body that shows four times its
/// mass along the contact, as a point on a joint does), dropped on the plane, in every order at
/// 1 ms: after its second impact the scene has learnt the share of its own answer the body
/// gives, m / M = 0.25 (the closed form), within 5 %; no impact gives back more than the linear
/// law's closed-form restitution for the mass the body has (2 % allowed), and from the third on
/// each is within 3 % of it (the first two, while the response is learnt, lose up to 7 %).
#[test]
fn a_body_heavier_than_declared_is_learnt_from_its_response() {
    let (scene, _, m, radius) = drop_scene();
    let heavy = 4.0;
    let expected = linear_restitution(1e6, 200.0, heavy);
    for order in ORDERS {
        let h = 1e-3;
        let mut bodies = [Body { m: 0.0, inertia: [0.0; 3], state: at(0.0), integrator: EXACT }, Body { m: heavy, inertia: [0.0; 3], state: at(0.15), integrator: EXACT }];
        let v0 = (2.0 * G * 0.1).sqrt();
        let mut coupling = Coupling::new(&scene);
        let states = |b: &[Body]| -> Vec<BodyState> { b.iter().map(|b| b.state).collect() };
        let mut held: Vec<ForceTorque> = coupling.outputs(&scene, Some(&states(&bodies)), h).unwrap().to_vec();
        let (mut speeds, mut touching, mut before) = (Vec::new(), false, 0.0);
        let mut learnt = Vec::new();
        for _ in 0..1000 {
            match order {
                Order::SceneFirst => {
                    held = coupling.outputs(&scene, Some(&states(&bodies)), h).unwrap().to_vec();
                    coupling.do_step(&scene, h, Inputs::None).unwrap();
                    bodies.iter_mut().zip(&held).for_each(|(b, w)| b.step(w, h));
                }
                Order::Jacobi => {
                    let start = states(&bodies);
                    coupling.do_step(&scene, h, Inputs::AtStart(&start)).unwrap();
                    bodies.iter_mut().zip(&held).for_each(|(b, w)| b.step(w, h));
                    held = coupling.outputs(&scene, None, h).unwrap().to_vec();
                }
                Order::BodiesFirst => {
                    bodies.iter_mut().zip(&held).for_each(|(b, w)| b.step(w, h));
                    coupling.do_step(&scene, h, Inputs::AtEnd(&states(&bodies))).unwrap();
                    held = coupling.outputs(&scene, None, h).unwrap().to_vec();
                }
            }
            // Each impact's speeds from the energy at the samples out of contact either side.
            let (z, v) = (bodies[1].state.pose.r.z, bodies[1].state.v.z);
            let speed = (v * v + 2.0 * G * (z - radius).max(0.0)).sqrt();
            let now = z < radius;
            if touching && !now {
                speeds.push((before, speed));
                learnt.push(coupling.response(1));
            }
            if !now {
                // The last sample out of contact before the next impact.
                before = speed;
            }
            touching = now;
        }
        println!("{order:?}: response after each impact {learnt:.4?} (closed form {:.4}), impacts {speeds:.4?} (e closed form {expected:.4})", m / heavy);
        assert!(speeds.len() >= 4 && speeds[0].0 > 0.9 * v0, "{order:?}: {speeds:?}");
        assert!((learnt[1] / (m / heavy) - 1.0).abs() < 0.05, "{order:?}: learnt response {learnt:?}");
        for (i, (into, out)) in speeds.iter().enumerate() {
            let e = out / into;
            assert!(e < expected * 1.02, "{order:?}: impact {i} gave back {e} of its speed (closed form {expected})");
            assert!(i < 2 || (e / expected - 1.0).abs() < 0.03, "{order:?}: impact {i}: e = {e} against {expected}");
        }
    }
}

/// The drops with the ball's FMU integrating the held force by symplectic or explicit Euler, at
/// the step and in 10 sub-steps, at 1 and 10 ms in every order: `(order, h, integrator,
/// restitution)`.
fn euler_drops() -> Vec<(Order, f64, (Integrator, u32), f64)> {
    let (scene, _, m, radius) = drop_scene();
    let mut drops = Vec::new();
    for order in ORDERS {
        for h in [1e-3, 1e-2] {
            for integrator in [(Integrator::SymplecticEuler, 1), (Integrator::ExplicitEuler, 1), (Integrator::SymplecticEuler, 10), (Integrator::ExplicitEuler, 10)] {
                drops.push((order, h, integrator, drop_restitution_with(&scene, order, constant(h, 0.75), m, radius, integrator)));
            }
        }
    }
    drops
}

/// The one combination that does not hold yet: a Jacobi master at 10 ms and a body integrated
/// by symplectic Euler in sub-steps.
fn euler_known_failure(order: Order, h: f64, integrator: (Integrator, u32)) -> bool {
    order == Order::Jacobi && h == 1e-2 && integrator == (Integrator::SymplecticEuler, 10)
}

/// The drop with the ball's FMU integrating the held force by symplectic or explicit Euler, at
/// the step and in 10 sub-steps: the restitution within 2 % of the closed form at 1 ms and 5 % at
/// 10 ms in every order (the scene measures where the body went; nothing rests on how it
/// integrates): 0.7522 to 0.7535 against 0.7441 (gravity over the impact adds 1.2 %), and under
/// a Jacobi master at 10 ms with explicit Euler in sub-steps 0.7311. Not yet with symplectic
/// Euler in sub-steps under a Jacobi master at 10 ms (the next test).
#[test]
fn the_drop_bounces_right_whatever_integrates_the_body() {
    let expected = drop_scene().1;
    for (order, h, integrator, e) in euler_drops() {
        println!("{order:?} h = {h} {integrator:?}: e = {e:.5} (closed form {expected:.5})");
        let tolerance = if h <= 1e-3 { 0.02 } else { 0.05 };
        assert!(euler_known_failure(order, h, integrator) || (e / expected - 1.0).abs() < tolerance, "{order:?} h = {h} {integrator:?}: e = {e} against {expected}");
    }
}

/// Under a Jacobi master at 10 ms, a body integrated by symplectic Euler in 10 sub-steps gets
/// e = 0.826 (+11 %): out of contact after the impact the body is pushed up by about 0.085 N.s
/// over two steps that it should not get (a step integrated again from where the body started,
/// which its integrator put 2.7 mm off the scene's expectation over the impact's step, owes an
/// impulse that the offset's correction does not take back).
#[test]
#[ignore = "known failure: a Jacobi master at 10 ms and a body integrated by symplectic Euler in sub-steps"]
fn the_drop_bounces_right_under_jacobi_whatever_integrates_the_body() {
    let expected = drop_scene().1;
    for (order, h, integrator, e) in euler_drops().into_iter().filter(|(o, h, i, _)| euler_known_failure(*o, *h, *i)) {
        println!("{order:?} h = {h} {integrator:?}: e = {e:.5} (closed form {expected:.5})");
        assert!((e / expected - 1.0).abs() < 0.05, "{order:?} h = {h} {integrator:?}: e = {e} against {expected}");
    }
}

/// A small deterministic generator of steps in [0.5 h, 1.5 h] (a variable-step master).
fn random_steps(h: f64, time: f64) -> Vec<f64> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut steps = Vec::new();
    let mut t = 0.0;
    while t < time {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let step = h * (0.5 + (seed >> 11) as f64 / (1u64 << 53) as f64);
        steps.push(step);
        t += step;
    }
    steps
}

/// The drop under varying steps: within 3 % of the closed form, as ContactForce's StepAverage
/// is. Not yet: with the outputs averaged over the longest recent step, steps drawn in [5, 15] ms
/// give 0.7496 (+0.7 %) under both Gauss-Seidel orders, but steps in [0.5, 1.5] ms 0.695
/// (-6.6 %, Jacobi -10 %), Jacobi at [5, 15] ms 0.564, and steps of 1 and 10 ms in turn 1.24 in
/// every order (an energy gain): the impulse owed when a step is integrated again reaches the
/// scene's copy of the body a step late, spread over the next step as the body receives it. Read
/// from the contact's impulse instead (the ball's speed 50 ms after it touched, as
/// `drop_restitution_with` reads it), steps in [5, 15] ms give 0.49: what is owed is still being
/// paid then.
#[test]
#[ignore = "known failure: a drop under a varying step sequence (the owed impulse reaches the scene's copy a step late)"]
fn a_dropped_ball_bounces_right_whatever_the_step_sequence() {
    let (scene, expected, m, radius) = drop_scene();
    let alternating: Vec<f64> = [1e-3, 1e-2].into_iter().cycle().take(2 * 69).collect();
    let sequences = [("steps in [0.5, 1.5] ms", random_steps(1e-3, 0.75)), ("steps in [5, 15] ms", random_steps(1e-2, 0.75)), ("steps of 1 and 10 ms in turn", alternating)];
    for order in ORDERS {
        for (name, steps) in &sequences {
            let e = drop_restitution(&scene, order, steps.iter().copied(), m, radius);
            println!("{order:?} {name}: e = {e:.5} (closed form {expected:.5})");
            assert!((e / expected - 1.0).abs() < 0.03, "{order:?} {name}: e = {e} against {expected}");
        }
    }
}

/// A master that reads no outputs before the scene's first step (a Jacobi master reads them
/// after each step, for the next one): the ball, dropped from 0.5 m above its contact, falls
/// freely over the first step (the importer holds no wrench, and the scene's step computes the
/// outputs it was never asked for from the states given with it), then bounces with the linear
/// law's closed-form restitution. Before the first step with no states at all, the scene has
/// nothing to start from: an error, not a panic.
#[test]
fn a_step_with_no_outputs_read_before_it_computes_them() {
    let (scene, expected, m, radius) = drop_scene();
    for h in [1e-3_f64, 1e-2] {
        let mut bodies = [Body { m: 0.0, inertia: [0.0; 3], state: at(0.0), integrator: EXACT }, Body { m, inertia: [0.0; 3], state: at(0.55), integrator: EXACT }];
        let mut coupling = Coupling::new(&scene);
        let mut held: Vec<ForceTorque> = vec![(Vec3::zeros(), Vec3::zeros()); 2];
        let mut top = TopOfRebound::default();
        for _ in 0..(0.75_f64 / h).round() as usize {
            let start: Vec<BodyState> = bodies.iter().map(|b| b.state).collect();
            coupling.do_step(&scene, h, Inputs::AtStart(&start)).unwrap();
            bodies.iter_mut().zip(&held).for_each(|(b, w)| b.step(w, h));
            held = coupling.outputs(&scene, None, h).unwrap().to_vec();
            top.sample(&bodies[1]);
        }
        let e = top.restitution(radius);
        println!("h = {h}: e = {e:.5} (closed form {expected:.5})");
        assert!((e / expected - 1.0).abs() < 0.02, "h = {h}: e = {e} against {expected}");
    }
    // No states before the first step: nothing to integrate from.
    let start = [at(0.0), at(0.55)];
    for inputs in [Inputs::None, Inputs::AtEnd(&start)] {
        let error = Coupling::new(&scene).do_step(&scene, 1e-3, inputs).unwrap_err();
        assert!(error.to_string().starts_with("the bodies' states at the step's start are not known"), "{error}");
    }
    assert_eq!(Coupling::new(&scene).outputs(&scene, None, 1e-3).unwrap_err(), contact_scene::UnknownStart);
}



