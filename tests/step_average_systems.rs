//! StepAverage in the systems people build (issue: bodies in mechanisms, any body integrator, any
//! master order and step sequence, never an energy gain), against the same systems integrated
//! monolithically at 1 us (tests/step_average_systems/harness.rs).

#[path = "step_average_systems/harness.rs"]
mod harness;

use contact_force::model::Model;
use harness::*;

const DROP_HEIGHT: f64 = 0.5;

/// A ball (1 kg, r = 0.05) dropped from 0.5 m onto the plane z = 0.
fn drop_bodies(integrator: Integrator, substeps: usize) -> Vec<Body> {
    vec![Body::free(1.0, 0.05, [0.0, 0.0, 0.05 + DROP_HEIGHT], [0.0; 3]).with(integrator, substeps)]
}

const GROUND: Other = Other::Plane { point: [0.0; 3], normal: [0.0, 0.0, 1.0] };

/// The restitution from the contact's impulse (Poisson's): `J / (m v_c) - 1`, with `v_c` the
/// speed where the ball meets the plane, carried ballistically from the last sample at least
/// 2 cm above the plane, and `J / m = v_out - v_in + g (t_out - t_in)` between that sample and the
/// first one 2 cm above the plane on the way up. Every body integrator here turns a held force
/// into exactly its momentum, so this reads the coupling's impulse, not the integrator's errors
/// in flight; the co-simulation and the reference are measured alike.
fn drop_restitution(mut run: impl FnMut(&mut dyn FnMut(&[Body], f64))) -> f64 {
    let (mut before, mut after, mut touched): (Option<(f64, f64, f64)>, Option<(f64, f64)>, bool) = (None, None, false);
    run(&mut |b: &[Body], t: f64| {
        let ball = &b[0];
        let (z, v) = (ball.r[2] - ball.radius, ball.v[2]);
        if z < 0.0 || (v > 0.0 && before.is_some()) {
            touched = true;
        }
        if z > 0.02 && !touched {
            before = Some((t, v, z));
        } else if z > 0.02 && touched && v > 0.0 && after.is_none() {
            after = Some((t, v));
        }
    });
    let (t_in, v_in, z_in) = before.expect("the ball came down");
    let Some((t_out, v_out)) = after else { return 0.0 };
    (v_out - v_in + G * (t_out - t_in)) / (v_in * v_in + 2.0 * G * z_in).sqrt() - 1.0
}

fn reference_drop() -> f64 {
    drop_restitution(|sample| {
        let mut r = Reference::new(drop_bodies(Integrator::Exact, 1), vec![(GROUND, 0, BALL_LAW)]);
        while r.t < 0.6 {
            r.step(1e-6);
            sample(&r.bodies, r.t);
        }
    })
}

fn cosim_drop(order: Order, steps: &mut dyn FnMut(usize) -> f64, integrator: Integrator, substeps: usize, h0: f64) -> f64 {
    drop_restitution(|sample| {
        let bodies = drop_bodies(integrator, substeps);
        let model = block_model(&GROUND, &bodies, 0, BALL_LAW, h0);
        let mut s = System::new(bodies, vec![Contact::new(Box::new(model), GROUND, 0, BALL_LAW)]);
        let mut k = 0;
        while s.t < 0.6 {
            let h = steps(k);
            s.step(order, h);
            k += 1;
            sample(&s.bodies, s.t);
        }
    })
}

#[test]
#[ignore = "a look at the order"]
fn look() {
    let integ = match std::env::var("LOOK_INTEGRATOR").as_deref() { Ok("explicit") => Integrator::ExplicitEuler, Ok("symplectic") => Integrator::SymplecticEuler, _ => Integrator::Exact };
    let h: f64 = std::env::var("LOOK_H").ok().and_then(|x| x.parse().ok()).unwrap_or(1e-2);
    let sub: usize = std::env::var("LOOK_SUB").ok().and_then(|x| x.parse().ok()).unwrap_or(1);
    let bodies = drop_bodies(integ, sub);
    let model = block_model(&GROUND, &bodies, 0, BALL_LAW, h);
    let mut s = System::new(bodies, vec![Contact::new(Box::new(model), GROUND, 0, BALL_LAW)]);
    let until: f64 = std::env::var("LOOK_UNTIL").ok().and_then(|x| x.parse().ok()).unwrap_or(0.6);
    let from: f64 = std::env::var("LOOK_FROM").ok().and_then(|x| x.parse().ok()).unwrap_or(0.31);
    for k in 0..(until / h) as usize {
        let order = match std::env::var("LOOK_ORDER").as_deref() { Ok("jacobi") => Order::Jacobi, Ok("body") => Order::BodyFirst, _ => Order::BlockFirst };
        s.step(order, h);
        let m: &Model = unsafe { &*(s.contacts[0].block.as_ref() as *const dyn Block as *const Model) };
        if s.t > from && s.t < until {
            println!("{k} z {:.6} v {:.4} drift {:.3e} f {:.2} balance {:.4} E {:.4}", s.bodies[0].r[2], s.bodies[0].v[2], m.coupling().drift(1).r[2], s.contacts[0].held[1][2], m.coupling().energy_balance(), s.energy());
        }
    }
}

#[test]
#[ignore = "a survey: prints the table of the guide's co-simulation page"]
fn survey() {
    let e_ref = reference_drop();
    println!("drop reference e = {e_ref:.5}");
    for order in ORDERS {
        for h in [1e-3, 3e-3, 1e-2] {
            for (integrator, substeps) in [(Integrator::Exact, 1), (Integrator::SymplecticEuler, 1), (Integrator::ExplicitEuler, 1), (Integrator::SymplecticEuler, 10), (Integrator::ExplicitEuler, 10)] {
                let e = cosim_drop(order, &mut |_| h, integrator, substeps, h);
                println!("drop {order:?} h = {h} {integrator:?}x{substeps}: e = {e:.4} ({:+.1} %)", (e / e_ref - 1.0) * 100.0);
            }
        }
    }
}
