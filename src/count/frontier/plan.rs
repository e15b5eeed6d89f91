//! What one count is: the board turned so that its rows are the short side (or the long side,
//! on request), the mode, and the rules that follow from them, among them how the board is cut
//! when meeting in the middle.

use crate::board::{Board, Square, Symmetry};
use crate::error::Error;

/// The widest short side the frontier engine takes (width 9's keys are `u128`).
pub const MAX_WIDTH: u32 = 9;

/// The most squares a cut may have: the join's reduced states give each cut square five bits
/// of a `u128` past 16 squares (four of a `u64` up to 16), and its class keys two bits.
pub(super) const MAX_CUT_SQUARES: usize = 24;

/// Which side of the board the frontier's rows run along.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rows {
    /// Along the short side: the narrowest window, the fewest states.
    #[default]
    Short,
    /// Along the long side: a wider window over fewer rows, for counting a board a second way
    /// (its width, the long side, must be at most [`MAX_WIDTH`] too).
    Long,
}

/// What the frontier engine counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontierMode {
    /// Closed tours: Hamiltonian cycles, each counted once.
    Closed,
    /// All open tours: Hamiltonian paths, each counted once (half the directed total).
    Total,
    /// Open tours from one square: Hamiltonian paths with that square as an end (the directed
    /// count from it).
    Start(Square),
    /// Open tours between two squares: Hamiltonian paths with both as their ends (the directed
    /// count from the first to the second). The two ends are as if joined by one more move:
    /// every other square takes two moves, and the pieces may not close early.
    Between(Square, Square),
}

/// What a frontier run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FrontierStats {
    /// The largest layer, in states.
    pub peak_states: u64,
    /// The memory that layer's maps held, in bytes.
    pub peak_bytes: u64,
    /// The most the maps of two layers held at once (one being read and freed, the next being
    /// filled), in bytes.
    pub peak_both_bytes: u64,
    /// States created over the whole run.
    pub transitions: u64,
    /// The layers' states added up over every square: the work a pass does, whatever its
    /// order of squares (what two ways of encoding states are compared by).
    pub layer_states: u64,
    /// The count type that held every sum: 64, 128, or 0 for arbitrary precision; for counts
    /// kept modulo primes, the bits of their product.
    pub count_bits: u32,
    /// The primes the counts were kept modulo (0: integers, or modulo `2^64`).
    pub count_primes: u32,
    /// The period, in rows, of the states in the middle of a long board, where one was
    /// recorded and used (0: none).
    pub period_rows: u32,
    /// The squares counted by the period's matrices, without generating states.
    pub periodic_squares: u64,
    /// Halves of tours between two squares read from a directory of saved halves.
    pub halves_read: u32,
    /// Halves computed and saved into it.
    pub halves_saved: u32,
    /// Layers saved as checkpoints (see [`crate::Checkpointing`]).
    #[serde(default)]
    pub checkpoints_saved: u32,
    /// The bytes those checkpoints took on disk, added up.
    #[serde(default)]
    pub checkpoint_bytes: u64,
}

impl FrontierStats {
    /// Adds the figures of another run: the larger peak, the transitions of both.
    pub fn add(&mut self, other: &FrontierStats) {
        if other.peak_states > self.peak_states {
            self.peak_states = other.peak_states;
            self.peak_bytes = other.peak_bytes;
        }
        self.peak_both_bytes = self.peak_both_bytes.max(other.peak_both_bytes);
        self.transitions += other.transitions;
        self.layer_states += other.layer_states;
        self.halves_read += other.halves_read;
        self.period_rows = self.period_rows.max(other.period_rows);
        self.periodic_squares += other.periodic_squares;
        self.halves_saved += other.halves_saved;
        self.checkpoints_saved += other.checkpoints_saved;
        self.checkpoint_bytes += other.checkpoint_bytes;
        if other.count_bits > self.count_bits {
            self.count_bits = other.count_bits;
            self.count_primes = other.count_primes;
        }
    }

    /// The figures as `--stats` says them: work, the largest layer and its bytes, the count type,
    /// the period, the halves.
    pub fn figures(&self) -> String {
        let counts = match (self.count_primes, self.count_bits) {
            (0, 0) => "arbitrary precision".to_string(),
            (0, bits) => format!("{bits} bits"),
            (primes, bits) => format!("residues modulo {primes} primes ({bits} bits)"),
        };
        let period = match self.period_rows {
            0 => String::new(),
            rows => format!(
                "; a period of {rows} rows counted {} squares as products",
                self.periodic_squares
            ),
        };
        let halves = match (self.halves_read, self.halves_saved) {
            (0, 0) => String::new(),
            (read, saved) => format!("; halves: {read} read, {saved} computed and saved"),
        };
        let checkpoints = match self.checkpoints_saved {
            0 => String::new(),
            saved => format!(
                "; {saved} checkpoints saved, {:.1} MiB written",
                self.checkpoint_bytes as f64 / (1u64 << 20) as f64
            ),
        };
        format!(
            "{} transitions, {} states over all layers, largest layer {} states, {:.1} MiB, {} bytes a state with the layer before it; counts in {counts}{period}{halves}{checkpoints}",
            self.transitions,
            self.layer_states,
            self.peak_states,
            self.peak_bytes as f64 / (1u64 << 20) as f64,
            self.bytes_per_state(),
        )
    }

    /// The bytes a state at the peak: what two layers held at once, over the largest layer.
    pub fn bytes_per_state(&self) -> u64 {
        self.peak_both_bytes
            .max(self.peak_bytes)
            .checked_div(self.peak_states)
            .unwrap_or(0)
    }
}

/// Ok when the frontier engine can count on `board` (short side at most [`MAX_WIDTH`]), else the
/// error it would give.
pub fn check_board(board: Board) -> Result<(), Error> {
    if board.rows().min(board.cols()) > MAX_WIDTH {
        return Err(Error::BoardTooWide {
            board,
            max_width: MAX_WIDTH,
            engine: "frontier",
        });
    }
    Ok(())
}

/// What a plan is for: the rules that differ between the uses of one board and mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Purpose {
    /// One board counted in one pass.
    Count,
    /// One board counted by meeting in the middle: only the top half is computed.
    Meet,
    /// Boards of several heights counted in one pass (a series), some even and some odd: the
    /// colour rules for tour ends, which depend on the height, are off.
    Heights,
    /// A tour read back from the states (see [`find_tour`](super::find_tour)).
    Witness,
}

/// The oriented board and the rules of one count.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    /// The board turned so that its rows run along the side asked ([`Rows`]).
    pub(super) board: Board,
    /// What turns the board as asked into [`Plan::board`]: the identity or the transpose.
    orientation: Symmetry,
    /// Width (the short side, unless the rows run along the long one) and height.
    pub(super) w: usize,
    pub(super) h: usize,
    pub(super) n: usize,
    /// The window: squares `v - 2W ..= v`.
    pub(super) k: usize,
    pub(super) mode: FrontierMode,
    /// The fixed start, as a row-major index of the oriented board.
    pub(super) start: Option<usize>,
    /// The fixed end (tours between two squares), likewise.
    pub(super) end: Option<usize>,
    /// The board has an odd number of squares.
    pub(super) odd: bool,
    /// The state carries the colour of the first tour end (open tours on an even board).
    pub(super) colour_flag: bool,
    /// The colour rules for tour ends apply: the board's height is fixed. (A series counts
    /// boards of every height in one pass, some even and some odd.)
    pub(super) colours: bool,
    /// Meeting in the middle: only the top half is computed, up to the last square of the cut
    /// and with the moves it owns (see [`Plan::cut`] and [`Plan::owned`]).
    pub(super) split: bool,
    /// A tour is read back from the states: no folding of mirror images.
    pub(super) witness: bool,
    /// States may be merged with their mirror images where the rest of the count is symmetric
    /// left to right (off only for the tests' oracle).
    pub(super) mirror_fold: bool,
    /// Rows that repeat in the middle of a long board are run as a recorded period (off only
    /// for the tests' oracle).
    pub(super) periodic: bool,
    /// Layers key their states by `u128` even where a `u64` holds them (on only for the tests,
    /// which compare the two).
    pub(super) wide_keys: bool,
}

impl Plan {
    /// The plan for counting `mode` tours on `board` (any orientation) for `purpose`.
    pub(super) fn new(board: Board, mode: FrontierMode, purpose: Purpose) -> Result<Plan, Error> {
        Plan::with_rows(board, mode, purpose, Rows::Short)
    }

    /// [`Plan::new`] with the rows along the side `rows` says.
    pub(super) fn with_rows(
        board: Board,
        mode: FrontierMode,
        purpose: Purpose,
        rows: Rows,
    ) -> Result<Plan, Error> {
        check_board(board)?;
        let (short, long) = (
            board.rows().min(board.cols()),
            board.rows().max(board.cols()),
        );
        if rows == Rows::Long && long > MAX_WIDTH {
            return Err(Error::Unsupported(format!(
                "the {board} board has a long side of {long}; the frontier engine's rows run along the long side only where it is at most {MAX_WIDTH}"
            )));
        }
        let width = match rows {
            Rows::Short => short,
            Rows::Long => long,
        };
        let orientation = if board.cols() != width {
            Symmetry::Transpose
        } else {
            Symmetry::Identity
        };
        let oriented = orientation.target(board);
        let (w, h) = (oriented.cols() as usize, oriented.rows() as usize);
        let place = |square: Square| -> Result<usize, Error> {
            board.check_square(square)?;
            Ok(oriented.index(orientation.apply(board, square)))
        };
        let (start, end) = match mode {
            FrontierMode::Start(square) => (Some(place(square)?), None),
            FrontierMode::Between(from, to) => {
                if from == to {
                    return Err(crate::board::BoardError::Invalid(format!(
                        "a tour between two squares needs two different squares, got {from} twice"
                    ))
                    .into());
                }
                (Some(place(from)?), Some(place(to)?))
            }
            _ => (None, None),
        };
        let n = w * h;
        let odd = !n.is_multiple_of(2);
        Ok(Plan {
            board: oriented,
            orientation,
            w,
            h,
            n,
            k: 2 * w + 1,
            mode,
            start,
            end,
            odd,
            // The colour of the first tour end is only a pruning, and it does not survive the
            // half turn: the halves go without it. A series goes without the colour rules
            // altogether. Keys of width 8 (base 12) have no room for it, and width 9 goes
            // without it too.
            colour_flag: mode == FrontierMode::Total
                && !odd
                && w <= 7
                && !matches!(purpose, Purpose::Meet | Purpose::Heights),
            colours: purpose != Purpose::Heights,
            split: purpose == Purpose::Meet,
            witness: purpose == Purpose::Witness,
            mirror_fold: true,
            periodic: true,
            wide_keys: false,
        })
    }

    /// The board as asked.
    pub(super) fn asked(&self) -> Board {
        self.orientation.inverse().target(self.board)
    }

    /// The row-major index on the oriented board of `square` of the board as asked.
    pub(super) fn index(&self, square: Square) -> usize {
        self.board
            .index(self.orientation.apply(self.asked(), square))
    }

    /// The square of the board as asked at row-major index `v` of the oriented board.
    pub(super) fn square(&self, v: usize) -> Square {
        self.orientation
            .inverse()
            .apply(self.board, self.board.square(v))
    }

    /// Whether this count meets in the middle. The halves are each other's half turn, so the
    /// cut lies between two rows (an even number of rows), around the centre square (an odd
    /// number of squares), or around the middle of the middle row (see [`Plan::cut`]).
    pub(super) fn meets(&self) -> bool {
        // The join looks its partners up instead of walking pairs, so it costs about what the
        // classes at the cut hold: half the passes and a join beat one pass over the whole
        // board wherever the board can be cut (measured; docs/measurements/ has figures).
        let shape = match self.mode {
            FrontierMode::Closed => !self.odd,
            FrontierMode::Total => true,
            FrontierMode::Start(_) | FrontierMode::Between(..) => false,
        };
        shape && self.can_cut_open()
    }

    /// Whether open paths on this board can be cut into halves that are each other's half turn
    /// (see [`Plan::cut`]), whether or not it pays.
    pub(super) fn can_cut_open(&self) -> bool {
        // Small boards first: their cut would run off the board.
        self.h >= 4 && self.w >= 3 && self.cut_squares() <= MAX_CUT_SQUARES
    }

    /// Whether the cut lies around the middle of the middle row: an odd number of rows, an even
    /// number of squares.
    pub(super) fn cut_in_row(&self) -> bool {
        !self.odd && !self.h.is_multiple_of(2)
    }

    /// Whether the cut is around the centre of the board rather than between two rows.
    pub(super) fn cut_around_centre(&self) -> bool {
        !self.h.is_multiple_of(2)
    }

    fn cut_squares(&self) -> usize {
        let (lo, hi) = self.cut();
        hi - lo + 1
    }

    /// The squares of the cut when meeting in the middle, `lo..=hi` in row-major order: the
    /// `2W` squares of the two middle rows (an even number of rows); the `2W + 1` squares
    /// around the centre square (an odd number of squares); or, an odd number of rows and an
    /// even number of squares, the `2W + 2` squares around the middle of the middle row. The cut
    /// is its own half turn (square `v` turns to `n - 1 - v`); no move joins a square before it
    /// to one after it (a move spans at most `2W + 1` squares).
    pub(super) fn cut(&self) -> (usize, usize) {
        if self.odd {
            let centre = (self.n - 1) / 2;
            (centre - self.w, centre + self.w)
        } else if self.cut_in_row() {
            (self.n / 2 - self.w - 1, self.n / 2 + self.w)
        } else {
            (self.n / 2 - self.w, self.n / 2 + self.w - 1)
        }
    }

    /// The last square of the top half's pass: the cut's last, or, where the cut (`2W + 2`
    /// squares) is one square longer than the window, the one before it. That square takes no
    /// move from the top half (every move it has within the cut is the bottom's or its own half
    /// turn), so the top half sees it empty.
    pub(super) fn last_of_top_half(&self) -> usize {
        let (_, hi) = self.cut();
        if self.cut_in_row() { hi - 1 } else { hi }
    }

    pub(super) fn corner_colour(&self, v: usize) -> bool {
        ((v / self.w) + (v % self.w)).is_multiple_of(2)
    }

    /// The moves of square `u` not yet decided once square `v` is processed: those to later
    /// squares, and, when meeting in the middle, those this half never decides.
    pub(super) fn future_moves(&self, u: usize, v: usize, rows: usize) -> u8 {
        let (r, c) = ((u / self.w) as i64, (u % self.w) as i64);
        let mut count = 0;
        for (dr, dc) in crate::board::KNIGHT_MOVES {
            let (rr, cc) = (r + dr as i64, c + dc as i64);
            if rr >= 0 && rr < rows as i64 && cc >= 0 && cc < self.w as i64 {
                let x = (rr as usize) * self.w + cc as usize;
                let (earlier, later) = (u.min(x), u.max(x));
                if later > v || !self.owned(earlier, later) {
                    count += 1;
                }
            }
        }
        count
    }

    /// True when the move between `earlier` and `later` is decided by this computation (at
    /// square `later`). Meeting in the middle, the top half owns the moves from squares before
    /// the cut (into the cut or before it) and half of the moves inside the cut: the other half
    /// owns their half turns. Between the two rows of an even cut, the top half owns a move
    /// whose upper end is nearer the middle column than its lower end: a rule symmetric left to
    /// right, so that the top half's states may be merged with their mirror images. Around the
    /// centre of a board with an odd number of rows it owns those whose ends add up to less than
    /// `n - 1`. A
    /// move whose ends add up to `n - 1` is its own half turn: neither half owns it (the join
    /// tries it both ways).
    pub(super) fn owned(&self, earlier: usize, later: usize) -> bool {
        if !self.split {
            return true;
        }
        let (lo, hi) = self.cut();
        if later > hi {
            return false;
        }
        if earlier < lo {
            return true;
        }
        if self.cut_around_centre() {
            return earlier + later < self.n - 1;
        }
        let off_middle = |v: usize| (2 * (v % self.w)).abs_diff(self.w - 1);
        off_middle(earlier) < off_middle(later)
    }

    /// Whether this plan's states may be merged with their mirror images at the end of each
    /// row: no fixed end breaks the symmetry, no tour is read back, and meeting in the middle
    /// the cut is two whole rows (see [`Plan::owned`]).
    pub(super) fn folds_mirror_images(&self) -> bool {
        self.mirror_fold
            && self.start.is_none()
            && !self.witness
            && !(self.split && self.cut_around_centre())
    }

    /// The moves inside the cut that are their own half turn, as pairs of cut squares.
    pub(super) fn self_turned_moves(&self) -> Vec<(usize, usize)> {
        let (lo, hi) = self.cut();
        let mut moves = Vec::new();
        for a in lo..=hi {
            let b = self.n - 1 - a;
            let (dr, dc) = (
                (b / self.w).abs_diff(a / self.w),
                (b % self.w).abs_diff(a % self.w),
            );
            if a < b && b <= hi && dr * dc == 2 {
                moves.push((a - lo, b - lo));
            }
        }
        moves
    }
}
