//! A co-simulation test bed for StepAverage in the systems people build, independent of the
//! block's code: bodies integrated here by the integrators body FMUs use (exact, RK4, symplectic
//! and explicit Euler, each with sub-steps or not), a pendulum held by a hinge, bodies driven by
//! a prescribed motion, several contacts sharing a body, the three master orders and any step
//! sequence; and the same system integrated monolithically at 1 us with the law written here
//! (the clipped linear spring-damper between spheres and planes), as the reference.

#![allow(dead_code)]

use contact_force::block::CouplingMode;
use contact_force::model::Model;
use contact_force::physics::friction::FrictionLawKind;
use contact_force::physics::normal::NormalLawKind;
use contact_force::physics::shape::ShapeKind;
use nalgebra::{UnitQuaternion, Vector3};

pub type V3 = Vector3<f64>;

pub const G: f64 = 9.81;

/// How a body FMU integrates the force it holds over a communication step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Integrator {
    /// Exact for a held force on a free body (RigidBody's translation); RK4 in a joint's angle.
    Exact,
    Rk4,
    SymplecticEuler,
    ExplicitEuler,
}

/// What holds a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Holder {
    Free,
    /// A point mass on a massless rod of length `len` hinged at `pivot` about the y axis: the
    /// body is at `pivot + len (sin phi, 0, -cos phi)`.
    Hinge { pivot: [f64; 3], len: f64 },
    /// Moved by a drive: position and velocity as functions of time (mass 0 in the block).
    Driven { start: [f64; 3], speed: [f64; 3], from: f64, until: f64 },
}

#[derive(Clone, Copy, Debug)]
pub struct Body {
    pub m: f64,
    pub radius: f64,
    pub holder: Holder,
    pub integrator: Integrator,
    pub substeps: usize,
    pub g: [f64; 3],
    pub r: V3,
    pub v: V3,
    /// Hinge angle and rate.
    pub phi: f64,
    pub phi_dot: f64,
}

impl Body {
    pub fn free(m: f64, radius: f64, r: [f64; 3], v: [f64; 3]) -> Body {
        Body {
            m,
            radius,
            holder: Holder::Free,
            integrator: Integrator::Exact,
            substeps: 1,
            g: [0.0, 0.0, -G],
            r: V3::from(r),
            v: V3::from(v),
            phi: 0.0,
            phi_dot: 0.0,
        }
    }

    pub fn pendulum(m: f64, radius: f64, pivot: [f64; 3], len: f64, phi: f64, phi_dot: f64) -> Body {
        let mut b = Body::free(m, radius, [0.0; 3], [0.0; 3]);
        b.holder = Holder::Hinge { pivot, len };
        b.phi = phi;
        b.phi_dot = phi_dot;
        b.place(0.0);
        b
    }

    pub fn driven(start: [f64; 3], speed: [f64; 3], from: f64, until: f64) -> Body {
        let mut b = Body::free(0.0, 0.0, start, [0.0; 3]);
        b.holder = Holder::Driven { start, speed, from, until };
        b.place(0.0);
        b
    }

    pub fn with(mut self, integrator: Integrator, substeps: usize) -> Body {
        self.integrator = integrator;
        self.substeps = substeps;
        self
    }

    /// r and v from the hinge angle or the drive.
    fn place(&mut self, t: f64) {
        match self.holder {
            Holder::Free => {}
            Holder::Hinge { pivot, len } => {
                let (s, c) = self.phi.sin_cos();
                self.r = V3::from(pivot) + V3::new(s, 0.0, -c) * len;
                self.v = V3::new(c, 0.0, s) * (len * self.phi_dot);
            }
            Holder::Driven { start, speed, from, until } => {
                let moving = (t.min(until) - from).max(0.0);
                self.r = V3::from(start) + V3::from(speed) * moving;
                self.v = if t >= from && t < until { V3::from(speed) } else { V3::zeros() };
            }
        }
    }

    /// Kinetic plus gravitational potential energy (J).
    pub fn energy(&self) -> f64 {
        0.5 * self.m * self.v.norm_squared() - self.m * V3::from(self.g).dot(&self.r)
    }

    /// One communication step of `h` from `t` under the held force `f`, as the body's FMU would.
    pub fn step(&mut self, f: V3, t: f64, h: f64) {
        match self.holder {
            Holder::Driven { .. } => self.place(t + h),
            Holder::Free => {
                let dt = h / self.substeps as f64;
                let a = f / self.m + V3::from(self.g);
                for _ in 0..self.substeps {
                    match self.integrator {
                        Integrator::Exact | Integrator::Rk4 => {
                            self.r += self.v * dt + a * (0.5 * dt * dt);
                            self.v += a * dt;
                        }
                        Integrator::SymplecticEuler => {
                            self.v += a * dt;
                            self.r += self.v * dt;
                        }
                        Integrator::ExplicitEuler => {
                            self.r += self.v * dt;
                            self.v += a * dt;
                        }
                    }
                }
            }
            Holder::Hinge { len, .. } => {
                let total = f + V3::from(self.g) * self.m;
                let accel = |phi: f64| {
                    let (s, c) = phi.sin_cos();
                    total.dot(&V3::new(c, 0.0, s)) / (self.m * len)
                };
                let (substeps, integrator) = match self.integrator {
                    // "Exact": RK4 at 50 sub-steps per communication step.
                    Integrator::Exact => (self.substeps.max(50), Integrator::Rk4),
                    other => (self.substeps, other),
                };
                let dt = h / substeps as f64;
                for _ in 0..substeps {
                    let (p, w) = (self.phi, self.phi_dot);
                    match integrator {
                        Integrator::Rk4 | Integrator::Exact => {
                            let (k1p, k1w) = (w, accel(p));
                            let (k2p, k2w) = (w + 0.5 * dt * k1w, accel(p + 0.5 * dt * k1p));
                            let (k3p, k3w) = (w + 0.5 * dt * k2w, accel(p + 0.5 * dt * k2p));
                            let (k4p, k4w) = (w + dt * k3w, accel(p + dt * k3p));
                            self.phi = p + dt / 6.0 * (k1p + 2.0 * k2p + 2.0 * k3p + k4p);
                            self.phi_dot = w + dt / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
                        }
                        Integrator::SymplecticEuler => {
                            self.phi_dot = w + dt * accel(p);
                            self.phi = p + dt * self.phi_dot;
                        }
                        Integrator::ExplicitEuler => {
                            self.phi = p + dt * w;
                            self.phi_dot = w + dt * accel(p);
                        }
                    }
                }
                self.place(t + h);
            }
        }
    }
}

/// A contact between body `b` and either body `a` or a fixed plane.
#[derive(Clone, Copy, Debug)]
pub enum Other {
    /// A fixed plane through `point` with unit normal `normal` (towards the body).
    Plane { point: [f64; 3], normal: [f64; 3] },
    /// A plane carried by a body (its frame origin on the plane), normal `normal`.
    MovingPlane { body: usize, normal: [f64; 3] },
    /// A sphere body.
    Sphere { body: usize },
}

#[derive(Clone, Copy, Debug)]
pub struct Law {
    pub k: f64,
    pub b: f64,
}

pub const BALL_LAW: Law = Law { k: 1e6, b: 200.0 };

/// The clipped linear spring-damper: force on `b` along `n` (from the other toward b) at depth
/// `d` closing at `d_dot`.
pub fn law_force(law: Law, d: f64, d_dot: f64) -> f64 {
    if d <= 0.0 {
        0.0
    } else {
        (law.k * d + law.b * d_dot).max(0.0)
    }
}

/// Depth, its rate and the unit normal (toward b) of a contact in a configuration.
pub fn kinematics(other: &Other, bodies: &[Body], b: usize) -> (f64, f64, V3) {
    let body = &bodies[b];
    match *other {
        Other::Plane { point, normal } => {
            let n = V3::from(normal);
            (body.radius - (body.r - V3::from(point)).dot(&n), -body.v.dot(&n), n)
        }
        Other::MovingPlane { body: a, normal } => {
            let n = V3::from(normal);
            (body.radius - (body.r - bodies[a].r).dot(&n), -(body.v - bodies[a].v).dot(&n), n)
        }
        Other::Sphere { body: a } => {
            let d = body.r - bodies[a].r;
            let n = d.normalize();
            (body.radius + bodies[a].radius - d.norm(), -(body.v - bodies[a].v).dot(&n), n)
        }
    }
}

/// Stored energy of the linear spring at depth d.
pub fn spring_energy(law: Law, d: f64) -> f64 {
    if d > 0.0 {
        0.5 * law.k * d * d
    } else {
        0.0
    }
}

/// A block as the test bed sees it: the FMU through the model, or through either FMI C API.
pub trait Block {
    fn set_frame(&mut self, k: usize, r: V3, q: UnitQuaternion<f64>, v: V3);
    /// Force on frame k (0 = A, 1 = B), the outputs as read.
    fn force(&mut self, k: usize) -> V3;
    fn do_step(&mut self, t: f64, h: f64);
    fn get(&mut self, name: &str) -> f64;
    fn save(&mut self) -> Box<dyn std::any::Any>;
    fn restore(&mut self, state: &dyn std::any::Any);
    /// The mass body k shows in the contact direction as the block learnt it (without reading
    /// the outputs, which would be a call the master does not make).
    fn effective_mass(&self, k: usize) -> f64;
    /// `body_X.mobility` of frame k (0 = A, 1 = B).
    fn set_mobility(&mut self, k: usize, phi: &[f64; 21]);
}

impl Block for Model {
    fn set_frame(&mut self, k: usize, r: V3, q: UnitQuaternion<f64>, v: V3) {
        let f = if k == 0 { &mut self.inputs.frame_a } else { &mut self.inputs.frame_b };
        f.r_0 = r.into();
        f.q = [q.w, q.i, q.j, q.k];
        f.v_0 = v.into();
        self.inputs_changed();
    }

    fn force(&mut self, k: usize) -> V3 {
        let out = self.update_outputs().expect("outputs");
        V3::from(if k == 0 { out.frame_a.f_0 } else { out.frame_b.f_0 })
    }

    fn do_step(&mut self, _t: f64, h: f64) {
        Model::do_step(self, h).expect("step");
    }

    fn get(&mut self, name: &str) -> f64 {
        let out = self.update_outputs().expect("outputs").clone();
        match name {
            "contact.normal_force" => out.normal_force,
            other => panic!("no output {other} in the test bed"),
        }
    }

    fn save(&mut self) -> Box<dyn std::any::Any> {
        Box::new(self.clone())
    }

    fn restore(&mut self, state: &dyn std::any::Any) {
        *self = state.downcast_ref::<Model>().expect("a model").clone();
    }

    fn effective_mass(&self, k: usize) -> f64 {
        self.coupling().effective_mass(k)
    }

    fn set_mobility(&mut self, k: usize, phi: &[f64; 21]) {
        self.mobility[k] = *phi;
        self.inputs_changed();
    }
}

/// A hinged point mass's mobility at its position: it moves along its path's tangent t only,
/// so an impulse P changes its velocity by t (t . P) / m: Phi = t t^T / m in the translation
/// block (the upper triangle of the 6x6 matrix, row by row).
pub fn hinge_mobility(body: &Body) -> [f64; 21] {
    let t = V3::new(body.phi.cos(), 0.0, body.phi.sin());
    let mut phi = [0.0; 21];
    for (i, j, index) in [(0, 0, 0), (0, 1, 1), (0, 2, 2), (1, 1, 6), (1, 2, 7), (2, 2, 11)] {
        phi[index] = t[i] * t[j] / body.m;
    }
    phi
}

/// A contact block of the system: which bodies it joins and how frame A sits.
pub struct Contact {
    pub block: Box<dyn Block>,
    pub other: Other,
    pub b: usize,
    pub law: Law,
    /// The force on each frame as last read (held by the bodies).
    pub held: [V3; 2],
    /// Give the block body B's mobility with its pose (a body FMU that knows its joint).
    pub give_mobility: bool,
}

/// ContactForce's parameters for a sphere of `radius` against `other`, StepAverage at `h`.
pub fn block_model(other: &Other, bodies: &[Body], b: usize, law: Law, h: f64) -> Model {
    block_model_with(other, bodies, b, law, h, |_| {})
}

/// [`block_model`] with more parameters set by `more` before initialisation.
pub fn block_model_with(other: &Other, bodies: &[Body], b: usize, law: Law, h: f64, more: impl FnOnce(&mut contact_force::block::Parameters)) -> Model {
    let mut model = Model::default();
    let p = &mut model.parameters;
    match other {
        Other::Plane { .. } | Other::MovingPlane { .. } => p.geometry_a.shape = ShapeKind::Plane.value(),
        Other::Sphere { body } => {
            p.geometry_a.shape = ShapeKind::Sphere.value();
            p.geometry_a.radius = bodies[*body].radius;
        }
    }
    p.geometry_b.shape = ShapeKind::Sphere.value();
    p.geometry_b.radius = bodies[b].radius;
    p.normal.law = NormalLawKind::LinearSpringDamper.value();
    p.normal.stiffness = law.k;
    p.normal.damping = law.b;
    p.friction.law = FrictionLawKind::None.value();
    p.coupling.mode = CouplingMode::StepAverage.value();
    p.coupling.step = h;
    p.body_b.mass = bodies[b].m;
    if let Other::Sphere { body } | Other::MovingPlane { body, .. } = other {
        p.body_a.mass = bodies[*body].m;
    }
    more(p);
    model.parameters_changed();
    model.initialize().expect("valid parameters");
    model
}

/// The rotation taking z to `n` (a plane's frame).
pub fn plane_rotation(n: [f64; 3]) -> UnitQuaternion<f64> {
    UnitQuaternion::rotation_between(&V3::z(), &V3::from(n)).unwrap_or_else(|| UnitQuaternion::from_axis_angle(&V3::x_axis(), std::f64::consts::PI))
}

impl Contact {
    pub fn new(block: Box<dyn Block>, other: Other, b: usize, law: Law) -> Contact {
        Contact { block, other, b, law, held: [V3::zeros(); 2], give_mobility: false }
    }

    /// The bodies' states into the block's inputs.
    pub fn set_inputs(&mut self, bodies: &[Body]) {
        match self.other {
            Other::Plane { point, normal } => self.block.set_frame(0, V3::from(point), plane_rotation(normal), V3::zeros()),
            Other::MovingPlane { body, normal } => self.block.set_frame(0, bodies[body].r, plane_rotation(normal), bodies[body].v),
            Other::Sphere { body } => self.block.set_frame(0, bodies[body].r, UnitQuaternion::identity(), bodies[body].v),
        }
        let b = &bodies[self.b];
        self.block.set_frame(1, b.r, UnitQuaternion::identity(), b.v);
        if self.give_mobility {
            self.block.set_mobility(1, &hinge_mobility(b));
        }
    }

    pub fn read(&mut self) {
        self.held = [self.block.force(0), self.block.force(1)];
    }

    fn other_body(&self) -> Option<usize> {
        match self.other {
            Other::Plane { .. } => None,
            Other::MovingPlane { body, .. } | Other::Sphere { body } => Some(body),
        }
    }
}

/// How the master orders the calls within a communication step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Order {
    /// Gauss-Seidel, the blocks first: inputs set, outputs read, DoStep; then the bodies step.
    BlockFirst,
    /// Jacobi: everything steps from the values exchanged at the step's start, then the
    /// outputs are read and the inputs set.
    Jacobi,
    /// Gauss-Seidel, the bodies first: they step with the held forces, then each block gets
    /// their states at the step's end, steps, and its outputs are read.
    BodyFirst,
}

pub const ORDERS: [Order; 3] = [Order::BlockFirst, Order::Jacobi, Order::BodyFirst];

pub struct System {
    pub bodies: Vec<Body>,
    pub contacts: Vec<Contact>,
    pub t: f64,
    /// Work done on the driven bodies by the drives (J): minus the contact forces' work on them.
    pub drive_work: f64,
    started: bool,
}

impl System {
    pub fn new(bodies: Vec<Body>, contacts: Vec<Contact>) -> System {
        System { bodies, contacts, t: 0.0, drive_work: 0.0, started: false }
    }

    /// The force each body holds: the sum of the blocks' held outputs on it.
    fn held_forces(&self) -> Vec<V3> {
        let mut f = vec![V3::zeros(); self.bodies.len()];
        for c in &self.contacts {
            f[c.b] += c.held[1];
            if let Some(a) = c.other_body() {
                f[a] += c.held[0];
            }
        }
        f
    }

    fn step_bodies(&mut self, h: f64) {
        let f = self.held_forces();
        let t = self.t;
        for (body, f) in self.bodies.iter_mut().zip(&f) {
            if let Holder::Driven { .. } = body.holder {
                let r0 = body.r;
                body.step(*f, t, h);
                // The drive holds the body against the contact: it does minus the contact's work.
                self.drive_work -= f.dot(&(body.r - r0));
            } else {
                body.step(*f, t, h);
            }
        }
    }

    /// One communication step of `h` in `order`.
    pub fn step(&mut self, order: Order, h: f64) {
        if !self.started {
            self.started = true;
            for c in &mut self.contacts {
                c.set_inputs(&self.bodies);
                c.read();
            }
        }
        let t = self.t;
        match order {
            Order::BlockFirst => {
                for c in &mut self.contacts {
                    c.set_inputs(&self.bodies);
                    c.read();
                    c.block.do_step(t, h);
                }
                self.step_bodies(h);
            }
            Order::Jacobi => {
                for c in &mut self.contacts {
                    c.block.do_step(t, h);
                }
                self.step_bodies(h);
                for c in &mut self.contacts {
                    c.read();
                    c.set_inputs(&self.bodies);
                }
            }
            Order::BodyFirst => {
                self.step_bodies(h);
                for c in &mut self.contacts {
                    c.set_inputs(&self.bodies);
                    c.block.do_step(t, h);
                    c.read();
                }
            }
        }
        self.t += h;
    }

    /// One step of `h` tried, rolled back (bodies and blocks restored, as a master does with FMU
    /// states), and redone as two steps of `h / 2`.
    pub fn step_with_rollback(&mut self, order: Order, h: f64) {
        let bodies = self.bodies.clone();
        let (t, work, started) = (self.t, self.drive_work, self.started);
        let saved: Vec<(Box<dyn std::any::Any>, [V3; 2])> = self.contacts.iter_mut().map(|c| (c.block.save(), c.held)).collect();
        self.step(order, h);
        self.bodies = bodies;
        (self.t, self.drive_work, self.started) = (t, work, started);
        for (c, (state, held)) in self.contacts.iter_mut().zip(&saved) {
            c.block.restore(state.as_ref());
            c.held = *held;
        }
        self.step(order, h / 2.0);
        self.step(order, h / 2.0);
    }

    /// Bodies' kinetic and gravitational energy plus the springs' (at the bodies' states).
    pub fn energy(&self) -> f64 {
        let bodies: f64 = self.bodies.iter().filter(|b| b.m > 0.0).map(Body::energy).sum();
        let springs: f64 = self.contacts.iter().map(|c| spring_energy(c.law, kinematics(&c.other, &self.bodies, c.b).0)).sum();
        bodies + springs
    }
}

/// The same bodies and contacts integrated together at `dt` (RK4 on the clipped law), as the
/// reference; `sample` sees the bodies after each step.
pub struct Reference {
    pub bodies: Vec<Body>,
    pub contacts: Vec<(Other, usize, Law)>,
    pub t: f64,
}

impl Reference {
    pub fn new(bodies: Vec<Body>, contacts: Vec<(Other, usize, Law)>) -> Reference {
        // The reference integrates every body exactly (free) or by RK4 (a hinge's angle).
        let bodies = bodies.into_iter().map(|b| if let Holder::Hinge { .. } = b.holder { b.with(Integrator::Rk4, 1) } else { b.with(Integrator::Exact, 1) }).collect();
        Reference { bodies, contacts, t: 0.0 }
    }

    fn forces(&self, bodies: &[Body]) -> Vec<V3> {
        let mut f = vec![V3::zeros(); bodies.len()];
        for (other, b, law) in &self.contacts {
            let (d, d_dot, n) = kinematics(other, bodies, *b);
            let fn_ = law_force(*law, d, d_dot);
            f[*b] += n * fn_;
            match other {
                Other::Sphere { body } | Other::MovingPlane { body, .. } => f[*body] -= n * fn_,
                Other::Plane { .. } => {}
            }
        }
        f
    }

    /// One step of `dt`: velocity Verlet with the damping read at the half-kicked velocity
    /// (second order; at 1 us omega dt = 1e-3).
    pub fn step(&mut self, dt: f64) {
        let t = self.t;
        let f0 = self.forces(&self.bodies);
        let mut mid = self.bodies.clone();
        for (body, f) in mid.iter_mut().zip(&f0) {
            body.step(*f, t, 0.5 * dt);
        }
        let fm = self.forces(&mid);
        for (body, f) in self.bodies.iter_mut().zip(&fm) {
            body.step(*f, t, dt);
        }
        self.t += dt;
    }
}
