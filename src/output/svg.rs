//! SVG pictures: a tour drawn on its board, and a per-square table of counts as a heatmap.

use std::fmt::Write;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use crate::count::CountTable;
use crate::error::Error;
use crate::tour::Tour;

/// Why `what` (an answer other than a per-square table) cannot be drawn: SVG draws tables as
/// heatmaps, and tours.
pub fn no_picture(what: &str) -> Error {
    Error::Unsupported(format!(
        "SVG draws per-square tables (count ROWS COLS) and tours; {what} has no picture: use table, json or csv"
    ))
}

/// A length in an SVG attribute: at most two decimals, without float noise
/// (`447.84000000000003` is written `447.84`, and `440.0` is written `440`).
struct Px(f64);

impl std::fmt::Display for Px {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", (self.0 * 100.0).round() / 100.0)
    }
}

/// The colours of a tour's picture: the one definition, used by [`tour_svg`] and sent to the
/// page (`knights serve`), which draws its tours and plain boards with them.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct TourColours {
    /// The light squares.
    pub light: &'static str,
    /// The dark squares.
    pub dark: &'static str,
    /// The knight's path.
    pub path: &'static str,
    /// The start's disc.
    pub start: &'static str,
    /// The last square's marker.
    pub end: &'static str,
    /// The knight.
    pub knight: &'static str,
    /// The step numbers.
    pub numbers: &'static str,
    /// The halo around the step numbers, so that the path drawn under them never hides them.
    pub halo: &'static str,
}

/// The colours of every tour's picture.
pub const TOUR_COLOURS: TourColours = TourColours {
    light: "#f0d9b5",
    dark: "#b58863",
    path: "#1f4e9a",
    start: "#2e9e45",
    end: "#c0392b",
    knight: "#111111",
    numbers: "#222222",
    halo: "#ffffff",
};

/// Step numbers are written on boards whose long side is at most this.
pub const NUMBERS_UP_TO: u32 = 16;

/// The side of a square in pixels: the picture stays about 800 pixels wide or tall.
fn cell_size(rows: u32, cols: u32) -> f64 {
    (800.0 / rows.max(cols) as f64).clamp(1.0, 48.0)
}

/// About how wide a line of text is in pixels.
fn title_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.56
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A tour on its board: the squares in two shades, the knight's path, the start (a green
/// disc) and the last square (a red square; a closed tour's path then closes on its start),
/// and the step
/// numbers on boards small enough to read them.
pub fn tour_svg(tour: &Tour) -> String {
    draw_tour(tour, None, &[])
}

/// A puzzle's completion: the picture of [`tour_svg`] (animated with `animate`), the given
/// numbers (`given`, by row-major square) in bold with a ring, so that the worksheet's numbers
/// stand out from the ones found.
pub fn puzzle_tour_svg(tour: &Tour, given: &[bool], animate: bool) -> String {
    if animate {
        animated(tour, given)
    } else {
        draw_tour(tour, None, given)
    }
}

/// A puzzle to print and fill in: its board, the given numbers (`cells`, row by row, `None`
/// for an empty cell) in bold, the other squares blank, under `title`.
pub fn puzzle_svg(board: crate::board::Board, cells: &[Option<u64>], title: &str) -> String {
    let (rows, cols) = (board.rows(), board.cols());
    // Squares large enough to write a two-digit number in by hand.
    let cell = (640.0 / rows.max(cols) as f64).clamp(24.0, 72.0);
    let (width, height) = (cols as f64 * cell, rows as f64 * cell);
    let margin = 24.0;
    let mut out = String::new();
    writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"##,
        w = Px((width + 2.0 * margin).max(title_width(title, 14.0) + 2.0 * margin)),
        h = Px(height + 2.0 * margin + 20.0)
    )
    .expect("String");
    writeln!(out, "<title>{}</title>", escape(title)).expect("String");
    writeln!(
        out,
        r##"<text x="{margin}" y="16" font-size="14">{}</text>"##,
        escape(title)
    )
    .expect("String");
    let top = margin + 20.0;
    // Light squares, the dark ones a pale grey: ink on them stays readable, printed too.
    for (index, given) in cells.iter().enumerate() {
        let square = board.square(index);
        let (x, y) = (
            margin + square.col as f64 * cell,
            top + square.row as f64 * cell,
        );
        let fill = if (square.row + square.col).is_multiple_of(2) {
            "#ffffff"
        } else {
            "#e4e4e4"
        };
        writeln!(
            out,
            r##"<rect x="{}" y="{}" width="{c}" height="{c}" fill="{fill}" stroke="#555" stroke-width="1"/>"##,
            Px(x),
            Px(y),
            c = Px(cell)
        )
        .expect("String");
        if let Some(step) = given {
            writeln!(
                out,
                r##"<text x="{}" y="{}" font-size="{}" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="#000">{step}</text>"##,
                Px(x + cell / 2.0),
                Px(y + cell / 2.0),
                Px(cell / 2.6)
            )
            .expect("String");
        }
    }
    writeln!(
        out,
        r##"<rect x="{margin}" y="{top}" width="{}" height="{}" fill="none" stroke="#000" stroke-width="2"/>"##,
        Px(width),
        Px(height)
    )
    .expect("String");
    out.push_str("</svg>\n");
    out
}

/// The picture of [`tour_svg`], animated with SMIL so that it plays in a browser without any
/// script: the knight (a black disc) moves square by square, the path is drawn behind it, the
/// step numbers appear as it reaches them and the last square's marker at the end; then it
/// starts again. A viewer without SMIL shows the finished picture.
pub fn tour_svg_animated(tour: &Tour) -> String {
    animated(tour, &[])
}

fn animated(tour: &Tour, given: &[bool]) -> String {
    let moves = tour.squares().len() - 1 + usize::from(tour.is_closed());
    if moves == 0 {
        return draw_tour(tour, None, given);
    }
    // About 0.3 s a move, at most 40 s for the whole path, then a pause of 2 s.
    let drawing = (0.3 * moves as f64).min(40.0);
    draw_tour(
        tour,
        Some(Timing {
            moves,
            period: drawing + 2.0,
            drawn: drawing / (drawing + 2.0),
        }),
        given,
    )
}

/// When an animated tour shows what.
#[derive(Clone, Copy)]
struct Timing {
    /// Moves drawn (a closed tour's last move returns to the start).
    moves: usize,
    /// Seconds before the animation starts again.
    period: f64,
    /// The fraction of the period at which the path is complete.
    drawn: f64,
}

impl Timing {
    /// The fraction of the period at which the knight reaches step `index` (from 0).
    fn at(&self, index: usize) -> f64 {
        self.drawn * index as f64 / self.moves as f64
    }

    /// An animation that shows an element from the time its step is reached.
    fn appear(&self, index: usize) -> String {
        format!(
            r##"<animate attributeName="opacity" values="0;1" keyTimes="0;{:.4}" calcMode="discrete" dur="{:.2}s" repeatCount="indefinite"/>"##,
            self.at(index),
            self.period
        )
    }
}

/// `given`: the squares (row-major) whose numbers a puzzle gave, drawn in bold with a ring
/// (empty: none).
fn draw_tour(tour: &Tour, animation: Option<Timing>, given: &[bool]) -> String {
    let board = tour.board();
    let (rows, cols) = (board.rows(), board.cols());
    let cell = cell_size(rows, cols);
    let (width, height) = (cols as f64 * cell, rows as f64 * cell);
    let margin = 24.0;
    let mut out = String::new();
    let title = format!(
        "{} knight's tour of the {board} board from {}",
        if tour.is_closed() {
            "A closed"
        } else {
            "An open"
        },
        tour.squares()[0]
    );
    writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"##,
        w = Px((width + 2.0 * margin).max(title_width(&title, 14.0) + 2.0 * margin)),
        h = Px(height + 2.0 * margin + 20.0)
    )
    .expect("String");
    writeln!(out, "<title>{}</title>", escape(&title)).expect("String");
    // The board: a two-square pattern, so that a large board is one rectangle.
    writeln!(
        out,
        r##"<defs><pattern id="squares" x="{margin}" y="{top}" width="{d}" height="{d}" patternUnits="userSpaceOnUse"><rect width="{d}" height="{d}" fill="{dark}"/><rect width="{cell}" height="{cell}" fill="{light}"/><rect x="{cell}" y="{cell}" width="{cell}" height="{cell}" fill="{light}"/></pattern></defs>"##,
        dark = TOUR_COLOURS.dark,
        light = TOUR_COLOURS.light,
        top = margin + 20.0,
        d = Px(2.0 * cell),
        cell = Px(cell)
    )
    .expect("String");
    writeln!(
        out,
        r##"<text x="{margin}" y="16" font-size="14">{}</text>"##,
        escape(&title)
    )
    .expect("String");
    writeln!(
        out,
        r##"<rect x="{margin}" y="{}" width="{}" height="{}" fill="url(#squares)" stroke="#555"/>"##,
        margin + 20.0,
        Px(width),
        Px(height)
    )
    .expect("String");
    let centre = |sq: crate::board::Square| {
        (
            margin + (sq.col as f64 + 0.5) * cell,
            margin + 20.0 + (sq.row as f64 + 0.5) * cell,
        )
    };
    let mut points = String::with_capacity(tour.squares().len() * 12);
    for &sq in tour.squares() {
        let (x, y) = centre(sq);
        write!(points, "{x:.1},{y:.1} ").expect("String");
    }
    let stroke = (cell / 8.0).clamp(0.3, 3.0);
    let shape = if tour.is_closed() {
        "polygon"
    } else {
        "polyline"
    };
    write!(
        out,
        r##"<{shape} points="{}" fill="none" stroke="{}" stroke-width="{stroke:.2}" stroke-linejoin="round" stroke-opacity="0.85""##,
        points.trim_end(),
        TOUR_COLOURS.path
    )
    .expect("String");
    match animation {
        None => out.push_str("/>\n"),
        Some(timing) => {
            // Every knight's move is sqrt(5) squares long, so a dash that uncovers the path at
            // a steady pace keeps step with the knight.
            let length = timing.moves as f64 * 5f64.sqrt() * cell + 1.0;
            writeln!(
                out,
                r##" stroke-dasharray="{length:.1}"><animate attributeName="stroke-dashoffset" values="{length:.1};0;0" keyTimes="0;{:.4};1" dur="{:.2}s" repeatCount="indefinite"/></{shape}>"##,
                timing.drawn,
                timing.period
            )
            .expect("String");
        }
    }
    // At least 5 units, so that start and end stay visible on large boards.
    let marker = (cell / 3.0).max(5.0);
    let (sx, sy) = centre(tour.squares()[0]);
    writeln!(
        out,
        r##"<circle cx="{sx:.1}" cy="{sy:.1}" r="{marker:.1}" fill="{}"><title>start</title></circle>"##,
        TOUR_COLOURS.start
    )
    .expect("String");
    // The last square (on a closed tour, a knight's move from the start).
    if tour.squares().len() > 1 {
        let (ex, ey) = centre(*tour.squares().last().expect("a tour has squares"));
        writeln!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="{m:.1}" height="{m:.1}" fill="{}"><title>end</title>{}</rect>"##,
            ex - marker,
            ey - marker,
            TOUR_COLOURS.end,
            animation.map_or(String::new(), |t| t.appear(tour.squares().len() - 1)),
            m = 2.0 * marker
        )
        .expect("String");
    }
    if rows.max(cols) <= NUMBERS_UP_TO {
        let size = (cell / 3.2).max(6.0);
        for (step, &sq) in tour.squares().iter().enumerate() {
            let (x, y) = centre(sq);
            let is_given = given.get(board.index(sq)).copied().unwrap_or(false);
            if is_given {
                writeln!(
                    out,
                    r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{}" fill-opacity="0.9" stroke="{}" stroke-width="{:.1}"><title>given</title></circle>"##,
                    cell * 0.36,
                    TOUR_COLOURS.halo,
                    TOUR_COLOURS.numbers,
                    (cell / 24.0).max(1.0)
                )
                .expect("String");
            }
            writeln!(
                out,
                r##"<text x="{x:.1}" y="{:.1}" font-size="{size:.1}"{} text-anchor="middle" fill="{}" stroke="{}" stroke-width="{:.1}" paint-order="stroke">{}{}</text>"##,
                // A given number sits in its ring, at the centre; the others below the path.
                if is_given { y + size * 0.35 } else { y + size * 1.1 },
                if is_given { r#" font-weight="700""# } else { "" },
                TOUR_COLOURS.numbers,
                TOUR_COLOURS.halo,
                size / 4.0,
                step + 1,
                animation
                    .filter(|_| step > 0 && !is_given)
                    .map_or(String::new(), |t| t.appear(step))
            )
            .expect("String");
        }
    }
    if let Some(timing) = animation {
        // The knight: hidden where SMIL does not run (it would sit in the corner), moved along
        // the path where it does.
        let mut path = String::with_capacity(points.len() + 8);
        for (i, point) in points.split_whitespace().enumerate() {
            path.push_str(if i == 0 { "M" } else { " L" });
            path.push_str(point);
        }
        if tour.is_closed() {
            path.push_str(" Z");
        }
        writeln!(
            out,
            r##"<g opacity="0"><title>the knight</title><set attributeName="opacity" to="1" begin="0s"/><circle r="{:.1}" fill="{}" stroke="{}" stroke-width="{:.1}"/><animateMotion path="{path}" keyPoints="0;1;1" keyTimes="0;{:.4};1" calcMode="linear" dur="{:.2}s" repeatCount="indefinite"/></g>"##,
            (cell * 0.28).max(4.0),
            TOUR_COLOURS.knight,
            TOUR_COLOURS.halo,
            (cell / 16.0).max(1.0),
            timing.drawn,
            timing.period
        )
        .expect("String");
    }
    out.push_str("</svg>\n");
    out
}

/// A per-square table as a heatmap: each square coloured by its count (on a logarithmic
/// scale, zero in grey), with the count written in it, and a legend of the scale.
pub fn heatmap(table: &CountTable) -> String {
    let board = table.board();
    let (rows, cols) = (board.rows(), board.cols());
    let cell = cell_size(rows, cols).max(24.0);
    let (width, height) = (cols as f64 * cell, rows as f64 * cell);
    let margin = 24.0;
    let top = margin + 24.0;
    let legend_height = 60.0;
    let max = table.counts().iter().max().cloned().unwrap_or_default();
    let min_nonzero = table
        .counts()
        .iter()
        .filter(|c| !c.is_zero())
        .min()
        .cloned();
    let heat = HeatScale::of(table.counts());
    let mut out = String::new();
    let title = format!("Open tours from each square of the {board} board (directed)");
    writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"##,
        w = Px((width + 2.0 * margin).max(title_width(&title, 15.0) + 2.0 * margin)),
        h = Px(top + height + legend_height + margin)
    )
    .expect("String");
    writeln!(out, "<title>{}</title>", escape(&title)).expect("String");
    writeln!(
        out,
        r##"<text x="{margin}" y="{}" font-size="15">{}</text>"##,
        margin,
        escape(&title)
    )
    .expect("String");
    for r in 0..rows {
        for c in 0..cols {
            let count = table.get(crate::board::Square::new(r, c));
            let (x, y) = (margin + c as f64 * cell, top + r as f64 * cell);
            let text = count.to_string();
            let size = (cell * 1.6 / (text.len() as f64 + 1.0))
                .min(cell / 3.0)
                .max(3.0);
            writeln!(
                out,
                r##"<rect x="{x:.1}" y="{y:.1}" width="{cell:.1}" height="{cell:.1}" fill="{}" stroke="#ffffff" stroke-width="1"><title>({r}, {c}): {text}</title></rect>"##,
                heat.fill(count)
            )
            .expect("String");
            writeln!(
                out,
                r##"<text x="{:.1}" y="{:.1}" font-size="{size:.1}" text-anchor="middle" dominant-baseline="middle" fill="{}">{text}</text>"##,
                x + cell / 2.0,
                y + cell / 2.0,
                heat.ink(count)
            )
            .expect("String");
        }
    }
    // The legend: the colour scale from the smallest count above zero to the largest.
    let legend_y = top + height + 16.0;
    let legend_width = width.clamp(160.0, 480.0);
    writeln!(
        out,
        r##"<defs><linearGradient id="scale">{}</linearGradient></defs>"##,
        legend_colours()
            .iter()
            .enumerate()
            .map(|(i, colour)| format!(r##"<stop offset="{}%" stop-color="{colour}"/>"##, i * 10))
            .collect::<String>()
    )
    .expect("String");
    writeln!(
        out,
        r##"<rect x="{margin}" y="{legend_y:.1}" width="{legend_width:.1}" height="14" fill="url(#scale)" stroke="#555"/>"##
    )
    .expect("String");
    let label = |value: Option<&BigUint>| value.map_or("-".to_string(), |v| v.to_string());
    writeln!(
        out,
        r##"<text x="{margin}" y="{:.1}" font-size="11">{}</text>"##,
        legend_y + 28.0,
        label(min_nonzero.as_ref())
    )
    .expect("String");
    writeln!(
        out,
        r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"##,
        margin + legend_width,
        legend_y + 28.0,
        label(Some(&max))
    )
    .expect("String");
    writeln!(
        out,
        r##"<text x="{margin}" y="{:.1}" font-size="11">tours from the square (logarithmic scale; grey: none)</text>"##,
        legend_y + 42.0
    )
    .expect("String");
    out.push_str("</svg>\n");
    out
}

/// The heatmap's colours for one set of counts: a logarithmic scale from the smallest count
/// above zero (pale yellow) to the largest (dark blue), zero in grey. The SVG heatmap and the
/// server's page both colour squares with it, so that they agree. (Yellow to blue, one hue
/// after the other, stays readable for colour-blind eyes.)
#[derive(Clone, Copy, Debug)]
pub struct HeatScale {
    low: f64,
    high: f64,
}

impl HeatScale {
    /// The scale that spans `counts`.
    pub fn of(counts: &[BigUint]) -> Self {
        let max = counts.iter().max();
        let min_nonzero = counts.iter().filter(|c| !c.is_zero()).min();
        match (min_nonzero, max) {
            (Some(min), Some(max)) => HeatScale {
                low: ln_count(min),
                high: ln_count(max),
            },
            _ => HeatScale {
                low: 0.0,
                high: 0.0,
            },
        }
    }

    /// Where `count` lies on the scale, from 0 to 1; `None` for zero.
    fn position(&self, count: &BigUint) -> Option<f64> {
        if count.is_zero() {
            None
        } else if self.high > self.low {
            Some((ln_count(count) - self.low) / (self.high - self.low))
        } else {
            Some(1.0)
        }
    }

    /// The colour of a square whose count is `count`.
    pub fn fill(&self, count: &BigUint) -> String {
        self.position(count)
            .map_or_else(|| "#d9d9d9".to_string(), scale)
    }

    /// The colour of the number written on that square: light on dark squares.
    pub fn ink(&self, count: &BigUint) -> &'static str {
        match self.position(count) {
            Some(t) if t > 0.55 => "#ffffff",
            _ => "#111111",
        }
    }
}

/// ln(c + 1) from the number's bits, exact enough for a colour.
fn ln_count(c: &BigUint) -> f64 {
    let bits = c.bits();
    if bits <= 52 {
        (c.to_f64().unwrap_or(0.0) + 1.0).ln()
    } else {
        let shift = bits - 52;
        ((c >> shift).to_f64().unwrap_or(0.0)).ln() + shift as f64 * std::f64::consts::LN_2
    }
}

/// Eleven colours of the scale from 0 to 1, for a legend.
pub fn legend_colours() -> Vec<String> {
    (0..=10).map(|i| scale(i as f64 / 10.0)).collect()
}

/// A colour of the scale, `t` from 0 (pale yellow) to 1 (dark blue).
fn scale(t: f64) -> String {
    const STOPS: [(f64, [f64; 3]); 5] = [
        (0.0, [255.0, 255.0, 204.0]),
        (0.25, [161.0, 218.0, 180.0]),
        (0.5, [65.0, 182.0, 196.0]),
        (0.75, [44.0, 127.0, 184.0]),
        (1.0, [37.0, 52.0, 148.0]),
    ];
    let t = t.clamp(0.0, 1.0);
    let i = STOPS
        .windows(2)
        .position(|w| t <= w[1].0)
        .unwrap_or(STOPS.len() - 2);
    let ((t0, c0), (t1, c1)) = (STOPS[i], STOPS[i + 1]);
    let f = if t1 > t0 { (t - t0) / (t1 - t0) } else { 0.0 };
    let mix = |k: usize| (c0[k] + (c1[k] - c0[k]) * f).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
}
