//! The table of supported pairs in the README and the guide (docs/src/pairs.md) says exactly
//! what the pair registry does: every cell with a point count is a pair `GeometryPair::new`
//! accepts, in both orders; every "—" cell is refused with a message naming both shapes.

use std::sync::Arc;

use contact_force::physics::geometry::{GeometryPair, Surface};
use contact_force::physics::math::Vec3;
use contact_force::physics::shape::{ConvexHull, HeightField, PointCloud, Shape, ShapeKind, TriangleMesh};

/// One shape of each kind, with small but valid dimensions and data.
pub fn sample(kind: ShapeKind) -> Shape {
    let cube: Vec<Vec3> = (0..8).map(|i| Vec3::new((i & 1) as f64 - 0.5, ((i >> 1) & 1) as f64 - 0.5, ((i >> 2) & 1) as f64 - 0.5) * 0.2).collect();
    match kind {
        ShapeKind::Point => Shape::Point,
        ShapeKind::Sphere => Shape::Sphere { radius: 0.1 },
        ShapeKind::Box => Shape::Box { half_extents: Vec3::new(0.1, 0.15, 0.05) },
        ShapeKind::Cylinder => Shape::Cylinder { radius: 0.08, half_length: 0.12 },
        ShapeKind::Capsule => Shape::Capsule { radius: 0.05, half_length: 0.1 },
        ShapeKind::Ellipsoid => Shape::Ellipsoid { semi_axes: Vec3::new(0.1, 0.07, 0.12) },
        ShapeKind::Disk => Shape::Disk { radius: 0.2 },
        ShapeKind::Rectangle => Shape::Rectangle { half_x: 0.2, half_y: 0.15 },
        ShapeKind::Plane => Shape::Plane,
        ShapeKind::ConvexHull => Shape::ConvexHull(Arc::new(ConvexHull::new(&cube).unwrap())),
        ShapeKind::Mesh => {
            let faces: Vec<[u32; 3]> = vec![
                [0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
                [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5],
            ];
            Shape::Mesh(Arc::new(TriangleMesh::new(&cube, &faces).unwrap()))
        }
        ShapeKind::PointCloud => Shape::PointCloud(Arc::new(PointCloud { points: cube })),
        ShapeKind::GridSurface => Shape::GridSurface(Arc::new(HeightField {
            x0: -1.0,
            y0: -1.0,
            dx: 1.0,
            dy: 1.0,
            nx: 3,
            ny: 3,
            heights: vec![0.0, 0.1, 0.0, 0.1, 0.2, 0.1, 0.0, 0.1, 0.0],
        })),
    }
}

/// The table as the README shows it: rows are A, columns B; a cell is the number of contact
/// point slots (candidate points) of the pair, "N" for one per point of a cloud, "V" for one per
/// vertex of a hull or mesh, "—" when the pair is not supported, "✗" when it cannot be.
fn table() -> String {
    let kinds: Vec<ShapeKind> = ShapeKind::ITEMS.iter().map(|i| ShapeKind::from_value(i.value).unwrap()).collect();
    let mut text = String::from("| A \\ B |");
    for b in &kinds {
        text.push_str(&format!(" {} |", b.name()));
    }
    text.push_str("\n|---|");
    text.push_str(&"---|".repeat(kinds.len()));
    text.push('\n');
    for a in &kinds {
        text.push_str(&format!("| **{}** |", a.name()));
        for b in &kinds {
            let cell = match GeometryPair::new(sample(*a), sample(*b)) {
                Ok(_) if *a == ShapeKind::PointCloud || *b == ShapeKind::PointCloud => "N".to_string(),
                Ok(_) if matches!((a, b), (ShapeKind::Plane, ShapeKind::ConvexHull | ShapeKind::Mesh) | (ShapeKind::ConvexHull | ShapeKind::Mesh, ShapeKind::Plane)) => {
                    "V".to_string()
                }
                Ok(pair) => pair.max_points().to_string(),
                Err(e) if e.reason == "not supported yet" => "—".to_string(),
                Err(_) => "✗".to_string(),
            };
            text.push_str(&format!(" {cell} |"));
        }
        text.push('\n');
    }
    text
}

#[test]
fn the_pair_tables_of_the_readme_and_the_guide_match_the_registry() {
    // Both show the table: the README as a feature overview, the guide's pairs page in full.
    let expected = table();
    for file in ["README.md", "docs/src/pairs.md"] {
        let text = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert!(text.contains(&expected), "{file}'s pair table is out of date; replace it with:\n\n{expected}");
    }
}

#[test]
fn every_pair_is_accepted_in_both_orders_or_refused_naming_both_shapes() {
    for a in ShapeKind::ITEMS {
        for b in ShapeKind::ITEMS {
            let (a, b) = (ShapeKind::from_value(a.value).unwrap(), ShapeKind::from_value(b.value).unwrap());
            match (GeometryPair::new(sample(a), sample(b)), GeometryPair::new(sample(b), sample(a))) {
                (Ok(forward), Ok(backward)) => assert_eq!(forward.max_points(), backward.max_points(), "{a:?}-{b:?}"),
                (Err(e), Err(_)) => {
                    let message = e.to_string();
                    assert!(message.contains(a.name()) && message.contains(b.name()), "{message}");
                }
                _ => panic!("{a:?}-{b:?} is supported in one order only"),
            }
        }
    }
}

/// The inside surfaces' table of the README and the guide: rows are the inside shape (A,
/// `geometry_a.inside`; an inside Cylinder twice, with its end faces off and on), columns what lies
/// in it (B); a cell is the point count, "V" per hull vertex and "N" per cloud point (with their
/// factor, 6 for a box's six faces), "—" when refused. Shapes whose inside is offered for no pair
/// get no row (the guide says so in a sentence).
fn inside_table() -> String {
    let kinds: Vec<ShapeKind> = ShapeKind::ITEMS.iter().map(|i| ShapeKind::from_value(i.value).unwrap()).collect();
    let mut text = String::from("| inside A \\ B |");
    for b in &kinds {
        text.push_str(&format!(" {} |", b.name()));
    }
    text.push_str("\n|---|");
    text.push_str(&"---|".repeat(kinds.len()));
    text.push('\n');
    let closed = Surface { inside: true, end_bottom: true, end_top: true };
    let rows = kinds.iter().flat_map(|&a| {
        let mut rows = vec![(a, Surface::inside(true), format!("**{}**", a.name()))];
        if a == ShapeKind::Cylinder {
            rows.push((a, closed, "**Cylinder, end faces on**".to_string()));
        }
        rows
    });
    for (a, surface, label) in rows {
        let cells: Vec<String> = kinds
            .iter()
            .map(|b| match GeometryPair::with_surfaces(sample(a), surface, sample(*b), Surface::default()) {
                Ok(pair) => match b {
                    // The samples have 8 vertices and 8 points.
                    ShapeKind::ConvexHull | ShapeKind::PointCloud => {
                        let per = if *b == ShapeKind::ConvexHull { "V" } else { "N" };
                        let (whole, rest) = (pair.max_points() / 8, pair.max_points() % 8);
                        match (whole, rest) {
                            (1, 0) => per.to_string(),
                            (w, 0) => format!("{w}{per}"),
                            (w, r) => format!("{w}{per} + {r}"),
                        }
                    }
                    _ => pair.max_points().to_string(),
                },
                Err(_) => "—".to_string(),
            })
            .collect();
        if cells.iter().all(|c| c == "—") {
            continue;
        }
        text.push_str(&format!("| {label} |"));
        for cell in cells {
            text.push_str(&format!(" {cell} |"));
        }
        text.push('\n');
    }
    text
}

#[test]
fn the_guides_inside_table_matches_the_registry_in_both_orders() {
    let expected = inside_table();
    for file in ["README.md", "docs/src/pairs.md"] {
        let text = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert!(text.contains(&expected), "{file}'s inside table is out of date; replace it with:\n\n{expected}");
    }
    // The inside shape as B behaves as it does as A.
    for a in ShapeKind::ITEMS {
        for b in ShapeKind::ITEMS {
            let (a, b) = (ShapeKind::from_value(a.value).unwrap(), ShapeKind::from_value(b.value).unwrap());
            let forward = GeometryPair::with_inside(sample(a), true, sample(b), false).map(|p| p.max_points()).ok();
            let backward = GeometryPair::with_inside(sample(b), false, sample(a), true).map(|p| p.max_points()).ok();
            assert_eq!(forward, backward, "{a:?} inside - {b:?}");
        }
    }
}
